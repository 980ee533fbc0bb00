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
import time
import warnings
from typing import Any

from ._facts import (
    MAX_ELEMENTS,
    result_fits,
    abstract_array,
    describe,
    has_nan,
    np_module,
    report,
    short,
    standin,
    to_standin,
)
from ._finding import Finding
from ._meta import (
    MetaFailure,
    abstract_tensor,
    device_of,
    meta_failure_finding,
    meta_tensor,
    meta_warm,
    run_function,
    wrap_output,
)
from ._model_facts import (
    keras_compile,
    keras_fit,
    keras_to_categorical,
    keras_predict,
    keras_sequential,
    sklearn_output,
    split_arrays,
    subplots_call,
)
from ._names import removed_from_class
from ._numpy_facts import numpy_call, numpy_random_call
from ._torch_facts import loader_batches, tensor_devices, torch_call
from ._values import (
    Abstract,
    is_abstract,
    is_frame,
    is_known,
    is_ndarray,
    is_series,
    is_tensor,
    safe_message,
)
from ._walk._types import CallSite, Walker

__all__ = ['propagate_call', 'propagate_attribute', 'propagate_subscript', 'propagate_binop', 'propagate_compare', 'MAX_ELEMENTS']


_ARITH = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul,
          ast.Div: operator.truediv, ast.FloorDiv: operator.floordiv, ast.Mod: operator.mod,
          ast.Pow: operator.pow, ast.MatMult: operator.matmul}
_CMP = {ast.Eq: operator.eq, ast.NotEq: operator.ne, ast.Lt: operator.lt,
        ast.LtE: operator.le, ast.Gt: operator.gt, ast.GtE: operator.ge}
_NAN_KEEPING = (ast.Add, ast.Sub, ast.Mult, ast.Div)
#: A matrix product costs rows x inner x columns multiply-adds, however small its result.
#: Past this many, it is not run on the live values: its result's shape comes from the
#: shapes, its dtype from the product of one row by one column (`_sliced_matmul`), its
#: values stay unknown. Run whole, it cost the rules what the cell's own product costs (a
#: 1200 x 1200 float32 product took them 75 ms before a cell that runs it).
MAX_MATMUL_WORK = 20_000_000


def propagate_call(site: CallSite) -> Any:
    """What a call the walker could not evaluate returns, as facts; None when unknown."""
    for step in (numpy_random_call, numpy_call, torch_call, sklearn_output, keras_predict,
                 subplots_call, split_arrays, keras_sequential, keras_compile, keras_fit,
                 keras_to_categorical):
        value = step(site)
        if value is not None:
            return value
    return None


def propagate_iter(value: Any) -> tuple[Any, int, Any] | None:
    """(first item, number of items, last item or None when like the first) of a loop's
    iterable, when certain (DataLoaders)."""
    return loader_batches(value)


def _missing_attribute(base: Abstract, name: str, node: ast.AST, walker: Walker) -> None:
    """``X_scaled.head()`` on the ndarray a transform returned: the array's class has no
    such attribute (read from the class, which is all an abstract value has)."""
    if name.startswith("__"):
        return
    if base.kind == "ndarray":
        owner, label = getattr(np_module(), "ndarray", None), "numpy.ndarray"
    elif base.kind == "tensor":
        owner, label = getattr(sys.modules.get("torch"), "Tensor", None), "Tensor"
    elif base.kind == "keras":  # a Sequential built in the cell: a method Keras removed
        _removed_keras_method(base, name, node, walker)
        return
    else:
        return
    if owner is None or "__getattr__" in vars(owner) or hasattr(owner, name):
        return
    hint = " (a pandas method: wrap it in pd.DataFrame first, or use the array's own " \
           "methods)" if base.kind == "ndarray" and name in _FRAME_WORDS else ""
    what = getattr(node, "value", None)
    subject = walker.text(what) if isinstance(what, ast.AST) else "the value"
    walker.report(Finding(exception="AttributeError", crash_type="attribute error",
                          library="numpy" if base.kind == "ndarray" else "torch",
                          confidence=0.95, rule="propagation",
                          evidence=(f"{subject}: {describe(base)}",),
                          explanation=f"'{label}' object has no attribute '{name}': {subject} "
                                      f"is a {label} ({base.origin or 'computed in the cell'})"
                                      f"{hint}"), node)


def _removed_keras_method(base: Abstract, name: str, node: ast.AST, walker: Walker) -> None:
    cls = getattr(base.meta, "cls", None)
    advice = removed_from_class(cls, name) if cls is not None else None
    if advice is None:
        return
    what = getattr(node, "value", None)
    subject = walker.text(what) if isinstance(what, ast.AST) else "the model"
    walker.report(Finding(exception="AttributeError", crash_type="attribute error",
                          library="tensorflow", confidence=0.96, rule="removed-attribute",
                          evidence=(f"{subject}: a {cls.__name__} built in the cell "
                                    f"({base.origin or 'keras'})",),
                          explanation=f"'{cls.__name__}' object has no attribute '{name}' "
                                      f"({advice})"), node)


