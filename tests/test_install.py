"""Each package installs alone, with only what it declares, into a fresh environment.

The documented way (``scripts/install.py NAME``, the one pip command with the local paths of
the siblings it needs) runs in a new virtual environment that has nothing installed. The
third-party dependencies come, offline, from this test's own environment, but only those
the package declares (followed through their own requirements, extras and markers): a
folder of links to just those distributions is put on the new environment's path. So an
undeclared import (pandas, a sibling) fails here as it would for a user, pip must resolve
every sibling from its local path (``--no-index``: nothing comes from an index), and no
download is needed.
"""

from __future__ import annotations

import importlib.metadata as metadata
import os
import re
import shlex
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("nbdeps", "rtextract", "nbpatch", "crashpredict", "benchkit")
SCRIPT = ROOT / "scripts" / "install.py"
# what installing needs besides the package's own closure: pip itself, and the build backend
# (the new environment builds the wheels with --no-build-isolation: no download of hatchling)
TOOLING = ("pip", "hatchling")

pytestmark = pytest.mark.slow


def _install_order(package: str) -> list[tuple[str, set[str]]]:
    sys.path.insert(0, str(SCRIPT.parent))
    try:
        import install
    finally:
        sys.path.pop(0)
    return install.install_order([package])


def _third_party(package: str) -> set[str]:
    """The requirement strings of ``package`` and of the siblings it pulls in, siblings left out."""
    wanted: set[str] = set()
    for name, extras in _install_order(package):
        project = tomllib.loads((ROOT / "packages" / name / "pyproject.toml").read_text())["project"]
        requirements = list(project.get("dependencies", []))
        for extra in extras:
            requirements += project["optional-dependencies"][extra]
        wanted.update(r for r in requirements if canonicalize_name(Requirement(r).name) not in PACKAGES)
    return wanted


def _closure(requirements: set[str]) -> dict[str, metadata.Distribution]:
    """The installed distributions that ``requirements`` need, followed transitively."""
    found: dict[str, metadata.Distribution] = {}
    todo = [(Requirement(r), frozenset()) for r in requirements]
    while todo:
        requirement, extras = todo.pop()
        environment = [{"extra": e} for e in extras] or [{"extra": ""}]
        if requirement.marker and not any(requirement.marker.evaluate(env) for env in environment):
            continue
        key = canonicalize_name(requirement.name)
        dist = metadata.distribution(requirement.name)  # missing here: the test env is broken
        first_visit = key not in found
        found[key] = dist
        if first_visit or requirement.extras:
            todo += [(Requirement(r), frozenset(requirement.extras)) for r in dist.requires or ()]
    return found


def _link_farm(dists: dict[str, metadata.Distribution], folder: Path) -> Path:
    """A folder of links to the top-level files of ``dists`` (their packages, modules and
    .dist-info), nothing else of this environment's site-packages."""
    folder.mkdir()
    for dist in dists.values():
        base = Path(dist.locate_file(""))
        tops = {Path(f).parts[0] for f in dist.files or () if not str(f).startswith("..")}
        tops.add(Path(dist._path).name)  # the .dist-info folder even without a RECORD
        for top in tops:
            if (base / top).exists() and not (folder / top).exists() and not top.endswith(".pth"):
                (folder / top).symlink_to(base / top)
    return folder


@pytest.mark.parametrize("package", PACKAGES)
def test_package_installs_alone_into_a_fresh_environment(package, tmp_path):
    dists = _closure(_third_party(package) | set(TOOLING))
    farm = _link_farm(dists, tmp_path / "deps")
    env = tmp_path / "env"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(env)], check=True)
    python = env / "bin" / "python"
    site = subprocess.run([python, "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
                          capture_output=True, text=True, check=True).stdout.strip()
    Path(site, "_declared_deps.pth").write_text(f"{farm}\n")
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("PIP_", "PYTHON", "VIRTUAL_ENV"))}
    clean |= {"PIP_CONFIG_FILE": os.devnull, "PIP_NO_INPUT": "1", "PIP_DISABLE_PIP_VERSION_CHECK": "1"}

    done = subprocess.run([python, str(SCRIPT), package, "--no-index", "--no-build-isolation", "-q"],
                          cwd=tmp_path, env=clean, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    siblings = [name for name, _ in _install_order(package)]
    assert f"./packages/{package}" in done.stderr  # it says the command it runs

    imported = subprocess.run(
        [python, "-c", f"import sys, {package}; print({package}.__file__); "
         f"print(sorted(m for m in {PACKAGES!r} if m in sys.modules or "
         "__import__('importlib.util').util.find_spec(m)))"],
        cwd=tmp_path, env=clean, capture_output=True, text=True, timeout=120)
    assert imported.returncode == 0, imported.stderr
    where, installed = imported.stdout.splitlines()
    assert Path(where).is_relative_to(site)  # installed into the new environment, not the repo
    assert sorted(eval(installed)) == sorted(siblings)  # the siblings it needs, no other

    version = subprocess.run([env / "bin" / package, "--version"], env=clean,
                             capture_output=True, text=True, timeout=120)
    assert version.returncode == 0, version.stderr
    assert re.fullmatch(rf"{package} \d+\.\d+\.\d+\S*\n", version.stdout)

    check = subprocess.run([python, "-m", "pip", "check"], env=clean, capture_output=True,
                           text=True, timeout=120)
    assert check.returncode == 0, check.stdout + check.stderr


def test_each_readme_gives_the_command_that_installs_the_package_alone():
    """The README points at `scripts/install.py`; each package's README spells out the pip
    command it runs, with the local paths of the siblings (plain `pip install
    ./packages/crashpredict` fails: the siblings are not on PyPI)."""
    sys.path.insert(0, str(SCRIPT.parent))
    try:
        import install
    finally:
        sys.path.pop(0)
    assert "scripts/install.py" in (ROOT / "README.md").read_text()
    for package in PACKAGES:
        command = "pip install " + shlex.join(install.pip_command([package])[4:])
        text = " ".join((ROOT / "packages" / package / "README.md").read_text().split())
        assert command in text, (package, command)


def test_install_script_refuses_an_unknown_package_with_one_line():
    done = subprocess.run([sys.executable, str(SCRIPT), "numpyy", "--print"],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert done.stderr.startswith("install.py: numpyy: not a package of this repository")
    assert "Traceback" not in done.stderr
