"""Propagation: abstract values carried through the library calls the walker cannot run.

When a call cannot be evaluated on real values (it draws random numbers, trains, plots, or
its input is itself abstract), the walker asks `propagate_call` what it returns, as an
`Abstract` value with exact facts (shape, dtype, device, sample rows), computed with the
libraries' own machinery and never with user code:

- numpy: random constructors give shape and dtype (a fresh generator answers for the
  dtype; the user's generator is not touched); shape functions, methods, indexing and
  arithmetic on abstract arrays run on zero-stride stand-ins (``np.broadcast_to``) of the
  same shape and dtype, so numpy's own checks raise what the real call raises;
- torch (``_meta``): tensors and built-in layers on the meta device; a user module through
  its straight-chain ``forward`` (``_forward``);
- scikit-learn: a fitted built-in estimator's predict/transform run on the first rows of the
  input (the output's width, dtype and sample rows); fit_transform widths of scalers and
  projections;
- Keras: predict's output shape from the model; matplotlib: the axes grid of ``subplots``.

A fact read from sample rows is existential (a NaN or a non-integer float in the sample is
one in the whole), so it can only confirm a crash, never hide one.
"""

from __future__ import annotations

import ast
import math
import operator
import sys
import types
import warnings
from typing import Any

from ._finding import Finding
from ._forward import follow_forward
from ._meta import (
    TORCH_MATH,
    MetaFailure,
    abstract_tensor,
    builtin_module_class,
    device_of,
    make_module,
    meta_failure_finding,
    meta_module,
    meta_tensor,
    module_device,
    run_function,
    run_module,
    torch_function_ok,
    wrap_output,
)
from ._values import (
    Abstract,
    describe_value,
    is_abstract,
    is_estimator,
    is_frame,
    is_keras_model,
    is_known,
    is_ndarray,
    is_series,
    is_tensor,
    is_torch_module,
    meta_attr,
    type_root,
)
from ._walk._types import CallSite, Walker

__all__ = ["propagate_call", "propagate_attribute", "propagate_subscript", "propagate_binop",
           "propagate_compare", "MAX_ELEMENTS"]

MAX_ELEMENTS = 2_000_000
_SAMPLE_ROWS = 64

_ARITH = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul,
          ast.Div: operator.truediv, ast.FloorDiv: operator.floordiv, ast.Mod: operator.mod,
          ast.Pow: operator.pow, ast.MatMult: operator.matmul}
_CMP = {ast.Eq: operator.eq, ast.NotEq: operator.ne, ast.Lt: operator.lt,
        ast.LtE: operator.le, ast.Gt: operator.gt, ast.GtE: operator.ge}
_NAN_KEEPING = (ast.Add, ast.Sub, ast.Mult, ast.Div)


def _np() -> Any:
    return sys.modules.get("numpy")


def _size(shape: tuple[int, ...] | None) -> int:
    return math.prod(shape) if shape is not None else MAX_ELEMENTS + 1


def _report(walker: Walker, node: ast.AST, exc: BaseException, library: str,
            what: str, evidence: tuple[str, ...] = (), confidence: float = 0.94) -> None:
    from .._model import crash_type_of
    name = type(exc).__name__
    message = str(exc).strip().splitlines()[0] if str(exc).strip() else name
    walker.report(Finding(exception=name, crash_type=crash_type_of(name, message),
                          library=library, confidence=confidence, rule="propagation",
                          evidence=evidence,
                          explanation=f"`{what}` raises {name}: {message}"), node)


def _describe(value: Any) -> str:
    if isinstance(value, Abstract):
        where = f", device={value.device}" if value.device else ""
        return f"{value.kind} shape={value.shape} dtype={value.dtype}{where} (computed " \
               f"in the cell)"
    return describe_value(value)


# ----- numpy --------------------------------------------------------------------------
def standin(value: Any) -> Any:
    """A zero-stride ndarray of an Abstract array's shape and dtype (no memory)."""
    np = _np()
    if is_abstract(value, "ndarray") and value.shape is not None and np is not None:
        try:
            return np.broadcast_to(np.zeros((), dtype=value.dtype or "float64"), value.shape)
        except Exception:
            return None
    return None


def abstract_array(result: Any, origin: str = "", nan: bool = False, sample: Any = None) \
        -> Any:
    np = _np()
    if np is None or not isinstance(result, np.ndarray):
        return None
    return Abstract("ndarray", shape=result.shape, dtype=result.dtype, nan=nan, inf=False,
                    sample=sample, origin=origin)


