"""Trial evaluation of calls known to be pure, on live values of bounded size.

A whitelisted library call (``df.drop(columns=...)``, ``s.astype('int')``,
``np.concatenate(...)``, ``int('46.0')``) whose receiver and arguments are all real values
is run on them: no user code runs, nothing is mutated (``inplace=True`` is tried as
``inplace=False``), and the result becomes the walker's value. If the trial raises, that is
exactly the exception the cell will raise.
"""

from __future__ import annotations

import re
import sys
import types
import warnings
from typing import Any

import rtextract

from ..._model import crash_type_of
from .._finding import Finding
from .._values import (
    MISSING,
    UNKNOWN,
    describe_value,
    is_estimator,
    is_frame,
    is_known,
    is_ndarray,
    is_series,
    is_tensor,
    library_of,
    meta_attr,
    nan_where,
    safe_message,
    safe_repr,
    type_root,
)
from ._types import CallSite

__all__ = ["evaluate_call", "getitem", "MAX_ELEMENTS", "PURE_BUILTINS"]

#: Arrays and frames larger than this are never copied by a trial.
MAX_ELEMENTS = 2_000_000

_PLAIN = (int, float, bool, str, bytes, type(None), complex)
_PURE_BUILTINS = frozenset({
    "len", "int", "float", "str", "bool", "list", "tuple", "dict", "set", "frozenset",
    "range", "abs", "min", "max", "sum", "round", "sorted", "zip", "enumerate", "isinstance",
    "type", "repr", "ord", "chr", "divmod", "reversed", "any", "all", "hash",
})
#: (for the walk's effects: calls of these change nothing)
PURE_BUILTINS = _PURE_BUILTINS
_PANDAS_METHODS = frozenset({
    "drop", "astype", "rename", "merge", "join", "set_index", "reset_index", "sort_values",
    "sort_index", "groupby", "fillna", "dropna", "head", "tail", "copy", "to_numpy",
    "select_dtypes", "pivot", "pivot_table", "melt", "isna", "isnull", "notna", "notnull",
    "sum", "mean", "median", "std", "var", "min", "max", "value_counts", "unique", "nunique",
    "replace", "drop_duplicates", "reindex", "filter", "explode", "stack", "unstack",
    "transpose", "round", "abs", "clip", "corr", "cov", "cumsum", "idxmax", "idxmin",
    "nlargest", "nsmallest", "get", "tolist", "to_list", "get_loc", "get_indexer", "agg",
    "aggregate", "count", "describe", "any", "all", "to_frame", "squeeze", "droplevel",
    "get_group", "size", "first", "last", "item", "duplicated", "isin", "between",
    "to_dict", "keys", "items", "where", "mask", "diff", "pct_change", "shift", "rank",
    "quantile", "mode", "prod", "dot", "add", "sub", "mul", "div", "truediv", "map",
    "contains", "lower", "upper", "strip", "split", "len", "cat", "categories", "codes",
    "year", "month", "day", "assign",
})
_PANDAS_FUNCTIONS = frozenset({
    "concat", "merge", "get_dummies", "to_numeric", "to_datetime", "DataFrame", "Series",
    "Index", "crosstab", "cut", "qcut", "isna", "isnull", "notna", "unique", "factorize",
    "pivot_table", "melt",
})
_NUMPY_FUNCTIONS = frozenset({
    "array", "asarray", "concatenate", "stack", "vstack", "hstack", "column_stack",
    "reshape", "dot", "matmul", "transpose", "expand_dims", "squeeze", "argmax", "argmin",
    "mean", "sum", "unique", "where", "log", "exp", "sqrt", "abs", "zeros", "ones", "full",
    "arange", "linspace", "zeros_like", "ones_like", "eye", "identity", "max", "min",
    "std", "var", "median", "round", "clip", "flatten", "ravel", "shape", "ndim", "size",
    "asfarray", "array_split", "split", "tile", "repeat", "append", "delete", "insert",
    "atleast_2d", "atleast_1d", "float32", "float64", "int64", "int32", "argsort", "sort",
    "cumsum", "diff", "isnan", "nan_to_num", "any", "all", "outer", "inner", "einsum",
    "broadcast_to", "swapaxes", "moveaxis", "squeeze", "log1p", "expm1", "power",
})
_NDARRAY_METHODS = frozenset({
    "reshape", "astype", "transpose", "flatten", "ravel", "squeeze", "mean", "sum", "max",
    "min", "argmax", "argmin", "copy", "tolist", "item", "dot", "any", "all", "clip", "round",
    "std", "var", "swapaxes", "cumsum", "argsort", "nonzero", "take",
})
_TORCH_FUNCTIONS = frozenset({
    "cat", "stack", "matmul", "mm", "bmm", "tensor", "as_tensor", "from_numpy", "zeros",
    "ones", "flatten", "reshape", "squeeze", "unsqueeze", "transpose", "permute", "argmax",
    "zeros_like", "ones_like", "arange", "full", "Tensor", "FloatTensor", "LongTensor",
    "sum", "mean", "max", "min", "vstack", "hstack", "eye",
    "split", "chunk", "narrow", "flip", "roll", "where", "clamp", "exp", "log", "sqrt",
    "softmax", "log_softmax", "gather", "index_select", "movedim", "tril", "triu",
    "masked_select", "cumsum", "sort", "argsort", "topk", "abs", "tensordot", "outer",
    "einsum", "full_like", "repeat_interleave", "tile", "unique", "column_stack",
})
_TENSOR_METHODS = frozenset({
    "view", "reshape", "permute", "transpose", "squeeze", "unsqueeze", "float", "long",
    "double", "int", "size", "dim", "numpy", "flatten", "matmul", "mm", "t", "sum", "mean",
    "argmax", "max", "min", "item", "tolist", "contiguous", "detach", "clone", "type",
    "view_as", "expand", "repeat", "bool", "half", "numel", "cpu",
    # views and new tensors: none writes into the tensor (the in-place forms end in ``_``)
    "unfold", "narrow", "chunk", "split", "select", "index_select", "gather", "flip", "roll",
    "movedim", "moveaxis", "swapaxes", "swapdims", "unflatten", "expand_as", "reshape_as",
    "masked_fill", "masked_select", "tril", "triu", "diagonal", "type_as", "abs", "exp",
    "log", "sqrt", "clamp", "clip", "round", "sigmoid", "tanh", "relu", "softmax",
    "log_softmax", "std", "var", "norm", "cumsum", "sort", "argsort", "topk", "all", "any",
    "nonzero", "unique", "add", "sub", "mul", "div", "pow", "eq", "ne", "lt", "le", "gt",
    "ge", "repeat_interleave", "tile", "bmm", "squeeze", "median", "prod",
})


