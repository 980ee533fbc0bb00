"""Rules on keys and labels: DataFrame columns, .loc labels, dict keys, index bounds."""

from __future__ import annotations

import difflib
import sys
from typing import Any

from ._finding import Finding
from ._values import (
    describe_value,
    is_abstract,
    is_frame,
    is_ndarray,
    is_series,
    is_tensor,
    safe_repr,
    shape_of,
    type_root,
)
from ._walk._util import hashable
from ._walk._types import Walker

__all__ = ["missing_key", "column_length", "nan_into_integers"]

_SCALAR_KEY = (str, int, float, bytes)


def _labels(index: Any, near: Any = None, limit: int = 8) -> str:
    """The first ``limit`` labels; those closest to ``near`` (the missing key) first, so
    a cut never hides the renamed one (``['Region', 'price', ... 5 more] (closest first)``)."""
    close = _matches(near, index)
    if not close:
        labels = [safe_repr(c) for c in list(index[:limit])]  # a label may be a user object
        more = "" if len(index) <= limit else f", ... {len(index) - limit} more"
        return "[" + ", ".join(labels) + more + "]"
    rest = [c for c in list(index[:limit + len(close)]) if not (type(c) is str and c in close)]
    shown = [repr(c) for c in close] + [safe_repr(c) for c in rest][: max(limit - len(close), 0)]
    more = "" if len(index) <= len(shown) else f", ... {len(index) - len(shown)} more"
    return "[" + ", ".join(shown) + more + "] (closest first)"


def _matches(name: Any, index: Any, n: int = 3) -> list[str]:
    """The string labels closest to ``name`` (difflib, ignoring case), best first."""
    if type(name) is not str:
        return []
    candidates = [c for c in list(index[:5000]) if type(c) is str]
    by_lower: dict[str, str] = {}
    for c in candidates:
        by_lower.setdefault(c.lower(), c)
    exact = [c for c in candidates if c.lower() == name.lower() and c != name][:1]
    fuzzy = [by_lower[m] for m in difflib.get_close_matches(name.lower(), list(by_lower), n=n,
                                                            cutoff=0.6)]
    return list(dict.fromkeys(c for c in (*exact, *fuzzy) if c != name))[:n]


def _close(name: Any, index: Any) -> str:
    match = _matches(name, index, n=1)
    return f"; did you mean {match[0]!r}?" if match else ""


def _frame_column_finding(frame: Any, key: Any, what: str) -> Finding | None:
    columns = frame.columns
    if type(columns).__name__ == "MultiIndex":
        return None
    # exact types: a subclass instance's __hash__, __eq__ and __repr__ are its own code
    if type(key) not in (*_SCALAR_KEY, list):
        return None
    if type(key) is list:
        if not key or not all(type(k) in _SCALAR_KEY for k in key):
            return None
        missing = [k for k in key if k not in columns]
        if not missing:
            return None
        message = f"None of [{key!r}] are in the [columns]" if len(missing) == len(key) \
            else f"{missing!r} not in index"
        return Finding(exception="KeyError", crash_type="key error", library="pandas",
                       explanation=f"{what} has no column(s) {missing!r}; its columns are "
                                   f"{_labels(columns, missing[0])}{_close(missing[0], columns)}",
                       evidence=(f"{what}: {describe_value(frame)}", f"KeyError: {message}"),
                       confidence=0.97, rule="frame-column")
    if key in columns:
        return None
    return Finding(exception="KeyError", crash_type="key error", library="pandas",
                   explanation=f"{what} has no column {key!r}; its {len(columns)} columns are "
                               f"{_labels(columns, key)}{_close(key, columns)}",
                   evidence=(f"{what}: {describe_value(frame)}",), confidence=0.97,
                   rule="frame-column")


def _is_frame_groupby(base: Any) -> bool:
    return type_root(base) == "pandas" and type(base).__name__ == "DataFrameGroupBy" and \
        is_frame(getattr(base, "obj", None))


def _groupby_column(groupby: Any, key: Any, what: str) -> Finding | None:
    """``df.groupby('g')['col']``: selecting a column the grouped frame does not have."""
    frame = groupby.obj
    columns = frame.columns
    if type(columns).__name__ == "MultiIndex" or not columns.is_unique:
        return None
    keys = key if type(key) is list else [key]
    if not keys or not all(type(k) in _SCALAR_KEY for k in keys):
        return None
    missing = [k for k in keys if k not in columns]
    if not missing:
        return None
    return Finding(exception="KeyError", crash_type="key error", library="pandas",
                   explanation=f"the groups of {what} have no column(s) {missing!r}; the "
                               f"grouped frame's columns are {_labels(columns, missing[0])}"
                               f"{_close(missing[0], columns)}",
                   evidence=(f"grouped frame: {describe_value(frame)}",
                             f"KeyError: Column not found: {missing[0]}"),
                   confidence=0.96, rule="groupby-column")


