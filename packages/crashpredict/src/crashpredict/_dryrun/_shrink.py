"""Data shrinking for a dry run: cut big tables and arrays to their first rows, in the child.

Only top-level names of the namespace are shrunk, and only pandas DataFrames and Series,
numpy arrays, torch tensors and TensorFlow eager tensors, torch DataLoaders (their first
samples, same batch size) and finite tf.data Datasets (their first elements), recognised
through the type's module, never by importing the library. Every object longer than ``rows`` keeps its first
``rows`` rows: the same prefix for every object, so ``X`` and ``y`` of equal length stay
aligned row by row. Objects held inside other objects (a Dataset, a dict of arrays) keep
their size.
"""

from __future__ import annotations

import sys
from collections.abc import Collection, MutableMapping
from typing import Any

__all__ = ["shrink_namespace"]

_ROOTS = ("pandas", "numpy", "torch", "tensorflow")


#: A batched pipeline (tf.data) keeps this many elements per 1000 rows asked for.
_BATCHES_PER_1000_ROWS = 30


def _loader_rows(value: Any) -> int | None:
    """Samples of a torch DataLoader, elements of a finite tf.data Dataset, else None."""
    module = type(value).__module__
    if module.startswith("torch.utils.data"):
        data = sys.modules.get("torch.utils.data")
        if data is not None and isinstance(value, data.DataLoader) and \
                getattr(value, "batch_size", None) and hasattr(value.dataset, "__len__"):
            return len(value.dataset)
        return None
    if module.startswith("tensorflow.python.data"):
        try:
            count = int(value.cardinality())
        except Exception:
            return None
        if count < 0:  # -1 infinite, -2 unknown
            return None
        return count * 1000 // _BATCHES_PER_1000_ROWS  # in rows, as `_loader_head` cuts it
    return None


