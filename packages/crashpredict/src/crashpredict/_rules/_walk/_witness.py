"""Witnesses: the rows of a frame, or the items of a Series, that a loop's body or an
element-wise function certainly meets and that are the likeliest to break it.

``for _, row in df.iterrows(): row['Title'].lower()`` and ``s.apply(lambda t: t.split())``
run their code on every row (item); the walk cannot run it on all of them, and walking it
on an unknown row finds nothing. It walks it on a few real ones instead: the first (met
first), the first NaN of each column the body names, the first item of another type than
the column's first (a number among strings), and, for a loop, the last row. Each is built
as pandas builds it for that loop or call, so the walk meets the value the real run
meets there (``iterrows`` gives a float for an int column of an all-number frame).

The scans are vectorised (``isna``) or C loops (``infer_dtype``); an item of another type
is looked for item by item only in an object column that mixes types, and in at most
`_TYPE_SCAN_ITEMS` items.
"""

from __future__ import annotations

import ast
import sys
import time
from typing import Any

from .._values import safe_repr

__all__ = ["Witness", "item_witnesses", "names_read", "record_witnesses", "row_witnesses",
           "table_witnesses"]

#: At most this many columns a body names are scanned; at most this many witnesses walked.
_MAX_COLUMNS = 6
_MAX_WITNESSES = 4
#: An object column longer than this is not scanned item by item for another type.
_TYPE_SCAN_ITEMS = 200_000


class Witness:
    """A row (or item) to walk a body on: what the body is bound to there, and why it was
    chosen (it ends the explanation of what the walk finds there, naming the position)."""

    __slots__ = ("value", "why")

    def __init__(self, value: Any, why: str) -> None:
        self.value, self.why = value, why


def names_read(nodes: list[ast.AST]) -> list[str]:
    """String constants and attribute names in ``nodes``, in order of first appearance:
    the column names a body may read from a row (``row['Title']``, ``row.Title``)."""
    seen: dict[str, None] = {}
    for top in nodes:
        for node in ast.walk(top):
            if isinstance(node, ast.Constant) and type(node.value) is str:
                seen.setdefault(node.value, None)
            elif isinstance(node, ast.Attribute):
                seen.setdefault(node.attr, None)
    return list(seen)


def _odd_items(values: Any) -> list[tuple[int, str]]:
    """(position, what is there) of the first missing item and of the first item of
    another type than the first present one, in a 1-d numpy array."""
    pd = sys.modules["pandas"]
    found: list[tuple[int, str]] = []
    missing = pd.isna(values)
    if missing.any():
        k = int(missing.argmax())
        value = values[k]
        found.append((k, "None" if value is None else "NaN" if isinstance(value, float)
                      else safe_repr(value, 40)))
    if values.dtype == object and len(values) <= _TYPE_SCAN_ITEMS and \
            pd.api.types.infer_dtype(values, skipna=True).startswith("mixed"):
        present = ~missing
        first = int(present.argmax())
        kind = type(values[first])
        for k in range(first + 1, len(values)):
            if present[k] and type(values[k]) is not kind:
                found.append((k, f"the {type(values[k]).__name__} "
                                 f"{safe_repr(values[k], 40)} among {kind.__name__} items"))
                break
    return found


def item_witnesses(series: Any, what: str) -> list[Witness]:
    """The items of a Series (numpy dtype) that ``series.apply(f)``/``series.map(f)`` pass
    to ``f``: the first, the first missing one, the first of another type. ``what`` names
    the Series in the explanations."""
    n = len(series)
    if n == 0:
        return []
    values = series.to_numpy()
    chosen: dict[int, str] = {0: ""}
    for k, why in _odd_items(values):
        chosen.setdefault(k, f"{what} at position {k} is {why}")
    return [Witness(series.iloc[k:k + 1].to_numpy(dtype=object)[0], why)
            for k, why in sorted(chosen.items())[:_MAX_WITNESSES]]


def row_witnesses(frame: Any, how: str, names: list[str], last: bool,
                  itertuples: tuple[tuple[Any, ...], dict[str, Any]] = ((), {})) -> list[Witness]:
    """The rows of a DataFrame that ``how`` (``iterrows``, ``itertuples`` or ``apply``
    with ``axis=1``) gives a body: the first; the first missing value, and the first of
    another type, in each column among ``names``; with ``last``, the last row. Each is
    the value the loop binds (``(label, row)`` for iterrows, the namedtuple for
    itertuples, the row for apply)."""
    n = len(frame)
    if n == 0:
        return []
    chosen: dict[int, str] = {0: ""}
    columns = frame.columns
    wanted = [name for name in names if name in columns][:_MAX_COLUMNS] \
        if columns.is_unique else []
    for name in wanted:
        for k, why in _odd_items(frame[name].to_numpy()):
            chosen.setdefault(k, f"on row {k} (index {safe_repr(frame.index[k], 40)}) "
                                 f"{name!r} is {why}")
    if last and n > 1:
        chosen.setdefault(n - 1, f"on the last row, {n - 1} (index "
                                 f"{safe_repr(frame.index[n - 1], 40)})")
    picked = sorted(chosen.items())[:_MAX_WITNESSES]
    if last and n > 1 and n - 1 not in dict(picked):
        picked[-1] = (n - 1, chosen[n - 1])
    return [Witness(_row(frame, k, how, itertuples), why) for k, why in picked]