#: The most values `_plain` reads in a nest of containers (it reads some ten million a
#: second: the rules' walk runs before the cell).
PLAIN_MOST = 20_000
_PLAIN_TYPES = frozenset(_PLAIN) - {str, bytes}


def _plain(value: Any, depth: int = 0, left: list[int] | None = None) -> bool:
    """Plain data: primitives, numpy's numbers (``list(array)`` holds them: immutable, and
    what a builtin or numpy does with them runs numpy's C code only) and small containers
    of them (safe for builtins); `PLAIN_MOST` values read at most."""
    kind = type(value)
    if kind in _PLAIN_TYPES:
        return True
    if kind is str or kind is bytes:
        return len(value) <= 1_000_000
    if kind is range:
        return True
    if kind in (list, tuple, set, frozenset, dict):
        left = [PLAIN_MOST] if left is None else left
        left[0] -= len(value) * (2 if kind is dict else 1)
        if left[0] < 0 or depth > 3:
            return False
        items = value if kind is not dict else (x for pair in value.items() for x in pair)
        numbers = _NUMBER_TYPES
        return all(type(item) in _PLAIN_TYPES or numbers.get(type(item)) or
                   _plain(item, depth + 1, left) for item in items)
    return _numpy_number(value)


_NUMBER_TYPES: dict[type, bool] = {}


def _numpy_number(value: Any) -> bool:
    """A numpy scalar of a number or bool (``np.float64(2.0)``, a frame's cell): a builtin
    type called on it (``range``, ``int``) runs numpy's C code, no user code. Its exact
    type is one of numpy's own (read once from ``numpy.sctypeDict``): nothing of the value
    is looked up, so a strange object runs none of its code here, and a list of thousands
    of numbers is read in a millisecond."""
    if not _NUMBER_TYPES:
        numpy = sys.modules.get("numpy")
        if numpy is None:
            return False
        try:
            for kind in set(numpy.sctypeDict.values()):
                if isinstance(kind, type) and issubclass(kind, numpy.generic) and \
                        numpy.dtype(kind).kind in "biufc":
                    _NUMBER_TYPES[kind] = True
        except Exception:  # noqa: BLE001 - a numpy without them: no number is known
            return False
    return type(value) in _NUMBER_TYPES