def missing_key(base: Any, key: Any, walker: Walker) -> Finding | None:
    """``base[key]`` where the live container certainly has no such key or position."""
    what = walker.subject or "the DataFrame"
    if is_frame(base):
        return _frame_column_finding(base, key, what)
    if _is_frame_groupby(base):
        return _groupby_column(base, key, what)
    if is_series(base):
        return _series_label(base, key)
    if type(base) is dict:
        # a plain key: `key in base` compares it only with keys of equal hash, and
        # plain keys' hashes and equality are C code (a user key of a colliding hash
        # would still be asked, its __eq__ under the walk's time bound)
        if hashable(key) and key not in base:
            keys = list(base)[:8]
            return Finding(exception="KeyError", crash_type="key error", library="python",
                           explanation=f"{walker.subject or 'the dict'} has no key {key!r}; "
                                       f"its keys are {safe_repr(keys, 200)}"
                                       f"{_close(key, list(base))}",
                           confidence=0.96, rule="dict-key")
        return None
    if type(base) in (list, tuple, str) and type(key) is int:
        if not -len(base) <= key < len(base):
            return Finding(exception="IndexError", crash_type="index error", library="python",
                           explanation=f"index {key} is out of range for a "
                                       f"{type(base).__name__} of length {len(base)}",
                           confidence=0.96, rule="sequence-index")
        return None
    if is_ndarray(base) or is_tensor(base):
        return _array_index(base, key)
    if type_root(base) == "pandas" and type(base).__name__ in ("_LocIndexer", "_iLocIndexer"):
        return _indexer(base, key)
    return None


def _series_label(series: Any, key: Any) -> Finding | None:
    if _missing_int_label(series.index, key):  # an int on an int index is a label
        return Finding(exception="KeyError", crash_type="key error", library="pandas",
                       explanation=f"the Series has no label {key!r}; its index is "
                                   f"{_int_labels(series.index)}",
                       confidence=0.95, rule="series-label")
    if type(key) is not str or series.index.dtype.kind not in "OU":
        return None
    if type(series.index).__name__ == "MultiIndex" or key in series.index:
        return None
    return Finding(exception="KeyError", crash_type="key error", library="pandas",
                   explanation=f"the Series has no label {key!r}; its index is "
                               f"{_labels(series.index, key)}{_close(key, series.index)}",
                   confidence=0.95, rule="series-label")


def column_length(frame: Any, key: Any, value: Any, walker: Walker) -> Finding | None:
    """``df['col'] = values`` with a list or 1-D array of another length than the frame."""
    if not is_frame(frame) or type(key) not in (str, int):
        return None
    rows = len(frame)
    if rows == 0:
        return None  # an empty frame takes its index from the values
    shape = shape_of(value) if is_abstract(value) or is_ndarray(value) else None
    if shape is not None:
        if len(shape) != 1:
            return None
        n = shape[0]
    elif type(value) in (list, tuple, range) and all(
            type(v) in (int, float, str, bool, type(None)) for v in list(value)[:1000]):
        n = len(value)
    else:
        return None
    if n == rows:
        return None
    return Finding(exception="ValueError", crash_type="value error", library="pandas",
                   explanation=f"Length of values ({n}) does not match length of index "
                               f"({rows}): {walker.subject}[{key!r}] cannot take {n} values",
                   evidence=(f"{walker.subject}: {describe_value(frame)}",),
                   confidence=0.95, rule="column-length")


def nan_into_integers(array: Any, key: Any, value: Any, walker: Walker) -> Finding | None:
    """``a[mask] = np.nan`` (or an infinity) into a numpy array of integers: numpy converts
    the value to the array's dtype before it reads the key, so it fails however many
    items the key selects, none included (``cannot convert float NaN to integer``)."""
    if not is_ndarray(array) or getattr(array.dtype, "kind", "") not in ("i", "u"):
        return None
    if not isinstance(value, float) or type(value).__module__ not in ("builtins", "numpy"):
        return None
    if value == value and value not in (float("inf"), float("-inf")):
        return None
    nan = value != value
    return Finding(
        exception="ValueError" if nan else "OverflowError", crash_type="value error",
        library="numpy", rule="nan-into-integers", confidence=0.95,
        explanation=f"cannot convert float {'NaN' if nan else 'infinity'} to integer: "
                    f"{walker.subject} holds {array.dtype} values, which have no "
                    f"{'NaN' if nan else 'infinity'} (make it a float array first: "
                    f"{walker.subject} = {walker.subject}.astype(float))",
        evidence=(f"{walker.subject}: {describe_value(array)}",))