_RANDOM_SIZE = {"rand": None, "randn": None, "random": 0, "random_sample": 0, "ranf": 0,
                "sample": 0, "standard_normal": 0, "standard_exponential": 0, "randint": 2,
                "integers": 2, "normal": 2, "uniform": 2, "binomial": 2, "poisson": 1,
                "exponential": 1, "choice": 1, "beta": 2, "gamma": 2, "lognormal": 2,
                "laplace": 2, "logistic": 2, "permutation": -1}


def _random_call(site: CallSite) -> Any:
    """np.random.rand(3, 5), rng.normal(size=(100, 3)): shape and dtype, no draw."""
    np = _np()
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
_JOINS = frozenset({"concatenate", "stack", "vstack", "hstack", "column_stack"})


def _has_nan(value: Any) -> bool:
    """A NaN certainly in a real float array or an Abstract one (bounded scan)."""
    np = _np()
    if is_abstract(value):
        return bool(value.nan)
    if is_ndarray(value) and value.dtype.kind == "f" and value.size <= MAX_ELEMENTS:
        return bool(np.isnan(value).any())
    return False


def _to_standin(value: Any, depth: int = 0) -> tuple[bool, Any]:
    """(ok, value) with Abstract arrays replaced by stand-ins; ok=False when it can't."""
    if is_abstract(value):
        stand = standin(value)
        return (stand is not None and _size(value.shape) <= MAX_ELEMENTS), stand
    if isinstance(value, Abstract) or not is_known(value):
        return False, None
    if type(value) in (list, tuple) and depth == 0 and len(value) <= 64:
        parts = [_to_standin(v, 1) for v in value]
        return all(ok for ok, _ in parts), type(value)(v for _, v in parts)
    if is_ndarray(value):
        return value.size <= MAX_ELEMENTS, value
    if type(value) in (int, float, bool, str, type(None)) or isinstance(value, type):
        return True, value
    np = _np()
    if np is not None and isinstance(value, np.dtype):
        return True, value
    return False, None


def _numpy_call(site: CallSite) -> Any:
    np = _np()
    if np is None or site.starred:
        return None
    receiver = site.receiver
    if is_abstract(receiver, "ndarray") and site.method in _NDARRAY_METHODS:
        ok, stand = _to_standin(receiver)
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
    converted = [_to_standin(a) for a in site.args]
    kw = {k: _to_standin(v) for k, v in site.kwargs.items()}
    if not all(ok for ok, _ in converted) or not all(ok for ok, _ in kw.values()):
        return None
    try:
        with warnings.catch_warnings(), np.errstate(all="ignore"):
            warnings.simplefilter("ignore")
            out = call(*[v for _, v in converted], **{k: v for k, (_, v) in kw.items()})
    except (ValueError, IndexError, TypeError) as exc:
        evidence = tuple(f"{site.text(n)}: {_describe(v)}" for n, v in zip(
            site.node.args, site.args) if is_abstract(v) or is_ndarray(v))
        _report(site.walker, site.node, exc, "numpy", _short(site.text(site.node)), evidence)
        return None
    except Exception:
        return None
    nan = func_name in _JOINS and any(_has_nan(v) for v in flat)
    return abstract_array(out, site.text(site.node), nan=nan)


def _short(text: str) -> str:
    return text if len(text) <= 80 else text[:77] + "..."


# ----- torch --------------------------------------------------------------------------
_TORCH_CREATORS = frozenset({"randn", "rand", "randint", "randperm", "zeros", "ones", "empty",
                             "full", "arange", "linspace", "eye", "normal"})
_TORCH_FROM_ARRAY = frozenset({"from_numpy", "tensor", "as_tensor", "FloatTensor",
                               "LongTensor", "Tensor", "DoubleTensor"})


def _torch_default_device() -> str:
    torch = sys.modules.get("torch")
    try:
        return str(torch.get_default_device())
    except Exception:
        return "cpu"


def _torch_creator(site: CallSite, name: str) -> Any:
    torch = sys.modules["torch"]
    if not all(is_known(v) for v in [*site.args, *site.kwargs.values()]):
        return None
    kwargs = dict(site.kwargs)
    device = kwargs.pop("device", None)
    if any(is_tensor(v) for v in [*site.args, *kwargs.values()]):
        return None
    try:
        meta = getattr(torch, name)(*site.args, **kwargs, device="meta")
    except Exception:
        return None
    where = str(torch.device(device)) if device is not None else _torch_default_device()
    return abstract_tensor(meta, where, site.text(site.node))


