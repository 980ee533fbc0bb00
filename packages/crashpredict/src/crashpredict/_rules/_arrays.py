"""numpy / torch shape rules: broadcasting, matmul, reshape, concatenate."""

from __future__ import annotations

import ast
import math
import types
from typing import Any

from ._finding import Finding
from ._values import is_ndarray, is_tensor, meta_attr, type_root
from ._walk._types import CallSite, Walker

__all__ = ["broadcast_binop", "array_call"]

_ELEMENTWISE = (ast.Add, ast.Sub, ast.Mult, ast.Div, ast.FloorDiv, ast.Mod, ast.Pow)


def _shape(value: Any) -> tuple[int, ...] | None:
    if is_ndarray(value) or is_tensor(value):
        return tuple(int(d) for d in value.shape)
    return None


def _broadcast(a: tuple[int, ...], b: tuple[int, ...]) -> tuple[int, int, int] | None:
    """The first axis (counted from the right) where a and b cannot broadcast."""
    for i in range(1, min(len(a), len(b)) + 1):
        da, db = a[-i], b[-i]
        if da != db and da != 1 and db != 1:
            return len(max(a, b, key=len)) - i, da, db
    return None


def broadcast_binop(op: ast.operator, left: Any, right: Any, walker: Walker) -> \
        Finding | None:
    """Elementwise arithmetic and ``@`` on arrays or tensors whose shapes cannot combine."""
    a, b = _shape(left), _shape(right)
    if a is None or b is None or is_tensor(left) != is_tensor(right):
        return None
    torch = is_tensor(left)
    if isinstance(op, ast.MatMult):
        return _matmul(a, b, torch, "@")
    if not isinstance(op, _ELEMENTWISE):
        return None
    clash = _broadcast(a, b)
    if clash is None:
        return None
    axis, da, db = clash
    if torch:
        text = (f"The size of tensor a ({da}) must match the size of tensor b ({db}) at "
                f"non-singleton dimension {axis}")
        return Finding(exception="RuntimeError", crash_type="unsupported broadcast",
                       library="torch", explanation=text, rule="broadcast",
                       evidence=(f"shapes {a} and {b}",))
    return Finding(exception="ValueError", crash_type="unsupported broadcast", library="numpy",
                   explanation=f"operands could not be broadcast together with shapes {a} {b}",
                   evidence=(f"axis {axis}: {da} vs {db}",), rule="broadcast")


def _matmul(a: tuple[int, ...], b: tuple[int, ...], torch: bool, how: str) -> Finding | None:
    if not a or not b:
        return None
    inner_a = a[-1]
    inner_b = b[0] if len(b) == 1 else b[-2]
    if inner_a == inner_b:
        return None
    if torch:
        return Finding(exception="RuntimeError", crash_type="tensor shape mismatch",
                       library="torch",
                       explanation=f"mat1 and mat2 shapes cannot be multiplied ({a} {how} {b}): "
                                   f"{inner_a} != {inner_b}", rule="matmul")
    return Finding(exception="ValueError", crash_type="tensor shape mismatch", library="numpy",
                   explanation=f"shapes {a} and {b} are not aligned for {how}: {inner_a} "
                               f"(last axis of the first) != {inner_b}", rule="matmul")


def _ints(values: Any) -> tuple[int, ...] | None:
    if type(values) in (tuple, list) and all(type(v) is int for v in values):
        return tuple(values)
    return None


def _reshape(size: int, shape: tuple[int, ...], torch: bool, lib: str) -> Finding | None:
    known = [d for d in shape if d != -1]
    if shape.count(-1) > 1 or any(d < -1 for d in shape):
        return None
    prod = math.prod(known)
    if shape.count(-1) == 1:
        ok = prod != 0 and size % prod == 0
    else:
        ok = prod == size
    if ok:
        return None
    if torch:
        text = f"shape '{list(shape)}' is invalid for input of size {size}"
        return Finding(exception="RuntimeError", crash_type="tensor shape mismatch",
                       library="torch", explanation=text, rule="reshape")
    return Finding(exception="ValueError", crash_type="tensor shape mismatch", library=lib,
                   explanation=f"cannot reshape array of size {size} into shape {shape}",
                   rule="reshape")


