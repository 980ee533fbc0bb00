"""Which crashes a cut can cause: the one test for shrunk data and for cut loops.

A dry run on data cut to its first rows, or with its loops cut short, sees a state the
real run does not have. `shrinking_cannot_cause` says which kinds of crash such a run can
be believed on (names, attributes, types, fitted state, files, columns, the values kept),
and `SHRUNK_CAN_CLEAR` which kinds its clean run can rule out.
"""

from __future__ import annotations

import ast
from collections.abc import Collection, Mapping
from typing import Any

from nbdeps import ipython_to_python

__all__ = ["SHRUNK_CAN_CLEAR", "cut_doubtful", "shrinking_cannot_cause", "takes_a_part"]

#: Crash kinds a clean run on the first rows can rule out: they depend on names, columns,
#: types and fitted state, which shrinking keeps. Value errors, index errors, shape and
#: length mismatches, bad data values, memory and row-label key errors can hide past the head.
SHRUNK_CAN_CLEAR = frozenset({
    "variable not found", "attribute error", "module not found", "syntax error", "NotFitted",
    "feature name mismatch", "type error", "file not found",
})
#: What ``json.loads`` says of a text that is no JSON (a ``JSONDecodeError``).
_JSON_WORDS = ("expecting value", "expecting property name", "expecting ',' delimiter",
               "expecting ':' delimiter", "unterminated string", "invalid control character",
               "invalid \\escape", "extra data")
#: Words of a value error about the data's values, which shrinking keeps (the retry keeps
#: the rows with NaN/inf, unseen labels and texts of a new shape) and never creates: a
#: date that does not match its format, a text that is no JSON, is one of the rows kept.
_VALUE_WORDS = ("nan", "infinity", "non-finite", "could not convert", "invalid literal", "unseen",
                "new labels", "unknown categor", "not in list", "match format",
                "unknown string format", *_JSON_WORDS)

#: Words of a mismatch of element types (torch's, TensorFlow's): rows cut or iterations
#: cut keep each array's and tensor's dtype, so neither makes a float64 meet a float32.
_DTYPE_WORDS = ("must have the same dtype", "to have the same dtype", "expected scalar type",
                "but got scalar type", "found dtype", "and weight type",
                "does not match type", "was expected to be a", "expected target dtype")
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
        return _column_names_missing(text)
    if crash_type in ("value error", "data value violation"):
        return any(word in text for word in _VALUE_WORDS)
    return False


def _column_names_missing(text: str) -> bool:
    """Whether a ``KeyError``'s message (lower case) names missing column names, texts
    (``'b'``, ``"['b'] not in index"``, ``"None of [Index(['b'])] are in the [columns]"``),
    not row labels: pandas says ``'[500] not in index'`` and ``None of [...] are in the
    [index]`` of labels that a frame cut to its first rows (and the rows the retry keeps)
    lacks, as it says them of missing columns."""
    if text[:1] not in ("'", '"'):
        return False  # KeyError: 500, a row label
    inner = text[1:]
    if inner.startswith("none of ["):
        return inner.rstrip("'\"").endswith("are in the [columns]") and \
            inner[len("none of [index(["):][:1] in ("'", '"')
    if inner.startswith("["):
        return inner[1:2] in ("'", '"')  # ['b'] not in index; [500] not in index
    return True  # KeyError: 'b'


def cut_doubtful(fields: Mapping[str, Any]) -> bool:
    """A fast-forwarded crash that the cut may have caused (the verdict will not count it)."""
    from .._model import crash_type_of

    if fields.get("outcome") != "crashed" or not fields.get("cut_before_crash") or \
            fields.get("last_iteration") or fields.get("kept_iteration") or \
            fields.get("swept_iteration") or fields.get("shapes_kept") or \
            fields.get("stacks_kept") or fields.get("items_kept") or fields.get("grads_kept") or \
            fields.get("keys_kept") or fields.get("key_types_kept") or \
            fields.get("duplicates_kept") or \
            fields.get("inputs_kept"):
        return False
    if fields.get("cut_only_library"):  # fewer epochs or trees change no size or type
        return bool(fields.get("cut_may_cause"))
    kind = crash_type_of(fields.get("exception"), fields.get("message", ""), fields.get("library"))
    return bool(fields.get("cut_may_cause")) or \
        not shrinking_cannot_cause(kind, fields.get("message", ""))