def _from_array(site: CallSite, name: str) -> Any:
    torch, np = sys.modules["torch"], _np()
    x = site.args[0] if site.args else None
    if not is_abstract(x, "ndarray") or x.shape is None or np is None:
        return None
    try:
        if name in ("FloatTensor", "Tensor"):
            dtype = torch.float32
        elif name == "LongTensor":
            dtype = torch.int64
        elif name == "DoubleTensor":
            dtype = torch.float64
        else:
            dtype = site.kwargs.get("dtype") or torch.from_numpy(
                np.zeros(0, dtype=x.dtype)).dtype
        meta = torch.empty(x.shape, dtype=dtype, device="meta")
    except Exception:
        return None
    device = site.kwargs.get("device")
    return abstract_tensor(meta, str(torch.device(device)) if device is not None else "cpu",
                           site.text(site.node))


def _tensor_inputs(values: list[Any]) -> list[Any] | None:
    out = []
    for value in values:
        meta = meta_tensor(value)
        if meta is not None:
            out.append(meta)
        elif type(value) in (int, float, bool, type(None), str):
            out.append(value)
        elif type(value) in (list, tuple) and len(value) <= 64:
            inner = _tensor_inputs(list(value))
            if inner is None:
                return None
            out.append(type(value)(inner))
        elif is_known(value) and type(value).__name__ in ("dtype", "device", "Size") and \
                type_root(value) == "torch":
            out.append(value)
        else:
            return None
    return out


def _devices(values: list[Any]) -> set[str]:
    found = set()
    for value in values:
        for item in (value if type(value) in (list, tuple) else [value]):
            device = device_of(item)
            if device is not None:
                found.add(device)
    return found


def _module_call(site: CallSite, module: Any) -> Any:
    walker = site.walker
    if site.kwargs or not site.args:
        return None
    args = list(site.args)
    if any(is_ndarray(a) for a in args):
        return None  # the torch rules say what a numpy array does to a layer
    metas = _tensor_inputs(args)
    if metas is None or not any(is_abstract(a) or is_tensor(a) for a in args):
        return None
    cache = walker.scratch.setdefault("meta_modules", {})
    devices = _devices(args)
    evidence = tuple(f"{site.text(n)}: {_describe(v)}" for n, v in zip(site.node.args, args))
    call_text = _short(site.text(site.node))
    meta = meta_module(module, cache)
    if meta is None:
        if is_torch_module(module) and not builtin_module_class(type(module)) and \
                len(args) == 1:
            return follow_forward(module, args[0], site, cache)
        return None
    where = module_device(module)
    if where is not None and devices and devices != {where}:
        walker.report(Finding(
            exception="RuntimeError", crash_type="type error", library="torch",
            confidence=0.93, rule="torch-device", evidence=evidence,
            explanation=f"Expected all tensors to be on the same device: the input of "
                        f"`{call_text}` is on {', '.join(sorted(devices))}, the module's "
                        f"weights on {where}"), site.node)
        return None
    try:
        out = run_module(meta, metas, type(meta).__name__)
    except MetaFailure as failure:
        walker.report(meta_failure_finding(failure, call_text, evidence), site.node)
        return None
    device = next(iter(devices)) if len(devices) == 1 else where
    return wrap_output(out, device)


def _torch_function(site: CallSite, func: Any, receiver: Any) -> Any:
    """A torch function or tensor method with an abstract tensor among its inputs."""
    values = [*site.args, *site.kwargs.values()]
    if receiver is not None:
        values = [receiver, *values]
    flat = [v for a in values for v in (a if type(a) in (list, tuple) else [a])]
    if not any(is_abstract(v, "tensor") for v in flat) or site.starred:
        return None
    devices = _devices(values)
    if len(devices) > 1:
        site.walker.report(Finding(
            exception="RuntimeError", crash_type="type error", library="torch",
            confidence=0.93, rule="torch-device",
            explanation=f"Expected all tensors to be on the same device, but found at least "
                        f"two devices, {' and '.join(sorted(devices))}: "
                        f"`{_short(site.text(site.node))}`"), site.node)
        return None
    args = _tensor_inputs(list(site.args))
    kwargs = _tensor_inputs(list(site.kwargs.values()))
    if args is None or kwargs is None:
        return None
    if receiver is not None:
        meta = meta_tensor(receiver)
        target = getattr(meta, site.method or "", None)
        if target is None or not torch_function_ok(target):
            return None
    else:
        target = func
        if not torch_function_ok(func):
            return None
    try:
        out = run_function(target, args, dict(zip(site.kwargs, kwargs)),
                           f"`{_short(site.text(site.node))}`")
    except MetaFailure as failure:
        evidence = tuple(f"{site.text(n)}: {_describe(v)}" for n, v in zip(
            site.node.args, site.args) if is_abstract(v) or is_tensor(v))
        site.walker.report(meta_failure_finding(failure, _short(site.text(site.node)),
                                                evidence), site.node)
        return None
    return wrap_output(out, next(iter(devices)) if devices else "cpu")


