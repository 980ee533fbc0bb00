"""Statements of the cell walk: control flow, binding, tainting (a mixin of CellWalker)."""

from __future__ import annotations

import ast
import builtins
import contextlib
import dataclasses
import sys
import types
from typing import Any

from ..._model import crash_type_of
from .._finding import Finding
from .._values import (
    DELETED,
    MISSING,
    UNKNOWN,
    Changed,
    Partial,
    SizedUnknown,
    is_frame,
    is_known,
    is_series,
    safe_getattr,
    safe_message,
)
from ._effects import _is_library_callable
from ._types import CellFunction, Stop
from ._util import (
    as_load,
    bound_names,
    contains_jump,
    hashable,
    is_mutable_array,
    keyed_container,
    may_exit_loop,
    may_suppress,
    root_name,
    safe_len,
    small_items,
    stable,
    target_names,
)
from ._witness import names_read, record_witnesses, row_witnesses, table_witnesses

__all__ = ["StatementWalker"]


def exact_item(container: Any, value: Any) -> bool:
    """Reading back ``container[key] = value`` gives exactly ``value``: any known value in
    a dict; for a DataFrame, a Series already on the frame's own index."""
    if not is_known(value):
        return False
    if type(container) is dict:
        return True
    return is_frame(container) and is_series(value) and value.index.equals(container.index)


def _passes(value: Any) -> int | None:
    """How many items a ``for`` over ``value`` sees, where `safe_len` tells it: a
    DataFrame's columns (its ``len`` counts rows); the groups of a small frame's groupby
    by columns (`_groups`)."""
    if is_known(value) and is_frame(value):
        return int(value.shape[1])
    groups = _groups(value)
    return groups if groups is not None else safe_len(value)


#: A groupby's groups are counted (`_groups`) on a frame of at most this many rows: a
#: millisecond here.
_GROUPS_ROWS = 50_000


def _groups(value: Any) -> int | None:
    """The groups a ``for`` over a pandas groupby sees: of a frame of pandas' own class of
    at most `_GROUPS_ROWS` rows, grouped by columns of it (labels; of numpy's or pandas'
    own dtypes, none categorical: with unobserved categories the count and the groups
    differ), so counting them runs no user code; else None."""
    groupby = sys.modules.get("pandas.core.groupby")
    base = getattr(groupby, "GroupBy", None)
    if not is_known(value) or not isinstance(base, type) or \
            type(value).__module__ != "pandas.core.groupby.generic" or \
            not isinstance(value, base):
        return None
    try:
        frame = value.obj
        keys = value.keys
        keys = list(keys) if type(keys) in (list, tuple) else [keys]
        if not is_frame(frame) or len(frame) > _GROUPS_ROWS or not keys or \
                value.level is not None or any(
                    type(key) not in (str, int) or key not in frame.columns or
                    not is_series(frame[key]) or str(frame[key].dtype) == "category" or
                    type(frame[key].dtype).__module__.partition(".")[0] not in ("numpy", "pandas")
                    for key in keys):
            return None
        return int(value.ngroups)
    except Exception:  # noqa: BLE001 - a strange grouping: its length is not known
        return None


@dataclasses.dataclass(frozen=True)
class _Counting:
    """A loop header that calls builtin ``enumerate``, ``zip`` or ``reversed``: its name,
    the values of the arguments it iterates (read once), and enumerate's first count (0
    for the others; None where not known)."""

    name: str
    args: list[Any]
    start: int | None


def _item_arity(call: _Counting | None) -> Any:
    """Each item of ``zip(a, b)``/``enumerate(a)`` is a tuple of known length."""
    if call is None or call.name == "reversed":
        return UNKNOWN
    return SizedUnknown(len(call.args) if call.name == "zip" else 2)


def _last_count(iterable: Any, call: _Counting | None, size: int) -> Any:
    """What the last pass of a loop over ``size`` items binds, where its count is known:
    a ``range``'s last number, ``enumerate``'s last count with its item unknown; else
    UNKNOWN."""
    if type(iterable) is range:
        return iterable[-1]
    if call is not None and call.name == "enumerate" and call.start is not None:
        return (call.start + size - 1, UNKNOWN)
    return UNKNOWN


