"""Constants and pure helpers of the cell walker (AST facts, plain-value tests)."""

from __future__ import annotations

import ast
import operator
import sys
import types
from collections.abc import Callable
from dataclasses import replace
from typing import Any

import rtextract

from ..._syntax import clone
from .._finding import Finding
from .._values import is_frame, is_known, is_ndarray, is_series, is_tensor

__all__ = [
    "bound_names", "contains_jump", "hashable", "is_mutable_array", "keyed_container",
    "may_exit_loop", "may_suppress", "root_name", "safe_len", "small_items", "stable",
    "target_names", "as_load", "global_declarations", "plain_value", "with_confidence",
    "type_root_is_pandas_index", "READ_ONLY_METHODS",
]

_JUMPS = (ast.Break, ast.Continue, ast.Return, ast.Raise)
# IPython puts these in builtins only while a cell executes (not while we predict).
_IPYTHON_BUILTINS = frozenset({"get_ipython", "display", "exit", "quit", "__IPYTHON__",
                               "dreload"})
# Magics that cannot define names or change objects; any other magic (%run, %store -r,
# %time x = ..., %%capture out) may do either.
_HARMLESS_MAGICS = frozenset({"matplotlib", "load_ext", "reload_ext", "config", "autoreload",
                              "aimport", "pip", "conda", "precision", "who", "whos", "pwd",
                              "ls", "env", "pinfo", "pinfo2", "history", "lsmagic"})
_SHELL_CALLS = frozenset({"run_line_magic", "run_cell_magic", "system", "getoutput", "run",
                          "call", "check_call", "check_output", "Popen", "chdir"})
_NAME_MAKERS = frozenset({"exec", "eval", "globals", "locals", "vars", "setattr",
                          "__import__"})
_MAX_UNROLL = 64
# Trial evaluations stop after this long, so a big unrolled loop cannot stall the user.
_TRIAL_BUDGET_S = 1.0
# Propagation (facts of values the walk cannot compute: meta tensors, small stand-ins) gets
# at least this long, also where trials get none (the notebook, where a dry run has the
# cell): a torch model's forward on the meta device takes a millisecond or a few.
_PROPAGATION_FLOOR_S = 0.02


#: Methods that read their receiver and never change it (but with ``inplace=True``).
READ_ONLY_METHODS = frozenset({
    "predict", "predict_proba", "predict_log_proba", "decision_function", "score",
    "transform", "inverse_transform", "get_params", "head", "tail", "describe", "info",
    "plot", "hist", "show", "summary", "evaluate", "copy", "count", "get", "items", "keys",
    "values", "to_csv", "to_excel", "to_json", "savefig", "save", "format", "join",
    "startswith", "endswith", "split", "strip", "lower", "upper", "replace", "mean", "sum",
    "std", "min", "max", "value_counts", "unique", "nunique", "isnull", "isna", "notna",
    "corr", "groupby", "to_numpy", "numpy", "size", "dim", "parameters", "named_parameters",
    "state_dict", "__len__", "astype", "reshape", "view", "item", "tolist", "iterrows",
    "itertuples",
    "backward",  # torch: gradients go to the graph's leaves, the tensor itself is unchanged
})

_BINOPS: dict[type, Callable[[Any, Any], Any]] = {
    ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul,
    ast.Div: operator.truediv, ast.FloorDiv: operator.floordiv, ast.Mod: operator.mod,
}
_PLAIN = (int, float, bool, str, type(None))
_COMPARE: dict[type, Callable[[Any, Any], bool]] = {
    ast.Eq: operator.eq, ast.NotEq: operator.ne, ast.Lt: operator.lt, ast.LtE: operator.le,
    ast.Gt: operator.gt, ast.GtE: operator.ge, ast.Is: operator.is_,
    ast.IsNot: operator.is_not, ast.In: lambda a, b: a in b,
    ast.NotIn: lambda a, b: a not in b,
}


def plain_value(value: Any, depth: int = 0) -> bool:
    """Plain data whose comparison runs no user code."""
    if type(value) in _PLAIN:
        return True
    if depth < 2 and type(value) in (list, tuple, set, frozenset) and len(value) <= 10_000:
        return all(plain_value(v, depth + 1) for v in value)
    if depth < 2 and type(value) is dict and len(value) <= 10_000:
        return all(plain_value(k, depth + 1) for k in value)
    return False


# ----- pure AST helpers -----------------------------------------------------------------
def with_confidence(finding: Finding, confidence: float) -> Finding:
    return replace(finding, confidence=confidence)


def contains_jump(stmt: ast.stmt) -> bool:
    for node in ast.walk(stmt):
        if isinstance(node, _JUMPS):
            return True
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in (
                "exit", "quit"):
            return True
    return False


def may_exit_loop(body: list[ast.stmt]) -> bool:
    """A break, return or raise anywhere in a loop body (nested loops included)."""
    return any(isinstance(node, (ast.Break, ast.Return, ast.Raise))
               for stmt in body for node in ast.walk(stmt))


