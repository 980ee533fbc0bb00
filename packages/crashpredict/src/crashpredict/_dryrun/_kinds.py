"""Which crashes a cut can cause: the one test for shrunk data and for cut loops.

A dry run on data cut to its first rows, or with its loops cut short, sees a state the
real run does not have. `shrinking_cannot_cause` says which kinds of crash such a run can
be believed on (names, attributes, types, fitted state, files, columns, the values kept),
and `SHRUNK_CAN_CLEAR` which kinds its clean run can rule out.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

__all__ = ["SHRUNK_CAN_CLEAR", "cut_doubtful", "shrinking_cannot_cause"]

#: Crash kinds a clean run on the first rows can rule out: they depend on names, columns,
#: types and fitted state, which shrinking keeps. Value errors, index errors, shape and
#: length mismatches, bad data values, memory and row-label key errors can hide past the head.
SHRUNK_CAN_CLEAR = frozenset({
    "variable not found", "attribute error", "module not found", "syntax error", "NotFitted",
    "feature name mismatch", "type error", "file not found",
})
#: Words of a value error about the data's values, which shrinking keeps (the retry keeps
#: the rows with NaN/inf and unseen labels) and never creates.
_VALUE_WORDS = ("nan", "infinity", "non-finite", "could not convert", "invalid literal", "unseen",
                "new labels", "unknown categor", "not in list")

#: Words of a mismatch of element types (torch's, TensorFlow's): rows cut or iterations
#: cut keep each array's and tensor's dtype, so neither makes a float64 meet a float32.
_DTYPE_WORDS = ("must have the same dtype", "to have the same dtype", "expected scalar type",
                "but got scalar type", "found dtype", "and weight type",
                "does not match type", "was expected to be a")
#: Words of torch's autograd state: whether a tensor requires grad, whether a graph was
#: freed by a backward. Rows cut keep a tensor's flag (a slice of one that requires grad
#: requires grad); iterations cut run the same statements fewer times (a name a cut loop
#: binds is judged apart, `_fastforward.Cutter.judge`).
_AUTOGRAD_WORDS = ("requires grad", "does not require grad",
                   "backward through the graph a second time")


def shrinking_cannot_cause(crash_type: str, message: str) -> bool:
    """Whether a crash seen on data cut to its first rows is the data's, not the cut's.

    Names, attributes, types (a tensor's dtype and autograd state too), fitted state, files,
    columns and the values kept (NaN, text, unseen labels) survive shrinking. A size or
    shape mismatch, an index past the end, a missing row label or a value error about sizes
    may be the shrinking's own doing (two objects cut differently, a fixed reshape or model
    input), so such a crash proves nothing.
    """
    text = message.strip().lower()
    if crash_type in SHRUNK_CAN_CLEAR or any(word in text for word in _DTYPE_WORDS) or \
            any(word in text for word in _AUTOGRAD_WORDS):
        return True
    if crash_type == "key error":  # a column name survives the cut; a row label may not
        return text[:1] in ("'", '"')  # KeyError: 'b', "None of [Index(['b'])] are in ..."
    if crash_type in ("value error", "data value violation"):
        return any(word in text for word in _VALUE_WORDS)
    return False


def cut_doubtful(fields: Mapping[str, Any]) -> bool:
    """A fast-forwarded crash that the cut may have caused (the verdict will not count it)."""
    from .._model import crash_type_of

    if fields.get("outcome") != "crashed" or not fields.get("cut_before_crash") or \
            fields.get("last_iteration") or fields.get("shapes_kept"):
        return False
    if fields.get("cut_only_library"):  # fewer epochs or trees change no size or type
        return bool(fields.get("cut_may_cause"))
    kind = crash_type_of(fields.get("exception"), fields.get("message", ""), fields.get("library"))
    return bool(fields.get("cut_may_cause")) or \
        not shrinking_cannot_cause(kind, fields.get("message", ""))
