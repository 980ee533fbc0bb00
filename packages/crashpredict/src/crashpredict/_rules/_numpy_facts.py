"""numpy propagation: random constructors and shape functions on abstract arrays.

``np.random.rand(3, 5)`` or ``rng.normal(size=(100, 3))`` give an abstract array of that
shape, with the dtype of the same call on a fresh generator (the user's generators are
never touched). Shape functions, methods and reductions with an abstract array among their
inputs run on stand-ins, so numpy raises what the real call raises.
"""

from __future__ import annotations

import ast
import types
import warnings
from typing import Any

from ._facts import (
    result_fits,
    abstract_array,
    describe,
    has_nan,
    np_module,
    report,
    short,
    to_standin,
)
from ._values import (
    Abstract,
    is_abstract,
    is_known,
    is_ndarray,
    meta_attr,
    type_root,
)
from ._walk._types import CallSite

__all__ = ['numpy_random_call', 'numpy_call']


_RANDOM_SIZE = {"rand": None, "randn": None, "random": 0, "random_sample": 0, "ranf": 0,
                "sample": 0, "standard_normal": 0, "standard_exponential": 0, "randint": 2,
                "integers": 2, "normal": 2, "uniform": 2, "binomial": 2, "poisson": 1,
                "exponential": 1, "choice": 1, "beta": 2, "gamma": 2, "lognormal": 2,
                "laplace": 2, "logistic": 2, "permutation": -1}


def numpy_random_call(site: CallSite) -> Any:
    """np.random.rand(3, 5), rng.normal(size=(100, 3)): shape and dtype, no draw."""
    np = np_module()
    if site.method is not None and is_known(site.receiver) and type(
            site.receiver).__name__ in ("RandomState", "Generator"):
        owner, name = site.receiver, site.method  # Generator methods are not read statically
    else:
        owner, name = meta_attr(site.func, "__self__"), meta_attr(site.func, "__name__")
    kind = type(owner).__name__ if owner is not None else ""
    if kind not in ("RandomState", "Generator") or not type_root(owner) == "numpy" or \
            name not in _RANDOM_SIZE or site.starred:
        return None
    args, kwargs = list(site.args), dict(site.kwargs)
    if not all(is_known(a) for a in [*args, *kwargs.values()]):
        return None
    where = _RANDOM_SIZE[name]
    if where is None:
        if kwargs or not all(type(a) is int for a in args):
            return None
        shape = tuple(args)
        probe_args: list[Any] = [1] * len(args)
    elif where == -1:
        x = args[0] if args else None
        shape = (x,) if type(x) is int else (tuple(x.shape) if is_ndarray(x) else None)
        if shape is None:
            return None
        return Abstract("ndarray", shape=shape, dtype=np.dtype("int64") if type(x) is int
                        else x.dtype, origin=site.text(site.node))
    else:
        size = kwargs.get("size", args[where] if len(args) > where else None)
        if type(size) is int:
            shape = (size,)
        elif type(size) in (tuple, list) and all(type(d) is int for d in size):
            shape = tuple(size)
        else:
            return None
        probe_args = list(args)
        if "size" in kwargs:
            kwargs["size"] = (1,) * len(shape)
        else:
            probe_args[where] = (1,) * len(shape)
    fresh = np.random.RandomState(0) if kind == "RandomState" else np.random.default_rng(0)
    if any(d < 0 for d in shape):
        return None
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            probe = getattr(fresh, name)(*probe_args, **kwargs)
    except Exception:
        return None
    if not isinstance(probe, np.ndarray):
        return None
    return Abstract("ndarray", shape=shape, dtype=probe.dtype, origin=site.text(site.node))