def global_declarations(tree: ast.AST) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Global, ast.Nonlocal)):
            names.update(node.names)
    return names


def target_names(target: ast.AST) -> set[str]:
    return {n.id for n in ast.walk(target) if isinstance(n, ast.Name)}


def bound_names(body: list[ast.stmt], receivers: bool = True) -> set[str]:
    """Names any statement of ``body`` may bind (nested defs excluded); with
    ``receivers``, also the roots of method calls that may change them (not those of
    `READ_ONLY_METHODS`, as `effects_of_call` has it)."""
    names: set[str] = set()
    stack: list[ast.AST] = list(body)
    while stack:
        node = stack.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
            continue
        if isinstance(node, ast.Lambda):
            continue
        if isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)):
            names.add(node.id)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            for alias in node.names:
                names.add((alias.asname or alias.name).partition(".")[0])
        elif isinstance(node, ast.ExceptHandler) and node.name:
            names.add(node.name)
        elif isinstance(node, (ast.Subscript, ast.Attribute)) and isinstance(
                node.ctx, (ast.Store, ast.Del)):
            root = root_name(node)
            if root:
                names.add(root)
        elif receivers and isinstance(node, ast.Call) and isinstance(
                node.func, ast.Attribute) and (node.func.attr not in READ_ONLY_METHODS or any(
                    k.arg in ("inplace", None) for k in node.keywords)):
            root = root_name(node.func.value)
            if root:
                names.add(root)
        stack.extend(ast.iter_child_nodes(node))
    return names


def root_name(node: ast.AST) -> str | None:
    while isinstance(node, (ast.Attribute, ast.Subscript, ast.Call)):
        node = node.func if isinstance(node, ast.Call) else node.value
    return node.id if isinstance(node, ast.Name) else None


def as_load(node: ast.expr) -> ast.expr:
    """A copy of an assignment target that reads it (for ``x += ...`` and ``del x[k]``)."""
    copied = clone(node)
    for sub in ast.walk(copied):
        if hasattr(sub, "ctx"):
            sub.ctx = ast.Load()  # type: ignore[attr-defined]
    return copied


def hashable(value: Any) -> bool:
    """Plain hashable keys only: hashing anything else could run user code."""
    if type(value) in _PLAIN:
        return True
    return type(value) is tuple and len(value) <= 16 and all(type(v) in _PLAIN for v in value)


def keyed_container(value: Any) -> bool:
    return type(value) is dict or is_frame(value)


def is_mutable_array(value: Any) -> bool:
    return is_ndarray(value) or is_tensor(value) or is_frame(value) or is_series(value) \
        or isinstance(value, (list, dict, set))


def stable(value: Any) -> bool:
    """Modules, classes and functions do not change when user code runs (in practice)."""
    return isinstance(value, (types.ModuleType, type, types.FunctionType,
                              types.BuiltinFunctionType))


#: ``d.keys()``, ``d.values()``, ``d.items()`` of a plain dict: as plain as the dict.
_DICT_VIEWS = (type({}.keys()), type({}.values()), type({}.items()))


def small_items(value: Any) -> list[Any] | None:
    """The items a ``for`` over ``value`` sees, when plain and few; else None."""
    if not is_known(value):
        return None
    if isinstance(value, range) and len(value) <= _MAX_UNROLL:
        return list(value)
    if type(value) in (list, tuple, set, frozenset, dict, str, *_DICT_VIEWS) and \
            len(value) <= _MAX_UNROLL:
        items = list(value)
        if all(type(i) in (*_PLAIN, tuple) for i in items):
            return items
    if is_frame(value) and value.shape[1] <= _MAX_UNROLL:
        value = value.columns
    if type_root_is_pandas_index(value) and len(value) <= _MAX_UNROLL:
        items = list(value)
        if all(type(i) in _PLAIN for i in items):
            return items
    return None


def safe_len(value: Any) -> int | None:
    """len() of a container or array whose length costs nothing and runs no user code."""
    if not is_known(value):
        return None
    if type(value) in (list, tuple, dict, set, frozenset, str, range, *_DICT_VIEWS):
        return len(value)
    if is_frame(value) or is_series(value) or type_root_is_pandas_index(value):
        return len(value)
    if (is_ndarray(value) or is_tensor(value)) and value.ndim >= 1:
        return int(value.shape[0])
    return None


def type_root_is_pandas_index(value: Any) -> bool:
    """A pandas Index (columns, index) of pandas' own classes and arrays: a user
    subclass's or a user ExtensionArray's ``__len__`` and ``__iter__`` are its own code."""
    index = getattr(sys.modules.get("pandas"), "Index", None)
    return isinstance(index, type) and issubclass(type(value), index) and not (
        rtextract.user_classes(type(value))) and rtextract.user_arrays(value) is None


def may_suppress(manager: Any, node: ast.expr) -> bool:
    text = ast.unparse(node).lower()
    return any(word in text for word in ("suppress", "raises", "catch", "ignore", "assert"))