def _row(frame: Any, k: int, how: str, itertuples: tuple[tuple[Any, ...], dict[str, Any]]) -> Any:
    one = frame.iloc[k:k + 1]
    if how == "itertuples":
        args, kwargs = itertuples
        return next(iter(one.itertuples(*args, **kwargs)))
    # iterrows and apply(axis=1) build each row from the frame's values as one array (an
    # all-number frame's ints come out as floats), named by its index label
    row = sys.modules["pandas"].Series(one.to_numpy(copy=True)[0], index=frame.columns,
                                       name=frame.index[k])
    return (frame.index[k], row) if how == "iterrows" else row


#: A loop over more records than this has none scanned (the scan is a Python loop)...
_MAX_RECORDS = 200_000
#: ...and the scan stops after this long, with what it found in the records it read.
_RECORD_SCAN_S = 0.020
#: Values of these types are compared and hashed (no user code runs for them).
_PLAIN_VALUES = (str, int, float, bool, type(None))


def record_witnesses(records: list[Any] | tuple[Any, ...], keys: list[Any],
                     lookups: list[tuple[str, Any, Any]]) -> list[Witness]:
    """The records (plain dicts) of a list that a loop over it gives its body, likeliest
    to break it: the first; the first item that is no dict; for each of ``keys`` (read as
    ``rec['key']``), the first record without it and the first whose value there is of
    another type than the first record's; for each ``(what, key, mapping)`` of
    ``lookups`` (``mapping[rec['key']]``, a plain dict), the first record whose value
    there is no key of it; and the last record. Read in order, for `_RECORD_SCAN_S` at
    most; a record that holds anything but plain values where a key is read is passed."""
    n = len(records)
    if n == 0:
        return []
    chosen: dict[int, str] = {0: ""}
    first = records[0]
    kinds = {key: type(first[key]) for key in keys
             if type(first) is dict and key in first and type(first[key]) in _PLAIN_VALUES}
    todo_missing, todo_kind = set(keys), set(kinds)
    todo_lookup = set(range(len(lookups)))
    deadline = time.perf_counter() + _RECORD_SCAN_S
    other = False
    for k in range(min(n, _MAX_RECORDS)):
        if k % 512 == 0 and k and time.perf_counter() > deadline:
            break
        record = records[k]
        if type(record) is not dict:
            if not other:
                other = True
                chosen.setdefault(k, f"item {k} is the {type(record).__name__} "
                                     f"{safe_repr(record, 40)}, among dicts")
            continue
        for key in list(todo_missing):
            if key not in record:
                todo_missing.discard(key)
                chosen.setdefault(k, f"record {k} has no key {key!r}")
        for key in list(todo_kind):
            value = record.get(key, kinds[key])
            if type(value) is not kinds[key] and type(value) in _PLAIN_VALUES:
                todo_kind.discard(key)
                chosen.setdefault(k, f"record {k}'s {key!r} is the {type(value).__name__} "
                                     f"{safe_repr(value, 40)} among {kinds[key].__name__} values")
        for j in list(todo_lookup):
            what, key, mapping = lookups[j]
            value = record.get(key)
            if key in record and type(value) in _PLAIN_VALUES and value not in mapping:
                todo_lookup.discard(j)
                chosen.setdefault(k, f"record {k}'s {key!r}, {safe_repr(value, 40)}, is no "
                                     f"key of {what}")
        if not (todo_missing or todo_kind or todo_lookup) and other:
            break
    if n > 1:
        chosen.setdefault(n - 1, f"the last record, {n - 1}")
    picked = sorted(chosen.items())[:_MAX_WITNESSES + 2]
    if n > 1 and n - 1 not in dict(picked):
        picked[-1] = (n - 1, chosen[n - 1])
    return [Witness(records[k], why) for k, why in picked]


#: A loop over more frames or arrays than this has none compared.
_MAX_TABLES = 10_000


def table_witnesses(values: list[Any]) -> list[tuple[int, str]]:
    """(position, why) of the frames (or numpy arrays) of a loop's items likeliest to
    break its body: the first; the first whose columns differ from the first's, or whose
    dtypes do (for arrays: the shape past the first axis, or the dtype); the last. Empty
    where the items are not all frames, or not all arrays."""
    n = len(values)
    if n == 0 or n > _MAX_TABLES:
        return []
    pd, np = sys.modules.get("pandas"), sys.modules.get("numpy")
    frames = pd is not None and all(type(v) is pd.DataFrame for v in values)
    arrays = np is not None and all(type(v) is np.ndarray for v in values)
    if not (frames or arrays):
        return []
    chosen: dict[int, str] = {0: ""}
    first = values[0]
    for k in range(1, n):
        value = values[k]
        if frames:
            if not value.columns.equals(first.columns):
                lacks = [c for c in first.columns if c not in value.columns]
                extra = [c for c in value.columns if c not in first.columns]
                what = "; ".join(part for part in (
                    f"it lacks {safe_repr(lacks, 60)}" if lacks else "",
                    f"it has {safe_repr(extra, 60)} too" if extra else "") if part) or \
                    "its columns come in another order"
                chosen.setdefault(k, f"item {k}'s columns differ from the first's: {what}")
                break
            if not value.dtypes.equals(first.dtypes):
                chosen.setdefault(k, f"item {k}'s dtypes differ from the first's")
                break
        elif value.shape[1:] != first.shape[1:] or value.dtype != first.dtype:
            chosen.setdefault(k, f"item {k} is a {value.dtype} array of shape {value.shape}, "
                                 f"the first a {first.dtype} one of {first.shape}")
            break
    if n > 1:
        chosen.setdefault(n - 1, f"the last item, {n - 1}")
    return sorted(chosen.items())