def _loader_head(value: Any, rows: int) -> Any:
    if type(value).__module__.startswith("torch"):
        data = sys.modules["torch.utils.data"]
        # The first samples, in batches of the same size; workers would be blocked anyway.
        return data.DataLoader(_subset(data)(value.dataset, range(rows)),
                               batch_size=value.batch_size, collate_fn=value.collate_fn,
                               drop_last=value.drop_last)
    head = value.take(max(1, rows * _BATCHES_PER_1000_ROWS // 1000))
    # what the user set on the dataset (``image_dataset_from_directory``'s ``class_names``,
    # ``file_paths``) the head has too: a cut one is another class, without them
    for name, attribute in list(vars(value).items()):
        if not name.startswith("_") and not hasattr(head, name):
            try:
                setattr(head, name, attribute)
            except Exception:  # noqa: BLE001 - a read-only one stays the class's
                continue
    return head


_SUBSET: list[type] = []


def _subset(data: Any) -> type:
    """``Subset`` that answers for the dataset it cuts (``loader.dataset.classes`` of an
    ``ImageFolder``, a user's own fields): a cut that lost them would raise an
    AttributeError the real run does not."""
    if not _SUBSET:
        class HeadOf(data.Subset):  # type: ignore[misc,name-defined]
            def __getattr__(self, name: str) -> Any:
                if name.startswith("__") or name in ("dataset", "indices"):
                    raise AttributeError(name)
                return getattr(self.dataset, name)
        _SUBSET.append(HeadOf)
    return _SUBSET[0]


def _rows(value: Any) -> int | None:
    """The number of rows of a shrinkable object, or None when it is not one."""
    root = type(value).__module__.partition(".")[0]
    if root not in _ROOTS or isinstance(value, type):
        return None
    loader = _loader_rows(value)
    if loader is not None:
        return loader
    if root == "pandas":
        pd = sys.modules["pandas"]
        # Not Index: cutting ``df.columns`` would change the meaning of the code.
        if not isinstance(value, (pd.DataFrame, pd.Series)):
            return None
    shape = getattr(value, "shape", None)
    try:
        if shape is None or len(shape) == 0 or shape[0] is None:
            return None
        return int(shape[0])
    except (TypeError, ValueError):
        return None


def _head(value: Any, rows: int) -> Any:
    if _loader_rows(value) is not None:
        return _loader_head(value, rows)
    if type(value).__module__.startswith("pandas"):
        return value.iloc[:rows]
    return value[:rows]


#: At most this many rows past the head are kept for their values (see `salient_rows`).
MAX_SALIENT = 20
_PER_OBJECT = 5
#: Rows past the head that are searched for such values: the search is over in a fraction
#: of a second however long the data (a dry run's budget is seconds, and the search runs
#: before the cell does); what only later rows hold is the rules' and the real run's.
SALIENT_SCAN_ROWS = 1_000_000


def _salient_in(value: Any, rows: int) -> list[int]:
    """Positions past the first ``rows`` (and within `SALIENT_SCAN_ROWS` of them) whose
    values a crash may need: missing or non-finite numbers, and category values the head
    never shows (an unseen label)."""
    module = type(value).__module__
    np = sys.modules.get("numpy")
    found: list[int] = []
    if module.startswith("pandas"):
        frame = value.to_frame() if value.ndim == 1 else value
        tail = frame.iloc[rows:rows + SALIENT_SCAN_ROWS]
        missing = tail.isna().to_numpy().any(axis=1)
        found += [rows + int(i) for i in np.flatnonzero(missing)[:_PER_OBJECT]]
        numeric = tail.select_dtypes("number")
        if numeric.shape[1]:
            bad = ~np.isfinite(numeric.to_numpy(dtype="float64", na_value=0.0)).all(axis=1)
            found += [rows + int(i) for i in np.flatnonzero(bad)[:_PER_OBJECT]]
        for column in frame.columns:
            series = frame[column]
            if series.dtype.kind in "OSUb" or str(series.dtype) == "category":
                seen = set(series.iloc[:rows].dropna().unique().tolist())
                new = ~tail[column].isin(seen) & tail[column].notna()
                firsts = tail[column][new].drop_duplicates().index
                found += [rows + int(tail.index.get_loc(k)) for k in firsts[:_PER_OBJECT]
                          if isinstance(tail.index.get_loc(k), int)]
    elif module.startswith("numpy") and value.dtype.kind in "fc":
        window = value[rows:rows + SALIENT_SCAN_ROWS]
        flat = window.reshape(len(window), -1)
        found += [rows + int(i) for i in np.flatnonzero(~np.isfinite(flat).all(axis=1))[:_PER_OBJECT]]
    return found


def salient_rows(values: list[Any], rows: int) -> list[int]:
    """The positions past the head that the shrunk objects keep too, sorted, at most
    `MAX_SALIENT`: the same positions for every object, so rows stay aligned."""
    if "numpy" not in sys.modules:
        return []
    found: set[int] = set()
    for value in values:
        try:
            found.update(_salient_in(value, rows))
        except Exception:  # an exotic dtype: the head alone
            continue
    return sorted(found)[:MAX_SALIENT]


def _take(value: Any, positions: list[int]) -> Any:
    if type(value).__module__.startswith("pandas"):
        return value.iloc[positions]
    return value[positions]


def shrink_namespace(namespace: MutableMapping[str, Any], rows: int, *,
                     only: Collection[str] | None = None,
                     salient: bool = False) -> tuple[str, ...]:
    """Cut every shrinkable value longer than ``rows`` to its first ``rows`` rows, in place.

    Args:
        namespace: the (child's copy of the) namespace; its values are replaced.
        rows: the number of rows to keep; must be positive.
        only: when given, only these names (those the cell reads) are cut.
        salient: also keep (after the head, in order) the rows past it where a DataFrame,
            Series or float array has a missing or non-finite value or a label the head
            lacks, so that a crash on those values is still seen; and cut to a quarter of
            the longest object when that is less than ``rows`` (a retry must cut something).

    Returns:
        The names that were cut, sorted.
    """
    if rows < 1:
        raise ValueError(f"shrink rows must be positive, got {rows}")
    chosen = {}
    for name, value in list(namespace.items()):
        if name.startswith("_") or (only is not None and name not in only):
            continue  # IPython's output history (_, _1, ...) and private helpers
        length = _rows(value)
        if length is not None:
            chosen[name] = (value, length)
    if salient and chosen:
        rows = max(1, min(rows, max(n for _, n in chosen.values()) // 4))
    extra = salient_rows([v for v, n in chosen.values() if n > rows and _loader_rows(v) is None],
                         rows) if salient else []
    cut = []
    for name, (value, length) in chosen.items():
        if length <= rows:
            continue
        try:
            keep = [p for p in extra if p < length]
            if keep and _loader_rows(value) is None and \
                    type(value).__module__.partition(".")[0] in ("pandas", "numpy"):
                namespace[name] = _take(value, list(range(rows)) + keep)
            else:
                namespace[name] = _head(value, rows)
        except Exception:  # an exotic subclass that cannot be sliced keeps its size
            continue
        cut.append(name)
    return tuple(sorted(cut))