def _bounded(value: Any) -> bool:
    """A value a trial may read or copy: plain data, or a library object of bounded size."""
    if _plain(value):
        return True
    if isinstance(value, types.ModuleType) or value is None:
        return True
    if isinstance(value, type):
        # isinstance(x, C), repr(C), hash(C): C's metaclass runs them; a user ABC's
        # __subclasshook__ too. Plain classes (metaclass `type`) and library classes only.
        return type(value) is type or not rtextract.user_classes(value)
    if is_frame(value) or is_series(value) or is_ndarray(value) or is_tensor(value):
        try:
            size = int(value.numel()) if is_tensor(value) else int(value.size)
        except Exception:
            return False
        return size <= MAX_ELEMENTS
    root = type_root(value)
    if root == "pandas":  # Index, dtypes, accessors
        try:
            return len(value) <= MAX_ELEMENTS
        except Exception:
            return root == "pandas"
    if root == "numpy" and type(value).__name__ in ("dtype", "float64", "int64", "float32",
                                                    "int32", "bool_", "str_"):
        return True
    if root == "torch" and type(value).__name__ in ("dtype", "device"):
        return True  # ``dtype=torch.float32``: an immutable descriptor
    if type(value) in (list, tuple) and len(value) <= 64:
        return all(_bounded(v) for v in value)
    if type(value) is dict and len(value) <= 64:
        return all(_plain(k) and _bounded(v) for k, v in value.items())
    if type(value) is slice:
        return True
    if type(value).__name__ == "TensorDataset" and type(value).__module__.startswith(
            "torch.utils.data"):
        tensors = vars(value).get("tensors")
        return type(tensors) is tuple and all(is_tensor(t) and _bounded(t) for t in tensors)
    return False


def _whitelisted(site: CallSite) -> bool:
    func, method, receiver = site.func, site.method, site.receiver
    owner = meta_attr(func, "__self__") if isinstance(func, types.BuiltinFunctionType) \
        else MISSING
    # identity, not ==: the owner of a bound method may be an array
    if (owner is None or owner is sys.modules["builtins"]) and func.__name__ in _PURE_BUILTINS:
        return True
    if isinstance(func, type) and func.__module__ == "builtins" and func.__name__ in \
            _PURE_BUILTINS:
        return all(_plain(a) or _numpy_number(a) for a in site.args)
    if method is not None and is_known(receiver):
        if isinstance(receiver, types.ModuleType):
            root = receiver.__name__.partition(".")[0]
            name = receiver.__name__
            if root == "pandas" and method in _PANDAS_FUNCTIONS:
                return True
            if name == "numpy" and method in _NUMPY_FUNCTIONS:
                return True
            if name == "torch" and method in _TORCH_FUNCTIONS:
                return True
            return _module_function(func)
        if type(receiver) in (str, list, tuple, dict, set):
            return method in _STR_LIST_METHODS
        root = type_root(receiver)
        if root == "pandas":
            return method in _PANDAS_METHODS or (
                method in _PANDAS_MUTATORS and (is_frame(receiver) or is_series(receiver)))
        if is_ndarray(receiver):
            return method in _NDARRAY_METHODS
        if is_tensor(receiver):
            return method in _TENSOR_METHODS
        return False
    if isinstance(func, type) and is_estimator_class(func):
        return True
    if _deterministic_split(site):
        return True
    return _module_function(func)


def _deterministic_split(site: CallSite) -> bool:
    """train_test_split is pure only when it draws no global randomness."""
    func = site.func
    if meta_attr(func, "__name__") != "train_test_split" or not str(
            meta_attr(func, "__module__") or "").startswith("sklearn"):
        return False
    seed = site.kwargs.get("random_state")
    return type(seed) is int or site.kwargs.get("shuffle") is False


_PATH_FUNCTIONS = frozenset({"join", "basename", "dirname", "splitext", "split", "exists",
                             "isfile", "isdir", "abspath", "normpath", "expanduser"})


def _module_function(func: Any) -> bool:
    module = meta_attr(func, "__module__") or ""
    name = meta_attr(func, "__name__") or ""
    if module in ("posixpath", "ntpath") and name in _PATH_FUNCTIONS:
        return True
    if module.startswith("pandas") and name in _PANDAS_FUNCTIONS:
        return True
    if module.startswith("numpy") and not module.startswith("numpy.random") and \
            name in _NUMPY_FUNCTIONS:
        return True
    if module.startswith("torch") and name in _TORCH_FUNCTIONS and not isinstance(func, type):
        return True
    if module.startswith("sklearn.metrics") and name in _SKLEARN_METRICS:
        return True
    if module.startswith("torch.utils.data") and name in ("TensorDataset", "DataLoader") \
            and isinstance(func, type):
        return True  # they only keep references; nothing is loaded or iterated
    if module.startswith(("keras", "tf_keras")) and name == "to_categorical":
        return True
    return False


