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


# ---- import circles ---------------------------------------------------------------------------
# Every import counts: at module level, inside functions and under `if TYPE_CHECKING:` (a
# circle hidden in a function or a type-only import is still two modules that need each
# other). A package's own __init__ is not counted as imported by its submodules.


def _module_name(path: Path, src: Path) -> str:
    parts = list(path.relative_to(src).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _resolve(module: str, is_package: bool, node: ast.ImportFrom | ast.Import,
             known: set[str]) -> list[str]:
    if isinstance(node, ast.Import):
        candidates = [alias.name for alias in node.names]
    else:
        if node.level:
            base = module.split(".") if is_package else module.split(".")[:-1]
            base = base[: len(base) - (node.level - 1)]
            target = ".".join(base + ([node.module] if node.module else []))
        else:
            target = node.module or ""
        # `from pkg import sub` imports the submodule pkg.sub when there is one
        candidates = [f"{target}.{alias.name}" if f"{target}.{alias.name}" in known else target
                      for alias in node.names]
    found = []
    for name in candidates:
        while name and name not in known:  # `import a.b.c` of a function/class: its module
            name = name.rpartition(".")[0]
        if name:
            found.append(name)
    return found


def import_graph(package: str) -> dict[str, set[str]]:
    """Module -> the modules of the same package it imports (anywhere in its code)."""
    src = ROOT / "packages" / package / "src"
    paths = {_module_name(p, src): p for p in (src / package).rglob("*.py")}
    known = set(paths)
    graph: dict[str, set[str]] = {name: set() for name in known}
    for name, path in paths.items():
        is_package = path.name == "__init__.py"
        for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                for target in _resolve(name, is_package, node, known):
                    if target != name and not name.startswith(target + "."):
                        graph[name].add(target)
    return graph


def import_circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    circles: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                circles.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return circles


@pytest.mark.parametrize("package", PACKAGES)
def test_no_import_circles_inside_a_package(package):
    assert import_circles(import_graph(package)) == []


def test_the_circle_finder_finds_circles():
    graph = {"p.a": {"p.b"}, "p.b": {"p.c"}, "p.c": {"p.a"}, "p.d": {"p.a"}, "p.e": set()}
    assert import_circles(graph) == [["p.a", "p.b", "p.c"]]


def test_the_import_graph_sees_imports_in_functions_and_type_checking(tmp_path, monkeypatch):
    src = tmp_path / "packages" / "demo" / "src" / "demo"
    (src / "sub").mkdir(parents=True)
    (src / "__init__.py").write_text("from .a import f\n")
    (src / "a.py").write_text("def f():\n    from .sub import b\n")
    (src / "sub" / "__init__.py").write_text("")
    (src / "sub" / "b.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from ..a import f\n")
    monkeypatch.setattr(sys.modules[__name__], "ROOT", tmp_path)
    graph = import_graph("demo")
    assert graph == {"demo": {"demo.a"}, "demo.a": {"demo.sub.b"}, "demo.sub": set(),
                     "demo.sub.b": {"demo.a"}}
    assert import_circles(graph) == [["demo.a", "demo.sub.b"]]


@pytest.mark.parametrize("package", PACKAGES)
def test_no_ipython_transform_outside_nbdeps(package):
    """One IPython -> Python transform (nbdeps.ipython_to_python), so every engine reports
    the same line."""
    users = [str(p.relative_to(ROOT)) for p in (ROOT / "packages" / package / "src").rglob("*.py")
             if "TransformerManager" in p.read_text()]
    expected = ["packages/nbdeps/src/nbdeps/_transform.py"] if package == "nbdeps" else []
    assert users == expected
