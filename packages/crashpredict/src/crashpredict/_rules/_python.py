"""Plain-Python rules: calling a non-callable, subscripting a non-subscriptable, unpacking,
arithmetic on plain values, and the pandas accessor and axis-assignment checks."""

from __future__ import annotations

import ast
import collections
import operator
import time
from typing import Any

from ._finding import Finding
from ._values import SizedUnknown, is_frame, is_known, is_series, library_of
from ._walk._types import CallSite, CellFunction, Walker

__all__ = ["not_callable", "not_subscriptable", "bad_unpack", "plain_binop",
           "bad_accessor", "axis_assignment", "pruned_while_iterated"]

_PLAIN = (int, float, bool, str, type(None))
_OPS = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul,
        ast.Div: operator.truediv, ast.FloorDiv: operator.floordiv, ast.Mod: operator.mod}
_SYMBOL = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.Div: "/", ast.FloorDiv: "//",
           ast.Mod: "%"}


def _type_has(tp: type, name: str) -> bool:
    return any(name in klass.__dict__ for klass in tp.__mro__)


def not_callable(site: CallSite) -> Finding | None:
    """``df.shape()``: the callee is a live value that cannot be called."""
    func = site.func
    if not is_known(func) or callable(func) or isinstance(func, CellFunction):
        return None
    name = site.text(site.node.func)
    return Finding(exception="TypeError", crash_type="type error",
                   library=library_of(site.receiver) if site.method and is_known(
                       site.receiver) else "python",
                   explanation=f"'{type(func).__name__}' object is not callable: {name} is "
                               f"{_short(func)}, not a function",
                   confidence=0.96, rule="not-callable")


def not_subscriptable(base: Any, key: Any, walker: Walker) -> Finding | None:
    """``model['x']``: the live object's type has no ``__getitem__``."""
    if isinstance(base, type) or _type_has(type(base), "__getitem__"):
        return None
    return Finding(exception="TypeError", crash_type="type error", library=library_of(base),
                   explanation=f"'{type(base).__name__}' object is not subscriptable: "
                               f"{walker.subject} is {_short(base)}",
                   confidence=0.95, rule="not-subscriptable")


def bad_unpack(target: ast.Tuple | ast.List, value: Any, walker: Walker) -> Finding | None:
    """``a, b = (1, 2, 3)``: a known sequence of the wrong length."""
    if any(isinstance(e, ast.Starred) for e in target.elts):
        return None
    if isinstance(value, SizedUnknown):
        have = value.length
    elif type(value) in (tuple, list):
        have = len(value)
    else:
        return None
    want = len(target.elts)
    if have == want:
        return None
    message = (f"too many values to unpack (expected {want})" if have > want else
               f"not enough values to unpack (expected {want}, got {have})")
    return Finding(exception="ValueError", crash_type="value error", library="python",
                   explanation=f"{message}: the right-hand side has {have} items",
                   confidence=0.95, rule="unpack")


def plain_binop(op: ast.operator, left: Any, right: Any, walker: Walker) -> \
        Finding | None:
    """``'acc: ' + 0.93``: arithmetic on plain values that raises."""
    if type(left) not in _PLAIN or type(right) not in _PLAIN or type(op) not in _OPS:
        return None
    if isinstance(op, ast.Mod) and isinstance(left, str):
        return None  # %-formatting: too many shapes to model
    if isinstance(op, ast.Mult) and (isinstance(left, str) or isinstance(right, str)):
        return None
    try:
        _OPS[type(op)](left, right)
    except (TypeError, ZeroDivisionError) as exc:
        name = type(exc).__name__
        return Finding(exception=name, crash_type="type error" if name == "TypeError"
                       else "data value violation", library="python",
                       explanation=f"{_short(left)} {_SYMBOL[type(op)]} {_short(right)} raises "
                                   f"{name}: {exc}", confidence=0.95, rule="plain-arithmetic")
    return None


