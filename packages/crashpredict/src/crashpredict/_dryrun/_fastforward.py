"""Fast-forward: the dry run of a long cell with its loops cut short.

A training loop over epochs and batches, a loop over files, a long preprocessing loop:
run for real, the cell takes minutes and its crash comes at the end. Fast-forwarded, each
``for``/``while`` loop of the cell, and of the notebook's own functions that the cell
calls, runs its first `KEEP_ITERATIONS` iterations (every iteration while the run is
younger than `CUT_AFTER_S`) and then goes on after the loop as if
it had ended (its ``else`` included); Keras ``fit`` runs one epoch of two steps, and
scikit-learn's iterative estimators and the gradient boosting libraries (XGBoost,
LightGBM, CatBoost) fit two trees or iterations (`cap_libraries`). The code is rewritten with `ast` (line numbers kept, so tracebacks
name the cell's lines); library code is never rewritten.

Until the first cut takes effect the run is the real run, step for step: a crash there is
the cell's own. After a cut the state differs (a list built by a cut loop is shorter, a
name bound in a later iteration is unbound), so `Cutter.judge` tells the parent whether
the crash may be the cut's doing: it is when the crashing statement reads a name that a
cut loop binds or grows (or that the cell bound from a call into a function whose loop was
cut), when it is raised inside such a function, or when a file is missing and a cut loop
writes files (an ``open`` that only reads does not count). The parent adds the crash-kind test it uses for shrunk data
(`shrinking_cannot_cause`: no shape, size, index or row-label errors).

A ``for`` of the cell over a ``range``, an ``enumerate`` of a name or a name, that
indexes with its target, runs, once cut, its last iteration too (sooner beside the cell:
`CUT_LAST_AFTER_S`): an index one past the end (``prices[i + 1]`` on the last ``i``,
``axes[i]`` on the last column) fails there. `Cutter.crashed_in_last_iteration`
counts such a crash when the failing statement reads only the loop's targets and what no
cut loop makes (or resizes), on a way to it no cut changed: the real run fails there the
same way.

Beside the cell, a ``for`` of the cell that works item by item (`LoopInfo.sweep`) runs,
once the cut run is done without a crash that counts, the iterations its cut skipped,
newest first (`Cutter.sweep_codes`): a bad file near the end of the loop fails there, and
`Cutter.crashed_in_swept_iteration` counts it where it fails on the iteration's own
values, with all the cell may change counted as changed.
"""

from __future__ import annotations

import ast
import builtins
import codecs
import collections
import copy
import dataclasses
import functools
import importlib
import inspect
import io
import os
import random
import re
import stat
import sys
import textwrap
import time
import types
import warnings
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from nbdeps import ipython_to_python

from .._model import crash_type_of
from ._kinds import _DTYPE_WORDS, shrinking_cannot_cause

__all__ = ["CUT_AFTER_S", "CUT_LAST_AFTER_S", "HELPER", "KEEP_ITERATIONS", "Cutter", "LoopInfo", "called_functions", "reached_code",
           "BOOSTING_ROUNDS", "cap_libraries", "find_library_modules", "has_loops", "has_loops_in", "rewrite_cell", "rewrite_functions"]

#: Iterations each loop keeps in a fast-forwarded run, at least...
KEEP_ITERATIONS = 3
#: ...and, beside a running cell (one run, no second chance), every iteration until the
#: run has taken this long (at most a sixth of the budget): a short loop (over a frame's
#: ten columns, a few files) runs whole, so a crash in its later iterations is the real
#: run's; a long one is cut once this time is spent. The replay's dry run cuts at once and
#: then runs the whole cell when the budget allows (a cut that cost its first run half a
#: second was measured to leave a 36-million-row cell without a verdict).
CUT_AFTER_S = 0.5
#: ...or this long for a loop whose last iteration runs after its cut (`LoopInfo.last`):
#: beside the cell a whole run of it reaches its end no sooner than the cell does, while
#: its last iteration, run early, finds an index one past the end at once.
CUT_LAST_AFTER_S = 0.1
#: The least time a comprehension read as a loop runs before it may be cut (`LoopInfo`).
COMPREHENSION_CUT_S = 0.25
#: Beside a running cell, a loop whose run has taken this long by the end of its second
#: iteration keeps those two (`SLOW_KEEP`), not `KEEP_ITERATIONS`: a third of a region's
#: merge and grouping of 0.7 s is time its last region, or the statement after the loop,
#: waits for while the real run goes on. Two still show what a second pass over the
#: state the first left meets.
SLOW_KEEP_S = 1.0
SLOW_KEEP = 2
#: The name the rewritten code calls the cutter by (in the child's namespace only).
HELPER = "__crashpredict_fast_forward__"
#: What a loop without a last iteration to run (`LoopInfo.last`) runs after its cut.
_NO_LAST = object()
#: Mutating methods: a name that receives one of these in a loop is grown by the loop.
_GROWERS = frozenset({"append", "extend", "insert", "update", "add", "setdefault", "pop",
                      "remove", "clear", "popitem", "discard", "appendleft", "extendleft",
                      "__setitem__", "write", "writelines"})
#: Calls that write files: a file missing after a cut loop that makes one may be its doing.
_WRITERS = frozenset({"open", "save", "savez", "savez_compressed", "savefig", "to_csv",
                      "to_pickle", "to_parquet", "to_json", "to_excel", "to_hdf", "to_feather",
                      "dump", "makedirs", "mkdir", "save_weights", "write_text", "write_bytes",
                      "imwrite", "copy", "copyfile", "move", "rename", "touch"})


@dataclass(slots=True)
class LoopInfo:
    """A loop the rewrite wraps: where it is, what it binds, whether it writes files."""

    id: int
    line: int
    text: str
    where: str  # "the cell" or "function NAME"
    names: frozenset[str] = frozenset()
    writes_files: bool = False
    function: str | None = None  # the function of the cell the loop is in, if any
    #: it sets whether tensors require grad (``p.requires_grad = False``, ``requires_grad_``)
    autograd: bool = False
    #: a ``for`` of the cell that indexes with its target, over a ``range`` ("range"), an
    #: ``enumerate`` of a name ("enumerate") or a name ("sequence"): once cut, it also runs
    #: its last iteration (`Cutter.crashed_in_last_iteration`); one over a name (or its
    #: ``enumerate``) that does not ("batches") runs it when the name is a torch
    #: ``DataLoader`` whose last batch is smaller (`_last_batch`), or a container whose
    #: last item its type tells (`_last_item`: a record, a text); "" for the others
    last: str = ""
    #: a "range" loop's subscripts that look labels up with its target (``df.loc[i, 'x']``,
    #: ``s[i - 1]``): the first label the iterations the cut skips would miss
    #: (`Cutter._first_missing`) runs after the cut, before the last
    probes: tuple[tuple[ast.Subscript, int], ...] = ()
    #: a ``for`` statement of the cell (at its top level) that works item by item (its
    #: body reads its target, has no ``break``): once the cell's run is done, the
    #: iterations its cut skipped run newest first (`Cutter.sweep_codes`)
    sweep: bool = False
    #: a loop over ``NAME.iterrows()``, ``NAME.itertuples(...)`` or ``NAME.items()``: the
    #: method and its constant arguments (`_rows_call`), so a sweep reads rows one by one
    rows: tuple[str, tuple[Any, ...], tuple[tuple[str, Any], ...]] | None = None
    #: the loop a comprehension of the cell is (`_comprehended`): it is cut only once it
    #: has run `COMPREHENSION_CUT_S` (or the cut's delay, if longer) itself, so a quick one
    #: (the names of a frame's columns) runs whole, as written, however late it comes
    comprehension: bool = False


def _loop_text(node: ast.For | ast.While) -> str:
    for mark in (_AS_WRITTEN, _COMPREHENDED):  # a drained queue's ``while``, or a
        if isinstance(node, ast.For) and (node.type_comment or "").startswith(mark):
            return node.type_comment[len(mark):]  # comprehension, as written
    if isinstance(node, ast.For) and _counter_of(node):  # a counted ``while``, as written
        assert isinstance(node.iter, ast.Call) and isinstance(node.target, ast.Name)
        try:
            return f"while {node.target.id} < {ast.unparse(node.iter.args[1])[:60]}"
        except Exception:  # noqa: BLE001 - only for the evidence
            pass
    try:
        head = ast.unparse(node.target) + " in " + ast.unparse(node.iter) \
            if isinstance(node, ast.For) else ast.unparse(node.test)
    except Exception:  # noqa: BLE001 - only for the evidence
        head = "..."
    word = "for" if isinstance(node, ast.For) else "while"
    return f"{word} {head[:60]}"


_MODE_LETTERS = frozenset("rwxabt+U")


def _opens_for_writing(call: ast.Call) -> bool:
    """Whether an ``open`` call may write: its mode (``mode=``, the builtin's second
    argument, or a short constant of mode letters given to a method ``open``) has one of
    ``wax+``, or cannot be read. ``open(path)``, ``Path.open()``, ``gzip.open(path)``
    read."""
    modes = [k.value for k in call.keywords if k.arg == "mode"]
    if any(k.arg is None for k in call.keywords):
        return True  # **options: the mode may be in them
    if isinstance(call.func, ast.Name):
        modes += call.args[1:2]
        if len(call.args) > 2 or any(isinstance(a, ast.Starred) for a in call.args):
            return True
    else:
        for arg in call.args:
            if isinstance(arg, ast.Starred):
                return True
            if isinstance(arg, ast.Constant) and isinstance(arg.value, str) and \
                    0 < len(arg.value) <= 3 and set(arg.value) <= _MODE_LETTERS:
                modes.append(arg)
            elif call.args.index(arg) > 0:
                return True  # os.open's flags, another library's arguments
    for mode in modes:
        if not (isinstance(mode, ast.Constant) and isinstance(mode.value, str)) or \
                set(mode.value) & set("wax+"):
            return True
    return False


def _bound_in(body: list[ast.stmt], extra: Iterable[ast.AST] = ()) -> tuple[frozenset[str], bool]:
    """Names a loop's body binds or grows, and whether it calls a file writer."""
    names: set[str] = set()
    writes = False
    for root in [*body, *extra]:
        for node in ast.walk(root):
            if isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)):
                names.add(node.id)
            elif isinstance(node, (ast.Subscript, ast.Attribute)) and \
                    isinstance(node.ctx, (ast.Store, ast.Del)):
                base = node.value
                while isinstance(base, (ast.Subscript, ast.Attribute)):
                    base = base.value
                if isinstance(base, ast.Name):
                    names.add(base.id)
            elif isinstance(node, ast.Call):
                func = node.func
                called = func.attr if isinstance(func, ast.Attribute) else \
                    func.id if isinstance(func, ast.Name) else ""
                if called in _WRITERS and (called != "open" or _opens_for_writing(node)):
                    writes = True
                if isinstance(func, ast.Attribute) and func.attr in _GROWERS:
                    base = func.value
                    while isinstance(base, (ast.Subscript, ast.Attribute)):
                        base = base.value
                    if isinstance(base, ast.Name):
                        names.add(base.id)
            elif isinstance(node, (ast.Global, ast.Nonlocal)):
                names.update(node.names)
    return frozenset(names), writes


class _Rewrite(ast.NodeTransformer):
    def __init__(self, loops: dict[int, LoopInfo], where: str) -> None:
        self.loops, self.where = loops, where
        self.functions: list[str] = []

    def visit_FunctionDef(self, node: ast.FunctionDef) -> ast.FunctionDef:
        self.functions.append(node.name)
        try:
            self.generic_visit(node)
        finally:
            self.functions.pop()
        return node

    visit_AsyncFunctionDef = visit_FunctionDef  # type: ignore[assignment]

    def _register(self, node: ast.For | ast.While) -> int:
        loop_id = len(self.loops)
        extra = [node.target] if isinstance(node, ast.For) else []
        names, writes = _bound_in(node.body, extra)
        self.loops[loop_id] = LoopInfo(
            loop_id, node.lineno, _loop_text(node), self.where, names, writes,
            self.functions[0] if self.functions else None, autograd=_sets_autograd(node),
            comprehension=isinstance(node, ast.For) and
            (node.type_comment or "").startswith(_COMPREHENDED))
        return loop_id

    def _call(self, method: str, args: list[ast.expr], at: ast.AST) -> ast.Call:
        call = ast.Call(func=ast.Attribute(value=ast.Name(id=HELPER, ctx=ast.Load()),
                                           attr=method, ctx=ast.Load()),
                        args=args, keywords=[])
        return ast.copy_location(call, at)

    def visit_For(self, node: ast.For) -> ast.For:
        loop_id = self._register(node)
        last = _last_kind(node) if self.where == "the cell" and not self.functions else ""
        self.loops[loop_id].last = last
        if last == "range":
            self.loops[loop_id].probes = _label_probes(node)
        self.generic_visit(node)
        extra: list[ast.expr] = []
        call = node.iter
        if last == "batches" and _enumerated_zip(call) is not None:
            # ``enumerate(zip(a, b))``: what it zips, made once, kept as the loop begins,
            # and from where it counts (`Cutter.zipped`, `Cutter.iterate`'s ``zip_start``)
            assert isinstance(call, ast.Call)
            inner, start = _enumerated_zip(call)
            inner.args = [ast.Starred(value=self._call("zipped", [
                ast.Constant(loop_id), *inner.args], inner), ctx=ast.Load())]
            counted = self._call("iterate", [node.iter, ast.Constant(loop_id)], node.iter)
            counted.keywords = [ast.keyword(arg="zip_start", value=copy.deepcopy(start))]
            node.iter = counted
            return node
        if last == "enumerate" or (last == "batches" and _enumerates(call)):
            # what it enumerates, and from where it counts
            assert isinstance(call, ast.Call)
            start = call.args[1] if len(call.args) > 1 else \
                call.keywords[0].value if call.keywords else ast.Constant(0)
            extra = [copy.deepcopy(call.args[0]), copy.deepcopy(start)]
        elif last == "batches" and _zips(call):
            # what it zips, made once, kept as the loop begins (`Cutter.zipped`)
            assert isinstance(call, ast.Call)
            call.args = [ast.Starred(value=self._call("zipped", [
                ast.Constant(loop_id), *call.args], call), ctx=ast.Load())]
        elif self.where == "the cell" and not self.functions and _enumerates(call) and \
                isinstance(call, ast.Call) and len(call.args) == 1 and not call.keywords:
            # ``enumerate(kf.split(X))``: what it enumerates, made once, kept as it begins
            arg = call.args[0]
            call.args[0] = self._call("enumerated", [arg, ast.Constant(loop_id),
                                                     ast.Constant(0)], arg)
        call_node = self._call("iterate", [node.iter, ast.Constant(loop_id), *extra], node.iter)
        rows = _rows_call(node.iter) if self.where == "the cell" and not self.functions \
            else None
        if rows is not None:  # what a sweep reads its rows from (`_Rows`)
            self.loops[loop_id].rows = rows
            call_node.keywords = [ast.keyword(arg="rows", value=ast.Name(
                id=node.iter.func.value.id, ctx=ast.Load()))]  # type: ignore[attr-defined]
        node.iter = call_node
        return node

    def visit_While(self, node: ast.While) -> ast.While:
        if _endless(node):  # only an exception ends it for real: cutting it would lie
            self.generic_visit(node)
            return node
        loop_id = self._register(node)
        self.generic_visit(node)
        tick = self._call("tick", [ast.Constant(loop_id)], node.test)
        node.test = ast.copy_location(ast.BoolOp(op=ast.And(), values=[node.test, tick]),
                                      node.test)
        return node


def _sets_autograd(node: ast.AST) -> bool:
    """Whether the loop freezes or unfreezes tensors: then what autograd raises after its
    cut (``element 0 of tensors does not require grad``) may be the cut's doing."""
    return any(isinstance(n, ast.Attribute) and n.attr in _AUTOGRAD_SETTERS and (
        isinstance(n.ctx, ast.Store) or n.attr != "requires_grad") for n in ast.walk(node))


#: What sets whether a tensor requires grad.
_AUTOGRAD_SETTERS = frozenset({"requires_grad", "requires_grad_", "detach_", "freeze",
                               "unfreeze", "trainable"})


def _endless(node: ast.While) -> bool:
    """``while True:`` (any constant truth) with no ``break``, ``return`` or ``yield`` of its own."""
    if not (isinstance(node.test, ast.Constant) and node.test.value):
        return False
    stack = list(node.body) + list(node.orelse)
    while stack:
        child = stack.pop()
        if isinstance(child, (ast.Break, ast.Return, ast.Yield, ast.YieldFrom)):
            return False
        if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef,
                              ast.Lambda, ast.For, ast.While, ast.AsyncFor)):
            if isinstance(child, (ast.For, ast.While, ast.AsyncFor)):
                # a break there ends the inner loop only; a return ends this one too
                stack.extend(n for n in ast.walk(child) if isinstance(n, ast.Return))
            continue
        stack.extend(ast.iter_child_nodes(child))
    return True


def _last_kind(node: ast.For) -> str:
    """A loop whose body subscripts with its target (``x[i + 1]``, ``axes[i]``) and leaves
    the loop only at its end (no ``break``, ``return`` or ``yield`` of its own), over what
    tells its last item: ``range(...)`` ("range"), ``enumerate(NAME)`` with a constant
    start ("enumerate"), or a name or attribute, or a dict's view (``regional.items()``)
    ("sequence"); else "". There an index one past the end fails, in the last iteration.
    Such a loop over a name or its ``enumerate`` that does not subscript with its target
    (but to store under it, for a target unpacked: ``enriched[region] = daily``) is
    "batches": a ``DataLoader``'s smaller last batch breaks a size its body fixed
    (``x.view(BATCH_SIZE, -1)``); a container's last item, its own values."""
    call = node.iter if isinstance(node.iter, ast.Call) else None
    called = call.func.id if call is not None and isinstance(call.func, ast.Name) else None
    if isinstance(node.target, ast.Name) and called == "range":
        kind = "range"
    elif called == "enumerate" and call is not None and isinstance(node.target, ast.Tuple) \
            and len(node.target.elts) == 2 and (_pure(call.args[0] if call.args else None)
                                                or _dict_view(call.args[0])) \
            and len(call.args) + len(call.keywords) <= 2 \
            and all(k.arg == "start" for k in call.keywords) \
            and all(isinstance(a, ast.Constant) and type(a.value) is int
                    for a in [*call.args[1:], *(k.value for k in call.keywords)]):
        kind = "enumerate"
    elif (_pure(node.iter) or _listing(node.iter) or _dict_view(node.iter)) and (
            isinstance(node.target, ast.Name) or (
            isinstance(node.target, (ast.Tuple, ast.List))
            and all(isinstance(e, ast.Name) for e in node.target.elts))):
        kind = "sequence"
    elif _zips(node.iter) and (isinstance(node.target, ast.Name) or (
            isinstance(node.target, (ast.Tuple, ast.List))
            and all(isinstance(e, ast.Name) for e in node.target.elts))):
        kind = "zip"  # ``zip(axes.ravel(), features)``: its last item, from what it zips
    elif _enumerated_zip(node.iter) is not None and isinstance(node.target, ast.Tuple) and \
            len(node.target.elts) == 2 and isinstance(node.target.elts[0], ast.Name) and (
                isinstance(node.target.elts[1], ast.Name) or (
                    isinstance(node.target.elts[1], (ast.Tuple, ast.List)) and all(
                        isinstance(e, ast.Name) for e in node.target.elts[1].elts))):
        kind = "zip"  # ``for i, (a, b) in enumerate(zip(...))``
    else:
        return ""
    if any(isinstance(n, (ast.Return, ast.Yield, ast.YieldFrom, ast.Await))
           for n in _own_nodes(node.body)) or \
            any(isinstance(n, ast.Break) for n in _own_nodes(node.body, loops=False)):
        return ""
    if kind == "zip":
        return "batches"  # its last item, where a failure of that item's own values counts
    targets = _names_in(node.target)
    unpacked = kind == "sequence" and not isinstance(node.target, ast.Name)
    if any(isinstance(n, ast.Subscript) and targets & _names_in(n.slice) and
           not (unpacked and isinstance(n.ctx, ast.Store))  # (``finetuned[country] =
           for n in _own_nodes(node.body)):  # model`` looks nothing up by its key)
        return kind if not unpacked else ""
    return "batches" if kind in ("sequence", "enumerate") else ""


#: What a frame, series or array tells of itself without handing anything on
#: (`_summarised`): a number, a new small object, or its labels.
_SUMMARIES = frozenset({"max", "min", "sum", "mean", "median", "std", "var", "count",
                        "nunique", "unique", "value_counts", "quantile", "describe", "any",
                        "all", "idxmax", "idxmin", "prod", "shape", "columns", "dtypes",
                        "dtype", "index", "size", "ndim", "empty"})


def _summarised(name: ast.Name, parents: Mapping[int, ast.AST]) -> bool:
    """Whether this mention of a name only reads a summary of its value: a chain of
    subscripts and attributes from it that ends in one of `_SUMMARIES`, read or called
    (``int(log['item_id'].max())``, ``log.shape[0]``), or ``len(log)``."""
    node: ast.AST = name
    while True:
        parent = parents.get(id(node))
        if isinstance(parent, ast.Call) and isinstance(parent.func, ast.Name) and \
                parent.func.id == "len" and parent.args == [node] and node is name:
            return True
        if isinstance(parent, ast.Subscript) and parent.value is node and \
                isinstance(parent.ctx, ast.Load):
            node = parent
            continue
        if isinstance(parent, ast.Attribute) and parent.value is node and \
                isinstance(parent.ctx, ast.Load):
            if parent.attr in _SUMMARIES:
                above = parents.get(id(parent))
                return not (isinstance(above, (ast.Subscript, ast.Attribute)) and
                            above.value is parent and not isinstance(above.ctx, ast.Load))
            node = parent
            continue
        return False


#: The most items of a ``zip`` that `_zipped_items` lists.
MAX_ZIPPED = 100_000


def _zipped_items(args: tuple[Any, ...]) -> list[tuple[Any, ...]] | None:
    """The items ``zip(*args)`` yields, listed, where each of ``args`` is a container that
    iterating does not consume (a list, a tuple, a range, a string, a dict, a numpy array,
    a pandas series or index) of `MAX_ZIPPED` items at most; else None. A numpy array's
    ``flat`` not yet stepped (``zip(axes.flat, files)``) is read from its array, which it
    runs over in order: it is not iterated here (the loop's zip holds it)."""
    try:
        args = tuple(_unstepped_flat(arg) for arg in args)
        for arg in args:
            module = type(arg).__module__.partition(".")[0]
            if not (isinstance(arg, (list, tuple, range, str, dict)) or (
                    module == "numpy" and type(arg).__name__ == "ndarray") or (
                    module == "pandas" and type(arg).__name__ in ("Series", "Index"))):
                return None
            if len(arg) > MAX_ZIPPED:
                return None
        return list(zip(*args))
    except Exception:  # noqa: BLE001 - a strange container: not listed
        return None


def _unstepped_flat(arg: Any) -> Any:
    """The array a numpy ``flatiter`` at its start runs over, flattened; else ``arg``."""
    kind = type(arg)
    if kind.__name__ == "flatiter" and kind.__module__.partition(".")[0] == "numpy" and \
            arg.index == 0:
        return arg.base.ravel()
    return arg


def _zips(node: ast.AST) -> bool:
    """``zip(a, b, ...)`` of two or more positional arguments (``strict=`` allowed)."""
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and \
        node.func.id == "zip" and len(node.args) >= 2 and \
        not any(isinstance(a, ast.Starred) for a in node.args) and \
        all(k.arg == "strict" for k in node.keywords)


#: Calls that return a new list (or tuple) of what they are given or find: a loop over one
#: knows its last item once the call is made (``sorted(glob.glob(...))``, ``os.listdir``).
_LISTING = frozenset({"sorted", "list", "tuple", "listdir", "glob"})


def _listing(node: ast.AST) -> bool:
    """A call of `_LISTING` by its name or as an attribute (``os.listdir(path)``,
    ``glob.glob(pattern)``), or a list or tuple written out: iterated once, as the loop's
    header evaluates it, its last item is that of the list it made (`_last_item`, which
    gives none for anything but a list or tuple)."""
    if isinstance(node, (ast.List, ast.Tuple)):
        return not any(isinstance(e, ast.Starred) for e in node.elts)
    if not isinstance(node, ast.Call):
        return False
    func = node.func
    name = func.id if isinstance(func, ast.Name) else \
        func.attr if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) else None
    return name in _LISTING


#: The calls that train a model, whose results a cut fit changes (a history of fewer
#: epochs, a booster of fewer trees): `_fit_results`.
_FIT_CALLS = frozenset({"fit", "fit_generator", "train_on_batch", "partial_fit", "train",
                        "cv"})


def _fit_results(tree: ast.Module) -> set[str]:
    """The names the cell binds from a call of `_FIT_CALLS` (``hist = model.fit(...)``)."""
    return {name for node in ast.walk(tree) if isinstance(node, (ast.Assign, ast.AnnAssign))
            and node.value is not None and any(
                isinstance(n, ast.Call) and _called_name(n) in _FIT_CALLS
                for n in ast.walk(node.value))
            for target in (node.targets if isinstance(node, ast.Assign) else [node.target])
            for name in _stored(target)}


def _dict_view(node: ast.AST) -> bool:
    """``NAME.items()``, ``.keys()`` or ``.values()`` of a `_pure` value, no arguments:
    made again, a view of the same dict (its last item: `_last_item`)."""
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and \
        node.func.attr in ("items", "keys", "values") and not node.args and \
        not node.keywords and _pure(node.func.value)


def _enumerated_zip(node: ast.AST) -> tuple[ast.Call, ast.expr] | None:
    """``enumerate(zip(a, b, ...))`` with a constant start, or none: the zip (`_zips`)
    and the start; else None."""
    if not (_enumerates(node) and isinstance(node, ast.Call) and node.args
            and _zips(node.args[0]) and len(node.args) + len(node.keywords) <= 2
            and all(k.arg == "start" for k in node.keywords)):
        return None
    starts = [*node.args[1:], *(k.value for k in node.keywords)]
    if not all(isinstance(a, ast.Constant) and type(a.value) is int for a in starts):
        return None
    zipped = node.args[0]
    assert isinstance(zipped, ast.Call)
    return zipped, starts[0] if starts else ast.Constant(0)


def _enumerates(node: ast.AST) -> bool:
    """``enumerate(...)``."""
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and \
        node.func.id == "enumerate"


def _pure(node: ast.AST | None) -> bool:
    """A name or a chain of attributes of one (``df.columns``), or of its items at constant
    keys (``df['genres']``): read again, it is the same."""
    while isinstance(node, ast.Attribute) or (
            isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant)
            and type(node.slice.value) in (str, int)):
        node = node.value
    return isinstance(node, ast.Name)


def _own_nodes(body: list[ast.stmt], loops: bool = True) -> Iterator[ast.AST]:
    """The nodes of ``body``, not those of the functions, classes and lambdas it defines,
    nor (``loops=False``) those of its nested loops (where a ``break`` is theirs)."""
    stack: list[ast.AST] = list(body)
    while stack:
        node = stack.pop()
        yield node
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            continue
        if not loops and isinstance(node, (ast.For, ast.While, ast.AsyncFor)):
            stack.extend(node.orelse)  # a break in a loop's else ends the outer loop
            continue
        stack.extend(ast.iter_child_nodes(node))


def has_loops(tree: ast.AST) -> bool:
    return any(isinstance(n, (ast.For, ast.While)) for n in ast.walk(tree))


def _top_loops(tree: ast.Module | None) -> Iterator[ast.For]:
    """The ``for`` statements at the cell's top level, and those directly in the body of a
    top-level ``with`` that only opens files (``with open(path) as fh:``), which reads the
    same after the cell, the file closed, as long as the loop's body does not name the
    file (`_opened_by`)."""
    for node in tree.body if tree is not None else ():
        if isinstance(node, ast.For):
            yield node
        elif isinstance(node, ast.With) and _opens_only(node):
            names = set().union(*(_stored(item.optional_vars) for item in node.items
                                  if item.optional_vars is not None))
            for inner in node.body:
                if isinstance(inner, ast.For) and not any(
                        isinstance(n, ast.Name) and n.id in names
                        for statement in [*inner.body, *inner.orelse] for n in ast.walk(statement)):
                    yield inner


def _opens_only(node: ast.With) -> bool:
    """Whether each item of ``node`` is a call of ``open``, or a chunked reader of a CSV
    file (``pd.read_csv(path, chunksize=8_000)``: its skipped chunks are read again from
    the file by its path, `_csv_chunks`), bound to a plain name."""
    def opens(call: ast.expr) -> bool:
        if not isinstance(call, ast.Call):
            return False
        func = call.func
        if isinstance(func, ast.Name) and func.id == "open":
            return True
        return isinstance(func, ast.Attribute) and func.attr in ("read_csv", "read_table") \
            and isinstance(func.value, ast.Name) and \
            any(k.arg in ("chunksize", "iterator") for k in call.keywords)
    return all(opens(item.context_expr) and isinstance(item.optional_vars, ast.Name)
               for item in node.items)


def _opened_by(tree: ast.Module | None, loop: ast.For) -> ast.With | None:
    """The top-level ``with`` of files whose body holds ``loop`` (`_top_loops`), else None."""
    return next((node for node in tree.body if isinstance(node, ast.With)
                 and any(inner is loop for inner in node.body)), None) \
        if tree is not None else None


def rewrite_cell(tree: ast.Module, loops: dict[int, LoopInfo]) -> ast.Module:
    """The cell's module with every loop wrapped (in place; returned for convenience)."""
    lines = {node.lineno for node in _top_loops(tree) if _itemwise(node)}
    tree = _Rewrite(loops, "the cell").visit(tree)
    for info in loops.values():
        info.sweep = info.where == "the cell" and info.function is None and info.line in lines
    return ast.fix_missing_locations(tree)


#: Calls whose arguments only report (a target read there alone does not make a loop's
#: iterations work on different items: an epoch counter printed).
_REPORTERS = frozenset({"print", "info", "debug", "warning", "write", "set_description",
                        "set_postfix", "log", "add_scalar"})


def _itemwise(node: ast.For) -> bool:
    """Whether each iteration of ``node`` works on its own item: the body reads the target
    outside calls that only report it, and the loop ends only at its end (no ``break``,
    ``return``, ``yield`` or ``await`` of its own): the real run reaches every iteration
    unless one raises. An epoch loop that prints its counter is not."""
    if any(isinstance(n, (ast.Return, ast.Yield, ast.YieldFrom, ast.Await))
           for n in _own_nodes(node.body)) or \
            any(isinstance(n, ast.Break) for n in _own_nodes(node.body, loops=False)):
        return False
    targets = _names_in(node.target)
    reported = {id(n) for call in ast.walk(ast.Module(body=node.body, type_ignores=[]))
                if isinstance(call, ast.Call) and (
                    isinstance(call.func, ast.Name) and call.func.id in _REPORTERS or
                    isinstance(call.func, ast.Attribute) and call.func.attr in _REPORTERS)
                for arg in [*call.args, *(k.value for k in call.keywords)]
                for n in ast.walk(arg)}
    return any(isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load) and n.id in targets
               and id(n) not in reported for n in _own_nodes(node.body))


def has_loops_in(function: Any) -> bool:
    """Whether a function's own code (or code nested in it) has a loop, from its bytecode
    (no source needed): a backward jump."""
    import dis

    stack = [getattr(function, "__code__", None)]
    while stack:
        code = stack.pop()
        if not isinstance(code, types.CodeType):
            continue
        if any(i.opname.startswith("JUMP_BACKWARD") or i.opname == "JUMP_ABSOLUTE"
               for i in dis.get_instructions(code)):
            return True
        stack.extend(c for c in code.co_consts if isinstance(c, types.CodeType))
    return False


def reached_code(code: types.CodeType, namespace: Mapping[str, Any]) -> Iterator[tuple[types.CodeType, list[str]]]:
    """The compiled cell, the code nested in it and that of the namespace's own functions
    it calls, transitively (``train()`` defined in an earlier cell): (code, names of the
    namespace's functions it calls), at most 500 code objects."""
    stack, seen = [code], set()
    while stack:
        current = stack.pop()
        if id(current) in seen or len(seen) > 500:
            continue
        seen.add(id(current))
        stack.extend(c for c in current.co_consts if isinstance(c, types.CodeType))
        calls = [name for name in current.co_names
                 if isinstance(namespace.get(name), types.FunctionType)
                 and namespace[name].__globals__ is namespace]
        stack.extend(namespace[name].__code__ for name in calls)
        yield current, calls


#: The instructions that name a global (or a class body's name) rather than an attribute.
_GLOBAL_OPS = frozenset({"LOAD_GLOBAL", "STORE_GLOBAL", "DELETE_GLOBAL", "LOAD_NAME",
                         "STORE_NAME", "DELETE_NAME"})


@functools.lru_cache(maxsize=4096)
def global_names(code: types.CodeType) -> frozenset[str]:
    """The global names ``code`` reads or binds: not its attributes' names, which share
    ``co_names`` with them (a module's ``forward`` reads ``self.u``, not the global ``u``)."""
    import dis

    return frozenset(i.argval for i in dis.get_instructions(code)
                     if i.opname in _GLOBAL_OPS and isinstance(i.argval, str))


def called_functions(code: types.CodeType, namespace: Mapping[str, Any]) -> list[str]:
    """Names of the namespace's own functions the code calls, transitively."""
    found: list[str] = []
    for _, calls in reached_code(code, namespace):
        found.extend(name for name in calls if name not in found)
    return found


def rewrite_functions(code: types.CodeType, namespace: dict[str, Any],
                      loops: dict[int, LoopInfo],
                      tree: ast.Module | None = None) -> dict[str, set[int]]:
    """Replace, in ``namespace``, the notebook's functions the cell calls that hold loops
    by fast-forwarded copies; return {function name: its loop ids}.

    Only plain functions whose source is known (IPython keeps every cell's source) are
    rewritten: no closures, no decorators (re-running a decorator could do anything). Not
    a generator the cell's ``tree`` only loops over (`_driven_generators`): the cut of
    that loop stops it, and the sweep makes its items anew (`_Regenerated`).
    """
    rewritten: dict[str, set[int]] = {}
    driven = _driven_generators(tree, namespace)
    for name in called_functions(code, namespace):
        function = namespace[name]
        if function.__closure__ or name in driven:
            continue
        try:
            source = textwrap.dedent(inspect.getsource(function))
            tree = ast.parse(source)
        except (OSError, TypeError, SyntaxError, IndentationError):
            continue
        node = tree.body[0] if tree.body else None
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) or \
                node.decorator_list or node.name != function.__name__ or not has_loops(node):
            continue
        before = set(loops)
        _Rewrite(loops, f"function {name}").visit(tree)
        offset = function.__code__.co_firstlineno - node.lineno
        for loop_id in set(loops) - before:
            loops[loop_id].line += offset
        ast.increment_lineno(tree, offset)
        ast.fix_missing_locations(tree)
        scope: dict[str, Any] = {}
        try:
            exec(compile(tree, function.__code__.co_filename, "exec"),  # noqa: S102
                 namespace, scope)
        except Exception:  # noqa: BLE001 - keep the original function
            for loop_id in set(loops) - before:
                del loops[loop_id]
            continue
        new = scope.get(function.__name__)
        if not isinstance(new, types.FunctionType):
            continue
        new.__defaults__, new.__kwdefaults__ = function.__defaults__, function.__kwdefaults__
        new.__dict__.update(function.__dict__)
        new.__qualname__ = function.__qualname__
        namespace[name] = new
        rewritten[name] = set(loops) - before
    return rewritten


def _driven_generators(tree: ast.Module | None, namespace: Mapping[str, Any]) -> set[str]:
    """The notebook's generator functions that the cell names only as the call a ``for``
    loop of its top level runs over (``for chunk in stream(reviews, 5000)``), calling only
    such of the notebook's functions as are never cut (`_never_rewritten`: ``yield
    clean(part)``), each of whose outermost loops yields: the loop's cut stops them as it
    stops consuming, so their own loops stay as written (a loop that yields nothing, work
    done before the first item, would run whole; one within a loop that yields is each
    item's own work, as the real run does it)."""
    if tree is None:
        return set()
    headers = {id(node.iter.func) for node in tree.body if isinstance(node, ast.For)
               and isinstance(node.iter, ast.Call) and isinstance(node.iter.func, ast.Name)}
    found: dict[str, bool] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and isinstance(namespace.get(node.id), types.FunctionType):
            found[node.id] = found.get(node.id, True) and id(node) in headers
    driven = set()
    for name, only in found.items():
        function = namespace[name]
        code = function.__code__
        if only and code.co_flags & inspect.CO_GENERATOR and \
                function.__globals__ is namespace and _calls_uncut_only(code, namespace) \
                and _each_loop_yields(function):
            driven.add(name)
    return driven


def _each_loop_yields(function: types.FunctionType) -> bool:
    """Whether every outermost loop of ``function`` (read from its source) yields in its
    body: a loop within one is each item's work (``for c in cols: out[c] = ...`` before
    ``yield key, out``)."""
    try:
        tree = ast.parse(textwrap.dedent(inspect.getsource(function)))
    except (OSError, TypeError, SyntaxError, IndentationError):
        return False
    loops = (ast.For, ast.While)
    inner = {id(n) for node in ast.walk(tree) if isinstance(node, loops)
             for b in [*node.body, *node.orelse] for n in ast.walk(b) if isinstance(n, loops)}
    return all(any(isinstance(n, (ast.Yield, ast.YieldFrom)) for b in node.body
                   for n in ast.walk(b))
               for node in ast.walk(tree) if isinstance(node, loops) and id(node) not in inner)


def _never_rewritten(function: types.FunctionType) -> bool:
    """Whether `rewrite_functions` leaves ``function`` as written whoever calls it: its
    source read as that function's, with no ``for`` or ``while`` of its own (a
    comprehension is never cut)."""
    try:
        tree = ast.parse(textwrap.dedent(inspect.getsource(function)))
    except (OSError, TypeError, SyntaxError, IndentationError):
        return False
    node = tree.body[0] if len(tree.body) == 1 else None
    return isinstance(node, ast.FunctionDef) and node.name == function.__name__ and \
        not has_loops(node)


def _calls_uncut_only(code: types.CodeType, namespace: Mapping[str, Any]) -> bool:
    """Whether every function of the notebook's that ``code`` calls, transitively, is
    one no cut rewrites (`_never_rewritten`): what it makes is the real run's."""
    return all(isinstance(namespace.get(name), types.FunctionType) and
               _never_rewritten(namespace[name])
               for name in called_functions(code, namespace))


def _total(iterable: Any) -> int | None:
    """len() of the builtins and library containers whose len is C, else None."""
    module = type(iterable).__module__.partition(".")[0]
    if isinstance(iterable, (range, list, tuple, dict, str, bytes, set, frozenset)) or \
            module in ("numpy", "pandas", "torch", "tensorflow", "keras"):
        try:
            return len(iterable)
        except Exception:  # noqa: BLE001
            return None
    return None


@dataclass(slots=True)
class Cutter:
    """The runtime of the rewritten code in the child: counts iterations, cuts, judges."""

    loops: dict[int, LoopInfo]
    keep: int = KEEP_ITERATIONS
    cut_after_s: float = 0.0
    functions: dict[str, set[int]] = field(default_factory=dict)
    cell_tree: ast.Module | None = None
    counts: dict[int, int] = field(default_factory=dict)
    entries: dict[int, int] = field(default_factory=dict)
    totals: dict[int, int | None] = field(default_factory=dict)
    cut: list[int] = field(default_factory=list)
    library_cuts: list[str] = field(default_factory=list)
    #: the line of the cell's top-level statement that ran each library cut (None: not
    #: the cell's own code), not counting a quick pass's (`note_library_cut`)
    cut_lines: list[int | None] = field(default_factory=list)
    #: the lengths, at the first cut, of the lists the cell's loops append to: their
    #: first items are the real run's own (`Cutter.prefix_kept`)
    prefix: dict[str, int] | None = None
    library_scale: float = 1.0
    #: seconds the cut library calls (boosting rounds) would have taken more, at least
    library_extra_s: float = 0.0
    #: the fewest iterations a run of each cut loop kept (the scale's denominator)
    kept: dict[int, int] = field(default_factory=dict)
    #: what the cut Keras fits returned (their History: one epoch where the cell asked more)
    cut_outputs: list[Any] = field(default_factory=list)
    #: what a cut Keras fit's learning-rate schedule raised for an epoch the cut skipped,
    #: called as the real fit calls it (`_scheduled_failure`): the real run's failure
    scheduled_failure: BaseException | None = None
    #: the cut loops whose last iteration ran after the cut (`LoopInfo.last`)...
    ran_last: list[int] = field(default_factory=list)
    #: ...and those in their last iteration now (innermost last): what a crash interrupts
    in_last: list[int] = field(default_factory=list)
    #: when each ``while`` loop first ticked (`tick`)
    ticked: dict[int, float] = field(default_factory=dict)
    #: the loops in an iteration their current run keeps (none skipped yet in this run),
    #: innermost last (`Cutter.crashed_in_kept_iteration`)
    in_kept: list[int] = field(default_factory=list)
    #: the ranges those loops ran over (their last entry's)
    ranges: dict[int, range] = field(default_factory=dict)
    #: the "batches" loops whose last item is a plain one (no loader's smaller batch)
    items_last: set[int] = field(default_factory=set)
    #: when the cell's code began to run (`_may_cut`'s clock; set again as it starts)
    began: float = field(default_factory=time.perf_counter)
    #: names known to hold the real run's values as the last iteration begins: the
    #: columns of the last item's own keys, in `_keyed`'s reading of the cell
    known_at_start: frozenset[str] = frozenset()
    #: the namespace the cell runs in (`_first_missing` reads the frames it indexes)
    namespace: Mapping[str, Any] | None = None
    #: the loops that ran, after their cut, the iteration of a label the index lacks
    ran_missing: dict[int, Any] = field(default_factory=dict)
    #: what each `LoopInfo.sweep` loop runs over (an ``enumerate``'s source and start)...
    sources: dict[int, tuple[Any, Any]] = field(default_factory=dict)
    #: ...or, for an ``enumerate`` of a call (``enumerate(kf.split(X))``), what the call
    #: made and where the count starts, as the loop begins (`enumerated`)...
    enumerates: dict[int, tuple[Any, int]] = field(default_factory=dict)
    #: what each "batches" loop over ``zip(...)`` zips (`zipped`)
    zips: dict[int, tuple[Any, ...]] = field(default_factory=dict)
    #: ...and, once cut, how many iterations it had run: (loop, done), in the order cut
    tails: list[tuple[int, int]] = field(default_factory=list)
    #: the last item of each loop that has one to run after its cut (`LoopInfo.last`)
    last_items: dict[int, Any] = field(default_factory=dict)
    #: the item of each loop's skipped iteration running now (`swept`)...
    sweep_items: dict[int, Any] = field(default_factory=dict)
    #: ...the loops whose skipped items are made anew, each its own object (the chunks of
    #: a CSV file, each parsed alone: `_csv_chunks`), which no two iterations share...
    fresh_items: set[int] = field(default_factory=set)
    #: ...the text of the ``io.StringIO`` each loop's chunked CSV reader reads, as the
    #: loop began (`_buffer_text`), for `_csv_chunks` to read its skipped chunks again...
    chunk_texts: dict[int, str] = field(default_factory=dict)
    #: ...and how many skipped iterations of each loop ran after the cell (`sweep_codes`)...
    swept_counts: dict[int, int] = field(default_factory=dict)
    #: ...and how many of those failed in a way that does not count (`sweep_failed`)
    sweep_failures: dict[int, int] = field(default_factory=dict)
    #: what the names each swept loop binds or grows held as it ended (`sweep_codes`)
    after_loop: dict[int, dict[str, Any]] = field(default_factory=dict)
    #: the names of the Keras models built when the sweep began (`_shaped_modules`)
    built_before_sweep: frozenset[str] = frozenset()
    #: set once the sweep runs: the library fits run whole (`cap_libraries`)...
    whole: bool = False
    #: ...but in a quick pass (`quick_namespace`), where they stay cut
    quick: bool = False
    #: how many skipped iterations of each loop a quick pass ran, and where one failed
    #: as would count but for its cut fits: (position, item), run first, whole, after it
    quick_counts: dict[int, int] = field(default_factory=dict)
    quick_found: dict[int, tuple[int | None, Any]] = field(default_factory=dict)
    #: the position of each loop's skipped iteration running now (`swept`)
    sweep_positions: dict[int, int] = field(default_factory=dict)
    #: what the cell stacks after each swept loop of what it collects (`stack_misfit`):
    #: the list's name, the statement and the call; how many of each list's items were
    #: checked; and the failure of two of them that do not fit together, once met
    stacks_after: dict[int, list[tuple[str, ast.stmt, ast.Call]]] = field(default_factory=dict)
    stacks_checked: dict[tuple[int, str], int] = field(default_factory=dict)
    misfit: BaseException | None = None
    #: what a notebook's generator raised as its items were made anew for the sweep
    #: (`_Regenerated.failure`), raised in the swept loop's header before its items
    made_failure: BaseException | None = None
    #: the loops over a loader whose last batch could not be made (`_FailedBatch`): what
    #: making it raised, raised again where the loop reaches it
    failed_batches: dict[int, BaseException] = field(default_factory=dict)
    #: the "batches" loops over a sequential loader (`_batching`): the batches their cut
    #: skips are made, where its rows are plain (`_pure_loader`)
    sequential_loaders: dict[int, Any] = field(default_factory=dict)
    #: the cell's file name, for `sweep_failed`
    filename: str = ""
    #: the swept loop whose skipped iterations have all run, while the rest of the cell
    #: runs again on what they collected (`after_sweep_code`): a list it collects counts
    #: only where each value is made from its own item alone in those iterations too
    continuing: int | None = None

    def note_library_cut(self, note: str, once: bool = True) -> None:
        """Count a library fit cut (``note`` says how; ``once``: a note already made is
        not made again) and the line of the cell's statement that ran it (`cut_lines`)."""
        if not once or note not in self.library_cuts:
            self.library_cuts.append(note)
        if not self.quick:
            self.cut_lines.append(_cell_top_line(self.filename))

    def _may_cut(self, done: int, last: bool = False, since: float | None = None,
                 entered: float | None = None) -> bool:
        """Whether a loop that ran ``done`` iterations stops here (``last``: it has a last
        iteration to run after its cut, `CUT_LAST_AFTER_S`; ``since``: a comprehension's
        loop, entered then, `COMPREHENSION_CUT_S`; ``entered``: when this run of the loop
        began, for `SLOW_KEEP_S` beside the cell)."""
        after = min(self.cut_after_s, CUT_LAST_AFTER_S) if last else self.cut_after_s
        now = time.perf_counter()
        kept = done >= self.keep or (
            self.cut_after_s > 0 and entered is not None and done >= min(SLOW_KEEP, self.keep)
            and now - entered >= SLOW_KEEP_S)
        return kept and now - self.began >= after and (
            since is None or now - since >= max(COMPREHENSION_CUT_S, self.cut_after_s))

    def enumerated(self, value: Any, loop_id: int, start: int) -> Any:
        """``value``, which an ``enumerate`` of the cell's loop ``loop_id`` counts from
        ``start`` (`_Rewrite.visit_For`): kept as what the loop runs over (`sources`)."""
        self.enumerates[loop_id] = (value, start)
        return value

    def zipped(self, loop_id: int, *args: Any) -> tuple[Any, ...]:
        """What the ``zip`` of the cell's loop ``loop_id`` zips (`_Rewrite.visit_For`):
        kept for its last item and the sweep (`_zipped_items`); handed on unchanged."""
        self.zips[loop_id] = args
        return args

    def iterate(self, iterable: Any, loop_id: int, source: Any = _NO_LAST,
                start: Any = 0, rows: Any = None, zip_start: int | None = None
                ) -> Iterator[Any]:
        """The loop's iterator, counted and cut; ``source`` and ``start`` are what an
        ``enumerate`` loop (`LoopInfo.last`) enumerates and from where it counts;
        ``rows``: the frame or series whose rows a loop over its ``iterrows()``,
        ``itertuples()`` or ``items()`` runs over (`LoopInfo.rows`); ``zip_start``: where
        the ``enumerate`` of a zip counts from."""
        # a zip's items, listed where what it zips are containers: what the loop runs over
        zipped = _zipped_items(self.zips.pop(loop_id)) if loop_id in self.zips else None
        if zipped is not None and zip_start is not None:  # its enumerate's (count, item)s
            zipped = [(zip_start + k, item) for k, item in enumerate(zipped)]
        self.totals.setdefault(loop_id, len(zipped) if zipped is not None else
                               _total(iterable if source is _NO_LAST else source))
        self.entries[loop_id] = self.entries.get(loop_id, 0) + 1
        info = self.loops[loop_id]
        if info.sweep and self.entries[loop_id] == 1:
            read = _Rows(rows, *info.rows) if info.rows is not None else None
            if read is not None and read.size() is not None:  # a pandas object's rows
                self.sources[loop_id] = (read, None)
            else:  # a dict's ``items()``, a container
                self.sources[loop_id] = (iterable, None) if source is _NO_LAST else \
                    (source, start)
                if source is _NO_LAST and loop_id in self.enumerates:
                    self.sources[loop_id] = self.enumerates[loop_id]
                if zipped is not None:
                    self.sources[loop_id] = (zipped, None)
                given, start_at = self.sources[loop_id]
                folds = _split_folds(given) if type(given) is types.GeneratorType else None
                if folds is not None:  # a splitter's folds, asked of it again now
                    self.sources[loop_id] = (folds, start_at)
                    self.fresh_items.add(loop_id)
                again = _Regenerated.of(given, self.namespace) \
                    if type(given) is types.GeneratorType and folds is None else None
                if again is not None:  # a notebook generator's items, made anew later
                    self.sources[loop_id] = (again, start_at)
                    self.fresh_items.add(loop_id)
                text = _buffer_text(given)
                if text is not None:  # a chunked reader of a text in memory
                    self.chunk_texts[loop_id] = text
        if loop_id in self.in_last:  # entered again: that last iteration ended
            self.in_last.remove(loop_id)
        if loop_id in self.in_kept:  # ...or that kept one (left by a ``break``)
            self.in_kept.remove(loop_id)
        last, kind = _NO_LAST, self.loops[loop_id].last
        if kind == "range" and type(iterable) is range and len(iterable):
            last, self.ranges[loop_id] = iterable[-1], iterable
        elif kind == "sequence":
            last = _last_item(iterable)
        elif kind == "enumerate" and source is not _NO_LAST and type(start) is int:
            item = _last_item(source)
            if item is not _NO_LAST:
                last = (start + len(source) - 1, item)
        elif kind == "batches" and zipped is not None:
            last = self._last_item_of(zipped, loop_id)
        elif kind == "batches" and source is _NO_LAST:
            last = _last_batch(iterable)
            if last is _NO_LAST:  # not a loader: its last item (a record, a text)
                last = self._last_item_of(iterable, loop_id)
        elif kind == "batches" and type(start) is int:
            item = _last_batch(source)
            if item is _NO_LAST:
                item = self._last_item_of(source, loop_id)
            if isinstance(item, _FailedBatch):
                last = item  # raised where the loop reaches it, as the loader would
            elif item is not _NO_LAST:
                last = (start + len(source) - 1, item)
        if kind == "batches" and self.entries[loop_id] == 1:  # its skipped batches are
            loader = iterable if source is _NO_LAST else source  # made at the cut
            if (_batching(loader) or (False,))[0]:
                self.sequential_loaders[loop_id] = loader
        self.last_items[loop_id] = last
        return self._iterate(iter(iterable), loop_id, last)

    def _last_item_of(self, iterable: Any, loop_id: int) -> Any:
        """The last item of what a "batches" loop runs over that is no ``DataLoader``:
        only a failure on that item's own values counts there (`items_last`)."""
        last = _last_item(iterable)
        if last is not _NO_LAST:
            self.items_last.add(loop_id)
        return last

    def _iterate(self, iterator: Iterator[Any], loop_id: int,
                 last: Any = _NO_LAST) -> Iterator[Any]:
        done = 0
        # an index past the end or a loader's last batch is cut to sooner; a plain last
        # item after as many items as a loop without one keeps
        sooner = last is not _NO_LAST and loop_id not in self.items_last
        # where the item at the cut is the last one, the cut would skip nothing: it runs
        # (the real run's next iteration, known to be its last or not: the fourth of a
        # groupby's four sites)
        whole = self.totals.get(loop_id) if self.entries.get(loop_id) == 1 else None
        info = self.loops.get(loop_id)
        entered = time.perf_counter()
        since = entered if info is not None and info.comprehension else None
        for item in iterator:
            if self._may_cut(done, sooner, since, entered) and whole != done + 1:
                self._cut(loop_id, done)
                if loop_id in self.sources and self.entries.get(loop_id) == 1:
                    self.tails.append((loop_id, done))
                loader = self.sequential_loaders.pop(loop_id, None)  # at its first cut only
                if loader is not None and not isinstance(last, _FailedBatch) and \
                        self.namespace is not None and _pure_loader(loader, self.namespace):
                    failed = _skipped_batch_fails(loader, done + 1)
                    if failed is not None:  # a skipped batch the loader cannot make
                        last = failed
                if last is not _NO_LAST:  # an index one past the end fails there
                    if loop_id not in self.ran_last:
                        self.ran_last.append(loop_id)
                    missing = self._first_missing(loop_id, done, item)
                    self.in_last.append(loop_id)
                    if missing is not _NO_LAST:  # a label the skipped iterations lack
                        self.ran_missing[loop_id] = missing
                        yield missing
                    if isinstance(last, _FailedBatch):  # the loader's last batch: what
                        self.failed_batches[loop_id] = last.exc  # making it raised
                        raise last.exc
                    yield last  # a crash in its body leaves the loop here, marked
                    self.in_last.remove(loop_id)
                if loop_id in self.sources and self.namespace is not None:
                    self.after_loop[loop_id] = {
                        name: self.namespace[name] for name in self.loops[loop_id].names
                        if name in self.namespace}
                return
            done += 1
            self.counts[loop_id] = self.counts.get(loop_id, 0) + 1
            self.in_kept.append(loop_id)
            yield item  # a crash in its body leaves the loop here, marked
            self.in_kept.remove(loop_id)

    def _first_missing(self, loop_id: int, done: int, item: Any) -> Any:
        """For a "range" loop cut after ``done`` iterations (``item`` the first it skips):
        the first skipped value of its target at which one of its label subscripts
        (`LoopInfo.probes`: ``clean.loc[i, 'reading']``, ``s[i - 1]``) looks up a label the
        frame or series lacks (its rows after a ``dropna`` or a filter keep their labels);
        else `_NO_LAST`. That iteration runs after the cut, before the last: its
        ``KeyError`` is judged as the last iteration's is (`crashed_in_last_iteration`).
        Read from the frames as they are when the loop is cut; one vectorised lookup per
        subscript."""
        ran = self.ranges.get(loop_id)
        probes = self.loops[loop_id].probes
        if ran is None or not probes or self.namespace is None or len(ran) < done + 2 or \
                ran[done] != item:
            return _NO_LAST
        try:
            import numpy as np

            skipped = np.arange(ran.start + done * ran.step, ran[-1], ran.step)
            first = len(skipped)
            for probe, offset in probes:
                index = _probe_index(probe, self.namespace)
                if index is None:
                    continue
                labels = skipped[:first] + offset
                lacks = index.get_indexer(labels) < 0 if index.is_unique else \
                    ~np.isin(labels, index.to_numpy())
                if lacks.any():
                    first = int(np.argmax(lacks))
            return int(skipped[first]) if first < len(skipped) else _NO_LAST
        except Exception:  # noqa: BLE001 - a strange frame: no label looked up ahead
            return _NO_LAST

    def sweep_codes(self, filename: str) -> Iterator[tuple[int, types.CodeType]]:
        """For each loop of the cell cut as it worked item by item (`LoopInfo.sweep`), in
        the order cut: the code that runs the iterations its cut skipped, newest first
        (`swept`), with the loop's own body, uncut (its inner loops run whole), at the
        cell's line numbers. The cell's run is done by then: what the iterations read is
        judged as a last iteration's (`crashed_in_swept_iteration`), with whatever the
        cell binds, grows or hands to a call counted as changed. A bad file, group or
        machine near the end of a long loop (the 33rd month of 36) is met in the first
        seconds, where the real run meets it last."""
        tree = self.cell_tree
        self.filename = filename
        self.built_before_sweep = _built_models(self.namespace)
        for loop_id, _done in self.tails:
            info = self.loops[loop_id]
            loop = next((n for n in _top_loops(tree) if n.lineno == info.line), None)
            if loop is None:
                continue
            if self.namespace is not None:  # what the loop grew, though the cell rebound it
                for name, value in self.after_loop.get(loop_id, {}).items():  # (``site_coefs
                    self.namespace[name] = value  # = np.array(site_coefs)`` after the loop)
            call = ast.Call(func=ast.Attribute(value=ast.Name(id=HELPER, ctx=ast.Load()),
                                               attr="swept", ctx=ast.Load()),
                            args=[ast.Constant(loop_id)], keywords=[])
            # an iteration that fails in a way that does not count goes on to the next
            # (`sweep_failed`): its failure on what the cut changed says nothing
            name = "__crashpredict_failed__"
            handler = ast.ExceptHandler(
                type=ast.Name(id="Exception", ctx=ast.Load()), name=name,
                body=[ast.If(test=ast.Call(
                    func=ast.Attribute(value=ast.Name(id=HELPER, ctx=ast.Load()),
                                       attr="sweep_failed", ctx=ast.Load()),
                    args=[ast.Constant(loop_id), ast.Name(id=name, ctx=ast.Load())],
                    keywords=[]), body=[ast.Raise(exc=None, cause=None)], orelse=[])])
            guarded = ast.Try(body=copy.deepcopy(loop.body), handlers=[handler], orelse=[],
                              finalbody=[])
            again = ast.For(target=copy.deepcopy(loop.target),
                            iter=ast.copy_location(call, loop.iter),
                            body=[ast.copy_location(guarded, loop.body[0])], orelse=[],
                            type_comment=None)
            module = ast.fix_missing_locations(ast.Module(
                body=[ast.copy_location(again, loop)], type_ignores=[]))
            try:
                yield loop_id, compile(module, filename, "exec", dont_inherit=True)
            except (SyntaxError, ValueError):
                continue

    def after_sweep_code(self, loop_id: int, filename: str) -> types.CodeType | None:
        """The cell's statements after the swept loop ``loop_id``, to run again once its
        skipped iterations have run (at the cell's line numbers): what they join of what
        the loop collects now holds the values of those iterations too, each made from its
        own item alone, as the real run's join holds them. A failure there counts only as
        a conversion, a reshape or a stack of such a join that fails on a value or a key
        wherever it stands (`rows_kept`, `duplicates_kept`, `stacks_kept`, read with
        `continuing`): a late file's amounts written with thousands separators, joined
        with the others and converted to numbers after the loop. None where the loop is
        not the cell's last (a later loop has its own sweep), where nothing follows it, or
        where the cut run cut a library's fits before the loop ended (the values it
        collected, one per tree of a forest cut to two, are not the real run's: the skipped
        iterations' fits are whole). A fit cut after the loop (a final fit on what it
        collected) runs again here, whole: its input checks are the real run's
        (`inputs_joined`)."""
        tree = self.cell_tree
        info = self.loops.get(loop_id)
        if tree is None or info is None:
            return None
        position = next((k for k, node in enumerate(tree.body)
                         if isinstance(node, ast.For) and node.lineno == info.line), None)
        if position is None:
            return None
        rest = tree.body[position + 1:]
        if rest and self.library_cuts and not all(
                line is not None and line >= rest[0].lineno for line in self.cut_lines):
            return None
        if not rest or any(isinstance(node, (ast.For, ast.AsyncFor, ast.While, ast.FunctionDef,
                                             ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda))
                           for statement in rest for node in ast.walk(statement)):
            return None
        module = ast.Module(body=copy.deepcopy(rest), type_ignores=[])
        try:
            return compile(module, filename, "exec", dont_inherit=True)
        except (SyntaxError, ValueError):
            return None

    def quick_namespace(self, loop_id: int, namespace: dict[str, Any]) -> dict[str, Any] | None:
        """Where a quick pass of the skipped iterations of ``loop_id`` may run, before the
        sweep proper: a copy of ``namespace`` in which the loop's body changes nothing the
        sweep will read. The pass runs the body with the library fits cut, as the cut run
        did (`quick`), so a late item that a library's input checks refuse (a region whose
        labels are one class, a fold lacking a class) is met in the time of the cut fits,
        not of whole ones. None where the cut run cut no library fit, or where the body
        writes a file, calls the notebook's own code, or changes in place (`_may_change`)
        what it does not bind anew at its top before it names it, but a plain list, dict
        or set (those are copied: ``region_auc[region] = ...``, ``scores.append(...)``)."""
        if not self.library_cuts or self.cell_tree is None:
            return None
        info = self.loops.get(loop_id)
        loop = next((n for n in _top_loops(self.cell_tree)
                     if info is not None and n.lineno == info.line), None)
        if loop is None or _bound_in(loop.body)[1] or \
                _runs_notebook_code(loop.body, namespace):
            return None
        fresh: set[str] = set()  # bound anew, to a new object, before the body names them
        named: set[str] = set()
        for statement in loop.body:
            if isinstance(statement, ast.Assign) and all(
                    isinstance(t, (ast.Name, ast.Tuple, ast.List)) for t in statement.targets) \
                    and not {name for name in _view_sources(statement.value, namespace)
                             if _may_hold_memory(name, namespace)} - fresh:
                fresh |= set().union(*(_stored(t) for t in statement.targets)) - named
            named |= _names_in(statement)
        changed = _may_change(list(loop.body), namespace) - fresh
        if changed & _names_in(loop.target):
            return None  # the items themselves
        handed = _handed(loop.body, namespace)
        scratch = dict(namespace)
        for name in changed:
            value = namespace.get(name, _NO_LAST)
            if type(value) not in (list, dict, set) or name in handed or \
                    not _grown_only(loop.body, name):
                return None
            scratch[name] = value.copy()
        return scratch

    def sweep_failed(self, loop_id: int, exc: BaseException) -> bool:
        """A swept iteration of ``loop_id`` raised ``exc``: whether it counts (then the
        sweep ends with it); one that does not lets the next iteration run, up to
        `_MOST_SWEEP_FAILURES` of them."""
        if self.crashed_in_swept_iteration(exc, _cell_line(exc, self.filename, None),
                                           self.namespace or {}, self.filename, loop_id):
            return True
        if self.quick and loop_id in self.quick_found:
            return True  # the quick pass ends: the sweep proper runs that iteration first
        self.sweep_failures[loop_id] = self.sweep_failures.get(loop_id, 0) + 1
        return self.sweep_failures[loop_id] >= _MOST_SWEEP_FAILURES

    def swept(self, loop_id: int) -> Iterator[Any]:
        """The items a cut loop skipped, from its last back to the first it skipped, read
        off what it ran over without running its code (`_positions`); nothing where that
        cannot be read so. Not those that ran after the cut already (the last, a label the
        index lacks): their iteration may have changed them in place."""
        done = next((d for i, d in self.tails if i == loop_id), None)
        source, start = self.sources.get(loop_id, (None, None))
        items = _positions(source, done, self.chunk_texts.get(loop_id)) \
            if done is not None else None
        if items is None:
            return
        skip_top = loop_id in self.ran_last
        missing = self.ran_missing.get(loop_id, _NO_LAST)
        if type(source).__name__ == "TextFileReader":
            self.fresh_items.add(loop_id)  # chunks: each made anew
        # the library fits of a swept iteration run whole, as the real one's (cut in a
        # quick pass, where only what their input checks raise counts)
        self.whole = not self.quick
        first = None if self.quick else self.quick_found.pop(loop_id, None)
        failure = source.failure if type(source) is _Regenerated else None
        if failure is not None and not self.quick and first is None:  # the generator's
            # own failure after its last item: where the real run's loop ends, met first
            self.made_failure = failure
            raise failure
        if first is not None and first[0] is not None:
            self.sweep_items[loop_id], self.sweep_positions[loop_id] = first[1], first[0]
            self.swept_counts[loop_id] = self.swept_counts.get(loop_id, 0) + 1
            yield first[1]  # where the quick pass failed, its fits cut: now whole
        while True:
            # the arrays the iteration before collected, stacked after the loop with those
            # collected so far (`stack_misfit`): a pair that does not fit fails the real run
            misfit = self.stack_misfit(loop_id)
            if misfit is not None:
                raise misfit
            try:
                position, item = next(items)
            except Exception:  # noqa: BLE001 - a container changed or strange: no more
                return
            if skip_top:
                skip_top = False
                continue
            if first is not None and position == first[0]:
                continue
            item = item if start is None else (start + position, item)
            if missing is not _NO_LAST and type(item) is int and item == missing:
                continue
            self.sweep_items[loop_id], self.sweep_positions[loop_id] = item, position
            counts = self.quick_counts if self.quick else self.swept_counts
            counts[loop_id] = counts.get(loop_id, 0) + 1
            yield item

    def crashed_in_swept_iteration(self, exc: BaseException, line: int | None,
                                   namespace: Mapping[str, Any], filename: str,
                                   loop_id: int) -> bool:
        """Whether a crash in a skipped iteration of ``loop_id`` run after the cell
        (`sweep_codes`) is the
        real run's: it fails on that iteration's own values (the expression that raised
        reads only the loop's targets, what the iteration bound from them, and names the
        cell neither binds, grows, resizes nor hands to a call anywhere), in a cell that
        runs none of the notebook's own code, writes or removes no file, and whose loop
        runs over what the cell does not change. The real run reaches that iteration (the
        loop leaves only at its end) with the same item and the same values, or fails
        sooner. The library fits of a swept iteration run whole (`Cutter.whole`); in a
        quick pass (`quick_namespace`) they stay cut, and only what their input checks
        raise counts, as after a library's cut in the last iteration; any other failure
        that would count makes that iteration the first the sweep proper runs
        (`quick_found`), with its fits whole."""
        if exc is not None and exc is self.misfit:
            return True  # two of the real run's arrays that its stack refuses (`stack_misfit`)
        if exc is not None and exc is self.made_failure:
            return self._made_failure_reached(exc, namespace, loop_id)
        counts = self.quick_counts if self.quick else self.swept_counts
        if not counts.get(loop_id) or not _fails_on_values(exc):
            return False
        try:
            line = _cell_line(exc, filename, line)
            raised = _cell_position(exc, filename)
            if raised is None:
                return False
            # a loop that works column by column: the skipped item's own columns, which no
            # other item names, hold what they held as the loop began (`_keyed`)
            judged = self._judge_last(line, namespace, exc, raised, loop_id=loop_id,
                                      swept=True) or ((keyed := self._keyed(
                                          namespace, loop_id, self.sweep_items.get(
                                              loop_id, _NO_LAST))) is not None and
                                          keyed._judge_last(line, namespace, exc, raised,
                                                            loop_id=loop_id, swept=True))
        except Exception:  # noqa: BLE001 - the cell's objects: whatever they do, not believed
            return False
        if judged and self.quick and not raised_by_input_checks(exc):
            # a fit cut to fewer trees or epochs may make the values it reads: run whole first
            self.quick_found.setdefault(loop_id, (self.sweep_positions.get(loop_id),
                                                  self.sweep_items.get(loop_id)))
            return False
        return judged

    def _made_failure_reached(self, exc: BaseException, namespace: Mapping[str, Any],
                              loop_id: int) -> bool:
        """Whether what a notebook's generator raised as the sweep made its items anew
        (`_Regenerated`) is the real run's: a failure of a value (`_fails_on_values`: a
        shard without the column it standardizes), of a generator that depends on its
        arguments alone, called again with what it was first handed, in a cell that
        changes none of them (the loop's header reads nothing the cell binds, grows or
        hands to a call, `_changed_by_cell`), whose loop ends only at its end: the real
        run's loop asks for that item, or fails sooner."""
        try:
            info = self.loops[loop_id]
            loop = next((n for n in _top_loops(self.cell_tree) if n.lineno == info.line), None)
            if loop is None or not _fails_on_values(exc):
                return False
            changed = self._changed_by_cell(namespace, loop, loop_id, exc)
            if changed is None:
                return False
            made: set[str] = set()
            for cut_id in self.cut:
                made |= self.loops[cut_id].names
            return not _names_in(loop.iter) & (changed | made)
        except Exception:  # noqa: BLE001 - the cell's objects: whatever they do, doubtful
            return False

    def stack_misfit(self, loop_id: int) -> BaseException | None:
        """Where the cell, after the swept loop ``loop_id``, stacks the arrays it collects
        (``np.stack(features)``, as `stacks_kept` reads it) and each is made from its
        own item alone, in the cut run and in the skipped iterations the sweep runs after
        the whole cell (`_own_items`, on what the cell changes): the library's failure on
        the first array and one that does not fit with it (a sensor's recording shorter
        than the others), raised at the stack's line; None while they all fit. The real
        run's list holds both, so its stack fails too, whatever the order. Not where the
        cut run cut a library's fits (its arrays may be of other shapes than whole fits
        make: one per tree of a forest cut to two), nor in a quick pass."""
        if self.quick or self.library_cuts or self.namespace is None or \
                self.misfit is not None:
            return None
        try:
            checks = self.stacks_after.get(loop_id)
            if checks is None:
                checks = self.stacks_after[loop_id] = self._stacks_after(loop_id)
            for listed, statement, call in checks:
                items = self.namespace.get(listed)
                if type(items) is dict and _collecting(call, self.namespace) == "columns":
                    items = list(items.values())  # ``pd.concat(trends, axis=1)``
                if type(items) is not list or not items:
                    continue
                checked = self.stacks_checked.get((loop_id, listed), 1)
                self.stacks_checked[(loop_id, listed)] = len(items)
                for item in items[checked:]:
                    if not _may_misfit(items[0], item):
                        continue
                    misfit = _misfit(call, statement, [items[0], item], self.namespace,
                                     self.filename)
                    if misfit is not None:
                        self.misfit = misfit
                        return misfit
        except Exception:  # noqa: BLE001 - the cell's objects: whatever they do, doubtful
            return None
        return None

    def _stacks_after(self, loop_id: int) -> list[tuple[str, ast.stmt, ast.Call]]:
        """The stacks `stack_misfit` checks after ``loop_id``: in a statement of the
        cell's top level after the loop, evaluated whenever it runs (not under a
        condition, a lambda or a comprehension), a numpy or torch call that stacks a list
        the loop collects (`_collected_only`), or pandas' join of its series or frames
        side by side (``pd.concat(trends, axis=1)``, of a list or of a dict the loop
        fills under its own unique keys, `_unique_key`), each item made from its own item
        alone in the skipped iterations too."""
        tree, namespace = self.cell_tree, self.namespace
        info = self.loops.get(loop_id)
        loop = next((n for n in _top_loops(tree) if info is not None and n.lineno == info.line),
                    None)
        cut_nodes = self._cut_nodes()
        if tree is None or namespace is None or loop is None or cut_nodes is None:
            return []
        position = next((k for k, node in enumerate(tree.body) if node is loop), None)
        if position is None:
            return []
        changed = None
        found = []
        for statement in tree.body[position + 1:]:
            if not isinstance(statement, (ast.Assign, ast.AnnAssign, ast.Expr)):
                continue
            for call in _unconditional_calls(statement):
                kind = _collecting(call, namespace)
                if kind is None:
                    continue
                assert isinstance(call.args[0], ast.Name)
                listed = call.args[0].id
                key = _unique_key(loop, namespace) if kind == "columns" else None
                made = self._names_cut_loops_make(cut_nodes, namespace)
                if not self._collected_only(listed, cut_nodes, made, namespace,
                                            before=statement, keyed=kind == "columns"):
                    continue
                if changed is None:
                    changed = self._changed_by_cell(namespace, loop, loop_id)
                    if changed is None:
                        return []
                if _own_items(loop, listed, changed - {listed}, key=key):
                    found.append((listed, statement, call))
        return found

    def _changed_by_cell(self, namespace: Mapping[str, Any], loop: ast.For,
                         loop_id: int, exc: BaseException | None = None) -> set[str] | None:
        """What the whole cell may change (it ran before the skipped iterations): every
        name it binds, grows, stores into, resizes, calls a method of or hands to a call,
        and what it binds from those; not what it defines once, before the loop, and
        never binds again (a function, a class, an import). None (nothing judged) where
        the cell runs the notebook's code (but its functions that depend on their
        arguments alone: `_pure_function`), removes files, writes files and reads some,
        or sets a library's global state (`_GLOBAL_SETTERS`: ``np.seterr``, a pandas
        option, a warnings filter); where the cell names what the loop runs over (but a
        module or a function) anywhere but in its header (a later loop may change its
        items in place); or where the item of the iteration is what a name the cell
        changes holds. Given the failure ``exc``: not what only the cell's statements
        before the loop change (`_prepared_before`: a pipeline fitted once, then used to
        score each batch), which the skipped iteration meets as the real one did."""
        tree = self.cell_tree
        if tree is None:
            return None
        # the statements of the cell, not the bodies of its functions and classes (what a
        # function changes is what its calls are handed; `_pure_function` reads its body)
        nodes = [node for node in tree.body if not isinstance(
            node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))]
        bound, writes = _bound_in(nodes)
        writes = writes or _bound_in(list(tree.body))[1]
        called = {_called_name(n) for node in tree.body for n in ast.walk(node)
                  if isinstance(n, ast.Call)}
        if (writes and called & _READERS) or called & (_REMOVERS | _GLOBAL_SETTERS) or \
                _runs_notebook_code(nodes, namespace, pure_ok=True):
            return None
        # what the loop runs over (not a module's or a function's name: ``sorted(os.listdir
        # (folder))``), named by the cell after it or before it
        opened = _opened_by(tree, loop)  # ``with open(path) as fh:`` around the loop: ``fh``
        # is the file the loop reads, bound there, named nowhere else
        position = next(k for k, node in enumerate(tree.body) if node is loop or node is opened)
        # a number or a text bound once before the loop (``window, step = 720, 1``) holds
        # in the swept iteration what it held in the real one, and nothing changes it in place
        constants = _constants_before(tree, position, namespace)
        listed = {name for name in _names_in(loop.iter) if not isinstance(
            namespace.get(name, getattr(builtins, name, None)),
            (types.ModuleType, types.FunctionType, types.BuiltinFunctionType, type))} - constants
        # ...and so does a list of numbers or texts bound once before it that nothing in
        # the cell changes (``station_files = sorted(glob.glob('stations/*.csv'))``)
        settled = _settled_before(tree, position, nodes, namespace)
        listed -= {name for name in settled & listed if _constant_items(namespace.get(name))}
        bound_there = {id(item.optional_vars) for item in opened.items} if opened else set()
        parents = {id(child): node for node in ast.walk(tree)
                   for child in ast.iter_child_nodes(node)}
        # the numbers of a ``range``, kept as the loop began, are what they were whatever
        # the cell later does to what the header read (``range(0, len(events), 32)``)
        numbered = type(self.sources.get(loop_id, (None, None))[0]) is range
        if loop_id not in self.fresh_items and not numbered and any(  # (chunks, folds: made
                isinstance(n, ast.Name) and n.id in listed  # anew, no statement changes)
                and id(n) not in bound_there and not _summarised(n, parents)
                for node in nodes if node is not loop for n in ast.walk(node)
                if not _within(n, loop)):
            return None
        # what the cell defines once, before the loop (a function, a class, an import),
        # holds in the swept iteration what it held in the real one
        local = _comprehension_only(tree)
        # ...and so does an object bound once before the loop that nothing in the cell
        # changes (``X, y = flows.drop(columns='attack'), flows['attack']``)
        bound = set(bound) - local - constants - settled
        stored = _names_stored(ast.Module(body=nodes, type_ignores=[]))
        stable = {name for node in tree.body[:position] for name in _defines(node)
                  if name not in stored and sum(name in _defines(n) for n in ast.walk(tree)) == 1}
        defined = {name for n in ast.walk(tree) for name in _defines(n)} - stable
        # (the header runs once, before any iteration: ``readings.items()``); a method
        # that returns a new object and changes none (``df[col].dropna()``) changes nothing
        outside = [n for n in nodes if n is not loop and n is not opened] + loop.body + \
            loop.orelse + ([item.context_expr for item in opened.items] if opened else [])
        receivers = _receivers(outside, namespace) | _resized_in(outside)
        # a list the cell only grows (``current.append(ev)``) changes none of its items,
        # nor what it is given (`_grown_containers`)
        handing = nodes
        if type(self.sources.get(loop_id, (None, None))[0]) is _Regenerated and \
                isinstance(loop.iter, ast.Call):  # the notebook's generator the header
            # calls leaves the very arguments it was handed (`_Regenerated.of`): only what
            # they are made of counts (``lengths_of(reviews.fillna(''), 40)``)
            handing = [n for n in nodes if n is not loop] + loop.body + loop.orelse + \
                [*loop.iter.args, *(k.value for k in loop.iter.keywords)]
        seeds = _stored_into(nodes) | _resized_in(nodes) | \
            _handed(handing, namespace, grown=True) | receivers
        changed = _propagate(tree, set(bound) | defined | _viewed_by(
            tree, seeds, namespace, _grown_containers(list(tree.body), namespace, seeds))) - \
            local - constants
        if opened is not None:  # the file the ``with`` opens, bound there alone: the loop
            # reads its lines again from its path (`_file_lines`)
            changed -= {name for name in _names_in(loop.iter) if sum(
                isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, ast.Store)
                for n in ast.walk(tree)) == 1 and name in {
                    item.optional_vars.id for item in opened.items
                    if isinstance(item.optional_vars, ast.Name)}}
        targets = _names_in(loop.target)
        if any(namespace.get(name, _NO_LAST) is part for name in changed - targets
               for part in _mutable_parts(self.sweep_items.get(loop_id))):
            return None
        if exc is not None:
            changed -= self._prepared_before(tree, position, nodes, loop, opened, exc,
                                             namespace)
        return changed

    def _prepared_before(self, tree: ast.Module, position: int, nodes: list[ast.stmt],
                         loop: ast.For, opened: ast.With | None, exc: BaseException,
                         namespace: Mapping[str, Any]) -> set[str]:
        """The names only the cell's statements before the swept ``loop`` (its
        ``position``-th) bind or change, with no loop among them, where every cut loop is
        ``loop`` or within it: what they hold after the whole cell they held as the loop
        began, for the real run's iterations and the skipped ones alike (``model.fit(hist)``,
        then ``model.predict_proba(batch)`` for each week). Not what the loop's body or a
        later statement binds or may change, nor what is made from that or shares its
        memory (`_propagate`, `_viewed_by`). Where the cut run cut a library's fits, the
        fits before the loop were cut too: only what a library's input checks raise (an
        unknown category, a column count, a NaN) counts, which fewer iterations do not
        change."""
        if self.library_cuts and not raised_by_input_checks(exc):
            return set()
        before = tree.body[:position]
        if any(isinstance(n, (ast.For, ast.AsyncFor, ast.While)) for node in before
               for n in ast.walk(node)) or not all(
                self.loops[i].where == "the cell" and
                loop.lineno <= self.loops[i].line <= (loop.end_lineno or loop.lineno)
                for i in self.cut if i in self.loops):
            return set()
        later = [n for n in nodes if n is not loop and n is not opened and
                 not any(n is b for b in before)] + loop.body + loop.orelse
        touched = set(_bound_in(later)[0]) | {
            name for node in later for n in ast.walk(node) for name in _defines(n)} | _viewed_by(
            tree, _stored_into(later) | _resized_in(later) | _handed(later, namespace) |
            _receivers(later, namespace), namespace)
        touched = _propagate(tree, touched | _names_in(loop.target))
        return {name for node in before for name in _names_in(node)} - touched

    def tick(self, loop_id: int) -> bool:
        done = self.counts.get(loop_id, 0)
        # while loops restart their count each time the loop statement is entered again
        # are not tracked: a while loop keeps `keep` iterations per run of the cell (and
        # `SLOW_KEEP` where those took `SLOW_KEEP_S` from its first)
        entered = self.ticked.setdefault(loop_id, time.perf_counter())
        if self._may_cut(done, entered=entered):
            self._cut(loop_id, done)
            return False
        self.counts[loop_id] = done + 1
        return True

    def _cut(self, loop_id: int, done: int) -> None:
        if not self.cut and self.prefix is None:
            self.prefix = self._appended_lengths()
        if loop_id not in self.cut:
            self.cut.append(loop_id)
        self.kept[loop_id] = min(done, self.kept.get(loop_id, done))

    def _appended_lengths(self) -> dict[str, int]:
        """The lengths now of the lists the cell's loops append to (`prefix`)."""
        lengths: dict[str, int] = {}
        try:
            for node in ast.walk(self.cell_tree) if self.cell_tree is not None else ():
                if isinstance(node, (ast.For, ast.While)):
                    for call in ast.walk(node):
                        if isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute) \
                                and call.func.attr == "append" and \
                                isinstance(call.func.value, ast.Name):
                            value = (self.namespace or {}).get(call.func.value.id)
                            if type(value) is list:
                                lengths[call.func.value.id] = len(value)
        except Exception:  # noqa: BLE001 - a strange list: none known
            return {}
        return lengths

    def prefix_kept(self, exc: BaseException, line: int | None, filename: str,
                    namespace: Mapping[str, Any]) -> bool:
        """Whether an error after a cut loop, of one item of a list a loop of the cell
        appended to, is the real run's: the items appended before the first cut are the
        real run's first ones (the cut run was the real run until then), and the failing
        call, made again with the list cut to them, fails alike; so one of them fails it,
        and the real run's list holds it. Only for what an item is, whatever its place
        (`_ITEM_WORDS`: a tensor that requires grad given to numpy, a text that is no
        number), where no fit was cut (its items would differ), where the cell changes no
        tensor's grad in place (``detach_()``, ``requires_grad_()``), and where the list is
        made empty by the cell, bound nowhere else, and named outside the loops only in
        the failing statement (a plot of the losses: ``ax.plot(train_losses)``)."""
        try:
            if not self.cut or self.library_cuts or not self.prefix or \
                    not isinstance(exc, (RuntimeError, ValueError, TypeError)):
                return False
            message = str(exc)
            if not any(words in message for words in _ITEM_WORDS):
                return False
            return self._prefix_kept(exc, line, filename, namespace, message)
        except Exception:  # noqa: BLE001 - the cell's objects: whatever they do, doubtful
            return False

    def _prefix_kept(self, exc: BaseException, line: int | None, filename: str,
                     namespace: Mapping[str, Any], message: str) -> bool:
        tree = self.cell_tree
        statement = _statement_at(tree, _cell_line(exc, filename, line))
        raised = _cell_position(exc, filename)
        if tree is None or statement is None or raised is None or \
                not any(statement is n for n in tree.body):
            return False
        if any(isinstance(n, ast.Attribute) and (n.attr in ("detach_", "requires_grad_") or (
                n.attr == "requires_grad" and isinstance(n.ctx, ast.Store)))
               for n in ast.walk(tree)):
            return False  # an item's grad changed in place, by iterations the cut skipped
        node = _node_at(statement, raised)
        if not isinstance(node, ast.Call) or _runs_notebook_code([node], namespace):
            return False  # the notebook's own function may look at the list's length
        loops = [n for n in tree.body if isinstance(n, (ast.For, ast.While))]
        position = next(k for k, n in enumerate(tree.body) if n is statement)
        for arg in node.args:
            if not isinstance(arg, ast.Name) or arg.id not in self.prefix or \
                    not self.prefix[arg.id]:
                continue
            name = arg.id
            stores = [n for n in ast.walk(tree) if isinstance(n, ast.Name) and n.id == name
                      and isinstance(n.ctx, (ast.Store, ast.Del))]
            made_empty = [n for n in tree.body[:position]
                          if stores and _emptied(n, name) is stores[0]]
            if len(stores) != 1 or not made_empty or any(
                    k < tree.body.index(made_empty[0]) for k, n in enumerate(tree.body)
                    if any(n is loop for loop in loops)):
                continue  # made empty once, before every loop
            named = [n for n in ast.walk(tree) if isinstance(n, ast.Name) and n.id == name
                     and not _within(n, statement) and n is not stores[0]]
            if not all(any(_within(n, loop) for loop in loops) for n in named) or any(
                    isinstance(n, ast.Name) and n.id == name
                    for loop in loops for header in _headers(loop) for n in ast.walk(header)):
                continue  # named outside the loops, or run over by one
            if any(not _appended_only(loop, name) for loop in loops):
                continue
            value = namespace.get(name)
            if type(value) is not list or len(value) < self.prefix[name]:
                continue
            scope = dict(namespace)
            scope[name] = value[:self.prefix[name]]
            try:
                eval(compile(ast.Expression(body=node), filename, "eval"),  # noqa: S307
                     scope)
            except type(exc) as again:  # the same failure, of one of the first items
                if str(again) == message:
                    return True
            except Exception:  # noqa: BLE001 - another failure: not this one
                pass
        return False

    def keys_kept(self, exc: BaseException, line: int | None, filename: str,
                  namespace: Mapping[str, Any]) -> bool:
        """Whether a merge's refusal after a cut loop (pandas' ``MergeError: Merge keys are
        not unique in right dataset; not a many-to-one merge``, from ``validate=``) is the
        real run's: the uniqueness of a dataset's keys is checked whatever the other
        holds, so where no cut loop makes, grows, changes or hands the dataset the message
        names (left, right, or either) or the keyword arguments that name its keys (nor
        anything they are made from, `_propagate`), the real run's merge refuses the same
        keys (a customer table with a customer twice, merged one to one with what a loop
        over the customers' transactions made). Only a ``merge`` or ``join`` call of the
        cell's own top-level statement (``stays.merge(wards, on='ward_id', ...)``,
        ``pd.merge(stays, wards, ...)``), read off the traceback, and only where the cut
        loops run none of the notebook's code but its pure functions."""
        try:
            message = str(exc)
            sides = [side for side in ("left", "right") if f"in {side} dataset" in message]
            if "in either left or right dataset" in message:
                sides = ["left", "right"]
            if not self.cut or type(exc).__name__ != "MergeError" or not sides:
                return False
            found = self._after_the_loops(exc, line, filename, namespace, pure_ok=True)
            if found is None:
                return False
            tree, cut_nodes, _statement, call = found
            if not isinstance(call, ast.Call) or not isinstance(call.func, ast.Attribute) or \
                    call.func.attr not in ("merge", "join") or any(
                        isinstance(a, ast.Starred) or (isinstance(a, ast.keyword) and
                                                       a.arg is None)
                        for a in [*call.args, *call.keywords]):
                return False
            keywords = {k.arg: k.value for k in call.keywords}
            datasets = _merged(call, namespace)
            made: set[str] = set()
            for loop_id in self.cut:
                made |= self.loops[loop_id].names
            made = _propagate(tree, made | _resized_in(cut_nodes) | _handed(cut_nodes, namespace)
                              | _receivers(cut_nodes, namespace) | _stored_into(cut_nodes))
            for side in sides:
                dataset = datasets[side]
                other = "right" if side == "left" else "left"
                keys = [v for k, v in keywords.items()
                        if k not in (f"{other}_on", f"{other}_index")]
                if dataset is not None and not set().union(
                        _names_in(dataset), *(_names_in(k) for k in keys)) & made:
                    return True
            return False
        except Exception:  # noqa: BLE001 - the cell's objects: whatever they do, doubtful
            return False

    def key_types_kept(self, exc: BaseException, line: int | None, filename: str,
                       namespace: Mapping[str, Any]) -> bool:
        """Whether pandas' refusal to merge a key of numbers with one of texts after a cut
        loop (``You are trying to merge on int64 and object columns for key 'id'``) is the
        real run's: the cell collects one record per group of a groupby (``profiles.append(
        {'customer_id': cid, ...})`` in ``for cid, g in tx.groupby('customer_id')``), makes
        a frame of them (``pd.DataFrame(profiles)``) and merges it with a table no cut loop
        makes, whose keys are the real run's. The merge key of each record is the group's
        key, and a groupby's keys over a column of numbers, dates or booleans are all of
        the column's type: the real run's column of those keys has the cut run's dtype,
        however many records the cut skipped. Only where each dataset merged is either
        made by no cut loop (nor from what one makes, `_propagate`), or a frame of records
        the cut loop collected (`_collected_only`: each from its own group), bound only by
        that frame's making, its key column changed by no statement up to the merge, each
        record a dict written out whose value under the key is the loop's group key
        (`_group_key_typed`); and where no keyword of the merge reads what a cut loop makes.
        Only a ``merge`` of the cell's own top-level statement, read off the traceback."""
        try:
            matched = _MERGE_TYPES.search(str(exc))
            if not self.cut or not isinstance(exc, ValueError) or matched is None:
                return False
            key = matched[1]
            found = self._after_the_loops(exc, line, filename, namespace, pure_ok=True)
            if found is None:
                return False
            tree, cut_nodes, statement, call = found
            if not isinstance(call, ast.Call) or not isinstance(call.func, ast.Attribute) or \
                    call.func.attr != "merge" or any(
                        isinstance(a, ast.Starred) or (isinstance(a, ast.keyword) and
                                                       a.arg in _SIDED_KEYS)
                        for a in [*call.args, *call.keywords]):
                return False  # (each side's own key names: the message names the left's)
            made = self._names_cut_loops_make(cut_nodes, namespace)
            spread = _propagate(tree, made)
            datasets = _merged(call, namespace)
            named = {id(d) for d in datasets.values() if d is not None}
            if any(_names_in(k.value) & spread for k in call.keywords
                   if id(k.value) not in named):
                return False
            collected = 0
            for dataset in datasets.values():
                if dataset is None:
                    return False
                if not _names_in(dataset) & spread:
                    continue
                if not isinstance(dataset, ast.Name) or not self._records_keyed(
                        dataset.id, key, statement, cut_nodes, made, namespace):
                    return False
                collected += 1
            return collected == 1
        except Exception:  # noqa: BLE001 - the cell's objects: whatever they do, doubtful
            return False

    def _records_keyed(self, joined: str, key: str, statement: ast.stmt,
                       cut_nodes: list[ast.stmt], made: set[str],
                       namespace: Mapping[str, Any]) -> bool:
        """Whether ``joined`` is a frame of the records a cut loop over a groupby collected,
        each with the group's key under ``key`` (`key_types_kept`)."""
        tree = self.cell_tree
        assert tree is not None
        join = self._join_before(joined, [key], statement)
        if join is None or not isinstance(join.value, ast.Call) or \
                not isinstance(join.value.func, ast.Attribute) or \
                join.value.func.attr not in ("DataFrame", "from_records"):
            return False  # (a frame of records, one row each; not a concat of frames)
        listed = _joined_list(join.value)
        if listed is None:
            return False
        appends = [n for n in ast.walk(tree) if isinstance(n, ast.Call)
                   and isinstance(n.func, ast.Attribute) and n.func.attr == "append"
                   and isinstance(n.func.value, ast.Name) and n.func.value.id == listed]
        loops = [n for n in cut_nodes if isinstance(n, ast.For)
                 and any(_within(a, n) for a in appends)]
        if not appends or len(loops) != 1 or not all(_within(a, loops[0]) for a in appends):
            return False
        for append in appends:
            record = append.args[0] if len(append.args) == 1 and not append.keywords else None
            if not isinstance(record, ast.Dict) or any(
                    not isinstance(k, ast.Constant) or type(k.value) is not str
                    for k in record.keys):
                return False
            values = [v for k, v in zip(record.keys, record.values) if k.value == key]
            if len(values) != 1 or not isinstance(values[0], ast.Name) or \
                    not _group_key_typed(loops[0], values[0].id, tree, made, namespace):
                return False
        return self._collected_only(listed, cut_nodes, made, namespace, before=join)

    def inputs_joined(self, exc: BaseException, line: int | None, filename: str,
                      namespace: Mapping[str, Any]) -> bool:
        """Whether a library's input check that fails in the rest of the cell, run again
        after the last swept loop's skipped iterations (`continuing`), is the real run's:
        the call that raised reads only what no cut loop makes and names the cell binds
        after the loop to a join of a list the loop collected (`_collected_only`: each
        value made from its own item alone, the skipped ones' too), or from such names
        alone (`_joined_names`). Its arguments then hold every row the real run's hold,
        in another order, and scikit-learn's or a boosting library's checks of them (a NaN
        in the features, a text among numbers, labels of one class) do not read the order
        (weekly sensor features joined after the loop and fitted, one week's pressure all
        NaN). The fits the cut run cut after the loop run whole here."""
        try:
            if self.continuing is None or not raised_by_input_checks(exc):
                return False
            # (the loop may call the notebook's pure functions: what each makes of its item
            # depends on that item alone, ``[store_features(g) for _, g in ...]``)
            found = self._after_the_loops(exc, line, filename, namespace, pure_ok=True)
            if found is None:
                return False
            tree, cut_nodes, statement, node = found
            made = self._names_cut_loops_make(cut_nodes, namespace)
            known = self._joined_names(statement, cut_nodes, made, namespace)
            judged = ast.Expr(value=node) if node is not None else statement
            return _clean_statement(judged, known, _propagate(tree, set(made)), namespace)
        except Exception:  # noqa: BLE001 - the cell's objects: whatever they do, doubtful
            return False

    def _joined_names(self, statement: ast.stmt, cut_nodes: list[ast.stmt], made: set[str],
                      namespace: Mapping[str, Any]) -> set[str]:
        """The names the cell's statements between the swept loop (`continuing`) and
        ``statement`` bind, once in the cell, to a join of a list the loop collected
        (``X = pd.concat(rows)``, then order-free methods: ``.astype(int)``,
        ``.to_numpy()``), or from such names and what no cut loop makes alone."""
        tree = self.cell_tree
        info = self.loops.get(self.continuing) if self.continuing is not None else None
        if tree is None or info is None:
            return set()
        tainted = _propagate(tree, set(made))
        known: set[str] = set()
        after = False
        for node in tree.body:
            if node is statement:
                break
            if not after:
                after = isinstance(node, ast.For) and node.lineno == info.line
                continue
            target = node.targets[0] if isinstance(node, ast.Assign) and \
                len(node.targets) == 1 else None
            if isinstance(target, ast.Name) and len(_bindings_of(tree, target.id)) == 1:
                listed = _joined_list(_order_free_core(node.value, known, tainted))
                if listed is not None and self._collected_only(
                        listed, cut_nodes, made, namespace, before=node) or \
                        _clean_statement(node, known, tainted, namespace):
                    known.add(target.id)
                    continue
            known -= set(_bound_in([node])[0]) | _may_change([node], namespace)
        return known

    def inputs_kept(self, exc: BaseException, line: int | None, filename: str,
                    namespace: Mapping[str, Any]) -> bool:
        """Whether a crash after the cut loops is the real run's because the statement that
        raised reads nothing they may have changed: its values are the real run's, however
        many iterations ran (a final fit on the monthly frames joined, after a loop that
        scored each month with a model of its own). Only where:

        - the cut loops are the cell's own statements, run none of the notebook's code
          but its pure functions (`_pure_function`: they change only what they are
          handed, which counts as changed but where they leave it, `_leaves_its_arguments`),
          write or remove no file, set no library's global state (`_GLOBAL_SETTERS`), nor
          whether tensors require grad, and train no weights through an optimizer
          (`_TRAINS`); the statement is of the cell's top level, after them;
        - no name the statement reads (nor the notebook's code it runs) is one the cut
          loops bind, store into, resize, hand to a call, call a method of that may change
          it, or consume an iterator it holds; nor what shares memory with those, or holds
          them (`_viewed_by`); nor what the cell binds from any of those (`_propagate`);
        - no statement from the loops' end to it draws random numbers (the cut loops drew
          fewer: a generator's state differs), nor splits at random, nor runs the
          notebook's code but its pure functions (`_pure_function`: they draw none);
        - where a library's fit was cut (fewer trees or epochs), it was raised by the
          library's input checks (`raised_by_input_checks`).

        A failure that a model's shapes decide with the values given to it
        (`_about_a_models_shapes`: a label past its classes, a width it does not take) may
        read a model the cut loops trained (`_shaped_modules`): however many steps trained
        it, its layers have the shapes they had."""
        try:
            if not self.cut or (self.library_cuts and not raised_by_input_checks(exc)) or \
                    any(self.loops[i].writes_files or self.loops[i].autograd
                        for i in self.cut) or _about_autograd(exc):
                return False
            # (a statement under ``with torch.no_grad():`` counts as that ``with``'s,
            # which holds it: what runs before it in there is read too)
            found = self._after_the_loops(exc, line, filename, namespace, pure_ok=True,
                                          held_ok=True)
            if found is None:
                return False
            tree, cut_nodes, statement, _node = found
            shaped = _about_a_models_shapes(exc)  # (training changes no layer's shape)
            if {_called_name(n) for root in cut_nodes for n in ast.walk(root)
                    if isinstance(n, ast.Call)} & (_REMOVERS | _GLOBAL_SETTERS | (
                        frozenset() if shaped else _TRAINS)):
                return False  # a file removed, an option set in an iteration the cut
                # skipped; an optimizer's step changes weights no name of the cell holds
            position = next(k for k, node in enumerate(tree.body) if _within(statement, node))
            tops = [k for k, node in enumerate(tree.body)
                    if any(_within(loop, node) for loop in cut_nodes)]
            if not tops or max(tops) >= position:
                return False
            after = tree.body[max(tops) + 1:position + 1]
            if _draws_in(after) or any(_called_name(n) == "train_test_split"
                                       for node in after for n in ast.walk(node)
                                       if isinstance(n, ast.Call)) or \
                    _runs_notebook_code(after, namespace, pure_ok=True):
                return False  # (a notebook function may draw, unseen: but a pure one)
            # what they change in place reaches what shares it (``cur = frames[m]``, then
            # ``cur['x'] = 0``); what they only bind does not
            in_place = _stored_into(cut_nodes) | _resized_in(cut_nodes) | \
                _handed(cut_nodes, namespace) | _receivers(cut_nodes, namespace) | \
                _iterators_named(cut_nodes, namespace)
            # (the statement's own flows left out: its comprehension's targets are its own,
            # ``[model(xb) for xb, _ in val_loader]`` after a loop that binds ``xb``)
            changed = _propagate(tree, self._names_cut_loops_make(cut_nodes, namespace) |
                                 _viewed_by(_without(tree, statement), in_place, namespace,
                                            _grown_containers(list(tree.body), namespace,
                                                              in_place), items=True))
            if shaped:  # a model the loops trained keeps its layers' shapes: what they
                # decide with the values given to it (the classes it has) is the real run's
                changed -= _shaped_modules(changed, tree, namespace)
            return _clean_statement(statement, set(), changed, namespace)
        except Exception:  # noqa: BLE001 - the cell's objects: whatever they do, doubtful
            return False

    def grads_kept(self, exc: BaseException, line: int | None, filename: str,
                   namespace: Mapping[str, Any]) -> bool:
        """Whether a "requires grad" error after a cut loop, of tensors a loop of the cell
        collected (``preds.append(model(xb))``, then ``torch.cat(preds).numpy()``), is the
        real run's. Whether a tensor requires grad is not its values: the same layers
        make it, under the same grad mode (the ``with torch.no_grad():`` a cell writes
        around its loop is there in both runs), in each iteration the cut run kept, which
        the real run has too, trained further. So the real run's list holds such tensors,
        and the same call fails. Only where no fit was cut, where the cell changes no
        tensor's grad in place and sets no grad mode but in a ``with``, where the cut loops
        run none of the notebook's code but its pure functions and classes
        (`_pure_object`), and where the list, made empty once before the loops that name
        it, is only appended to there, in each iteration (not under an ``if``), and named
        outside them nowhere before the failing statement (what follows it never runs)."""
        try:
            if not self.cut or self.library_cuts or not isinstance(exc, RuntimeError) or \
                    "that requires grad" not in str(exc):
                return False
            return self._grads_kept(exc, line, filename, namespace)
        except Exception:  # noqa: BLE001 - the cell's objects: whatever they do, doubtful
            return False

    def _grads_kept(self, exc: BaseException, line: int | None, filename: str,
                    namespace: Mapping[str, Any]) -> bool:
        tree = self.cell_tree
        statement = _statement_at(tree, _cell_line(exc, filename, line))
        raised = _cell_position(exc, filename)
        cut_nodes = self._cut_nodes()
        if tree is None or statement is None or raised is None or cut_nodes is None or \
                not any(statement is n for n in tree.body):
            return False
        with_items = {id(item.context_expr) for node in ast.walk(tree)
                      if isinstance(node, (ast.With, ast.AsyncWith)) for item in node.items}
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and (
                    node.attr in ("detach_", "requires_grad_") or (
                        node.attr == "requires_grad" and isinstance(node.ctx, ast.Store))):
                return False  # a tensor's grad changed in place
            if isinstance(node, ast.Call) and _called_name(node) in _GRAD_MODES and \
                    id(node) not in with_items:
                return False  # a grad mode set for what follows, maybe in a skipped iteration
        node = _node_at(statement, raised)
        if node is None or _runs_notebook_code([node], namespace) or \
                _runs_notebook_code(cut_nodes, namespace, pure_ok=True):
            return False
        torch = sys.modules.get("torch")
        loops = [n for n in tree.body if isinstance(n, (ast.For, ast.While))]
        position = next(k for k, n in enumerate(tree.body) if n is statement)
        bodies = [n.body for n in ast.walk(tree) if isinstance(n, (ast.For, ast.While))]
        for name in sorted({n.id for n in ast.walk(node) if isinstance(n, ast.Name)}):
            value = namespace.get(name)
            if torch is None or type(value) is not list or not value or \
                    not all(isinstance(item, torch.Tensor) for item in value):
                continue
            stores = [n for before in tree.body[:position] for n in ast.walk(before)
                      if isinstance(n, ast.Name) and n.id == name
                      and isinstance(n.ctx, (ast.Store, ast.Del))]
            made_empty = [n for n in tree.body[:position]
                          if stores and _emptied(n, name) is stores[0]]
            naming = [loop for loop in loops if any(
                isinstance(n, ast.Name) and n.id == name for n in ast.walk(loop))]
            if len(stores) != 1 or not made_empty or not naming or any(
                    tree.body.index(loop) < tree.body.index(made_empty[0]) for loop in naming):
                continue  # made empty once, before the loops that name it
            named = [n for before in tree.body[:position] for n in ast.walk(before)
                     if isinstance(n, ast.Name) and n.id == name and n is not stores[0]]
            if not all(any(_within(n, loop) for loop in naming) for n in named) or any(
                    isinstance(n, ast.Name) and n.id == name
                    for loop in naming for header in _headers(loop) for n in ast.walk(header)):
                continue  # named outside the loops before the failing statement (what
                # follows it never runs), or run over by one
            if any(not _appended_only(loop, name) for loop in naming):
                continue
            appends = [n for n in ast.walk(tree) if isinstance(n, ast.Expr)
                       and isinstance(n.value, ast.Call) and isinstance(n.value.func, ast.Attribute)
                       and n.value.func.attr == "append" and isinstance(n.value.func.value, ast.Name)
                       and n.value.func.value.id == name]
            if appends and all(any(a is s for body in bodies for s in body) for a in appends):
                return True  # each appended in a loop's own body, whatever the iteration
        return False

    def scale(self) -> float:
        """How many times longer the whole cell would take, at least, from what was cut
        (a loop of unknown length tells nothing: it may end right after the cut)."""
        scale = self.library_scale
        for loop_id in self.cut:
            total = self.totals.get(loop_id)
            if isinstance(total, int) and total:
                scale = max(scale, total / max(self.keep, self.kept.get(loop_id, self.keep)))
        return scale

    def evidence(self) -> list[str]:
        """What was cut: ``for epoch in range(50) (line 3 of the cell): ran 3 of 50``."""
        lines = []
        for loop_id in self.cut:
            info = self.loops[loop_id]
            total = self.totals.get(loop_id)
            of = f" of {total:,}" if isinstance(total, int) else ""
            runs = self.entries.get(loop_id, 1)
            done = self.counts.get(loop_id, 0)
            missing = self.ran_missing.get(loop_id)
            each = f"{self.kept.get(loop_id, min(done, self.keep)):,}{of} iterations" + (
                f", the one at {missing:,} (a label the index lacks)" if missing is not None
                else "") + (
                " and the last" if loop_id in self.ran_last else "") + (
                f", in each of its {runs:,} runs" if runs > 1 else "")
            lines.append(f"{info.text} (line {info.line} of {info.where}): ran {each}")
            if self.quick_counts.get(loop_id):
                lines.append(f"{info.text} (line {info.line} of {info.where}): then, after "
                             f"the cell, {self.quick_counts[loop_id]:,} of the iterations "
                             "skipped, newest first, with the library fits cut (a quick pass)")
            if self.swept_counts.get(loop_id):
                lines.append(f"{info.text} (line {info.line} of {info.where}): then, after "
                             f"the cell, {self.swept_counts[loop_id]:,} of the iterations skipped, "
                             "newest first")
            source = self.sources.get(loop_id, (None, None))[0]
            if type(source) is _Regenerated and source.failure is not None and \
                    source.failure is self.made_failure:
                lines.append(f"{info.text} (line {info.line} of {info.where}): then, after "
                             f"the cell, its generator asked again for its items: making item "
                             f"{source.count() + 1:,} failed")
        return lines + self.library_cuts

    def judge_library(self, exc: BaseException, line: int | None,
                      namespace: Mapping[str, Any]) -> bool:
        """Whether a crash after library cuts only (Keras epochs, trees, boosting rounds;
        no loop was cut) may be the cut's doing. Fewer iterations change no data, no
        size, no shape and no type: only what counts the iterations (a History's lists,
        ``estimators_``, ``n_iter_``, ``evals_result()``, ``best_iteration``, staged
        predictions), a score compared to a threshold, and the checkpoints written per
        epoch. So it may when the crashing statement reads such a thing (by its name, or
        from a name the cell bound from it), asserts, or misses a file after a cut Keras
        fit; a shape, size or value error elsewhere is the cell's own, and so is a kind
        that fewer rows cannot cause either (a name, an attribute, a type, a key by name:
        `shrinking_cannot_cause`), wherever it is read."""
        if _missing_file(exc):
            return any(note.startswith("Keras fit") for note in self.library_cuts)
        if isinstance(exc, AssertionError):
            return True
        try:
            message = str(exc)
        except Exception:  # noqa: BLE001 - the cell's exception: anything may fail
            message = ""
        if shrinking_cannot_cause(crash_type_of(type(exc).__name__, message), message):
            return False  # a name, an attribute, a type, a key by name: not a count
        statement = _statement_at(self.cell_tree, line)
        if statement is None:
            return True
        if _reads_iterations(statement):
            return True
        names = _names_in(self.cell_tree)
        seeds = {name for name in names if self._made_by_cut(namespace.get(name))}
        for node in ast.walk(self.cell_tree) if self.cell_tree is not None else ():
            if isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign)) and \
                    node.value is not None and _reads_iterations(node.value):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                seeds |= set().union(*(_stored(target) for target in targets))
        return bool(_names_in(statement) & _propagate(self.cell_tree, seeds))

    def crashed_in_last_iteration(self, exc: BaseException, line: int | None,
                                  namespace: Mapping[str, Any], filename: str | None = None
                                  ) -> bool:
        """Whether a crash in the last iteration of a cut loop (`LoopInfo.last`) is the real
        run's: an ``IndexError`` or ``KeyError`` of a statement of that iteration whose
        subscripts index with the loop's targets and what no cut loop makes, into
        containers no cut loop makes, resizes (``inplace=``, ``resize``) or hands to a
        function that may change them (`_handed`). The real run
        reaches that iteration (the loop has no ``break``; what it loops over no cut loop
        makes), takes the same way to the statement (every test on it reads only such
        names) and there finds the same sizes and the same indices, so it fails the same
        way (``prices[i + 1]`` on the last ``i``, ``axes[i]`` on the last column). On a
        ``DataLoader``'s smaller last batch ("batches"), a size or shape error of a statement
        that reads only the batch and what no cut loop makes (`_clean_statement`) is the
        real run's too: it meets a batch of that size with the same model. So is a class
        index out of bounds there (`_about_shapes_only`): the last rows' own target, which
        the real run meets in one of its batches, with layers of the same shapes.

        Any other failure there on the iteration's own values is the real run's too (a
        ``None`` or a text in the last record: ``t['location'].strip()``,
        ``float(row['amount'])``): the expression that raised (read off the cell's
        traceback) reads only the loop's targets, what the iteration bound from them, and
        what no cut loop makes, binds, grows or calls a method of, and the cut loops call
        none of the notebook's own code (which may change what they do not name). The
        real run gets there with the same values, or fails sooner. After a library's
        cut (fewer trees, epochs) only what its input checks raise counts: the last
        iteration's own fits are cut too."""
        if not self.in_last:
            return False
        if exc is self.failed_batches.get(self.in_last[-1]):
            try:  # the loader's last batch could not be made: from the loader's own rows?
                return self._batch_rows_own(self.in_last[-1], namespace)
            except Exception:  # noqa: BLE001 - the cell's objects: whatever they do, doubtful
                return False
        if self._in_last_batch():
            if not _about_shapes_only(exc):  # a size, or a class index out of bounds
                return False
        elif not _fails_on_values(exc):
            return False
        if self.library_cuts and not raised_by_input_checks(exc) and \
                not self._shapes_beside_cut_fits(exc, filename, namespace):
            return False  # a fit cut to fewer trees or epochs may make the values it reads
        try:
            raised = None
            if filename is not None:  # the loop's own line, where a function of the cell
                line = _cell_line(exc, filename, line)  # raised (a module's ``forward``)
                raised = _cell_position(exc, filename)
            return self._last_iteration_failed(line, namespace, exc, raised)
        except Exception:  # noqa: BLE001 - the cell's objects: whatever they do, not believed
            return False

    def crashed_in_kept_iteration(self, exc: BaseException, line: int | None,
                                  namespace: Mapping[str, Any], filename: str | None = None
                                  ) -> bool:
        """Whether a crash in an iteration that a cut loop's current run keeps (none of
        this run's iterations skipped yet; earlier runs of the loop, inside an outer loop,
        were cut) is the real run's: it fails on that iteration's own values, as a last
        iteration's failure is judged (`crashed_in_last_iteration`: the expression that
        raised reads only the loop's targets, what the iteration bound from them, and what
        no cut loop makes). A rolling regression over each ticker's windows, cut to a few
        windows per ticker: the first window of the ticker whose sector returns are all
        zero is singular, in the cut run as in the real one. No loop around it may be in
        its last iteration after a cut (that case is `crashed_in_last_iteration`'s), some
        loop was cut, and a library's cut (fewer trees, epochs) counts only for what its
        input checks raise. It is judged from each loop in a kept iteration, outermost
        first (`_judge_last` given the loop)."""
        if not self.in_kept or self.in_last or not self.cut or not _fails_on_values(exc):
            return False
        if self.library_cuts and not raised_by_input_checks(exc) and \
                not self._shapes_beside_cut_fits(exc, filename, namespace):
            return False  # a fit cut to fewer trees or epochs may make the values it reads
        try:
            if filename is None:
                return False
            line = _cell_line(exc, filename, line)
            raised = _cell_position(exc, filename)
            # judged from each loop in a kept iteration, outermost first: an outer loop's
            # iteration binds what the inner one reads (``X_full`` from the sector)
            return raised is not None and any(
                self._judge_last(line, namespace, exc, raised, loop_id=loop_id)
                for loop_id in list(self.in_kept))
        except Exception:  # noqa: BLE001 - the cell's objects: whatever they do, not believed
            return False

    def _shapes_beside_cut_fits(self, exc: BaseException, filename: str | None,
                                namespace: Mapping[str, Any]) -> bool:
        """Whether a failure after a library's fit was cut (fewer epochs, trees) is one of
        a model's shapes (`_about_a_models_shapes`) raised by a call of a model whose
        shapes the cell keeps (`_shaped_modules`: ``model.evaluate(X_next, y_next)`` on a
        month with a column more), whose arguments read nothing a fit returned (a
        history, whose length counts the epochs; `_fit_results`): fewer epochs change the
        model's weights, not its shapes nor its arguments'."""
        try:
            if filename is None or self.cell_tree is None or not _about_a_models_shapes(exc):
                return False
            raised = _cell_position(exc, filename)
            statement = _statement_at(self.cell_tree, _cell_line(exc, filename, None))
            node = _node_at(statement, raised) if statement is not None and \
                raised is not None else None
            if not isinstance(node, ast.Call):
                return False
            func = node.func
            receiver = func.value if isinstance(func, ast.Attribute) else func
            if not isinstance(receiver, ast.Name) or (isinstance(func, ast.Attribute) and (
                    func.attr not in _KERAS_KEEPS_SHAPES | _MODULE_KEEPS_SHAPES |
                    _PARTIAL_FIT_KEEPS_SHAPES)):
                return False
            if receiver.id not in _shaped_modules({receiver.id}, self.cell_tree, namespace):
                return False
            fitted = _propagate(self.cell_tree, _fit_results(self.cell_tree))
            return not set().union(*(_names_in(a) for a in [
                *node.args, *(k.value for k in node.keywords)])) & fitted
        except Exception:  # noqa: BLE001 - the cell's objects: whatever they do, doubtful
            return False

    def _last_iteration_failed(self, line: int | None, namespace: Mapping[str, Any],
                               exc: BaseException | None = None,
                               raised: tuple[int, int, int, int] | None = None) -> bool:
        if self._judge_last(line, namespace, exc, raised):
            return True
        if raised is None or self.known_at_start or self._in_last_batch():
            return False
        keyed = self._keyed(namespace)
        return keyed is not None and keyed._judge_last(line, namespace, exc, raised)

    def _judge_last(self, line: int | None, namespace: Mapping[str, Any],
                    exc: BaseException | None = None,
                    raised: tuple[int, int, int, int] | None = None,
                    loop_id: int | None = None, swept: bool = False) -> bool:
        """The judgement of `crashed_in_last_iteration`, on the innermost loop in its last
        iteration; or, given ``loop_id``, on that loop's kept iteration (no index past the
        end, no last batch: only the iteration's own values); ``swept``: on an iteration
        its cut skipped, run after the cell (`crashed_in_swept_iteration`)."""
        loop_id_given = loop_id is not None
        last = not loop_id_given
        if loop_id is None:
            loop_id = self.in_last[-1]
        info = self.loops[loop_id]
        loop = next((n for n in ast.walk(self.cell_tree) if isinstance(n, ast.For)
                     and n.lineno == info.line), None) if self.cell_tree is not None else None
        statement = _statement_at(self.cell_tree, line)
        # a crash in an inner loop's header (``for tag in rec['tags']``): what it reads is
        # judged, where the header stands
        header = _header_of(loop, statement) if loop is not None else None
        if loop is None or statement is None or not _owns(
                loop.body, header if header is not None else statement):
            return False
        made: set[str] = set()
        for loop_id in self.cut:
            made |= self.loops[loop_id].names
        cut_nodes = self._cut_nodes()
        if cut_nodes is None:
            return False  # a loop of the notebook's functions was cut: what it changed is unseen
        made = _propagate(self.cell_tree, made | _resized_in(cut_nodes) |
                          _handed(cut_nodes, namespace))
        others = _propagate(self.cell_tree, set().union(
            *(self.loops[i].names for i in self.cut if i != loop_id)) |
            _resized_in([n for n in cut_nodes if n is not loop]))
        looped = self._made_before(loop, cut_nodes, namespace, loop_id) if not swept else None
        if swept:  # the whole cell ran first: whatever it changes is no iteration's own
            changed = self._changed_by_cell(namespace, loop, loop_id, exc)
            if changed is None or self.cell_tree is None or _draws_before(loop, statement):
                return False
            made = (made | changed) - _comprehension_only(self.cell_tree)
            looped = made
            cut_nodes = list(self.cell_tree.body)
        elif looped is None:
            looped = others if info.last == "range" else made
        elif info.last != "range":  # a container the loop itself changes (grows) as it
            # goes: the last item read when it began may not be the real run's last
            looped |= self.loops[loop_id].names | _resized_in([loop]) | \
                _handed([loop], namespace)
        if _names_in(loop.iter) - _counter_of(loop) & looped:
            return False  # it loops over what a cut loop makes: its last item may differ
        targets = _stored(loop.target)
        if not loop_id_given or swept:
            item = self.sweep_items.get(loop_id, _NO_LAST) if swept else \
                self.last_items.get(loop_id, _NO_LAST)
            if (item is _NO_LAST or _mutable_parts(item)) and \
                    not (swept and loop_id in self.fresh_items) and any(
                    not _rebound_first(loop.body, name)
                    for name in targets & _changed_in_place(loop.body)) and \
                    not (item is not _NO_LAST and self._item_alone(loop_id, item)):
                # the items may share what an iteration changes in place (overlapping
                # windows of one array): the iterations between, skipped, changed them
                return False
        path = _path_to(loop, header if header is not None else statement)
        # the inner loops' targets are set by their headers, a ``with``'s by its items (a
        # file the iteration opens from its own item: ``with open(path) as f``)
        bound = set(targets)
        for node in path:
            if isinstance(node, ast.For):
                bound |= _stored(node.target)
            elif isinstance(node, ast.With):
                bound |= set().union(*(_stored(item.optional_vars) for item in node.items
                                       if item.optional_vars is not None))
        headers = {id(n) for node in ast.walk(loop) if isinstance(node, ast.For)
                   for n in ast.walk(node.target)} | \
            {id(n) for node in path if isinstance(node, ast.With) for item in node.items
             if item.optional_vars is not None for n in ast.walk(item.optional_vars)}
        rebound = [n for n in ast.walk(loop) if isinstance(n, ast.Name) and isinstance(
            n.ctx, (ast.Store, ast.Del)) and n.id in bound and id(n) not in headers]
        if rebound and not swept and not _rebound_first_in_body(loop, path, statement, rebound):
            return False  # ``i += 2`` in the body: the index is not the header's

        def clean(node: ast.AST, known: set[str] | frozenset[str] = frozenset()) -> bool:
            return not (_names_in(node) - targets - known) & made
        start = self.known_at_start if last or swept else frozenset()
        for k, node in enumerate(path):  # outermost first: each header binds what the
            # next ones read; or reads what the iteration bound on its way there from its
            # own values (``for i in range(0, len(Xs), 64)`` after ``Xs = load(path)``)
            tests = [node.test] if isinstance(node, (ast.If, ast.While)) else \
                [node.iter] if isinstance(node, ast.For) else \
                [item.context_expr for item in node.items] if isinstance(node, ast.With) else None
            if tests is None:
                return False  # a try, a match
            if not all(clean(test) for test in tests) and not all(clean(test, _fresh_in_iteration(
                    loop, path[:k], node, targets, made, namespace, start)) for test in tests):
                return False  # a test on what the cut changed
            if isinstance(node, ast.For):
                targets |= _stored(node.target)
            elif isinstance(node, ast.With):
                targets |= set().union(*(_stored(item.optional_vars) for item in node.items
                                         if item.optional_vars is not None))
        for node in _own_nodes(loop.body):  # a continue on what the cut changed: the real
            if isinstance(node, ast.If) and not clean(node.test) and any(  # run may skip it
                    isinstance(n, ast.Continue) for n in _own_nodes(node.body + node.orelse, False)):
                return False
        shaped: set[str] = set()
        if exc is not None and _about_a_models_shapes(exc):  # a model trained in place
            # keeps its layers' shapes: what they make of the iteration's values is its own
            # (``logits = net(xb)`` fresh in the iteration, for its shapes); so does an
            # estimator only partially fitted, its classes (``clf.partial_fit``)
            shaped = _shaped_modules(_names_in(self.cell_tree), self.cell_tree, namespace,
                                     self.built_before_sweep if swept else None)
            made = made - shaped
        if exc is not None and _about_shapes_or_casting(exc):  # an array the cell changes
            # only in place keeps its shape and dtype (``profile_sum += clean``)
            made = made - _kept_in_place(made, self.cell_tree, loop, namespace)
        fresh = _fresh_in_iteration(loop, path, statement, targets, made, namespace, start)
        if rebound:  # a target rebound before the statement (in a swept iteration, or
            # on the body's way to it: `_rebound_first_in_body`) must have been rebound from
            # its own values on the way there (``g = g.set_index('date')``, ``df =
            # df.copy()``): the real run's same iteration rebinds it to the same value
            before = {n.id for n in rebound if n.lineno < statement.lineno}
            if not before <= _fresh_in_iteration(loop, path, statement, targets, made,
                                                 namespace, keep_targets=True):
                return False
        lacking = _merge_key_lacking(_node_at(statement, raised), exc, namespace) \
            if raised is not None else None
        if lacking is not None and not _runs_notebook_code(cut_nodes, namespace, pure_ok=True) \
                and _clean_statement(ast.Expr(value=lacking), targets | fresh, made, namespace):
            return True  # a merge's key that a dataset of the iteration's own lacks
        if not last or swept:  # a kept or skipped iteration: its own values only
            return raised is not None and _own_values_failed(
                statement, raised, targets | fresh, made, cut_nodes, namespace, swept, shaped)
        sized = self._sized_as_ever(namespace, loop, made, self.ranges.get(loop_id))
        if self._in_last_batch():  # a size the last batch breaks: the real run's too
            # judged on the expression that raised, where the traceback tells it (the
            # model's call in ``preds.append(model(xb).numpy())``: the list the loop
            # grows is no part of it)
            node = _node_at(statement, raised) if raised is not None else None
            judged_batch = ast.Expr(value=node) if node is not None else statement
            return _clean_statement(judged_batch, targets | fresh, made, namespace)
        judged: ast.stmt = statement
        node = _node_at(statement, raised) if raised is not None else None
        if isinstance(node, ast.Subscript):
            # the subscript that raised: its container and index decide it, whatever else
            # the statement ran before it (``boot[b] = auc(y[idx], p[idx])`` fails at the
            # store, after a notebook function's call that ran clean)
            judged = ast.Expr(value=node)
        if (exc is None or isinstance(exc, (IndexError, KeyError))) and _reads_past_the_end(
                judged, targets, made - fresh, sized, namespace, fresh):
            return True
        return raised is not None and _own_values_failed(
            statement, raised, targets | fresh, made, cut_nodes, namespace, shaped=shaped)

    def _item_alone(self, loop_id: int, item: Any) -> bool:
        """Whether ``item``, the loop's last item (or the skipped one a sweep runs now),
        shares no memory with any other item of what the loop runs over (a list,
        tuple or deque of at most `_MOST_ALONE_ITEMS`: `_shares_memory`), nor is one of
        them: an iteration that changes its own item in place (``chunk['ts'] = ...`` on
        each hour's frame of a queue) changes nothing of it."""
        given = self.sources.get(loop_id, (None, None))[0]
        if type(given) not in (list, tuple, collections.deque) or \
                not 1 < len(given) <= _MOST_ALONE_ITEMS:
            return False
        items = list(given)
        own = item
        if not any(other is own for other in items):  # an ``enumerate``'s (count, item)
            own = item[1] if type(item) is tuple and len(item) == 2 else None
            if own is None or not any(other is own for other in items):
                return False
        parts = [p for p in own if not isinstance(p, _IMMUTABLE)] if type(own) is tuple \
            else [own]  # (a ``zip``'s items: the week, its frame, its labels)
        if not parts or not all(_array_like(p) for p in parts):
            return False  # (a dict or a list may hold what another one holds)
        return sum(other is own for other in items) == 1 and not any(
            other is not own and _shares_memory(own, other) for other in items)

    def _made_before(self, loop: ast.For, cut_nodes: list[ast.stmt],
                     namespace: Mapping[str, Any], loop_id: int) -> set[str] | None:
        """What the cut loops may have changed by the time ``loop`` evaluates what it
        loops over, where it is a statement of the cell entered once: what the cut loops
        before it bind, resize or hand to a call, and what the statements before it bind
        from those (``features = [c for c in df.columns]`` before a loop that hands
        ``df`` to a plot is not); None elsewhere (the cell's whole reading then)."""
        tree = self.cell_tree
        if tree is None or self.entries.get(loop_id) != 1:
            return None
        position = next((k for k, n in enumerate(tree.body) if n is loop), None)
        if position is None:
            return None
        earlier = [(loop_id, node) for loop_id, node in zip(self.cut, cut_nodes)
                   if any(node is n or _within(node, n) for n in tree.body[:position])]
        seeds: set[str] = set()
        for loop_id, _ in earlier:
            seeds |= self.loops[loop_id].names
        nodes = [node for _, node in earlier]
        seeds |= _resized_in(nodes) | _handed(nodes, namespace)
        return _propagate(ast.Module(body=tree.body[:position], type_ignores=[]), seeds)

    def _batch_rows_own(self, loop_id: int, namespace: Mapping[str, Any]) -> bool:
        """Whether the failure to make the last batch of the loader the loop ``loop_id``
        runs over (`_FailedBatch`: a row of another length, which the default collate
        cannot stack) is the real run's: the loader is a name the cell does not bind
        after the cut loops began, nor change, and its rows are the real run's (its
        dataset a library's or the notebook's pure class, `_pure_object`, whose data no
        cut loop changes; its collate the library's own or a pure function). The loop is
        reached whatever the cut changed: at the cell's top level, in ``with`` statements
        or loops entered with no test, ``continue`` or ``break`` before it. Its sampler is
        sequential (`_last_batch`): the real run's last batch holds the same rows, and
        fails the same way, or the run fails sooner."""
        tree = self.cell_tree
        info = self.loops[loop_id]
        cut_nodes = self._cut_nodes()
        if tree is None or info.where != "the cell" or cut_nodes is None:
            return False
        path = _path_in(tree.body, info.line)
        if path is None:
            return False
        loop = path[-1]
        over = loop.iter.args[0] if isinstance(loop, ast.For) and isinstance(
            loop.iter, ast.Call) and _called_name(loop.iter) == "enumerate" and \
            loop.iter.args else getattr(loop, "iter", None)  # (``enumerate(loader)``)
        if not isinstance(loop, ast.For) or not isinstance(over, ast.Name):
            return False
        for outer, inner in zip(path, path[1:]):
            if not isinstance(outer, (ast.With, ast.For)):
                return False
            before = outer.body[:next(k for k, n in enumerate(outer.body) if n is inner)]
            if any(isinstance(n, (ast.If, ast.While, ast.Try, ast.Break, ast.Continue))
                   for node in before for n in ast.walk(node)):
                return False
        loader = namespace.get(over.id)
        if not _pure_loader(loader, namespace):
            return False
        dataset, collate_fn = loader.dataset, loader.collate_fn
        library = type(dataset).__module__.partition(".")[0] == "torch"
        made: set[str] = set()
        for cut_id in self.cut:
            made |= self.loops[cut_id].names
        changed = _propagate(tree, made | _may_change(cut_nodes, namespace))
        if over.id in changed:
            return False
        codes = _notebook_code([dataset, collate_fn], namespace)  # what their code reads
        if codes is None:  # (``max_len``, which a cut loop may bind)
            return False
        for code in codes:
            for reached, _calls in reached_code(code, namespace):
                if global_names(reached) & changed:
                    return False
        if type(dataset) in (list, tuple):  # rows listed: the list and what its rows hold
            rows = [_row_leaves(row) for row in dataset[:MAX_LISTED_ROWS + 1]]
            if len(rows) > MAX_LISTED_ROWS or any(row is None for row in rows):
                return False
            held = [dataset, *(leaf for row in rows for leaf in row)]  # type: ignore[union-attr]
        else:
            held = [v for v in vars(dataset).values()] if hasattr(dataset, "__dict__") else []
        if not library and not held:
            return False
        for name in changed:  # the dataset's data, changed through a name of the cell
            value = namespace.get(name)
            if value is None or isinstance(value, _IMMUTABLE):
                continue
            if any(value is item or _shares_memory(value, item) for item in held):
                return False
        return True

    def _in_last_batch(self) -> bool:
        """Whether the innermost loop in its last iteration runs a loader's last batch."""
        loop_id = self.in_last[-1]
        return self.loops[loop_id].last == "batches" and loop_id not in self.items_last

    def _cut_nodes(self) -> list[ast.stmt] | None:
        """The cut loops' statements in the cell, or None when one is not the cell's."""
        nodes = []
        for loop_id in self.cut:
            info = self.loops[loop_id]
            node = next((n for n in ast.walk(self.cell_tree) if isinstance(n, (ast.For, ast.While))
                         and n.lineno == info.line), None) \
                if self.cell_tree is not None and info.where == "the cell" else None
            if node is None:
                return None
            nodes.append(node)
        return nodes

    def _keyed(self, namespace: Mapping[str, Any], loop_id: int | None = None,
               item: Any = _NO_LAST) -> Cutter | None:
        """This cutter as it reads a cell whose cut loop works column by column: each
        iteration touches only the columns its own item names (``train[col] =
        le.fit_transform(train[col])``, ``test[col + '_freq'] = ...``). The last item's
        columns, never named by an earlier item, hold as the last iteration begins what
        they held when the loop began, in the cut run as in the real one; each becomes a
        name of its own (``test['device']``), known then (`known_at_start`), and what the
        iteration does to it is judged as for any name (`_fresh_in_iteration`). So an
        encoder fitted in the last iteration on a column of its own, then given a test
        column with a label the training one lacks, fails as the real run will.

        Only where every cut loop is the loop in its last iteration or within it (a ``for``
        over a name, or a ``range``, whose items are known, at least two), which calls none
        of the notebook's code and names its iterable nowhere in its body; and only for the
        frames and series (no other name in the notebook holds them) that loop names only
        by subscripts, at keys made of its target and texts (``col``, ``col + '_freq'``,
        ``f'{col}_lag'``), all texts. None where no name qualifies.

        Given ``loop_id`` and ``item``: as it reads that loop's iteration of ``item``,
        skipped by the cut and run after the cell (`crashed_in_swept_iteration`), whose
        columns no other item names (the iterations run before it in the cut run are not
        the real run's), where no statement of the cell after the loop may change the
        frames (`_changed_after`)."""
        swept = loop_id is not None
        if loop_id is None:
            loop_id = self.in_last[-1]
        info = self.loops[loop_id]
        cut_nodes = self._cut_nodes()
        loop = next((n for n in cut_nodes or () if isinstance(n, ast.For)
                     and n.lineno == info.line), None)
        if loop is None or not isinstance(loop.target, ast.Name) or cut_nodes is None or \
                self.entries.get(loop_id) != 1 or \
                any(not any(node is n for n in ast.walk(loop)) for node in cut_nodes) or \
                _runs_notebook_code(cut_nodes, namespace):
            return None  # entered again (in an outer loop), or after another cut loop
        target = loop.target.id
        items = _items_of(loop.iter, namespace, self.ranges.get(loop_id))
        if items is None or len(items) < 2 or \
                _names_in(loop.iter) & set().union(*(_names_in(n) for n in loop.body)):
            return None
        if not swept:
            own, others = items[-1], items[:-1]
        else:  # the skipped item, once among the items
            places = [k for k, other in enumerate(items)
                      if type(other) is type(item) and other == item]
            if len(places) != 1:
                return None
            own, others = item, items[:places[0]] + items[places[0] + 1:]
        keys: dict[str, list[ast.expr]] = {}
        subscripted: set[int] = set()
        for node in ast.walk(loop):
            if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name) and \
                    target in _names_in(node.slice) and \
                    _key_of(node.slice, target, own) is not None:
                keys.setdefault(node.value.id, []).append(node.slice)
                subscripted.add(id(node.value))
        keyed: set[str] = set()
        for name, slices in keys.items():
            value = namespace.get(name)
            if name == target or not _frame_or_series(value) or any(
                    isinstance(n, ast.Name) and n.id == name and id(n) not in subscripted
                    for n in ast.walk(loop)) or \
                    sum(v is value for v in list(namespace.values())) != 1:
                continue  # named otherwise in the loop, or held by another name too
            if len(slices) * len(items) > _MOST_KEYS:
                continue
            last = {_key_of(e, target, own) for e in slices}
            earlier = {_key_of(e, target, other) for e in slices for other in others}
            if None not in earlier and not last & earlier:
                keyed.add(name)
        if swept and self.cell_tree is not None:
            keyed -= _changed_after(self.cell_tree, loop, namespace)
        held = [namespace.get(name) for name in keyed]
        if not keyed or any(  # a frame also held by a container or an object the loop names
                isinstance(node, ast.Name) and node.id not in keyed and
                _holds(namespace.get(node.id), held) for node in ast.walk(loop)):
            return None
        tree = copy.deepcopy(self.cell_tree)
        known: set[str] = set()
        copied = next(n for n in ast.walk(tree) if isinstance(n, ast.For)
                      and n.lineno == info.line)

        class Columns(ast.NodeTransformer):
            def visit_Subscript(self, node: ast.Subscript) -> ast.AST:
                if isinstance(node.value, ast.Name) and node.value.id in keyed:
                    key = _key_of(node.slice, target, own)
                    if key is not None:
                        name = f"{node.value.id}[{key!r}]"
                        known.add(name)
                        return ast.copy_location(ast.Name(id=name, ctx=node.ctx), node)
                return self.generic_visit(node)

        copied.body = [Columns().visit(n) for n in copied.body]
        loops = dict(self.loops)
        for node in ast.walk(copied):
            for other_id, other in self.loops.items():
                if isinstance(node, (ast.For, ast.While)) and other.line == node.lineno and \
                        other.where == "the cell":
                    names, _ = _bound_in(node.body, [node.target] if isinstance(
                        node, ast.For) else [])
                    loops[other_id] = dataclasses.replace(other, names=names)
        return dataclasses.replace(self, loops=loops, cell_tree=tree,
                                   known_at_start=frozenset(known))

    def _sized_as_ever(self, namespace: Mapping[str, Any], loop: ast.For, made: set[str],
                       labels: range | None) -> set[str]:
        """The names the cut loops change only item by item, in containers whose size an
        item's store cannot change: a numpy array, a torch tensor, a list (``out[i] =
        ...``), a frame or series stored into by position (``.iloc``, ``.iat``) or at the
        loop's own row label (``df.loc[i, 'next'] = ...``, every label of its range there
        already). The cut leaves their size as the real run has it, not their values."""
        rebound: set[str] = set()
        items: dict[str, list[ast.expr]] = {}
        for node in self._cut_nodes() or ():
            for child in ast.walk(node):
                if isinstance(child, ast.Name) and isinstance(child.ctx, (ast.Store, ast.Del)):
                    rebound.add(child.id)
                elif isinstance(child, ast.Subscript) and isinstance(child.ctx, ast.Del):
                    rebound |= _names_in(child.value)
                elif isinstance(child, ast.Subscript) and isinstance(child.ctx, ast.Store):
                    base = child.value
                    while isinstance(base, (ast.Subscript, ast.Attribute)):
                        base = base.value
                    if isinstance(base, ast.Name):
                        items.setdefault(base.id, []).append(child)
                elif isinstance(child, ast.Attribute) and isinstance(child.ctx, ast.Store):
                    rebound |= _names_in(child.value)
                elif isinstance(child, ast.Call) and isinstance(child.func, ast.Attribute):
                    rebound |= _names_in(child.func.value)  # a method may resize it
        target = loop.target.id if isinstance(loop.target, ast.Name) else None
        sized = set()
        for name, stores in items.items():
            if name in rebound or _assigned_from(self.cell_tree, name, made):
                continue
            value = namespace.get(name)
            if _fixed_size(value) or all(_store_keeps_rows(store, value, target, labels)
                                         for store in stores):
                sized.add(name)
        return sized

    def _made_by_cut(self, value: Any) -> bool:
        """``value`` is what a cut fit returned, its ``history`` dict, or one of its lists."""
        if value is None:
            return False
        for output in self.cut_outputs:
            record = getattr(output, "history", None)
            if value is output or value is record or (
                    isinstance(record, dict) and any(value is v for v in record.values())):
                return True
        return False

    def _cut_functions(self) -> set[str]:
        """The notebook's functions one of whose loops was cut."""
        return {name for name, ids in self.functions.items() if ids & set(self.cut)}

    def judge(self, exc: BaseException, line: int | None, filename: str) -> bool:
        """Whether a crash after a cut may be the cut's own doing (see the module doc)."""
        if not self.cut:
            return False
        tainted: set[str] = set()
        cut_functions = self._cut_functions()
        cell_functions = {self.loops[i].function for i in self.cut
                          if self.loops[i].where == "the cell" and self.loops[i].function}
        cut_functions |= cell_functions
        for loop_id in self.cut:
            tainted |= self.loops[loop_id].names
        if _missing_file(exc):  # a folder or file a later iteration would have made?
            return any(self.loops[i].writes_files for i in self.cut)
        if any(self.loops[i].autograd for i in self.cut) and _about_autograd(exc):
            return True  # the loop froze or unfroze only some tensors
        if any(code.co_name in cut_functions and (  # raised in a function whose loop was cut
                code.co_filename != filename or code.co_name in cell_functions)
               for code in _codes_of(exc)):
            return True
        if _about_dtypes(exc):  # fewer iterations run the same statements on the same kinds
            return False  # of tensors: a float64 target meets the loss in the first batch
        statement = _statement_at(self.cell_tree, line)
        if statement is None:
            return True
        tainted |= _bound_by_calls(self.cell_tree, cut_functions)
        cut_nodes = self._cut_nodes()  # an iterator they read is left where they were cut
        tainted |= _iterators_named(cut_nodes or [], self.namespace or {})
        tainted = _propagate(self.cell_tree, tainted)
        read = {n.id for n in ast.walk(statement) if isinstance(n, ast.Name)}
        return bool(read & tainted) or bool(read & cut_functions)

    def rows_kept(self, exc: BaseException, line: int | None, filename: str,
                  namespace: Mapping[str, Any]) -> bool:
        """Whether a value error after a cut loop is the real run's because it is raised
        by a value of the rows the cut run kept: the cell collects one frame per item
        (``frames.append(chunk)``, each made from its own item alone: a file it reads),
        joins them (``readings = pd.concat(frames)``) and converts a column value by value
        (``pd.to_datetime(readings['timestamp'])``, ``.astype(int)``), which fails on a
        date of another format, a text that is no number, a NaN. The cut run's frames are
        some of the real run's, in the same order from the first (the items kept and the
        last one), each the same, so the real run's column holds every value the cut
        run's holds, and converts them with the same first value. Only where:

        - the list is made empty by the cell, before the loop, and the loop (a statement
          of the cell, entered once, running none of the notebook's code) only appends to
          it; every statement of its body is a plain one that binds or changes only what
          the iteration made from its item and what no cut loop changes, or skips the item
          on such a test (`_own_items`);
        - the joined name is bound only by the join, of that list alone (rows after rows),
          and no statement between the join and the crash changes the column converted;
        - the expression that raised (read off the traceback) is such a conversion of a
          column of the joined name, with arguments no cut loop changes."""
        try:
            if not self.cut or not isinstance(exc, ValueError):
                return False
            message = str(exc)
            kind = crash_type_of(type(exc).__name__, message)
            if kind not in ("value error", "data value violation") or \
                    not shrinking_cannot_cause(kind, message):
                return False
            return self._rows_kept(exc, line, filename, namespace)
        except Exception:  # noqa: BLE001 - the cell's objects: whatever they do, doubtful
            return False

    def _after_the_loops(self, exc: BaseException, line: int | None, filename: str,
                         namespace: Mapping[str, Any], pure_ok: bool = False,
                         held_ok: bool = False
                         ) -> tuple[ast.Module, list[ast.stmt], ast.stmt, ast.expr | None] | None:
        """For a crash after the cut loops: the cell, the cut loops' statements, the
        statement of the cell's top level that raised and the expression that did (read off
        the traceback); None where the cut loops run the notebook's code (``pure_ok``: but
        its pure functions), a function whose loop was cut raised it, or the statement is
        not one of the cell's own. ``held_ok``: the statement may be one of the body of a
        top-level ``with`` that only turns gradients off (``with torch.no_grad():``)."""
        tree = self.cell_tree
        cut_nodes = self._cut_nodes()
        if tree is None or cut_nodes is None or \
                _runs_notebook_code(cut_nodes, namespace, pure_ok=pure_ok):
            return None
        if any(code.co_name in self._cut_functions() for code in _codes_of(exc)):
            return None
        statement = _statement_at(tree, _cell_line(exc, filename, line))
        raised = _cell_position(exc, filename)
        if statement is None or raised is None or not any(statement is n for n in tree.body) \
                and not (held_ok and any(isinstance(n, ast.With) and _gradients_off(
                    n, namespace) and any(statement is m for m in n.body) for n in tree.body)):
            return None
        return tree, cut_nodes, statement, _node_at(statement, raised)

    def _rows_kept(self, exc: BaseException, line: int | None, filename: str,
                   namespace: Mapping[str, Any]) -> bool:
        found = self._after_the_loops(exc, line, filename, namespace)
        if found is None:
            return False
        tree, cut_nodes, statement, node = found
        converted = _converted_column(node) if node is not None else None
        if converted is None:
            return False
        joined, column, others = converted
        made = self._names_cut_loops_make(cut_nodes, namespace)
        if set().union(*(_free_reads(n) for n in others)) & made:
            return False
        return self._join_kept(joined, [column], statement, cut_nodes, made, namespace)

    def _names_cut_loops_make(self, cut_nodes: list[ast.stmt], namespace: Mapping[str, Any],
                              grown: bool = False) -> set[str]:
        """What the cut loops bind, resize or hand to a call that may change it. With
        ``grown``: not what they only hand to a call that grows a builtin container
        (``windows.append(signal[s:s + WIN])`` leaves ``signal`` as it was), where the
        cell names each such container, outside its growing calls, only where it binds
        it or hands it whole to a stack or ``len`` (nothing changes what it holds)."""
        made: set[str] = set()
        for loop_id in self.cut:
            made |= self.loops[loop_id].names
        tree = self.cell_tree
        if grown and tree is not None:
            calls = [node for node in ast.walk(tree) if isinstance(node, ast.Call)]
            grows = {id(call.func.value): name for call in calls  # type: ignore[attr-defined]
                     if (name := _growing_call(call, namespace)) is not None}
            containers, growing = set(grows.values()), set(grows)
            handed = {id(call.args[0]) for call in calls if call.args and (
                _collecting(call, namespace) == "stack" or _called_name(call) == "len")}
            grown = all(isinstance(n.ctx, ast.Store) or id(n) in growing | handed
                        for n in ast.walk(tree) if isinstance(n, ast.Name)
                        and n.id in containers)
        else:
            grown = False
        return made | _resized_in(cut_nodes) | _handed(cut_nodes, namespace, grown=grown)

    def _join_kept(self, joined: str, columns: list[Any], statement: ast.stmt,
                   cut_nodes: list[ast.stmt], made: set[str], namespace: Mapping[str, Any]
                   ) -> bool:
        """Whether ``joined``, read by ``statement``, is the join of a list the cut loop
        collected (`_collected_only`), bound only by that join (rows after rows), with no
        statement between the join and ``statement`` changing its ``columns``."""
        join = self._join_before(joined, columns, statement)
        listed = _joined_list(join.value) if join is not None else None
        return listed is not None and join is not None and self._collected_only(
            listed, cut_nodes, made, namespace, before=join)

    def _join_before(self, joined: str, columns: list[Any], statement: ast.stmt
                     ) -> ast.Assign | None:
        """The statement of the cell's top level, before ``statement``, that binds
        ``joined`` to a join of a list (`_joined_list`), its only binding in the cell, where
        no statement between the two changes ``joined``'s ``columns``; else None."""
        tree = self.cell_tree
        assert tree is not None
        position = {id(n): k for k, n in enumerate(tree.body)}
        at = position[id(statement)]
        bindings = [n for n in ast.walk(tree) if isinstance(n, ast.Name) and n.id == joined
                    and isinstance(n.ctx, (ast.Store, ast.Del))]
        join = next((n for n in tree.body[:at] if isinstance(n, ast.Assign)
                     and len(n.targets) == 1 and isinstance(n.targets[0], ast.Name)
                     and n.targets[0].id == joined), None)
        if join is None or len(bindings) != 1 or bindings[0] is not join.targets[0] or \
                _joined_list(join.value) is None:
            return None
        for between in tree.body[position[id(join)] + 1:at]:
            if any(_changes_column(between, joined, column) for column in columns):
                return None
        return join

    def duplicates_kept(self, exc: BaseException, line: int | None, filename: str,
                        namespace: Mapping[str, Any]) -> bool:
        """Whether a reshape after a cut loop that refuses duplicate keys is the real
        run's: it reshapes the join of the frames the cut loop collected, each made from
        its own item alone, as `rows_kept` reads them (``monthly = pd.concat(rows)``,
        then ``monthly.pivot(index='store', columns='month', values='revenue')``). The
        real run's frame holds every row the cut run's holds, the two rows of one key
        among them, so it fails alike. Only the reshapes of `_reshaped_keys` (a pivot, a
        verified index, an unstack of the keys set), with written-out keys, of the joined
        name itself, whose key columns no statement between the join and the crash
        changes (nor drops rows in place)."""
        try:
            if not self.cut or not isinstance(exc, ValueError):
                return False
            text = str(exc)
            if "duplicate entries" not in text and "duplicate keys" not in text:
                return False
            found = self._after_the_loops(exc, line, filename, namespace)
            if found is None:
                return False
            _tree, cut_nodes, statement, node = found
            keys = _reshaped_keys(node) if node is not None else None
            if keys is None:
                return False
            joined, columns = keys
            return self._join_kept(joined, columns, statement, cut_nodes,
                                   self._names_cut_loops_make(cut_nodes, namespace), namespace)
        except Exception:  # noqa: BLE001 - the cell's objects: whatever they do, doubtful
            return False

    def _collected_only(self, listed: str, cut_nodes: list[ast.stmt], made: set[str],
                        namespace: Mapping[str, Any], before: ast.stmt,
                        keyed: bool = False, shaped: frozenset[str] = frozenset()) -> bool:
        """Whether the list ``listed`` holds only what one cut loop of the cell (a
        statement of it, entered once, before ``before``), or the cut loops within it,
        appended, each value made from its own items (`_own_items`): the cell makes it
        empty before the loop, binds it nowhere else, and calls none of its methods outside
        the loop. The cut run's list is then some of the real run's values, the first ones
        and the last, each the same (of each session, the first windows and the last).
        ``keyed``: a dict made empty before the loop and filled under a key its header
        binds anew, unique to each iteration (`_unique_key`: ``trends[store] = ...``),
        counts too: no iteration's value replaces another's. The statement may be a ``with``
        of the cell's top level that only turns gradients off (`_gradients_off`: ``with
        torch.no_grad():``) around the loop, which it holds directly. ``shaped``: the
        models whose shapes alone decide the failure (`_library_layers`), which what the
        loops do to them (train them) leaves as they were: not counted as changed."""
        tree = self.cell_tree
        assert tree is not None
        position = {id(n): k for k, n in enumerate(tree.body)}
        cut = [n for n in cut_nodes if listed in _names_in(n)]
        # the statement of the cell that holds them (entered once): a cut loop, or a loop
        # that ran whole around the cut ones (each session's windows)
        loops = [n for n in tree.body if any(_within(node, n) for node in cut)]
        if not cut or len(loops) != 1 or not all(_within(node, loops[0]) for node in cut):
            return False
        loop = loops[0]
        if isinstance(loop, ast.With) and _gradients_off(loop, namespace):
            held = [n for n in loop.body if any(_within(node, n) for node in cut)]
            if len(held) != 1:
                return False
            position[id(held[0])] = position[id(loop)]
            loop = held[0]
        key = _unique_key(loop, namespace) if keyed and isinstance(loop, ast.For) else None
        scope = list(cut_nodes)
        if not any(loop is node for node in cut_nodes):  # a loop whole around the cut ones:
            # what it changes is what they change (a model fitted per session, then used
            # by the next session's cut inner loop, holds what the cut left it)
            bound, _ = _bound_in(loop.body, [loop.target])
            made = made | bound | _resized_in([loop]) | _handed([loop], namespace)
            scope.append(loop)
        if not isinstance(loop, ast.For) or position[id(loop)] > position[id(before)] or \
                _names_in(loop.iter) & made:
            return False
        made_empty = [_emptied(n, listed, keyed=key is not None)
                      for n in tree.body[:position[id(loop)]]]
        made_empty = [n for n in made_empty if n is not None]
        emptied_each: ast.stmt | None = None
        if not made_empty and key is None and not any(loop is node for node in cut_nodes):
            # made empty by each iteration of a loop that ran whole around the cut ones,
            # before them (``preds = []`` at each epoch's start): after the loop it holds
            # what its last iteration collected, the cut run's some of the real run's
            # (`_own_items` reads the rest of the body)
            first_cut = next((k for k, n in enumerate(loop.body)
                              if any(_within(c, n) for c in cut)), None)
            found = [(n, _emptied(n, listed)) for n in loop.body[:first_cut]]
            found = [(n, name) for n, name in found if name is not None]
            if len(found) == 1:
                emptied_each, emptied_name = found[0]
                made_empty = [emptied_name]
        stores = [n for n in ast.walk(tree) if isinstance(n, ast.Name) and n.id == listed
                  and isinstance(n.ctx, (ast.Store, ast.Del))]
        if len(made_empty) != 1 or len(stores) != 1 or stores[0] is not made_empty[0]:
            return False
        if any(isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name)
               and n.value.id == listed for n in ast.walk(tree) if not _within(n, loop)):
            return False  # a method of the list outside the loop (``frames.pop()``)
        for node in ast.walk(tree):  # stored into or handed to a call outside the loop
            if _within(node, loop) or _within(node, before):
                continue
            if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name) and \
                    node.value.id == listed and isinstance(node.ctx, (ast.Store, ast.Del)):
                return False  # ``frames[-1] = padded``
            if isinstance(node, ast.Call) and _called_name(node) not in ("len", "print") and \
                    any(isinstance(a, ast.Name) and a.id == listed
                        for a in [*node.args, *(k.value for k in node.keywords)]):
                return False  # ``pad_all(frames)``
            if isinstance(node, (ast.Assign, ast.AnnAssign, ast.NamedExpr)) and \
                    node.value is not None and any(
                        isinstance(n, ast.Name) and n.id == listed and not any(
                            isinstance(c, ast.Call) and _called_name(c) == "len" and
                            _within(n, c) for c in ast.walk(node.value))
                        for n in ast.walk(node.value)):
                return False  # another name for the list (``kept = frames``), which the
                # loop may grow too
        # what a method call of a cut loop changes (a model fit chunk by chunk, a random
        # generator): the last item meets it as the cut left it, not as the real run does
        receivers = {name for name, chain, value in _calls_in(scope, namespace)
                     if chain and (not isinstance(value, types.ModuleType) or "random" in chain)
                     and not _predicts(chain, value)}
        if key is not None and not any(loop is node for node in cut_nodes):
            return False  # an inner loop's keys may repeat, one loop around it to the next
        if self.continuing is not None:  # the skipped iterations ran after the whole cell:
            # what they appended is their own where they read nothing the cell changes
            info = self.loops.get(self.continuing)
            if info is None or not isinstance(loop, ast.For) or loop.lineno != info.line:
                return False
            changed = self._changed_by_cell(namespace, loop, self.continuing)
            if changed is None or not _own_items(loop, listed, changed - {listed}, key=key,
                                                 emptied=emptied_each, namespace=namespace):
                return False
        return _own_items(loop, listed, (made | (receivers - {listed})) - shaped, key=key,
                          emptied=emptied_each, namespace=namespace)

    def stacks_kept(self, exc: BaseException, line: int | None, filename: str,
                    namespace: Mapping[str, Any]) -> bool:
        """Whether a shape error after a cut loop is the real run's because the arrays it
        stacks are some of the real run's: the cell collects one array per item
        (``batch_features.append(feats)``, each made from its own item alone) and, after
        the loop, stacks the list (``np.stack(batch_features)``, ``np.array``,
        ``np.concatenate``, ``torch.stack``, ``torch.cat``), which fails on two arrays of
        shapes that do not fit together (the last batch smaller, a file with a column
        fewer). The cut run's list holds the first items and the last, each the real
        run's own; the real run's list holds them all, those two among them, so it fails
        too, whatever the order. Only where the expression that raised (read off the
        traceback) is such a call on the list's name alone, with constant keywords, its
        message one of shapes that do not fit (not an empty list), and the list is
        collected as `_collected_only` says. So too pandas' join side by side of series or
        frames (``pd.concat(trends, axis=1)``, `_collecting`) that cannot align one with a
        label twice on the labels of them all (`_MISFIT_LABELS`), of a list or of a dict
        filled under the loop's own keys: the real run's join holds that one and labels
        it lacks."""
        try:
            if not self.cut or not isinstance(exc, (ValueError, RuntimeError)):
                return False
            text = str(exc)
            labels = any(words in text for words in _MISFIT_LABELS)
            if not labels and not any(words in text for words in _MISFIT_SHAPES):
                return False
            return self._stacks_kept(exc, line, filename, namespace, labels)
        except Exception:  # noqa: BLE001 - the cell's objects: whatever they do, doubtful
            return False

    def _stacks_kept(self, exc: BaseException, line: int | None, filename: str,
                     namespace: Mapping[str, Any], labels: bool = False) -> bool:
        # (a cut loop may call the notebook's pure functions: what each makes of its item
        # depends on that item alone, ``features = [window_features(w) for w in ...]``)
        found = self._after_the_loops(exc, line, filename, namespace, pure_ok=True)
        if found is None:
            return False
        _tree, cut_nodes, statement, node = found
        # ``np.stack``, ``torch.cat`` (not the notebook's own ``stack``); with ``labels``,
        # pandas' join side by side (`_collecting`)
        if not isinstance(node, ast.Call) or \
                _collecting(node, namespace) != ("columns" if labels else "stack"):
            return False
        assert isinstance(node.args[0], ast.Name)
        # the outputs of a model of a library's layers have the shapes its inputs give
        # them, however many steps trained it (``preds.append(model(xb).squeeze())``)
        shaped = frozenset(name for name in _shaped_modules(
            _names_in(self.cell_tree), self.cell_tree, namespace)
            if _library_layers(namespace.get(name))) | frozenset(
                name for name in _names_in(self.cell_tree)
                if _steps_weights(namespace.get(name))) if not labels else frozenset()
        return self._collected_only(node.args[0].id, cut_nodes,
                                    self._names_cut_loops_make(cut_nodes, namespace, True),
                                    namespace, shaped=shaped,
                                    before=statement, keyed=labels)

    def shapes_kept(self, exc: BaseException, line: int | None, filename: str,
                    namespace: Mapping[str, Any]) -> bool:
        """Whether a shape or size error after a cut loop is the real run's: the
        expression that raised (read off the cell's traceback) is made of names, ``.T``,
        arithmetic and constants only (no call, no subscript: nothing that takes a shape
        from values), outside the notebook's functions, and every name in it that a cut
        loop changes is a numpy array or a torch tensor the cut loops only update in
        place (``w -= lr * grad``; an item store), which keeps its shape whatever the
        number of iterations (a weight vector by hand, then ``X_test @ w`` with a column
        fewer); none is handed to a function in a cut loop."""
        try:
            return bool(self.cut) and _about_sizes(exc) and self._shapes_kept(
                exc, line, filename, namespace)
        except Exception:  # noqa: BLE001 - the cell's objects: whatever they do, doubtful
            return False

    def _shapes_kept(self, exc: BaseException, line: int | None, filename: str,
                     namespace: Mapping[str, Any]) -> bool:
        cut_functions = self._cut_functions()
        if any(code.co_name in cut_functions for code in _codes_of(exc)):
            return False  # raised inside a function whose loop was cut
        statement = _statement_at(self.cell_tree, _cell_line(exc, filename, line))
        raised = _cell_position(exc, filename)
        cut_nodes = self._cut_nodes()
        if statement is None or raised is None or cut_nodes is None:
            return False
        node = _node_at(statement, raised)
        if node is None or not all(isinstance(n, _SHAPE_ONLY) and (
                not isinstance(n, ast.Attribute) or n.attr == "T") for n in ast.walk(node)):
            return False
        changed: set[str] = set()
        for loop_id in self.cut:
            changed |= self.loops[loop_id].names
        if _runs_notebook_code(cut_nodes, namespace):
            return False  # the notebook's code may change what the loops do not name
        handed = _handed(cut_nodes, namespace) | _resized_in(cut_nodes)
        tainted = _propagate(self.cell_tree, changed)
        for name in _names_in(node):
            if name in handed or not _updated_in_place(cut_nodes, name):
                return False  # a method (``X.resize``) or a function may reshape it
            if name in tainted and (name not in changed or not _array_or_tensor(
                    namespace.get(name))):
                return False
        return True


#: Conversions that take each value on its own (`Cutter.rows_kept`): what one value
#: fails, it fails wherever it is.
_CONVERSIONS = frozenset({"to_datetime", "to_numeric", "to_timedelta"})
#: Calls that set torch's grad mode (`Cutter.grads_kept`): in a ``with``, for its block.
_GRAD_MODES = frozenset({"no_grad", "enable_grad", "set_grad_enabled", "inference_mode"})
#: What a single item of a list fails on, wherever it stands (`Cutter.prefix_kept`).
_ITEM_WORDS = ("requires grad", "could not convert string to float",
               "invalid literal for int() with base")


def _headers(loop: ast.For | ast.While) -> list[ast.expr]:
    """What ``loop`` and the loops in it run over or test."""
    return [n.iter if isinstance(n, ast.For) else n.test for n in ast.walk(loop)
            if isinstance(n, (ast.For, ast.While))]


def _appended_only(loop: ast.For | ast.While, name: str) -> bool:
    """Whether ``loop`` only appends to ``name`` or reads it (``losses.append(loss)``,
    ``losses[-1]``, ``len(losses)``): nothing there changes the items it holds."""
    parents = {id(child): node for node in ast.walk(loop) for child in ast.iter_child_nodes(node)}
    for node in ast.walk(loop):
        if not isinstance(node, ast.Name) or node.id != name:
            continue
        parent = parents.get(id(node))
        if isinstance(parent, ast.Attribute) and parent.attr == "append" and                 isinstance(parents.get(id(parent)), ast.Call) and                 parents[id(parent)].func is parent:
            continue
        if isinstance(parent, ast.Subscript) and parent.value is node and                 isinstance(parent.ctx, ast.Load):
            continue
        if isinstance(parent, ast.Call) and isinstance(parent.func, ast.Name) and                 parent.func.id == "len" and node in parent.args:
            continue
        return False
    return True


#: Stacks of a list's arrays or tensors (`Cutter.stacks_kept`): what two of the arrays
#: fail, the list that holds them fails.
_STACKS = frozenset({"stack", "vstack", "hstack", "dstack", "column_stack", "row_stack",
                     "concatenate", "cat", "concat", "array", "asarray", "tensor"})
#: What numpy and torch say of arrays whose shapes do not fit together.
_MISFIT_SHAPES = ("all input arrays must have the same shape",
                  "input array dimensions except for the concatenation axis must match",
                  "input arrays must have same number of dimensions",
                  "has an inhomogeneous shape",
                  "stack expects each tensor to be equal size",
                  "Sizes of tensors must match except in dimension",
                  "Tensors must have same number of dimensions",
                  "zero-dimensional tensor",
                  "expected sequence of length")
#: What pandas says of series or frames joined side by side, one with a label twice.
_MISFIT_LABELS = ("cannot reindex on an axis with duplicate labels",
                  "Reindexing only valid with uniquely valued Index objects")
#: Joins of a list's frames or arrays, rows after rows (`Cutter.rows_kept`).
_ROW_JOINS = frozenset({"concat", "concatenate", "vstack", "row_stack"})


def _column_of(node: ast.expr) -> tuple[str, Any] | None:
    """``(name, key)`` for ``name``, ``name['col']`` or ``name[['a', 'b']]`` (key None for
    the whole), else None."""
    if isinstance(node, ast.Name):
        return node.id, None
    if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name):
        key = node.slice
        if isinstance(key, ast.Constant) and isinstance(key.value, str):
            return node.value.id, key.value
        if isinstance(key, ast.List) and key.elts and all(
                isinstance(e, ast.Constant) and isinstance(e.value, str) for e in key.elts):
            return node.value.id, tuple(e.value for e in key.elts)
    return None


def _converted_column(node: ast.expr) -> tuple[str, Any, list[ast.AST]] | None:
    """For a value-by-value conversion of a column (``pd.to_datetime(df['ts'], ...)``,
    ``df['n'].astype(int)``): the name, the column's key and the call's other parts."""
    if not isinstance(node, ast.Call):
        return None
    func = node.func
    attr = func.attr if isinstance(func, ast.Attribute) else \
        func.id if isinstance(func, ast.Name) else None
    if attr in _CONVERSIONS and node.args:
        column = _column_of(node.args[0])
        others: list[ast.AST] = [*node.args[1:], *node.keywords]
        if isinstance(func, ast.Attribute):
            others.append(func.value)  # ``pd``
    elif attr == "astype" and isinstance(func, ast.Attribute):
        column = _column_of(func.value)
        others = [*node.args, *node.keywords]
    else:
        return None
    return (column[0], column[1], others) if column is not None else None


def _reshaped_keys(node: ast.expr) -> tuple[str, list[Any]] | None:
    """For a reshape that refuses duplicate keys, of a name: the name and the key columns,
    each written out; else None. The reshapes: ``df.pivot(index='store', columns='month',
    values='revenue')`` and ``pd.pivot(df, index=..., columns=...)``;
    ``df.set_index(['store', 'month'], verify_integrity=True)``; and an ``unstack`` of
    the keys set, of the frame or of one column (``df.set_index(['store',
    'month'])['revenue'].unstack()``), which refuses a key twice whatever level it
    moves."""
    if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Attribute):
        return None

    def written(value: ast.expr | None) -> list[Any] | None:
        if isinstance(value, ast.Constant) and type(value.value) in (str, int):
            return [value.value]
        if isinstance(value, (ast.List, ast.Tuple)) and value.elts and all(
                isinstance(e, ast.Constant) and type(e.value) in (str, int) for e in value.elts):
            return [e.value for e in value.elts]
        return None
    keywords = {k.arg: k.value for k in node.keywords}
    if None in keywords:
        return None  # ``**options``
    attr, receiver = node.func.attr, node.func.value
    if attr == "pivot":
        args = list(node.args)
        if isinstance(receiver, ast.Name) and receiver.id in ("pd", "pandas"):
            # the function: the frame first, or as ``data=``
            frame = args.pop(0) if args else keywords.pop("data", None)
        else:
            frame = receiver
        index, columns = written(keywords.get("index")), written(keywords.get("columns"))
        if args or not isinstance(frame, ast.Name) or index is None or columns is None or \
                not all(k in ("index", "columns", "values") for k in keywords):
            return None
        return frame.id, index + columns
    if attr == "set_index" and len(node.args) == 1 and isinstance(receiver, ast.Name):
        keys = written(node.args[0])
        verify = keywords.get("verify_integrity")
        if keys is None or not (isinstance(verify, ast.Constant) and verify.value is True) or \
                not all(k in ("verify_integrity", "drop") for k in keywords):
            return None
        return receiver.id, keys
    if attr == "unstack" and len(node.args) + len(keywords) <= 2 and \
            all(k in ("level", "fill_value", "sort") for k in keywords):
        if isinstance(receiver, ast.Subscript) and isinstance(receiver.slice, ast.Constant) \
                and type(receiver.slice.value) in (str, int):
            receiver = receiver.value  # one column of the frame the keys index
        if not isinstance(receiver, ast.Call) or not isinstance(receiver.func, ast.Attribute) \
                or receiver.func.attr != "set_index" or len(receiver.args) != 1 or \
                not isinstance(receiver.func.value, ast.Name) or \
                not all(k.arg == "drop" for k in receiver.keywords):
            return None  # ``append=True`` keeps the index: keys not all written out
        keys = written(receiver.args[0])
        return (receiver.func.value.id, keys) if keys is not None and len(keys) > 1 else None
    return None


#: The methods of a joined frame or array that keep its rows, whatever their order
#: (`_order_free_core`).
_ORDER_FREE = frozenset({"astype", "to_numpy", "reset_index", "fillna", "dropna", "drop",
                         "rename", "sort_values", "sort_index", "replace", "copy"})


def _order_free_core(node: ast.expr, known: set[str], tainted: set[str]) -> ast.expr:
    """``node`` less the calls of `_ORDER_FREE` methods chained on it (``pd.concat(labels)
    .astype(int)``, ``.values``), each with arguments that read nothing ``tainted`` but
    what is ``known``."""
    while True:
        if isinstance(node, ast.Attribute) and node.attr == "values":
            node = node.value
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and \
                node.func.attr in _ORDER_FREE and not (set().union(*(
                    _names_in(a) for a in [*node.args, *(k.value for k in node.keywords)]))
                    - known) & tainted:
            node = node.func.value
        else:
            return node


def _bindings_of(tree: ast.Module, name: str) -> list[ast.Name]:
    """Every place the cell binds or deletes ``name``."""
    return [n for n in ast.walk(tree) if isinstance(n, ast.Name) and n.id == name
            and isinstance(n.ctx, (ast.Store, ast.Del))]


def _cell_top_line(filename: str) -> int | None:
    """The line of the cell's top-level statement running now (None: no cell's code runs,
    or its file name is not known)."""
    if not filename:
        return None
    frame: types.FrameType | None = sys._getframe(1)
    line = None
    while frame is not None:
        if frame.f_code.co_filename == filename and frame.f_code.co_name == "<module>":
            line = frame.f_lineno
        frame = frame.f_back
    return line


_MERGE_TYPES = re.compile(r"You are trying to merge on \S+ and \S+ columns for key '([^']*)'")
#: A merge's keywords that name keys of one side only (None: ``**kwargs``).
_SIDED_KEYS = frozenset({None, "left_on", "right_on", "left_index", "right_index"})
#: The dtypes whose groupby keys are all of one type (numbers, dates, booleans).
_TYPED_KINDS = frozenset("biufmM")


def _merge_key_lacking(node: ast.AST | None, exc: BaseException | None,
                       namespace: Mapping[str, Any]) -> ast.expr | None:
    """The dataset of a pandas ``merge`` that raised ``KeyError`` (``merged.merge(t,
    on='id')``) which lacks the key the error names, as a column and as an index level:
    pandas looks each dataset's keys up in it, and one that lacks its key fails the merge
    whatever the other holds, so only that dataset (a name) decides the failure. Only
    keys named by constants (``on=``, ``left_on=``, ``right_on=``); None otherwise."""
    try:
        if not isinstance(exc, KeyError) or not exc.args or not isinstance(node, ast.Call) \
                or not isinstance(node.func, ast.Attribute) or node.func.attr != "merge" or \
                any(isinstance(a, ast.Starred) for a in node.args) or \
                any(k.arg is None for k in node.keywords):
            return None
        missing = exc.args[0]
        keywords = {k.arg: k.value for k in node.keywords}
        pandas = sys.modules.get("pandas")
        if pandas is None or not isinstance(missing, str):
            return None
        for side, dataset in _merged(node, namespace).items():
            given = keywords.get(f"{side}_on", keywords.get("on"))
            keys = [given.value] if isinstance(given, ast.Constant) else [
                e.value for e in given.elts if isinstance(e, ast.Constant)] \
                if isinstance(given, (ast.List, ast.Tuple)) else []
            if missing not in keys or not isinstance(dataset, ast.Name):
                continue
            value = namespace.get(dataset.id)
            if type(value) is pandas.DataFrame and missing not in value.columns and \
                    missing not in value.index.names:
                return dataset
    except Exception:  # noqa: BLE001 - the cell's objects: whatever they do, nothing judged
        return None
    return None


def _merged(call: ast.Call, namespace: Mapping[str, Any]) -> dict[str, ast.expr | None]:
    """The left and right datasets of a ``merge`` or ``join`` call (``left.merge(right,
    ...)``, ``pd.merge(left, right, ...)``, ``left.join(other)``), as written."""
    assert isinstance(call.func, ast.Attribute)
    owner = call.func.value
    function = call.func.attr == "merge" and isinstance(owner, ast.Name) and \
        isinstance(namespace.get(owner.id), types.ModuleType) and \
        namespace[owner.id].__name__ == "pandas"
    keywords = {k.arg: k.value for k in call.keywords}
    given = call.args if function else [owner, *call.args]
    return {"left": given[0] if given else keywords.get("left"),
            "right": given[1] if len(given) > 1 else
            keywords.get("right" if call.func.attr == "merge" else "other")}


def _group_key_typed(loop: ast.For, name: str, tree: ast.Module, made: set[str],
                     namespace: Mapping[str, Any]) -> bool:
    """Whether ``name`` is the group key of ``loop``, a loop over a groupby of one column
    written out (``for cid, g in tx.groupby('customer_id')``) of a frame no cut loop
    makes, whose dtype is one of `_TYPED_KINDS`; bound nowhere else in the cell."""
    target, over = loop.target, loop.iter
    if not isinstance(target, ast.Tuple) or len(target.elts) != 2 or \
            not isinstance(target.elts[0], ast.Name) or target.elts[0].id != name:
        return False
    if not isinstance(over, ast.Call) or not isinstance(over.func, ast.Attribute) or \
            over.func.attr != "groupby" or not isinstance(over.func.value, ast.Name) or \
            len(over.args) != 1 or not isinstance(over.args[0], ast.Constant) or \
            any(k.arg not in ("sort", "observed") for k in over.keywords):
        return False
    frame_name, column = over.func.value.id, over.args[0].value
    if frame_name in made or sum(1 for n in ast.walk(tree) if isinstance(n, ast.Name)
                                 and n.id == name and not isinstance(n.ctx, ast.Load)) != 1:
        return False
    frame = namespace.get(frame_name)
    pandas = sys.modules.get("pandas")
    if pandas is None or type(frame) is not pandas.DataFrame or type(column) is not str or \
            list(frame.columns).count(column) != 1:
        return False
    return frame[column].dtype.kind in _TYPED_KINDS


def _joined_list(node: ast.expr) -> str | None:
    """The list ``node`` joins rows after rows (``pd.concat(frames, ignore_index=True)``,
    ``np.concatenate(parts)``; a frame of records, one row each: ``pd.DataFrame(rows)``),
    else None."""
    if not isinstance(node, ast.Call) or not node.args or not isinstance(node.args[0], ast.Name):
        return None
    func = node.func
    attr = func.attr if isinstance(func, ast.Attribute) else None
    if attr in ("DataFrame", "from_records") and len(node.args) == 1 and not node.keywords:
        return node.args[0].id
    if attr not in _ROW_JOINS or len(node.args) > 1:
        return None
    for keyword in node.keywords:
        if keyword.arg == "axis" and not (isinstance(keyword.value, ast.Constant)
                                          and keyword.value.value in (0, "index")):
            return None
        if keyword.arg not in ("axis", "ignore_index", "sort", "copy"):
            return None
    return node.args[0].id


def _changes_column(statement: ast.stmt, name: str, column: Any) -> bool:
    """Whether ``statement`` may change ``name``'s column ``column`` (a store to it or to
    a key not written out, a method of the name, the name handed to a call)."""
    for node in ast.walk(statement):
        if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name) and \
                node.value.id == name and isinstance(node.ctx, (ast.Store, ast.Del)):
            key = _column_of(node)
            if key is None or key[1] is None or column is None or \
                    set(key[1] if isinstance(key[1], tuple) else (key[1],)) & \
                    set(column if isinstance(column, tuple) else (column,)):
                return True
        elif isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and \
                node.value.id == name and isinstance(node.ctx, ast.Store):
            return True
        elif isinstance(node, ast.Call) and any(
                isinstance(n, ast.Name) and n.id == name for n in ast.walk(node)) and (
                any(k.arg == "inplace" for k in node.keywords) or any(
                    isinstance(a, ast.Name) and a.id == name for a in node.args)):
            return True
    return False


def _emptied(statement: ast.stmt, name: str, keyed: bool = False) -> ast.Name | None:
    """The target ``name`` that ``statement`` binds to a new empty list (``parts = []``,
    ``windows, feats = [], []``), or, ``keyed``, dict (``trends = {}``), else None."""
    if not isinstance(statement, ast.Assign) or len(statement.targets) != 1:
        return None
    target, value = statement.targets[0], statement.value
    pairs = [(target, value)]
    if isinstance(target, (ast.Tuple, ast.List)) and isinstance(value, (ast.Tuple, ast.List)) \
            and len(target.elts) == len(value.elts):
        pairs = list(zip(target.elts, value.elts))
    return next((t for t, v in pairs if isinstance(t, ast.Name) and t.id == name and (
        isinstance(v, ast.List) and not v.elts or keyed and isinstance(v, ast.Dict) and
        not v.keys)), None)


def _within(node: ast.AST, outer: ast.AST) -> bool:
    return any(n is node for n in ast.walk(outer))


def _unconditional_calls(statement: ast.stmt) -> list[ast.Call]:
    """The calls ``statement`` makes whenever it runs: not those under a conditional
    expression, a ``and``/``or``, a lambda or a comprehension."""
    calls: list[ast.Call] = []

    def visit(node: ast.AST) -> None:
        if isinstance(node, (ast.IfExp, ast.BoolOp, ast.Lambda, ast.ListComp, ast.SetComp,
                             ast.DictComp, ast.GeneratorExp)):
            return
        if isinstance(node, ast.Call):
            calls.append(node)
        for child in ast.iter_child_nodes(node):
            visit(child)
    visit(statement)
    return calls


def _array_shape(value: Any) -> tuple[int, ...] | None:
    """The shape of a numpy array or a torch tensor; None for anything else."""
    try:
        module, name = type(value).__module__.partition(".")[0], type(value).__name__
        if (module, name) in (("numpy", "ndarray"), ("torch", "Tensor")):
            return tuple(value.shape)
    except Exception:  # noqa: BLE001 - a strange array: no shape known
        pass
    return None


#: The name the pair of arrays has in `_misfit`'s call.
_PAIR = "__crashpredict_pair__"


def _collecting(call: ast.Call, namespace: Mapping[str, Any]) -> str | None:
    """What ``call`` does with the one list it is given, by name (`Cutter.stack_misfit`):
    ``"stack"``, numpy's or torch's stacks (`_STACKS`: ``np.stack(features)``);
    ``"columns"``, pandas' join side by side (``pd.concat(trends, axis=1)``, which
    aligns each series or frame on the labels of them all); else None. Its keywords are
    constants; a side-by-side join takes no other than ``axis``, ``sort`` and an outer
    ``join``."""
    if len(call.args) != 1 or not isinstance(call.args[0], ast.Name) or \
            not all(isinstance(k.value, ast.Constant) for k in call.keywords) or \
            not isinstance(call.func, ast.Attribute) or \
            not isinstance(call.func.value, ast.Name):
        return None
    library = namespace.get(call.func.value.id)
    if not isinstance(library, types.ModuleType):
        return None
    if library.__name__ in ("numpy", "torch") and call.func.attr in _STACKS:
        return "stack"
    keywords = {k.arg: k.value.value for k in call.keywords if isinstance(k.value, ast.Constant)}
    if library.__name__ == "pandas" and call.func.attr == "concat" and \
            keywords.get("axis") in (1, "columns") and \
            set(keywords) <= {"axis", "sort", "join"} and keywords.get("join", "outer") == "outer":
        return "columns"
    return None


def _unique_key(loop: ast.For, namespace: Mapping[str, Any]) -> str | None:
    """The name ``loop``'s header binds to a value no other of its iterations has: the
    group's key of a ``groupby`` (``for store, g in df.groupby('store')``), the count of
    an ``enumerate``, the number of a ``range``, a dict's key (``for name, frame in
    frames.items()``); else None."""
    target, source = loop.target, loop.iter
    first = target.elts[0] if isinstance(target, ast.Tuple) and len(target.elts) == 2 \
        else None
    if isinstance(source, ast.Call) and isinstance(source.func, ast.Attribute):
        receiver = namespace.get(source.func.value.id) \
            if isinstance(source.func.value, ast.Name) else None
        if source.func.attr == "groupby" or source.func.attr == "items" and \
                type(receiver) is dict and not source.args:
            return first.id if isinstance(first, ast.Name) else None
        if source.func.attr == "keys" and type(receiver) is dict and \
                isinstance(target, ast.Name):
            return target.id
        return None
    if isinstance(source, ast.Call) and isinstance(source.func, ast.Name) and \
            source.func.id in ("enumerate", "range") and \
            namespace.get(source.func.id, getattr(builtins, source.func.id)) is \
            getattr(builtins, source.func.id):
        if source.func.id == "range":
            return target.id if isinstance(target, ast.Name) else None
        return first.id if isinstance(first, ast.Name) else None
    if isinstance(source, ast.Name) and type(namespace.get(source.id)) is dict and \
            isinstance(target, ast.Name):
        return target.id
    return None


def _keyed_store(target: ast.expr, listed: str, key: str) -> bool:
    """Whether ``target`` is ``listed[key]``."""
    return isinstance(target, ast.Subscript) and isinstance(target.value, ast.Name) and \
        target.value.id == listed and isinstance(target.slice, ast.Name) and \
        target.slice.id == key


def _may_misfit(first: Any, item: Any) -> bool:
    """Whether a stack or a side-by-side join of ``first`` and ``item`` may fail
    (`_misfit` tells): arrays or tensors of two shapes; series or frames of which one has
    a label twice (pandas then cannot align it on the labels of both)."""
    shape = _array_shape(first)
    if shape is not None:
        other = _array_shape(item)
        return other is not None and other != shape
    try:
        if type(first).__module__.partition(".")[0] != "pandas" or \
                type(item).__module__.partition(".")[0] != "pandas":
            return False
        return not (first.index.is_unique and item.index.is_unique)
    except Exception:  # noqa: BLE001 - a strange frame: not tried
        return False


def _misfit(call: ast.Call, statement: ast.stmt, pair: list[Any],
            namespace: Mapping[str, Any], filename: str) -> BaseException | None:
    """The failure of the stack ``call`` (``np.stack(features)``) on the two arrays
    ``pair`` in place of its list, raised at the statement's line of the cell, where it is
    one of shapes that do not fit (`_MISFIT_SHAPES`), or of a side-by-side join
    (``pd.concat(trends, axis=1)``) on two series, where one has a label twice that the
    join cannot align (`_MISFIT_LABELS`); else None."""
    assert isinstance(call.func, ast.Attribute) and isinstance(call.func.value, ast.Name)
    library = call.func.value.id
    expression = ast.Expression(body=ast.Call(
        func=copy.deepcopy(call.func), args=[ast.Name(id=_PAIR, ctx=ast.Load())],
        keywords=copy.deepcopy(call.keywords)))
    for node in ast.walk(expression):
        if "lineno" in node._attributes:
            node.lineno = node.end_lineno = statement.lineno
            node.col_offset, node.end_col_offset = call.col_offset, call.end_col_offset or 0
    try:
        eval(compile(expression, filename, "eval", dont_inherit=True),  # noqa: S307 - the
             {library: namespace[library], _PAIR: pair})  # cell's own stack, on two arrays
    except (ValueError, RuntimeError) as exc:
        text = str(exc)
        return exc if any(words in text for words in _MISFIT_SHAPES + _MISFIT_LABELS) \
            else None
    except Exception:  # noqa: BLE001 - another failure: not one of shapes
        return None
    return None


def _own_items(loop: ast.For, listed: str, made: set[str], key: str | None = None,
               emptied: ast.stmt | None = None,
               namespace: Mapping[str, Any] | None = None) -> bool:
    """Whether ``loop`` appends to ``listed`` only values each iteration makes from its own
    item and from what no cut loop changes (``made``): its body holds only assignments,
    calls and ``listed.append(...)`` (at least one), ``if test: continue`` on such
    values, and inner ``for`` loops over such values (``for start in range(0, len(sig),
    STEP)``) whose bodies hold the same; a name the iteration binds from anything else is
    no longer its own. What it appends is such a name, or an expression that reads only
    those and what no cut loop changes (``feats.append(np.concatenate([a, b]))``). An
    inner loop's item is its iteration's own, but what its body binds is not, until the
    iteration binds it again (the one before, which the cut may have skipped, bound it),
    nor after the loop (its last iteration's, which the cut may not have run). With
    ``key`` (`_unique_key`), a store of such a value into ``listed`` under that key, in
    the loop's own body (not an inner loop's), counts as an append. ``emptied``: the
    statement of the loop's body that makes ``listed`` empty, each iteration anew. Given
    the ``namespace``, another list may be given a new object a library makes of
    ``listed`` (``epoch_preds.append(torch.cat(preds))``), which changes it not."""
    body = [statement for statement in loop.body if statement is not emptied]
    appended = _own_body(body, set(_stored(loop.target)), listed, made, key, namespace)
    return bool(appended)


def _own_body(body: list[ast.stmt], own: set[str], listed: str, made: set[str],
              key: str | None = None, namespace: Mapping[str, Any] | None = None
              ) -> bool | None:
    """`_own_items` on the statements ``body``, with ``own`` the names known to be the
    iteration's own as it begins (updated as it binds them): None where a statement is
    none that `_own_items` allows, else whether ``body`` appends to ``listed``."""
    def clean(nodes: Iterable[ast.AST]) -> bool:
        return not (set().union(*(_free_reads(n) for n in nodes)) - own) & made

    appended = False
    for statement in body:
        if isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Call):
            call = statement.value
            func = call.func
            if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and \
                    func.value.id == listed:
                if func.attr != "append" or len(call.args) != 1 or call.keywords or \
                        listed in _names_in(call.args[0]) or not (
                            isinstance(call.args[0], ast.Name) and call.args[0].id in own
                            or clean(call.args)):
                    return None
                appended = True
                continue
            if listed in _names_in(call) and not (
                    namespace is not None and isinstance(func, ast.Attribute) and
                    func.attr in ("append", "extend") and _copied_only(call, listed, namespace)):
                return None
            if isinstance(func, ast.Attribute) and func.attr in ("append", "extend") and \
                    isinstance(func.value, ast.Name) and (func.value.id in made or clean(
                        call.args + [k.value for k in call.keywords])):
                # another list the iteration grows (``owners.append(pid)``,
                # ``ids.extend([name] * len(feats))``); one the cut
                # loops change may be given what is not the iteration's own (an inner
                # loop's last ``feats``): a value of ``listed`` that reads it is not clean
                continue
            if not clean([call]):
                return None
            continue
        if isinstance(statement, ast.If) and not statement.orelse and \
                all(isinstance(n, ast.Continue) for n in statement.body):
            if listed in _names_in(statement.test) or not clean([statement.test]):
                return None
            continue
        if isinstance(statement, ast.For) and not statement.orelse:
            if listed in _names_in(statement.iter) or not clean([statement.iter]):
                return None
            bound, _ = _bound_in(statement.body, [statement.target])
            inner = (own - bound) | _stored(statement.target)
            found = _own_body(statement.body, inner, listed, made, namespace=namespace)
            if found is None:
                return None
            appended = appended or found
            own -= bound  # the last inner iteration's values, which the cut may not have run
            continue
        if key is not None and key in own and isinstance(statement, ast.Assign) and \
                len(statement.targets) == 1 and _keyed_store(statement.targets[0], listed, key):
            value = statement.value  # ``trends[store] = trend / level``
            if listed in _names_in(value) or not (
                    isinstance(value, ast.Name) and value.id in own or clean([value])):
                return None
            appended = True
            continue
        if isinstance(statement, (ast.Assign, ast.AugAssign, ast.AnnAssign)):
            targets = statement.targets if isinstance(statement, ast.Assign) else [statement.target]
            value = statement.value
            if value is None or listed in _names_in(value) or \
                    any(listed in _names_in(t) for t in targets):
                return None
            reads: list[ast.AST] = [value]
            if isinstance(statement, ast.AugAssign):
                reads.append(statement.target)
            for target in targets:  # what a subscript store's key reads
                for node in ast.walk(target):
                    if isinstance(node, ast.Subscript):
                        reads.append(node.slice)
            ok = clean(reads)
            flat: list[ast.expr] = []
            while targets:  # ``gx, gy = np.gradient(batch)``: each name on its own
                target, *targets = targets
                if isinstance(target, (ast.Tuple, ast.List)):
                    targets = [*target.elts, *targets]
                else:
                    flat.append(target.value if isinstance(target, ast.Starred) else target)
            for target in flat:
                if isinstance(target, ast.Name):
                    (own.add if ok else own.discard)(target.id)
                    continue
                root = target
                while isinstance(root, (ast.Subscript, ast.Attribute)):
                    root = root.value
                if not isinstance(root, ast.Name) or root.id not in own or not ok:
                    return None  # a store into what the iteration did not make
            continue
        return None  # a ``while``, a ``with``, a ``try``, a test that does more than skip
    return appended


def _copied_only(call: ast.Call, listed: str, namespace: Mapping[str, Any]) -> bool:
    """Whether ``call`` (another list's ``append``) names ``listed`` only as an argument,
    or in a list of them, of a library function that makes a new object of what it is
    given and changes none of it (`_makes_new`: ``torch.cat(preds)``)."""
    if not isinstance(call.func, ast.Attribute) or not isinstance(call.func.value, ast.Name) \
            or call.func.value.id == listed:
        return False
    copied = {id(e) for inner in ast.walk(call) if isinstance(inner, ast.Call)
              and inner is not call and _makes_new(inner, namespace)
              for arg in inner.args
              for e in ([arg] if isinstance(arg, ast.Name) else
                        arg.elts if isinstance(arg, (ast.List, ast.Tuple)) else [])}
    return all(id(n) in copied for n in ast.walk(call)
               if isinstance(n, ast.Name) and n.id == listed)


def _last_item(value: Any) -> Any:
    """The last item iterating ``value`` yields, where its type tells it without iterating
    (a list, a tuple, a string, a range, a dict's last key, a numpy array's last row, a
    pandas index's last label, a series' last value, a frame's last column), else
    `_NO_LAST`."""
    try:
        if type(value) in (list, tuple, str, range):
            return value[-1] if value else _NO_LAST
        if type(value) is dict or type(value) in _DICT_VIEWS:
            return next(reversed(value)) if value else _NO_LAST
        module, name = type(value).__module__.partition(".")[0], type(value).__name__
        if module == "numpy" and name == "ndarray" and value.ndim and len(value):
            return value[-1]
        if module == "pandas" and len(value):
            if name == "Series":
                return value.iloc[-1]
            if name == "DataFrame":
                return value.columns[-1]
            if name.endswith("Index"):
                return value[-1]
    except Exception:  # noqa: BLE001 - a strange container: no last iteration
        pass
    return _NO_LAST


#: The most failures that do not count a sweep lets pass, per loop (`Cutter.sweep_failed`).
_MOST_SWEEP_FAILURES = 50
#: Calls that read files or list folders: a cell that writes files and reads some may read
#: in a swept iteration what it wrote after the loop (`Cutter._changed_by_cell`)...
_READERS = frozenset({
    "open", "read_csv", "read_table", "read_json", "read_parquet", "read_excel",
    "read_pickle", "read_feather", "read_hdf", "read_sql", "read_fwf", "read_xml", "load",
    "loadtxt", "genfromtxt", "fromfile", "memmap", "listdir", "scandir", "walk", "glob",
    "iglob", "rglob", "iterdir", "exists", "isfile", "isdir", "getsize", "stat",
    "read_text", "read_bytes", "imread", "load_model", "load_weights", "load_state_dict",
    "read", "readlines", "readline"})
#: ...that remove files or folders...
_REMOVERS = frozenset({"remove", "unlink", "rmtree", "rmdir", "removedirs", "truncate"})
#: ...that set a library's global state, which changes how later code runs...
_GLOBAL_SETTERS = frozenset({
    "seterr", "seterrcall", "set_option", "reset_option", "option_context", "set_config",
    "config_context", "simplefilter", "filterwarnings", "resetwarnings", "catch_warnings",
    "set_printoptions", "seed", "manual_seed", "set_random_seed", "set_seed",
    "set_default_dtype", "set_default_device", "set_grad_enabled", "set_flush_denormal",
    "use_deterministic_algorithms", "clear_session", "set_floatx", "set_epsilon",
    "set_global_policy", "run_functions_eagerly", "setrecursionlimit", "chdir",
    "set_num_threads", "set_num_interop_threads", "set_visible_devices", "setlocale",
    "disable_eager_execution", "enable_eager_execution", "rc", "use"})
#: ...and that draw random numbers (as does anything of a ``random`` attribute).
_RANDOM_DRAWS = frozenset({
    "random", "rand", "randn", "randint", "random_integers", "random_sample", "ranf",
    "randperm", "rand_like", "randn_like", "randint_like", "normal", "uniform", "choice",
    "choices", "shuffle", "sample", "permutation", "permuted", "bernoulli", "multinomial",
    "integers", "standard_normal", "poisson", "binomial", "exponential", "gauss",
    "random_split", "dropout", "default_rng", "RandomState", "Generator"})


#: Methods that change their object in place (besides `_GROWERS`, ``inplace=`` and torch's
#: methods that end in ``_``).
_IN_PLACE = frozenset({"sort", "fill", "put", "itemset", "setflags", "partition", "reverse",
                       "resize", "shuffle"})


def _rebound_first(body: list[ast.stmt], name: str) -> bool:
    """Whether the first statement of ``body`` that names ``name`` binds it anew without
    changing what it held (``g = g.set_index('date')``): what the body changes in place
    after that is the new object, not the loop's item."""
    for statement in body:
        if name not in _names_in(statement):
            continue
        return isinstance(statement, ast.Assign) and \
            any(isinstance(t, ast.Name) and t.id == name for t in statement.targets) and \
            name not in _changed_in_place([ast.Expr(value=statement.value)]) and \
            not any(name in _names_in(t) for t in statement.targets if not isinstance(t, ast.Name))
    return False


def _changed_in_place(body: list[ast.stmt]) -> set[str]:
    """The names ``body`` may change in place: stored into (``df['x'] = ...``,
    ``o.attr = ...``), updated by an augmented assignment (``x += 1`` on an array), or
    given to a method that changes its object (`_GROWERS`, `_IN_PLACE`, ``inplace=``,
    ``add_``)."""
    names = _resized_in(body)
    for root in body:
        for node in ast.walk(root):
            if isinstance(node, (ast.Subscript, ast.Attribute)) and \
                    isinstance(node.ctx, (ast.Store, ast.Del)):
                names |= _receiver_base(node.value)
            elif isinstance(node, ast.AugAssign):
                names |= _stored(node.target)
            elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and (
                    node.func.attr in _GROWERS or node.func.attr in _IN_PLACE or (
                        node.func.attr.endswith("_") and not node.func.attr.startswith("_"))):
                names |= _receiver_base(node.func.value)
    return names


def _receiver_base(node: ast.expr) -> set[str]:
    """What a change through ``node`` changes: the name at the base of its subscripts and
    attributes (``star_words`` of ``star_words[review['stars']].update(...)``, not the
    key's ``review``); every name of a call or other expression there."""
    while isinstance(node, (ast.Subscript, ast.Attribute)):
        node = node.value
    return {node.id} if isinstance(node, ast.Name) else _names_in(node)


def _comprehension_only(tree: ast.AST) -> set[str]:
    """The names that appear only within comprehensions and are targets of one: theirs
    alone (Python 3), no name of the cell."""
    inside = {id(n) for c in ast.walk(tree) if isinstance(
        c, (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)) for n in ast.walk(c)}
    free = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and id(n) not in inside}
    return {name for c in ast.walk(tree) if isinstance(c, ast.comprehension)
            for name in _stored(c.target)} - free


def _draws_before(loop: ast.For, statement: ast.stmt) -> bool:
    """Whether the loop's body draws random numbers up to ``statement`` (a swept iteration
    draws others than the real one did)."""
    return _draws_in(loop.body, getattr(statement, "end_lineno", None) or statement.lineno)


def _draws_in(nodes: Iterable[ast.AST], end: int | None = None) -> bool:
    """Whether ``nodes`` (up to line ``end``) draw random numbers: `_RANDOM_DRAWS`,
    anything of a ``random``."""
    return any(isinstance(n, ast.Call) and (end is None or n.lineno <= end) and (
        _called_name(n) in _RANDOM_DRAWS or any(
            isinstance(a, ast.Attribute) and a.attr == "random" for a in ast.walk(n.func)))
        for root in nodes for n in ast.walk(root))


def _iterators_named(nodes: Iterable[ast.AST], namespace: Mapping[str, Any]) -> set[str]:
    """The names ``nodes`` read that hold iterators (a generator, a file, a chunked
    reader): what reads them consumes them."""
    found = set()
    for name in {n.id for root in nodes for n in ast.walk(root) if isinstance(n, ast.Name)}:
        try:
            if hasattr(type(namespace[name]), "__next__"):
                found.add(name)
        except Exception:  # noqa: BLE001 - not bound, or strange: not known to be one
            continue
    return found


def _bound_once_before(tree: ast.Module, position: int) -> set[str]:
    """The names a top-level assignment among the cell's first ``position`` statements
    binds (``window, step = 720, 1``) that nothing else in the cell binds, deletes or
    declares global."""
    stores = collections.Counter(
        node.id for node in ast.walk(tree)
        if isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)))
    declared = {name for node in ast.walk(tree)
                if isinstance(node, (ast.Global, ast.Nonlocal)) for name in node.names}
    found = set()
    for node in tree.body[:position]:
        if not isinstance(node, ast.Assign):
            continue
        for target in node.targets:
            names = [target] if isinstance(target, ast.Name) else list(target.elts) \
                if isinstance(target, (ast.Tuple, ast.List)) else []
            found |= {name.id for name in names if isinstance(name, ast.Name)
                      and stores[name.id] == 1 and name.id not in declared}
    return found


def _constants_before(tree: ast.Module, position: int, namespace: Mapping[str, Any]
                      ) -> set[str]:
    """The names bound once before the loop (`_bound_once_before`: ``window = 720``,
    ``window, step = 720, 1``) that hold a constant (`_constant`): what they hold now they
    held from that statement on."""
    return {name for name in _bound_once_before(tree, position)
            if _constant(namespace.get(name, _NO_LAST))}


def _settled_before(tree: ast.Module, position: int, nodes: list[ast.stmt],
                    namespace: Mapping[str, Any]) -> set[str]:
    """The names bound once before the loop (`_bound_once_before`: ``X, y =
    flows.drop(columns='attack'), flows['attack']``) that nothing in the cell (its
    statements ``nodes``) stores into, resizes, calls a method of that may change it
    (`_receivers`) or hands to a call: the object a name holds after the cell it held from
    that statement on, unchanged by the cell but through what it shares with the names it
    was made from, which `_propagate` follows (``flows`` changed, ``y`` with it). A name
    changed through a view of it (`_viewed_by`: ``v = labels[:]``, then ``v[0] = 5``) is
    changed."""
    touched = _viewed_by(tree, _stored_into([tree]) | _may_change(nodes, namespace),
                         namespace)
    return _bound_once_before(tree, position) - touched


#: The methods by which a list, dict or set grows or takes a key: what a shallow copy of
#: it takes in its stead (`Cutter.quick_namespace`).
_GROWING_METHODS = frozenset({"append", "extend", "insert", "add", "update", "setdefault"})


def _grown_only(body: list[ast.stmt], name: str,
                namespace: Mapping[str, Any] | None = None) -> bool:
    """Whether ``body`` changes the container ``name`` holds only by growing it or storing
    at a key of its own (``scores.append(s)``, ``auc[region] = a``): never an item it holds
    (``rows[-1]['x'] = 1``, ``rows[-1].update(...)``), which a shallow copy shares. Given
    the ``namespace``: a method of what a library makes anew of it is none of its items
    (``pd.Series(auc).round(3)``: `_makes_new`, `_copied_into_pandas`)."""
    for root in body:
        for node in ast.walk(root):
            if isinstance(node, (ast.Subscript, ast.Attribute)) and \
                    isinstance(node.ctx, (ast.Store, ast.Del)) and name in _names_in(node):
                if not (isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name)
                        and node.value.id == name) and name in _names_in(node.value):
                    return False
            elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
                base = node.func.value
                if isinstance(base, ast.Name) and base.id == name:
                    if node.func.attr not in _GROWING_METHODS and \
                            node.func.attr not in _READ_ONLY_METHODS:
                        return False
                elif name in _names_in(base) and not isinstance(base, ast.Name) and not (
                        namespace is not None and isinstance(base, ast.Call) and (
                            _makes_new(base, namespace) or any(
                                _copied_into_pandas(a, base, namespace) for a in base.args
                                if isinstance(a, ast.Name) and a.id == name))):
                    return False  # a method of an item: ``rows[-1].update(...)``
    return True


def _may_change(nodes: list[ast.stmt], namespace: Mapping[str, Any]) -> set[str]:
    """The names whose objects ``nodes`` may change in place: stored into (``v[0] = 1``,
    ``df.loc[k, c] = 0``), resized, a method of which may change them is called
    (`_receivers`), handed to a call that may change them (`_handed`). Not those merely
    bound again."""
    return _stored_into(nodes) | _receivers(nodes, namespace) | _resized_in(nodes) | \
        _handed(nodes, namespace)


def _stored_into(roots: Iterable[ast.AST]) -> set[str]:
    """The names ``roots`` store into (``v[0] = 1``, ``df.loc[k, c] = 0``, ``del d[k]``,
    ``m.coef_ = w``) or augment (``v += 1``: an array in place)."""
    based = set()
    for root in roots:
        for node in ast.walk(root):
            if isinstance(node, (ast.Subscript, ast.Attribute)) and \
                    isinstance(node.ctx, (ast.Store, ast.Del)):
                based |= _receiver_base(node.value)
            elif isinstance(node, ast.AugAssign) and isinstance(node.target, ast.Name):
                based.add(node.target.id)
    return based


#: The most pairs of arrays `_viewed_by` compares before it counts every array changed.
_MOST_SHARED_PAIRS = 20_000


def _viewed_by(tree: ast.Module | None, changed: set[str], namespace: Mapping[str, Any],
               grown: Iterable[str] = (), items: bool = False) -> set[str]:
    """``changed`` (names whose objects the cell changes in place) plus the names whose
    objects may be changed through them: those a changed name was made from in the cell
    (``v = X.values`` or ``v = X[:100]``, then ``v[0] = np.nan``: a view may share ``X``'s
    memory; what a container holds; with ``items``, what a loop runs over, whose items it
    changes: read to a fixpoint, statement order ignored, `_flows`), and those of the
    namespace whose arrays
    may share memory with a changed name's (a view an earlier cell made: numpy arrays and
    pandas frames and series, by their memory's bounds). The ``grown`` names of
    ``changed`` hold builtin containers the cell only grows (`_grown_containers`): what
    they hold is as it was (``current = [events[0]]``, then ``current.append(ev)``
    changes no event), what they are a part of is changed."""
    result = set(changed)
    grown = set(grown) & result
    general = result - grown
    if tree is not None and result:
        flows = [(trigger, {name for name in reached if _may_hold_memory(name, namespace)},
                  held) for trigger, reached, held in _flows(tree, namespace, items)]
        for trigger, reached, held in flows:
            if trigger & grown:
                general |= reached - held
        general = _reached([(trigger, reached) for trigger, reached, _ in flows], general)
        result |= general
    numpy = sys.modules.get("numpy")
    if numpy is None:
        return result
    mine = [array for name in general for array in _arrays_of(namespace.get(name), numpy)]
    if not mine:
        return result
    held = [(name, _arrays_of(value, numpy)) for name, value in list(namespace.items())
            if name not in result]
    held = [(name, arrays) for name, arrays in held if arrays]
    if len(mine) * sum(len(arrays) for _, arrays in held) > _MOST_SHARED_PAIRS:
        return result | {name for name, _ in held}
    for name, arrays in held:
        try:
            if any(numpy.may_share_memory(a, b) for a in mine for b in arrays):
                result.add(name)
        except Exception:  # noqa: BLE001 - a strange array: it may share
            result.add(name)
    return result


#: Methods and functions that may return a view of their object or argument (numpy's,
#: pandas', torch's) rather than a new object: ``X.reshape(-1)``, ``np.asarray(df)``,
#: ``df.head()`` (a slice), ``t.numpy()``.
_VIEW_MAKERS = frozenset({
    "asarray", "asanyarray", "ascontiguousarray", "asfortranarray", "reshape", "view",
    "ravel", "squeeze", "transpose", "swapaxes", "moveaxis", "expand_dims", "atleast_1d",
    "atleast_2d", "atleast_3d", "broadcast_to", "diagonal", "to_numpy", "head", "tail",
    "xs", "get", "numpy", "detach", "from_numpy", "as_tensor", "view_as", "unsqueeze",
    "permute", "flatten_", "narrow", "select", "split", "array_split", "hsplit", "vsplit",
    "chunk", "unbind", "pop", "setdefault", "values", "items", "__getitem__",
    "DataFrame", "Series", "Index"})  # (a frame of a 2-D array shares its memory)
#: Builtins that make a container of the very objects they are given (``list(frames)``).
_HOLDERS = frozenset({"list", "tuple", "dict", "set", "sorted", "reversed", "zip",
                      "enumerate", "iter", "next", "map", "filter", "vars", "getattr"})


def _flows(tree: ast.Module, namespace: Mapping[str, Any], items: bool = False
           ) -> list[tuple[set[str], set[str], set[str]]]:
    """How a change of an object reaches others in the cell (`_viewed_by`): for each
    assignment, each call growing a builtin container (`_growing_call`), and, with
    ``items``, each ``for`` or comprehension target, ``(trigger, reached, held)``:
    changing what a ``trigger`` name holds may change what the ``reached`` names hold
    (``v = X[:100]``: ``X``; ``rows.append(r)``: ``r``; ``for s in sessions``:
    ``sessions``; a skipped iteration's own item is changed by none of the iterations
    before it, so a sweep's judgement goes without), and ``held``
    are those of them the trigger's container only holds (``[events[0]]``, ``sorted(log)``,
    what is appended, what is stored at a key of it), which growing it leaves as they
    were. A tuple assigned to a tuple of as many names flows item by item."""
    flows: list[tuple[set[str], set[str], set[str]]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign):
            for target in node.targets:
                value = node.value
                if isinstance(target, (ast.Tuple, ast.List)) and \
                        isinstance(value, (ast.Tuple, ast.List)) and \
                        len(target.elts) == len(value.elts) and not any(
                            isinstance(e, ast.Starred) for e in [*target.elts, *value.elts]):
                    pairs = list(zip(target.elts, value.elts))
                else:
                    pairs = [(target, value)]
                for one, made in pairs:
                    reached = _view_sources(made, namespace)
                    # stored into a container (``auc[m] = score``): it holds the value
                    flows.append((_stored(one), reached, reached if isinstance(
                        one, (ast.Subscript, ast.Attribute)) else _held_sources(made, namespace)))
        elif items and isinstance(node, (ast.For, ast.AsyncFor, ast.comprehension)):
            flows.append((_stored(node.target), _view_sources(node.iter, namespace), set()))
        elif isinstance(node, ast.Call) and _growing_call(node, namespace) is not None:
            reached = set().union(*(_view_sources(a, namespace) for a in [
                *node.args, *(k.value for k in node.keywords)]))
            flows.append(({node.func.value.id}, reached, reached))
    return flows


#: Calls that train weights in place through what no name of the cell shows (an
#: optimizer's ``step`` updates the parameters it was given: `Cutter.inputs_kept`).
_TRAINS = frozenset({"step", "backward", "zero_grad", "apply_gradients", "minimize",
                     "train_on_batch", "train_step"})
#: The builtins that make a new container of the objects they are given: growing it
#: changes none of them (`_held_sources`).
_NEW_CONTAINERS = frozenset({"list", "tuple", "set", "frozenset", "dict", "sorted"})
#: The builtin containers, and their methods that add items and change none
#: (`_growing_call`): what they are given is held as it was.
_GROWN_TYPES = (list, set, dict, collections.deque, collections.Counter,
                collections.defaultdict, collections.OrderedDict)
_ADDERS = frozenset({"append", "appendleft", "extend", "extendleft", "insert", "add",
                     "update", "setdefault"})


def _held_sources(node: ast.expr, namespace: Mapping[str, Any]) -> set[str]:
    """The names of `_view_sources` of ``node`` that a new container ``node`` makes only
    holds (a list, tuple or set display; ``sorted(log[uid])``, ``list(frames)``)."""
    if isinstance(node, (ast.List, ast.Tuple, ast.Set)):
        return _view_sources(node, namespace)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and \
            node.func.id in _NEW_CONTAINERS and \
            namespace.get(node.func.id, getattr(builtins, node.func.id)) is \
            getattr(builtins, node.func.id):
        return set().union(*(_view_sources(a, namespace) for a in node.args))
    return set()


def _growing_call(call: ast.Call, namespace: Mapping[str, Any]) -> str | None:
    """The name of the builtin container (`_GROWN_TYPES`, what it holds now) that
    ``call`` grows (``sessions.append(current)``), else None."""
    func = call.func
    if isinstance(func, ast.Attribute) and func.attr in _ADDERS and \
            isinstance(func.value, ast.Name) and \
            type(namespace.get(func.value.id)) in _GROWN_TYPES:
        return func.value.id
    return None


def _grown_containers(nodes: list[ast.stmt], namespace: Mapping[str, Any],
                      names: Iterable[str]) -> set[str]:
    """Those of ``names`` holding builtin containers (`_GROWN_TYPES`) that ``nodes`` only
    grow or store at keys of their own (`_grown_only`), and neither resize nor hand to a
    call but to grow another (`_handed`, ``grown``), nor change an item of through a loop
    over them (`_items_read_only`)."""
    handed = _handed(nodes, namespace, grown=True) | _resized_in(nodes)
    return {name for name in names if type(namespace.get(name)) in _GROWN_TYPES
            and name not in handed and _grown_only(nodes, name, namespace)
            and _items_read_only(nodes, name)}


def _items_read_only(nodes: list[ast.stmt], name: str) -> bool:
    """Whether each loop or comprehension of ``nodes`` over what ``name`` holds (``for s in
    sessions``, ``enumerate(rows)``) only reads its targets: calls no method of one but
    `_READ_ONLY_METHODS`, stores into none, and hands one to no call but a builtin of
    `_PURE_BUILTINS` (``enumerate(s)``, ``len(s)``)."""
    for root in nodes:
        for node in ast.walk(root):
            if not isinstance(node, (ast.For, ast.AsyncFor, ast.comprehension)) or \
                    name not in _names_in(node.iter):
                continue
            targets = _stored(node.target)
            parts = [*node.body, *node.orelse] if not isinstance(node, ast.comprehension) \
                else [*node.ifs]
            if isinstance(node, ast.comprehension):  # its element: the whole display's
                parts += [n for n in ast.walk(root) if isinstance(
                    n, (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp))
                          and any(g is node for g in n.generators)]
            for part in parts:
                for n in ast.walk(part):
                    if isinstance(n, (ast.Subscript, ast.Attribute)) and \
                            isinstance(n.ctx, (ast.Store, ast.Del)) and \
                            _names_in(n.value) & targets:
                        return False
                    if not isinstance(n, ast.Call):
                        continue
                    func = n.func
                    if isinstance(func, ast.Attribute) and _names_in(func.value) & targets \
                            and func.attr not in _READ_ONLY_METHODS:
                        return False
                    if not (isinstance(func, ast.Name) and func.id in _PURE_BUILTINS) and \
                            any(_names_in(a) & targets for a in [
                                *n.args, *(k.value for k in n.keywords)]):
                        return False
    return True


def _view_sources(node: ast.expr, namespace: Mapping[str, Any]) -> set[str]:
    """The names whose objects (or memory) the value of ``node`` may be or hold: ``X`` in
    ``X``, ``X.values``, ``X[:100]``, ``X.reshape(-1)``, ``np.asarray(X)``, ``list(frames)``,
    a notebook function's or an unknown callable's arguments; none for what makes a new
    object (``X * 1.0``, ``df.copy()``, ``pd.concat(parts)``, ``y.astype(int)``)."""
    if isinstance(node, ast.Name):
        return {node.id}
    if isinstance(node, ast.Subscript) and _selects_a_copy(node, namespace):
        return set()
    if isinstance(node, (ast.Attribute, ast.Subscript, ast.Starred)):
        return _view_sources(node.value, namespace)
    if isinstance(node, (ast.Tuple, ast.List)):
        return set().union(*(_view_sources(e, namespace) for e in node.elts))
    if isinstance(node, ast.IfExp):
        return _view_sources(node.body, namespace) | _view_sources(node.orelse, namespace)
    if isinstance(node, ast.NamedExpr):
        return _view_sources(node.value, namespace)
    if not isinstance(node, ast.Call):
        return set()
    arguments = set().union(*(_view_sources(a, namespace)
                              for a in [*node.args, *(k.value for k in node.keywords)]))
    func = node.func
    if isinstance(func, ast.Attribute):
        if func.attr in _VIEW_MAKERS or (func.attr == "astype" and any(
                k.arg == "copy" for k in node.keywords)):
            return _view_sources(func.value, namespace) | arguments
        owner = func.value
        while isinstance(owner, (ast.Attribute, ast.Subscript)):
            owner = owner.value
        value = namespace.get(owner.id, _NO_LAST) if isinstance(owner, ast.Name) else _NO_LAST
        if type(value) in (list, dict, set) and func.attr == "copy":
            return _view_sources(func.value, namespace)  # a shallow copy: the same items
        if value is not _NO_LAST and _defined_in(type(value)) != "__main__":
            return set()  # a library's method: a new object
        return _view_sources(func.value, namespace) | arguments  # the notebook's class
    if isinstance(func, ast.Name):
        value = namespace.get(func.id, getattr(builtins, func.id, _NO_LAST))
        if isinstance(value, types.BuiltinFunctionType) or isinstance(value, type):
            return arguments if func.id in _HOLDERS else set()
        return arguments  # the notebook's function, or what cannot be told
    return arguments


def _selects_a_copy(node: ast.Subscript, namespace: Mapping[str, Any]) -> bool:
    """Whether ``node`` selects from a numpy array or a pandas frame or series (of the
    namespace: ``X``, ``df.loc``, ``df.iloc``) by a mask or a list of keys, which makes a
    copy: ``df[df['month'] == m]``, ``X[~seen]``, ``df[['a', 'b']]``, ``X[idx]`` where
    ``idx`` holds an array or a list."""
    base = node.value
    if isinstance(base, ast.Attribute) and base.attr in ("loc", "iloc"):
        base = base.value
    if not isinstance(base, ast.Name):
        return False
    value = namespace.get(base.id)
    numpy = sys.modules.get("numpy")
    if not (_frame_or_series(value) or (numpy is not None and type(value) is numpy.ndarray)):
        return False
    key = node.slice
    if isinstance(key, ast.Tuple) and key.elts:
        key = key.elts[0]  # the rows a frame's ``.loc[mask, cols]`` selects
    if isinstance(key, (ast.List, ast.Compare, ast.ListComp)) or (
            isinstance(key, ast.UnaryOp) and isinstance(key.op, (ast.Invert, ast.Not))) or (
            isinstance(key, ast.BinOp) and isinstance(key.op, (ast.BitAnd, ast.BitOr))):
        return True
    if isinstance(key, ast.Name):
        held = namespace.get(key.id)
        return type(held) is list or (numpy is not None and type(held) is numpy.ndarray
                                      and held.ndim == 1) or _frame_or_series(held)
    return False


def _defined_in(kind: type) -> str:
    """The module ``kind`` names as its own, or '' (a metaclass's property may fail)."""
    try:
        module = inspect.getattr_static(kind, "__module__", "")
    except Exception:  # noqa: BLE001
        return ""
    return module if isinstance(module, str) else ""


def _may_hold_memory(name: str, namespace: Mapping[str, Any]) -> bool:
    """Whether ``name`` may hold memory a view of it shares: not a constant (`_constant`),
    a module, a class or a function (the namespace's, else a builtin)."""
    value = namespace.get(name, getattr(builtins, name, _NO_LAST))
    return not _constant(value) and not isinstance(value, (
        types.ModuleType, type, types.FunctionType, types.BuiltinFunctionType))


def _arrays_of(value: Any, numpy: Any) -> list[Any]:
    """The numpy arrays holding the values of ``value``: itself if it is one, a pandas
    frame's blocks, a series' values; none for anything else (read without running the
    object's code: its type's module and name)."""
    try:
        if isinstance(value, numpy.ndarray):
            return [value]
        if not _frame_or_series(value):
            return []
        if type(value).__name__ == "Series":
            values = value._values
            return [values] if isinstance(values, numpy.ndarray) else []
        return [block.values for block in value._mgr.blocks
                if isinstance(block.values, numpy.ndarray)]
    except Exception:  # noqa: BLE001 - a pandas of another layout: nothing found
        return []


def _constant_items(value: Any) -> bool:
    """A list, tuple or deque (of at most `_MOST_CONSTANT_ITEMS`) of numbers, texts and
    other values nothing can change (`_immutable_scalar`: a month's ``Period``, a
    ``Timestamp``, numpy's numbers): a loop over it meets the items the list was made
    with (a queue of ids or of months a ``while`` loop drains, `_drained`)."""
    return type(value) in (list, tuple, collections.deque) and \
        len(value) <= _MOST_CONSTANT_ITEMS and \
        all(type(item) in (str, int, float, bool) or _immutable_scalar(item)
            for item in value)


def _immutable_scalar(item: Any) -> bool:
    """Whether ``item`` is a value of a type whose values nothing changes in place: a date,
    a time or a span of the standard library or of pandas (``Period``, ``Timestamp``,
    ``Timedelta``), or a number, a boolean, a text or a date of numpy."""
    kind = type(item)
    if (kind.__module__, kind.__name__) in _IMMUTABLE_SCALARS:
        return True
    numpy = sys.modules.get("numpy")
    return numpy is not None and kind.__module__ == "numpy" and isinstance(
        item, (numpy.number, numpy.bool_, numpy.str_, numpy.datetime64, numpy.timedelta64))


#: (module, type name) of the scalars `_immutable_scalar` knows beside numpy's.
_IMMUTABLE_SCALARS = frozenset({
    ("builtins", "complex"), ("builtins", "bytes"), ("builtins", "NoneType"),
    ("datetime", "date"), ("datetime", "datetime"), ("datetime", "time"),
    ("datetime", "timedelta"),
    ("pandas._libs.tslibs.period", "Period"),
    ("pandas._libs.tslibs.timestamps", "Timestamp"),
    ("pandas._libs.tslibs.timedeltas", "Timedelta")})


_MOST_CONSTANT_ITEMS = 100_000


def _constant_mapping(value: Any) -> bool:
    """A builtin dict (of at most `_MOST_CONSTANT_ITEMS`) whose keys and values are numbers
    and texts (numpy's scalars among them): what a pandas constructor copies."""
    try:
        return type(value) in _DICTS and len(value) <= _MOST_CONSTANT_ITEMS and all(
            isinstance(item, (str, int, float)) and
            type(item).__module__ in ("builtins", "numpy")
            for pair in value.items() for item in pair)
    except Exception:  # noqa: BLE001 - a strange dict: it may be shared
        return False


def _constant(value: Any, depth: int = 0) -> bool:
    """A number, a text, bytes, ``None``, a range, or a tuple or frozenset (of at most 100)
    of such: nothing can change it in place."""
    if type(value) in (int, float, complex, str, bytes, bool, type(None), range):
        return True
    if type(value) in (tuple, frozenset) and depth < 3 and len(value) <= 100:
        return all(_constant(item, depth + 1) for item in value)
    return False


def _defines(node: ast.AST) -> set[str]:
    """The names a ``def``, ``class`` or ``import`` statement binds."""
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return {node.name}
    if isinstance(node, (ast.Import, ast.ImportFrom)):
        return {alias.asname or alias.name.partition(".")[0] for alias in node.names}
    return set()


def _names_stored(tree: ast.AST) -> set[str]:
    """The names ``tree`` assigns, deletes, stores into, or declares global."""
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)):
            names.add(node.id)
        elif isinstance(node, (ast.Subscript, ast.Attribute)) and \
                isinstance(node.ctx, (ast.Store, ast.Del)):
            names |= _names_in(node.value)
        elif isinstance(node, (ast.Global, ast.Nonlocal)):
            names.update(node.names)
    return names


def _mutable_parts(item: Any) -> list[Any]:
    """``item`` and, for a tuple (a dict's items, an ``enumerate``), its parts, but for
    the immutable ones (numbers, texts)."""
    return [part for part in (item, *(item if type(item) is tuple else ()))
            if not isinstance(part, _IMMUTABLE)]


def _called_name(call: ast.Call) -> str:
    func = call.func
    return func.attr if isinstance(func, ast.Attribute) else \
        func.id if isinstance(func, ast.Name) else ""


_DICTS = (dict, collections.OrderedDict, collections.defaultdict, collections.Counter)
_DICT_VIEWS = (type({}.keys()), type({}.values()), type({}.items()),
               type(collections.OrderedDict().keys()), type(collections.OrderedDict().values()),
               type(collections.OrderedDict().items()))


#: The methods whose rows a sweep reads one by one (`_Rows`).
_ROW_METHODS = frozenset({"iterrows", "itertuples", "items"})


def _rows_call(node: ast.expr) -> tuple[str, tuple[Any, ...], tuple[tuple[str, Any], ...]] | None:
    """``NAME.iterrows()``, ``NAME.itertuples(index=False, name=None)``, ``NAME.items()``
    with constant arguments: the method and its arguments, else None."""
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
            and isinstance(node.func.value, ast.Name) and node.func.attr in _ROW_METHODS):
        return None
    if not all(isinstance(a, ast.Constant) for a in node.args) or \
            not all(k.arg is not None and isinstance(k.value, ast.Constant) for k in node.keywords):
        return None
    return (node.func.attr, tuple(a.value for a in node.args),  # type: ignore[attr-defined]
            tuple((k.arg, k.value.value) for k in node.keywords))  # type: ignore[misc,attr-defined]


@dataclass(slots=True)
class _Rows:
    """The rows of a frame or series as its ``iterrows()``, ``itertuples(...)`` or
    ``items()`` yields them, read one at a time: the method run on the row's own slice
    (``frame.iloc[p:p + 1]``; a frame's ``items()`` on its column's), which yields that
    row as the whole frame's call does (the same types: Python scalars from
    ``itertuples`` and a series' ``items``, a row of the frame's common type from
    ``iterrows``)."""

    frame: Any
    method: str
    args: tuple[Any, ...]
    keywords: tuple[tuple[str, Any], ...]

    def size(self) -> int | None:
        """How many rows (columns, for a frame's ``items()``); None for what is no pandas
        frame or series (a dict's ``items()``) or a method it lacks."""
        try:
            kind = type(self.frame)
            if kind.__module__.partition(".")[0] != "pandas" or \
                    kind.__name__ not in ("DataFrame", "Series") or \
                    (kind.__name__ == "Series" and self.method != "items"):
                return None
            return len(self.frame.columns) if self.by_column() else len(self.frame)
        except Exception:  # noqa: BLE001 - a strange object: no rows read
            return None

    def by_column(self) -> bool:
        return type(self.frame).__name__ == "DataFrame" and self.method == "items"

    def at(self, position: int) -> Any:
        part = self.frame.iloc[:, position:position + 1] if self.by_column() else \
            self.frame.iloc[position:position + 1]
        return next(iter(getattr(part, self.method)(*self.args, **dict(self.keywords))))


#: The most groups a groupby a sweep reads may have, and the most of its last ones it keeps.
_MOST_GROUPS = 200_000
_MOST_GROUPS_KEPT = 10_000


def _groups(groupby: Any, done: int) -> Iterator[tuple[int, Any]] | None:
    """The groups a pandas groupby yields at positions ``done`` and after (its last
    `_MOST_GROUPS_KEPT` at most), from the last back: the groupby iterated again by pandas'
    own code (it yields the same ``(key, group)`` pairs each time), keeping its last
    groups only."""
    if groupby.ngroups > _MOST_GROUPS:
        return None
    tail: collections.deque[Any] = collections.deque(maxlen=_MOST_GROUPS_KEPT)
    total = 0
    for group in groupby:
        tail.append(group)
        total += 1
    first = total - len(tail)
    return ((position, tail[position - first])
            for position in range(total - 1, max(done, first) - 1, -1))


def _positions(value: Any, done: int, text: str | None = None
               ) -> Iterator[tuple[int, Any]] | None:
    """The items iterating ``value`` yields at positions ``done`` and after, from the last
    back, with their positions, where its type gives them without iterating it (the
    builtins' sequences, a dict or its views, a numpy array's rows, a pandas index's
    labels, a series' values, a frame's columns, a groupby's groups: `_groups`; a chunked
    CSV reader's chunks: `_csv_chunks`, of ``text`` where it reads one in memory); else
    None."""
    try:
        kind = type(value)
        module, name = kind.__module__.partition(".")[0], kind.__name__
        if kind in (list, tuple, str, range) or (
                module == "numpy" and name == "ndarray" and value.ndim) or (
                module == "pandas" and name.endswith("Index")):
            get = value.__getitem__
        elif module == "pandas" and name == "Series":
            get = value.iloc.__getitem__
        elif module == "pandas" and name == "DataFrame":
            value = value.columns
            get = value.__getitem__
        elif module == "pandas" and name in ("DataFrameGroupBy", "SeriesGroupBy"):
            return _groups(value, done)
        elif kind is _Rows:
            size = value.size()
            if size is None:
                return None
            return ((position, value.at(position)) for position in range(size - 1, done - 1, -1))
        elif kind in _DICTS or kind in _DICT_VIEWS:
            total = len(value)
            backwards = reversed(value)
            return ((position, next(backwards)) for position in range(total - 1, done - 1, -1))
        elif module in ("_io", "io") and name == "TextIOWrapper":
            return _file_lines(value, done)
        elif kind is _Regenerated:  # the last items kept: positions from the first
            kept, dropped = value.items(), value.dropped
            if kept is None:
                return None
            return ((position, kept[position - dropped]) for position in
                    range(dropped + len(kept) - 1, max(done, dropped) - 1, -1))
        elif module == "pandas" and name == "TextFileReader":
            return _csv_chunks(value, done, text)
        else:
            return None
        total = len(value)
    except Exception:  # noqa: BLE001 - a strange container: nothing to sweep
        return None
    return ((position, get(position)) for position in range(total - 1, done - 1, -1))


#: Encodings in which a byte 10 is a newline and nothing else (`_file_lines`).
_LINE_ENCODINGS = frozenset({"utf-8", "utf-8-sig", "ascii", "latin-1", "iso8859-1",
                             "iso8859-15", "cp1252"})
#: The bytes `_file_lines` reads at a time.
_LINES_BLOCK = 1 << 16


def _file_lines(file: Any, done: int) -> Iterator[tuple[int, str]] | None:
    """The lines a text file opened for reading (``open(path)``) yields at positions
    ``done`` and after, from the last back, read again from its path in blocks from its
    end (the loop's own file object stopped at the cut, or is closed). Only a file read
    whole in text mode, by its path, in an encoding where byte 10 is a newline alone
    (`_LINE_ENCODINGS`), with no carriage return (the newline mode would decide its
    lines), and a regular file (not a FIFO, a device); else None."""
    try:
        path, mode = file.name, file.mode
        if not isinstance(path, str) or mode not in ("r", "rt", "tr") or \
                codecs.lookup(file.encoding).name not in _LINE_ENCODINGS:
            return None
        encoding, errors = file.encoding, file.errors
    except Exception:  # noqa: BLE001 - a strange file: nothing to sweep
        return None
    raw = _open_regular(path)
    if raw is None:
        return None
    try:
        total, size, ended = 0, 0, b"\n"
        while True:
            block = raw.read(_LINES_BLOCK * 16)
            if not block:
                break
            if b"\r" in block:
                raw.close()
                return None
            total += block.count(b"\n")
            size += len(block)
            ended = block[-1:]
        total += 1 if size and ended != b"\n" else 0
    except Exception:  # noqa: BLE001 - unreadable now: nothing to sweep
        raw.close()
        return None
    return _lines_back(raw, size, total, done, encoding, errors)


def _open_regular(path: str, most: int | None = None) -> Any:
    """``path`` opened for reading in binary, where it is a regular file (of at most
    ``most`` bytes), else None: the open does not block (a FIFO waits there for a writer),
    and a pipe's or a device's lines cannot be read again. The caller closes it."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except Exception:  # noqa: BLE001 - a strange file: nothing to sweep
        return None
    try:
        found = os.fstat(fd)
        if not stat.S_ISREG(found.st_mode) or (most is not None and found.st_size > most):
            os.close(fd)
            return None
        return os.fdopen(fd, "rb")  # noqa: SIM115 - read by the generator, closed there
    except Exception:  # noqa: BLE001 - a strange file: nothing to sweep
        os.close(fd)
        return None


def _lines_back(raw: Any, size: int, total: int, done: int, encoding: str,
                errors: str) -> Iterator[tuple[int, str]]:
    """`_file_lines`'s lines, from the file's last back to position ``done``."""
    try:
        position, at, head = total - 1, size, b""
        while at > 0 and position >= done:
            step = min(_LINES_BLOCK, at)
            at -= step
            raw.seek(at)
            buffer = raw.read(step) + head
            if at > 0:  # what precedes the first newline goes on in the block before
                cut = buffer.find(b"\n")
                if cut < 0:
                    head = buffer
                    continue
                head, buffer = buffer[:cut + 1], buffer[cut + 1:]
            pieces = buffer.split(b"\n")
            lines = [piece + b"\n" for piece in pieces[:-1]] + ([pieces[-1]] if pieces[-1] else [])
            for line in reversed(lines):
                if position < done:
                    return
                yield position, line.decode(encoding, errors)
                position -= 1
    finally:
        raw.close()


#: What a chunked ``pd.read_csv`` may be given for `_csv_chunks` to read its chunks again
#: (each parsed alone from its own lines as the reader parses it); any other option must be
#: left to its default.
_CHUNK_OPTIONS = frozenset({
    "delimiter", "usecols", "dtype", "true_values", "false_values", "skipinitialspace",
    "na_values", "keep_default_na", "na_filter", "parse_dates", "date_format", "dayfirst",
    "cache_dates", "thousands", "decimal", "encoding", "encoding_errors", "low_memory",
    "float_precision", "chunksize", "engine_specified"})
#: The largest file `_csv_chunks` reads again.
_MOST_CHUNKED_BYTES = 1 << 31


def _buffer_text(reader: Any) -> str | None:
    """What the ``io.StringIO`` a chunked CSV reader reads holds, where it reads one
    (``pd.read_csv(io.StringIO(text), chunksize=n)``), of at most `_MOST_CHUNKED_BYTES`
    characters; else None. Taken as the loop begins: a buffer the cell writes to later
    does not change what the loop read."""
    try:
        if type(reader).__name__ != "TextFileReader" or \
                not str(type(reader).__module__).startswith("pandas."):
            return None
        handle = reader.handles.handle
        if type(handle) is not io.StringIO:
            return None
        text = handle.getvalue()
        return text if type(text) is str and len(text) <= _MOST_CHUNKED_BYTES else None
    except Exception:  # noqa: BLE001 - a strange reader: nothing read again
        return None


def _csv_chunks(reader: Any, done: int, text: str | None = None
                ) -> Iterator[tuple[int, Any]] | None:
    """The chunks a chunked ``pd.read_csv(path, chunksize=n)`` yields at positions
    ``done`` and after, from the last back: the file read again from its end in blocks,
    each chunk parsed alone from the header line and its own ``n`` lines, with the same
    options, its index counted on from the rows before it as the reader's is. Only where
    each line is one row: a regular, uncompressed file read by the C engine, by its path,
    in an encoding where byte 10 is a newline alone (no byte-order mark), with no carriage
    return, no blank line, and an even count of quote characters on every line (no field
    spans lines); with the header on its first line, and no option but `_CHUNK_OPTIONS`
    changed (no ``skiprows``, ``comment``, ``nrows``, ``index_col``, ``converters``, nor a
    callable ``usecols``); else None. A reader of an ``io.StringIO`` is read so from
    ``text``, what the buffer held as its loop began (`_buffer_text`), where its first
    line names the reader's columns (a buffer read from its start)."""
    try:
        import numpy as np
        import pandas as pd

        options = dict(reader.orig_options)
        size_n = reader.chunksize
        handle = reader.handles.handle
        path = getattr(handle, "name", None) if text is None else None
        defaults = pd.read_csv(io.StringIO("a\n1\n"), chunksize=1).orig_options
        if reader.engine != "c" or type(size_n) is not int or size_n < 1 or \
                not isinstance(path if text is None else text, str) or \
                reader.handles.compression.get("method") or \
                set(options) != set(defaults) or callable(options.get("usecols")) or any(
                    key not in _CHUNK_OPTIONS and options[key] is not defaults[key]
                    and not _same_option(options[key], defaults[key]) for key in options):
            return None
        # a text in memory is read as UTF-8 bytes of it, whatever ``encoding`` says
        encoding = "utf-8" if text is not None else \
            codecs.lookup(options.get("encoding") or "utf-8").name
        if encoding not in _LINE_ENCODINGS or encoding == "utf-8-sig":
            return None
        quote = options.get("quotechar") or '"'
        columns = list(reader._engine.orig_names) if text is not None else None
    except Exception:  # noqa: BLE001 - a strange reader: nothing to sweep
        return None
    if text is None:
        raw = _open_regular(path, _MOST_CHUNKED_BYTES)
    else:
        try:
            raw = io.BytesIO(text.encode(encoding))
        except Exception:  # noqa: BLE001 - a lone surrogate: nothing to sweep
            return None
    if raw is None:
        return None
    try:
        total, size, ended, odd, header = 0, 0, b"\n", 0, b""
        quote_byte = np.frombuffer(quote.encode(encoding), np.uint8)
        while True:
            block = raw.read(_LINES_BLOCK * 16)
            if not block:
                break
            if not size:
                header = block.split(b"\n", 1)[0]
                if block.startswith(codecs.BOM_UTF8):
                    raise ValueError("a byte-order mark")
            if b"\r" in block or b"\n\n" in block or (ended == b"\n" and block[:1] == b"\n"):
                raise ValueError("not a line per row")
            if len(quote_byte) == 1 and quote_byte[0] in block:
                data = np.frombuffer(block, np.uint8)
                counts = np.cumsum(data == quote_byte[0]) + odd
                if (counts[data == 10] % 2).any():
                    raise ValueError("a field over lines")
                odd = int(counts[-1]) % 2
            elif len(quote_byte) != 1:
                raise ValueError("a strange quote")
            total += block.count(b"\n")
            size += len(block)
            ended = block[-1:]
        total += 1 if size and ended != b"\n" else 0
    except Exception:  # noqa: BLE001 - unreadable now, or not one row a line: no sweep
        raw.close()
        return None
    rows = total - 1  # the header's line aside
    if rows < 1 or done * size_n >= rows:
        raw.close()
        return None
    header_text = header.decode(encoding, options.get("encoding_errors") or "strict") + "\n"
    given = {key: options[key] for key in _CHUNK_OPTIONS - {  # the text decoded here
                 "chunksize", "engine_specified", "encoding", "encoding_errors"}
             if key in options and not _same_option(options[key], defaults[key])}
    if columns is not None:  # a buffer the reader read from its start: the same header
        try:
            named = list(pd.read_csv(io.StringIO(header_text), **given).columns)
        except Exception:  # noqa: BLE001 - no header there: nothing to sweep
            named = None
        if named != columns:
            raw.close()
            return None
    return _chunks_back(raw, size, total, rows, size_n, done, header_text, given,
                        encoding, options.get("encoding_errors") or "strict")


#: The most folds `_split_folds` makes again.
_MOST_FOLDS = 1_000


#: The most items of a notebook's generator asked for again that are kept, the last ones
#: (`_Regenerated`), and the most it is asked for.
_MOST_REGENERATED = 100_000
_MOST_ASKED = 10_000_000


class _Regenerated:
    """A generator of the notebook's own, as a loop of the cell began to run over it
    (``for chunk in stream(reviews, 5000)``): its function and the arguments it was called
    with (what its frame held before it ran), to make its items anew for the sweep
    (`_positions`). Only a function that reads no global but modules, builtins,
    constants and such functions of the notebook's, binds none, draws no random number
    but from a generator it makes from a seed (`_draws_seeded_only`; not given ``None``:
    `_seeded_with_none`), changes none of its arguments (`_leaves_arguments`) and calls
    none of the notebook's functions that a cut may rewrite (`_calls_uncut_only`),
    with plain parameters: called again with the same arguments it
    yields the same items, each made anew, as the real run's were. What the loop runs
    over, the cell must not change (`Cutter._judge_last` checks the loop's header)."""

    __slots__ = ("function", "arguments", "made", "failure", "dropped")

    def __init__(self, function: types.FunctionType, arguments: list[Any]) -> None:
        self.function, self.arguments, self.made = function, arguments, None
        #: how many of the first items were not kept (`_MOST_REGENERATED`)
        self.dropped = 0
        #: what making an item raised (the generator's own code, on its own arguments):
        #: the real run's loop meets it in its header, after the items made before it
        self.failure: BaseException | None = None

    @classmethod
    def of(cls, generator: Any, namespace: Mapping[str, Any] | None) -> _Regenerated | None:
        try:
            frame, code = generator.gi_frame, generator.gi_code
            if frame is None or namespace is None or \
                    inspect.getgeneratorstate(generator) != inspect.GEN_CREATED or \
                    code.co_flags & (inspect.CO_VARARGS | inspect.CO_VARKEYWORDS) or \
                    code.co_kwonlyargcount or code.co_posonlyargcount:
                return None
            function = next((value for value in list(namespace.values())
                             if isinstance(value, types.FunctionType) and
                             value.__code__ is code and value.__globals__ is namespace), None)
            if function is None or function.__closure__ or HELPER in code.co_names or \
                    not _calls_uncut_only(code, namespace):
                return None  # (cut itself, or one it calls may be: its items would be others)
            found = frame.f_locals
            names = code.co_varnames[:code.co_argcount]
            if any(name not in found for name in names):
                return None
            given = {name: found[name] for name in names}
            if not _leaves_arguments(function, namespace, given) or \
                    _seeded_with_none(code, namespace, given):
                return None
            return cls(function, list(given.values()))
        except Exception:  # noqa: BLE001 - a strange generator: nothing to sweep
            return None

    def items(self) -> list[Any] | None:
        """Its last items, made anew once (`_MOST_REGENERATED` of them, after the
        `dropped` first ones): those made before what making the next one raised
        (`failure`); None where it yields more than `_MOST_ASKED`."""
        if self.made is None:
            made: collections.deque[Any] = collections.deque(maxlen=_MOST_REGENERATED)
            count = 0
            try:
                for item in self.function(*self.arguments):
                    made.append(item)
                    count += 1
                    if count > _MOST_ASKED:
                        return None
            except Exception as exc:  # noqa: BLE001 - the real run meets it in the loop's
                self.failure = exc  # header (`Cutter.swept` raises it there first)
            self.made, self.dropped = list(made), count - len(made)
        return self.made

    def count(self) -> int:
        """How many items it made (`items` first)."""
        return self.dropped + len(self.made or ())


def _seeded_with_none(code: types.CodeType, namespace: Mapping[str, Any],
                      given: Mapping[str, Any]) -> bool:
    """Whether a generator of random numbers that ``code`` makes from a seed
    (`_seeded_maker`) is given a parameter that holds ``None`` here (``random.Random(seed)``
    called with ``seed=None``: fresh entropy, other numbers each time)."""
    import dis

    instructions = list(dis.get_instructions(code))
    for at in range(len(instructions)):
        end = _seeded_maker(instructions, at, namespace)
        if end is not None and any(
                i.opname in ("LOAD_FAST", "LOAD_DEREF") and i.argval in given and
                given[i.argval] is None for i in instructions[at:end]):
            return True
    return False


def _split_folds(generator: Any) -> list[Any] | None:
    """The folds a scikit-learn splitter's ``split(X, y, groups)`` generator will yield,
    asked of the splitter again as the loop begins (before the generator runs), with the
    arguments the generator was given (what its frame holds). Only a splitter of
    ``sklearn.model_selection`` (``KFold``, ``StratifiedKFold``, ``TimeSeriesSplit``,
    ``GroupKFold``, the repeated and shuffled ones) whose folds do not depend on a random
    state that changes between calls: its ``random_state`` an int, or None with no
    shuffling; else None. Each fold's arrays are new ones, as the real run's are."""
    try:
        frame = generator.gi_frame
        if frame is None or inspect.getgeneratorstate(generator) != inspect.GEN_CREATED or \
                generator.gi_code.co_name not in ("split", "_split"):
            return None
        found = frame.f_locals
        splitter = found.get("self")
        kind = type(splitter)
        if not kind.__module__.startswith("sklearn.model_selection"):
            return None
        state = getattr(splitter, "random_state", None)
        shuffled = getattr(splitter, "shuffle", "random_state" in vars(splitter))
        if not (type(state) is int or (state is None and shuffled is False)):
            return None  # folds drawn from a generator that moved on, or numpy's own
        names = [n for n in inspect.signature(kind.split).parameters if n != "self"]
        if "X" not in found:
            return None
        folds = []
        with warnings.catch_warnings():  # said by the loop's own call already
            warnings.simplefilter("ignore")
            for fold in splitter.split(*(found.get(n) for n in names)):
                folds.append(fold)
                if len(folds) > _MOST_FOLDS:
                    return None
    except Exception:  # noqa: BLE001 - a strange generator: nothing to sweep
        return None
    return folds


def _same_option(value: Any, default: Any) -> bool:
    try:
        return type(value) is type(default) and bool(value == default)
    except Exception:  # noqa: BLE001 - a strange option: not the default
        return False


def _chunks_back(raw: Any, size: int, total: int, rows: int, size_n: int, done: int,
                 header: str, given: dict[str, Any], encoding: str,
                 errors: str) -> Iterator[tuple[int, Any]]:
    """`_csv_chunks`'s chunks, from the file's last back to chunk ``done``."""
    import pandas as pd

    lines: list[str] = []
    chunk = (rows - 1) // size_n  # the last
    read = _lines_back(raw, size, total, done * size_n + 1, encoding, errors)
    try:
        for position, line in read:
            if not line.strip():
                return  # a line of blanks: pandas may skip it, the rows would shift
            lines.append(line if line.endswith("\n") else line + "\n")
            if position - 1 == chunk * size_n:  # the chunk's first row: it is whole
                frame = pd.read_csv(io.StringIO(header + "".join(reversed(lines))), **given)
                start = chunk * size_n
                frame.index = pd.RangeIndex(start, start + len(frame))
                yield chunk, frame
                lines, chunk = [], chunk - 1
                if chunk < done:
                    return
    finally:
        read.close()  # the file with it


#: The most keys `Cutter._keyed` works out for one name (its keys times the items).
_MOST_KEYS = 200_000


def _items_of(iterable: ast.expr, namespace: Mapping[str, Any],
              ran: range | None) -> list[Any] | None:
    """What a loop's ``iterable`` yields, where it is known without running code: the
    ``range`` it ran over; a list, tuple or dict (its keys) of texts, or a pandas index,
    held by a name, or a frame's ``columns``."""
    if ran is not None:
        return list(ran) if len(ran) <= _MOST_KEYS else None
    value: Any = None
    if isinstance(iterable, ast.Name):
        value = namespace.get(iterable.id)
    elif isinstance(iterable, ast.Attribute) and isinstance(iterable.value, ast.Name) and \
            iterable.attr == "columns" and _frame_or_series(namespace.get(iterable.value.id)):
        value = namespace[iterable.value.id].columns
    try:
        if type(value) in (list, tuple, dict) or (
                type(value).__module__.startswith("pandas.") and type(value).__name__.endswith("Index")):
            if len(value) > _MOST_KEYS:
                return None
            items = list(value)
            return items if all(type(item) is str for item in items) else None
    except Exception:  # noqa: BLE001 - a strange container: not known
        return None
    return None


def _key_of(node: ast.expr, target: str, item: Any) -> str | None:
    """The text ``node`` makes of the loop's ``target`` bound to ``item`` (``col``, ``col +
    '_freq'``, ``f'{col}_lag'``, ``'lag_' + str(k)`` is not: only names, texts, ``+`` and
    f-strings), or None."""
    if isinstance(node, ast.Name):
        return item if node.id == target and type(item) is str else None
    if isinstance(node, ast.Constant):
        return node.value if type(node.value) is str else None
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        left, right = _key_of(node.left, target, item), _key_of(node.right, target, item)
        return left + right if left is not None and right is not None else None
    if isinstance(node, ast.JoinedStr):
        parts = []
        for part in node.values:
            if isinstance(part, ast.Constant) and type(part.value) is str:
                parts.append(part.value)
            elif isinstance(part, ast.FormattedValue) and part.conversion == -1 and \
                    part.format_spec is None and isinstance(part.value, ast.Name) and \
                    part.value.id == target and type(item) in (str, int):
                parts.append(str(item))
            else:
                return None
        return "".join(parts)
    return None


def _holds(container: Any, values: list[Any]) -> bool:
    """Whether a list, tuple or dict, or an object's attributes, hold one of ``values``
    (or it cannot be told)."""
    try:
        if type(container) in (list, tuple, dict):
            items = list(container.values() if type(container) is dict else container)
        else:
            slot = inspect.getattr_static(type(container), "__dict__", None)
            if type(slot) not in (types.GetSetDescriptorType, types.MemberDescriptorType) or \
                    slot.__objclass__ not in type(container).__mro__:
                return False  # no instance dict (a property would run the class's code)
            attributes = slot.__get__(container)
            if type(attributes) is not dict:
                return False
            items = list(attributes.values())
        return len(items) > _MOST_KEYS or any(v is h for v in items for h in values)
    except Exception:  # noqa: BLE001 - a strange container: it may
        return True


def _frame_or_series(value: Any) -> bool:
    return type(value).__module__.startswith("pandas.") and \
        type(value).__name__ in ("DataFrame", "Series")


def _affine(node: ast.expr, target: str) -> int | None:
    """The constant ``node`` adds to the loop's ``target`` (``i``, ``i + 1``, ``i - 1``,
    ``1 + i``), or None."""
    if isinstance(node, ast.Name):
        return 0 if node.id == target else None
    if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Sub)):
        left, right = node.left, node.right
        if isinstance(left, ast.Name) and left.id == target and \
                isinstance(right, ast.Constant) and type(right.value) is int:
            return right.value if isinstance(node.op, ast.Add) else -right.value
        if isinstance(node.op, ast.Add) and isinstance(right, ast.Name) and \
                right.id == target and isinstance(left, ast.Constant) and type(left.value) is int:
            return left.value
    return None


def _label_probes(loop: ast.For) -> tuple[tuple[ast.Subscript, int], ...]:
    """The subscripts of a loop over a ``range`` that read a label made of its target,
    with what they add to it: ``df.loc[i, 'x']``, ``df.at[i + 1, 'x']``, ``s[i]``,
    ``df['x'][i - 1]`` (`_probe_index` tells at run time which of them look labels up).
    Stores are not (``.loc`` adds a label it lacks)."""
    if not isinstance(loop.target, ast.Name):
        return ()
    target = loop.target.id
    found = []
    for node in _own_nodes(loop.body):
        if not isinstance(node, ast.Subscript) or not isinstance(node.ctx, ast.Load):
            continue
        key = node.slice.elts[0] if isinstance(node.slice, ast.Tuple) and node.slice.elts \
            else node.slice
        value = node.value
        offset = _affine(key, target)
        if offset is None:
            continue
        if isinstance(value, ast.Name) or (
                isinstance(value, ast.Attribute) and value.attr in ("loc", "at")
                and isinstance(value.value, ast.Name)) or (
                isinstance(value, ast.Subscript) and isinstance(value.value, ast.Name)
                and isinstance(value.slice, ast.Constant) and type(value.slice.value) is str):
            found.append((node, offset))
    return tuple(found)


def _probe_index(probe: ast.Subscript, namespace: Mapping[str, Any]) -> Any:
    """The integer index ``probe`` looks a label up in: ``df.loc[i + 1, 'x']`` and ``df.at[...]`` on a frame or series, ``s[i]`` on a series
    and ``df['x'][i]`` on a frame (where an integer index makes ``[]`` a label lookup);
    None for anything else (a positional lookup, a non-integer index, a name the cell
    has not bound to a frame)."""
    value = probe.value
    if isinstance(value, ast.Attribute):  # .loc / .at
        obj = namespace.get(value.value.id)  # type: ignore[attr-defined]
        if not _frame_or_series(obj):
            return None
    elif isinstance(value, ast.Subscript):  # df['x'][i]
        obj = namespace.get(value.value.id)  # type: ignore[attr-defined]
        if type(obj).__name__ != "DataFrame" or not _frame_or_series(obj) or \
                value.slice.value not in obj.columns:  # type: ignore[attr-defined]
            return None
    else:  # s[i]
        obj = namespace.get(value.id)  # type: ignore[attr-defined]
        if type(obj).__name__ != "Series" or not _frame_or_series(obj):
            return None
    index = obj.index
    if type(index).__name__ == "MultiIndex" or getattr(index.dtype, "kind", "") not in ("i", "u"):
        return None
    return index


def _cell_line(exc: BaseException, filename: str, line: int | None) -> int | None:
    """The line of the cell's own code (not of a function it defines) the crash went
    through last; ``line`` where there is none."""
    found = None
    tb = exc.__traceback__
    while tb is not None:
        code = tb.tb_frame.f_code
        if code.co_filename == filename and code.co_name == "<module>":
            found = tb.tb_lineno
        tb = tb.tb_next
    return found if found is not None else line


#: Failures of a value itself (not of a file, memory or the interpreter's limits).
_OWN_VALUE_ERRORS = (AttributeError, TypeError, ValueError, LookupError, ArithmeticError)
#: The libraries' own errors that derive from no error of a value: what the boosting
#: libraries' checks of the data given to a fit raise (a feature name with JSON characters,
#: a label out of range, an empty set; XGBoost's derives from ValueError), and what
#: TensorFlow's ops raise on their arguments (``Matrix size-incompatible``, an index out
#: of range), and pandas' errors of a frame's values (``No numeric types to aggregate``: a
#: rolling mean of a column of text; a reindex on labels given twice; a boolean mask on
#: other labels).
_LIBRARY_VALUE_ERRORS = frozenset({"lightgbm.basic.LightGBMError", "_catboost.CatBoostError",
                                   "tensorflow.python.framework.errors_impl.InvalidArgumentError",
                                   "pandas.errors.DataError", "pandas.errors.InvalidIndexError",
                                   "pandas.errors.IndexingError"})


def _fails_on_values(exc: BaseException) -> bool:
    """Whether ``exc`` is a failure of a value itself (`_OWN_VALUE_ERRORS`, a boosting
    library's error, `_LIBRARY_VALUE_ERRORS`), or of its shape (torch's ``RuntimeError``
    of sizes that do not match: ``input.size(-1) must be equal to input_size``)."""
    return isinstance(exc, _OWN_VALUE_ERRORS) or any(
        f"{kind.__module__}.{kind.__qualname__}" in _LIBRARY_VALUE_ERRORS
        for kind in type(exc).__mro__) or (
            isinstance(exc, RuntimeError) and _about_sizes(exc))


#: Built-in functions that change none of their arguments.
_PURE_BUILTINS = frozenset({"len", "float", "int", "str", "bool", "abs", "round", "min", "max",
                            "sum", "sorted", "list", "tuple", "set", "dict", "range",
                            "enumerate", "zip", "isinstance", "repr", "format", "print",
                            "type", "hash", "any", "all", "divmod", "pow", "chr", "ord"})


#: Values no call can change.
_IMMUTABLE = (int, float, complex, str, bytes, bool, tuple, frozenset, range, type(None),
              re.Pattern)


def _handed(nodes: Iterable[ast.AST], namespace: Mapping[str, Any],
            grown: bool = False) -> set[str]:
    """The names ``nodes`` hand to a call that may change them: any but `_PURE_BUILTINS`
    (``heapq.heappush(heap, x)``, ``operator.setitem(index, k, v)``, ``np.copyto(out, x)``),
    unless the name holds a value no call changes (``x.view(BATCH, -1)``), is a builtin
    (``astype(int)``), is a module one of whose attributes is handed (``np.float32``;
    not its ``random`` state), or is the parameters a boosting library's training copies
    (`_copied_params`), or is a function (``df.apply(classify_route, axis=1)``); nor what a
    library function that makes a new object from its arguments is handed (`_makes_new`:
    ``pd.get_dummies(batch[cols], columns=cat_cols)``). With ``grown``: nor what a call
    growing a builtin container is given (`_growing_call`: ``sessions.append(current)``),
    which the container holds as it was (`_viewed_by` follows what it holds)."""
    names: set[str] = set()
    for node in nodes:
        for call in ast.walk(node):
            if not isinstance(call, ast.Call) or (
                    isinstance(call.func, ast.Name) and call.func.id in _PURE_BUILTINS) or \
                    _reads_its_arguments(call, namespace) or _makes_new(call, namespace) or \
                    _leaves_its_arguments(call, namespace) or \
                    (grown and _growing_call(call, namespace) is not None):
                continue
            copied = _copied_params(call, namespace)
            for arg in [*call.args, *(k.value for k in call.keywords)]:
                if arg is copied or _unpacked_constants(arg, call, namespace) or \
                        _copied_into_pandas(arg, call, namespace):
                    continue
                chain = []
                while isinstance(arg, (ast.Attribute, ast.Subscript, ast.Starred)):
                    if isinstance(arg, ast.Attribute):
                        chain.append(arg.attr)
                    arg = arg.value
                if not isinstance(arg, ast.Name):
                    continue
                value = namespace.get(arg.id, _NO_LAST)
                if value is _NO_LAST:
                    if arg.id in vars(builtins):
                        continue  # a builtin (``int``, ``str``): no library call changes it
                    value = []
                if isinstance(value, _IMMUTABLE) or (
                        isinstance(value, types.ModuleType) and chain and "random" not in chain):
                    continue
                if isinstance(value, (types.FunctionType, types.BuiltinFunctionType)) and \
                        not chain:
                    continue  # a function handed to be called (``wk.apply(classify_route)``):
                    # what it does is read as the notebook's code (`_runs_notebook_code`)
                names.add(arg.id)
    return names


def _leaves_its_arguments(call: ast.Call, namespace: Mapping[str, Any]) -> bool:
    """Whether ``call`` calls a function of the notebook's (by its name) that changes none
    of its arguments: pure (`_pure_function`: it reads and changes no global but its
    kind), with plain parameters, whose body (read from its source) neither changes a
    parameter in place nor anything made from one that may share its memory
    (`_may_change`, `_viewed_by`), calls none of the notebook's functions but such ones,
    and defines no function or class (``window_features(signal[s:s + WIN])``: numpy's
    means and spectra of the window, the window as it was)."""
    if not isinstance(call.func, ast.Name):
        return False
    function = namespace.get(call.func.id)
    if not isinstance(function, types.FunctionType):
        return False
    home = function.__globals__  # the notebook's, or ``namespace`` is a function's scope
    # over it (`_leaves_arguments` of a function that calls this one)
    if home is not namespace and (home.get(call.func.id) is not function or
                                  home.get("__name__") != namespace.get("__name__")):
        return False
    code = function.__code__
    known = _LEAVES_ARGUMENTS.get(code)
    if known is None:
        if len(_LEAVES_ARGUMENTS) > 256:
            _LEAVES_ARGUMENTS.clear()
        _LEAVES_ARGUMENTS[code] = False  # (while it is read: a function that calls itself)
        known = _LEAVES_ARGUMENTS[code] = _leaves_arguments(function, home)
    return known


#: What `_leaves_its_arguments` found of each function's code (in the child's process).
_LEAVES_ARGUMENTS: dict[types.CodeType, bool] = {}
#: The functions the cell being run defines at its top level, by (file, name, first line),
#: as `loop_tree` read them: their source, where ``inspect`` may find none.
_CELL_DEFINITIONS: dict[tuple[str | None, str, int], ast.FunctionDef] = {}


def _leaves_arguments(function: types.FunctionType, namespace: Mapping[str, Any],
                      given: Mapping[str, Any] | None = None) -> bool:
    """Whether ``function`` changes none of its arguments (`_leaves_its_arguments`);
    ``given``: the values its parameters will hold, read as what they are (a frame's
    ``df.iloc[i:j].copy()`` is a new frame), not as any object."""
    try:
        code = function.__code__
        if code.co_flags & (inspect.CO_VARARGS | inspect.CO_VARKEYWORDS) or \
                code.co_freevars or not _pure_function(function, namespace):
            return False
        definition = _CELL_DEFINITIONS.get((code.co_filename, function.__name__,
                                            code.co_firstlineno))
        if definition is None:
            tree = ast.parse(textwrap.dedent(inspect.getsource(function)))
            definition = tree.body[0] if len(tree.body) == 1 else None
        if not isinstance(definition, ast.FunctionDef) or \
                definition.name != function.__name__ or definition.decorator_list:
            return False
        arguments = definition.args
        parameters = {a.arg for a in [*arguments.posonlyargs, *arguments.args,
                                       *arguments.kwonlyargs]}
        if parameters != set(code.co_varnames[:code.co_argcount + code.co_kwonlyargcount]):
            return False  # the source is not this function's
        body = ast.Module(body=definition.body, type_ignores=[])
        if any(isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda,
                              ast.ClassDef, ast.Global, ast.Nonlocal))
               for n in ast.walk(body)):
            return False
        # its parameters and locals hold what may change (a list stands for them: a call
        # of a method not known to make a new object counts, as a call handing them on)
        scope = {**namespace, **{name: [] for name in code.co_varnames}, **(given or {})}
        changed = _viewed_by(body, _may_change(definition.body, scope), scope)
        return not changed & parameters
    except Exception:  # noqa: BLE001 - a function whose source cannot be read: not known
        return False


def _unpacked_constants(arg: ast.expr, call: ast.Call, namespace: Mapping[str, Any]) -> bool:
    """Whether ``arg`` is a dict of numbers and texts unpacked into ``call``'s keywords
    (``xgb.XGBRegressor(**params)``): the call gets a new dict of its values, which
    nothing can change in place."""
    if not isinstance(arg, ast.Name) or not any(
            k.arg is None and k.value is arg for k in call.keywords):
        return False
    value = namespace.get(arg.id)
    return type(value) is dict and len(value) <= 100 and all(
        type(key) is str and _constant(item) for key, item in value.items())


def _copied_into_pandas(arg: ast.expr, call: ast.Call, namespace: Mapping[str, Any]) -> bool:
    """Whether ``arg`` is a list or tuple of numbers and texts (`_constant_items`), or a
    dict of such by such (`_constant_mapping`: ``pd.Series(monthly_auc)``), given to a
    pandas constructor (``pd.Series(scores, index=cutoffs)``), which copies it into an
    array of its own: nothing it makes shares it, and nothing changes it."""
    func = call.func
    if not isinstance(arg, ast.Name) or not (
            _constant_items(namespace.get(arg.id)) or
            _constant_mapping(namespace.get(arg.id))) or \
            not isinstance(func, ast.Attribute) or \
            func.attr not in ("Series", "DataFrame", "Index") or \
            not isinstance(func.value, ast.Name):
        return False
    module = namespace.get(func.value.id)
    return isinstance(module, types.ModuleType) and module.__name__ == "pandas"


#: The training functions of the boosting libraries that copy their parameters before
#: reading them (``params = copy.deepcopy(params)`` in LightGBM's; XGBoost's Booster makes
#: a list of them): (module, function) -> the parameters' keyword (they come first).
_PARAMS_COPIED = {("lightgbm.engine", "train"): "params", ("lightgbm.engine", "cv"): "params",
                  ("xgboost.training", "train"): "params", ("xgboost.training", "cv"): "params"}


def _copied_params(call: ast.Call, namespace: Mapping[str, Any]) -> ast.expr | None:
    """The argument of ``call`` that is the parameters a boosting library's training
    copies (``lgb.train(params, dtrain)``: ``params``), else None. The datasets it is
    given it may change (LightGBM frees a dataset's raw data once built)."""
    try:
        func = call.func
        if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name):
            owner = namespace.get(func.value.id)
            function = getattr(owner, func.attr, None) \
                if isinstance(owner, types.ModuleType) else None
        elif isinstance(func, ast.Name):
            function = namespace.get(func.id)
        else:
            return None
        if not inspect.isfunction(function):
            return None
        function = inspect.unwrap(function)  # the dry run's cap of its rounds
        keyword = _PARAMS_COPIED.get((function.__module__, function.__name__))
        if keyword is None:
            return None
        for given in call.keywords:
            if given.arg == keyword:
                return given.value
        return call.args[0] if call.args and not isinstance(call.args[0], ast.Starred) \
            else None
    except Exception:  # noqa: BLE001 - a strange object: it may change what it is given
        return None


#: Functions of pandas, numpy and the standard library that make a new object from their
#: arguments and change none of them (`_makes_new`), by package and name; not those whose
#: result may share its arguments' memory (``np.asarray``, ``np.ravel``, a frame's
#: constructor), nor a call given ``out=`` or ``inplace=``. Numpy's ufuncs are counted too.
_NEW_FROM_ARGUMENTS = {
    "pandas": frozenset({
        "get_dummies", "concat", "merge", "merge_asof", "merge_ordered", "read_csv",
        "read_table", "read_json", "read_excel", "read_pickle", "read_fwf", "to_datetime",
        "to_numeric", "to_timedelta", "cut", "qcut", "crosstab", "pivot_table", "pivot",
        "melt", "wide_to_long", "isna", "isnull", "notna", "notnull", "unique", "factorize",
        "json_normalize", "date_range", "period_range", "timedelta_range"}),
    "numpy": frozenset({
        "concatenate", "stack", "vstack", "hstack", "column_stack", "dstack", "where",
        "unique", "sort", "argsort", "argmax", "argmin", "mean", "median", "std", "var",
        "sum", "prod", "amin", "amax", "min", "max", "percentile", "quantile", "nanmean",
        "nanmedian", "nanstd", "nanvar", "nansum", "nanmin", "nanmax", "nanpercentile",
        "nanquantile", "cumsum", "cumprod", "diff", "gradient", "histogram", "bincount",
        "digitize", "clip", "round", "around", "corrcoef", "cov", "dot", "outer", "inner",
        "polyfit", "polyval", "interp", "isin", "searchsorted", "count_nonzero", "any",
        "all", "allclose", "isclose", "array_equal", "inv", "pinv", "solve", "det", "norm",
        "eig", "eigh", "eigvals", "eigvalsh", "svd", "lstsq", "cholesky", "qr", "slogdet",
        "matrix_rank", "fft", "ifft", "rfft", "irfft", "fft2", "ifft2", "rfft2", "irfft2",
        "fftn", "rfftn", "fftfreq", "rfftfreq", "pad", "tile", "repeat", "cross",
        "convolve", "correlate", "trapezoid", "trapz", "average", "ptp", "linspace",
        "arange", "zeros_like", "ones_like", "full_like", "empty_like", "nonzero",
        "argwhere", "flatnonzero", "tril", "triu", "kron", "histogram2d", "meshgrid"}),
    "math": None,  # every function: numbers in, a number out
    "json": frozenset({"loads", "dumps"}),
    # a copy of the data given (not ``from_numpy`` nor ``as_tensor``, which may share it)
    "torch": frozenset({"tensor", "cat", "stack", "vstack", "hstack", "zeros_like",
                        "ones_like", "full_like"}),
}


def _makes_new(call: ast.Call, namespace: Mapping[str, Any]) -> bool:
    """Whether ``call`` is a library function's (`_NEW_FROM_ARGUMENTS`, reached through a
    module's name: ``pd.get_dummies``, ``np.linalg.inv``, ``math.radians``) that makes a new
    object and changes none of its arguments."""
    try:
        if any(k.arg in ("out", "inplace") for k in call.keywords):
            return False
        func, chain = call.func, []
        while isinstance(func, ast.Attribute):
            chain.append(func.attr)
            func = func.value
        if not isinstance(func, ast.Name) or not chain:
            return False
        value = namespace.get(func.id)
        if not isinstance(value, types.ModuleType):
            return False
        for attr in reversed(chain):
            value = getattr(value, attr)
        package = str(getattr(value, "__module__", None) or "").partition(".")[0]
        if type(value).__name__ == "ufunc" and type(value).__module__ == "numpy":
            return True
        names = _NEW_FROM_ARGUMENTS.get(package, frozenset())
        return callable(value) and (names is None or value.__name__ in names)
    except Exception:  # noqa: BLE001 - a strange object: it may change what it is given
        return False


#: Methods (and accessors) of pandas, numpy and the builtins' containers that return a new
#: object and change none (without ``inplace=True``, which `_resized_in` counts).
_NEW_OBJECT_METHODS = frozenset({
    "copy", "mean", "sum", "std", "var", "min", "max", "median", "quantile", "describe",
    "head", "tail", "value_counts", "unique", "nunique", "isna", "notna", "isnull",
    "notnull", "astype", "to_numpy", "tolist", "to_list", "to_dict", "item", "dropna",
    "fillna", "replace", "rename", "drop", "sort_values", "sort_index", "reset_index",
    "set_index", "groupby", "agg", "aggregate", "rolling", "expanding", "ewm", "resample",
    "shift", "diff", "pct_change", "cumsum", "cumprod", "cummax", "cummin", "abs", "clip",
    "round", "corr", "cov", "merge", "join", "map", "where", "mask", "idxmax", "idxmin",
    "argmax", "argmin", "argsort", "reshape", "ravel", "flatten", "transpose", "any",
    "all", "count", "dot", "str", "dt", "cat", "values", "T", "len", "lower", "upper",
    "strip", "split", "contains", "startswith", "endswith", "isin", "between", "nlargest",
    "nsmallest", "rank", "prod", "size", "first", "last", "keys", "items", "get", "squeeze",
    "to_frame", "interpolate", "asfreq", "duplicated", "drop_duplicates", "explode",
    "melt", "pivot", "pivot_table", "stack", "unstack", "assign", "filter", "select_dtypes",
    "add_prefix", "add_suffix", "transform", "apply", "applymap", "nonzero", "mode", "skew",
    "kurt", "sem", "mad", "total_seconds", "to_period", "to_timestamp", "normalize", "floor",
    "ceil", "format", "join", "encode", "decode", "title", "capitalize", "zfill", "find",
    "count_nonzero", "std", "view", "numpy", "detach", "cpu", "float", "long", "int", "type",
    "size", "dim", "shape"})
#: Matplotlib's plots (of ``pyplot`` and of an ``Axes``): they draw what they are given.
_PLOTS = frozenset({"plot", "hist", "hist2d", "boxplot", "violinplot", "scatter", "bar",
                    "barh", "imshow", "matshow", "pie", "fill_between", "errorbar", "step",
                    "stairs", "stem", "hexbin", "contour", "contourf", "pcolormesh", "axhline",
                    "axvline", "semilogy", "semilogx", "loglog", "ecdf", "stackplot"})
#: Seaborn's plots: each draws what it is given, from a copy of the data it takes.
_SEABORN_PLOTS = frozenset({
    "relplot", "scatterplot", "lineplot", "displot", "histplot", "kdeplot", "ecdfplot",
    "rugplot", "catplot", "stripplot", "swarmplot", "boxplot", "violinplot", "boxenplot",
    "pointplot", "barplot", "countplot", "lmplot", "regplot", "residplot", "heatmap",
    "clustermap", "pairplot", "jointplot"})
#: Methods of scikit-learn's estimators that change none of their arguments (the library's
#: contract, which its estimator checks hold every estimator to), where no step of the
#: estimator is set to work in place (``copy=False``).
_SKLEARN_READERS = frozenset({"fit", "partial_fit", "predict", "predict_proba",
                              "predict_log_proba", "decision_function", "score", "transform"})
#: The modules of XGBoost's and LightGBM's scikit-learn estimators (``XGBClassifier``,
#: ``LGBMRegressor``), whose `_SKLEARN_READERS` methods change none of their arguments.
_BOOSTING_ESTIMATORS = frozenset({"xgboost.sklearn", "lightgbm.sklearn"})


def _library_class(value: Any, namespace: Mapping[str, Any]) -> bool:
    """Whether ``value`` is a class of a library (not the notebook's), whose methods called
    on the class itself (``datetime.strptime``, ``pd.Timestamp.fromisoformat``) make new
    objects: they change no value of the cell."""
    try:
        return isinstance(value, type) and \
            value.__module__ not in ("__main__", "builtins", namespace.get("__name__"))
    except Exception:  # noqa: BLE001 - a strange class: it may change itself
        return False


def _library_function(value: Any, namespace: Mapping[str, Any]) -> bool:
    """Whether ``value`` is a library's plain function (``cross_val_score``, ``len``), not
    the notebook's, nor a bound method (whose object a call may change)."""
    try:
        if isinstance(value, types.FunctionType):
            return value.__globals__ is not namespace and \
                value.__module__ not in ("__main__", namespace.get("__name__"))
        return isinstance(value, types.BuiltinFunctionType) and (
            value.__self__ is None or isinstance(value.__self__, types.ModuleType))
    except Exception:  # noqa: BLE001 - a strange function: it may hold state
        return False


def _predicts(chain: list[str], value: Any) -> bool:
    """Whether a call of ``value``'s method ``chain`` (`_calls_in`) is a prediction or a
    score of a fitted estimator, scikit-learn's or a boosting library's scikit-learn one
    (``clf.predict_proba(Xb)``), or a transform (``vec.transform(batch['text'])``: what
    it learned, fit stored), which changes neither the estimator nor its arguments;
    not ``fit``, not a pipeline with a step set to work in place (``copy=False``)."""
    if len(chain) != 1 or chain[0] not in _SKLEARN_READERS - {"fit", "partial_fit"}:
        return False
    try:
        if type(value).__module__.partition(".")[0] not in (
                "sklearn", "xgboost", "lightgbm", "catboost"):
            return False
        return _copies(value.get_params(deep=True))
    except Exception:  # noqa: BLE001 - a strange object: it may change itself
        return False


def _copies(params: Any) -> bool:
    """Whether an estimator of parameters ``params`` (``get_params(deep=True)``) leaves
    what it is given as it was: no step set to work in place (``copy=False``), and no
    function of the notebook's own that a step runs on the data (a `FunctionTransformer`'s
    ``func``, which may change it)."""
    return type(params) is dict and not any(
        (key == "copy" or key.endswith("__copy")) and setting is False or
        (key.rpartition("__")[2] in ("func", "inverse_func") and setting is not None)
        for key, setting in params.items())


#: Functions of ``sklearn.model_selection`` that read their arguments: they fit clones of
#: the estimator they are given (``cross_val_score(knn_pipe(), X, y, cv=5)``) on rows
#: they index out (copies), or split the rows into new arrays.
_MODEL_SELECTION_READERS = frozenset({
    "cross_val_score", "cross_validate", "cross_val_predict", "train_test_split",
    "learning_curve", "validation_curve", "permutation_test_score"})


#: Methods of a pandas frame or series that read the objects they are given and change
#: none of them (``households[d].merge(zone_lookup[d], on='zone_id')``; a mapping's
#: values looked up, ``c['grade'].map(grade_map)``, ``.replace({...})``,
#: ``.astype({'a': int})``; a function handed to ``map`` is the notebook's code, counted
#: as such).
_PANDAS_READERS = frozenset({"merge", "join", "isin", "combine_first", "compare", "align",
                             "reindex_like", "corrwith", "equals", "map", "replace",
                             "rename", "astype", "fillna"})


def _reads_its_arguments(call: ast.Call, namespace: Mapping[str, Any]) -> bool:
    """Whether ``call`` is one of scikit-learn's that only reads its arguments: a function
    of ``sklearn.metrics`` (``accuracy_score(y_va, pred)``), or a `_SKLEARN_READERS`
    method of one of the library's own estimators (``rf.fit(X_tr, y_tr)``: not a class of
    the notebook's), or of XGBoost's or LightGBM's scikit-learn estimators
    (`_BOOSTING_ESTIMATORS`: they train on a copy of what they are given), none of whose
    parameters is ``copy=False``, or of one made there with literal parameters, no
    ``copy`` among them (``LinearRegression().fit(X, y)``); or a splitter's ``split``
    (``kf.split(X, y)``); or one of
    `_MODEL_SELECTION_READERS` (``cross_val_score(model, X, y)``, by its name); or a
    plot of Matplotlib's
    (`_PLOTS`) on its ``pyplot`` or an ``Axes`` (``axes[0].hist(df[col])``), or one of
    Seaborn's (`_SEABORN_PLOTS`), which draws what it is given."""
    try:
        func = call.func
        if isinstance(func, ast.Attribute) and func.attr in _PANDAS_READERS and \
                not any(k.arg == "inplace" for k in call.keywords):
            base = func.value
            while isinstance(base, (ast.Subscript, ast.Attribute)):  # ``households[d]``
                base = base.value
            value = namespace.get(base.id) if isinstance(base, ast.Name) else None
            if type(value) in (dict, list, tuple) and value:  # frames by key, in a list
                value = next(iter(value.values())) if type(value) is dict else value[0]
            if _frame_or_series(value):
                return True
        if isinstance(func, ast.Attribute) and func.attr in _PLOTS:
            base = func.value
            while isinstance(base, ast.Subscript):  # ``axes[0]``, ``axes[i, j]``
                base = base.value
            value = namespace.get(base.id) if isinstance(base, ast.Name) else None
            if isinstance(value, types.ModuleType):
                return value.__name__ == "matplotlib.pyplot"
            if type(value).__module__.partition(".")[0] == "numpy" and \
                    getattr(value, "dtype", None) == object and getattr(value, "size", 0):
                value = value.flat[0]  # the array of Axes plt.subplots made
            return type(value).__module__.startswith("matplotlib.")
        if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name):
            value = namespace.get(func.value.id)
            if isinstance(value, types.ModuleType):
                if value.__name__ == "seaborn":  # ``sns.regplot(data=df, x=col, ax=ax)``
                    return func.attr in _SEABORN_PLOTS
                return value.__name__.startswith("sklearn.metrics") and \
                    inspect.isfunction(getattr(value, func.attr, None))
            module = type(value).__module__
            if module.startswith("sklearn.model_selection") and \
                    func.attr in ("split", "get_n_splits"):
                return True  # a splitter's folds: indices, made from the sizes and labels
            if func.attr not in _SKLEARN_READERS or not (
                    module.startswith("sklearn.") or module in _BOOSTING_ESTIMATORS):
                return False
            return _copies(value.get_params(deep=True))
        if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Call) and \
                isinstance(func.value.func, ast.Name):  # ``LinearRegression().fit(X, y)``
            made, kind = func.value, namespace.get(func.value.func.id)
            module = str(getattr(kind, "__module__", ""))
            return isinstance(kind, type) and func.attr in _SKLEARN_READERS and (
                module.startswith("sklearn.") or module in _BOOSTING_ESTIMATORS) and \
                all(k.arg is not None and k.arg != "copy" for k in made.keywords) and \
                all(_literal(a) for a in [*made.args, *(k.value for k in made.keywords)])
        if isinstance(func, ast.Name):
            value = namespace.get(func.id)
            if _torch_reader(value):
                return True
            module = str(getattr(value, "__module__", ""))
            return inspect.isfunction(value) and (module.startswith("sklearn.metrics") or (
                module.startswith("sklearn.model_selection") and
                value.__name__ in _MODEL_SELECTION_READERS))
    except Exception:  # noqa: BLE001 - a strange object: it may change what it is given
        return False
    return False


def _literal(node: ast.expr) -> bool:
    """Whether ``node`` is a literal (``0.5``, ``"rbf"``, ``(64, 32)``, ``-1``, ``None``)."""
    try:
        ast.literal_eval(node)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return False
    return True


def _torch_reader(value: Any) -> bool:
    """A torch module made of torch's own classes alone, none of which works in place
    (``inplace=True``): called (``net(xb)``, ``loss_fn(logits, yb)``), it reads its
    inputs and changes none of them. No hook of the user's runs in it."""
    torch = sys.modules.get("torch")
    if torch is None or not isinstance(value, torch.nn.Module):
        return False
    for module in value.modules():
        kind = type(module)
        if not kind.__module__.startswith("torch.nn.") or vars(module).get("inplace") or \
                module._forward_pre_hooks or module._forward_hooks:
            return False
    return True


def _cell_position(exc: BaseException, filename: str) -> tuple[int, int, int, int] | None:
    """Where in the cell's own code (not a function's) the crash went through last: the
    (line, end line, column, end column) of the expression that raised or called what did,
    as the interpreter's traceback places it; None where it is not known."""
    found = None
    tb = exc.__traceback__
    while tb is not None:
        code = tb.tb_frame.f_code
        if code.co_filename == filename and code.co_name == "<module>":
            found = (code, tb.tb_lasti)
        tb = tb.tb_next
    if found is None or found[1] < 0:
        return None
    code, lasti = found
    for k, position in enumerate(code.co_positions()):
        if k == lasti // 2:
            return None if None in position else position  # type: ignore[return-value]
    return None


#: What an expression whose shape is its operands' may hold (`Cutter.shapes_kept`).
_SHAPE_ONLY = (ast.Name, ast.Attribute, ast.BinOp, ast.UnaryOp, ast.Constant, ast.Load,
               ast.operator, ast.unaryop)


def _node_at(statement: ast.stmt, raised: tuple[int, int, int, int]) -> ast.expr | None:
    """The expression of ``statement`` spanning exactly ``raised`` (`_cell_position`)."""
    return next((n for n in ast.walk(statement) if isinstance(n, ast.expr)
                 and (n.lineno, n.end_lineno, n.col_offset, n.end_col_offset) == raised), None)


def _array_or_tensor(value: Any) -> bool:
    module, name = type(value).__module__.partition(".")[0], type(value).__name__
    return (module, name) in (("numpy", "ndarray"), ("torch", "Tensor"))


def _codes_of(exc: BaseException) -> Iterator[Any]:
    """The code objects of ``exc``'s traceback, outermost first."""
    tb = exc.__traceback__
    while tb is not None:
        yield tb.tb_frame.f_code
        tb = tb.tb_next


def _updated_in_place(nodes: Iterable[ast.AST], name: str) -> bool:
    """Whether ``nodes`` change ``name`` only by augmented assignment to the bare name
    (in place, for an array) or a store into its items: no rebinding, no ``del``, no
    attribute stored (``w.shape = ...``), no method called on it (``w.resize(...)``)."""
    nodes = list(nodes)
    augmented = {id(child.target) for node in nodes for child in ast.walk(node)
                 if isinstance(child, ast.AugAssign)}
    for node in nodes:
        for child in ast.walk(node):
            if isinstance(child, ast.Name) and child.id == name and isinstance(
                    child.ctx, (ast.Store, ast.Del)) and id(child) not in augmented:
                return False
            if isinstance(child, ast.Attribute) and isinstance(child.value, ast.Name) and \
                    child.value.id == name and (isinstance(child.ctx, (ast.Store, ast.Del))
                                                 or child.attr not in ("T", "shape", "grad")):
                return False
            if isinstance(child, ast.Subscript) and isinstance(child.ctx, ast.Del) and \
                    name in _names_in(child.value):
                return False
    return True


def _receivers(nodes: list[ast.stmt], namespace: Mapping[str, Any]) -> set[str]:
    """The names whose methods ``nodes`` call that may change them: not those that
    make a new object (`_NEW_OBJECT_METHODS`), a prediction, nor a library class's own;
    a module's only through its ``random`` state; nor an immutable value's (`_IMMUTABLE`: a
    compiled pattern's ``match``); nor a torch tensor's ``backward()``,
    which fills the gradients of the graph's leaves and leaves the tensor's data (and
    what it was computed from) as it was. A pandas object's indexer on the way is a
    selection (``events.iloc[pos:pos + size].copy()``: a new frame)."""
    return {name for name, chain, value in _calls_in(nodes, namespace)
            if chain and (not isinstance(value, types.ModuleType) or "random" in chain)
            and not (set(chain) - (_PANDAS_INDEXERS if _frame_or_series(value) else set())
                     <= _NEW_OBJECT_METHODS)
            and not (chain == ["backward"] and _tensor_or_unbound(value))
            and not isinstance(value, _IMMUTABLE)  # ``LINE_RE.match(line)``
            and not _predicts(chain, value)
            and not _library_class(value, namespace)}


#: A pandas object's indexers: what a call through one reads is a selection of it.
_PANDAS_INDEXERS = frozenset({"loc", "iloc", "at", "iat"})


def _about_dtypes(exc: BaseException) -> bool:
    """Whether ``exc`` is torch's or TensorFlow's refusal of a tensor's element type (a
    float64 target for a loss that takes class indices, float64 inputs for float32
    weights): `_kinds._DTYPE_WORDS`."""
    try:
        text = str(exc).lower()
    except Exception:  # noqa: BLE001 - the cell's exception: anything may fail
        return False
    return isinstance(exc, (RuntimeError, TypeError, ValueError)) and \
        any(word in text for word in _DTYPE_WORDS)


def _tensor_or_unbound(value: Any) -> bool:
    """A torch tensor, or nothing yet (a name the cell binds: ``loss = loss_fn(...)``)."""
    return value is None or (type(value).__module__.partition(".")[0] == "torch" and
                             type(value).__name__ in ("Tensor", "Parameter"))


def _changed_after(tree: ast.Module, loop: ast.For, namespace: Mapping[str, Any]) -> set[str]:
    """What the statements of the cell after ``loop`` (a top-level one, or one in a
    top-level ``with``) may change: every name they bind, store into, grow, resize, call a
    method of that may change it or hand to a call, and what shares memory with what they
    change in place (`_viewed_by`). They ran before the loop's skipped iterations did
    (`Cutter.sweep_codes`)."""
    after: list[ast.stmt] = []
    for k, node in enumerate(tree.body):
        if node is loop or (isinstance(node, ast.With) and any(n is loop for n in node.body)):
            if node is not loop:
                place = next(j for j, n in enumerate(node.body) if n is loop)
                after += node.body[place + 1:]
            after += tree.body[k + 1:]
            break
    else:  # not a loop the sweep runs: anything the cell names
        return _names_in(tree)
    return set(_bound_in(after)[0]) | _viewed_by(
        tree, _may_change(after, namespace), namespace)


def _own_values_failed(statement: ast.stmt, raised: tuple[int, int, int, int],
                       known: set[str], made: set[str], cut_nodes: list[ast.stmt],
                       namespace: Mapping[str, Any], swept: bool = False,
                       shaped: set[str] | frozenset[str] = frozenset()) -> bool:
    """Whether the expression of ``statement`` at ``raised`` fails on the last iteration's
    own values (see `Cutter.crashed_in_last_iteration`): it reads only ``known`` names and
    names no cut loop makes (``made``) or calls a method of (a fit, a ``transform`` that
    learnt from the rows skipped; a module's ``random`` state), and the cut loops run none
    of the notebook's own code but its pure functions (`_pure_function`: what they change
    is what they are handed, which ``made`` holds; ``cross_val_score(knn_pipe(), ...)``).
    ``swept``: ``cut_nodes`` is the whole cell, and ``made`` holds already the receivers
    of its methods that may change them (`Cutter._changed_by_cell`). An augmented
    assignment to a name that raised whole (``profile_sum += clean``: numpy's in-place
    add) is judged as the operation it makes of the name and the value. ``shaped``: the
    models whose shapes (and classes) decide the failure, which the loops' calls keep
    (`_shaped_modules`), not counted as changed by them."""
    node = _node_at(statement, raised)
    if node is None and isinstance(statement, ast.AugAssign) and \
            isinstance(statement.target, ast.Name) and (
                statement.lineno, statement.end_lineno, statement.col_offset,
                statement.end_col_offset) == raised:
        node = ast.BinOp(left=ast.Name(id=statement.target.id, ctx=ast.Load()),
                         op=statement.op, right=statement.value)
    if node is None:
        return False
    if _runs_notebook_code(cut_nodes, namespace, pure_ok=True):
        return False  # the notebook's code may change what the loop does not name
    receivers = set() if swept else {  # (a pandas object's methods that make a new one,
        # ``stores.set_index('store_id')``, leave it as it was: ``inplace=`` is `made`'s)
        name for name, chain, value in _calls_in(cut_nodes, namespace)
        if chain and (not isinstance(value, types.ModuleType) or "random" in chain)
        and not _predicts(chain, value) and not (
            _frame_or_series(value) and set(chain) <= _NEW_OBJECT_METHODS | _PANDAS_INDEXERS)}
    return _clean_statement(ast.Expr(value=node), known, made | (receivers - known - shaped),
                            namespace)


def _calls_in(nodes: Iterable[ast.AST], namespace: Mapping[str, Any]
              ) -> list[tuple[str, list[str], Any]]:
    """Each call in ``nodes`` of a name or through one (``enc.partial_fit``): the name,
    the attributes on the way (innermost first), and what the name holds. A call on what
    an estimator's prediction returns (``clf.predict_proba(Xb)[:, 1].mean()``: a new
    array) is not one through the estimator; the prediction is listed on its own. Nor is
    a call on what a library's function returns (``cross_val_score(...).mean()``): through
    the function's name, which no call changes."""
    found = []
    for node in nodes:
        for child in ast.walk(node):
            if not isinstance(child, ast.Call):
                continue
            func, chain = child.func, []
            while isinstance(func, (ast.Attribute, ast.Subscript, ast.Call)):
                if isinstance(func, ast.Attribute):
                    chain.append(func.attr)
                if isinstance(func, ast.Call) and isinstance(func.func, ast.Attribute) and \
                        isinstance(func.func.value, ast.Name) and _predicts(
                            [func.func.attr], namespace.get(func.func.value.id)):
                    break
                if isinstance(func, ast.Call) and isinstance(func.func, ast.Name) and \
                        _library_function(namespace.get(func.func.id, getattr(
                            builtins, func.func.id, None)), namespace):
                    break  # the inner call is listed on its own, with no chain
                func = func.value if not isinstance(func, ast.Call) else func.func
            if isinstance(func, ast.Name):
                found.append((func.id, chain, namespace.get(func.id)))
    return found


def _runs_notebook_code(nodes: Iterable[ast.AST], namespace: Mapping[str, Any],
                        pure_ok: bool = False) -> bool:
    """Whether ``nodes`` call a function of the notebook's or a method of its classes (or
    one that cannot be told), or hand one to a call (``df.apply(f)``); ``pure_ok``: not
    counting the notebook's functions that read
    no global but modules, builtins, constants and such functions, change none, and draw
    no random number (`_pure_function`), nor its classes and their instances whose
    methods are such (`_pure_object`)."""
    nodes = list(nodes)
    values = [value for _, _, value in _calls_in(nodes, namespace)]
    # ...and the notebook's functions handed to a call, to be called (``df.apply(f)``)
    values += [namespace[arg.id] for node in nodes for call in ast.walk(node)
               if isinstance(call, ast.Call)
               for arg in [*call.args, *(k.value for k in call.keywords)]
               if isinstance(arg, ast.Name) and isinstance(namespace.get(arg.id),
                                                           types.FunctionType)]
    if pure_ok:
        pure = [value for value in values if (
            isinstance(value, types.FunctionType) and value.__globals__ is namespace
            and _pure_function(value, namespace, containers_ok=True))]
        read = set().union(*(_containers_read(f, namespace) for f in pure))
        statements = [n for n in nodes if isinstance(n, ast.stmt)]
        changed = _may_change(statements, namespace) | _bound_in(statements)[0] \
            if read else set()
        if any(_read_array(namespace.get(name)) for name in read):
            changed = _viewed_by(None, changed, namespace)  # (a view of it, changed)
        if read & changed:
            return True  # a table of constants or an array the functions read, which the
            # cell changes or binds anew (the functions' calls before and after read others)
        values = [value for value in values if not any(value is f for f in pure)
                  and not _pure_object(value, namespace)]
    codes = _notebook_code(values, namespace)
    return codes is None or bool(codes)


#: How a pure function may read a global list, set or dict of constants (`_pure_function`):
#: ``x in COLD_LANES``, ``for p in PORTS``, ``RATES[k]``, ``RATES.get(k)``.
_READ_ONLY_METHODS = frozenset({"get", "keys", "values", "items", "copy", "count", "index",
                                "issubset", "issuperset", "union", "intersection",
                                "difference", "isdisjoint"})


def _constant_container(value: Any) -> bool:
    """A list, set or dict (of at most 10,000) of constants (`_constant`)."""
    try:
        if type(value) in (list, set) and len(value) <= 10_000:
            return all(_constant(item) for item in value)
        if type(value) is dict and len(value) <= 10_000:
            return all(_constant(k) and _constant(v) for k, v in value.items())
    except Exception:  # noqa: BLE001
        return False
    return False


def _reads_only(instructions: list[Any], at: int, namespace: Mapping[str, Any]) -> bool:
    """Whether the global loaded at ``instructions[at]`` is only read there: a test of
    membership, an iteration, a subscript by a key made of locals and constants (read
    off the stack: a store into it is not), a read-only method, the key of a subscript, an
    argument of a call that only reads it (`_handed_only_to_read`)."""
    after = instructions[at + 1:at + 2]
    if not after or "NULL" in (instructions[at].argrepr or ""):
        return False
    if after[0].opname in ("CONTAINS_OP", "GET_ITER"):
        return True
    if after[0].opname == "BINARY_SUBSCR":
        return True  # the key: ``df[FEATURES]``
    if _handed_only_to_read(instructions, at, namespace):
        return True  # ``pd.DataFrame(X, columns=FEATURES)``, ``df.drop(columns=DROPPED)``
    if after[0].opname in ("LOAD_METHOD", "LOAD_ATTR"):
        return after[0].argval in _READ_ONLY_METHODS
    depth = 1  # the stack above the table: its key is loaded, then it is subscripted
    for instruction in instructions[at + 1:at + 40]:
        name = instruction.opname
        if name in ("LOAD_FAST", "LOAD_CONST", "LOAD_DEREF"):
            depth += 1
        elif name == "BINARY_SUBSCR":
            if depth == 2:
                return True  # the table's own subscript: ``RATES[row['o']]``
            depth -= 1
        elif name in ("BUILD_TUPLE", "BUILD_SLICE") and isinstance(instruction.arg, int):
            depth -= instruction.arg - 1  # (``FEATURES[:3]``: a new list)
        else:
            return False  # a store into it (``RATES[k] = v``), a call: not only read
    return False


def _read_array(value: Any) -> bool:
    """A numpy array (of its own type, not a subclass) of numbers, booleans, dates or
    texts: what a pure function may read as a global (``X @ W``, ``(x - MEAN) / STD``) where
    the cell changes it in no way (`_runs_notebook_code`)."""
    numpy = sys.modules.get("numpy")
    try:
        return numpy is not None and type(value) is numpy.ndarray and \
            value.dtype.kind in "biufcmMUS"
    except Exception:  # noqa: BLE001
        return False


#: What reading an array's attribute gives that holds none of its memory.
_ARRAY_FACTS = frozenset({"shape", "dtype", "ndim", "size", "nbytes", "itemsize"})


def _reads_array_only(instructions: list[Any], at: int) -> bool:
    """Whether the global array loaded at ``instructions[at]`` (`_read_array`) is only
    read there, into a new object: an operand of an operator or comparison (``X @ W``,
    ``W - x``: numpy makes a new array), one of its facts (``W.shape``), ``len(W)``. Not a
    subscript, a method or a call it is handed to: those may make a view of it, or change
    it."""
    after = instructions[at + 1:at + 3]
    if not after or "NULL" in (instructions[at].argrepr or ""):
        return False
    if after[0].opname in ("BINARY_OP", "COMPARE_OP"):
        return True  # its right operand
    if after[0].opname == "LOAD_ATTR":
        return after[0].argval in _ARRAY_FACTS
    if after[0].opname in ("LOAD_FAST", "LOAD_CONST") and len(after) == 2:
        return after[1].opname in ("BINARY_OP", "COMPARE_OP")  # its left operand
    before = instructions[at - 1] if at else None
    return after[0].opname == "PRECALL" and after[0].arg == 1 and before is not None and \
        before.opname == "LOAD_GLOBAL" and before.argval == "len" and \
        "NULL" in (before.argrepr or "")


#: Calls that may change what they are handed, or keep it where it may change later
#: (``rows.append(COLUMNS)``, ``heapq.heappush(QUEUE, x)``, ``random.shuffle(ORDER)``,
#: ``operator.setitem(RATES, k, v)``).
_KEEPERS = frozenset({"append", "extend", "insert", "update", "setdefault", "add",
                      "remove", "discard", "pop", "popitem", "clear", "sort", "reverse",
                      "shuffle", "heappush", "heappop", "heapify", "heapreplace",
                      "heappushpop", "insort", "insort_left", "insort_right", "put", "fill",
                      "setattr", "__setitem__", "__iadd__", "setitem", "delitem", "iadd",
                      "iconcat", "isub", "ior", "iand", "copyto", "place", "putmask"})
#: The loads an argument list may hold besides the handed global, each one value.
_PLAIN_LOADS = frozenset({"LOAD_FAST", "LOAD_CONST", "LOAD_DEREF"})


def _handed_only_to_read(instructions: list[Any], at: int, namespace: Mapping[str, Any]) -> bool:
    """Whether the global loaded at ``instructions[at]`` is an argument of a call whose
    other arguments are plain loads, to a method or to a builtin or library function,
    none of which keeps or changes what it is handed (`_KEEPERS`): ``pd.DataFrame(X,
    columns=FEATURES)``, ``df.drop(columns=DROPPED)``, ``len(FEATURES)``. Not a function
    of the notebook's (it may change its argument)."""
    def plain(instruction: Any) -> bool:
        return instruction.opname in _PLAIN_LOADS or (
            instruction.opname == "LOAD_GLOBAL" and "NULL" not in (instruction.argrepr or ""))

    end = at + 1
    while end < len(instructions) and (plain(instructions[end]) or
                                       instructions[end].opname == "KW_NAMES"):
        end += 1
    start = at - 1
    while start >= 0 and plain(instructions[start]):
        start -= 1
    if end >= len(instructions) or instructions[end].opname != "PRECALL" or start < 0:
        return False
    callee = instructions[start]
    handed = sum(1 for i in instructions[start + 1:end] if i.opname != "KW_NAMES")
    if handed != instructions[end].arg or callee.argval in _KEEPERS:
        return False
    if callee.opname == "LOAD_METHOD":
        return True
    if callee.opname == "LOAD_ATTR":  # ``pd.DataFrame(...)``: a module's class or function
        while start > 0 and instructions[start - 1].opname == "LOAD_ATTR":
            start -= 1
        base = instructions[start - 1] if start else None
        return base is not None and base.opname == "LOAD_GLOBAL" and \
            "NULL" in (base.argrepr or "") and \
            isinstance(namespace.get(base.argval), types.ModuleType)
    if callee.opname != "LOAD_GLOBAL" or "NULL" not in (callee.argrepr or ""):
        return False
    value = namespace.get(callee.argval, _NO_LAST)
    if value is _NO_LAST:
        return callee.argval in vars(builtins)
    return isinstance(value, (type, types.FunctionType, types.BuiltinFunctionType)) and \
        getattr(value, "__module__", None) not in (None, namespace.get("__name__"))


def _containers_read(function: types.FunctionType, namespace: Mapping[str, Any]) -> set[str]:
    """The globals holding a list, set or dict of constants, or an array (`_read_array`),
    that ``function`` (and the notebook's functions it calls) reads (`_pure_function` lets
    it)."""
    import dis

    names: set[str] = set()
    try:
        for code, _calls in reached_code(function.__code__, namespace):
            names |= {i.argval for i in dis.get_instructions(code) if i.opname == "LOAD_GLOBAL"
                      and (_constant_container(value := namespace.get(i.argval, _NO_LAST))
                           or _read_array(value))}
    except Exception:  # noqa: BLE001
        pass
    return names


def _pure_function(function: types.FunctionType, namespace: Mapping[str, Any],
                   containers_ok: bool = False) -> bool:
    """Whether ``function`` (of the notebook's), and the notebook's functions it calls,
    read as globals only modules, builtins, numbers and texts, a library's classes and
    functions (``make_pipeline``, as ``sklearn.pipeline.make_pipeline`` would be read), and
    such functions (``containers_ok``: and lists, sets and dicts of constants that they only
    read, ``x in COLD_LANES``, ``RATES[k]``: `_reads_only`; and numpy arrays they read
    into new ones, ``X @ W``: `_reads_array_only`; `_runs_notebook_code` checks
    that the cell changes none of them), bind or
    delete no global, and draw no random number but from numpy generators they make from
    a seed (`_draws_seeded_only`): what it does depends on its arguments
    alone (which a call may change: those count as handed)."""
    import dis

    try:
        listed = [(code, list(dis.get_instructions(code)))
                  for code, _calls in reached_code(function.__code__, namespace)]
        if not _draws_seeded_only(listed, namespace):
            return False
        for code, instructions in listed:
            for at, instruction in enumerate(instructions):
                if instruction.opname in ("STORE_GLOBAL", "DELETE_GLOBAL"):
                    return False
                if instruction.opname != "LOAD_GLOBAL":
                    continue
                name = instruction.argval
                value = namespace.get(name, _NO_LAST)
                if value is _NO_LAST:
                    if name not in vars(builtins):
                        return False
                elif containers_ok and _constant_container(value):  # a table of
                    if not _reads_only(instructions, at, namespace):  # constants, only read
                        return False
                elif containers_ok and _read_array(value):  # an array read into new ones
                    if not _reads_array_only(instructions, at):
                        return False
                elif not (isinstance(value, (types.ModuleType,) + _IMMUTABLE) or (
                        isinstance(value, types.FunctionType) and value.__globals__ is namespace)
                        or (isinstance(value, types.FunctionType) and  # a library's function,
                            getattr(value, "__module__", None) not in (  # as a module's
                                None, namespace.get("__name__")))
                        or (isinstance(value, type) and  # a library's class
                            value.__module__ != namespace.get("__name__"))
                        or _compiled_function(value)):
                    return False
        return True
    except Exception:  # noqa: BLE001 - code that cannot be read: not known to be pure
        return False


#: numpy's generators made from a seed (``np.random.default_rng(100 + i)``,
#: ``np.random.RandomState(seed)``): what they draw is the seed's alone.
_SEEDED_MAKERS = frozenset({"default_rng", "RandomState"})
#: The instructions that start a call, whose ``PRECALL`` ends it (Python 3.11's bytecode).
_CALL_STARTS = frozenset({"LOAD_METHOD", "PUSH_NULL"})


def _compiled_function(value: Any) -> bool:
    """A library's function compiled to C or Cython, of a module, not bound to an object
    (``from numpy.random import default_rng``, ``from math import sqrt``, numpy's ufuncs);
    not a method of a generator's (``from numpy.random import rand``: the global one's)."""
    kind = type(value)
    if kind is types.BuiltinFunctionType or kind.__name__ == "cython_function_or_method":
        return isinstance(getattr(value, "__self__", None), (types.ModuleType, type(None)))
    numpy = sys.modules.get("numpy")
    return numpy is not None and kind is numpy.ufunc


def _draws_seeded_only(listed: list[tuple[types.CodeType, list[Any]]],
                       namespace: Mapping[str, Any]) -> bool:
    """Whether every random draw in ``listed`` (a function's code objects and their
    instructions, as `reached_code` lists them) is a method of a local that only a seeded
    numpy generator is stored to (``r = np.random.default_rng(100 + i)``, then
    ``r.normal(size=n)``): its numbers depend on the seed alone, as the function's
    arguments make it. A draw from numpy's or Python's global generator, from a generator
    made with no seed or with ``None``, or from one handed in or kept as a global, is not.
    A name counts over all the codes (a local of one function bound otherwise in another,
    or a parameter anywhere: not seeded)."""
    draws = _RANDOM_DRAWS | {"random"}
    seeded: set[str] = set()
    other: set[str] = set()
    made: list[set[int]] = []  # per code: the instructions of its seeded makers
    for code, instructions in listed:
        other |= set(code.co_varnames[:code.co_argcount + code.co_kwonlyargcount])
        own: set[int] = set()
        stores: set[int] = set()
        for at in range(len(instructions)):
            span = _seeded_maker(instructions, at, namespace)
            if span is not None:
                own |= set(range(at, span + 1))
                stores.add(span)
                seeded.add(instructions[span].argval)
        for at, instruction in enumerate(instructions):
            if instruction.opname in ("STORE_FAST", "STORE_DEREF", "DELETE_FAST",
                                      "DELETE_DEREF") and at not in stores:
                other.add(instruction.argval)
        made.append(own)
    generators = seeded - other
    for (_code, instructions), own in zip(listed, made):
        for at, instruction in enumerate(instructions):
            if instruction.argval not in draws or at in own or instruction.opname not in (
                    "LOAD_ATTR", "LOAD_METHOD", "LOAD_GLOBAL", "LOAD_NAME"):
                continue
            before = instructions[at - 1] if at else None
            if instruction.opname == "LOAD_GLOBAL" or before is None or \
                    before.opname not in ("LOAD_FAST", "LOAD_DEREF") or \
                    before.argval not in generators:
                return False
    return True


def _seeded_maker(instructions: list[Any], at: int, namespace: Mapping[str, Any]) -> int | None:
    """Where ``instructions[at]`` begins ``np.random.default_rng(seed)`` (or
    ``RandomState``; by numpy's module, ``numpy.random``, or the name imported from it), or
    the standard library's ``random.Random(seed)``, with an argument that is not ``None``,
    stored into a local: the index of the store; else None."""
    numpy = sys.modules.get("numpy")
    first = instructions[at]
    if first.opname != "LOAD_GLOBAL":
        return None
    value = namespace.get(first.argval, _NO_LAST)
    if value is random.Random or (numpy is not None and any(
            value is getattr(numpy.random, name, None) for name in _SEEDED_MAKERS)):
        if "NULL" not in (first.argrepr or ""):  # ``default_rng(seed)``, imported
            return None
        start = at
    elif value is random:  # ``random.Random(seed)``
        start = at + 1
        if len(instructions) <= start or \
                instructions[start].opname not in ("LOAD_METHOD", "LOAD_ATTR") or \
                instructions[start].argval != "Random" or \
                (instructions[start].opname == "LOAD_ATTR") != ("NULL" in (first.argrepr or "")):
            return None
    elif numpy is None:
        return None
    else:
        start = at + 1  # ``np.random.default_rng``, ``npr.RandomState``
        if value is numpy and len(instructions) > start and \
                instructions[start].opname == "LOAD_ATTR" and \
                instructions[start].argval == "random":
            start += 1
        elif value is not numpy.random:
            return None
        if len(instructions) <= start or \
                instructions[start].opname not in ("LOAD_METHOD", "LOAD_ATTR") or \
                instructions[start].argval not in _SEEDED_MAKERS or \
                (instructions[start].opname == "LOAD_ATTR") != ("NULL" in (first.argrepr or "")):
            return None
    depth, end = 1, None
    for index in range(start + 1, min(len(instructions), start + 200)):
        instruction = instructions[index]
        if instruction.opname in _CALL_STARTS or (instruction.opname == "LOAD_GLOBAL" and
                                                  "NULL" in (instruction.argrepr or "")):
            depth += 1
        elif instruction.opname == "PRECALL":
            depth -= 1
            if depth == 0:
                end = index
                break
    if end is None or not instructions[end].arg or end + 2 >= len(instructions) or \
            instructions[end + 1].opname != "CALL" or \
            instructions[end + 2].opname not in ("STORE_FAST", "STORE_DEREF"):
        return None
    arguments = [i for i in instructions[start + 1:end] if i.opname != "KW_NAMES"]
    if len(arguments) == 1 and arguments[0].opname == "LOAD_CONST" and \
            arguments[0].argval is None:
        return None  # ``default_rng(None)``: fresh entropy
    return end + 2


def _batching(loader: Any) -> tuple[bool, int, int] | None:
    """``(sequential, rows, batch size)`` of a torch ``DataLoader`` whose sampler is a plain
    sequential or shuffled pass over a sized dataset, in batches of two rows or more, its
    last not dropped; else None."""
    try:
        data = sys.modules.get("torch.utils.data")
        if data is None or type(loader) is not data.DataLoader:
            return None
        sampler, batches = loader.sampler, loader.batch_sampler
        if type(batches) is not data.BatchSampler or batches.sampler is not sampler or \
                batches.drop_last or type(batches.batch_size) is not int or \
                batches.batch_size < 2:
            return None
        if type(sampler) is data.RandomSampler:
            if sampler.replacement or sampler._num_samples is not None:
                return None
        elif type(sampler) is not data.SequentialSampler:
            return None
        size = len(loader.dataset)
        return (type(sampler) is data.SequentialSampler, size, batches.batch_size) \
            if type(size) is int else None
    except Exception:  # noqa: BLE001 - a strange loader or dataset: not known to batch so
        return None


def _make_batch(loader: Any, rows: range) -> Any:
    """The batch of the dataset's ``rows``, collated as the loader does."""
    return loader.collate_fn([loader.dataset[i] for i in rows])


def _last_batch(loader: Any) -> Any:
    """The last batch of a torch ``DataLoader`` where it is smaller than the others
    (`_batching`): the dataset's last rows, collated as the loader does. With ``shuffle``
    the real last batch holds other rows, of the same number; else `_NO_LAST`."""
    found = _batching(loader)
    if found is None:
        return _NO_LAST
    sequential, size, batch_size = found
    rest = size % batch_size
    if not rest and not sequential:
        return _NO_LAST  # every batch the same size: nothing new at the end
    try:
        batch = _make_batch(loader, range(size - (rest or batch_size), size))
    except Exception as exc:  # noqa: BLE001 - the rows or their collate failed: in order,
        # the real run's last batch is made of the same rows (`Cutter._batch_rows_own`)
        return _FailedBatch(exc) if sequential and size else _NO_LAST
    return batch if rest else _NO_LAST


#: How long the cut may spend making a sequential loader's skipped batches (collate only,
#: no model): past it, the batches left are not checked.
SKIPPED_BATCHES_S = 1.5


def _pure_loader(loader: Any, namespace: Mapping[str, Any]) -> bool:
    """Whether ``loader`` is a torch ``DataLoader`` whose batches are made by the library's
    collate or the notebook's pure function, of a ``TensorDataset``'s rows or of the
    notebook's pure dataset class (`_pure_object`). A library's other datasets are not
    known to give the same rows (a ``Subset`` of the notebook's dataset may draw)."""
    try:
        data = sys.modules.get("torch.utils.data")
        collate = getattr(sys.modules.get("torch.utils.data._utils.collate"),
                          "default_collate", None)
        if data is None or type(loader) is not data.DataLoader:
            return False
        dataset, collate_fn = loader.dataset, loader.collate_fn
        if not (collate_fn is collate or (isinstance(collate_fn, types.FunctionType) and
                                          collate_fn.__globals__ is namespace and
                                          _pure_function(collate_fn, namespace))):
            return False
        if type(dataset).__module__.partition(".")[0] == "torch":
            return type(dataset) is data.TensorDataset
        if type(dataset) in (list, tuple):  # rows listed by the notebook: plain data?
            return bool(dataset) and all(_row_leaves(row) is not None
                                         for row in (dataset[0], dataset[-1]))
        return _pure_object(dataset, namespace)
    except Exception:  # noqa: BLE001 - a strange loader: not known to be pure
        return False


#: The most rows a dataset that is a plain list may have for `Cutter._batch_rows_own`
#: (each row's arrays are compared with what the cut loops change).
MAX_LISTED_ROWS = 20_000


def _row_leaves(row: Any) -> list[Any] | None:
    """What a row of a dataset listed as a plain list holds, for the library's collate:
    a tensor, an array or a plain value, or a tuple, list or dict of those; else None."""
    torch = sys.modules.get("torch")
    numpy = sys.modules.get("numpy")
    plain = (int, float, bool, str, *((torch.Tensor,) if torch is not None else ()),
             *((numpy.ndarray, numpy.generic) if numpy is not None else ()))
    leaves = list(row.values()) if type(row) is dict else \
        list(row) if type(row) in (tuple, list) else [row]
    return leaves if all(isinstance(leaf, plain) for leaf in leaves) else None


def _skipped_batch_fails(loader: Any, first: int) -> _FailedBatch | None:
    """Make the batches of a sequential loader from batch ``first`` to the one before its
    last (`_last_batch` made that one), as the loader would, for `SKIPPED_BATCHES_S` at
    most: what making the first that fails raised (a row of another length, which the
    default collate cannot stack). The real run makes the same batches of the same rows
    in the same order where `Cutter._batch_rows_own` says so."""
    found = _batching(loader)
    if found is None or not found[0]:
        return None
    _, size, batch_size = found
    ends = time.perf_counter() + SKIPPED_BATCHES_S
    for batch in range(first, -(-size // batch_size) - 1):
        if time.perf_counter() > ends:
            return None
        try:
            _make_batch(loader, range(batch * batch_size, min(size, (batch + 1) * batch_size)))
        except Exception as exc:  # noqa: BLE001 - what the loader raises there
            return _FailedBatch(exc)
    return None


class _FailedBatch:
    """The last batch of a sequential loader, which could not be made: what making it
    raised (`_last_batch`; raised again where the cut loop reaches it)."""

    def __init__(self, exc: BaseException) -> None:
        self.exc = exc


def _owns(body: list[ast.stmt], statement: ast.stmt) -> bool:
    return any(node is statement for node in _own_nodes(body))


def _path_in(body: list[ast.stmt], line: int) -> list[ast.stmt] | None:
    """The statements from one of ``body`` down to the loop at ``line`` (it last), each
    in the one before; None where there is none."""
    for node in body:
        if isinstance(node, (ast.For, ast.While)) and node.lineno == line:
            return [node]
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            continue
        for field_name in ("body", "orelse", "finalbody"):
            inner = getattr(node, field_name, None)
            if isinstance(inner, list) and inner and isinstance(inner[0], ast.stmt):
                found = _path_in(inner, line)
                if found is not None:
                    return [node, *found]
    return None


#: The most items `Cutter._item_alone` compares an item with.
_MOST_ALONE_ITEMS = 2_000


def _array_like(value: Any) -> bool:
    """A numpy array, a pandas frame or series, a torch tensor: what it holds that an
    iteration may change in place is its buffers (`_shares_memory`)."""
    module, name = type(value).__module__.partition(".")[0], type(value).__name__
    return (module, name) in (("numpy", "ndarray"), ("pandas", "DataFrame"),
                              ("pandas", "Series"), ("torch", "Tensor"))


def _shares_memory(first: Any, second: Any) -> bool:
    """Whether two values may hold the same memory: numpy arrays, pandas frames' blocks
    and series' values, torch tensors on the CPU (`np.may_share_memory`); for a tuple or
    list, any item of it. Where it cannot be told: they may."""
    numpy = sys.modules.get("numpy")
    if numpy is None:
        return False

    def arrays(value: Any) -> list[Any]:
        items = list(value) if type(value) in (list, tuple) and len(value) <= 64 else [value]
        found: list[Any] = []
        torch = sys.modules.get("torch")
        for item in items:
            found += _arrays_of(item, numpy)
            if torch is not None and isinstance(item, torch.Tensor):
                found.append(item.detach().cpu().numpy() if item.device.type == "cpu" else item)
        return found
    try:
        return any(a is b or numpy.may_share_memory(a, b)
                   for a in arrays(first) for b in arrays(second))
    except Exception:  # noqa: BLE001 - a strange array: it may share
        return True


def _path_to(loop: ast.For, statement: ast.stmt) -> list[ast.AST]:
    """The compound statements between ``loop`` and ``statement`` (outermost first)."""
    def search(nodes: list[ast.AST], path: list[ast.AST]) -> list[ast.AST] | None:
        for node in nodes:
            if node is statement:
                return path
            if isinstance(node, ast.stmt):
                inner = [c for c in ast.iter_child_nodes(node) if isinstance(c, ast.stmt)
                         or isinstance(c, (ast.ExceptHandler, ast.match_case))]
                found = search(inner, [*path, node])
                if found is not None:
                    return found
            elif isinstance(node, (ast.ExceptHandler, ast.match_case)):
                found = search(list(node.body), [*path, node])
                if found is not None:
                    return found
        return None
    return search(list(loop.body), []) or []


def _rebound_first_in_body(loop: ast.For, path: list[ast.AST], statement: ast.stmt,
                           rebound: list[ast.Name]) -> bool:
    """Whether every rebinding of a target in ``rebound`` is a plain assignment of the
    loop's own body, not the statement that holds ``statement`` there (``df =
    df.copy()`` first thing in the iteration, ``chunk = chunk.sort_values(...)`` after
    it): each iteration then rebinds it once, after the header bound it, never carried
    from one iteration to the next (an ``i += 2`` inside an inner loop or a test is not
    so). Those before the statement must rebind it from the iteration's own values
    (checked by the caller). The statement itself may be such an assignment, of the
    body's top level (``tx = tx.merge(stores, on='store_id')``): its value, which
    raised, reads the target before the statement rebinds it."""
    top = path[0] if path else statement
    if not any(node is top for node in loop.body):
        return False
    plain = {id(n) for node in loop.body if (
                 node is not top or (top is statement and isinstance(node, ast.Assign)))
             and isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign))
             for n in ast.walk(node)}
    return all(id(n) in plain for n in rebound)


def _fresh_in_iteration(loop: ast.For, path: list[ast.AST], statement: ast.stmt,
                        targets: set[str], made: set[str],
                        namespace: Mapping[str, Any],
                        start: frozenset[str] = frozenset(),
                        keep_targets: bool = False) -> set[str]:
    """The names the loop's last iteration binds on its way to ``statement``, before it,
    from the loop's targets and what no cut loop makes (``window = prices.iloc[i - 20:i +
    1]``, then what is bound from those): the real run's same iteration binds them to the
    same values, whatever the cut changed. Only simple statements count; any statement
    that is not so clean unbinds every name it binds or may change in place (`_may_change`:
    stores into, a method that may change it, a call it is handed to). ``start``:
    names known to hold the real run's values as the iteration begins (`Cutter._keyed`).
    ``keep_targets``: the targets the iteration rebinds so are kept too."""
    fresh: set[str] = set(start)
    steps = [*path, statement]
    block: list[ast.stmt] = list(loop.body)
    for k, step in enumerate(steps):
        for node in block:
            if node is step:
                break
            if isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign, ast.Expr)) and \
                    _clean_statement(node, targets | fresh, made, namespace):
                stores = node.targets if isinstance(node, ast.Assign) else \
                    [node.target] if not isinstance(node, ast.Expr) else []
                fresh |= {t.id for t in stores if isinstance(t, ast.Name)} | {
                    e.id for t in stores if isinstance(t, (ast.Tuple, ast.List))
                    for e in t.elts if isinstance(e, ast.Name)}
            else:  # what it binds again or may change in place (not what it only reads:
                # ``user_sessions = sessions[rec['user']]`` leaves ``rec`` the iteration's)
                fresh -= set(_bound_in([node])[0]) | _may_change([node], namespace)
        else:
            return set()  # not on this block's way: nothing is known fresh
        if k + 1 < len(steps):  # the block of the step that holds the next one
            block = next((b for b in (getattr(step, "body", []), getattr(step, "orelse", []))
                          if any(n is steps[k + 1] for n in b)), [])
    return fresh if keep_targets else fresh - targets


def _clean_statement(node: ast.stmt, known: set[str], made: set[str],
                     namespace: Mapping[str, Any]) -> bool:
    """``node`` reads nothing a cut loop makes (but what is ``known`` to be the real run's),
    nor does the notebook's own code it may run: its functions, and the methods of its
    classes (a torch module's ``forward``) of the objects it names."""
    read = _free_reads(node) | (
        _names_in(node.target) if isinstance(node, ast.AugAssign) else set())
    if (read - known) & made or \
            any(isinstance(n, (ast.Yield, ast.YieldFrom, ast.Await)) for n in ast.walk(node)):
        return False
    codes = _notebook_code((namespace.get(name) for name in read - known), namespace)
    if codes is None:
        return False
    names: set[str] = set()
    for code in codes:
        for reached, _calls in reached_code(code, namespace):
            names.update(global_names(reached))
    return not names & made


def _free_reads(node: ast.AST, bound: frozenset[str] = frozenset()) -> set[str]:
    """The names ``node`` reads (or deletes) from its scope: not the targets of its
    comprehensions where they are their own (``times = [t for t, _ in events]`` reads
    ``events`` alone; a comprehension's first iterable is read outside it), nor a
    lambda's parameters in its body."""
    if isinstance(node, ast.Name):
        return {node.id} if not isinstance(node.ctx, ast.Store) and node.id not in bound \
            else set()
    if isinstance(node, (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp)):
        read: set[str] = set()
        inner = bound
        for k, generator in enumerate(node.generators):
            read |= _free_reads(generator.iter, bound if k == 0 else inner)
            inner = inner | _stored(generator.target)
            for test in generator.ifs:
                read |= _free_reads(test, inner)
        parts = [node.key, node.value] if isinstance(node, ast.DictComp) else [node.elt]
        for part in parts:
            read |= _free_reads(part, inner)
        return read
    if isinstance(node, ast.Lambda):
        arguments = node.args
        read = set().union(*(_free_reads(d, bound) for d in [
            *arguments.defaults, *(d for d in arguments.kw_defaults if d is not None)]))
        names = {a.arg for a in [*arguments.posonlyargs, *arguments.args,
                                 *arguments.kwonlyargs]}
        names |= {a.arg for a in (arguments.vararg, arguments.kwarg) if a is not None}
        return read | _free_reads(node.body, bound | names)
    return set().union(*(_free_reads(child, bound) for child in ast.iter_child_nodes(node)))


def _notebook_code(values: Iterable[Any], namespace: Mapping[str, Any]
                   ) -> list[types.CodeType] | None:
    """The code of the notebook's own functions among ``values`` and of the methods of its
    classes they are (a class called runs its ``__init__``) or are instances of (a torch
    module's too, with its submodules'); ``None`` where a class cannot be read without
    running its code."""
    functions = _notebook_functions(values, namespace)
    return None if functions is None else [function.__code__ for function in functions]


def _notebook_functions(values: Iterable[Any], namespace: Mapping[str, Any]
                        ) -> list[types.FunctionType] | None:
    """`_notebook_code`'s functions."""
    found: list[types.FunctionType] = []
    seen: set[int] = set()
    for value in values:
        if isinstance(value, types.FunctionType):
            if value.__globals__ is namespace:
                found.append(value)
            continue
        classes = [value] if isinstance(value, type) else [type(value)]
        modules = _submodules(value)
        if modules is None:
            return None
        classes += [type(m) for m in modules]
        for cls in classes:
            if id(cls) in seen:
                continue
            seen.add(id(cls))
            try:
                mro = type.__getattribute__(cls, "__mro__")
            except Exception:  # noqa: BLE001 - a strange class: not known to be clean
                return None
            for base in mro:
                for member in type.__getattribute__(base, "__dict__").values():
                    member = getattr(member, "__func__", None) if isinstance(
                        member, (classmethod, staticmethod)) else getattr(
                        member, "fget", None) if isinstance(member, property) else member
                    if isinstance(member, types.FunctionType) and \
                            member.__globals__ is namespace:
                        found.append(member)
    return found


def _pure_object(value: Any, namespace: Mapping[str, Any]) -> bool:
    """Whether ``value`` is a class of the notebook's, or an instance of one (a torch
    module it defines), whose methods are pure (`_pure_function`: they read as globals
    only modules, builtins, constants, a library's classes and pure functions, bind no
    global and draw no random number) and, for an instance, store nothing into it
    (`_changes_its_layers`; its ``__init__`` aside, which made it). Calling it, or a
    method of it, changes nothing but what it is handed and its library parts (a batch
    norm's running statistics, as in ``nn.Sequential``)."""
    if isinstance(value, (types.FunctionType, types.ModuleType)):
        return False
    functions = _notebook_functions([value], namespace)
    if not functions:
        return False
    instance = not isinstance(value, type)
    return all((instance and function.__name__ == "__init__") or
               _pure_function(function, namespace) for function in functions) and \
        not (instance and _changes_its_layers(value, namespace))


def _submodules(value: Any) -> list[Any] | None:
    """The modules held by a torch module, however deep (at most 2,000); ``[]`` for what
    is not a torch module, ``None`` past the bound."""
    nn = sys.modules.get("torch.nn")
    if nn is None or not isinstance(value, nn.Module):
        return []
    found, stack = [], [value]
    while stack:
        module = stack.pop()
        children = vars(module).get("_modules")
        for child in (children or {}).values():
            if isinstance(child, nn.Module):
                found.append(child)
                stack.append(child)
                if len(found) > 2000:
                    return None
    return found


#: What a batch's size can break: a shape, a size, a dimension (not a value).
_SIZE_WORDS = ("shape", "size", "dimension", "value per channel", "length")


#: The methods of a torch module that change none of its layers' shapes or dtypes
#: (`_shaped_modules`); ``parameters()`` hands them to an optimizer, whose steps change
#: their values in place.
_MODULE_KEEPS_SHAPES = frozenset({"parameters", "named_parameters", "train", "eval",
                                  "zero_grad", "state_dict", "modules", "children",
                                  "named_modules", "named_children", "buffers",
                                  "named_buffers", "forward"})


def _about_shapes_only(exc: BaseException) -> bool:
    """A crash that the shapes of the values decide, not the values themselves: sizes
    that do not match (`_about_sizes`), a class index out of bounds (``Target 10 is out
    of bounds``), an index past an embedding's rows (torch's ``index out of range in
    self``)."""
    if isinstance(exc, IndexError):
        try:
            message = str(exc)
            return "out of bounds" in message or "index out of range in self" in message
        except Exception:  # noqa: BLE001 - the cell's exception: anything may fail
            return False
    return _about_sizes(exc)


def _about_a_models_shapes(exc: BaseException) -> bool:
    """A crash that a model's shapes decide with the values given to it: sizes
    (`_about_shapes_only`, TensorFlow's ``Matrix size-incompatible``), a label past the
    classes of its output (TensorFlow's ``Received a label value of 5 which is outside
    the valid range of [0, 5)``), a scikit-learn estimator's count or names of features
    (``X has 14 features, but SGDClassifier is expecting 13 features as input``; ``The
    feature names should match those that were passed during fit``), or its classes
    (``classes should include all valid labels that can be in y``: a label that the
    classes its first ``partial_fit`` fixed lack)."""
    if _about_shapes_only(exc):
        return True
    try:
        text = str(exc)
        if any(kind.__name__ == "InvalidArgumentError" and
               kind.__module__.startswith("tensorflow") for kind in type(exc).__mro__):
            return any(word in text.lower() for word in _SIZE_WORDS) or (
                "Received a label value of" in text and "outside the valid range" in text)
        return isinstance(exc, ValueError) and (
            "features as input" in text or "feature names should match" in text or
            "classes should include all valid labels" in text)
    except Exception:  # noqa: BLE001 - the cell's exception: anything may fail
        return False


def _about_shapes_or_casting(exc: BaseException) -> bool:
    """A numpy failure that the operands' shapes or dtypes decide, not their values:
    ``operands could not be broadcast together``, and a ufunc's output that the casting
    rule refuses (``Cannot cast ufunc 'add' output from dtype('float64') to
    dtype('int64')``, an in-place add of floats into an array of ints)."""
    try:
        text = str(exc)
        if isinstance(exc, ValueError):
            return "could not be broadcast" in text
        return isinstance(exc, TypeError) and type(exc).__name__.startswith("UFunc") and \
            type(exc).__module__.partition(".")[0] == "numpy" and "Cannot cast ufunc" in text
    except Exception:  # noqa: BLE001 - the cell's exception: anything may fail
        return False


#: numpy's functions that make a new array (`_kept_in_place`).
_ARRAY_MAKERS = frozenset({"zeros", "ones", "empty", "full", "zeros_like", "ones_like",
                           "empty_like", "full_like", "array", "copy"})
#: What reading an array's attribute leaves it as it is.
_ARRAY_READS = frozenset({"shape", "dtype", "ndim", "size", "T", "copy", "sum", "mean",
                          "max", "min", "std", "astype", "reshape", "round", "tolist"})


def _kept_in_place(names: set[str], tree: ast.Module | None, loop: ast.For,
                   namespace: Mapping[str, Any]) -> set[str]:
    """Of ``names``, those that hold a numpy array the cell changes in place only: bound
    once, by a statement of the cell's top level before ``loop`` that makes a new array
    (`_ARRAY_MAKERS`) and reads none of ``names`` (``profile_sum = np.zeros((1440,
    8))``); then only the
    target of augmented assignments (``profile_sum += clean``) or of an item store
    (``totals[i] = ...``), and otherwise read as an operand, by an index, or through
    `_ARRAY_READS` (never handed to a call, aliased, or put in a container). numpy's
    in-place operations keep an array's shape and dtype, so in any iteration it has the
    shape and dtype it was bound with, in the real run as after a cut."""
    if tree is None:
        return set()
    np = sys.modules.get("numpy")
    if np is None:
        return set()
    position = {id(n): k for k, n in enumerate(tree.body)}
    at = position.get(id(loop))
    if at is None:
        return set()
    parents: dict[int, ast.AST] = {}
    for node in ast.walk(tree):
        for child in ast.iter_child_nodes(node):
            parents[id(child)] = node
    kept: set[str] = set()
    for name in names:
        if type(namespace.get(name)) is not np.ndarray:
            continue
        ok, bound = True, 0
        for node in ast.walk(tree):
            if not (isinstance(node, ast.Name) and node.id == name):
                continue
            parent = parents.get(id(node))
            if isinstance(node.ctx, ast.Del):
                ok = False
            elif isinstance(node.ctx, ast.Store):
                if isinstance(parent, ast.AugAssign):
                    continue
                bound += 1
                value = parent.value if isinstance(parent, ast.Assign) else None
                ok = isinstance(parent, ast.Assign) and parent.targets == [node] and \
                    position.get(id(parent), at) < at and \
                    not _names_in(parent.value) & names and isinstance(value, ast.Call) and \
                    isinstance(value.func, ast.Attribute) and \
                    value.func.attr in _ARRAY_MAKERS and \
                    isinstance(value.func.value, ast.Name) and \
                    namespace.get(value.func.value.id) is np
            elif isinstance(parent, ast.Subscript) and parent.value is node:
                continue  # ``totals[i]``, read or stored: its shape stays
            elif isinstance(parent, ast.Attribute):
                ok = parent.attr in _ARRAY_READS and isinstance(parent.ctx, ast.Load)
            elif isinstance(parent, (ast.BinOp, ast.UnaryOp, ast.Compare)) or \
                    isinstance(parent, ast.AugAssign) and parent.value is node:
                continue
            elif isinstance(parent, ast.Call) and node in parent.args and \
                    isinstance(parent.func, ast.Name) and parent.func.id in ("len", "print"):
                continue
            else:
                ok = False  # handed to a call, aliased, put in a container, returned
            if not ok:
                break
        if ok and bound == 1:
            kept.add(name)
    return kept


def _shaped_modules(names: set[str], tree: ast.Module | None,
                    namespace: Mapping[str, Any], built: frozenset[str] | None = None
                    ) -> set[str]:
    """Of ``names``, those that hold a model whose shapes no use of the cell's changes:
    however many steps trained it, its layers have the shapes and dtypes they had, and it
    takes inputs of the width it took.

    * A torch module (``nn.Module``) the cell only calls and calls `_MODULE_KEEPS_SHAPES`
      methods of (``model.parameters()``, ``model.train()``), whose own class's code does
      not change its layers as it runs (`_changes_its_layers`).
    * A library's Keras model (``keras.Sequential``, a functional one) the cell only
      calls and calls `_KERAS_KEEPS_SHAPES` methods of (``fit``, ``predict``); with
      ``built`` given (a swept iteration), one of those names only: it was built before
      the sweep ran, as the real run's was by then.
    * A scikit-learn estimator the cell calls only `_PARTIAL_FIT_KEEPS_SHAPES` methods of
      (``partial_fit``, ``predict_proba``), and whose learnt values it reads only as
      values (``losses.append(clf.loss_)``; not those `_FIXED_BY_FIRST_FIT`, nor a method
      or a subscript of one): its first ``partial_fit`` fixed its features.

    Each bound at most once, in a statement of its own at the top (``model =
    nn.Sequential(...)``); not one the cell hands to a call, stores into (``model.fc =
    ...``), moves to another dtype (``model.half()``, ``.to(...)``), refits
    (``clf.fit``) or binds in a loop."""
    allowed: dict[str, frozenset[str]] = {}
    for name in names:
        value = namespace.get(name)
        if _torch_module(value) and not _changes_its_layers(value, namespace):
            allowed[name] = _MODULE_KEEPS_SHAPES | {"__call__"}
        elif _keras_model(value) and (built is None or name in built):
            allowed[name] = _KERAS_KEEPS_SHAPES | {"__call__"}
        elif _sklearn_estimator(value):
            allowed[name] = _PARTIAL_FIT_KEEPS_SHAPES
    if tree is None or not allowed:
        return set()
    parents = {id(child): node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}
    top = {id(node) for node in tree.body}
    kept = set(allowed)
    bindings: dict[str, int] = {}
    for node in ast.walk(tree):
        if not isinstance(node, ast.Name) or node.id not in kept:
            continue
        parent = parents.get(id(node))
        if isinstance(node.ctx, ast.Store):
            bindings[node.id] = bindings.get(node.id, 0) + 1
            if not (isinstance(parent, ast.Assign) and id(parent) in top and
                    parent.targets == [node]) or bindings[node.id] > 1:
                kept.discard(node.id)
            continue
        if isinstance(node.ctx, ast.Del):
            kept.discard(node.id)
        elif isinstance(parent, ast.Call) and parent.func is node and \
                "__call__" in allowed[node.id]:
            continue  # ``model(xb)``
        elif isinstance(parent, ast.Attribute) and parent.attr in allowed[node.id] and \
                isinstance(parents.get(id(parent)), ast.Call) and \
                parents[id(parent)].func is parent:
            continue  # ``model.parameters()``
        elif allowed[node.id] is _PARTIAL_FIT_KEEPS_SHAPES and \
                isinstance(parent, ast.Attribute) and isinstance(parent.ctx, ast.Load) and \
                parent.attr.endswith("_") and not parent.attr.startswith("_") and \
                parent.attr not in _FIXED_BY_FIRST_FIT and not isinstance(
                    parents.get(id(parent)), (ast.Attribute, ast.Subscript)):
            continue  # ``losses.append(clf.loss_)``: a value it learnt, read
        else:
            kept.discard(node.id)
    return kept


def _built_models(namespace: Mapping[str, Any] | None) -> frozenset[str]:
    """The names in ``namespace`` that hold a Keras model built (its layers' shapes set)."""
    if namespace is None or "keras" not in sys.modules:
        return frozenset()
    try:
        return frozenset(name for name, value in list(namespace.items())
                         if _keras_model(value) and getattr(value, "built", False) is True)
    except Exception:  # noqa: BLE001 - a strange model: none known built
        return frozenset()


def _torch_module(value: Any) -> bool:
    """Whether ``value`` is a torch ``nn.Module``."""
    torch = sys.modules.get("torch")
    module_type = getattr(getattr(torch, "nn", None), "Module", None)
    return isinstance(module_type, type) and isinstance(value, module_type)


def _steps_weights(value: Any) -> bool:
    """Whether ``value`` is a torch optimizer or learning-rate scheduler: its calls
    (``opt.step()``, ``opt.zero_grad()``, ``sched.step()``) change the values of the
    weights it holds and its own rate, never a shape."""
    torch = sys.modules.get("torch")
    if torch is None:
        return False
    try:
        schedulers = torch.optim.lr_scheduler
        base = getattr(schedulers, "LRScheduler", None) or getattr(schedulers, "_LRScheduler")
        return isinstance(value, (torch.optim.Optimizer, base))
    except Exception:  # noqa: BLE001 - a torch without them: not known
        return False


def _library_layers(value: Any) -> bool:
    """Whether ``value`` is a torch module made of torch's own layers only (``nn.Sequential``
    of ``nn.Linear``...) or a Keras model of Keras' own layers: what shapes its outputs take
    its inputs' shapes decide, whatever its weights hold (a class of the notebook's may
    select rows by their values)."""
    try:
        if _torch_module(value):
            return all(type(m).__module__.startswith("torch.nn.") for m in value.modules())
        return _keras_model(value) and all(
            type(layer).__module__.partition(".")[0] == "keras" for layer in value.layers)
    except Exception:  # noqa: BLE001 - a strange model: its shapes not known
        return False


def _gradients_off(node: ast.With, namespace: Mapping[str, Any]) -> bool:
    """Whether each item of ``node`` is torch's ``no_grad()`` or ``inference_mode()`` (of
    the namespace's torch), bound to no name: it changes no value the cell names."""
    for item in node.items:
        call = item.context_expr
        if item.optional_vars is not None or not isinstance(call, ast.Call) or call.args or \
                call.keywords or not isinstance(call.func, ast.Attribute) or \
                call.func.attr not in ("no_grad", "inference_mode") or \
                not isinstance(call.func.value, ast.Name):
            return False
        module = namespace.get(call.func.value.id)
        if not (isinstance(module, types.ModuleType) and module.__name__ == "torch"):
            return False
    return bool(node.items)


def _keras_model(value: Any) -> bool:
    """Whether ``value`` is a Keras model of the library's own classes (``Sequential``, a
    functional ``Model``), not a subclass of the notebook's, whose ``call`` may change it."""
    keras = sys.modules.get("keras")
    model_type = getattr(keras, "Model", None)
    try:
        return isinstance(model_type, type) and isinstance(value, model_type) and \
            type(value).__module__.partition(".")[0] == "keras"
    except Exception:  # noqa: BLE001 - a strange object: not known to keep its shapes
        return False


def _sklearn_estimator(value: Any) -> bool:
    """Whether ``value`` is an estimator of scikit-learn's own classes."""
    base = getattr(sys.modules.get("sklearn.base"), "BaseEstimator", None)
    try:
        return isinstance(base, type) and isinstance(value, base) and \
            type(value).__module__.partition(".")[0] == "sklearn"
    except Exception:  # noqa: BLE001 - a strange object: not known to keep its shapes
        return False


#: The methods of a library's Keras model that change none of its layers' shapes: they
#: train or run it (a model built takes inputs of the width it was built for).
_KERAS_KEEPS_SHAPES = frozenset({"fit", "predict", "evaluate", "train_on_batch",
                                 "test_on_batch", "predict_on_batch", "compile", "summary",
                                 "count_params", "get_weights", "save", "save_weights"})
#: The methods of a scikit-learn estimator that leave the features and classes its first
#: ``partial_fit`` fixed (``fit`` sets them anew).
_PARTIAL_FIT_KEEPS_SHAPES = frozenset({"partial_fit", "predict", "predict_proba",
                                       "predict_log_proba", "decision_function", "score",
                                       "transform", "get_params"})
#: What an estimator's first ``partial_fit`` fixes: read whole by the cell (handed on,
#: subscripted), it could be changed in place (`_shaped_modules`).
_FIXED_BY_FIRST_FIT = frozenset({"classes_", "feature_names_in_", "n_features_in_"})


#: The methods of a torch module that change its layers, their dtypes or devices.
_MODULE_CHANGES_LAYERS = frozenset({"half", "float", "double", "bfloat16", "to", "type", "cuda",
                                    "cpu", "apply", "add_module", "register_module",
                                    "register_parameter", "register_buffer",
                                    "load_state_dict", "_apply"})


def _changes_its_layers(module: Any, namespace: Mapping[str, Any]) -> bool:
    """Whether calling the torch ``module`` may change its layers: a method of the
    notebook's own classes among its modules' (a ``forward``, and what it calls), but
    ``__init__``, stores or deletes an attribute, calls ``setattr``, or calls on ``self``
    (or a layer of it) a method that changes layers (``self.fc.half()``,
    ``self.add_module(...)``); or its classes cannot be read. A library's own module
    (``nn.Sequential``, ``nn.Linear``) changes none in its call."""
    import dis

    codes = _notebook_code([module], namespace)
    if codes is None:
        return True
    try:
        for method in codes:
            if method.co_name == "__init__":
                continue
            for code, _calls in reached_code(method, namespace):
                if {"setattr", "delattr", "__setattr__", "__dict__"} & set(code.co_names):
                    return True
                own = code.co_varnames[0] if code.co_argcount else None
                on_self = False
                for instruction in dis.get_instructions(code):
                    if instruction.opname in ("STORE_ATTR", "DELETE_ATTR"):
                        return True
                    if instruction.opname in ("LOAD_ATTR", "LOAD_METHOD") and on_self:
                        if instruction.argval in _MODULE_CHANGES_LAYERS:
                            return True
                        continue  # ``self.fc`` then ``.half``: still on the module
                    on_self = instruction.opname == "LOAD_FAST" and instruction.argval == own
        return False
    except Exception:  # noqa: BLE001 - code that cannot be read: it may change them
        return True


def _about_sizes(exc: BaseException) -> bool:
    """A crash about sizes or shapes (``view`` of the wrong size, batch sizes that do not
    match, batch norm on one row): what a smaller last batch causes."""
    if not isinstance(exc, (RuntimeError, ValueError, IndexError)):
        return False
    try:
        text = str(exc).lower()
    except Exception:  # noqa: BLE001 - the cell's exception: anything may fail
        return False
    return any(word in text for word in _SIZE_WORDS)


def _reads_past_the_end(statement: ast.stmt, targets: set[str], made: set[str],
                        sized: set[str], namespace: Mapping[str, Any],
                        fresh: set[str] | frozenset[str] = frozenset()) -> bool:
    """Whether ``statement`` indexes with ``targets`` (``x[i + 1]``, or a name `fresh` in
    this iteration from them) and each of its subscripts and calls gives the same result
    in the real run's same iteration: every subscript into a container no cut loop makes
    (or one `sized` as ever, or `fresh`), at an index of the targets and names no cut loop
    makes (calls there: `_INDEX_BUILTINS` only); every call the notebook's own code (which
    may read what the cut changed) does not define, on such names, or a method that grows
    a container (``out.append(...)``)."""
    def free(node: ast.AST) -> bool:
        return not (_names_in(node) - targets) & made

    indexes = False
    checked: set[int] = set()  # the names and calls of the subscripts' indices
    roots: set[int] = set()  # the containers' names
    for sub in (n for n in ast.walk(statement) if isinstance(n, ast.Subscript)):
        base = sub.value
        while isinstance(base, (ast.Subscript, ast.Attribute)) or (  # ``axes.flatten()[i]``
                isinstance(base, ast.Call) and isinstance(base.func, ast.Attribute) and free(base)):
            base = base.func.value if isinstance(base, ast.Call) else base.value
        if not isinstance(base, ast.Name) or base.id in targets or \
                (base.id in made and base.id not in sized):
            return False  # a function's result, or a container the cut made or resized
        roots.add(id(base))
        if not free(sub.slice):
            return False
        for node in ast.walk(sub.slice):
            checked.add(id(node))
            if isinstance(node, (ast.Lambda, ast.NamedExpr, ast.Await)) or \
                    isinstance(node, ast.Call) and not (
                        isinstance(node.func, ast.Name) and node.func.id in _INDEX_BUILTINS
                        and node.func.id not in namespace):
                return False
        indexes = indexes or bool(_names_in(sub.slice) & (targets | fresh))
    for call in (n for n in ast.walk(statement) if isinstance(n, ast.Call) and id(n) not in checked):
        func = call.func
        grows = False
        if isinstance(func, ast.Name):
            value = namespace.get(func.id)
            if func.id in made or isinstance(value, types.FunctionType) and \
                    value.__globals__ is namespace:
                return False  # the notebook's own function may read what the cut changed
        elif isinstance(func, ast.Attribute):
            base = func.value
            while isinstance(base, (ast.Subscript, ast.Attribute)):
                base = base.value
            if isinstance(base, ast.Name) and base.id in made - sized - targets:
                if func.attr not in _SAFE_GROWERS:
                    return False
                grows = True
        if not grows and any(isinstance(n, ast.Name) and n.id in made - targets
                             and id(n) not in roots
                             for arg in [*call.args, *(k.value for k in call.keywords)]
                             for n in ast.walk(arg)):
            return False
    return indexes


def _resized_in(nodes: list[ast.stmt]) -> set[str]:
    """The names these loops resize by a method no grower list knows: a call with an
    ``inplace`` argument (``df.drop(i, inplace=True)``), numpy's ``resize``."""
    names = set()
    for node in nodes:
        for call in ast.walk(node):
            if isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute) and (
                    call.func.attr == "resize" or any(k.arg == "inplace" for k in call.keywords)):
                names |= _receiver_base(call.func.value)
    return names


def _assigned_from(tree: ast.Module | None, name: str, made: set[str]) -> bool:
    """Whether the cell binds ``name`` itself (not an item of it) from what a cut loop made."""
    def bound(target: ast.AST) -> set[str]:
        if isinstance(target, ast.Name):
            return {target.id}
        if isinstance(target, (ast.Tuple, ast.List)):
            return set().union(*(bound(e) for e in target.elts))
        return bound(target.value) if isinstance(target, ast.Starred) else set()

    for node in ast.walk(tree) if tree is not None else ():
        if isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign)) and node.value is not None:
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            value = node.value
        elif isinstance(node, (ast.For, ast.AsyncFor)):
            targets, value = [node.target], node.iter
        elif isinstance(node, ast.NamedExpr):
            targets, value = [node.target], node.value
        else:
            continue
        if name in set().union(*(bound(t) for t in targets)) and _names_in(value) & made:
            return True
    return False


def _fixed_size(value: Any) -> bool:
    """An item's store cannot resize it: a list, a numpy array, a torch tensor."""
    if type(value) is list:
        return True
    module = type(value).__module__.partition(".")[0]
    return (module == "numpy" and type(value).__name__ == "ndarray") or \
        (module == "torch" and type(value).__name__ in ("Tensor", "Parameter"))


def _store_keeps_rows(store: ast.Subscript, value: Any, target: str | None,
                      labels: range | None) -> bool:
    """A store into a pandas frame or series that adds no row: by position, or at the loop's
    own row label where every label of the loop's ``range`` is in the index already."""
    module = type(value).__module__.partition(".")[0]
    if module != "pandas" or type(value).__name__ not in ("DataFrame", "Series") or \
            not isinstance(store.value, ast.Attribute) or store.value.value is None or \
            not isinstance(store.value.value, ast.Name):
        return False
    how = store.value.attr
    if how in ("iloc", "iat"):
        return True
    if how not in ("loc", "at") or target is None or labels is None:
        return False
    key = store.slice.elts[0] if isinstance(store.slice, ast.Tuple) and store.slice.elts \
        else store.slice
    if not (isinstance(key, ast.Name) and key.id == target):
        return False
    try:
        index = value.index
        return bool(index.is_unique) and len(labels) <= len(index) and \
            bool(index.isin(labels).sum() == len(labels))
    except Exception:  # noqa: BLE001 - whatever the index is: not known to keep its rows
        return False


#: Methods that grow a container without reading past its end: a list a cut loop keeps
#: shorter still takes them as the real run's does.
_SAFE_GROWERS = frozenset({"append", "extend", "add", "update", "insert", "setdefault",
                           "appendleft", "extendleft"})
#: Calls an index may make and still read only what it is given.
_INDEX_BUILTINS = frozenset({"len", "min", "max", "int", "abs", "round"})


#: Attributes, methods and keyword arguments that count a fit's epochs, trees or rounds.
ITERATION_WORDS = frozenset({
    "history", "epoch", "estimators_", "estimator_weights_", "estimator_errors_",
    "n_iter_", "n_estimators_", "loss_curve_", "validation_scores_", "train_score_",
    "oob_improvement_", "oob_scores_", "staged_predict", "staged_predict_proba",
    "staged_decision_function", "staged_score", "evals_result", "evals_result_",
    "best_iteration", "best_iteration_", "best_ntree_limit", "best_score", "best_score_",
    "iteration_range", "ntree_limit", "num_iteration", "start_iteration", "num_trees",
    "num_boosted_rounds", "get_booster", "booster_", "trees_to_dataframe", "get_dump",
    "tree_count_", "get_best_iteration", "get_evals_result",
})


def _reads_iterations(node: ast.AST) -> bool:
    """Whether ``node`` reads an attribute or passes a keyword of `ITERATION_WORDS`."""
    return any(isinstance(n, ast.Attribute) and n.attr in ITERATION_WORDS
               or isinstance(n, ast.keyword) and n.arg in ITERATION_WORDS
               for n in ast.walk(node))


def _about_autograd(exc: BaseException) -> bool:
    try:
        return "grad" in str(exc).lower()
    except Exception:  # noqa: BLE001 - the cell's exception: anything may fail
        return True


def _missing_file(exc: BaseException) -> bool:
    if isinstance(exc, FileNotFoundError):
        return True
    text = str(exc).lower() if isinstance(exc, (OSError, RuntimeError)) else ""
    return "non-existent directory" in text or ("directory" in text and "does not exist" in text)


def _names_in(node: ast.AST | None) -> set[str]:
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name)} if node is not None else set()


def _stored(target: ast.AST) -> set[str]:
    """The names a store binds or changes: ``x``, ``a, b``, the base of ``d[k]``, ``o.attr``
    (not the key's names: ``scores[months[i]] = auc`` changes ``scores`` alone)."""
    if isinstance(target, ast.Name):
        return {target.id}
    if isinstance(target, (ast.Tuple, ast.List)):
        return set().union(*(_stored(e) for e in target.elts))
    if isinstance(target, ast.Starred):
        return _stored(target.value)
    if isinstance(target, (ast.Subscript, ast.Attribute)):
        return _receiver_base(target.value)
    return _names_in(target)


def _keys_of(target: ast.AST) -> set[str]:
    """The names a store's target reads but does not bind or change: its keys (``k`` of
    ``seen[k] = 1``), not the other names of a tuple it unpacks into."""
    return _names_in(target) - _stored(target)


def _propagate(tree: ast.Module | None, tainted: set[str]) -> set[str]:
    """``tainted`` plus every name the cell binds or grows from a tainted one (``full =
    pd.concat(frames)``, ``df['score'] = scores``, ``out.append(best)``), to a fixpoint;
    statement order is ignored (a conservative reading)."""
    if tree is None or not tainted:
        return tainted
    flows: list[tuple[set[str], set[str]]] = []
    for node in ast.walk(tree):
        # a store's keys reach what it stores into (``seen[key] = 1``)
        if isinstance(node, ast.Assign):
            flows.append((_names_in(node.value) | set().union(*(
                _keys_of(t) for t in node.targets)), set().union(*(_stored(t) for t in node.targets))))
        elif isinstance(node, (ast.AugAssign, ast.AnnAssign)) and node.value is not None:
            flows.append((_names_in(node.value) | _names_in(node.target), _stored(node.target)))
        elif isinstance(node, (ast.For, ast.AsyncFor)):
            flows.append((_names_in(node.iter) | _keys_of(node.target), _stored(node.target)))
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and \
                node.func.attr in _GROWERS:
            base = node.func.value
            while isinstance(base, (ast.Subscript, ast.Attribute)):
                base = base.value
            if isinstance(base, ast.Name):
                args = set().union(*(_names_in(a) for a in [*node.args, *node.keywords]))
                flows.append((args, {base.id}))
    return _reached(flows, tainted)


def _reached(flows: list[tuple[set[str], set[str]]], seeds: set[str]) -> set[str]:
    """``seeds`` plus, for each flow ``(trigger, reached)`` whose trigger names one of
    them, the names it reaches, to a fixpoint."""
    result = set(seeds)
    grown = True
    while grown:
        grown = False
        for trigger, reached in flows:
            if trigger & result and not reached <= result:
                result |= reached
                grown = True
    return result


def _without(tree: ast.Module, statement: ast.stmt) -> ast.Module:
    """``tree`` without ``statement``, one of its top level or of the body of a ``with``
    there."""
    body: list[ast.stmt] = []
    for node in tree.body:
        if node is statement:
            continue
        if isinstance(node, ast.With) and any(m is statement for m in node.body):
            rest = [m for m in node.body if m is not statement]
            if rest:
                body.append(ast.With(items=node.items, body=rest, type_comment=None))
            continue
        body.append(node)
    return ast.Module(body=body, type_ignores=[])


def _statement_at(tree: ast.Module | None, line: int | None) -> ast.stmt | None:
    """The innermost simple statement of the cell that spans ``line``."""
    if tree is None or line is None:
        return None
    best = None
    for node in ast.walk(tree):
        if isinstance(node, ast.stmt) and not isinstance(
                node, (ast.For, ast.While, ast.If, ast.With, ast.Try, ast.FunctionDef,
                       ast.AsyncFunctionDef, ast.ClassDef, ast.AsyncFor, ast.AsyncWith)):
            end = getattr(node, "end_lineno", node.lineno) or node.lineno
            if node.lineno <= line <= end:
                best = node
    if best is None:  # the crash is in a loop or if header: take its test
        for node in ast.walk(tree):
            if isinstance(node, (ast.For, ast.While, ast.If)) and node.lineno == line:
                test = node.iter if isinstance(node, ast.For) else node.test
                return ast.copy_location(ast.Expr(value=test), test)
    return best


def _header_of(loop: ast.AST, statement: ast.stmt | None) -> ast.stmt | None:
    """The loop or ``if`` within ``loop`` whose header ``statement`` is (`_statement_at`
    makes an expression of a header's test: it stands in no body), else None."""
    if not isinstance(statement, ast.Expr):
        return None
    for node in ast.walk(loop):
        if isinstance(node, ast.For) and node.iter is statement.value or \
                isinstance(node, (ast.While, ast.If)) and node.test is statement.value:
            return node if node is not loop else None
    return None


def _bound_by_calls(tree: ast.Module | None, functions: set[str]) -> set[str]:
    """Names the cell binds from a statement that calls one of ``functions``."""
    names: set[str] = set()
    if tree is None or not functions:
        return names
    for node in ast.walk(tree):
        if isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign)):
            calls = {c.func.id for c in ast.walk(node) if isinstance(c, ast.Call)
                     and isinstance(c.func, ast.Name)}
            if calls & functions:
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                for target in targets:
                    names |= {n.id for n in ast.walk(target) if isinstance(n, ast.Name)}
    return names


# ---- library calls that loop inside -------------------------------------------------------

#: scikit-learn's iteration parameters and what a fast-forwarded fit keeps of them.
SKLEARN_CAPS = {"n_estimators": 2, "max_iter": 2, "n_iter": 2, "n_init": 1}


#: The modules `cap_libraries` looks for, by the package a cell imports.
_CAPPED_MODULES = {"sklearn": "sklearn.base", "xgboost": "xgboost", "lightgbm": "lightgbm",
                   "catboost": "catboost", "keras": "keras", "tf_keras": "tf_keras",
                   "tensorflow": "tensorflow"}


def _capped_imports(tree: ast.Module | None) -> list[str]:
    """The modules of `_CAPPED_MODULES` whose packages the cell imports at its top level."""
    wanted: list[str] = []
    for node in tree.body if tree is not None else ():
        names = [a.name for a in node.names] if isinstance(node, ast.Import) else \
            [node.module] if isinstance(node, ast.ImportFrom) and node.module and \
            not node.level else []
        for name in names:
            module = _CAPPED_MODULES.get(name.partition(".")[0])
            if module is not None and module not in wanted:
                wanted.append(module)
    return wanted


def import_capped(tree: ast.Module | None) -> None:
    """Load the libraries whose fits `cap_libraries` cuts that the cell imports (at its
    top level) and the kernel has not loaded yet (``from sklearn.ensemble import ...`` in
    the cell that fits): the cell would load them a moment later, and loaded first, its
    fits are cut from the start. ``tensorflow`` brings its Keras where the cell names it.
    What fails to load is left to the cell, which raises it itself."""
    for module in _capped_imports(tree):
        if module in sys.modules:
            continue
        try:
            imported = importlib.import_module(module)
            if module == "tensorflow" and "keras" in _names_in(tree) | {
                    a.name for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)
                    for a in n.names}:
                getattr(imported, "keras", None)  # its lazy Keras, loaded as the cell will
        except Exception:  # noqa: BLE001 - the cell raises it itself, where it imports it
            continue


def cap_libraries(cutter: Cutter, namespace: dict[str, Any] | None = None) -> None:
    """Keras ``fit`` runs one epoch of at most two steps (its input checks, its first
    batches, its callbacks' first calls); ``evaluate`` and ``predict`` are left whole (their
    results' sizes are read by the cells that follow). A scikit-learn fit keeps at most
    `SKLEARN_CAPS` of its iterations (`_cap_sklearn`); XGBoost, LightGBM and CatBoost
    train `BOOSTING_ROUNDS` rounds (`_cap_boosting`). ``namespace`` is the cell's: a
    training function it imported by name (``from xgboost import train``) is capped there
    too."""
    _cap_sklearn(cutter)
    _cap_boosting(cutter, namespace)
    for module_name in ("keras", "tf_keras"):
        module = sys.modules.get(module_name)
        model = getattr(getattr(module, "Model", None), "fit", None) and module.Model
        if model is None or getattr(model.fit, "_crashpredict_capped", False):
            continue
        original = model.fit

        def fit(self: Any, *args: Any, _original: Any = original, _module: Any = module,
                **kwargs: Any) -> Any:
            if cutter.whole:  # a swept iteration's fit: as the real one's
                return _original(self, *args, **kwargs)
            try:
                bound = inspect.signature(_original).bind(self, *args, **kwargs)
            except TypeError:  # let Keras say what is wrong with the call
                return _original(self, *args, **kwargs)
            arguments = bound.arguments
            extra = arguments.get("kwargs") if isinstance(arguments.get("kwargs"), dict) else arguments
            epochs = arguments.get("epochs", extra.get("epochs", 1))
            if isinstance(epochs, int) and epochs > 1:
                cutter.note_library_cut(f"Keras fit: ran 1 of {epochs:,} epochs, 2 steps",
                                        once=False)
                cutter.library_scale = max(cutter.library_scale, float(epochs))
                (arguments if "epochs" in arguments else extra)["epochs"] = 1
                steps = arguments.get("steps_per_epoch", extra.get("steps_per_epoch"))
                if steps is None and not _is_generator(arguments.get("x")):
                    extra["steps_per_epoch"] = 2
                rate = _learning_rate(self)
                result = _original(*bound.args, **bound.kwargs)
                cutter.cut_outputs.append(result)
                failure = _scheduled_failure(
                    _module, self, arguments.get("x"), steps,
                    arguments.get("callbacks", extra.get("callbacks")),
                    arguments.get("initial_epoch", extra.get("initial_epoch", 0)), epochs,
                    rate, cutter, namespace)
                if failure is not None:
                    cutter.scheduled_failure = failure
                    raise failure
                return result
            return _original(*bound.args, **bound.kwargs)

        fit._crashpredict_capped = True  # type: ignore[attr-defined]
        try:
            model.fit = fit
        except (AttributeError, TypeError):
            pass


#: Keras callbacks that neither stop a fit early nor change its learning rate.
_QUIET_CALLBACKS = frozenset({"ModelCheckpoint", "CSVLogger", "ProgbarLogger", "History",
                              "TensorBoard", "BackupAndRestore"})


def _learning_rate(model: Any) -> float | None:
    """The learning rate of a compiled Keras model's optimizer, as a number; else None."""
    try:
        import numpy

        return float(numpy.asarray(model.optimizer.learning_rate))
    except Exception:  # noqa: BLE001 - a schedule object, no optimizer yet: not known
        return None


def _scheduled_failure(module: Any, model: Any, x: Any, steps: Any, callbacks: Any,
                       initial_epoch: Any, epochs: int, rate: float | None, cutter: Cutter,
                       namespace: Mapping[str, Any] | None) -> BaseException | None:
    """What a cut Keras fit's ``LearningRateScheduler`` raises at the start of an epoch
    the cut skipped (``lr_plan[epoch]`` past the plan's end at the 11th epoch of 12), its
    ``on_epoch_begin`` called for each epoch in turn from the rate the fit began with, as
    the real fit calls it; else None (and the optimizer's rate is as the cut fit left
    it). Only where the real fit reaches every epoch with that rate: its data an array
    (no generator or dataset that may run out), its only other callbacks ones that
    neither stop it nor change the rate (`_QUIET_CALLBACKS`), and the schedule a pure
    function of the notebook's (`_pure_function`: what it returns is its arguments') that
    reads no table the cell changes."""
    try:
        listed = list(callbacks) if isinstance(callbacks, (list, tuple)) else None
        scheduler = getattr(getattr(module, "callbacks", None), "LearningRateScheduler", None)
        if not listed or rate is None or namespace is None or not isinstance(scheduler, type) \
                or cutter.cell_tree is None or not hasattr(x, "shape") or steps is not None \
                or type(initial_epoch) is not int or not 0 <= initial_epoch < epochs:
            return None
        schedulers = [c for c in listed if type(c) is scheduler]
        if len(schedulers) != 1 or any(
                type(c) is not scheduler and (type(c).__name__ not in _QUIET_CALLBACKS or
                                              not type(c).__module__.startswith(module.__name__))
                for c in listed):
            return None
        callback = schedulers[0]
        schedule = callback.schedule
        if not isinstance(schedule, types.FunctionType) or schedule.__globals__ is not namespace \
                or not _pure_function(schedule, namespace, containers_ok=True) or \
                _runs_notebook_code(cutter.cell_tree.body, namespace, pure_ok=True) or \
                getattr(callback, "model", None) is not model:
            return None
        model.optimizer.learning_rate = rate
        for epoch in range(initial_epoch, epochs):
            try:
                callback.on_epoch_begin(epoch)
            except Exception as exc:  # noqa: BLE001 - the schedule's failure: the real one's
                return exc
    except Exception:  # noqa: BLE001 - a strange callback or model: nothing known
        return None
    return None


def _is_generator(x: Any) -> bool:
    return isinstance(x, types.GeneratorType)


def _cap_sklearn(cutter: Cutter) -> None:
    """Every scikit-learn fit validates its parameters first (``_validate_params``, called
    by the ``_fit_context`` of each ``fit``, ``partial_fit``, ``fit_transform``): after that
    check has passed on the user's values, ``n_estimators``, ``max_iter``, ``n_iter`` and
    ``n_init`` are cut to `SKLEARN_CAPS`, so the fit takes the same code path and runs the
    same data checks on the same data, with fewer trees, epochs or restarts. Nested fits
    (a Pipeline's steps, a search's candidates, an ensemble's members) are cut too. A
    ``warm_start`` estimator is left whole (fewer estimators than it holds is an error)."""
    base = sys.modules.get("sklearn.base")
    estimator = getattr(base, "BaseEstimator", None)
    validate = getattr(estimator, "_validate_params", None)
    if validate is None or getattr(validate, "_crashpredict_capped", False):
        return

    def _validate_params(self: Any, *args: Any, **kwargs: Any) -> Any:
        result = validate(self, *args, **kwargs)  # the user's values, checked as ever
        try:
            if not cutter.whole:  # a swept iteration's fit: whole, as the real one's
                _cap_estimator(self, cutter)
        except Exception:  # a strange estimator: it fits whole
            pass
        return result

    _validate_params._crashpredict_capped = True  # type: ignore[attr-defined]
    try:
        estimator._validate_params = _validate_params
    except (AttributeError, TypeError):
        pass


def _cap_estimator(model: Any, cutter: Cutter) -> None:
    attributes = vars(model)
    if attributes.get("warm_start") is True:
        return
    for name, cap in SKLEARN_CAPS.items():
        value = attributes.get(name)
        if type(value) is not int or value <= cap:
            continue
        setattr(model, name, cap)
        # the scale stays: a whole run may still fit
        cutter.note_library_cut(f"{type(model).__name__} fit: {name} cut to {cap} of {value:,}")


#: Rounds (trees) a fast-forwarded gradient boosting fit keeps.
BOOSTING_ROUNDS = 2

#: The training functions of the gradient boosting libraries: (module, function, the
#: argument that counts rounds, its default). The libraries' own scikit-learn wrappers
#: (``XGBClassifier.fit``, ``LGBMRegressor.fit``) call these, so they are cut too.
_BOOSTING_TRAINERS = (("xgboost.training", "train", "num_boost_round", 10),
                      ("xgboost.training", "cv", "num_boost_round", 10),
                      ("lightgbm.engine", "train", "num_boost_round", 100),
                      ("lightgbm.engine", "cv", "num_boost_round", 100))

#: LightGBM reads its rounds from ``params`` first, under any of these names.
_LIGHTGBM_ROUNDS = ("num_iterations", "num_iteration", "n_iter", "num_tree", "num_trees",
                    "num_round", "num_rounds", "nrounds", "num_boost_round", "n_estimators",
                    "max_iter")


def _cap_boosting(cutter: Cutter, namespace: dict[str, Any] | None) -> None:
    """A gradient boosting fit trains `BOOSTING_ROUNDS` rounds: the same data conversion
    and parameter checks, the same first rounds on the same data, with fewer trees. The
    time the cut call took tells how much longer the whole fit would take at least
    (`Cutter.library_extra_s`), so the parent knows whether the whole cell can still run."""
    for module_name, function_name, argument, default in _BOOSTING_TRAINERS:
        module = sys.modules.get(module_name)
        original = getattr(module, function_name, None)
        if original is None or getattr(original, "_crashpredict_capped", False):
            continue
        library = module_name.partition(".")[0]
        capped = _capped_trainer(original, cutter, f"{_LIBRARY_NAMES[library]} {function_name}",
                                 argument, default, library == "lightgbm")
        _rebind(library, original, capped, namespace)
    catboost = sys.modules.get("catboost.core")
    model = getattr(catboost, "CatBoost", None)
    train = getattr(model, "_train", None)
    if train is not None and not getattr(train, "_crashpredict_capped", False):
        def _train(self: Any, pool: Any, test_pool: Any, params: Any, *args: Any,
                   **kwargs: Any) -> Any:
            rounds = None
            if isinstance(params, dict) and not cutter.whole:
                rounds = params.get("iterations", 1000)  # CatBoost's default
                if type(rounds) is int and rounds > BOOSTING_ROUNDS:
                    params = {**params, "iterations": BOOSTING_ROUNDS}
                else:
                    rounds = None
            return _capped_rounds(cutter, "CatBoost fit", "iterations", rounds, train,
                                  (self, pool, test_pool, params, *args), kwargs)

        _train._crashpredict_capped = True  # type: ignore[attr-defined]
        try:
            model._train = _train
        except (AttributeError, TypeError):
            pass


_LIBRARY_NAMES = {"xgboost": "XGBoost", "lightgbm": "LightGBM"}


def _capped_trainer(original: Any, cutter: Cutter, what: str, argument: str, default: int,
                    rounds_in_params: bool) -> Any:
    try:
        signature = inspect.signature(original)
    except (TypeError, ValueError):
        return original

    def capped(*args: Any, **kwargs: Any) -> Any:
        if cutter.whole:  # a swept iteration's training: whole, as the real one's
            return original(*args, **kwargs)
        try:
            bound = signature.bind(*args, **kwargs)
        except TypeError:  # let the library say what is wrong with the call
            return original(*args, **kwargs)
        arguments = bound.arguments
        rounds = arguments.get(argument, default)
        params = arguments.get("params")
        if rounds_in_params and isinstance(params, dict):
            named = [params[k] for k in _LIGHTGBM_ROUNDS if k in params]
            if named:  # LightGBM prefers these to its argument
                rounds = params.get("num_iterations", named[0])
            arguments["params"] = {k: v for k, v in params.items() if k not in _LIGHTGBM_ROUNDS}
        if type(rounds) is int and rounds > BOOSTING_ROUNDS:
            arguments[argument] = BOOSTING_ROUNDS
        else:
            rounds = None
            if rounds_in_params and isinstance(params, dict):
                arguments["params"] = params  # as the user wrote them
        return _capped_rounds(cutter, what, argument, rounds, original, bound.args, bound.kwargs)

    capped._crashpredict_capped = True  # type: ignore[attr-defined]
    capped.__wrapped__ = original  # type: ignore[attr-defined]
    return capped


def _capped_rounds(cutter: Cutter, what: str, argument: str, rounds: int | None, call: Any,
                   args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    """Run a training call (already cut to `BOOSTING_ROUNDS` when ``rounds`` is given).
    What it raises is the cell's own: its first rounds are the real run's, on the same
    data (`raised_by_input_checks` knows this frame)."""
    if rounds is None:
        return call(*args, **kwargs)
    cutter.note_library_cut(f"{what}: {argument} cut to {BOOSTING_ROUNDS} of {rounds:,}")
    began = time.perf_counter()
    result = call(*args, **kwargs)
    took = time.perf_counter() - began
    cutter.library_extra_s += took * (rounds / BOOSTING_ROUNDS - 1)
    return result


#: The module dicts of each boosting library loaded when a standby child found them while
#: waiting for its cell (`find_library_modules`), and how many modules were loaded then.
_LIBRARY_MODULES: tuple[int, dict[str, list[dict[str, Any]]]] | None = None


def _library_modules(library: str) -> list[dict[str, Any]]:
    """The dicts of the library's loaded modules: those found ahead while no module has been
    loaded since, else read from ``sys.modules`` now. Reading it touches every loaded
    module, whose pages a forked child copies first: 8 ms in a kernel that loaded torch,
    pandas and the boosting libraries, far more in a bigger one."""
    if _LIBRARY_MODULES is not None and _LIBRARY_MODULES[0] == len(sys.modules) and \
            library in _LIBRARY_MODULES[1]:
        return _LIBRARY_MODULES[1][library]
    return [vars(m) for name, m in list(sys.modules.items())
            if (name == library or name.startswith(library + ".")) and m is not None]


def find_library_modules() -> None:
    """Find the modules of the loaded boosting libraries ahead (a standby child, waiting for
    its cell): `cap_libraries` then rebinds their trainers without reading ``sys.modules``
    after the cell has come."""
    global _LIBRARY_MODULES
    _LIBRARY_MODULES = None  # read afresh
    try:
        libraries = {module.partition(".")[0] for module, *_ in _BOOSTING_TRAINERS
                     if module in sys.modules}
        if libraries:
            loaded = len(sys.modules)
            found = {library: _library_modules(library) for library in libraries}
            _LIBRARY_MODULES = (loaded, found)
    except Exception:  # noqa: BLE001 - a strange module: they are read as the cell comes
        _LIBRARY_MODULES = None


def _rebind(library: str, original: Any, capped: Any, namespace: dict[str, Any] | None) -> None:
    """Bind ``capped`` wherever the library (or the cell) holds ``original`` by name."""
    places = list(_library_modules(library))
    if namespace is not None:
        places.append(namespace)
    for place in places:
        try:
            for key in [k for k, v in place.items() if v is original]:
                place[key] = capped
        except Exception:  # noqa: BLE001 - a strange module dict: it keeps the original
            continue


#: Where scikit-learn checks a fit's or a prediction's input: what raises there is about
#: the data, the parameters or the fitted shape (``n_features_in_``, ``feature_names_in_``,
#: ``classes_``), none of which a cut iteration count changes.
_SKLEARN_INPUT_CHECKS = ("sklearn/utils/validation.py", "sklearn/utils/_param_validation.py",
                         "sklearn/utils/multiclass.py")
_SKLEARN_CHECK_FUNCTIONS = frozenset({
    "_check_n_features", "_check_feature_names", "_validate_data", "validate_data",
    "check_array", "check_X_y", "check_is_fitted", "_check_y", "check_consistent_length",
    "decode",  # a text vectorizer's document: a NaN is no text, whatever was fitted
})

#: Where scikit-learn's encoders refuse a category their fit did not see (an encoder
#: learns every category of what it is given, whatever a fit's iterations), and where a
#: classifier's weights of classes refuse a label its classes lack (``partial_fit``'s
#: classes, fixed by its first call).
_SKLEARN_CATEGORIES = (("sklearn/preprocessing/_encoders.py", "_transform"),
                       ("sklearn/utils/_encode.py", "_encode"),
                       ("sklearn/utils/class_weight.py", "compute_class_weight"))


#: What scikit-learn's classifiers say, in their ``fit``, of labels of one class (checked
#: before any iteration: fewer iterations cannot cause it): LogisticRegression's, the
#: SVMs', the gradient boosting's.
_ONE_CLASS_WORDS = ("needs samples of at least 2 classes",
                    "number of classes has to be greater than one", "y contains 1 class")

#: Where the gradient boosting libraries check data against what they were given or fitted
#: on: their data conversion, their feature checks, their prediction calls (what a
#: prediction rejects is the data's shape, names or types, which fewer trees do not change;
#: a round or tree number that the cut makes too large is told by its message).
_BOOSTING_INPUT_FILES = ("xgboost/data.py",)
_BOOSTING_CHECK_FUNCTIONS = frozenset({"_validate_features", "_validate_feature_info",
                                       "_check_for_bad_pandas_dtypes", "_data_from_pandas"})
_ROUND_WORDS = ("iteration", "ntree", "tree", "round", "estimator")


def raised_by_input_checks(exc: BaseException) -> bool:
    """Whether ``exc`` was raised by scikit-learn's input checks, by a gradient boosting
    library's data or prediction checks, or inside a training call that the fast-forward
    cut (its first rounds are the real run's) (see above)."""
    tb, last = exc.__traceback__, None
    boosting = False
    while tb is not None:
        last = tb.tb_frame.f_code
        path = last.co_filename.replace("\\", "/")
        if last.co_name == "_capped_rounds" and last.co_filename == __file__:
            return True
        if "/xgboost/" in path or "/lightgbm/" in path or "/catboost/" in path or \
                path.endswith(".pyx") and "catboost" in path:
            boosting = boosting or "predict" in last.co_name or \
                path.endswith(_BOOSTING_INPUT_FILES) or last.co_name in _BOOSTING_CHECK_FUNCTIONS
        tb = tb.tb_next
    if boosting:
        message = str(exc).lower()
        return not any(word in message for word in _ROUND_WORDS)
    if last is None:
        return False
    path = last.co_filename.replace("\\", "/")
    if "/sklearn/" in path and isinstance(exc, ValueError) and \
            any(words in str(exc) for words in _ONE_CLASS_WORDS):
        return True  # a classifier's labels of one class, refused before it iterates
    return path.endswith(_SKLEARN_INPUT_CHECKS) or (
        "/sklearn/" in path and last.co_name in _SKLEARN_CHECK_FUNCTIONS) or any(
        path.endswith(where) and last.co_name == name for where, name in _SKLEARN_CATEGORIES)


# ---- the cell's code, as the dry run's parent and child both read it -------------------


def compile_cell(cell_source: str, filename: str) -> Any:
    """The cell compiled as IPython runs it (magics transformed first)."""
    # the transform keeps the cell's line numbers, so lines count from the cell's top
    return compile(ipython_to_python(cell_source), filename, "exec",
                   flags=ast.PyCF_ALLOW_TOP_LEVEL_AWAIT, dont_inherit=True)


def loop_tree(cell_source: str, code: Any, namespace: Mapping[str, Any]) -> ast.Module | None:
    """The cell's syntax tree when fast-forwarding can shorten it, else None. Its counted
    ``while`` loops are read as the ``for`` loops over a ``range`` they are
    (`_counted_whiles`)."""
    try:
        tree = ast.parse(ipython_to_python(cell_source))
    except SyntaxError:
        return None
    _CELL_DEFINITIONS.clear()  # the cell's functions, as written (`_leaves_its_arguments`)
    _CELL_DEFINITIONS.update({(getattr(code, "co_filename", None), node.name, node.lineno): node
                              for node in tree.body if isinstance(node, ast.FunctionDef)})
    try:
        tree = _counted_whiles(tree, namespace)
    except Exception:  # noqa: BLE001 - a strange tree or namespace: the loops as written
        pass
    try:
        tree = _comprehensions(tree, namespace)
    except Exception:  # noqa: BLE001 - a strange tree: the comprehensions as written
        pass
    if has_loops(tree) or any(has_loops_in(namespace[name]) for name in
                              called_functions(code, namespace)):
        return tree
    trains = any(m in sys.modules for m in _TRAINING_MODULES) or bool(_capped_imports(tree))
    return tree if trains and any("fit" in name or name.startswith("cross_val") or
                                  name in ("train", "cv")
                                  for name in names_read(code, namespace)) else None


def _comprehensions(tree: ast.Module, namespace: Mapping[str, Any]) -> ast.Module:
    """``tree`` with each statement of the cell's top level that binds a comprehension
    (`_comprehended`) made the ``for`` loop it is, at the same lines: ``features =
    [window_features(signal[s:s + WIN]) for s in starts]`` is cut as any loop is, its last
    window run and its skipped ones swept, where the comprehension runs them all before
    the cell goes on."""
    taken = _names_in(tree) | set(namespace)
    body: list[ast.stmt] = []
    for statement in tree.body:
        body.extend(_comprehended(statement, taken, len(body), tree, namespace) or [statement])
    tree.body = body
    return tree


def _comprehended(statement: ast.stmt, taken: set[str], at: int, tree: ast.Module,
                  namespace: Mapping[str, Any]) -> list[ast.stmt] | None:
    """The statements ``statement`` is, where it binds a list, set or dict comprehension
    to names (``features = [f(x) for x in xs]``): a new container, the ``for`` loop over
    the comprehension's items that fills it (``acc.append(f(x_))``, under its ``if``
    tests), then the names bound to it, all at the comprehension's lines; else None. The
    loop's targets are renamed (``x_``, names the cell has nowhere: ``taken``, which
    takes them; nor the namespace's), so that no name of the cell is bound by them, as none is by the
    comprehension's. The container is the name the statement binds (``features.append``,
    so that what the cell does with it after reads what the loop collected), where that
    name is the statement's only target and neither the comprehension nor a function of
    the cell or of the notebook that it calls names it (the name keeps its value till the
    comprehension ends); else a new name, bound to the statement's targets after the
    loop. Only one ``for`` clause, not async, with plain targets; a dict's key a name
    or a constant (it is read before its value, as in the comprehension); nothing in it
    that binds a name (a ``:=``, an inner comprehension over a target's name), defines a
    function (a ``lambda`` would see the renamed target) or reads the scope
    (``locals()``, ``vars()``, ``eval``)."""
    if not (isinstance(statement, ast.Assign) and
            isinstance(statement.value, (ast.ListComp, ast.SetComp, ast.DictComp)) and
            all(_plain_target(target) for target in statement.targets)):
        return None
    value = statement.value
    if len(value.generators) != 1:
        return None
    clause = value.generators[0]
    if clause.is_async or not _plain_target(clause.target):
        return None
    parts: list[ast.expr] = [value.key, value.value] if isinstance(value, ast.DictComp) \
        else [value.elt]
    if isinstance(value, ast.DictComp) and not isinstance(value.key, (ast.Name, ast.Constant)):
        return None
    inner = [*parts, *clause.ifs]
    names = _stored(clause.target)
    if any(isinstance(n, (ast.NamedExpr, ast.Lambda, ast.Yield, ast.YieldFrom, ast.Await))
           or isinstance(n, ast.Name) and (n.id in _SCOPE_READERS or n.id in names and
                                           not isinstance(n.ctx, ast.Load))
           for part in inner for n in ast.walk(part)):
        return None

    def fresh(stem: str) -> str:
        name, k = f"{stem}_", 1
        while name in taken:
            name, k = f"{stem}_{k}", k + 1
        taken.add(name)
        return name
    renamed = {name: fresh(name) for name in sorted(names)}
    direct = statement.targets[0].id if len(statement.targets) == 1 and isinstance(
        statement.targets[0], ast.Name) else None
    if direct is not None and (direct in _names_in(value) or any(
            isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef))
            and direct in _names_in(n) for n in ast.walk(tree)) or any(
            direct in code.co_names for name in _names_in(value)
            if isinstance(namespace.get(name), types.FunctionType)
            for code, _ in reached_code(namespace[name].__code__, namespace))):
        direct = None
    container = direct or fresh(f"_comprehension{at}")
    target, inner = copy.deepcopy(clause.target), copy.deepcopy(inner)
    for node in [target, *(n for part in inner for n in ast.walk(part))]:
        for n in ast.walk(node):
            if isinstance(n, ast.Name) and n.id in renamed:
                n.id = renamed[n.id]
    parts, ifs = inner[:len(parts)], inner[len(parts):]

    def at_value(node: ast.AST) -> ast.AST:
        # what the loop adds spans the comprehension: a failure of its element (the
        # traceback's position) is the element's, not the store's
        for n in ast.walk(node):
            if "lineno" in n._attributes and not hasattr(n, "lineno"):
                ast.copy_location(n, value)
        return node

    def load() -> ast.Name:
        return ast.Name(id=container, ctx=ast.Load())
    if isinstance(value, ast.DictComp):
        fill: ast.stmt = ast.Assign(targets=[at_value(ast.Subscript(
            value=load(), slice=parts[0], ctx=ast.Store()))], value=parts[1])
    else:
        method = "append" if isinstance(value, ast.ListComp) else "add"
        fill = ast.Expr(value=at_value(ast.Call(func=ast.Attribute(
            value=load(), attr=method, ctx=ast.Load()), args=[parts[0]], keywords=[])))
    at_value(fill)
    if ifs:
        test = ifs[0] if len(ifs) == 1 else ast.BoolOp(op=ast.And(), values=ifs)
        fill = ast.copy_location(ast.If(test=test, body=[fill], orelse=[]), ifs[0])
    made: ast.expr = ast.List(elts=[], ctx=ast.Load()) if isinstance(value, ast.ListComp) \
        else ast.Dict(keys=[], values=[]) if isinstance(value, ast.DictComp) else \
        ast.Set(elts=[ast.Starred(value=ast.Tuple(elts=[], ctx=ast.Load()), ctx=ast.Load())])
    try:
        text = ast.unparse(value)
        names_text = ", ".join(ast.unparse(e) for e in clause.target.elts) \
            if isinstance(clause.target, ast.Tuple) else ast.unparse(clause.target)
        text = f"{text[0]}... for {names_text} in {ast.unparse(clause.iter)}{text[-1]}"
    except Exception:  # noqa: BLE001 - only for the evidence
        text = "a comprehension"
    loop = ast.For(target=target, iter=clause.iter, body=[fill], orelse=[],
                   type_comment=_COMPREHENDED + text[:80])
    statements = [ast.Assign(targets=[ast.Name(id=container, ctx=ast.Store())],
                             value=ast.copy_location(made, value)),
                  ast.copy_location(loop, value)]
    if direct is None:
        statements.append(ast.Assign(targets=statement.targets, value=load()))
    for made_statement in statements:
        ast.copy_location(made_statement, statement)
    return [ast.fix_missing_locations(s) for s in statements]


#: Builtins that read or change the scope they are called in: a comprehension's is not the
#: cell's (`_comprehended`).
_SCOPE_READERS = frozenset({"locals", "vars", "eval", "exec", "globals", "dir", "super"})


def _counted_whiles(tree: ast.Module, namespace: Mapping[str, Any]) -> ast.Module:
    """``tree`` with each ``while`` loop of the cell's top level that counts through a
    range (`_counted`) made the ``for`` loop over that ``range`` it is, at the same line:
    ``while start < len(stream): ...; start += batch_size`` runs its body for ``start``
    in ``range(start, len(stream), batch_size)``, each iteration with its own number. The
    cut then runs its last iteration and the sweep its skipped ones (a late batch of
    reviews with no text, in a stream fitted batch by batch)."""
    tree.body = [(_counted(node, tree, k, namespace) or _drained(node, tree, k, namespace) or
                  node) if isinstance(node, ast.While)
                 else node for k, node in enumerate(tree.body)]
    return tree


def _drained(loop: ast.While, tree: ast.Module, position: int,
             namespace: Mapping[str, Any]) -> ast.For | None:
    """The ``for`` loop that ``loop`` (the ``position``-th statement of the cell) is, where
    it drains a queue, or None: ``while pending: uid = pending.pop(0); ...`` runs its body
    for ``uid`` in ``list(pending)`` (``pending.pop()``: in ``list(reversed(pending))``),
    one iteration per item, as written. Only where the queue is a list (or a
    ``collections.deque``, ``popleft()`` and ``pop()``): bound once in the cell, before the
    loop, at its top level, by ``list(...)``, ``sorted(...)``, ``deque(...)`` or a list's
    display or comprehension (``deque`` the namespace's, or bound by the cell's own import
    before the loop: `_before`), or, bound nowhere in the cell, such a value of the
    namespace; the body's first statement takes an item off the queue into a name (or
    unpacks it into names: ``texts, ys = queue.popleft()``) and nothing else in
    the body, nor any function of the notebook it calls or the cell defines, names the
    queue; no ``else``;
    the queue named nowhere after the loop (the ``while`` leaves it empty)."""
    test, body = loop.test, loop.body
    if loop.orelse or len(body) < 2 or not isinstance(test, ast.Name):
        return None
    queue, first = test.id, body[0]
    if not (isinstance(first, ast.Assign) and len(first.targets) == 1 and
            _plain_target(first.targets[0]) and
            queue not in _names_in(first.targets[0]) and
            isinstance(first.value, ast.Call) and not first.value.keywords and
            isinstance(first.value.func, ast.Attribute) and
            isinstance(first.value.func.value, ast.Name) and
            first.value.func.value.id == queue):
        return None
    kind = _queue_kind(queue, tree, position, namespace)
    method, args = first.value.func.attr, [_int_literal(a) for a in first.value.args]
    if kind == "list" and method == "pop" and args in ([0], [], [-1]):
        backwards = args != [0]
    elif kind == "deque" and method in ("popleft", "pop") and not args:
        backwards = method == "pop"
    else:
        return None
    rest = body[1:]
    named = {n.id for n in ast.walk(ast.Module(body=rest, type_ignores=[]))
             if isinstance(n, ast.Name)}
    if queue in named or any(
            isinstance(n, (ast.Global, ast.Nonlocal)) and queue in n.names
            for n in ast.walk(tree)) or any(  # a function the cell defines may name it
            isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef))
            and queue in _names_in(n) for n in ast.walk(tree)):
        return None
    for name in named:
        function = namespace.get(name)
        if isinstance(function, types.FunctionType) and any(  # or what it calls, in turn
                queue in code.co_names for code, _ in reached_code(function.__code__, namespace)):
            return None
    stored = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)
              and isinstance(n.ctx, (ast.Store, ast.Del))}
    for builtin in ("list", "reversed"):
        if builtin in stored or namespace.get(builtin, getattr(builtins, builtin)) is not \
                getattr(builtins, builtin):
            return None
    if any(isinstance(n, ast.Name) and n.id == queue
           for statement in tree.body[position + 1:] for n in ast.walk(statement)):
        return None
    items: ast.expr = ast.Name(id=queue, ctx=ast.Load())
    if backwards:
        items = ast.Call(func=ast.Name(id="reversed", ctx=ast.Load()), args=[items],
                         keywords=[])
    header = ast.Call(func=ast.Name(id="list", ctx=ast.Load()), args=[items], keywords=[])
    # the type comment (a field copies keep; compiling ignores it) is the evidence's text
    drained = ast.For(target=copy.deepcopy(first.targets[0]),
                      iter=ast.copy_location(header, test), body=rest, orelse=[],
                      type_comment=_AS_WRITTEN + f"while {queue}")
    return ast.fix_missing_locations(ast.copy_location(drained, loop))


def _plain_target(target: ast.expr) -> bool:
    """Whether ``target`` binds names only: ``uid``, or ``texts, ys`` (nested)."""
    return isinstance(target, ast.Name) or isinstance(target, (ast.Tuple, ast.List)) and \
        bool(target.elts) and all(_plain_target(e) for e in target.elts)


#: How `_drained` marks the ``for`` loop it makes of a ``while``, and `_comprehended` the
#: one it makes of a comprehension, before what the evidence calls it (`_loop_text`).
_AS_WRITTEN = "crashpredict as written: "
_COMPREHENDED = "crashpredict comprehension: "


def _int_literal(node: ast.expr) -> int | None:
    """The integer ``node`` writes (``0``, ``-1``), else None."""
    try:
        value = ast.literal_eval(node)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return None
    return value if type(value) is int else None


def _queue_kind(queue: str, tree: ast.Module, position: int,
                namespace: Mapping[str, Any]) -> str | None:
    """``"list"`` or ``"deque"``: what ``queue`` holds where the cell's ``position``-th
    statement begins (see `_drained`), else None."""
    stores = [n for n in ast.walk(tree) if isinstance(n, ast.Name) and n.id == queue and
              isinstance(n.ctx, (ast.Store, ast.Del))]
    if not stores:
        value = namespace.get(queue)
        return "list" if type(value) is list else \
            "deque" if type(value) is collections.deque else None
    if len(stores) != 1:
        return None
    for at, statement in enumerate(tree.body[:position]):
        if isinstance(statement, ast.Assign) and len(statement.targets) == 1 and \
                statement.targets[0] is stores[0]:
            value = statement.value
            if isinstance(value, (ast.List, ast.ListComp)):
                return "list"
            if not isinstance(value, ast.Call):
                return None
            func = value.func
            made = _before(func.id, tree, at, namespace, getattr(builtins, func.id, None)) \
                if isinstance(func, ast.Name) else \
                getattr(_before(func.value.id, tree, at, namespace), func.attr, None) \
                if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) \
                else None
            if isinstance(func, ast.Name) and func.id in {
                    n.id for n in ast.walk(tree) if isinstance(n, ast.Name)
                    and isinstance(n.ctx, (ast.Store, ast.Del))}:
                return None
            return "list" if made is builtins.list or made is builtins.sorted else \
                "deque" if made is collections.deque else None
    return None


def _before(name: str, tree: ast.Module, position: int, namespace: Mapping[str, Any],
            default: Any = None) -> Any:
    """What ``name`` is where the cell's ``position``-th statement begins, as far as the
    cell says without running: the namespace's value, where the cell binds no such name;
    else the module or the module's attribute that an ``import`` of the cell's top level,
    before that statement, binds to it, where that import is the name's only binding in
    the cell and the module is loaded already (``from collections import deque``; nothing
    is imported here); else ``default``."""
    imports = [node for node in tree.body if isinstance(node, (ast.Import, ast.ImportFrom))
               and name in _defines(node)]
    if not imports:
        return default if name in _names_stored(tree) or any(
            name in _defines(node) for node in ast.walk(tree)) else \
            namespace.get(name, default)
    statement = imports[0]
    if len(imports) != 1 or statement not in tree.body[:position] or \
            name in _names_stored(tree) or any(
                name in _defines(node) for node in ast.walk(tree) if node is not statement):
        return default
    for alias in statement.names:
        if (alias.asname or alias.name.partition(".")[0]) != name:
            continue
        if isinstance(statement, ast.Import):  # ``import a.b`` binds ``a``; ``as`` binds ``a.b``
            return sys.modules.get(alias.name if alias.asname else
                                   alias.name.partition(".")[0], default)
        module = sys.modules.get(statement.module or "") if not statement.level else None
        if module is None or alias.name == "*":
            return default
        found = getattr(module, alias.name, _ABSENT)
        return default if found is _ABSENT else found
    return default


#: What `_before` finds where a module has no such attribute.
_ABSENT = object()


def _counted(loop: ast.While, tree: ast.Module, position: int,
             namespace: Mapping[str, Any]) -> ast.For | None:
    """The ``for`` loop that ``loop`` (the ``position``-th statement of the cell) is, or
    None. Only ``while counter < stop:`` whose body ends with ``counter += step`` (or
    with it followed by statements that name no counter and leave the body only at its
    end, ``chunk_no += 1``: they run before the step, the same; or steps by a step
    clipped to the stop: `_clipped_step`) and
    binds the counter nowhere else, with no ``continue`` (it would skip the step) and no
    ``else``; the counter and the step integers bound once, by a literal, before the loop
    (or, never bound by the cell, integers of the namespace), the step above 0; the stop
    such an integer or the ``len`` of a name the body neither binds nor changes; ``range``
    the builtin; the counter named nowhere after the loop (the ``for`` leaves it at its
    last number, the ``while`` one step past it)."""
    test, body = loop.test, loop.body
    if loop.orelse or len(body) < 2 or not isinstance(test, ast.Compare) or \
            len(test.ops) != 1 or not isinstance(test.ops[0], ast.Lt) or \
            not isinstance(test.left, ast.Name):
        return None
    counter, stop, last = test.left.id, test.comparators[0], body[-1]
    step = _clipped_step(body, counter, stop) if namespace.get("min", builtins.min) is \
        builtins.min and "min" not in _names_stored(tree) else None
    inner = body[:-1]
    if step is None:  # ``counter += step``, last or followed by what names no counter
        # (``chunk_no += 1``): run before the step, the same
        at = next((k for k in range(len(body) - 1, -1, -1)
                   if isinstance(body[k], ast.AugAssign) and isinstance(body[k].op, ast.Add)
                   and isinstance(body[k].target, ast.Name)
                   and body[k].target.id == counter), None)  # type: ignore[attr-defined]
        if at is None or any(counter in _names_in(node) or any(
                isinstance(n, (ast.Break, ast.Continue, ast.Return)) for n in ast.walk(node))
                for node in body[at + 1:]):
            return None
        last, inner = body[at], body[:at] + body[at + 1:]
    step = step or last.value  # type: ignore[union-attr]
    bound, _ = _bound_in(inner)
    if counter in bound or _continues(inner) or \
            namespace.get("range", builtins.range) is not builtins.range or \
            "range" in {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)
                        and isinstance(n.ctx, (ast.Store, ast.Del))}:
        return None
    changed = bound | _may_change(inner, namespace)
    if not isinstance(_int_at(counter, tree, position, namespace, counted=loop), int):
        return None
    stepped = _int_of(step, tree, position, namespace)
    if not isinstance(stepped, int) or stepped <= 0 or _names_in(step) & changed:
        return None
    if isinstance(stop, ast.Call) and isinstance(stop.func, ast.Name) and \
            stop.func.id == "len" and len(stop.args) == 1 and not stop.keywords and \
            isinstance(stop.args[0], ast.Name) and \
            namespace.get("len", builtins.len) is builtins.len:
        if stop.args[0].id in changed | {counter, "len"}:
            return None
    elif not isinstance(_int_of(stop, tree, position, namespace), int) or \
            _names_in(stop) & changed:
        return None
    if any(isinstance(n, ast.Name) and n.id == counter
           for statement in tree.body[position + 1:] for n in ast.walk(statement)):
        return None
    header = ast.Call(func=ast.Name(id="range", ctx=ast.Load()),
                      args=[ast.Name(id=counter, ctx=ast.Load()), copy.deepcopy(stop),
                            copy.deepcopy(step)], keywords=[])
    counted = ast.For(target=ast.Name(id=counter, ctx=ast.Store()),
                      iter=ast.copy_location(header, test), body=inner, orelse=[],
                      type_comment=None)
    return ast.fix_missing_locations(ast.copy_location(counted, loop))


def _clipped_step(body: list[ast.stmt], counter: str, stop: ast.expr) -> ast.expr | None:
    """The step of a ``while counter < stop`` loop that clips its last step to the stop,
    where its body does so: ``b = min(step, stop - counter)`` first and ``counter += b``
    last, or ``end = min(counter + step, stop)`` first and ``counter = end`` last, the
    name bound nowhere else in the body (its batches are ``range(counter, stop, step)``'s,
    the last one shorter); else None."""
    first, last = body[0], body[-1]
    if len(body) < 3 or not (isinstance(first, ast.Assign) and len(first.targets) == 1 and
                             isinstance(first.targets[0], ast.Name)):
        return None
    name, value = first.targets[0].id, first.value
    if not (isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and
            value.func.id == "min" and len(value.args) == 2 and not value.keywords):
        return None
    if isinstance(last, ast.AugAssign) and isinstance(last.op, ast.Add) and \
            isinstance(last.target, ast.Name) and last.target.id == counter and \
            isinstance(last.value, ast.Name) and last.value.id == name:
        rest = ast.BinOp(left=stop, op=ast.Sub(), right=ast.Name(id=counter, ctx=ast.Load()))
    elif isinstance(last, ast.Assign) and len(last.targets) == 1 and \
            isinstance(last.targets[0], ast.Name) and last.targets[0].id == counter and \
            isinstance(last.value, ast.Name) and last.value.id == name:
        rest = stop
    else:
        return None
    for k, part in enumerate(value.args):
        other = value.args[1 - k]
        if ast.dump(other) != ast.dump(rest):
            continue
        step = part
        if isinstance(last, ast.Assign):  # ``min(counter + step, stop)``
            if not (isinstance(part, ast.BinOp) and isinstance(part.op, ast.Add) and
                    isinstance(part.left, ast.Name) and part.left.id == counter):
                continue
            step = part.right
        if name in _bound_in(body[1:-1])[0]:
            return None
        return step
    return None


def _counter_of(loop: ast.For) -> set[str]:
    """The counter of a counted ``while`` read as a ``for`` (`_counted_whiles`): its
    ``range`` starts from the number it held before the loop, read once."""
    source = loop.iter
    if isinstance(source, ast.Call) and isinstance(source.func, ast.Name) and \
            source.func.id == "range" and len(source.args) == 3 and \
            isinstance(loop.target, ast.Name) and isinstance(source.args[0], ast.Name) and \
            source.args[0].id == loop.target.id:
        return {loop.target.id}
    return set()


def _continues(body: list[ast.stmt]) -> bool:
    """Whether ``body`` holds a ``continue`` of its own loop (not of a loop within it)."""
    def visit(node: ast.AST) -> bool:
        if isinstance(node, ast.Continue):
            return True
        if isinstance(node, (ast.For, ast.AsyncFor, ast.While)):
            return any(visit(n) for n in node.orelse)
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            return False
        return any(visit(child) for child in ast.iter_child_nodes(node))
    return any(visit(statement) for statement in body)


def _int_of(node: ast.expr, tree: ast.Module, position: int,
            namespace: Mapping[str, Any]) -> int | None:
    """The integer ``node`` holds where the cell's ``position``-th statement begins: a
    literal, or a name `_int_at` reads; else None."""
    if isinstance(node, ast.Constant):
        return node.value if type(node.value) is int else None
    if isinstance(node, ast.Name):
        return _int_at(node.id, tree, position, namespace)
    return None


def _int_at(name: str, tree: ast.Module, position: int, namespace: Mapping[str, Any],
            counted: ast.While | None = None) -> int | None:
    """The integer ``name`` holds where the cell's ``position``-th statement begins: bound
    once in the cell (but by the ``counted`` loop's step), before it, at its top level, by
    an integer literal (``start, seen = 0, 0``); or, bound nowhere in the cell, an integer
    of the namespace; else None."""
    steps = [counted.body[-1], *(  # (its step, last or followed by what names no counter)
        node for node in counted.body if isinstance(node, ast.AugAssign)
        and isinstance(node.target, ast.Name) and node.target.id == name)] \
        if counted is not None else []
    stores = [n for n in ast.walk(tree) if isinstance(n, ast.Name) and n.id == name and
              isinstance(n.ctx, (ast.Store, ast.Del)) and
              not any(_within(n, step) for step in steps)]
    if any(isinstance(n, (ast.Global, ast.Nonlocal)) and name in n.names
           for n in ast.walk(tree)):
        return None
    if not stores:
        value = namespace.get(name)
        return value if type(value) is int else None
    if len(stores) != 1:
        return None
    for statement in tree.body[:position]:
        if not isinstance(statement, ast.Assign) or len(statement.targets) != 1:
            continue
        target, value = statement.targets[0], statement.value
        pairs = [(target, value)]
        if isinstance(target, (ast.Tuple, ast.List)) and isinstance(value, (ast.Tuple, ast.List)) \
                and len(target.elts) == len(value.elts):
            pairs = list(zip(target.elts, value.elts))
        for bound, literal in pairs:
            if bound is stores[0]:
                return literal.value if isinstance(literal, ast.Constant) and \
                    type(literal.value) is int else None
    return None


#: Libraries whose fits `cap_libraries` cuts: a cell that fits is fast-forwarded even
#: without loops of its own.
_TRAINING_MODULES = ("keras", "tf_keras", "sklearn", "xgboost", "lightgbm", "catboost")


def names_read(code: Any, namespace: Mapping[str, Any]) -> tuple[str, ...]:
    """The global names the compiled cell refers to, with those of the functions it defines
    and of the namespace's own functions it calls (``train()`` defined in an earlier cell)."""
    names: set[str] = set()
    for current, _ in reached_code(code, namespace):
        names.update(current.co_names)
    return tuple(sorted(names))
