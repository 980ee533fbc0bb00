"""Resolvers driven by the error: ask today's installed libraries what replaced a name.

When neither the codemod catalog nor the drift knowledge base changes anything, the error
itself says what to look for:

- ``ModuleNotFoundError: No module named 'a.b'`` / ``ImportError: cannot import name 'X'
  from 'a.b'``: where does ``X`` (or a close name) live now? Every public module of the
  package is searched (``pkgutil``; tests and private modules skipped); a module that left
  the package (``sklearn.externals.joblib``) may be a top-level one now.
- ``TypeError: f() got an unexpected keyword argument 'k'``: the closest parameter of
  ``f``'s signature today (``inspect.signature`` and ``difflib``), else drop ``k``.
- ``TypeError: f() takes 1 positional argument but 3 were given`` (arguments that became
  keyword-only): the extra ones passed by keyword, in the order of today's signature.
- ``AttributeError: module 'm' has no attribute 'x'`` / ``'C' object has no attribute 'x'``:
  the close names of ``m`` or of the library's class ``C`` (as Python's "Did you mean"
  suggests), or ``x`` found in a submodule of ``m``.

Each candidate is a minimal edit of the failing lines of the failing cell; the loop runs the
notebook with it and keeps it only if the error moves past it and the cells before give the
same outputs. The libraries are imported here, in the benchkit process, only when a
resolver needs them (never at import time).
"""

from __future__ import annotations

import difflib
import importlib
import inspect
import pkgutil
import re
import warnings
from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import libcst as cst
from libcst.metadata import MetadataWrapper, PositionProvider

from ._codemods import aliases_of, parse_cell, render_cell
from ._codemods._base import dotted
from ._codemods._removed import unfaithful_drop
from ._model import Classification

__all__ = ["Candidate", "candidates"]

MAX_CANDIDATES = 4
_SKIP = re.compile(r"(^|\.)(tests?|testing|conftest|_?vendor|externals|setup|benchmarks?"
                   r"|distutils|f2py)(\.|$)"
                   # a library's backends for other frameworks (keras.src.backend.torch,
                   # .jax, .openvino): importing them loads those frameworks beside this
                   # one, which can crash the process; their names are not the public API
                   r"|\.backends?\.(jax|torch|tensorflow|numpy|openvino|mlx|cupy)(\.|$)")
_HEAVY_OK = ("numpy", "pandas", "sklearn", "matplotlib", "seaborn", "scipy", "torch",
             "tensorflow", "keras", "statsmodels", "xgboost", "lightgbm", "joblib", "six")


@dataclass(frozen=True, slots=True, kw_only=True)
class Candidate:
    """One repair to try: the failing cell's new source and what it does, in words
    (``others``: new sources of more cells, for a repair that spells out an old default
    where the object was built)."""

    cell: int
    source: str
    label: str
    others: tuple[tuple[int, str], ...] = ()

    def sources(self) -> dict[int, str]:
        """Every cell the candidate changes, with its new source."""
        return {self.cell: self.source, **dict(self.others)}


def _quiet_import(name: str) -> Any:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            return importlib.import_module(name)
        except BaseException:  # a module may raise anything while importing, even SystemExit
            return None


@lru_cache(maxsize=16)
def _modules(package: str) -> tuple[str, ...]:
    """The public modules of an installed package (no tests, no private parts)."""
    top = _quiet_import(package)
    if top is None or not hasattr(top, "__path__"):
        return (package,) if top is not None else ()
    return (package, *_walk(top.__path__, package + "."))


def _walk(path: Any, prefix: str) -> Iterator[str]:
    """Public submodules, skipping private and test packages before importing them (an
    import may warn, print or fail: numpy.distutils, matplotlib.tests)."""
    for info in pkgutil.iter_modules(path, prefix):
        if any(p.startswith("_") for p in info.name.split(".")) or _SKIP.search(info.name):
            continue
        yield info.name
        if info.ispkg:
            module = _quiet_import(info.name)
            if module is not None and hasattr(module, "__path__"):
                yield from _walk(module.__path__, info.name + ".")


@lru_cache(maxsize=16)
def _index(package: str) -> dict[str, tuple[str, ...]]:
    """Public name -> the public modules of ``package`` that export it."""
    out: dict[str, list[str]] = {}
    for name in _modules(package):
        module = _quiet_import(name)
        if module is None:
            continue
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            exported = (getattr(module, "__all__", None)
                        or [a for a in vars(module) if not a.startswith("_")])
        for attr in exported:
            if isinstance(attr, str):
                out.setdefault(attr, []).append(name)
    return {k: tuple(v) for k, v in out.items()}


