"""What a call the walker cannot evaluate may change: receiver, arguments, globals."""

from __future__ import annotations

import ast
import builtins
import inspect
import sys
import textwrap
import types
from typing import Any

import rtextract

from .._values import (
    UNKNOWN,
    Changed,
    Partial,
    is_abstract,
    is_estimator,
    is_keras_model,
    is_known,
    is_torch_module,
    meta_attr,
    type_root,
)
from ._types import COMPILED_IN_CELL, MODULE_MODES, CallSite, CellFunction
from ._pure import PURE_BUILTINS
from ._util import READ_ONLY_METHODS

__all__ = ["effects_of_call", "globals_mutated_by"]

_LIBRARIES = frozenset({"pandas", "numpy", "sklearn", "torch", "torchvision", "keras",
                        "tensorflow", "matplotlib", "seaborn", "scipy", "builtins", "math",
                        "statistics", "os", "re", "json", "collections", "itertools",
                        "functools", "PIL", "cv2", "IPython", "time", "datetime", "random",
                        "pathlib", "warnings", "string", "operator", "xgboost", "lightgbm",
                        "catboost", "plotly", "statsmodels", "tqdm", "joblib", "pickle"})
_SHUFFLERS = frozenset({"shuffle"})


def _is_library_callable(func: Any) -> bool:
    root = type_root(func)
    return root in _LIBRARIES or root.startswith("_")


def effects_of_call(site: CallSite) -> None:
    """Taint what a call may change in the walker's environment."""
    walker = site.walker
    func = site.func
    if _sets_grad_mode(func):
        walker.grad_lost = True  # torch's autograd mode from here on is not the walk's
    user = isinstance(func, CellFunction) or (
        is_known(func) and not _is_library_callable(func)) or not is_known(func)
    if site.method is not None and isinstance(site.node.func, ast.Attribute):
        receiver = site.receiver
        mutating = site.method not in READ_ONLY_METHODS or site.kwargs.get("inplace") is True
        if is_estimator(receiver) and site.method.startswith("fit"):
            mutating = False  # the sklearn rules record the fit
        if is_abstract(receiver, "keras") and site.method in ("compile", "summary", "fit",
                                                              "evaluate", "predict"):
            mutating = False  # the Keras facts record the compiled loss; a fit changes
            # weights, not the shapes, loss or class the facts hold
        if site.method in _KERAS_RUNS and is_known(receiver) and is_keras_model(receiver) and \
                meta_attr(receiver, "built") is True:
            mutating = False  # a built model's fit changes its weights and optimizer, not
            # its layers, input shape or loss (an unbuilt one is built by its first fit)
        if site.method == "compile" and is_known(receiver) and is_keras_model(receiver) and \
                walker.scratch.get(COMPILED_IN_CELL, {}).get(id(receiver), (None, None))[1] \
                is site.node:
            mutating = False  # this call's loss is recorded (`_model_facts.record_compiled_loss`,
            # by the Keras call rule); compiling changes no layer, shape or weight
        reading = site.method in _CALLBACK_METHODS and _pure_callbacks(site)
        if mutating and reading:
            mutating = False  # a lambda that only reads: pandas hands it copies or views
        mode = _mode_set(site)
        if mode is not None:
            mutating = False  # only the training flags change: the rules apply them
            walker.scratch.setdefault(MODULE_MODES, []).append((receiver, mode))
        if mutating and not isinstance(receiver, types.ModuleType) and \
                not _item_of_an_abstract_array(site.node.func.value, site.method, walker) and \
                not (_of_a_grouping(site.node.func.value) and (
                    site.method not in _TAKES_A_FUNCTION or reading)):
            walker.changed_by_call(site.node.func.value)
        if is_known(func) and _is_library_callable(func) and not isinstance(
                receiver, types.ModuleType):
            user = False
    if user or (site.method in _SHUFFLERS):
        for arg in [*site.node.args, *[k.value for k in site.node.keywords]]:
            value = arg.value if isinstance(arg, ast.Starred) else arg
            walker.taint(value)
    if is_known(func) and user:
        changed = globals_mutated_by(func, walker.namespace)
        if changed is None:
            walker.namespace_dirty = True
            for name, value in list(walker.env.items()):
                if is_known(value) and not isinstance(value, (types.ModuleType, type)):
                    walker.env[name] = UNKNOWN
        else:
            for name in changed:
                walker.env[name] = UNKNOWN