def bad_accessor(obj: Any, name: str, walker: Walker) -> Finding | None:
    """``s.str`` on a non-string Series (and ``.dt``/``.cat``): the accessor refuses it."""
    if name not in ("str", "dt", "cat") or not is_series(obj):
        return None
    try:
        getattr(obj, name)
    except AttributeError as exc:
        return Finding(exception="AttributeError", crash_type="attribute error",
                       library="pandas",
                       explanation=f"{exc} ({walker.subject} has dtype {obj.dtype})",
                       confidence=0.95, rule="pandas-accessor")
    except Exception:
        return None
    return None


def axis_assignment(base: Any, attr: str, value: Any, walker: Walker) -> Finding | None:
    """``df.columns = [...]`` with a different number of labels than the frame has."""
    if attr not in ("columns", "index") or not is_frame(base) or not is_known(value):
        return None
    if type(value) not in (list, tuple):
        return None
    axis = 1 if attr == "columns" else 0
    have = base.shape[axis]
    if len(value) == have:
        return None
    return Finding(exception="ValueError", crash_type="value error", library="pandas",
                   explanation=f"Length mismatch: {walker.subject} has {have} "
                               f"{'columns' if axis else 'rows'}, the new {attr} have "
                               f"{len(value)} labels", confidence=0.95, rule="axis-assignment")


def _short(value: Any) -> str:
    text = repr(value) if type(value) in _PLAIN else f"a {type(value).__name__}"
    return text if len(text) <= 40 else text[:37] + "..."


#: Containers whose own iterator refuses a change of size (exact types: a subclass may
#: iterate in its own way).
_SIZED_ITERATION = (dict, collections.Counter, collections.OrderedDict,
                    collections.defaultdict, set)
#: Items a loop's test is tried on, at most (in order: the first that passes decides)...
_PRUNE_SCAN_ITEMS = 200_000
#: ...and for at most this long.
_PRUNE_SCAN_S = 0.02
_COMPARE = {ast.Lt: operator.lt, ast.LtE: operator.le, ast.Gt: operator.gt,
            ast.GtE: operator.ge, ast.Eq: operator.eq, ast.NotEq: operator.ne,
            ast.In: lambda a, b: a in b, ast.NotIn: lambda a, b: a not in b}
_NO = object()


def pruned_while_iterated(stmt: ast.stmt, walker: Walker) -> Finding | None:
    """``for tok, cnt in vocab.items(): if cnt < 3: del vocab[tok]``: a dict (or set) that
    loses a key while its own iterator runs over it; the iterator's next step raises
    ``RuntimeError``, even after the last item. Only where the removal certainly runs:
    the loop's body has no ``break``, ``continue``, ``return``, ``raise`` or ``try``, the
    removal (``del d[k]``, ``d.pop(k)`` of the key iterated, ``d.popitem()``,
    ``d.clear()``, a set's ``remove``/``discard`` of the item) is a statement of the body
    or of an ``if`` at its top whose test compares only the loop's own values and plain
    values, which no statement of the body binds (nor stores into the container, nor hands
    it to a call), and one of the live items passes that test (tried in order, briefly)."""
    if not isinstance(stmt, ast.For) or stmt.orelse:
        return None
    over = _iterated(stmt.iter)
    if over is None:
        return None
    name, view = over
    container = walker.value_of(ast.Name(id=name, ctx=ast.Load()))
    if not is_known(container) or type(container) not in _SIZED_ITERATION or not container:
        return None
    if isinstance(container, set) and view != "keys":
        return None
    key, value = _loop_targets(stmt.target, view)
    if key is None and value is None:
        return None
    for node in ast.walk(ast.Module(body=stmt.body, type_ignores=[])):
        if isinstance(node, (ast.Break, ast.Continue, ast.Return, ast.Raise, ast.Try,
                             ast.Yield, ast.YieldFrom, ast.Global, ast.Nonlocal,
                             ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef,
                             ast.Lambda, ast.NamedExpr)):
            return None
    own = {n for n in (key, value) if n is not None}
    for position, statement in enumerate(stmt.body):
        test, removal = _removal(statement, name, key, isinstance(container, set))
        if removal is None:
            continue
        # what the test reads holds, at the item that passes, what it held before the
        # loop: no statement of the body (those after the removal run in the iterations
        # before that item) binds it, stores into the container or hands it to a call
        rebound = {n.id for s in stmt.body for n in ast.walk(s)
                   if isinstance(n, ast.Name) and isinstance(n.ctx, (ast.Store, ast.Del))}
        if name in rebound or own & rebound or _touches(stmt.body, name, removal):
            return None
        if test is not None:
            read = {n.id for n in ast.walk(test) if isinstance(n, ast.Name)}
            if read & rebound:
                return None
            passing = _first_passing(test, container, name, view, key, value, walker)
            if passing is None:
                return None
            which = f"{_plain_repr(passing)} passes {walker.text(test)}: "
        else:
            which = ""
        message = "Set changed size" if isinstance(container, set) else \
            "OrderedDict mutated" if type(container) is collections.OrderedDict else \
            "dictionary changed size"
        return Finding(exception="RuntimeError", crash_type="unknown", library="python",
                       explanation=f"{message} during iteration: {which}"
                                   f"{walker.text(removal)} removes from {name} "
                                   f"({type(container).__name__}, {len(container)} items) "
                                   f"while the loop iterates over it, and its next step "
                                   f"raises (iterate over list({walker.text(stmt.iter)}))",
                       confidence=0.95, rule="pruned-while-iterated")
    return None