def _abstract_tensor_method(site: CallSite, x: Abstract) -> Any:
    torch = sys.modules.get("torch")
    method = site.method
    if method in ("cpu", "cuda", "to") and not site.starred:
        target = "cpu" if method == "cpu" else ("cuda" if method == "cuda" else None)
        meta = x.meta
        for value in [*site.args, *site.kwargs.values()]:
            if isinstance(value, str) or type(value).__name__ == "device":
                try:
                    target = str(torch.device(value))
                except Exception:
                    return None
            elif type(value).__name__ == "dtype" and type_root(value) == "torch":
                meta = meta.to(value)
            elif is_known(value) and type(value) is bool:
                continue
            else:
                return None
        if target == "cuda":
            target = "cuda:0"
        return abstract_tensor(meta, target or x.device)
    if method == "numpy":
        np = _np()
        try:
            dtype = torch.empty(0, dtype=x.dtype).numpy().dtype
        except Exception:
            return None
        return Abstract("ndarray", shape=x.shape, dtype=dtype if np is not None else None)
    if method in ("item", "tolist", "backward", "data_ptr"):
        return None
    return _torch_function(site, None, x)


def _torch_call(site: CallSite) -> Any:
    torch = sys.modules.get("torch")
    if torch is None:
        return None
    func, receiver, method = site.func, site.receiver, site.method
    if is_abstract(receiver, "tensor"):
        return _abstract_tensor_method(site, receiver)
    if is_abstract(receiver, "module") or (is_known(receiver) and is_torch_module(receiver)):
        if method in ("train", "eval", "float", "cpu"):
            return receiver if is_abstract(receiver) or method in ("train", "eval") else None
        if method == "to" and len(site.args) == 1 and not site.kwargs:
            try:
                target = str(torch.device(site.args[0]))
            except Exception:
                return None
            if target == module_device(receiver) or module_device(receiver) is None:
                return receiver
            return None
        if method == "forward":
            return _module_call(site, receiver)
        return None
    if is_abstract(func, "module") or (is_known(func) and is_torch_module(func)):
        return _module_call(site, func)
    if not is_known(func):
        return None
    if builtin_module_class(func) and not site.starred:
        args = [meta_module(a, site.walker.scratch.setdefault("meta_modules", {}))
                if is_abstract(a, "module") or is_torch_module(a) else a for a in site.args]
        if any(a is None for a in args) or not all(is_known(a) or is_abstract(a, "module")
                                                   for a in site.args):
            return None
        if not all(is_known(v) for v in site.kwargs.values()) or "device" in site.kwargs:
            return None  # an explicit device would allocate real weights there
        module = make_module(func, args, dict(site.kwargs))
        if module is None:
            return None
        return Abstract("module", meta=module, device=_torch_default_device(),
                        origin=site.text(site.node))
    name = meta_attr(func, "__name__")
    root = str(meta_attr(func, "__module__") or "")
    owner = meta_attr(func, "__self__")
    owner_name = owner.__name__ if isinstance(owner, types.ModuleType) else ""
    # tensor maths only: never torch.utils, torch.hub, torch.save, torchvision's writers
    if root not in TORCH_MATH and owner_name not in TORCH_MATH:
        return None
    if name in _TORCH_CREATORS and (site.method is None or isinstance(receiver,
                                                                      types.ModuleType)):
        return _torch_creator(site, name)
    if name in _TORCH_FROM_ARRAY:
        return _from_array(site, name)
    if is_known(receiver) and is_tensor(receiver) and method:
        return _torch_function(site, None, receiver) if any(
            is_abstract(a, "tensor") for a in site.args) else None
    return _torch_function(site, func, None)