#: Reading a frame's rows for a row loop's witnesses may take this long past the trial
#: budget (vectorised scans of the columns the body names).
_WITNESS_MS = 250.0
#: A loop over at most this many frames or arrays has them compared (each read as any
#: value from the live world).
_MAX_TAMED = 1_000
#: A record loop's scan reads at most this many keys the body names, and this many
#: lookups in a dict of at most this many keys.
_MAX_KEYS = 8
_MAX_LOOKUP_KEYS = 100_000


def _record_key(node: ast.AST, name: str) -> Any:
    """The key of ``name['key']`` (a string or int written out, read), else None."""
    if isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Load) and \
            isinstance(node.value, ast.Name) and node.value.id == name and \
            isinstance(node.slice, ast.Constant) and type(node.slice.value) in (str, int):
        return node.slice.value
    return None

#: torch's grad-mode managers, by their name on the ``torch`` module
_GRAD_MANAGERS = ("no_grad", "enable_grad", "inference_mode", "set_grad_enabled")
#: What `StatementWalker._grad_manager` gives for a manager that is not one of them.
_NOT_GRAD = object()


class StatementWalker:
    """Walks statements; the expression half lives in `CellWalker`."""

    # ----- statements ----------------------------------------------------------------
    def block(self, body: list[ast.stmt]) -> None:
        """Walk statements in order; after a possible jump the rest is uncertain."""
        extra = 0
        try:
            for stmt in body:
                self.statement(stmt)
                if isinstance(stmt, (ast.If, ast.Try, ast.With, ast.Match, ast.For,
                                     ast.While)) and contains_jump(stmt) and not extra:
                    extra = 1
                    self.uncertain += 1
        finally:
            self.uncertain -= extra

    def statement(self, stmt: ast.stmt) -> None:
        """Walk one statement."""
        self._stmt = stmt
        self._apply(self.rules.statement, stmt, stmt, self)
        handler = getattr(self, f"_s_{type(stmt).__name__}", None)
        try:
            if handler is not None:
                handler(stmt)
            else:
                self._opaque(stmt)
        except (Stop, RecursionError):
            raise
        except Exception as exc:  # a live object misbehaved: abstain on this statement
            self.notes.append(f"line {getattr(stmt, 'lineno', '?')} not walked: "
                              f"{type(exc).__name__}: {safe_message(exc)}")
            self._forget(bound_names([stmt]))

    def _opaque(self, stmt: ast.AST) -> None:
        self.uncertain += 1
        try:
            for child in ast.iter_child_nodes(stmt):
                if isinstance(child, ast.expr):
                    self.ev(child)
                elif isinstance(child, ast.stmt):
                    self.statement(child)
        finally:
            self.uncertain -= 1
        self._forget(bound_names([stmt]))

    def _changed_in(self, body: list[ast.stmt]) -> set[str]:
        """The names statements of ``body`` may bind or change: `bound_names`, but a
        method's receiver that holds a module now (``re.findall(...)``: a call on a module
        changes no binding the walk reads, as `effects_of_call` has it)."""
        stored = bound_names(body, receivers=False)
        return stored | {name for name in bound_names(body) - stored
                         if not isinstance(self.lookup(name), types.ModuleType)}

    def _forget(self, names: set[str]) -> None:
        for name in names:
            self.env[name] = UNKNOWN

    def _s_Expr(self, stmt: ast.Expr) -> None:
        self.ev(stmt.value)

    def _s_Assign(self, stmt: ast.Assign) -> None:
        value = self.ev(stmt.value)
        for target in stmt.targets:
            self.bind(target, value)

    def _s_AnnAssign(self, stmt: ast.AnnAssign) -> None:
        if stmt.value is not None:
            self.bind(stmt.target, self.ev(stmt.value))

    def _s_AugAssign(self, stmt: ast.AugAssign) -> None:
        target = stmt.target
        load = as_load(target)
        current = self.ev(load)
        other = self.ev(stmt.value)
        result = self.binop(stmt.op, current, other, stmt)
        if isinstance(target, ast.Name) and is_known(current) and is_mutable_array(current):
            result = UNKNOWN
        self.bind(target, result)

    def _s_Delete(self, stmt: ast.Delete) -> None:
        for target in stmt.targets:
            if isinstance(target, ast.Name):
                self.ev(ast.copy_location(ast.Name(id=target.id, ctx=ast.Load()), target))
                self.env[target.id] = DELETED
            else:
                self.ev(as_load(target))
                self.taint(target)

    def _s_If(self, stmt: ast.If) -> None:
        truth = self.truth(self.ev(stmt.test))
        if truth is True:
            self.block(stmt.body)
        elif truth is False:
            self.block(stmt.orelse)
        else:
            self._uncertain_blocks(stmt.body, stmt.orelse)

    def _uncertain_blocks(self, *blocks: list[ast.stmt]) -> None:
        self.uncertain += 1
        try:
            for body in blocks:
                self.block(body)
        finally:
            self.uncertain -= 1
        self._forget(self._changed_in([s for body in blocks for s in body]))

    def _s_While(self, stmt: ast.While) -> None:
        self.ev(stmt.test)
        self._uncertain_blocks(stmt.body, stmt.orelse)

    def _s_For(self, stmt: ast.For) -> None:
        iterable = self.ev(stmt.iter)
        items = small_items(iterable)
        bound = self._changed_in(stmt.body) | target_names(stmt.target)
        # enumerate/zip/reversed: their arguments are read once, for all below
        call = self._counting_call(stmt.iter) if items is None else None
        self.loop_depth += 1
        try:
            if call is not None:
                items = self._counted_items(call)
            if items:
                self._unroll(stmt, items)
            elif items is not None:  # empty: the body never runs
                self.block(stmt.orelse)
            elif self._first_item(stmt, iterable, call) or self._row_loop(stmt) or \
                    self._record_loop(stmt, iterable) or self._table_loop(stmt, iterable):
                pass
            else:
                size = self._known_length(iterable, call)
                if size is None and call is None:
                    size = self._view_length(stmt.iter)
                self.bind(stmt.target, _item_arity(call) if size else UNKNOWN)
                if size == 0:
                    self._forget(bound)
                    self.block(stmt.orelse)
                elif size is None:  # it may be empty: nothing in the body is certain
                    self._forget(bound)
                    self._uncertain_blocks(stmt.body, stmt.orelse)
                else:
                    # the first pass starts from the values before the loop (its item
                    # unknown): ``results = results.append(...)`` meets the frame itself
                    self.block(stmt.body)
                    self._forget(bound)
                    last = _last_count(iterable, call, size)
                    if last is not UNKNOWN and self.loop_depth <= 2:
                        self._pass_again(stmt, last)
                    self._uncertain_blocks(stmt.orelse)
        finally:
            self.loop_depth -= 1
        self._forget(bound)

    def _unroll(self, stmt: ast.For, items: list[Any]) -> None:
        exits = may_exit_loop(stmt.body)
        for n, item in enumerate(items):
            self.uncertain += 1 if exits and n == 1 else 0
            self.bind(stmt.target, item)
            self.block(stmt.body)
        if exits and len(items) > 1:
            self.uncertain -= 1
        if exits:
            self._uncertain_blocks(stmt.orelse)
        else:
            self.block(stmt.orelse)

    def _first_item(self, stmt: ast.For, iterable: Any, call: _Counting | None) -> bool:
        """A loop over a DataLoader (or ``enumerate`` of one) whose first batch is known:
        the body runs certainly, first on that batch; then, where the last batch is
        smaller (the rows left over), on that one too, with what the body binds forgotten
        (it holds what the passes between made of it), and not certainly when the body may
        leave the loop first. Returns False when not known."""
        hook = self.rules.propagate_iter
        if hook is None:
            return False
        start = None  # enumerate's first count, where the loop counts its batches
        if not is_known(iterable) and call is not None and call.name == "enumerate" and \
                call.start is not None:
            iterable, start = call.args[0], call.start
        if not is_known(iterable):
            return False
        found = self._propagate(hook, iterable)
        if found is UNKNOWN or not found or found[1] < 1:
            return False
        # The first iteration starts from the values before the loop: walked straight.
        self.bind(stmt.target, found[0] if start is None else (start, found[0]))
        self.block(stmt.body)
        if found[2] is not None:
            self._pass_again(stmt, found[2] if start is None else
                             (start + found[1] - 1, found[2]))
        self._uncertain_blocks(stmt.orelse)
        return True

    def _row_loop(self, stmt: ast.For) -> bool:
        """A loop over ``df.iterrows()`` or ``df.itertuples(...)`` of a non-empty frame:
        the body runs certainly, first on the first row; then, as in a pass that comes
        later, on a few rows likely to break it (`row_witnesses`: the first NaN or odd
        type in a column it names, the last row), what the body binds forgotten. Those
        passes are walked only where the body changes nothing the frame's name holds.
        Returns False when not such a loop."""
        node = stmt.iter
        if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Attribute) or \
                node.func.attr not in ("iterrows", "itertuples") or any(
                    isinstance(a, ast.Starred) for a in node.args) or \
                any(k.arg is None for k in node.keywords) or \
                node.func.attr == "iterrows" and (node.args or node.keywords):
            return False
        frame = self._reread(node.func.value)
        if not is_frame(frame):
            return False
        args = tuple(self._reread(a) for a in node.args)
        kwargs = {k.arg: self._reread(k.value) for k in node.keywords}
        if any(type(v) not in (bool, str, type(None)) for v in (*args, *kwargs.values())):
            return False
        root = root_name(node.func.value)
        later = self.loop_depth <= 2 and root is not None and \
            root not in self._changed_in(stmt.body)
        rows = self._scanned(f"rows of {self.text(node.func.value)}", lambda: row_witnesses(
            frame, node.func.attr, names_read(stmt.body) if later else [],  # type: ignore[attr-defined]
            last=later, itertuples=(args, kwargs)))
        if not rows:
            return False
        # what iterrows gives, (label, row), is read as any value from the live world
        tamed = [tuple(self.tame(v, "a row") for v in row.value) if type(row.value) is tuple
                 else self.tame(row.value, "a row") for row in rows]
        self._walk_witnessed(stmt, tamed[0], [(value, row.why) for row, value in
                                              zip(rows[1:], tamed[1:])])
        return True

    def _record_loop(self, stmt: ast.For, iterable: Any) -> bool:
        """A loop by a name over a plain list or tuple of plain dicts (records, as
        ``json.loads`` of each line gives them): the body runs certainly, first on the
        first record; then, as in a pass that comes later, on the records likeliest to
        break it (`record_witnesses`: the first without a key the body reads as
        ``rec['key']``, or with a value of another type there, or whose value there is no
        key of a dict the body looks it up in, ``regions[rec['origin']]``; the last). Only
        where the body rebinds neither the name nor the list, and changes none of those
        dicts; else False (the loop is walked as any other)."""
        if not isinstance(stmt.target, ast.Name) or type(iterable) not in (list, tuple) or \
                not iterable or type(iterable[0]) is not dict:
            return False
        name, root = stmt.target.id, root_name(stmt.iter)
        changed = self._changed_in(stmt.body)
        if root is None or root in changed or name in changed or self.loop_depth > 2:
            return False
        keys: dict[Any, None] = {}
        lookups: list[tuple[str, Any, Any]] = []
        for top in stmt.body:
            for node in ast.walk(top):
                key = _record_key(node, name)
                if key is not None:
                    keys.setdefault(key, None)
                if not isinstance(node, ast.Subscript) or not isinstance(node.ctx, ast.Load) \
                        or not isinstance(node.value, ast.Name) or node.value.id in changed:
                    continue
                key = _record_key(node.slice, name)
                mapping = self.lookup(node.value.id) if key is not None else None
                if type(mapping) is dict and len(mapping) <= _MAX_LOOKUP_KEYS and all(
                        type(k) in (str, int, float, bool, type(None)) for k in mapping):
                    lookups.append((node.value.id, key, mapping))
        found = self._scanned(f"records of {self.text(stmt.iter)}", lambda: record_witnesses(
            iterable, list(keys)[:_MAX_KEYS], lookups[:_MAX_KEYS]))
        if not found:
            return False
        self._walk_witnessed(stmt, found[0].value,
                             [(record.value, record.why) for record in found[1:]])
        return True

    def _table_loop(self, stmt: ast.For, iterable: Any) -> bool:
        """A loop over frames (or numpy arrays): a list or tuple of them, or the
        ``values()`` or ``items()`` of a plain dict of them (``for station, df in
        frames.items()``). The body runs certainly, first on the first; then, as in a pass
        that comes later, on the first whose columns or dtypes differ from the first's
        (for arrays, the shape past the first axis or the dtype), and on the last
        (`table_witnesses`). Only where the body rebinds nothing the loop reads; else
        False (the loop is walked as any other)."""
        node = stmt.iter
        keys: list[Any] | None = None
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and \
                node.func.attr in ("items", "values") and not node.args and not node.keywords:
            owner = self._reread(node.func.value)
            if type(owner) is not dict:
                return False
            values = list(owner.values())
            if node.func.attr == "items":
                keys = list(owner)
                if not all(type(k) in (str, int, float, bool, type(None)) for k in keys):
                    return False
            root = root_name(node.func.value)
        elif type(iterable) in (list, tuple):
            values, root = list(iterable), root_name(node)
        else:
            return False
        if root is None or len(values) > _MAX_TAMED or root in self._changed_in(stmt.body) or \
                self.loop_depth > 2 or any(self.tame(v, "an item") is UNKNOWN for v in values):
            return False
        found = self._scanned(f"items of {self.text(node)}", lambda: table_witnesses(values))
        if not found:
            return False

        def item(k: int) -> Any:
            return values[k] if keys is None else (keys[k], values[k])
        self._walk_witnessed(stmt, item(0), [(item(k), why) for k, why in found[1:]])
        return True

    def _scanned(self, what: str, scan: Any) -> Any:
        """The witnesses ``scan`` finds on live values (under the time bound of
        `_WITNESS_MS`); None where it raised (strange data: the loop is walked as any
        other), with a note naming ``what`` it read."""
        try:
            return self.guarded(scan, at_least_ms=_WITNESS_MS)
        except Stop:
            raise
        except Exception as exc:
            self.notes.append(f"{what} not read: {type(exc).__name__}: {safe_message(exc)}")
            return None

    def _walk_witnessed(self, stmt: ast.For, first: Any, later: list[tuple[Any, str]]) -> None:
        """Walk the loop's body certainly on ``first`` (the first item), then as a pass
        that comes later on each ``(item, why)`` of ``later`` (`_pass_again`; ``why`` ends
        the explanation of what the walk finds there), then its ``else``."""
        self.bind(stmt.target, first)
        self.block(stmt.body)
        outer = self.witness
        for value, why in later:
            self.witness = why
            try:
                self._pass_again(stmt, value)
            finally:
                self.witness = outer
        self._uncertain_blocks(stmt.orelse)

    def _pass_again(self, stmt: ast.For, target: Any) -> None:
        """Walk the body once more, as its last pass, with ``target`` bound: what the
        body binds holds what the passes between made of it (forgotten); what its calls
        changed, the first walk tainted as it went. Not certain where the body may leave
        the loop before its last pass."""
        self._forget(bound_names(stmt.body, receivers=False) | target_names(stmt.target))
        self.bind(stmt.target, target)
        exits = may_exit_loop(stmt.body)
        self.uncertain += exits
        try:
            self.block(stmt.body)
        finally:
            self.uncertain -= exits

    def _counting_call(self, node: ast.expr) -> _Counting | None:
        """``node`` as a call of builtin ``enumerate(a[, start])``, ``zip(a, b, ...)`` or
        ``reversed(a)`` (the name not rebound, no starred argument, no keyword but
        enumerate's ``start``), its arguments read once; else None."""
        if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Name) or \
                not node.args or any(isinstance(a, ast.Starred) for a in node.args):
            return None
        name = node.func.id
        most = {"enumerate": 2, "zip": len(node.args), "reversed": 1}.get(name, 0)
        if len(node.args) + len(node.keywords) > most or any(
                k.arg != "start" or name != "enumerate" for k in node.keywords) or \
                self.lookup(name) is not getattr(builtins, name):
            return None
        args = [self._reread(arg) for arg in node.args[:most if name != "enumerate" else 1]]
        return _Counting(name, args, self._start(node) if name == "enumerate" else 0)

    def _view_length(self, node: ast.expr) -> int | None:
        """len() of ``d.items()``, ``d.keys()`` or ``d.values()`` of a plain dict the walk
        knows, whatever its values hold (``models.items()`` of a dict of estimators, whose
        items no trial copies): the loop runs that many times, the first from the values
        before it."""
        if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Attribute) or \
                node.func.attr not in ("items", "keys", "values") or node.args or node.keywords:
            return None
        owner = self._reread(node.func.value)
        return len(owner) if type(owner) is dict else None

    def _reread(self, node: ast.expr) -> Any:
        saved = self.uncertain
        self.uncertain += 1  # already evaluated once: re-reading must not report again
        try:
            return self.ev(node)
        finally:
            self.uncertain = saved

    def _start(self, node: ast.Call) -> int | None:
        """enumerate's start: 0, or a known int."""
        given = node.args[1:] + [k.value for k in node.keywords]
        if not given:
            return 0
        start = self._reread(given[0]) if len(given) == 1 else UNKNOWN
        return start if type(start) is int else None

    @staticmethod
    def _counted_items(call: _Counting) -> list[Any] | None:
        """The items of ``enumerate(a)`` or ``zip(a, b)`` over plain, few items (as
        `small_items` tells them), each a tuple as the loop sees it; else None."""
        if call.name == "reversed":
            return None
        columns = [small_items(arg) for arg in call.args]
        if any(c is None for c in columns):
            return None
        if call.name == "zip":
            return list(zip(*columns))  # type: ignore[arg-type]
        return None if call.start is None else list(enumerate(columns[0], call.start))  # type: ignore[arg-type]

    @staticmethod
    def _known_length(value: Any, call: _Counting | None) -> int | None:
        """len() of what a for loop iterates, when it is cheap and safe to know."""
        size = _passes(value)
        if size is not None or call is None:
            return size
        sizes = [_passes(arg) for arg in call.args]
        return None if any(n is None for n in sizes) else min(sizes)  # type: ignore[type-var]

    _s_AsyncFor = _opaque

    def _s_With(self, stmt: ast.With) -> None:
        suppresses = unsure = False
        grad: bool | None = None  # the autograd mode a torch manager sets for the body
        for item in stmt.items:
            mode = self._grad_manager(item.context_expr)
            if mode is _NOT_GRAD:
                manager = self.ev(item.context_expr)
                if not is_known(manager) or may_suppress(manager, item.context_expr):
                    suppresses = True
                # a manager of user code may change the autograd mode for its body
                unsure |= not is_known(manager) or not _is_library_callable(manager)
            elif mode is None:
                unsure = True
            else:
                grad = mode
            if item.optional_vars is not None:
                self.bind(item.optional_vars, UNKNOWN)
        torch = sys.modules.get("torch")
        self.grad_unsure += unsure
        try:  # this thread's mode is set while the body is walked, as it will be while it
            # runs: meta tensors computed there require grad as the real ones will
            with torch.set_grad_enabled(grad) if grad is not None else \
                    contextlib.nullcontext():
                if suppresses:
                    self._uncertain_blocks(stmt.body)
                else:
                    self.block(stmt.body)
        finally:
            self.grad_unsure -= unsure

    def _grad_manager(self, expr: ast.expr) -> Any:
        """The autograd mode ``expr`` sets for a ``with`` body when it is one of torch's
        grad-mode managers (``no_grad()``, ``enable_grad()``, ``inference_mode(...)``,
        ``set_grad_enabled(...)``, which never suppress an exception): True or False, None
        when its flag is unknown; `_NOT_GRAD` for anything else (then not evaluated)."""
        torch = sys.modules.get("torch")
        if torch is None or not isinstance(expr, ast.Call) or not isinstance(
                expr.func, (ast.Name, ast.Attribute)):
            return _NOT_GRAD
        func = self.value_of(expr.func)
        kind = next((name for name in _GRAD_MANAGERS if is_known(func) and
                     func is getattr(torch, name, None)), None)
        if kind is None:
            return _NOT_GRAD
        args = [self.ev(a) for a in expr.args] + [self.ev(k.value) for k in expr.keywords]
        if any(isinstance(a, ast.Starred) for a in expr.args) or len(args) > 1:
            return None
        flag = args[0] if args else kind != "set_grad_enabled" or None
        if flag is None or not is_known(flag) or type(flag) is not bool:
            return None
        if kind == "no_grad":
            return False
        if kind == "enable_grad":
            return True
        if kind == "inference_mode":  # inference tensors never require grad
            return False if flag else bool(torch.is_grad_enabled())
        return flag

    def _s_Try(self, stmt: ast.Try) -> None:
        self._uncertain_blocks(stmt.body, *[h.body for h in stmt.handlers], stmt.orelse)
        for handler in stmt.handlers:
            if handler.name:
                self.env[handler.name] = UNKNOWN
        self.block(stmt.finalbody)

    _s_TryStar = _s_Try

    def _s_FunctionDef(self, stmt: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        for dec in stmt.decorator_list:
            self.ev(dec)
        for default in [*stmt.args.defaults, *[d for d in stmt.args.kw_defaults if d]]:
            self.ev(default)
        self.env[stmt.name] = CellFunction(stmt) if not stmt.decorator_list else UNKNOWN

    _s_AsyncFunctionDef = _s_FunctionDef

    def _s_ClassDef(self, stmt: ast.ClassDef) -> None:
        for node in [*stmt.decorator_list, *stmt.bases]:
            self.ev(node)
        self.env[stmt.name] = UNKNOWN

    def _s_Import(self, stmt: ast.Import) -> None:
        if any(alias.name not in sys.modules for alias in stmt.names):
            self.modules_changed = True
        for alias in stmt.names:
            module = sys.modules.get(alias.name)
            if alias.asname:
                self.env[alias.asname] = module if module is not None else UNKNOWN
            else:
                # `import a.b` makes a.b an attribute of a only once it has run.
                top = alias.name.partition(".")[0]
                known = alias.name in sys.modules
                self.env[top] = sys.modules.get(top, UNKNOWN) if known else UNKNOWN

    def _s_ImportFrom(self, stmt: ast.ImportFrom) -> None:
        module = sys.modules.get(stmt.module or "") if not stmt.level else None
        if module is None or any(f"{stmt.module}.{a.name}" not in sys.modules and a.name not in
                                 getattr(module, "__dict__", {}) for a in stmt.names):
            self.modules_changed = True
        for alias in stmt.names:
            if alias.name == "*":
                self.names_unreliable = True
                continue
            value = UNKNOWN
            if module is not None:
                value = safe_getattr(module, alias.name)
            self.env[alias.asname or alias.name] = value

    def _s_Raise(self, stmt: ast.Raise) -> None:
        exc = self.ev(stmt.exc) if stmt.exc is not None else UNKNOWN
        if stmt.cause is not None:
            self.ev(stmt.cause)
        name = None
        if isinstance(exc, type) and issubclass(exc, BaseException):
            name = exc.__name__
        elif isinstance(exc, BaseException):
            name = type(exc).__name__
        elif isinstance(stmt.exc, ast.Call) and isinstance(stmt.exc.func, ast.Name):
            cls = self.lookup(stmt.exc.func.id)
            if isinstance(cls, type) and issubclass(cls, BaseException):
                name = cls.__name__
        if name is not None and not self.loop_depth:
            self.report(Finding(exception=name, crash_type=crash_type_of(name),
                                library="python", rule="raise",
                                explanation=f"the cell raises {name} unconditionally"), stmt)

    def _s_Assert(self, stmt: ast.Assert) -> None:
        if self.truth(self.ev(stmt.test)) is False:
            self.report(Finding(exception="AssertionError", crash_type="data value violation",
                                library="python", rule="assert",
                                explanation=f"the assertion `{self.text(stmt.test)}` is false"),
                        stmt)

    def _s_Pass(self, stmt: ast.stmt) -> None:
        return

    _s_Global = _s_Nonlocal = _s_Break = _s_Continue = _s_Pass

    def _s_Return(self, stmt: ast.Return) -> None:
        if stmt.value is not None:
            self.ev(stmt.value)

    # ----- binding and tainting -------------------------------------------------------
    def bind(self, target: ast.expr, value: Any) -> None:
        """Bind an assignment target to a value (UNKNOWN when it cannot be split)."""
        if isinstance(target, ast.Name):
            self.env[target.id] = value
        elif isinstance(target, (ast.Tuple, ast.List)):
            if is_known(value) or isinstance(value, SizedUnknown):
                self._apply(self.rules.unpack, target, target, value, self)
            parts = None
            # exact types: a subclass's __len__ / __iter__ is its own code (but torch's
            # shapes: a tuple's, in C)
            if is_known(value) and (type(value) in (tuple, list) or _torch_size(value)) and not any(
                    isinstance(e, ast.Starred) for e in target.elts):
                parts = list(value) if len(value) == len(target.elts) else None
            for i, elt in enumerate(target.elts):
                inner = elt.value if isinstance(elt, ast.Starred) else elt
                self.bind(inner, parts[i] if parts is not None else UNKNOWN)
        elif isinstance(target, ast.Subscript):
            base = self.ev(target.value)
            key = self.ev(target.slice)
            frame = base.obj if isinstance(base, Partial) else base
            if is_known(frame) and (is_known(key) or isinstance(key, (str, int))):
                self.subject = self.text(target.value)
                self._apply(self.rules.store_item, target, frame, key, value, self)
            self._store_item(target, base, key, value)
        elif isinstance(target, ast.Attribute):
            base = self.ev(target.value)
            if is_known(base):
                self.subject = self.text(target.value)
                self._apply(self.rules.store_attribute, target, base, target.attr, value, self)
            self.taint(target)
        elif isinstance(target, ast.Starred):
            self.bind(target.value, UNKNOWN)

    def _store_item(self, target: ast.Subscript, base: Any, key: Any, value: Any) -> None:
        root = target.value
        if isinstance(root, ast.Name) and hashable(key):
            current = self.env.get(root.id, MISSING)
            if isinstance(current, Partial):
                values = {k: v for k, v in current.values.items() if k != key}
                if exact_item(current.obj, value):
                    values[key] = value
                self.env[root.id] = Partial(current.obj, current.dirty | {key}, values)
                return
            if is_known(base) and keyed_container(base):
                self._forget_aliases(base, keep=root.id)
                values = {key: value} if exact_item(base, value) else {}
                self.env[root.id] = Partial(base, frozenset({key}), values)
                return
        self.taint(target)

    def taint(self, node: ast.AST) -> None:
        """Forget what is known about the root name of ``node`` (it may have changed)."""
        root = root_name(node)
        if root is None:
            return
        value = self.lookup(root)
        if is_known(value) and stable(value):
            return
        self.env[root] = UNKNOWN
        if is_known(value) and not isinstance(value, (str, int, float, bool, tuple)):
            self._forget_aliases(value, keep=root)

    def changed_by_call(self, node: ast.AST) -> None:
        """``node`` is the receiver of a call that may change it: forget what it holds,
        keep its class when ``node`` is a name (`Changed`): a call changes what an object
        holds, not the object its name is bound to."""
        before = self.lookup(node.id) if isinstance(node, ast.Name) else UNKNOWN
        self.taint(node)
        if isinstance(before, Changed):
            self.env[node.id] = before
        elif is_known(before) and not stable(before) and \
                not isinstance(before, (str, int, float, bool, tuple)):
            self.env[node.id] = Changed(before)

    def _forget_aliases(self, obj: Any, keep: str) -> None:
        """Other names bound to the same object see its change too (``X = df``)."""
        for name, value in list(self.env.items()):
            if value is obj and name != keep:
                self.env[name] = UNKNOWN
            elif isinstance(value, Partial) and any(v is obj for v in value.values.values()):
                values = {k: v for k, v in value.values.items() if v is not obj}
                self.env[name] = Partial(value.obj, value.dirty, values)
        for name, value in self.namespace.items():
            if value is obj and name != keep and name not in self.env:
                self.env[name] = UNKNOWN


def _torch_size(value: Any) -> bool:
    """A tensor's shape (``torch.Size``: a tuple of ints, iterated as a tuple is)."""
    kind = type(value)
    return kind.__name__ == "Size" and kind.__module__ == "torch" and tuple in kind.__mro__
