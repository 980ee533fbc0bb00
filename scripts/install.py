"""Install one of the workspace's packages, alone, into the Python that runs this script.

The five packages are not on PyPI, so ``pip install ./packages/crashpredict`` alone ends in
"No matching distribution found for nbdeps": pip looks for the siblings on the index. Given
in the same command as local paths, they resolve; this script works out which siblings a
package needs (from the pyproject.toml files) and runs that one pip command::

    /path/to/your/env/bin/python scripts/install.py crashpredict
    # runs: python -m pip install ./packages/nbdeps ./packages/rtextract ./packages/crashpredict

    python scripts/install.py 'benchkit[llm]' -e      # extras; -e installs them editable
    python scripts/install.py nbpatch --print         # print the pip command, run nothing

Everything after the package names that starts with ``-`` goes to pip unchanged (``-e``
excepted, which makes each path editable), e.g. ``--no-index --no-build-isolation``.
Only the standard library: it runs in any environment with pip.
"""

from __future__ import annotations

import re
import shlex
import subprocess
import sys
import tomllib
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ROOT / "packages"
_REQUIREMENT = re.compile(r"\s*([A-Za-z0-9][A-Za-z0-9._-]*)\s*(?:\[([^\]]*)\])?")


def _members() -> dict[str, dict]:
    found = {}
    for pyproject in sorted(PACKAGES.glob("*/pyproject.toml")):
        project = tomllib.loads(pyproject.read_text())["project"]
        found[project["name"]] = project
    return found


def _parse(spec: str) -> tuple[str, set[str]]:
    match = _REQUIREMENT.fullmatch(spec.split(";")[0].strip()) or _REQUIREMENT.match(spec)
    if match is None:
        raise ValueError(f"not a package name: {spec!r}")
    extras = {e.strip() for e in (match.group(2) or "").split(",") if e.strip()}
    return match.group(1).lower().replace("_", "-"), extras


def install_order(wanted: Sequence[str]) -> list[tuple[str, set[str]]]:
    """The workspace packages ``wanted`` needs, dependencies first, with the extras asked
    for (by the user or by a sibling's requirement, e.g. benchkit's ``nbpatch[run]``).

    Raises:
        ValueError: a name that is not one of the workspace's packages.
    """
    members = _members()
    extras: dict[str, set[str]] = {}
    order: list[str] = []

    def visit(name: str, with_extras: set[str], path: tuple[str, ...]) -> None:
        if name not in members:
            raise ValueError(f"{name}: not a package of this repository "
                             f"(one of: {', '.join(sorted(members))})")
        unknown = with_extras - set(members[name].get("optional-dependencies", {}))
        if unknown and not path:
            raise ValueError(f"{name}: no extra {', '.join(sorted(unknown))} (it has: "
                             f"{', '.join(sorted(members[name].get('optional-dependencies', {}))) or 'none'})")
        extras.setdefault(name, set()).update(with_extras)
        requirements = list(members[name].get("dependencies", []))
        for extra in with_extras:
            requirements += members[name].get("optional-dependencies", {}).get(extra, [])
        for requirement in requirements:
            dep, dep_extras = _parse(requirement)
            if dep in members and dep not in path:
                visit(dep, dep_extras, path + (name,))
        if name not in order:
            order.append(name)

    for spec in wanted:
        visit(*_parse(spec), ())
    return [(name, extras[name]) for name in order]


def pip_command(wanted: Sequence[str], pip_args: Sequence[str] = (), editable: bool = False,
                python: str = "python") -> list[str]:
    """The one ``pip install`` command that installs ``wanted`` with the siblings it needs,
    each given by its local path (relative to the repository root)."""
    command = [python, "-m", "pip", "install", *pip_args]
    for name, extras in install_order(wanted):
        path = f"./packages/{name}" + (f"[{','.join(sorted(extras))}]" if extras else "")
        command += ["-e", path] if editable else [path]
    return command


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if not args or args[0] in ("-h", "--help"):
        print(__doc__.strip())
        return 0 if args else 2
    names = [a for a in args if not a.startswith("-")]
    flags = [a for a in args if a.startswith("-")]
    show_only = "--print" in flags
    editable = "-e" in flags or "--editable" in flags
    pip_args = [f for f in flags if f not in ("--print", "-e", "--editable")]
    if not names:
        print("install.py: name a package: nbdeps, rtextract, nbpatch, crashpredict or benchkit",
              file=sys.stderr)
        return 2
    try:
        command = pip_command(names, pip_args, editable=editable)
    except ValueError as exc:
        print(f"install.py: {exc}", file=sys.stderr)
        return 2
    print(shlex.join(command), file=sys.stdout if show_only else sys.stderr, flush=True)
    if show_only:
        return 0
    # run from the repository root, so that the relative paths hold wherever it was called
    return subprocess.call([sys.executable, *command[1:]], cwd=ROOT)


if __name__ == "__main__":
    raise SystemExit(main())