# ----- scikit-learn -------------------------------------------------------------------
_SK_OUTPUT_METHODS = frozenset({"predict", "predict_proba", "predict_log_proba",
                                "decision_function", "transform", "fit_transform"})
_WIDTH_KEEPING = frozenset({"StandardScaler", "MinMaxScaler", "MaxAbsScaler", "RobustScaler",
                            "Normalizer", "Binarizer", "PowerTransformer",
                            "QuantileTransformer"})
_PROJECTIONS = frozenset({"PCA", "TruncatedSVD", "NMF", "FastICA", "KernelPCA",
                          "IncrementalPCA", "SparsePCA", "FactorAnalysis"})
_LIBRARY_ROOTS = ("sklearn", "numpy", "scipy", "builtins", "math", "pandas")


def builtin_estimator(est: Any, depth: int = 0) -> bool:
    """A scikit-learn estimator whose parts are all scikit-learn's (no user callables)."""
    if depth > 4 or not type(est).__module__.startswith("sklearn."):
        return False
    for value in vars(est).values():
        if not _library_part(value, depth):
            return False
    return True


def _library_part(value: Any, depth: int) -> bool:
    if is_estimator(value):
        return builtin_estimator(value, depth + 1)
    if type(value) in (list, tuple) and len(value) <= 256:
        return all(_library_part(v, depth) for v in value)
    if type(value) is dict and len(value) <= 256:
        return all(_library_part(v, depth) for v in value.values())
    if isinstance(value, (types.FunctionType, types.MethodType, types.LambdaType)):
        return False
    if callable(value) and not isinstance(value, type):
        return type_root(value) in _LIBRARY_ROOTS
    return True


def _rows(x: Any) -> int | None:
    if is_abstract(x):
        return x.shape[0] if x.shape else None
    if is_frame(x) or is_series(x) or (is_ndarray(x) and x.ndim >= 1):
        return int(x.shape[0])
    return None


def _head(x: Any) -> Any:
    if is_abstract(x):
        return x.sample
    if is_frame(x) or is_series(x):
        return x.iloc[:_SAMPLE_ROWS]
    if is_ndarray(x) and x.ndim >= 1:
        return x[:_SAMPLE_ROWS]
    return None


def _width(x: Any) -> int | None:
    shape = x.shape if is_abstract(x) else (tuple(x.shape) if is_frame(x) or is_ndarray(x)
                                             else None)
    return int(shape[1]) if shape is not None and len(shape) == 2 else None


def _no_empty_column(x: Any) -> bool:
    """No all-missing column (SimpleImputer drops those): the output keeps the width."""
    if not (is_frame(x) or is_ndarray(x)) or _width(x) is None or x.size > MAX_ELEMENTS:
        return False
    if is_frame(x):
        return not bool(x.isna().all().any()) and all(k in "iufb" for k in x.dtypes.map(
            lambda d: d.kind))
    if x.dtype.kind != "f":
        return x.dtype.kind in "iub"
    np = _np()
    return not bool(np.isnan(x).all(axis=0).any())


#: Regressors whose fit is deterministic and quick on bounded data (no random state, no
#: iterations worth waiting for): refitted on a copy to sample their predictions.
_REFIT = frozenset({"LinearRegression", "Ridge", "Lasso", "ElasticNet", "BayesianRidge",
                    "RidgeCV", "Lars", "HuberRegressor"})
_REFIT_ELEMENTS = 200_000


def _refit_sample(est: Any, state: Any, x: Any) -> Any:
    """Predictions on the first rows of ``x`` of an estimator fitted earlier in the cell,
    from a clone fitted on the same real data (the user's estimator is never fitted)."""
    if type(est).__name__ not in _REFIT or state.data is None or is_abstract(x):
        return None
    fit_x, fit_y = state.data
    if getattr(fit_x, "size", _REFIT_ELEMENTS + 1) > _REFIT_ELEMENTS:
        return None
    base = sys.modules.get("sklearn.base")
    head = _head(x)
    if base is None or head is None:
        return None
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            out = base.clone(est).fit(fit_x, fit_y).predict(head)
    except Exception:
        return None
    return out if is_ndarray(out) else None