#: Calls that take some rows by position or at random: on the rows kept, those past the
#: head (kept for a NaN or a text) are among the last or a sample's.
_PART_CALLS = frozenset({"head", "tail", "sample", "nlargest", "nsmallest", "take"})


def takes_a_part(source: str, cut: Collection[str], rows: int) -> bool:
    """Whether the cell takes rows of an object cut (``cut``) by position, past the first
    ``rows`` or from the end, or at random (``df[:1000]``, ``X[-200:]``, ``df.iloc[:split]``,
    ``df.head(n)``, ``df.sample(frac=0.1)``): the rows a cut keeps for their values (a NaN,
    a text; `_shrink.salient_rows`) come right after the first ones, so such a part of the
    rows kept may hold one where the same part of the whole data does not. A slice of
    anything else (a text's ``s[:-1]`` in a lambda) is no part of the rows."""
    try:
        tree = ast.parse(ipython_to_python(source))
    except SyntaxError:
        return True
    for node in ast.walk(tree):
        if isinstance(node, ast.Subscript) and _root(node.value) in cut:
            first = node.slice.elts[0] if isinstance(node.slice, ast.Tuple) and \
                node.slice.elts else node.slice
            if isinstance(first, ast.Slice) and any(
                    bound is not None and not _small_count(bound, rows)
                    for bound in (first.lower, first.upper)):
                return True
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and \
                node.func.attr in _PART_CALLS and _root(node.func.value) in cut:
            if node.func.attr != "head" or node.keywords or \
                    not all(_small_count(a, rows) for a in node.args):
                return True
    return False


#: Methods whose values come from the rows next to each one (a fill from the row before,
#: a window, a difference): on rows kept apart from the rows before them (`_shrink`'s rows
#: kept for their values) they see other neighbours than in the whole data.
_NEIGHBOUR_CALLS = frozenset({"ffill", "bfill", "pad", "backfill", "interpolate", "shift",
                              "diff", "pct_change", "rolling", "expanding", "ewm",
                              "resample", "asfreq", "cumsum", "cumprod", "cummax", "cummin"})
#: Words of a missing or infinite value's error.
_MISSING_WORDS = ("nan", "non-finite", "infinity", "missing values")


def fills_from_neighbours(source: str, line: int | None, message: str) -> bool:
    """Whether a missing value's error (`_MISSING_WORDS`) at ``line`` may come from rows
    the shrinking set side by side: the failing statement calls a method that fills or
    computes a row from its neighbours (`_NEIGHBOUR_CALLS`: ``s.ffill().astype(int)``), or
    reads a name the cell binds from such a call (the value it stores, not where). On the
    whole data the row before a gap fills it; on the rows kept, a group may start with the
    gap. Without the cell's source, False (nothing is known of it)."""
    text = message.lower()
    if not source.strip() or not any(word in text for word in _MISSING_WORDS):
        return False
    try:
        tree = ast.parse(ipython_to_python(source))
    except SyntaxError:
        return True
    statement = next((n for n in ast.walk(tree) if isinstance(n, ast.stmt)
                      and not isinstance(n, (ast.For, ast.While, ast.If, ast.With, ast.Try,
                                             ast.FunctionDef, ast.ClassDef))
                      and n.lineno <= (line or 0) <= (n.end_lineno or n.lineno)), None)
    if statement is None:
        return line is None

    def neighbours(node: ast.AST) -> bool:
        return any(isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)
                   and n.func.attr in _NEIGHBOUR_CALLS for n in ast.walk(node))
    filled = {_root(target) for n in ast.walk(tree) if isinstance(n, ast.Assign) and
              neighbours(n.value) for target in n.targets}
    value = statement.value if isinstance(statement, (ast.Assign, ast.AugAssign, ast.AnnAssign)) \
        and statement.value is not None else statement  # what is stored into is not read
    read = {n.id for n in ast.walk(value) if isinstance(n, ast.Name)}
    return neighbours(value) or bool(read & filled)


def _root(node: ast.expr) -> str | None:
    """The name an expression of attributes, items and calls starts from (``df`` of
    ``df['a'].values``), or None."""
    while isinstance(node, (ast.Attribute, ast.Subscript, ast.Call)):
        node = node.func if isinstance(node, ast.Call) else node.value
    return node.id if isinstance(node, ast.Name) else None


def _small_count(node: ast.expr, rows: int) -> bool:
    """A whole number from 0 to ``rows``, written as such."""
    return isinstance(node, ast.Constant) and type(node.value) is int and \
        0 <= node.value <= rows