_FRAME_WORDS = frozenset({"head", "tail", "values", "iloc", "loc", "columns", "index",
                          "value_counts", "isnull", "isna", "fillna", "dropna", "describe",
                          "info", "to_csv", "apply", "groupby", "plot", "unique", "nunique",
                          "to_numpy", "iterrows", "sort_values", "drop", "rename"})


def propagate_attribute(base: Any, name: str, node: ast.AST, walker: Walker) -> Any:
    """``x.shape``, ``x.T``, ``x.dtype``... of an Abstract array or tensor; an attribute
    its class does not have is a certain AttributeError."""
    if isinstance(base, Abstract):
        _missing_attribute(base, name, node, walker)
    if is_abstract(base, "keras_history"):  # its ``history``: the logs by key
        return Abstract("keras_logs", meta=base.meta, origin=base.origin) \
            if name == "history" else None
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
        if name == "flat":  # read as the flattened array (its items, its bound)
            return Abstract("ndarray", shape=(math.prod(base.shape),), dtype=base.dtype)
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
    """Indexing an Abstract array/tensor (numpy's and torch's bound checks), an Axes, a
    Keras fit's logs."""
    if is_abstract(base, "keras_logs"):
        _missing_log(base, key, node, walker)
        return None
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
        ok, stand = to_standin(base)
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


def _missing_log(logs: Abstract, key: Any, node: ast.AST, walker: Walker) -> None:
    """``history.history['acc']`` where the fit logs no such key: Keras 2.3 and later log a
    metric under the name compile was given (``'accuracy'``); older Keras wrote ``acc``."""
    keys = logs.meta.possible()
    if type(key) is not str or key in keys:
        return
    hint = ""
    for old, new in (("acc", "accuracy"), ("accuracy", "acc")):
        if key in (old, f"val_{old}") and key.replace(old, new) in keys:
            hint = f"; use {key.replace(old, new)!r} (Keras before 2.3 logged 'accuracy' as 'acc')"
    val = "" if logs.meta.val or logs.meta.maybe_val else \
        " (the fit validates on nothing, so no val_ keys)" if key.startswith("val_") else ""
    subject = walker.text(getattr(node, "value", node))
    walker.report(Finding(exception="KeyError", crash_type="key error", library="tensorflow",
                          confidence=0.95, rule="keras-history",
                          evidence=(f"{subject}: the logs of {logs.origin or 'a fit'}",),
                          explanation=f"{subject} has no key {key!r}: the fit logs "
                                      f"{', '.join(map(repr, keys))}{val}{hint}"), node)


def _index_key(key: Any) -> bool:
    parts = key if type(key) is tuple else (key,)
    return all(type(k) in (int, slice, type(None), type(Ellipsis)) or (
        is_ndarray(k) and k.dtype.kind in "bi" and k.size <= MAX_ELEMENTS) for k in parts)


def _index(array: Any, key: Any, node: ast.AST, walker: Walker, library: str, dtype: Any,
           real: bool = False) -> Any:
    try:
        out = array[key]
    except IndexError as exc:
        report(walker, node, exc, library, short(walker.text(node)),
                (f"{walker.text(node.value)}: shape {tuple(array.shape)}",))
        return None
    except Exception:
        return None
    if real:
        return None  # the walker's own getitem decides real values
    np = np_module()
    if isinstance(out, np.ndarray) and dtype is not None and dtype.kind != "O":
        return Abstract("ndarray", shape=out.shape, dtype=out.dtype)
    return None


def _operand(value: Any) -> tuple[str | None, Any]:
    """(kind, stand-in) of an operand: ndarray stand-ins, meta tensors, plain scalars."""
    if is_abstract(value, "ndarray"):
        ok, stand = to_standin(value)
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
    np = np_module()
    tensor = "tensor" in (lk, rk)
    if tensor and not meta_warm():
        return None
    if not tensor and not result_fits(op, ls, rs):
        return None  # stand-ins would allocate the whole (huge) result
    sliced = _sliced_matmul(ls, rs) if not tensor and fn is operator.matmul else None
    if sliced is not None:
        return _costly_matmul(sliced, node, walker)  # meta tensors cost nothing; arrays do
    try:
        with warnings.catch_warnings(), np.errstate(all="ignore"):
            warnings.simplefilter("ignore")
            out = fn(ls, rs)
    except (ValueError, RuntimeError, TypeError) as exc:
        if tensor and ("meta" in safe_message(exc) or isinstance(exc, NotImplementedError)):
            return None
        report(walker, node, exc, "torch" if tensor else "numpy", short(walker.text(node)),
                tuple(f"{walker.text(n)}: {describe(v)}" for n, v in (
                    (node.left, left), (node.right, right)) if hasattr(node, "left")))
        return None
    except Exception:
        return None
    if tensor:
        devices = tensor_devices([left, right])
        return wrap_output(out, next(iter(devices)) if devices else "cpu")
    nan = isinstance(op, _NAN_KEEPING) and (has_nan(left) or has_nan(right))
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
    np = np_module()
    return np is not None and isinstance(value, np.generic) and value.dtype.kind in "biufcUSM"


