"""Shared helpers of propagation: stand-ins for abstract arrays, reporting, evidence.

A numpy stand-in is a zero-stride array (``np.broadcast_to``) of an abstract array's shape
and dtype: numpy's own checks run on it exactly as on the real array, without its memory
and without its values (which are never read).
"""

from __future__ import annotations

import ast
import math
import sys
from typing import Any

import rtextract

from ._finding import Finding
from ._values import (
    Abstract,
    describe_value,
    is_abstract,
    is_frame,
    is_known,
    is_ndarray,
    is_series,
    safe_message,
)
from ._walk._types import Walker

__all__ = ['MAX_ELEMENTS', 'SAMPLE_ROWS', 'np_module', 'size_of', 'report', 'describe', 'standin', 'abstract_array', 'has_nan', 'to_standin', 'short']


MAX_ELEMENTS = 2_000_000
SAMPLE_ROWS = 64

def np_module() -> Any:
    return sys.modules.get("numpy")


def size_of(shape: tuple[int, ...] | None) -> int:
    return math.prod(shape) if shape is not None else MAX_ELEMENTS + 1


def report(walker: Walker, node: ast.AST, exc: BaseException, library: str,
            what: str, evidence: tuple[str, ...] = (), confidence: float = 0.94) -> None:
    from .._model import crash_type_of
    name = type(exc).__name__
    message = safe_message(exc) or name
    walker.report(Finding(exception=name, crash_type=crash_type_of(name, message),
                          library=library, confidence=confidence, rule="propagation",
                          evidence=evidence,
                          explanation=f"`{what}` raises {name}: {message}"), node)


def describe(value: Any) -> str:
    if isinstance(value, Abstract):
        where = f", device={value.device}" if value.device else ""
        return f"{value.kind} shape={value.shape} dtype={value.dtype}{where} (computed " \
               f"in the cell)"
    return describe_value(value)


# ----- numpy --------------------------------------------------------------------------
def standin(value: Any) -> Any:
    """A zero-stride ndarray of an Abstract array's shape and dtype (no memory)."""
    np = np_module()
    if is_abstract(value, "ndarray") and value.shape is not None and np is not None:
        try:
            return np.broadcast_to(np.zeros((), dtype=value.dtype or "float64"), value.shape)
        except Exception:
            return None
    return None


def abstract_array(result: Any, origin: str = "", nan: bool = False, sample: Any = None) \
        -> Any:
    np = np_module()
    if np is None or not isinstance(result, np.ndarray):
        return None
    return Abstract("ndarray", shape=result.shape, dtype=result.dtype, nan=nan, inf=False,
                    sample=sample, origin=origin)



def has_nan(value: Any) -> bool:
    """A NaN certainly in a real float array or an Abstract one (bounded scan)."""
    np = np_module()
    if is_abstract(value):
        return bool(value.nan)
    if is_ndarray(value) and value.dtype.kind == "f" and value.size <= MAX_ELEMENTS:
        return bool(np.isnan(value).any())
    return False


def to_standin(value: Any, depth: int = 0) -> tuple[bool, Any]:
    """(ok, value) with Abstract arrays replaced by stand-ins; ok=False when it can't."""
    if is_abstract(value):
        stand = standin(value)
        return (stand is not None and size_of(value.shape) <= MAX_ELEMENTS), stand
    if isinstance(value, Abstract) or not is_known(value):
        return False, None
    if type(value) in (list, tuple) and depth == 0 and len(value) <= 64:
        parts = [to_standin(v, 1) for v in value]
        return all(ok for ok, _ in parts), type(value)(v for _, v in parts)
    if is_ndarray(value):
        return value.size <= MAX_ELEMENTS, value
    if type(value) in (int, float, bool, str, type(None)) or isinstance(value, type):
        return True, value
    np = np_module()
    if np is not None and isinstance(value, np.dtype):
        return True, value
    return False, None




def short(text: str) -> str:
    return text if len(text) <= 80 else text[:77] + "..."


def _shape(value: Any) -> tuple[int, ...]:
    """The shape of a live or abstract array; () for a scalar or anything else (a user
    object's ``shape`` property is never read)."""
    if isinstance(value, Abstract):
        return tuple(value.shape)  # type: ignore[arg-type]  (unknown: TypeError, as before)
    if rtextract.user_classes(type(value)) or rtextract.lookup_runs_user_code(value):
        return ()
    return tuple(getattr(value, "shape", ()))


def result_fits(op: ast.AST, left: Any, right: Any) -> bool:
    """The result of ``left op right`` has at most MAX_ELEMENTS elements (checked from the
    shapes before anything is computed); pandas operands must share their index, since
    aligning duplicate labels can multiply rows."""
    if is_series(left) or is_series(right) or is_frame(left) or is_frame(right):
        frames = [v for v in (left, right) if is_frame(v)]
        series = [v for v in (left, right) if is_series(v)]
        if len(frames) == 1 and len(series) == 1:
            # a frame and a series: the series' labels meet the frame's columns, the
            # result has the frame's rows and the union of both (unique labels only)
            frame, labels = frames[0], series[0].index
            return frame.columns.is_unique and labels.is_unique and \
                frame.shape[0] * (frame.shape[1] + len(labels)) <= MAX_ELEMENTS
        indexes = [v.index for v in (left, right) if is_series(v) or is_frame(v)]
        if len(indexes) == 2 and not (indexes[0] is indexes[1] or indexes[0].equals(
                indexes[1])):
            return False
        return True
    shapes = [_shape(v) for v in (left, right)]
    np = np_module()
    try:
        if isinstance(op, ast.MatMult):
            a, b = shapes
            if not a or not b:
                return True
            batch = np.broadcast_shapes(a[:-2], b[:-2]) if len(a) > 2 or len(b) > 2 else ()
            rows = a[-2] if len(a) > 1 else 1
            cols = b[-1] if len(b) > 1 else 1
            return math.prod(batch) * rows * cols <= MAX_ELEMENTS
        return math.prod(np.broadcast_shapes(*shapes)) <= MAX_ELEMENTS
    except ValueError:
        return True  # the operation raises at once, before allocating