_NP_SHAPE_FUNCTIONS = frozenset({
    "concatenate", "stack", "vstack", "hstack", "column_stack", "dot", "matmul", "reshape",
    "transpose", "expand_dims", "squeeze", "ravel", "atleast_2d", "atleast_1d", "mean",
    "sum", "max", "min", "std", "var", "median", "argmax", "argmin", "log", "exp", "sqrt",
    "abs", "round", "clip", "cumsum", "zeros_like", "ones_like", "empty_like", "swapaxes",
    "moveaxis", "broadcast_to", "log1p", "expm1", "power", "multiply", "add", "subtract",
    "divide", "sort", "argsort", "flip", "where", "array", "asarray", "float32", "float64",
    "squeeze", "tanh", "maximum", "minimum", "exp2", "square", "sign", "floor", "ceil",
})
_NDARRAY_METHODS = frozenset({
    "reshape", "transpose", "flatten", "ravel", "squeeze", "mean", "sum", "max", "min",
    "argmax", "argmin", "std", "var", "astype", "copy", "round", "clip", "swapaxes", "cumsum",
    "argsort", "dot",
})
_BROADCASTING = frozenset({"dot", "matmul", "where", "multiply", "add", "subtract", "divide",
                           "power", "maximum", "minimum"})
_JOINS = frozenset({"concatenate", "stack", "vstack", "hstack", "column_stack"})



def numpy_call(site: CallSite) -> Any:
    np = np_module()
    if np is None or site.starred:
        return None
    receiver = site.receiver
    if is_abstract(receiver, "ndarray") and site.method in _NDARRAY_METHODS:
        ok, stand = to_standin(receiver)
        func_name = site.method
        call = getattr(stand, site.method, None) if ok else None
    elif isinstance(receiver, types.ModuleType) and receiver.__name__ == "numpy" and \
            site.method in _NP_SHAPE_FUNCTIONS or (
            site.method is None and type_root(site.func) == "numpy" and
            meta_attr(site.func, "__name__") in _NP_SHAPE_FUNCTIONS):
        func_name = site.method or meta_attr(site.func, "__name__")
        call = site.func if is_known(site.func) else None
    else:
        return None
    values = [*site.args, *site.kwargs.values()]
    flat = [v for a in values for v in (a if type(a) in (list, tuple) else [a])]
    if call is None or not (is_abstract(receiver) or any(is_abstract(v, "ndarray")
                                                         for v in flat)):
        return None
    converted = [to_standin(a) for a in site.args]
    kw = {k: to_standin(v) for k, v in site.kwargs.items()}
    if not all(ok for ok, _ in converted) or not all(ok for ok, _ in kw.values()):
        return None
    operands = [v for _, v in converted]
    if receiver is not None and is_abstract(receiver):
        operands = [to_standin(receiver)[1], *operands]
    if func_name in _BROADCASTING and len(operands) >= 2 and not result_fits(
            ast.MatMult() if func_name in ("dot", "matmul") else ast.Add(), *operands[:2]):
        return None  # the result would be too large to compute on stand-ins
    try:
        with warnings.catch_warnings(), np.errstate(all="ignore"):
            warnings.simplefilter("ignore")
            out = call(*[v for _, v in converted], **{k: v for k, (_, v) in kw.items()})
    except (ValueError, IndexError, TypeError) as exc:
        evidence = tuple(f"{site.text(n)}: {describe(v)}" for n, v in zip(
            site.node.args, site.args) if is_abstract(v) or is_ndarray(v))
        report(site.walker, site.node, exc, "numpy", short(site.text(site.node)), evidence)
        return None
    except Exception:
        return None
    nan = func_name in _JOINS and any(has_nan(v) for v in flat)
    sample = _side_by_side_sample(call, func_name, site, out)
    return abstract_array(out, site.text(site.node), nan=nan, sample=sample)


def _side_by_side_sample(call: Any, name: str, site: CallSite, out: Any) -> Any:
    """Sample rows of ``np.hstack``/``column_stack``/``concatenate(axis=1)`` of parts that
    all have sample rows (Abstract) or are real: the same rows, side by side."""
    axis = site.kwargs.get("axis", site.args[1] if len(site.args) > 1 else 0)
    if not (name in ("hstack", "column_stack") or (name == "concatenate" and axis == 1)):
        return None
    if len(site.args) != 1 or type(site.args[0]) not in (list, tuple) or out.ndim != 2:
        return None
    parts = list(site.args[0])
    heads = [p.sample if is_abstract(p) else p for p in parts]
    if not all(is_ndarray(h) and h.ndim >= 1 for h in heads):
        return None
    k = min(len(h) for h in heads)
    if k == 0 or any(is_ndarray(p) and len(p) != out.shape[0] for p in parts):
        return None
    try:
        return call([h[:k] for h in heads], **({"axis": 1} if name == "concatenate" else {}))
    except Exception:
        return None