def _real_binop(fn: Any, left: Any, right: Any, node: ast.AST, walker: Walker) -> Any:
    """numpy/pandas/torch arithmetic on bounded real values: run it (it is pure)."""
    arrays = [v for v in (left, right) if _bounded_array(v)]
    scalars = [v for v in (left, right) if _scalar(v)]
    if not arrays or len(arrays) + len(scalars) != 2:
        return None
    if not result_fits(next(k for k, f in _ARITH.items() if f is fn)(), left, right):
        return None
    if sum(_size(v) for v in arrays) > _FREE_ELEMENTS and \
            time.perf_counter() > getattr(walker, "deadline", math.inf):
        return None  # milliseconds of arithmetic: only while the trials have time left
    np = np_module()
    sliced = _sliced_matmul(left, right) if fn is operator.matmul and (
        (is_ndarray(left) and is_ndarray(right)) or (is_tensor(left) and is_tensor(right))) \
        else None
    if sliced is not None:
        return _costly_matmul(sliced, node, walker)
    try:
        with warnings.catch_warnings(), np.errstate(all="ignore"):
            warnings.simplefilter("ignore")
            return fn(left, right)
    except (TypeError, ValueError) as exc:
        library = "pandas" if any(is_series(a) or is_frame(a) for a in arrays) else (
            "torch" if any(is_tensor(a) for a in arrays) else "numpy")
        report(walker, node, exc, library, short(walker.text(node)),
                tuple(f"{walker.text(n)}: {describe(v)}" for n, v in (
                    (node.left, left), (node.right, right)) if hasattr(node, "left")),
                confidence=0.95)
        return None
    except Exception:
        return None


#: Arithmetic on live operands of at most this many elements in all runs whatever the
#: trials' time left (microseconds); on larger ones only within it.
_FREE_ELEMENTS = 100_000


def _size(value: Any) -> int:
    return int(value.numel()) if is_tensor(value) else int(value.size)


def _sliced_matmul(left: Any, right: Any) -> tuple[tuple[int, ...], Any, Any] | None:
    """For a product too costly to run on live values (`MAX_MATMUL_WORK`): the shape of
    ``left @ right`` and views of one row and one column of each operand, whose product
    has its dtype. None when the product is cheap, or when its shapes do not fit (it then
    raises at once: numpy and torch check the shapes before they compute)."""
    a, b = getattr(left, "shape", None), getattr(right, "shape", None)
    if not a or not b:  # a scalar operand: the real product raises at once
        return None
    a, b = tuple(a), tuple(b)
    inner = b[-2] if len(b) > 1 else b[0]
    if a[-1] != inner:
        return None
    try:
        batch = tuple(np_module().broadcast_shapes(a[:-2], b[:-2]))
    except (ValueError, AttributeError):
        return None
    rows = a[-2:-1]  # () for a vector
    cols = b[-1:] if len(b) > 1 else ()
    if math.prod(batch + rows + cols) * inner <= MAX_MATMUL_WORK:
        return None
    return (batch + rows + cols, left[..., :1] if len(a) == 1 else left[..., :1, :1],
            right[:1] if len(b) == 1 else right[..., :1, :1])


def _costly_matmul(sliced: tuple[tuple[int, ...], Any, Any], node: ast.AST,
                   walker: Walker) -> Any:
    """A product of live arrays or tensors too costly to run, as `_sliced_matmul` gave it:
    its result as an abstract value (shape and dtype; the product of one row by one column
    checks the dtypes as the library does). Not on torch's meta device: its first
    product there imports some 480 modules, half a second of the user's kernel."""
    np = np_module()
    shape, one_left, one_right = sliced
    try:
        with warnings.catch_warnings(), np.errstate(all="ignore"):
            warnings.simplefilter("ignore")
            one = operator.matmul(one_left, one_right)
        if is_ndarray(one):
            return abstract_array(np.broadcast_to(np.zeros((), one.dtype), shape),
                                  walker.text(node))
        if is_tensor(one):
            return abstract_tensor(one.new_empty(shape, device="meta"), device_of(one),
                                   walker.text(node))
    except Exception:  # the whole product would have run; unknown is as good here
        return None
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
        if not all(_bounded_array(v) or _scalar(v) for v in (left, right)) or not \
                result_fits(op, left, right):
            return None
        np = np_module()
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
    if not tensor and not result_fits(op, ls, rs):
        return None
    try:
        np = np_module()
        with warnings.catch_warnings(), np.errstate(all="ignore"):
            warnings.simplefilter("ignore")
            out = fn(ls, rs)
    except (ValueError, RuntimeError) as exc:
        if isinstance(exc, NotImplementedError) or "meta" in safe_message(exc):
            return None
        report(walker, node, exc, "torch" if tensor else "numpy", short(walker.text(node)),
                tuple(f"{walker.text(n)}: {describe(v)}" for n, v in (
                    (node.left, left), (node.comparators[0], right))
                      if isinstance(node, ast.Compare)))
        return None
    except Exception:
        return None
    if "tensor" in (lk, rk):
        devices = tensor_devices([left, right])
        return wrap_output(out, next(iter(devices)) if devices else "cpu")
    return abstract_array(out, walker.text(node))