def module_distance(a: str, b: str) -> int:
    """Steps between two dotted module names through their common prefix."""
    pa, pb = a.split("."), b.split(".")
    common = 0
    for x, y in zip(pa, pb):
        if x != y:
            break
        common += 1
    return len(pa) + len(pb) - 2 * common


def _allowed(package: str) -> bool:
    return package in _HEAVY_OK


# -- edits of the failing lines ------------------------------------------------------------

class _Edit(cst.CSTTransformer):
    METADATA_DEPENDENCIES = (PositionProvider,)

    def __init__(self, lines: frozenset[int]) -> None:
        super().__init__()
        self.lines = lines
        self.changed = False

    def here(self, node: cst.CSTNode) -> bool:
        if not self.lines:
            return True
        pos = self.get_metadata(PositionProvider, node)
        return any(pos.start.line <= n <= pos.end.line for n in self.lines)


class _RenameAttr(_Edit):
    def __init__(self, lines, old: str, new: str, base: str | None = None) -> None:
        super().__init__(lines)
        self.old, self.new, self.base = old, new, base

    def leave_Attribute(self, original, updated):
        if updated.attr.value == self.old and self.here(original) and (
                self.base is None or dotted(updated.value) == self.base):
            self.changed = True
            return updated.with_changes(value=cst.parse_expression(self.new.rsplit(".", 1)[0])
                                        if "." in self.new else updated.value,
                                        attr=cst.Name(self.new.rsplit(".", 1)[-1]))
        return updated


class _Keyword(_Edit):
    def __init__(self, lines, old: str, new: str | None) -> None:
        super().__init__(lines)
        self.old, self.new = old, new

    def leave_Call(self, original, updated):
        if not self.here(original) or not any(a.keyword and a.keyword.value == self.old
                                              for a in updated.args):
            return updated
        self.changed = True
        if self.new is not None:
            return updated.with_changes(args=[
                a.with_changes(keyword=cst.Name(self.new)) if a.keyword and a.keyword.value == self.old
                else a for a in updated.args])
        args = [a for a in updated.args if not (a.keyword and a.keyword.value == self.old)]
        if args:
            args[-1] = args[-1].with_changes(comma=cst.MaybeSentinel.DEFAULT)
        return updated.with_changes(args=args)


class _Import(_Edit):
    """``from old import name`` -> ``from new import new_name [as name]``; ``import old`` ->
    ``import new``."""

    def __init__(self, lines, module: str, name: str | None, new_module: str,
                 new_name: str | None) -> None:
        super().__init__(lines)
        self.module, self.name, self.new_module, self.new_name = module, name, new_module, new_name

    def leave_ImportFrom(self, original, updated):
        if updated.module is None or dotted(updated.module) != self.module or not self.here(original):
            return updated
        if isinstance(updated.names, cst.ImportStar) or self.name is None:
            self.changed = True
            return updated.with_changes(module=cst.parse_expression(self.new_module))
        names = list(updated.names)
        hit = [a for a in names if dotted(a.name) == self.name]
        if not hit:
            return updated
        self.changed = True
        alias = hit[0]
        new_alias = alias.with_changes(
            name=cst.Name(self.new_name or self.name),
            asname=alias.asname or (cst.AsName(name=cst.Name(self.name))
                                    if self.new_name and self.new_name != self.name else None),
            comma=cst.MaybeSentinel.DEFAULT)
        if len(names) == 1:
            return updated.with_changes(module=cst.parse_expression(self.new_module),
                                        names=[new_alias])
        return cst.FlattenSentinel([
            updated.with_changes(names=[*[a for a in names if a is not alias][:-1],
                                        [a for a in names if a is not alias][-1].with_changes(
                                            comma=cst.MaybeSentinel.DEFAULT)]),
            cst.ImportFrom(module=cst.parse_expression(self.new_module), names=[new_alias])])

    def leave_Import(self, original, updated):
        if not self.here(original):
            return updated
        names = []
        for alias in updated.names:
            if dotted(alias.name) == self.module:
                self.changed = True
                alias = alias.with_changes(name=cst.parse_expression(self.new_module))
            names.append(alias)
        return updated.with_changes(names=names)


