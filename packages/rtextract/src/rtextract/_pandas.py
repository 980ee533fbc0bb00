"""Adapter for pandas: DataFrame, Series, Index/MultiIndex, Categorical, GroupBy, scalars.

Large frames are summarised on their first rows (``df.iloc[:n]``, a fresh object, so no
cache of the user's frame is filled); the number of rows is chosen so that at most
``SAMPLE_CELLS`` cells are scanned, and every value fact says which rows it covers.
"""

from __future__ import annotations

import sys
from typing import Any

from rtextract._builder import Builder, dict_of, jsonable
from rtextract._mapped import unreadable_memory
from rtextract._bound import can_bound
from rtextract._trust import user_arrays, user_content
from rtextract._views import NO_VIEW, plain_view

__all__ = ["SAMPLE_CELLS", "SAMPLE_ROWS", "describe"]

SAMPLE_ROWS = 100_000
SAMPLE_CELLS = 2_000_000
_UNIQUE_ROWS = 20_000  # unique counts hash every value: a smaller head keeps them fast
_EXAMPLES = 3


def describe(obj: Any, b: Builder) -> bool:
    pd = sys.modules["pandas"]
    tp = type(obj)
    for base, handler in ((pd.DataFrame, _frame), (pd.Series, _series),
                          (pd.MultiIndex, _multiindex), (pd.Index, _index)):
        if issubclass(tp, base):
            _data(obj, b, handler)
            return True
    if issubclass(tp, pd.Categorical):
        _categorical(obj, b)
    elif _is_groupby(tp):
        _groupby(obj, b)
    elif tp.__name__ in ("Timestamp", "Timedelta", "Period", "Interval", "NaTType", "NAType"):
        b.kind = "pandas.scalar"
        b.add("value", obj, "V")
    else:
        return False
    return True


def _data(obj: Any, b: Builder, handler: Any) -> None:
    """A frame, series or index: pandas calls the methods of a user ExtensionArray behind
    it for nearly everything (``dtypes``, ``len``, slicing), so with one the whole
    description runs under the time bound (structure only where none can be armed)."""
    b.kind = _KINDS[handler.__name__]
    foreign = user_arrays(obj)
    if foreign is None:
        handler(obj, b, None)
        return
    b.note(f"holds an {foreign}: pandas runs its code, so facts are read under a time "
           "bound")
    b.step("facts", handler, obj, b, foreign, user_code=foreign)
    if b.kind == "pandas.DataFrame" and not b.has("columns"):  # names never touch the arrays
        rows, cols = obj.shape
        listed = b.max_items * 10
        b.add("shape", [rows, cols], "S")
        b.add("columns", [jsonable(c) for c in obj.columns[:listed].tolist()], "R",
              None if cols <= listed else f"first {listed} of {cols:,} (dtypes not read)",
              max_str=200, max_items=listed)


_KINDS = {"_frame": "pandas.DataFrame", "_series": "pandas.Series",
          "_multiindex": "pandas.MultiIndex", "_index": "pandas.Index"}


def _is_groupby(tp: type) -> bool:
    # by name: the module holding GroupBy moved between pandas versions
    return any(k.__name__ in ("GroupBy", "BaseGroupBy") and k.__module__.startswith("pandas.")
               for k in tp.__mro__)


def _rows_note(taken: int, total: int) -> str | None:
    return None if taken >= total else f"in first {taken:,} rows of {total:,}"