def _sklearn_call(site: CallSite) -> Any:
    est, method = site.receiver, site.method
    if method not in _SK_OUTPUT_METHODS or not is_known(est) or not is_estimator(est) or \
            site.starred or not site.args or not builtin_estimator(est):
        return None
    x = site.args[0]
    n = _rows(x)
    if n is None:
        return None
    np = _np()
    name = type(est).__name__
    state = site.walker.fit_state(est)
    if method == "fit_transform" or state is not None:
        width = _width(x) if state is None else state.n_features
        if method == "predict" and state is not None:
            sample = _refit_sample(est, state, x)
            return Abstract("ndarray", shape=(n,), dtype=getattr(sample, "dtype", None),
                            sample=sample, origin=site.text(site.node))
        if method not in ("transform", "fit_transform"):
            return None
        if name in _WIDTH_KEEPING and width is not None:
            return Abstract("ndarray", shape=(n, width), dtype=np.dtype("float64"))
        k = est.__dict__.get("n_components")
        if name in _PROJECTIONS and type(k) is int:
            return Abstract("ndarray", shape=(n, k), dtype=np.dtype("float64"))
        if name == "SimpleImputer" and state is None and _no_empty_column(x):
            return Abstract("ndarray", shape=(n, width), dtype=np.dtype("float64"))
        return None
    head = _head(x)
    if head is None or not is_known(head):
        return None
    validation = sys.modules.get("sklearn.utils.validation")
    try:
        validation.check_is_fitted(est)  # type: ignore[union-attr]
    except Exception:
        return None
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            out = getattr(est, method)(head)
    except (ValueError, TypeError, KeyError, IndexError) as exc:
        _report(site.walker, site.node, exc, "sklearn", _short(site.text(site.node)),
                (f"{site.text(site.node.args[0])}: {_describe(x)}",), confidence=0.93)
        return None
    except Exception:
        return None
    if not is_ndarray(out) or out.ndim < 1:
        return None
    nan = out.dtype.kind == "f" and bool(np.isnan(out).any())
    return Abstract("ndarray", shape=(n, *out.shape[1:]), dtype=out.dtype, sample=out,
                    nan=nan, origin=site.text(site.node))


# ----- Keras and matplotlib -------------------------------------------------------------
def _keras_predict(site: CallSite) -> Any:
    model = site.receiver
    if site.method != "predict" or not is_known(model) or not is_keras_model(model) or \
            not site.args:
        return None
    n = _rows(site.args[0])
    try:
        shape = model.output_shape
    except Exception:
        return None
    if n is None or type(shape) is not tuple or not all(type(d) is int for d in shape[1:]):
        return None
    np = _np()
    return Abstract("ndarray", shape=(n, *shape[1:]), dtype=np.dtype("float32"),
                    origin=site.text(site.node))


def _subplots(site: CallSite) -> Any:
    func = site.func
    if meta_attr(func, "__name__") != "subplots" or type_root(func) != "matplotlib" or \
            site.starred:
        return None
    names = ("nrows", "ncols")
    grid = [site.args[i] if len(site.args) > i else site.kwargs.get(names[i], 1)
            for i in range(2)]
    squeeze = site.kwargs.get("squeeze", True)
    if not all(type(g) is int and g > 0 for g in grid) or type(squeeze) is not bool:
        return None
    from ._values import UNKNOWN
    np = _np()
    rows, cols = grid
    if squeeze and rows == cols == 1:
        axes: Any = Abstract("axes", origin=site.text(site.node))
    else:
        shape = (rows, cols) if not squeeze else tuple(d for d in (rows, cols) if d > 1)
        axes = Abstract("ndarray", shape=shape, dtype=np.dtype(object),
                        origin=site.text(site.node))
    return (UNKNOWN, axes)


# ----- entry points ---------------------------------------------------------------------
def propagate_call(site: CallSite) -> Any:
    """What a call the walker could not evaluate returns, as facts; None when unknown."""
    for step in (_random_call, _numpy_call, _torch_call, _sklearn_call, _keras_predict,
                 _subplots):
        value = step(site)
        if value is not None:
            return value
    return None


def propagate_attribute(base: Any, name: str, walker: Walker) -> Any:
    """``x.shape``, ``x.T``, ``x.dtype``... of an Abstract array or tensor."""
    if not isinstance(base, Abstract) or base.shape is None:
        return None
    if base.kind == "ndarray":
        if name == "shape":
            return base.shape
        if name == "ndim":
            return len(base.shape)
        if name == "size":
            return math.prod(base.shape)
        if name == "dtype":
            return base.dtype
        if name == "T":
            return Abstract("ndarray", shape=base.shape[::-1], dtype=base.dtype)
        return None
    if base.kind == "tensor":
        torch = sys.modules.get("torch")
        if name == "shape":
            return torch.Size(base.shape)
        if name in ("ndim", "dtype", "is_cuda"):
            return base.ndim if name == "ndim" else (
                base.dtype if name == "dtype" else str(base.device).startswith("cuda"))
        if name == "device" and base.device:
            return torch.device(base.device)
        if name in ("T", "mT", "data"):
            try:
                meta = base.meta.T if name == "T" else (base.meta.mT if name == "mT"
                                                         else base.meta)
            except Exception:
                return None
            return abstract_tensor(meta, base.device)
    return None


