"""Data shrinking for a dry run: cut big tables and arrays to their first rows, in the child.

Only top-level names of the namespace are shrunk, and only pandas DataFrames and Series,
numpy arrays, torch tensors and TensorFlow eager tensors (recognised through the type's
module, never by importing the library). Every object longer than ``rows`` keeps its first
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


def _rows(value: Any) -> int | None:
    """The number of rows of a shrinkable object, or None when it is not one."""
    root = type(value).__module__.partition(".")[0]
    if root not in _ROOTS or isinstance(value, type):
        return None
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