def array_call(site: CallSite) -> Finding | None:
    """reshape/view, dot/matmul and concatenate/stack calls over live shapes."""
    method, receiver = site.method, site.receiver
    if site.starred:
        return None
    if method in ("reshape", "view") and (is_ndarray(receiver) or is_tensor(receiver)):
        if method == "view" and not is_tensor(receiver):
            return None
        args = site.args[0] if len(site.args) == 1 and type(site.args[0]) in (tuple, list) \
            else site.args
        shape = _ints(args)
        if shape is None or not shape:
            return None
        size = int(receiver.numel()) if is_tensor(receiver) else int(receiver.size)
        return _reshape(size, shape, is_tensor(receiver), "numpy")
    module = receiver if isinstance(receiver, types.ModuleType) else None
    if module is None and method is not None:
        if method == "dot" and is_ndarray(receiver) and site.args:
            b = _shape(site.args[0])
            return _matmul(_shape(receiver) or (), b, False, ".dot") if b and is_ndarray(
                site.args[0]) else None
        return None
    name = method if module is not None else meta_attr(site.func, "__name__")
    root = module.__name__ if module is not None else type_root(site.func)
    if root not in ("numpy", "torch"):
        return None
    torch = root == "torch"
    args = site.args
    if name == "reshape" and len(args) >= 2 and (is_ndarray(args[0]) or is_tensor(args[0])):
        shape = _ints(args[1]) if type(args[1]) in (tuple, list) else _ints([args[1]])
        if shape:
            size = int(args[0].numel()) if is_tensor(args[0]) else int(args[0].size)
            return _reshape(size, shape, torch, "numpy")
    if name in ("dot", "matmul", "mm") and len(args) == 2:
        a, b = _shape(args[0]), _shape(args[1])
        if a and b and is_tensor(args[0]) == torch and is_tensor(args[1]) == torch:
            return _matmul(a, b, torch, name)
    if name in ("concatenate", "cat", "stack", "vstack", "hstack") and args and type(
            args[0]) in (list, tuple):
        return _concat(name, list(args[0]), site.kwargs.get("axis", site.kwargs.get(
            "dim", args[1] if len(args) > 1 else 0)), torch)
    return None


def _concat(name: str, items: list[Any], axis: Any, torch: bool) -> Finding | None:
    shapes = [_shape(i) for i in items]
    if len(shapes) < 2 or any(s is None for s in shapes) or type(axis) is not int:
        return None
    if any(is_tensor(i) != torch for i in items):
        return None
    lib = "torch" if torch else "numpy"
    exc = "RuntimeError" if torch else "ValueError"
    first = shapes[0]
    if name == "stack":
        for i, s in enumerate(shapes[1:], 1):
            if s != first:
                return Finding(exception=exc, crash_type="tensor shape mismatch", library=lib,
                               explanation=f"stack expects each tensor to be equal size, but "
                                           f"got {list(first)} at entry 0 and {list(s)} at "
                                           f"entry {i}", rule="concatenate")
        return None
    if name == "vstack":
        shapes = [s if len(s) > 1 else (1, *s) for s in shapes]  # type: ignore[misc]
        axis = 0
    if name == "hstack":
        axis = 0 if len(first) == 1 else 1
    first = shapes[0]
    for i, s in enumerate(shapes[1:], 1):
        if len(s) != len(first):
            return Finding(exception=exc, crash_type="tensor shape mismatch", library=lib,
                           explanation=f"{name}: all inputs must have the same number of "
                                       f"dimensions; input 0 has {len(first)} (shape {first}), "
                                       f"input {i} has {len(s)} (shape {s})",
                           rule="concatenate")
        ax = axis if axis >= 0 else axis + len(first)
        if not 0 <= ax < len(first):
            return None
        for d in range(len(first)):
            if d != ax and s[d] != first[d]:
                return Finding(exception=exc, crash_type="tensor shape mismatch", library=lib,
                               explanation=f"{name} along axis {ax}: input 0 has shape {first}"
                                           f" and input {i} has shape {s}; all dimensions "
                                           f"except axis {ax} must match exactly",
                               rule="concatenate")
    return None

