"""Names a module gives a notebook through `from m import *` and `%run m.py`: a module
beside the notebook (the kernel's working folder), or one installed where nbdeps runs,
read from its source without importing it (a compiled standard-library module such as
`math` is imported: that has no side effects)."""

from __future__ import annotations

import ast
import importlib.machinery
import importlib.util
import os
import re
import sys
from functools import lru_cache
from pathlib import Path

from ._scopes import alias_name

__all__ = ["installed_names", "module_names", "run_names"]

_RUN_TARGET = re.compile(r"%run\s+(?:-\w+\s+)*(\S+\.py)\b")


def module_names(folder: Path, module: str) -> frozenset[str] | None:
    """The names `from <module> import *` binds, when `<module>` is a file or package in
    `folder`; None when it is not there or does not parse (names stay unknown).

    `__all__` decides when it is a literal list or tuple of strings; otherwise every
    top-level name not starting with an underscore, as Python does.
    """
    if not module or module.startswith(".") or not all(p.isidentifier() for p in module.split(".")):
        return None
    base = folder.joinpath(*module.split("."))
    for path in (base.with_suffix(".py"), base / "__init__.py"):
        names = _top_level(str(path), _mtime(path))
        if names is not None:
            exported, everything = names
            return exported if exported is not None else frozenset(n for n in everything if not n.startswith("_"))
    return None


def installed_names(module: str) -> tuple[frozenset[str], bool] | None:
    """The names `from <module> import *` binds for an installed module, and whether
    the list is complete (False when a module it star-imports in turn cannot be read, a
    compiled extension for instance); None when the module is not found or unreadable."""
    return _installed(module, 0)


_SAFE_COMPILED = frozenset(getattr(sys, "stdlib_module_names", ())) - {"this", "antigravity", "tkinter", "_tkinter"}


@lru_cache(maxsize=256)
def _installed(module: str, depth: int) -> tuple[frozenset[str], bool] | None:
    path = _locate(module)
    if path is None:
        return None
    if not path.endswith(".py"):
        return _compiled(module)
    top = _top_level(path, _mtime(Path(path)))
    if top is None:
        return None
    exported, everything = top
    if exported is not None:
        return exported, True
    names = {n for n in everything if not n.startswith("_")}
    # without a literal `__all__`, a module that mentions `__all__` builds it some way we
    # do not follow: its names may be read, not trusted to be all of them
    complete = "__all__" not in everything
    for star in _star_imports(path, _mtime(Path(path))):
        target = _absolute(star, module, path)
        inner = _installed(target, depth + 1) if target and depth < 4 else None
        if inner is None:
            complete = False
        else:
            names |= inner[0]
            complete = complete and inner[1]
    return frozenset(names), complete


def _compiled(module: str) -> tuple[frozenset[str], bool] | None:
    if module.split(".")[0] not in _SAFE_COMPILED:
        return None
    try:
        loaded = sys.modules.get(module) or importlib.import_module(module)
        names = getattr(loaded, "__all__", None) or [n for n in dir(loaded) if not n.startswith("_")]
        return frozenset(str(n) for n in names), True
    except Exception:  # an odd interpreter build: the names stay unknown
        return None


def _locate(module: str) -> str | None:
    """The file of `module` found on sys.path without importing it or its parents."""
    parts = module.split(".")
    if not all(p.isidentifier() for p in parts):
        return None
    try:
        spec = importlib.machinery.PathFinder.find_spec(parts[0])
        if spec is None:
            spec = importlib.util.find_spec(parts[0]) if parts[0] in sys.builtin_module_names else None
        for part in parts[1:]:
            if spec is None or not spec.submodule_search_locations:
                return None
            spec = importlib.machinery.PathFinder.find_spec(f"{spec.name}.{part}", list(spec.submodule_search_locations))
    except (ImportError, ValueError, OSError):
        return None
    if spec is None:
        return None
    return spec.origin if spec.origin not in (None, "built-in", "frozen") else (
        "<built-in>" if spec.origin == "built-in" else None)


def _absolute(star: tuple[int, str], module: str, path: str) -> str | None:
    level, name = star
    if level == 0:
        return name
    package = module if path.endswith("__init__.py") else module.rpartition(".")[0]
    for _ in range(level - 1):
        package = package.rpartition(".")[0]
    if not package:
        return None
    return f"{package}.{name}" if name else package


@lru_cache(maxsize=256)
def _star_imports(path: str, mtime: float | None) -> tuple[tuple[int, str], ...]:
    try:
        with open(path, "rb") as fh:
            tree = ast.parse(fh.read(2_000_000))
    except (OSError, SyntaxError, ValueError, RecursionError):
        return ()
    return tuple((node.level, node.module or "") for node in tree.body
                 if isinstance(node, ast.ImportFrom) and any(a.name == "*" for a in node.names))


def run_names(folder: Path, magic: str) -> frozenset[str] | None:
    """The names `%run file.py` binds (every top-level name), or None when unknown."""
    match = _RUN_TARGET.match(magic)
    if match is None:
        return None
    path = folder / match.group(1)
    names = _top_level(str(path), _mtime(path))
    return None if names is None else names[1]


def _mtime(path: Path) -> float | None:
    try:
        return os.stat(path).st_mtime if path.is_file() else None
    except OSError:
        return None


@lru_cache(maxsize=256)
def _top_level(path: str, mtime: float | None) -> tuple[frozenset[str] | None, frozenset[str]] | None:
    """(`__all__` or None, every top-level name) of a Python file; cached by mtime."""
    if mtime is None:
        return None
    try:
        with open(path, "rb") as fh:
            tree = ast.parse(fh.read(2_000_000))
    except (OSError, SyntaxError, ValueError, RecursionError):
        return None
    names: set[str] = set()
    exported: frozenset[str] | None = None
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            names.update(alias_name(a) for a in node.names if a.name != "*")
        elif isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                names.update(n.id for n in ast.walk(target) if isinstance(n, ast.Name))
                if isinstance(target, ast.Name) and target.id == "__all__":
                    exported = _literal_names(node.value) if node.value is not None else None
        elif isinstance(node, (ast.If, ast.Try, ast.With, ast.For)):
            # conditional definitions (`try: import x except: x = None`) count
            for sub in ast.walk(node):
                if isinstance(sub, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                    names.add(sub.name)
                elif isinstance(sub, ast.Name) and isinstance(sub.ctx, ast.Store):
                    names.add(sub.id)
                elif isinstance(sub, (ast.Import, ast.ImportFrom)):
                    names.update(alias_name(a) for a in sub.names if a.name != "*")
    if exported is not None and sum(isinstance(n, ast.Name) and n.id == "__all__" for n in ast.walk(tree)) != 1:
        exported = None  # `__all__` is extended or rebuilt somewhere: not a literal list
    return exported, frozenset(names)


def _literal_names(node: ast.expr) -> frozenset[str] | None:
    if isinstance(node, (ast.List, ast.Tuple)) and all(
        isinstance(e, ast.Constant) and isinstance(e.value, str) for e in node.elts
    ):
        return frozenset(e.value for e in node.elts)
    return None
