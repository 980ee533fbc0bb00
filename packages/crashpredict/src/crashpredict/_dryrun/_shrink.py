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
        return data.DataLoader(data.Subset(value.dataset, range(rows)),
                               batch_size=value.batch_size, collate_fn=value.collate_fn,
                               drop_last=value.drop_last)
    return value.take(max(1, rows * _BATCHES_PER_1000_ROWS // 1000))


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


def shrink_namespace(namespace: MutableMapping[str, Any], rows: int, *,
                     only: Collection[str] | None = None) -> tuple[str, ...]:
    """Cut every shrinkable value longer than ``rows`` to its first ``rows`` rows, in place.

    Args:
        namespace: the (child's copy of the) namespace; its values are replaced.
        rows: the number of rows to keep; must be positive.
        only: when given, only these names (those the cell reads) are cut.

    Returns:
        The names that were cut, sorted.
    """
    if rows < 1:
        raise ValueError(f"shrink rows must be positive, got {rows}")
    cut = []
    for name, value in list(namespace.items()):
        if name.startswith("_") or (only is not None and name not in only):
            continue  # IPython's output history (_, _1, ...) and private helpers
        length = _rows(value)
        if length is None or length <= rows:
            continue
        try:
            namespace[name] = _head(value, rows)
        except Exception:  # an exotic subclass that cannot be sliced keeps its size
            continue
        cut.append(name)
    return tuple(sorted(cut))
