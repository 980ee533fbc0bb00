"""The workspace's shape: five packages, one-way dependencies, no sibling imports by leaves."""

from __future__ import annotations

import ast
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("nbdeps", "rtextract", "nbpatch", "crashpredict", "benchkit")
# who may import whom: the leaves import no sibling, crashpredict sits on two leaves,
# benchkit on everything
ALLOWED = {
    "nbdeps": set(),
    "rtextract": set(),
    "nbpatch": set(),
    "crashpredict": {"nbdeps", "rtextract"},
    "benchkit": {"nbdeps", "rtextract", "nbpatch", "crashpredict"},
}


def _imported_siblings(package: str) -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    for path in sorted((ROOT / "packages" / package / "src" / package).rglob("*.py")):
        tree = ast.parse(path.read_text(), filename=str(path))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            else:
                continue
            for name in names:
                top = name.split(".")[0]
                if top in PACKAGES and top != package:
                    found.setdefault(top, []).append(f"{path.relative_to(ROOT)}:{node.lineno}")
    return found


@pytest.mark.parametrize("package", PACKAGES)
def test_package_has_src_layout_and_own_pyproject(package):
    base = ROOT / "packages" / package
    meta = tomllib.loads((base / "pyproject.toml").read_text())
    assert meta["project"]["name"] == package
    assert (base / "src" / package / "__init__.py").is_file()
    assert (base / "src" / package / "py.typed").is_file()


@pytest.mark.parametrize("package", PACKAGES)
def test_package_imports_only_allowed_siblings(package):
    imported = _imported_siblings(package)
    forbidden = {k: v for k, v in imported.items() if k not in ALLOWED[package]}
    assert forbidden == {}


@pytest.mark.parametrize("package", PACKAGES)
def test_declared_sibling_dependencies_match_allowed(package):
    meta = tomllib.loads((ROOT / "packages" / package / "pyproject.toml").read_text())
    declared = {d.split()[0].split(";")[0].split("[")[0] for d in meta["project"].get("dependencies", [])}
    assert declared & set(PACKAGES) == ALLOWED[package]


@pytest.mark.parametrize("package", ("nbdeps", "rtextract", "nbpatch"))
def test_leaf_import_loads_no_sibling(package):
    code = (
        f"import sys, {package}; "
        f"print(sorted(m for m in {set(PACKAGES)!r} if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == repr([package])


def test_readme_opens_with_the_two_commands():
    lines = [l.strip() for l in (ROOT / "README.md").read_text().splitlines()]
    block_start = lines.index("```sh")
    commands = lines[block_start + 1 : lines.index("```", block_start + 1)]
    commands = [c.split("#")[0].strip() for c in commands if c and not c.startswith("#")]
    assert commands == ["make demo", "make test"]
    ci = (ROOT / ".ci" / "run").read_text()
    assert "make test" in ci
