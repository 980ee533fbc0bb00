"""Rules on reshaping a frame: ``pivot`` needs each (index, columns) pair once."""

from __future__ import annotations

import time

from ._finding import Finding
from ._values import Partial, is_frame, safe_repr, type_root
from ._walk._types import CallSite

__all__ = ["pivot_duplicates"]

#: What finding the duplicated pairs costs per row, at most (a hash of two columns), so
#: the rule runs only where the walk has that much time left for its trials.
_PER_ROW_S = 1e-7
#: The most rows it reads.
_MOST_ROWS = 5_000_000


def pivot_duplicates(site: CallSite) -> Finding | None:
    """``df.pivot(index='date', columns='store', values=...)`` raises ``ValueError: Index
    contains duplicate entries, cannot reshape`` when a (date, store) pair comes twice (a
    row sent twice, a day of two readings). Read from the live frame's two columns, where
    the cell has not reassigned them (the values column may be new in the cell: it does
    not decide), and only while the walk has time for its trials (`_PER_ROW_S` a row)."""
    if site.method != "pivot" or site.starred or site.args:
        return None
    receiver = site.receiver
    frame, dirty = (receiver.obj, receiver.dirty) if isinstance(receiver, Partial) else \
        (receiver, frozenset())
    if not is_frame(frame) or type_root(frame) != "pandas":
        return None
    index, columns = site.kwargs.get("index"), site.kwargs.get("columns")
    if type(index) is not str or type(columns) is not str or index == columns or \
            index in dirty or columns in dirty:
        return None
    walker = site.walker
    try:
        rows = len(frame)
        left = getattr(walker, "deadline", 0.0) - time.perf_counter()
        if rows > _MOST_ROWS or left < rows * _PER_ROW_S or \
                not frame.columns.is_unique or index not in frame.columns or \
                columns not in frame.columns:
            return None
        pairs = frame[[index, columns]]
        if pairs.isna().to_numpy().any():
            return None  # a missing key: how pandas pairs those is not this rule's
        twice = pairs.duplicated(keep=False)
        count = int(twice.sum())
        if not count:
            return None
        first = pairs[twice].iloc[0]
    except Exception:  # noqa: BLE001 - a strange frame: not told
        return None
    return Finding(
        exception="ValueError", crash_type="value error", library="pandas",
        rule="pivot-duplicates", confidence=0.95,
        explanation=f"Index contains duplicate entries, cannot reshape: {count} rows share "
                    f"their ({index}, {columns}) pair with another, e.g. {index}="
                    f"{_shown(first[index])}, {columns}={_shown(first[columns])} "
                    f"(aggregate them with pivot_table(..., aggfunc=...), or drop the "
                    f"duplicates first)")


def _shown(value: object) -> str:
    """A key as the user wrote it: ``7`` for numpy's 7, the date of a Timestamp."""
    kind = type(value)
    if kind.__module__ == "numpy" and hasattr(value, "item"):
        return repr(value.item())
    if kind.__module__.startswith("pandas") and kind.__name__ == "Timestamp":
        return str(value)
    return safe_repr(value)