def propagate_subscript(base: Any, key: Any, node: ast.AST, walker: Walker) -> Any:
    """Indexing an Abstract array/tensor (numpy's and torch's bound checks), an Axes."""
    if is_abstract(base, "axes"):
        walker.report(Finding(exception="TypeError", crash_type="type error",
                              library="matplotlib", confidence=0.93, rule="propagation",
                              explanation=f"'Axes' object is not subscriptable: "
                                          f"{walker.text(node.value)} is one Axes "
                                          f"(plt.subplots() with one row and one column)"),
                      node)
        return None
    if is_abstract(key):
        if is_abstract(key, "ndarray") and is_known(base) and is_ndarray(base) and \
                key.shape is not None and key.dtype is not None and key.dtype.kind == "b":
            key = standin(key)
        else:
            return None
    if is_abstract(base, "ndarray"):
        ok, stand = _to_standin(base)
        if not ok or not _index_key(key):
            return None
        return _index(stand, key, node, walker, "numpy", base.dtype)
    if is_abstract(base, "tensor"):
        if not _index_key(key) or any(is_ndarray(k) for k in (
                key if type(key) is tuple else (key,))):
            return None
        try:
            out = run_function(operator.getitem, [base.meta, key], {}, walker.text(node))
        except MetaFailure as failure:
            walker.report(meta_failure_finding(failure, walker.text(node), ()), node)
            return None
        return wrap_output(out, base.device)
    if is_known(base) and is_ndarray(base) and is_ndarray(key) and key.dtype.kind == "b":
        return _index(base, key, node, walker, "numpy", base.dtype, real=True)
    return None


def _index_key(key: Any) -> bool:
    parts = key if type(key) is tuple else (key,)
    return all(type(k) in (int, slice, type(None), type(Ellipsis)) or (
        is_ndarray(k) and k.dtype.kind in "bi" and k.size <= MAX_ELEMENTS) for k in parts)


def _index(array: Any, key: Any, node: ast.AST, walker: Walker, library: str, dtype: Any,
           real: bool = False) -> Any:
    try:
        out = array[key]
    except IndexError as exc:
        _report(walker, node, exc, library, _short(walker.text(node)),
                (f"{walker.text(node.value)}: shape {tuple(array.shape)}",))
        return None
    except Exception:
        return None
    if real:
        return None  # the walker's own getitem decides real values
    np = _np()
    if isinstance(out, np.ndarray) and dtype is not None and dtype.kind != "O":
        return Abstract("ndarray", shape=out.shape, dtype=out.dtype)
    return None


def _operand(value: Any) -> tuple[str | None, Any]:
    """(kind, stand-in) of an operand: ndarray stand-ins, meta tensors, plain scalars."""
    if is_abstract(value, "ndarray"):
        ok, stand = _to_standin(value)
        return ("ndarray", stand) if ok else (None, None)
    if is_abstract(value, "tensor"):
        return "tensor", value.meta
    if is_known(value) and type(value) in (int, float, bool):
        return "scalar", value
    if is_known(value) and is_ndarray(value):
        return ("ndarray", value) if value.size <= MAX_ELEMENTS else (None, None)
    if is_known(value) and is_tensor(value):
        return "tensor", meta_tensor(value)
    return None, None