#: scikit-learn metrics: pure functions of their arrays (run whole on bounded inputs).
_SKLEARN_METRICS = frozenset({
    "accuracy_score", "precision_score", "recall_score", "f1_score", "fbeta_score",
    "confusion_matrix", "classification_report", "mean_squared_error", "mean_absolute_error",
    "r2_score", "roc_auc_score", "log_loss", "balanced_accuracy_score", "matthews_corrcoef",
    "cohen_kappa_score", "mean_absolute_percentage_error", "median_absolute_error",
    "explained_variance_score", "root_mean_squared_error", "jaccard_score", "hamming_loss",
    "zero_one_loss", "roc_curve", "precision_recall_curve", "average_precision_score",
    "max_error", "precision_recall_fscore_support", "multilabel_confusion_matrix",
})


_STR_LIST_METHODS = frozenset({
    "split", "strip", "lower", "upper", "replace", "startswith", "endswith", "index", "find",
    "join", "format", "count", "get", "keys", "values", "items", "copy", "remove", "pop",
    "title", "lstrip", "rstrip", "rsplit", "capitalize", "isdigit", "isalpha", "zfill",
})
_MUTATING_LIST_METHODS = frozenset({"remove", "pop"})
# Tried on a copy of the frame: re-running a cell that pops or inserts a column fails.
_PANDAS_MUTATORS = frozenset({"pop", "insert"})


def is_estimator_class(cls: type) -> bool:
    """A scikit-learn estimator class (its constructor only stores parameters)."""
    base = getattr(sys.modules.get("sklearn.base"), "BaseEstimator", None)
    return isinstance(base, type) and issubclass(cls, base) and cls.__module__.startswith(
        "sklearn")


def evaluate_call(site: CallSite) -> tuple[str, Any]:
    """Run a whitelisted pure call on its live arguments.

    Returns ("pure", value) when it ran; ("skip", UNKNOWN) when it was not tried. A trial
    that raises is reported to the walker as a finding.
    """
    if not _whitelisted(site):
        return "skip", UNKNOWN
    values = [site.receiver if site.method is not None else None, *site.args,
              *site.kwargs.values()]
    if not all(is_known(v) for v in values[1:]) or (
            site.method is not None and not is_known(site.receiver)):
        return "skip", UNKNOWN
    if not all(_bounded(v) for v in values) or any(callable(v) and not isinstance(
            v, type) and not _library_callable(v) for v in values[1:]):
        return "skip", UNKNOWN
    if _may_explode(site, values) or "out" in site.kwargs or site.kwargs.get("copy") is False:
        return "skip", UNKNOWN  # out= and copy=False write into the user's arrays
    func = site.func
    kwargs = dict(site.kwargs)
    if kwargs.get("inplace") is True:
        kwargs["inplace"] = False
    mutator = (type(site.receiver) in (list, dict, set) and site.method in
               _MUTATING_LIST_METHODS) or (site.method in _PANDAS_MUTATORS and (
                   is_frame(site.receiver) or is_series(site.receiver)))
    if mutator:
        receiver_copy = site.receiver.copy()
        func = getattr(receiver_copy, site.method)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            value = func(*site.args, **kwargs)
    except MemoryError:
        return "skip", UNKNOWN
    except Exception as exc:
        site.walker.report(_trial_finding(site, exc), site.node)
        return "skip", UNKNOWN
    if site.kwargs.get("inplace") is True:
        return "skip", UNKNOWN
    if mutator:
        return "skip", UNKNOWN
    if isinstance(value, (types.GeneratorType, map, filter, zip, enumerate, reversed)):
        return "pure", UNKNOWN  # one-shot iterators: a second pass would see nothing
    return "pure", value


#: Calls whose result can be as large as the product of their inputs' sizes.
_MULTIPLYING = frozenset({"dot", "matmul", "mm", "bmm", "outer", "inner", "einsum", "tile",
                          "repeat", "kron", "meshgrid", "cross"})


def _may_explode(site: CallSite, values: list[Any]) -> bool:
    """``np.dot(a, b)`` of a (1e6, 1) and a (1, 1e6) array would allocate 1e12 elements in
    the user's kernel: such calls are tried only when the product of the input sizes is
    bounded."""
    name = site.method or meta_attr(site.func, "__name__")
    if name not in _MULTIPLYING:
        return False
    product = 1
    for value in values:
        for item in (value if type(value) in (list, tuple) else (value,)):
            if is_ndarray(item) or is_tensor(item):
                size = int(item.numel()) if is_tensor(item) else int(item.size)
                product *= max(size, 1)
    return product > MAX_ELEMENTS