def _plain_repr(item: Any) -> str:
    text = repr(item)  # plain values and tuples of them (`_first_passing`)
    return text if len(text) <= 60 else text[:57] + "..."


def _iterated(node: ast.expr) -> tuple[str, str] | None:
    """``d`` / ``d.keys()`` / ``d.items()`` / ``d.values()``: (name, view)."""
    if isinstance(node, ast.Name):
        return node.id, "keys"
    if isinstance(node, ast.Call) and not node.args and not node.keywords and \
            isinstance(node.func, ast.Attribute) and isinstance(node.func.value, ast.Name) \
            and node.func.attr in ("keys", "items", "values"):
        return node.func.value.id, node.func.attr
    return None


def _loop_targets(target: ast.expr, view: str) -> tuple[str | None, str | None]:
    if view == "items":
        if isinstance(target, ast.Tuple) and len(target.elts) == 2 and all(
                isinstance(e, ast.Name) for e in target.elts):
            k, v = target.elts
            assert isinstance(k, ast.Name) and isinstance(v, ast.Name)
            return (k.id if k.id != "_" else None), (v.id if v.id != "_" else None)
        return None, None
    if not isinstance(target, ast.Name):
        return None, None
    return (target.id, None) if view == "keys" else (None, target.id)


def _removal(statement: ast.stmt, name: str, key: str | None,
             is_set: bool) -> tuple[ast.expr | None, ast.AST | None]:
    """(the test it runs under or None, the removal) for a statement that removes from
    ``name``; (None, None) for one that does not."""
    if isinstance(statement, ast.If) and len(statement.body) >= 1:
        for inner in statement.body:
            found = _removes(inner, name, key, is_set)
            if found is not None:
                return statement.test, found
        return None, None
    return None, _removes(statement, name, key, is_set)


def _removes(statement: ast.stmt, name: str, key: str | None, is_set: bool) -> ast.AST | None:
    if isinstance(statement, ast.Delete) and not is_set and key is not None:
        for target in statement.targets:
            if isinstance(target, ast.Subscript) and isinstance(target.value, ast.Name) and \
                    target.value.id == name and isinstance(target.slice, ast.Name) and \
                    target.slice.id == key:
                return statement
        return None
    if not isinstance(statement, ast.Expr) or not isinstance(statement.value, ast.Call):
        return None
    call = statement.value
    func = call.func
    if not isinstance(func, ast.Attribute) or not isinstance(func.value, ast.Name) or \
            func.value.id != name or call.keywords:
        return None
    if func.attr in ("popitem", "clear") and not call.args and not is_set:
        return call
    keyed = ("remove", "discard") if is_set else ("pop",)
    if func.attr in keyed and len(call.args) == 1 and key is not None and \
            isinstance(call.args[0], ast.Name) and call.args[0].id == key:
        return call
    return None