def propagate_binop(op: ast.operator, left: Any, right: Any, node: ast.AST,
                    walker: Walker) -> Any:
    """Arithmetic with an Abstract operand, or on bounded real arrays and frames."""
    fn = _ARITH.get(type(op))
    if fn is None:
        return None
    if not (isinstance(left, Abstract) or isinstance(right, Abstract)):
        return _real_binop(fn, left, right, node, walker)
    (lk, ls), (rk, rs) = _operand(left), _operand(right)
    if lk is None or rk is None or {lk, rk} == {"ndarray", "tensor"}:
        return None
    np = _np()
    tensor = "tensor" in (lk, rk)
    try:
        with warnings.catch_warnings(), np.errstate(all="ignore"):
            warnings.simplefilter("ignore")
            out = fn(ls, rs)
    except (ValueError, RuntimeError, TypeError) as exc:
        if tensor and ("meta" in str(exc) or isinstance(exc, NotImplementedError)):
            return None
        _report(walker, node, exc, "torch" if tensor else "numpy", _short(walker.text(node)),
                tuple(f"{walker.text(n)}: {_describe(v)}" for n, v in (
                    (node.left, left), (node.right, right)) if hasattr(node, "left")))
        return None
    except Exception:
        return None
    if tensor:
        devices = _devices([left, right])
        return wrap_output(out, next(iter(devices)) if devices else "cpu")
    nan = isinstance(op, _NAN_KEEPING) and (_has_nan(left) or _has_nan(right))
    return abstract_array(out, walker.text(node), nan=nan)


def _bounded_array(value: Any) -> bool:
    if not is_known(value):
        return False
    if is_ndarray(value) or is_series(value) or is_frame(value):
        return int(value.size) <= MAX_ELEMENTS
    if is_tensor(value):
        return int(value.numel()) <= MAX_ELEMENTS
    return False


def _scalar(value: Any) -> bool:
    """A plain or numpy scalar (``df['x'].sum()``), safe to combine with arrays."""
    if not is_known(value):
        return False
    if type(value) in (int, float, bool, str):
        return True
    np = _np()
    return np is not None and isinstance(value, np.generic) and value.dtype.kind in "biufcUSM"


def _real_binop(fn: Any, left: Any, right: Any, node: ast.AST, walker: Walker) -> Any:
    """numpy/pandas/torch arithmetic on bounded real values: run it (it is pure)."""
    arrays = [v for v in (left, right) if _bounded_array(v)]
    scalars = [v for v in (left, right) if _scalar(v)]
    if not arrays or len(arrays) + len(scalars) != 2:
        return None
    np = _np()
    try:
        with warnings.catch_warnings(), np.errstate(all="ignore"):
            warnings.simplefilter("ignore")
            return fn(left, right)
    except (TypeError, ValueError) as exc:
        library = "pandas" if any(is_series(a) or is_frame(a) for a in arrays) else (
            "torch" if any(is_tensor(a) for a in arrays) else "numpy")
        _report(walker, node, exc, library, _short(walker.text(node)),
                tuple(f"{walker.text(n)}: {_describe(v)}" for n, v in (
                    (node.left, left), (node.right, right)) if hasattr(node, "left")),
                confidence=0.95)
        return None
    except Exception:
        return None


def propagate_compare(op: ast.cmpop, left: Any, right: Any, node: ast.AST,
                      walker: Walker) -> Any:
    """``y == 1`` on an Abstract or bounded real array: a boolean array of the same shape."""
    fn = _CMP.get(type(op))
    if fn is None:
        return None
    if not (isinstance(left, Abstract) or isinstance(right, Abstract)):
        arrays = [v for v in (left, right) if _bounded_array(v)]
        if not arrays or any(is_frame(a) for a in arrays):
            return None
        if not all(_bounded_array(v) or _scalar(v) for v in (left, right)):
            return None
        np = _np()
        try:
            with warnings.catch_warnings(), np.errstate(all="ignore"):
                warnings.simplefilter("ignore")
                return fn(left, right)
        except Exception:
            return None
    (lk, ls), (rk, rs) = _operand(left), _operand(right)
    if lk is None or rk is None or {lk, rk} == {"ndarray", "tensor"}:
        return None
    tensor = "tensor" in (lk, rk)
    try:
        np = _np()
        with warnings.catch_warnings(), np.errstate(all="ignore"):
            warnings.simplefilter("ignore")
            out = fn(ls, rs)
    except (ValueError, RuntimeError) as exc:
        if isinstance(exc, NotImplementedError) or "meta" in str(exc):
            return None
        _report(walker, node, exc, "torch" if tensor else "numpy", _short(walker.text(node)),
                tuple(f"{walker.text(n)}: {_describe(v)}" for n, v in (
                    (node.left, left), (node.comparators[0], right))
                      if isinstance(node, ast.Compare)))
        return None
    except Exception:
        return None
    if "tensor" in (lk, rk):
        devices = _devices([left, right])
        return wrap_output(out, next(iter(devices)) if devices else "cpu")
    return abstract_array(out, walker.text(node))
