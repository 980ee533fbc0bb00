"""Plain-Python rules: calling a non-callable, subscripting a non-subscriptable, unpacking,
arithmetic on plain values, and the pandas accessor and axis-assignment checks."""

from __future__ import annotations

import ast
import operator
from typing import Any

from ._finding import Finding
from ._values import SizedUnknown, is_frame, is_known, is_series, library_of
from ._walk._types import CallSite, CellFunction, Walker

__all__ = ["not_callable", "not_subscriptable", "bad_unpack", "plain_binop",
           "bad_accessor", "axis_assignment"]

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
