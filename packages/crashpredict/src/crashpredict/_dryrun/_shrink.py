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

import re
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


#: A text column has at most this many of its distinct values past the head searched for
#: a new shape (`_shape`, a Python call each), half of those that appear first and half of
#: those that appear last (data appended later), so that a column of ids is searched in
#: a few hundredths of a second.
MAX_SHAPED = 40_000
#: A column whose head has more shapes than this is free text, not a format: not searched.
MAX_HEAD_SHAPES = 30
_DIGITS = re.compile(r"\d+")
_LETTERS = re.compile(r"[^\W\d_]+")


def _shape(value: Any) -> str:
    """What a value looks like, not what it says: in a text each run of digits is a ``9``
    and each run of letters an ``a`` (``'$12.50'`` is ``'$9.9'``, ``'n/a'`` is ``'a/a'``,
    ``'2021-03-04'`` is ``'9-9-9'``); a value that is no text is its type's name."""
    if isinstance(value, str):
        return _LETTERS.sub("a", _DIGITS.sub("9", value))
    return f"<{type(value).__name__}>"


def _new_shapes(head: Any, tail: Any) -> list[int]:
    """Positions in ``tail`` of the first value of each shape the head's values never have
    (the first `_PER_OBJECT` such shapes): a text among numbers written as text (``'n/a'``,
    ``'-'``, ``'1,200'``), a date written another way, a number among texts. A cell that
    parses what the head holds (``float``, ``astype``, ``to_datetime``) fails on them."""
    pd = sys.modules["pandas"]
    np = sys.modules["numpy"]
    seen = {_shape(v) for v in head.dropna().tolist()}
    if not seen or len(seen) > MAX_HEAD_SHAPES:
        return []
    values = pd.unique(tail.to_numpy())
    if len(values) > MAX_SHAPED:
        values = np.concatenate([values[:MAX_SHAPED // 2], values[-(MAX_SHAPED // 2):]])
    kinds: dict[str, Any] = {}
    for v in values.tolist():
        if v is None or v != v:  # noqa: PLR0124 - NaN: missing values are found apart
            continue
        shape = _shape(v)
        if shape not in seen:
            kinds.setdefault(shape, v)
            if len(kinds) == _PER_OBJECT:
                break
    if not kinds:
        return []
    hits = np.flatnonzero(tail.isin(list(kinds.values())).to_numpy())
    firsts = pd.Series(tail.to_numpy()[hits]).drop_duplicates().index
    return [int(hits[i]) for i in firsts]


def _salient_in(value: Any, rows: int) -> list[list[int]]:
    """Positions past the first ``rows`` (and within `SALIENT_SCAN_ROWS` of them) whose
    values a crash may need, in groups (a kind of value, of a column or of every column):
    missing or non-finite numbers, category values the head never shows (an unseen label),
    and text values of a shape the head's never have (`_new_shapes`)."""
    module = type(value).__module__
    np = sys.modules.get("numpy")
    found: list[list[int]] = []
    if module.startswith("pandas"):
        frame = value.to_frame() if value.ndim == 1 else value
        tail = frame.iloc[rows:rows + SALIENT_SCAN_ROWS]
        missing = tail.isna().to_numpy().any(axis=1)
        found.append([rows + int(i) for i in np.flatnonzero(missing)[:_PER_OBJECT]])
        numeric = tail.select_dtypes("number")
        if numeric.shape[1]:
            bad = ~np.isfinite(numeric.to_numpy(dtype="float64", na_value=0.0)).all(axis=1)
            found.append([rows + int(i) for i in np.flatnonzero(bad)[:_PER_OBJECT]])
        for column in frame.columns:
            try:
                found += _column_salient(frame[column], tail[column], rows)
            except Exception:  # noqa: BLE001 - unhashable values (lists): not this column
                continue
    elif module.startswith("numpy") and value.dtype.kind in "fc":
        window = value[rows:rows + SALIENT_SCAN_ROWS]
        flat = window.reshape(len(window), -1)
        found.append([rows + int(i) for i in
                      np.flatnonzero(~np.isfinite(flat).all(axis=1))[:_PER_OBJECT]])
    return found


#: An integer column whose head holds at most this many distinct values, none negative,
#: is a code (a store, a product, a class): a code its head lacks is an unseen label too.
MAX_HEAD_CODES = 64


def _codes(series: Any, rows: int) -> bool:
    """Whether an integer column reads as codes of a small set (`MAX_HEAD_CODES`)."""
    if series.dtype.kind not in "iu":
        return False
    head = series.iloc[:rows]
    return bool(head.min() >= 0) and head.nunique() <= MAX_HEAD_CODES


def _column_salient(series: Any, tail: Any, rows: int) -> list[list[int]]:
    """A column's unseen labels (of texts, categories, flags, or integer codes: a store
    that opened late) and new shapes (`_salient_in`)."""
    found = []
    if series.dtype.kind in "OSUb" or str(series.dtype) == "category" or _codes(series, rows):
        seen = set(series.iloc[:rows].dropna().unique().tolist())
        new = ~tail.isin(seen) & tail.notna()
        firsts = tail[new].drop_duplicates().index
        found.append([rows + int(tail.index.get_loc(k)) for k in firsts[:_PER_OBJECT]
                      if isinstance(tail.index.get_loc(k), int)])
    if series.dtype.kind == "O" or str(series.dtype) == "string":
        found.append([rows + i for i in _new_shapes(series.iloc[:rows], tail)])
    return found


def salient_rows(values: list[Any], rows: int) -> list[int]:
    """The positions past the head that the shrunk objects keep too, sorted, at most
    `MAX_SALIENT`: the same positions for every object, so rows stay aligned. Every group
    of `_salient_in` gives its first position before any gives its second, so a column of
    many new labels cannot crowd out another column's NaN or text."""
    if "numpy" not in sys.modules:
        return []
    groups: list[list[int]] = []
    for value in values:
        try:
            groups += [group for group in _salient_in(value, rows) if group]
        except Exception:  # an exotic dtype: the head alone
            continue
    chosen: set[int] = set()
    for rank in range(_PER_OBJECT):
        for group in groups:
            if rank < len(group) and len(chosen) < MAX_SALIENT:
                chosen.add(group[rank])
    return sorted(chosen)


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
            Series or float array has a missing or non-finite value, a label the head
            lacks or a text of a shape the head lacks (`salient_rows`), so that a crash on
            those values is still seen; and cut to a quarter of
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