#: What a built Keras model runs: its weights change, not what the rules read of it.
_KERAS_RUNS = frozenset({"fit", "evaluate", "predict", "train_on_batch", "test_on_batch",
                         "predict_on_batch"})
#: pandas methods that call a function on each value, row, column or group and change
#: nothing themselves (but with ``inplace``, which none of them takes).
_CALLBACK_METHODS = frozenset({"apply", "map", "applymap", "transform", "agg", "aggregate"})
#: Methods of the values such a function meets (texts, dates, rows, dicts) that only read.
_READING_METHODS = frozenset({
    "lower", "upper", "title", "capitalize", "casefold", "strip", "lstrip", "rstrip",
    "split", "rsplit", "splitlines", "replace", "startswith", "endswith", "find", "rfind",
    "index", "count", "isdigit", "isalpha", "isalnum", "isnumeric", "isdecimal", "isspace",
    "islower", "isupper", "zfill", "format", "join", "partition", "rpartition", "encode",
    "decode", "weekday", "isoweekday", "isoformat", "strftime", "date", "time", "timestamp",
    "total_seconds", "to_pydatetime", "normalize", "get", "keys", "values", "items",
    "isna", "isnull", "notna", "notnull", "sum", "mean", "median", "min", "max", "std", "var",
    "nunique", "unique", "tolist", "to_list", "to_numpy", "astype", "round", "abs", "any",
    "all", "idxmax", "idxmin", "value_counts", "fillna", "dropna", "head", "tail", "copy",
    "item",
})
#: Modules whose functions such a function may call (but those that write into an array)...
_READING_MODULES = frozenset({"numpy", "math", "re", "pandas", "datetime", "string",
                              "statistics"})
#: ...and those: they write into their arguments, or draw from a global generator.
_WRITING_FUNCTIONS = frozenset({"copyto", "put", "place", "putmask", "fill_diagonal",
                                "put_along_axis", "shuffle", "seed", "at", "random"})
#: Methods of a grouping that call what they are given (a function of the user's may
#: write into the frame the grouping was made from).
_TAKES_A_FUNCTION = _CALLBACK_METHODS | {"filter", "pipe"}
#: Arguments of those methods that say how to call, not what.
_HOW = frozenset({"axis", "na_action", "result_type", "raw", "convert_dtype", "by_row",
                  "engine"})


def _pure_callbacks(site: CallSite) -> bool:
    """Whether a pandas ``apply``/``map``/``transform``/``agg`` call changes nothing: its
    receiver is pandas', and what it calls is a lambda that only reads (`_reads_only`), a
    builtin that only reads (``len``, ``str``), a numpy ufunc, a ``str`` method, a name
    of a reduction (``'mean'``) or a mapping (``s.map(codes)``)."""
    receiver = site.receiver
    if isinstance(receiver, (Partial, Changed)):  # columns stored, or changed by a call
        receiver = receiver.obj  # earlier in the cell: its class is still pandas'
    if not (is_known(receiver) and type_root(receiver) == "pandas") or site.starred:
        return False
    values = list(zip(site.node.args, site.args))
    values += [(k.value, site.kwargs.get(k.arg)) for k in site.node.keywords
               if k.arg not in _HOW]
    if not values:
        return False
    for node, value in values:
        if isinstance(node, ast.Lambda):
            if not _reads_only(node, site.walker):
                return False
        elif not _reading_value(value):
            return False
    return True