def _library_callable(value: Any) -> bool:
    return type_root(value) in ("numpy", "pandas", "builtins", "torch", "math")


def _trial_finding(site: CallSite, exc: Exception) -> Finding:
    name = type(exc).__name__
    message = safe_message(exc) or name
    if isinstance(exc, KeyError) and exc.args:
        message = safe_repr(exc.args[0]) if type(exc.args[0]) is not str or "not" not in \
            exc.args[0] else exc.args[0]
    subject = site.receiver if site.method is not None and is_known(site.receiver) else None
    library = library_of(subject) if subject is not None and not isinstance(
        subject, (str, list, dict, tuple)) else library_of(site.func)
    if subject is not None and isinstance(subject, types.ModuleType):
        library = library_of(subject)
    evidence = []
    if subject is not None and not isinstance(subject, types.ModuleType):
        evidence.append(f"{site.text(site.node.func.value)}: {describe_value(subject)}")
    for node, value in zip(site.node.args, site.args):
        if is_frame(value) or is_ndarray(value) or is_tensor(value) or is_series(value):
            evidence.append(f"{site.text(node)}: {describe_value(value)}")
    call_text = site.text(site.node)
    if len(call_text) > 80:
        call_text = call_text[:77] + "..."
    if name == "KeyError" and is_frame(subject):
        explanation = f"`{call_text}` raises KeyError: {message} (not among the columns " \
                      f"{_labels(subject.columns)})"
    else:
        explanation = f"`{call_text}` raises {name}: {message}"
        if _NAN_WORDS.search(message) and subject is not None:
            where = nan_where(subject)  # which column holds the NaN the message speaks of
            if where:
                explanation += f" ({site.text(site.node.func.value)}: {where})"
    return Finding(exception=name, crash_type=_crash_type(site, name, message), library=library,
                   explanation=explanation, evidence=tuple(evidence), confidence=0.97,
                   rule="trial")


_NAN_WORDS = re.compile(r"\bNaN\b|\bNA\b|non-finite", re.I)


def _crash_type(site: CallSite, name: str, message: str) -> str:
    if name == "TypeError" and ("argument" in message or "positional" in message):
        return "invalid argument"
    return crash_type_of(name, message)


def _labels(index: Any, limit: int = 8) -> str:
    labels = [repr(c) for c in list(index[:limit])]
    more = "" if len(index) <= limit else f", ... {len(index) - limit} more"
    return "[" + ", ".join(labels) + more + "]"


def getitem(base: Any, key: Any, long_frames: bool = False) -> Any:
    """``base[key]`` for plain containers and bounded library objects; UNKNOWN otherwise.
    ``long_frames``: also a column of a frame too large for a trial (when the walk has
    time for trials: what follows works on the column's values)."""
    if not (is_known(base) and is_known(key)):
        return UNKNOWN
    if type(base) in (dict, list, tuple, str, range):
        if not (_plain(key) or type(key) is slice):
            return UNKNOWN  # hashing or comparing a user object could run its code
        try:
            return base[key]
        except Exception:
            return UNKNOWN
    if long_frames and _column_of_a_long_frame(base, key):
        try:
            return base[key]
        except Exception:
            return UNKNOWN
    if not _bounded(base) and not _indexer_of_bounded(base):
        return UNKNOWN
    if not (_plain(key) or type(key) is slice or _bounded(key) or (
            type(key) is tuple and all(type(k) is slice or _plain(k) or _bounded(k)
                                       for k in key))):
        return UNKNOWN
    if is_estimator(base):
        return UNKNOWN
    root = type_root(base)
    if root not in ("pandas", "numpy", "torch"):
        return UNKNOWN
    try:
        return base[key]
    except Exception:
        return UNKNOWN


def _column_of_a_long_frame(base: Any, key: Any) -> bool:
    """``frame['col']`` of a pandas frame too large for a trial (many columns), whose
    column is not: picking it out copies nothing, and what the cell does to it next is
    tried on it alone (``full['year'].astype(int)`` on a frame of 600,000 rows and 11
    columns)."""
    if type(key) is not str or not is_frame(base) or type_root(base) != "pandas":
        return False
    try:
        columns = base.columns
        return len(base) <= MAX_ELEMENTS and columns.is_unique and key in columns
    except Exception:
        return False


def _indexer_of_bounded(base: Any) -> bool:
    if type_root(base) != "pandas":
        return False
    owner = getattr(base, "obj", None)
    return owner is not None and _bounded(owner)