def _touches(statements: list[ast.stmt], name: str, removal: ast.AST) -> bool:
    """A method of ``name`` called, ``name`` handed to a call, or an item of it stored or
    deleted, in ``statements``, but for ``removal``."""
    skip = {id(n) for n in ast.walk(removal)}
    for statement in statements:
        for node in ast.walk(statement):
            if id(node) in skip:
                continue
            if isinstance(node, ast.Call) and any(
                    isinstance(n, ast.Name) and n.id == name for n in ast.walk(node)):
                return True
            if isinstance(node, ast.Subscript) and isinstance(node.ctx, (ast.Store, ast.Del)) \
                    and isinstance(node.value, ast.Name) and node.value.id == name:
                return True
    return False


def _first_passing(test: ast.expr, container: Any, name: str, view: str, key: str | None,
                   value: str | None, walker: Walker) -> Any:
    """The first item of ``container`` (in its own order) for which ``test`` is true, or
    None (none within the scan's bounds, or a test this cannot tell)."""
    names = {n.id for n in ast.walk(test) if isinstance(n, ast.Name)} - {key, value}
    # ``scores[name]`` of the key iterated: the item's value (read as dict reads it)
    looked_up = key is not None and not isinstance(container, set) and any(
        isinstance(n, ast.Subscript) and isinstance(n.value, ast.Name) and n.value.id == name
        and isinstance(n.slice, ast.Name) and n.slice.id == key for n in ast.walk(test))
    if looked_up:
        names.discard(name)
    env: dict[str, Any] = {}
    for n in names:
        known = walker.value_of(ast.Name(id=n, ctx=ast.Load()))
        if not is_known(known) or type(known) not in _PLAIN and not (
                type(known) in (set, frozenset, tuple, list) and len(known) <= 10_000 and
                all(type(x) in _PLAIN for x in known)):
            return None
        env[n] = known
    items = dict.items(container) if view == "items" else (
        dict.values(container) if view == "values" else iter(container))
    end = time.perf_counter() + _PRUNE_SCAN_S
    for count, item in enumerate(items):
        if count >= _PRUNE_SCAN_ITEMS or (count % 256 == 0 and time.perf_counter() > end):
            return None
        if view == "items":
            env_item = {key: item[0], value: item[1]}
        else:
            env_item = {key if view == "keys" else value: item}
        env_item.pop(None, None)
        if looked_up:
            env_item[_LOOKED_UP] = dict.__getitem__(container, env_item[key])
        if any(type(v) not in _PLAIN for v in env_item.values()):
            return None
        truth = _test(test, {**env, **env_item}, name, key)
        if truth is _NO:
            return None
        if truth:
            return item
    return None


_LOOKED_UP = "\0looked up"


def _test(node: ast.expr, env: dict[str, Any], name: str = "", key: str | None = None) -> Any:
    """A test of plain values: comparisons, ``and``/``or``/``not``, names, constants, the
    container's value at the key iterated; `_NO` for anything else or an error."""
    try:
        if isinstance(node, ast.Constant) and type(node.value) in _PLAIN:
            return node.value
        if isinstance(node, ast.Subscript):
            if _LOOKED_UP in env and isinstance(node.value, ast.Name) and \
                    node.value.id == name and isinstance(node.slice, ast.Name) and \
                    node.slice.id == key:
                return env[_LOOKED_UP]
            return _NO
        if isinstance(node, ast.Name):
            return env[node.id] if node.id in env else _NO
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            inner = _test(node.operand, env, name, key)
            return _NO if inner is _NO else not inner
        if isinstance(node, ast.BoolOp):
            values = [_test(v, env, name, key) for v in node.values]
            if any(v is _NO for v in values):
                return _NO
            return all(values) if isinstance(node.op, ast.And) else any(values)
        if isinstance(node, ast.Compare):
            left = _test(node.left, env, name, key)
            if left is _NO:
                return _NO
            for op, right_node in zip(node.ops, node.comparators):
                right = _test(right_node, env, name, key)
                if right is _NO or type(op) not in _COMPARE:
                    return _NO
                if not _COMPARE[type(op)](left, right):
                    return False
                left = right
            return True
    except Exception:  # noqa: BLE001 - a comparison of plain values that raises: untold
        return _NO
    return _NO
