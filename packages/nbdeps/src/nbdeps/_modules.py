"""Names a local module gives a notebook: `from helpers import *` and `%run helpers.py`
when the file sits beside the notebook (the kernel's working folder)."""

from __future__ import annotations

import ast
import os
import re
from functools import lru_cache
from pathlib import Path

from ._scopes import alias_name

__all__ = ["module_names", "run_names"]

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
    return exported, frozenset(names)


def _literal_names(node: ast.expr) -> frozenset[str] | None:
    if isinstance(node, (ast.List, ast.Tuple)) and all(
        isinstance(e, ast.Constant) and isinstance(e.value, str) for e in node.elts
    ):
        return frozenset(e.value for e in node.elts)
    return None