class _Positional(_Edit):
    """A call with more positional arguments than allowed: the extra ones become keywords,
    in the order of today's parameters."""

    def __init__(self, lines, name: str, allowed: int, params: list[str]) -> None:
        super().__init__(lines)
        self.name, self.allowed, self.params = name, allowed, params

    def leave_Call(self, original, updated):
        func = updated.func
        called = func.attr.value if isinstance(func, cst.Attribute) else getattr(func, "value", None)
        if called != self.name or not self.here(original) or any(a.star for a in updated.args):
            return updated
        positional = [a for a in updated.args if a.keyword is None]
        given = {a.keyword.value for a in updated.args if a.keyword is not None}
        if len(positional) <= self.allowed:
            return updated
        free = [p for p in self.params[self.allowed:] if p not in given]
        extra = positional[self.allowed:]
        if len(extra) > len(free):
            return updated
        converted = [a.with_changes(keyword=cst.Name(p), equal=cst.AssignEqual(
            cst.SimpleWhitespace(""), cst.SimpleWhitespace(""))) for a, p in zip(extra, free)]
        args = [*positional[:self.allowed], *converted,
                *[a for a in updated.args if a.keyword is not None]]
        args = [a.with_changes(comma=cst.Comma(whitespace_after=cst.SimpleWhitespace(" ")))
                for a in args[:-1]] + [args[-1].with_changes(comma=cst.MaybeSentinel.DEFAULT)]
        self.changed = True
        return updated.with_changes(args=args)


def _apply(source: str, edit: _Edit) -> str | None:
    parsed = parse_cell(source)
    if parsed is None:
        return None
    module, magics = parsed
    new = MetadataWrapper(module).visit(edit)
    if not edit.changed or new.code == module.code:
        return None
    return render_cell(new, magics)


# -- the resolvers -------------------------------------------------------------------------

_NO_MODULE = re.compile(r"No module named '([\w.]+)'")
_NO_NAME = re.compile(r"cannot import name '(\w+)' from '([\w.]+)'")
_KW = re.compile(r"([\w.]+)\(\) got an unexpected keyword argument '(\w+)'")
_POS = re.compile(r"([\w.]+)\(\) takes (?:from \d+ to )?(\d+) positional arguments? but \d+ "
                  r"(?:were|was) given")
_MOD_ATTR = re.compile(r"module '([\w.]+)' has no attribute '(\w+)'")
_OBJ_ATTR = re.compile(r"(?:type object '(\w+)'|'(\w+)' object) has no attribute '(\w+)'")


def candidates(sources: dict[int, str], cls: Classification) -> list[Candidate]:
    """Repairs to try for the error ``cls`` (at most ``MAX_CANDIDATES``), best first.

    ``sources`` maps code-cell indexes to their code; the edits touch only the failing cell.
    """
    if cls.kind != "error" or cls.cell not in sources:
        return []
    text = f"{cls.ename}: {cls.evalue}"
    source = sources[cls.cell]
    lines = frozenset(cls.lines)
    aliases = aliases_of(list(sources.values()))
    found: list[Candidate] = []
    for label, edit in _edits(text, aliases, lines):
        new = _apply(source, edit)
        if new is not None and all(c.source != new for c in found):
            found.append(Candidate(cell=cls.cell, source=new, label=label))
        if len(found) >= MAX_CANDIDATES:
            break
    return found


def _edits(text: str, aliases: dict[str, str], lines: frozenset[int]) -> Iterator[tuple[str, _Edit]]:
    match = _NO_NAME.search(text)
    if match:
        yield from _moved_name(match.group(1), match.group(2), lines)
        return
    match = _NO_MODULE.search(text)
    if match:
        yield from _moved_module(match.group(1), lines)
        return
    match = _KW.search(text)
    if match:
        yield from _keyword(match.group(1), match.group(2), aliases, lines)
        return
    match = _POS.search(text)
    if match:
        yield from _positional(match.group(1), int(match.group(2)), aliases, lines)
        return
    match = _MOD_ATTR.search(text)
    if match:
        yield from _module_attr(match.group(1), match.group(2), aliases, lines)
        return
    match = _OBJ_ATTR.search(text)
    if match and "AttributeError" in text:
        yield from _object_attr(match.group(1) or match.group(2), match.group(3), aliases, lines)


def _moved_name(name: str, module: str, lines) -> Iterator[tuple[str, _Edit]]:
    package = module.split(".")[0]
    if not _allowed(package):
        return
    index = _index(package)
    for home in sorted(index.get(name, ()), key=lambda m: (module_distance(m, module), len(m))):
        if home != module:
            yield f"import {name} from {home}", _Import(lines, module, name, home, None)
    close = difflib.get_close_matches(name, list(index), n=3, cutoff=0.75)
    for other in close:
        for home in sorted(index[other], key=lambda m: (module_distance(m, module), len(m)))[:1]:
            yield f"import {other} from {home} as {name}", _Import(lines, module, name, home, other)