def _frame(df: Any, b: Builder, foreign: str | None) -> None:
    b.kind = "pandas.DataFrame"
    rows, cols = df.shape
    b.add("shape", [rows, cols], "S")
    dtypes = df.dtypes.tolist()
    # the column list is what KeyError predictions need: keep far more of it than of
    # the per-column statistics, which stay at max_items columns
    listed = min(cols, b.max_items * 10)
    names = [jsonable(c) for c in df.columns[:listed].tolist()]
    b.add("columns", [[n, str(dtypes[i])] for i, n in enumerate(names)], "R",
          None if listed == cols else f"first {listed} of {cols:,} columns", max_str=200,
          # the limit applies at every depth: each entry is a [name, dtype] pair
          max_items=max(listed, 2))
    names = names[: b.max_items]
    counts: dict[str, int] = {}
    for dtype in dtypes:
        counts[str(dtype)] = counts.get(str(dtype), 0) + 1
    b.add("dtype_counts", dict(sorted(counts.items())), "R")
    unreadable = _unreadable(df, b)  # checked first: the index step reads labels too
    if not unreadable:
        b.step("index", _index_facts, df.index, b, "index")
    if rows == 0 or cols == 0 or unreadable:
        return
    limit = max(1_000, min(SAMPLE_ROWS, SAMPLE_CELLS // max(cols, 1)))
    sample = df.iloc[: min(rows, limit)]
    note = _rows_note(len(sample), rows)
    b.step("nan counts", _frame_nans, sample, b, note)
    b.step("min/max", _frame_minmax, sample, names, dtypes, b, note)
    objects = foreign or _object_cells(sample, dtypes[: len(names)])
    b.step("unique counts", _frame_unique, sample, names, dtypes, rows, b, user_code=objects)
    b.step("examples", _frame_examples, sample, names, b)


def _unreadable(obj: Any, b: Builder) -> bool:
    """A frame over a memory-mapped file truncated after mapping: reading kills the kernel."""
    why = unreadable_memory(obj)
    if why is not None:
        b.note(why)
    return why is not None


def _object_cells(sample: Any, dtypes: list[Any]) -> str | None:
    """Why hashing the cells of object columns could run user code (their elements' own
    ``__hash__``/``__eq__``), or None. Where no time bound can be armed, the cells are
    checked to be plain str/int/float/None values instead."""
    if not any(getattr(d, "kind", "O") == "O" for d in dtypes):
        return None
    return user_content(sample.iloc[:_UNIQUE_ROWS], scan=not can_bound())


def _frame_nans(sample: Any, b: Builder, note: str | None) -> None:
    per_column = sample.isna().sum()
    values = per_column.tolist()
    b.add("has_nan", any(v > 0 for v in values), "V", note)
    b.add("nan_total", int(sum(values)), "V", note)
    nonzero = {jsonable(sample.columns[i]): int(v) for i, v in enumerate(values) if v}
    b.add("nan_counts", _keyed(nonzero, b.max_items), "V", note)


def _keyed(mapping: dict[Any, Any], limit: int) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in list(mapping.items())[:limit]:
        out[key if isinstance(key, str) else str(key)] = value
    if len(mapping) > limit:
        out["…"] = f"{len(mapping) - limit:,} more"
    return out


def _frame_minmax(sample: Any, names: list[Any], dtypes: list[Any], b: Builder,
                  note: str | None) -> None:
    positions = [i for i in range(len(names)) if _orderable(dtypes[i])]
    if not positions:
        return
    # one reduction per dtype block is far cheaper than one per column
    block = sample.iloc[:, positions]
    lows, highs = block.min().tolist(), block.max().tolist()
    found = {names[i]: [jsonable(lo), jsonable(hi)] for i, lo, hi in zip(positions, lows, highs)}
    b.add("min_max", _keyed(found, b.max_items), "V", note)


def _orderable(dtype: Any) -> bool:
    kind = getattr(dtype, "kind", "O")
    return kind in "iufbmM" and str(dtype) != "category"


def _frame_unique(sample: Any, names: list[Any], dtypes: list[Any], rows: int, b: Builder) -> None:
    head = sample.iloc[:_UNIQUE_ROWS]
    note = _rows_note(len(head), rows)
    found: dict[Any, int] = {}
    for i, name in enumerate(names):
        if not _categorical_like(dtypes[i]):
            continue
        if b.deadline.expired():
            b.note("unique counts: time budget spent; listed for the first columns only")
            break
        try:
            found[name] = int(head.iloc[:, i].nunique())
        except TypeError:  # unhashable cells (lists, dicts)
            b.note(f"unique counts: column {name!r} holds unhashable values")
    if found:
        b.add("n_unique", _keyed(found, b.max_items), "V", note)


def _categorical_like(dtype: Any) -> bool:
    kind = getattr(dtype, "kind", "O")
    return kind in "OSUb" or str(dtype) in ("category", "string", "str", "boolean")


def _frame_examples(sample: Any, names: list[Any], b: Builder) -> None:
    head = sample.iloc[:_EXAMPLES]
    found = {name: [jsonable(v) for v in head.iloc[:, i].tolist()] for i, name in enumerate(names)}
    b.add("examples", _keyed(found, b.max_items), "V", f"first {len(head)} rows")


def _series(s: Any, b: Builder, foreign: str | None) -> None:
    b.kind = "pandas.Series"
    length = len(s)
    b.add("length", length, "S")
    b.add("dtype", str(s.dtype), "R")
    b.add("name", jsonable(s.name), "R")
    unreadable = _unreadable(s, b)
    if not unreadable:
        b.step("index", _index_facts, s.index, b, "index")
    if length == 0 or unreadable:
        return
    sample = s.iloc[: min(length, SAMPLE_ROWS)]
    b.step("values", _column_values, sample, length, b,
           user_code=foreign or _object_cells(sample, [sample.dtype]))


def _column_values(sample: Any, length: int, b: Builder) -> None:
    note = _rows_note(len(sample), length)
    nan = int(sample.isna().sum())
    b.add("nan_count", nan, "V", note)
    if _orderable(sample.dtype) and nan < len(sample):
        b.add("min", sample.min(), "V", note)
        b.add("max", sample.max(), "V", note)
    if _categorical_like(sample.dtype):
        head = sample.iloc[:_UNIQUE_ROWS]
        unique = head.nunique()
        b.add("n_unique", int(unique), "V", _rows_note(len(head), length))
        if unique <= 20:
            values = sorted((jsonable(v) for v in head.dropna().unique().tolist()), key=str)
            b.add("unique_values", values, "V", _rows_note(len(head), length))
    b.add("examples", [jsonable(v) for v in sample.iloc[:_EXAMPLES].tolist()], "V")


def _index_facts(index: Any, b: Builder, prefix: str) -> None:
    facts: dict[str, Any] = {"type": type(index).__name__, "dtype": str(index.dtype)}
    length = len(index)
    if type(index).__name__ == "RangeIndex":
        facts.update(start=index.start, stop=index.stop, step=index.step)
    elif length:
        facts.update(first=jsonable(index[0]), last=jsonable(index[length - 1]))
    names = [jsonable(n) for n in index.names]
    if any(n is not None for n in names):
        facts["names"] = names
    b.add(prefix, facts, "R")


def _index(index: Any, b: Builder, foreign: str | None) -> None:
    b.kind = "pandas.Index"
    b.add("length", len(index), "S")
    unreadable = _unreadable(index, b)
    if not unreadable:
        b.step("index", _index_facts, index, b, "index")
    if len(index) and not unreadable:
        sample = index[:SAMPLE_ROWS].to_series()
        b.step("values", _column_values, sample, len(index), b,
               user_code=foreign or _object_cells(sample, [sample.dtype]))


def _multiindex(index: Any, b: Builder, foreign: str | None) -> None:
    b.kind = "pandas.MultiIndex"
    b.add("length", len(index), "S")
    b.add("nlevels", index.nlevels, "S")
    b.add("names", [jsonable(n) for n in index.names], "R")
    b.add("level_sizes", [len(level) for level in index.levels], "S")
    b.add("level_dtypes", [str(level.dtype) for level in index.levels], "R")
    if len(index):
        b.add("first", jsonable(index[0]), "V")


def _categorical(cat: Any, b: Builder) -> None:
    b.kind = "pandas.Categorical"
    length = len(cat)
    b.add("length", length, "S")
    b.add("n_categories", len(cat.categories), "S")
    b.add("categories", [jsonable(c) for c in cat.categories[: b.max_items].tolist()], "V")
    b.add("ordered", bool(cat.ordered), "R")
    codes = cat.codes[:SAMPLE_ROWS]
    b.add("nan_count", int((codes == -1).sum()), "V", _rows_note(len(codes), length))


def _groupby(gb: Any, b: Builder) -> None:
    b.kind = "pandas.GroupBy"
    attrs = dict_of(gb)
    keys = attrs.get("keys")
    b.add("keys", jsonable(keys) if keys is not None else None, "R")
    for name in ("as_index", "dropna", "sort", "observed"):
        if type(attrs.get(name)) is bool:
            b.add(name, attrs[name], "R")
    selection = attrs.get("_selection")
    if selection is not None:
        b.add("selection", jsonable(selection), "R")
    frame = attrs.get("obj")
    if frame is not None:
        view, _ = plain_view(frame)  # a user frame subclass: its own `shape` is not called
        if view is not NO_VIEW:
            b.add("obj_shape", list(view.shape), "S")
        b.child("obj", frame)
    b.note("groups are not computed (ngroups would group the whole frame)")