def _reading_value(value: Any) -> bool:
    if not is_known(value):
        return False
    if value is None or type(value) in (str, int, float, bool, dict):
        return True  # (a dict's subclass may add keys as it is read: ``defaultdict``)
    kind = type(value)
    if kind is types.BuiltinFunctionType:
        return getattr(value, "__self__", None) is builtins and value.__name__ in PURE_BUILTINS
    if isinstance(value, type) and value in (str, int, float, bool):
        return True
    if kind is types.MethodDescriptorType:
        return getattr(value, "__objclass__", None) in (str, bytes)
    numpy = sys.modules.get("numpy")
    if numpy is not None and isinstance(value, numpy.ufunc):
        return True
    return type_root(value) == "pandas" and type(value).__name__ == "Series"  # a mapping


def _reads_only(lam: ast.Lambda, walker: Any) -> bool:
    """Whether the lambda's body only reads: every call in it is of a builtin that only
    reads, of a function of `_READING_MODULES` (not one of `_WRITING_FUNCTIONS`, no
    ``out=``), or of a method of `_READING_METHODS` (no ``inplace=``); no ``:=``."""
    params = {a.arg for a in [*lam.args.posonlyargs, *lam.args.args, *lam.args.kwonlyargs]}
    for node in ast.walk(lam.body):
        if isinstance(node, (ast.NamedExpr, ast.Lambda, ast.Await, ast.Yield, ast.YieldFrom)):
            return False
        if not isinstance(node, ast.Call):
            continue
        if any(k.arg in ("inplace", "out") or k.arg is None for k in node.keywords):
            return False
        func = node.func
        if isinstance(func, ast.Name):
            if func.id in params or func.id not in PURE_BUILTINS or \
                    walker.lookup(func.id) is not getattr(builtins, func.id, None):
                return False
            continue
        if not isinstance(func, ast.Attribute):
            return False
        chain, root = [func.attr], func.value
        while isinstance(root, ast.Attribute):
            chain.append(root.attr)
            root = root.value
        held = walker.lookup(root.id) if isinstance(root, ast.Name) and \
            root.id not in params else None
        if isinstance(held, types.ModuleType):
            if held.__name__.split(".")[0] not in _READING_MODULES or \
                    _WRITING_FUNCTIONS & set(chain):
                return False
            continue
        if held is str and len(chain) == 1 and func.attr in _READING_METHODS:
            continue
        if func.attr not in _READING_METHODS or (
                held is not None and is_known(held) and rtextract.user_classes(type(held))):
            return False  # a method of the user's class may write, whatever its name
    return True


#: pandas methods that make a grouping or window of a frame or series: what is called on
#: it (``rank``, ``cumcount``, ``shift``, ``fillna``) makes new objects, none of them
#: writes into the frame (none takes ``inplace``).
_GROUPINGS = frozenset({"groupby", "rolling", "expanding", "ewm", "resample"})


def _of_a_grouping(node: ast.expr) -> bool:
    """``node`` (a call's receiver) is a grouping or window made by the call in it
    (``df.groupby('k')['v']``, ``s.rolling(7)``), or a column of one: calling its method
    changes nothing of what it was made from."""
    while isinstance(node, (ast.Subscript, ast.Attribute)):
        node = node.value
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and \
        node.func.attr in _GROUPINGS


def _item_of_an_abstract_array(node: ast.expr, method: str, walker: Any) -> bool:
    """``node`` (a call's receiver) is an item of an array the walk knows by its shape and
    dtype alone (``axes[0, 1]``, ``axes.flatten()[i]``, ``axes.flat[i]``, from
    ``plt.subplots``) and ``method`` is the item's own (``set_title``), no ndarray's (a
    row's ``fill`` or ``sort`` would write into the array): it may change what the item
    holds, never the array's shape, dtype or values."""
    np = sys.modules.get("numpy")
    if not isinstance(node, ast.Subscript) or np is None or hasattr(np.ndarray, method):
        return False
    base = node.value
    while isinstance(base, ast.Call) and isinstance(base.func, ast.Attribute) and \
            base.func.attr in ("flatten", "ravel") and not base.args and not base.keywords:
        base = base.func.value
    if isinstance(base, ast.Attribute) and base.attr == "flat":
        base = base.value
    return isinstance(base, ast.Name) and is_abstract(walker.lookup(base.id), "ndarray")


