"""Adapter for numpy: ndarray (and masked arrays, matrices), scalars, dtypes, RNGs.

Values are summarised on a leading block of at most ``SAMPLE_ELEMENTS`` elements (a view,
no copy of the whole array); the fact's note says so. Nothing here draws random numbers.
"""

from __future__ import annotations

import sys
from typing import Any

from rtextract._builder import SMALL_ELEMENTS, Builder, head_index, jsonable, type_name
from rtextract._mapped import unreadable_memory

__all__ = ["SAMPLE_ELEMENTS", "describe", "summarise_values"]

SAMPLE_ELEMENTS = 100_000
UNIQUE_ELEMENTS = 20_000
_UNIQUE_LIST = 20  # unique values are listed when there are at most this many


def describe(obj: Any, b: Builder) -> bool:
    np = sys.modules["numpy"]
    tp = type(obj)
    if issubclass(tp, np.ndarray):
        _array(obj, b, np)
    elif issubclass(tp, np.generic):
        b.kind = "numpy.scalar"
        b.add("dtype", str(obj.dtype), "R")
        b.add("value", obj, "V")
    elif issubclass(tp, np.dtype):
        b.kind = "numpy.dtype"
        b.add("dtype", str(obj), "R")
    elif issubclass(tp, (np.random.Generator, np.random.RandomState)):
        b.kind = "numpy.random"
        b.add("class", tp.__name__, "R")
        b.note("random state is never read or advanced")
    else:
        return False
    return True


def _array(a: Any, b: Builder, np: Any) -> None:
    masked = issubclass(type(a), np.ma.MaskedArray)
    b.kind = "numpy.ma.MaskedArray" if masked else "numpy.ndarray"
    b.add("shape", list(a.shape), "S")
    b.add("dtype", str(a.dtype), "R", max_str=2000)
    b.add("size", int(a.size), "S")
    b.add("nbytes", int(a.nbytes), "S")
    if a.dtype.names:
        b.add("fields", {n: str(a.dtype.fields[n][0]) for n in a.dtype.names}, "R", max_str=400)
    if a.size == 0:
        return
    why = unreadable_memory(a)
    if why is not None:  # reading it would kill the process (SIGBUS): structure only
        b.note(why)
        return
    index, taken = head_index(tuple(a.shape), SAMPLE_ELEMENTS)
    sample = np.asarray(a)[index] if not masked else a[index]
    note = None if taken == a.size else f"in first {taken:,} of {int(a.size):,} elements"
    if masked:
        b.step("mask", lambda: b.add(
            "masked_count", int(np.ma.count_masked(sample)), "V", note))
        sample = sample.compressed()
    b.step("values", summarise_values, np, sample, b, note, bounded=_small(sample))


def _small(sample: Any) -> bool:
    """Plain values few enough that summarising them costs next to nothing."""
    return sample.size <= SMALL_ELEMENTS and sample.dtype.kind in "iubfcUSmM"


def summarise_values(np: Any, sample: Any, b: Builder, note: str | None) -> None:
    """Add NaN/inf counts, min/max, unique counts and examples of an array sample."""
    kind = sample.dtype.kind
    flat = sample.reshape(-1)
    if kind in "fc":
        nan = int(np.isnan(flat).sum())
        b.add("nan_count", nan, "V", note)
        b.add("inf_count", int(np.isinf(flat).sum()), "V", note)
        if kind == "f" and nan < flat.size:
            b.add("min", np.nanmin(flat), "V", note)
            b.add("max", np.nanmax(flat), "V", note)
    elif kind in "iub":
        if flat.size:
            b.add("min", flat.min(), "V", note)
            b.add("max", flat.max(), "V", note)
    elif kind in "mM":
        nat = np.isnat(flat)
        b.add("nat_count", int(nat.sum()), "V", note)
        valid = flat[~nat]
        if valid.size:
            b.add("min", str(valid.min()), "V", note)
            b.add("max", str(valid.max()), "V", note)
    elif kind == "O":
        counts: dict[str, int] = {}
        for item in flat[: b.max_items * 5].tolist():
            name = type_name(type(item))  # read from the type itself: no metaclass code
            counts[name] = counts.get(name, 0) + 1
        b.add("element_types", dict(sorted(counts.items())), "R",
              f"of the first {min(flat.size, b.max_items * 5):,} elements")
    if kind in "iubfUS":
        b.step("unique", _unique, np, flat, b, note, bounded=_small(flat))
    b.add("examples", [jsonable(v) for v in flat[:3].tolist()] if kind != "V" else
          [jsonable(v) for v in flat[:3]], "V")


def _unique(np: Any, flat: Any, b: Builder, note: str | None) -> None:
    if b.deadline.remaining_ms() < 2 and not _small(flat):
        return
    if flat.size > UNIQUE_ELEMENTS:  # np.unique sorts: a shorter head keeps it cheap
        note = f"in first {UNIQUE_ELEMENTS:,} elements"
        flat = flat[:UNIQUE_ELEMENTS]
    values = np.unique(flat[~np.isnan(flat)] if flat.dtype.kind == "f" else flat)
    b.add("n_unique", int(values.size), "V", note)
    if values.size <= _UNIQUE_LIST:
        b.add("unique_values", values.tolist(), "V", note)