def _moved_module(module: str, lines) -> Iterator[tuple[str, _Edit]]:
    parts = module.split(".")
    last = parts[-1]
    if len(parts) > 1 and _quiet_import(last) is not None and last in _HEAVY_OK:
        yield f"import {last} (now a package of its own)", _Import(lines, module, None, last, None)
    package = parts[0]
    if not _allowed(package) or len(parts) == 1:
        return
    mods = _modules(package)
    close = difflib.get_close_matches(module, list(mods), n=3, cutoff=0.8)
    for other in close:
        yield f"module {other} instead of {module}", _Import(lines, module, None, other, None)


def _keyword(qualname: str, keyword: str, aliases, lines) -> Iterator[tuple[str, _Edit]]:
    params = _parameters(qualname, aliases)
    for close in difflib.get_close_matches(keyword, params, n=2, cutoff=0.6):
        yield f"keyword {keyword}= renamed {close}=", _Keyword(lines, keyword, close)
    parts = qualname.split(".")
    name = parts[-2] if parts[-1] == "__init__" and len(parts) > 1 else parts[-1]
    if unfaithful_drop(name, keyword) is None:  # a keyword that did something is not dropped
        yield f"keyword {keyword}= dropped", _Keyword(lines, keyword, None)


def _positional(qualname: str, takes: int, aliases, lines) -> Iterator[tuple[str, _Edit]]:
    params = _parameters(qualname, aliases)
    if not params:
        return
    parts = qualname.split(".")
    method = len(parts) > 1  # ``C.__init__`` and ``C.m`` count ``self``
    name = parts[-2] if parts[-1] == "__init__" else parts[-1]
    allowed = takes - 1 if method else takes
    yield (f"{name}: positional arguments after the first {allowed} passed by keyword",
           _Positional(lines, name, max(allowed, 0), params))


def _parameters(qualname: str, aliases: dict[str, str]) -> list[str]:
    """Parameter names of the callable the error names, found through the imports."""
    parts = qualname.split(".")
    if parts[-1] == "__init__":
        parts = parts[:-1]
    owner = parts[0]
    roots = {v.split(".")[0] for v in aliases.values()}
    target = None
    path = aliases.get(owner)
    if path is not None:
        target = _resolve(path, parts[1:])
    for root in sorted(roots):
        if target is not None or not _allowed(root):
            break
        for home in _index(root).get(owner, ())[:1]:
            target = _resolve(f"{home}.{owner}", parts[1:])
    if target is None:
        return []
    try:
        return [p for p in inspect.signature(target).parameters if p not in ("self", "args", "kwargs")]
    except (TypeError, ValueError):
        return []


def _resolve(path: str, rest: list[str]) -> Any:
    parts = path.split(".")
    obj = None
    for k in range(len(parts), 0, -1):
        if parts[0] not in _HEAVY_OK:
            return None
        obj = _quiet_import(".".join(parts[:k]))
        if obj is not None:
            for attr in [*parts[k:], *rest]:
                obj = getattr(obj, attr, None)
                if obj is None:
                    return None
            return obj
    return None


def _public(names) -> list[str]:
    return [n for n in names if not n.startswith("_")]


def _module_attr(module: str, attr: str, aliases, lines) -> Iterator[tuple[str, _Edit]]:
    package = module.split(".")[0]
    if not _allowed(package):
        return
    mod = _quiet_import(module)
    if mod is None:
        return
    bases = [name for name, target in aliases.items() if target == module]
    for close in difflib.get_close_matches(attr, _public(dir(mod)), n=2, cutoff=0.75):
        for base in bases:
            yield f"{module}.{close} for {attr}", _RenameAttr(lines, attr, close, base)
    homes = sorted((m for m in _index(package).get(attr, ()) if m.startswith(module + ".")),
                   key=len)
    for home in homes[:1]:
        for base in bases:
            sub = home[len(module) + 1:]
            yield f"{home}.{attr}", _RenameAttr(lines, attr, f"{base}.{sub}.{attr}", base)


def _object_attr(cls_name: str, attr: str, aliases, lines) -> Iterator[tuple[str, _Edit]]:
    roots = sorted({v.split(".")[0] for v in aliases.values()})
    for root in roots:
        if not _allowed(root):
            continue
        homes = _index(root).get(cls_name, ())
        if not homes:
            continue
        cls = _resolve(f"{homes[0]}.{cls_name}", [])
        if not inspect.isclass(cls):
            continue
        for close in difflib.get_close_matches(attr, _public(dir(cls)), n=3, cutoff=0.7):
            yield f"{cls_name}.{close} for .{attr}", _RenameAttr(lines, attr, close)
        return