def _mode_set(site: CallSite) -> bool | None:
    """The mode ``module.train()``, ``module.train(False)`` or ``module.eval()`` puts a live
    torch module in, when those are torch's own (a subclass may override them); else None."""
    receiver, method = site.receiver, site.method
    if method not in ("train", "eval") or not is_known(receiver) or \
            not is_torch_module(receiver) or site.starred or site.kwargs:
        return None
    torch = sys.modules.get("torch")
    try:
        own = inspect.getattr_static(type(receiver), method) is getattr(torch.nn.Module, method)
    except AttributeError:
        return None
    if not own:
        return None
    if method == "eval":
        return False if not site.args else None
    if not site.args:
        return True
    flag = site.args[0]
    return flag if len(site.args) == 1 and is_known(flag) and type(flag) is bool else None


#: Names of torch's calls that set the autograd mode for what follows them.
_GRAD_SETTERS = frozenset({"set_grad_enabled", "_set_grad_enabled"})


def _sets_grad_mode(func: Any) -> bool:
    """``torch.set_grad_enabled(...)`` called outside a ``with`` (it sets the mode for the
    rest of the cell), or a function of the notebook that names it."""
    torch = sys.modules.get("torch")
    if torch is None:
        return False
    if isinstance(func, CellFunction):
        return any(isinstance(node, ast.Attribute) and node.attr in _GRAD_SETTERS or
                   isinstance(node, ast.Name) and node.id in _GRAD_SETTERS
                   for node in ast.walk(func.node))
    if not is_known(func):
        return False
    if any(func is getattr(owner, name, None) for owner in (torch, getattr(torch, "_C", None))
           for name in _GRAD_SETTERS):
        return True
    if type(func) is types.FunctionType:  # the notebook's (or a module's) own function
        stack, seen = [func.__code__], 0
        while stack and seen < 200:
            code = stack.pop()
            seen += 1
            if _GRAD_SETTERS & set(code.co_names):
                return True
            stack.extend(c for c in code.co_consts if isinstance(c, types.CodeType))
    return False


def globals_mutated_by(func: Any, namespace: Any) -> set[str] | None:
    """Global names a user function may rebind or mutate; None when it cannot be told."""
    if isinstance(func, CellFunction):
        node: ast.AST = func.node
    else:
        target = meta_attr(func, "__init__") if isinstance(func, type) else func
        target = meta_attr(target, "__func__", target)
        if not isinstance(target, types.FunctionType):
            return None
        try:
            node = ast.parse(textwrap.dedent(inspect.getsource(target)))
        except (OSError, TypeError, SyntaxError, IndentationError):
            return None
    local = _local_names(node)
    changed: set[str] = set()
    for sub in ast.walk(node):
        if isinstance(sub, ast.Global):
            changed.update(sub.names)
        elif isinstance(sub, (ast.Subscript, ast.Attribute)) and isinstance(
                sub.ctx, (ast.Store, ast.Del)):
            root = _root(sub)
            if root and root not in local:
                changed.add(root)
        elif isinstance(sub, ast.Call):
            if isinstance(sub.func, ast.Attribute):
                root = _root(sub.func.value)
                if root and root not in local:
                    changed.add(root)
            elif isinstance(sub.func, ast.Name) and sub.func.id not in local:
                callee = namespace.get(sub.func.id, getattr(builtins, sub.func.id, None))
                if callee is None or not _is_library_callable(callee):
                    return None
            for arg in sub.args:
                root = _root(arg)
                if root and root not in local:
                    changed.add(root)
    return changed


def _local_names(node: ast.AST) -> set[str]:
    names: set[str] = set()
    for sub in ast.walk(node):
        if isinstance(sub, ast.arg):
            names.add(sub.arg)
        elif isinstance(sub, ast.Name) and isinstance(sub.ctx, ast.Store):
            names.add(sub.id)
    globals_ = {n for sub in ast.walk(node) if isinstance(sub, ast.Global) for n in sub.names}
    return names - globals_


def _root(node: ast.AST) -> str | None:
    while isinstance(node, (ast.Attribute, ast.Subscript, ast.Call)):
        node = node.func if isinstance(node, ast.Call) else node.value
    return node.id if isinstance(node, ast.Name) else None