def _array_index(array: Any, key: Any) -> Finding | None:
    shape = tuple(array.shape)
    keys = key if type(key) is tuple else (key,)
    if any(k is Ellipsis or k is None for k in keys):
        return None
    if is_ndarray(array) and any(type(k) is float for k in keys):
        bad = next(k for k in keys if type(k) is float)
        return Finding(exception="IndexError", crash_type="index error", library="numpy",
                       explanation=f"only integers, slices (`:`), ellipsis (`...`), "
                                   f"numpy.newaxis (`None`) and integer or boolean arrays are "
                                   f"valid indices: {bad!r} is a float (use // or int())",
                       confidence=0.95, rule="array-index")
    if len(keys) > len(shape):
        lib = "torch" if is_tensor(array) else "numpy"
        return Finding(exception="IndexError", crash_type="index error", library=lib,
                       explanation=f"too many indices: the array is {len(shape)}-dimensional "
                                   f"(shape {shape}) but {len(keys)} were given",
                       confidence=0.95, rule="array-index")
    for axis, k in enumerate(keys):
        if type(k) is int and not -shape[axis] <= k < shape[axis]:
            lib = "torch" if is_tensor(array) else "numpy"
            return Finding(exception="IndexError", crash_type="index error", library=lib,
                           explanation=f"index {k} is out of bounds for axis {axis} with "
                                       f"size {shape[axis]} (shape {shape})",
                           confidence=0.96, rule="array-index")
        if is_ndarray(array) and len(keys) == 1:
            found = _integer_array_index(k, shape[axis], axis, shape)
            if found is not None:
                return found
    return None


#: The most values of an index array read (a min and a max: one pass each).
_MOST_INDEX_VALUES = 50_000_000


def _integer_array_index(key: Any, size: int, axis: int, shape: tuple[int, ...]
                         ) -> Finding | None:
    """An array indexed with an integer numpy array or a list of integers
    (``np.eye(n)[labels]``, one-hot of labels counted from 1): numpy checks every value,
    and the largest (or the smallest, negative) past the axis fails."""
    if type(key) is list and key and len(key) <= 10_000 and all(type(v) is int for v in key):
        largest, smallest = max(key), min(key)  # ``table[[0, 2, 5]]``
    elif not is_ndarray(key) or key.dtype.kind not in "iu" or not key.size or \
            key.size > _MOST_INDEX_VALUES:
        return None
    else:
        largest, smallest = int(key.max()), int(key.min())
    bad = largest if largest >= size else smallest if smallest < -size else None
    if bad is None:
        return None
    return Finding(exception="IndexError", crash_type="index error", library="numpy",
                   explanation=f"index {bad} is out of bounds for axis {axis} with size "
                               f"{size} (shape {shape}): the index array holds values "
                               f"from {smallest} to {largest}",
                   confidence=0.96, rule="array-index")


def _indexer(indexer: Any, key: Any) -> Finding | None:
    frame = indexer.obj
    positional = type(indexer).__name__ == "_iLocIndexer"
    keys = key if type(key) is tuple else (key,)
    if not is_frame(frame) and not is_series(frame):
        return None
    if positional:
        for axis, k in enumerate(keys[:frame.ndim]):
            size = frame.shape[axis]
            if type(k) is int and not -size <= k < size:
                return Finding(exception="IndexError", crash_type="index error",
                               library="pandas",
                               explanation=f".iloc position {k} is out of bounds for axis "
                                           f"{axis} of size {size}",
                               confidence=0.95, rule="iloc-bounds")
        return None
    if is_frame(frame) and len(keys) == 2:
        column = keys[1]
        if type(column) in (str, list) and (type(column) is str or all(
                type(c) is str for c in column)):
            found = _frame_column_finding(frame, column, "the DataFrame")
            if found is not None:
                return found
    row = keys[0]
    index = frame.index
    if type(row) is str and index.dtype.kind in "OU" and type(index).__name__ != \
            "MultiIndex" and row not in index:
        return Finding(exception="KeyError", crash_type="key error", library="pandas",
                       explanation=f".loc row label {row!r} is not in the index "
                                   f"{_labels(index, row)}{_close(row, index)}",
                       confidence=0.95, rule="loc-label")
    if _missing_int_label(index, row):
        return Finding(exception="KeyError", crash_type="key error", library="pandas",
                       explanation=f".loc row label {row!r} is not in the index "
                                   f"{_int_labels(index)}",
                       confidence=0.95, rule="loc-label")
    return None


def _int_labels(index: Any) -> str:
    """An index of integers: its first labels, and its least and greatest."""
    if len(index) == 0:
        return "empty"
    return f"{_labels(index)} (from {index.min()} to {index.max()})"


def _missing_int_label(index: Any, key: Any) -> bool:
    """``key`` is an integer (Python's or numpy's, not a bool) that an index of integers
    (not a MultiIndex) does not hold: ``.loc`` and a Series' ``[]`` look it up as a
    label there, never as a position."""
    numpy = sys.modules.get("numpy")
    if type(key) is not int and not (numpy is not None and isinstance(key, numpy.integer)):
        return False
    return index.dtype.kind in "iu" and type(index).__name__ != "MultiIndex" and \
        key not in index
