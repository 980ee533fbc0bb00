"""What models and plots return: scikit-learn outputs, Keras predictions, subplot grids.

A fitted built-in scikit-learn estimator (every part of it scikit-learn's: no user callable)
runs ``predict``/``transform`` on the first rows of its input: the output's width, dtype and
sample rows. ``fit_transform`` widths come from the estimator's kind (scalers keep the
width, projections give ``n_components``); a linear regressor fitted earlier in the cell is
refitted on a clone to sample its predictions. Keras ``predict`` has the model's output
shape; ``plt.subplots`` gives its grid of axes.
"""

from __future__ import annotations

import ast
import sys
import types
import warnings
from typing import Any

import rtextract

from ._facts import (
    MAX_ELEMENTS,
    SAMPLE_ROWS,
    describe,
    np_module,
    report,
    short,
)
from ._values import (
    Abstract,
    is_abstract,
    is_estimator,
    is_frame,
    is_keras_model,
    is_known,
    is_ndarray,
    is_series,
    meta_attr,
    size_of_array,
    type_root,
)
from ._walk._types import COMPILED_IN_CELL, CallSite

__all__ = ['sklearn_output', 'keras_predict', 'subplots_call', 'builtin_estimator',
           'split_arrays', 'keras_sequential', 'keras_compile', 'record_compiled_loss',
           'KerasFacts', 'HistoryKeys', 'keras_fit', 'keras_to_categorical']


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
    """A parameter or fitted attribute that runs no user code when the estimator is used,
    cloned (``copy.deepcopy`` of every parameter) or fitted: library data and callables."""
    if is_estimator(value):
        return builtin_estimator(value, depth + 1)
    if type(value) in (list, tuple) and len(value) <= 256:
        return all(_library_part(v, depth) for v in value)
    if type(value) is dict and len(value) <= 256:
        return all(_library_part(v, depth) for v in value.values())
    if type(value) in (types.FunctionType, types.MethodType):
        return False
    if rtextract.user_classes(type(value)):
        return False  # an instance of a user class: its __deepcopy__, __call__, ... are its code
    if callable(value) and not isinstance(value, type):
        return type_root(value) in _LIBRARY_ROOTS
    if isinstance(value, type):  # a class as a parameter (dtype=float, a user class)
        return not rtextract.user_classes(value) and not rtextract.user_classes(type(value))
    if type_root(value) in ("numpy", "pandas"):  # object cells: plain values only
        return rtextract.user_content(value, scan=True) is None
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
        return x.iloc[:SAMPLE_ROWS]
    if is_ndarray(x) and x.ndim >= 1:
        return x[:SAMPLE_ROWS]
    return None


def _width(x: Any) -> int | None:
    shape = x.shape if is_abstract(x) else (tuple(x.shape) if is_frame(x) or is_ndarray(x)
                                             else None)
    return int(shape[1]) if shape is not None and len(shape) == 2 else None


def _array_output(est: Any) -> bool:
    """transform returns an ndarray: no ``set_output`` on the estimator or globally."""
    sklearn = sys.modules.get("sklearn")
    try:
        config = sklearn.get_config()  # type: ignore[union-attr]
    except Exception:
        return False
    return config.get("transform_output", "default") == "default" and \
        "_sklearn_output_config" not in vars(est)


def _no_empty_column(x: Any) -> bool:
    """No all-missing column (SimpleImputer drops those): the output keeps the width."""
    if not (is_frame(x) or is_ndarray(x)) or _width(x) is None or x.size > MAX_ELEMENTS:
        return False
    if is_frame(x):
        return not bool(x.isna().all().any()) and all(k in "iufb" for k in x.dtypes.map(
            lambda d: d.kind))
    if x.dtype.kind != "f":
        return x.dtype.kind in "iub"
    np = np_module()
    return not bool(np.isnan(x).all(axis=0).any())


#: Regressors whose fit is deterministic and quick on bounded data (no random state, no
#: iterations worth waiting for): refitted on a copy to sample their predictions.
_REFIT = frozenset({"LinearRegression", "Ridge", "Lasso", "ElasticNet", "BayesianRidge",
                    "RidgeCV", "Lars", "HuberRegressor"})
#: Transformers whose fit is deterministic and quick: refitted on a copy for their output.
_REFIT_TRANSFORMERS = frozenset({"OneHotEncoder", "OrdinalEncoder", "StandardScaler",
                                 "MinMaxScaler", "MaxAbsScaler", "RobustScaler",
                                 "SimpleImputer", "PolynomialFeatures", "Normalizer"})
_REFIT_ELEMENTS = 200_000


def _refit_sample(est: Any, state: Any, x: Any, method: str = "predict") -> Any:
    """The output on the first rows of ``x`` of an estimator fitted earlier in the cell,
    from a clone fitted on the same real data (the user's estimator is never fitted)."""
    kinds = _REFIT if method == "predict" else _REFIT_TRANSFORMERS
    if type(est).__name__ not in kinds or state.data is None or is_abstract(x):
        return None
    fit_x, fit_y = state.data
    if size_of_array(fit_x, _REFIT_ELEMENTS + 1) > _REFIT_ELEMENTS:
        return None
    base = sys.modules.get("sklearn.base")
    head = _head(x)
    if base is None or head is None:
        return None
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            clone = base.clone(est)
            fitted = clone.fit(fit_x) if fit_y is None else clone.fit(fit_x, fit_y)
            out = getattr(fitted, method)(head)
    except Exception:
        return None
    return out if is_ndarray(out) else None


def sklearn_output(site: CallSite) -> Any:
    est, method = site.receiver, site.method
    if method not in _SK_OUTPUT_METHODS or not is_known(est) or not is_estimator(est) or \
            site.starred or not site.args or not builtin_estimator(est):
        return None
    x = site.args[0]
    n = _rows(x)
    if n is None:
        return None
    np = np_module()
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
        if not _array_output(est):
            return None
        if method == "transform" and state is not None:
            sample = _refit_sample(est, state, x, "transform")
            if is_ndarray(sample) and sample.ndim == 2:
                return Abstract("ndarray", shape=(n, sample.shape[1]), dtype=sample.dtype,
                                sample=sample, origin=site.text(site.node))
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
        report(site.walker, site.node, exc, "sklearn", short(site.text(site.node)),
                (f"{site.text(site.node.args[0])}: {describe(x)}",), confidence=0.93)
        return None
    except Exception:
        return None
    if not is_ndarray(out) or out.ndim < 1:
        return None
    nan = out.dtype.kind == "f" and bool(np.isnan(out).any())
    return Abstract("ndarray", shape=(n, *out.shape[1:]), dtype=out.dtype, sample=out,
                    nan=nan, origin=site.text(site.node))


# ----- Keras and matplotlib -------------------------------------------------------------
def split_arrays(site: CallSite) -> Any:
    """``train_test_split`` of arrays with global randomness: which rows go where is unknown,
    but the sizes are scikit-learn's own arithmetic (``_validate_shuffle_split``), so each
    part is an abstract array of known shape and dtype. Frames and Series stay unknown."""
    func = site.func
    if meta_attr(func, "__name__") != "train_test_split" or not str(
            meta_attr(func, "__module__") or "").startswith("sklearn") or site.starred:
        return None
    arrays = list(site.args)
    if not arrays or not all((is_known(a) and is_ndarray(a) and a.ndim >= 1) or (
            is_abstract(a, "ndarray") and a.shape) for a in arrays):
        return None
    if not all(is_known(v) for v in site.kwargs.values()) or set(site.kwargs) - {
            "test_size", "train_size", "random_state", "shuffle", "stratify"}:
        return None
    shapes = [tuple(a.shape) for a in arrays]
    if len({s[0] for s in shapes}) != 1:
        return None  # the sample-count rule reports it
    split = sys.modules.get("sklearn.model_selection._split")
    validate = getattr(split, "_validate_shuffle_split", None)
    if validate is None:
        return None
    try:
        n_train, n_test = validate(shapes[0][0], site.kwargs.get("test_size"),
                                   site.kwargs.get("train_size"), default_test_size=0.25)
    except ValueError as exc:
        report(site.walker, site.node, exc, "sklearn", short(site.text(site.node)))
        return None
    except Exception:
        return None
    parts: list[Any] = []
    for array, shape in zip(arrays, shapes):
        for rows in (n_train, n_test):
            parts.append(Abstract("ndarray", shape=(int(rows), *shape[1:]), dtype=array.dtype,
                                  origin=site.text(site.node)))
    return parts


class KerasFacts:
    """What a Keras ``Sequential([...])`` built in the cell will be, read from its layer
    arguments without building it (building draws weights and names layers)."""

    __slots__ = ("input_shape", "output_shape", "loss", "metrics", "name", "cls")

    def __init__(self, input_shape: tuple | None, units: int | None,
                 cls: type | None = None) -> None:
        self.input_shape = input_shape
        self.output_shape = (None, units) if units is not None else None
        self.loss: Any = None
        self.metrics: tuple[str, ...] | None = None  # compiled in the cell, by name
        self.name = "Sequential"
        self.cls = cls  # the class called (keras.Sequential, or tf_keras's)


def _keras_class(value: Any, *names: str) -> bool:
    return isinstance(value, type) and type_root(value) in ("keras", "tensorflow") and \
        value.__name__ in names


def _int_shape(value: Any) -> tuple | None:
    if type(value) is int:
        return (value,)
    if type(value) in (tuple, list) and all(d is None or type(d) is int for d in value):
        return tuple(value)
    return None


def keras_sequential(site: CallSite) -> Any:
    """``keras.Sequential([keras.Input((8,)), Dense(16), ..., Dense(3)])``: the input shape
    and the last layer's units, from the arguments (only Keras's own layer classes)."""
    if not _keras_class(site.func, "Sequential") or len(site.node.args) != 1 or \
            site.node.keywords or not isinstance(site.node.args[0], (ast.List, ast.Tuple)):
        return None
    layers = site.node.args[0].elts
    walker = site.walker
    if not layers or not all(isinstance(e, ast.Call) and not any(
            isinstance(a, ast.Starred) for a in e.args) for e in layers):
        return None
    classes = [walker.value_of(e.func) for e in layers]  # type: ignore[attr-defined]
    if not all(type_root(c) in ("keras", "tensorflow") and (isinstance(c, type) or (
            i == 0 and meta_attr(c, "__name__") == "Input")) for i, c in enumerate(classes)):
        return None
    first, cls = layers[0], classes[0]
    keywords = {k.arg: k.value for k in first.keywords if k.arg}
    shape = None
    if meta_attr(cls, "__name__") in ("Input", "InputLayer"):
        node = first.args[0] if first.args else keywords.get("shape") or keywords.get(
            "input_shape")
        shape = _int_shape(walker.value_of(node)) if node is not None else None
    elif "input_shape" in keywords:
        shape = _int_shape(walker.value_of(keywords["input_shape"]))
    elif "input_dim" in keywords:
        shape = _int_shape(walker.value_of(keywords["input_dim"]))
    last, units = layers[-1], None
    if classes[-1].__name__ == "Dense":
        node = last.args[0] if last.args else {k.arg: k.value for k in last.keywords}.get(
            "units")
        value = walker.value_of(node) if node is not None else None
        units = value if type(value) is int else None
    if shape is None and units is None:
        return None
    return Abstract("keras", meta=KerasFacts((None, *shape) if shape else None, units,
                                             site.func if isinstance(site.func, type) else None),
                    origin=site.text(site.node))


def keras_compile(site: CallSite) -> Any:
    """``model.compile(loss=...)`` on a model built in the cell: remember the loss."""
    model = site.receiver
    if not is_abstract(model, "keras") or site.method != "compile" or site.starred:
        return None
    model.meta.loss = _compiled_loss(site)
    model.meta.metrics = _compiled_metrics(site)
    return None


def keras_to_categorical(site: CallSite) -> Any:
    """``keras.utils.to_categorical(y, num_classes)`` of a numpy array: one-hot rows of
    ``num_classes`` (its largest label plus one when not given), a trailing axis of size 1
    dropped first, so labels one-hot already gain an axis (a cell run twice). Keras 3 works
    on numpy there (float64)."""
    func = site.func
    if site.starred or type_root(func) != "keras" or meta_attr(func, "__name__") != \
            "to_categorical" or len(site.args) > 2:
        return None
    x = site.args[0] if site.args else site.kwargs.get("x")
    classes = site.args[1] if len(site.args) > 1 else site.kwargs.get("num_classes")
    if is_abstract(x, "ndarray") and x.shape is not None:
        shape = x.shape
    elif is_known(x) and is_ndarray(x) and x.dtype.kind in "iufb":
        shape = tuple(int(d) for d in x.shape)
        if classes is None and 0 < x.size <= MAX_ELEMENTS:
            classes = int(x.max()) + 1
    else:
        return None
    if type(classes) is not int or classes <= 0:
        return None
    if len(shape) > 1 and shape[-1] == 1:
        shape = shape[:-1]
    np = np_module()
    return Abstract("ndarray", shape=(*shape, classes), dtype=np.dtype("float64"),
                    origin=site.text(site.node))


#: Where the walk keeps the metrics a live Keras model was compiled with in the cell.
_METRICS_IN_CELL = "keras metrics compiled in the cell"


def _compiled_metrics(site: CallSite) -> tuple[str, ...] | None:
    """The metrics a compile call names, when each is a string (Keras 2.3 and later log
    each under the name it was given: ``'accuracy'`` as ``accuracy``, ``'acc'`` as
    ``acc``); None (unknown) for metric objects, weighted metrics, positional arguments
    past the loss, or a compile in a branch that may not run."""
    if site.walker.uncertain or site.starred or len(site.args) > 2 or \
            site.kwargs.get("weighted_metrics") is not None:
        return None
    metrics = site.kwargs.get("metrics", None)
    if metrics is None:
        return ()
    if type(metrics) in (list, tuple) and all(type(m) is str for m in metrics):
        return tuple(metrics)
    return None


class HistoryKeys:
    """The keys a Keras ``History.history`` will have after a fit of a single-output model
    compiled in the cell: ``loss`` and each metric's name, and their ``val_`` forms when
    the fit validates (``maybe_val``: whether it does is not known)."""

    __slots__ = ("train", "val", "maybe_val")

    def __init__(self, train: tuple[str, ...], val: bool, maybe_val: bool) -> None:
        self.train, self.val, self.maybe_val = train, val, maybe_val

    def possible(self) -> list[str]:
        return [*self.train, *(f"val_{k}" for k in self.train if self.val or self.maybe_val)]


def keras_fit(site: CallSite) -> Any:
    """``history = model.fit(...)`` of a Sequential compiled in the cell with named metrics
    and no callbacks (a callback may log more, such as ``learning_rate``): its History,
    whose ``history`` keys are known (`HistoryKeys`)."""
    model = site.receiver
    if site.method != "fit" or site.starred or len(site.args) > 2 or "callbacks" in site.kwargs:
        return None
    if is_abstract(model, "keras"):
        metrics = getattr(model.meta, "metrics", None)
    elif is_known(model) and is_keras_model(model) and type(model).__name__ == "Sequential":
        metrics = site.walker.scratch.get(_METRICS_IN_CELL, {}).get(id(model))
    else:
        return None
    if metrics is None:
        return None
    split = site.kwargs.get("validation_split", 0.0)
    data = site.kwargs.get("validation_data", None)
    known_split = type(split) in (int, float)
    known_data = data is None or is_known(data)
    val = (known_split and split > 0) or (data is not None and known_data)
    maybe = not val and (not known_split or not known_data)
    return Abstract("keras_history", meta=HistoryKeys(("loss", *metrics), val, maybe),
                    origin=site.text(site.node))


def record_compiled_loss(site: CallSite) -> None:
    """``model.compile(loss=...)`` on a live Keras model: the loss the rest of the cell fits
    with, kept by the model's identity in the walk's scratch (the model is not touched)."""
    if not site.starred:
        site.walker.scratch.setdefault(COMPILED_IN_CELL, {})[id(site.receiver)] = (
            _compiled_loss(site), site.node)
    site.walker.scratch.setdefault(_METRICS_IN_CELL, {})[id(site.receiver)] = \
        _compiled_metrics(site)


def _compiled_loss(site: CallSite) -> str | None:
    """The loss a compile call names; None (unknown) in a branch that may not run, or for a
    loss that is not a name."""
    loss = site.kwargs.get("loss", site.args[1] if len(site.args) > 1 else None)
    return loss if not site.walker.uncertain and isinstance(loss, str) else None


def keras_predict(site: CallSite) -> Any:
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
    np = np_module()
    return Abstract("ndarray", shape=(n, *shape[1:]), dtype=np.dtype("float32"),
                    origin=site.text(site.node))


def subplots_call(site: CallSite) -> Any:
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
    np = np_module()
    rows, cols = grid
    if squeeze and rows == cols == 1:
        axes: Any = Abstract("axes", origin=site.text(site.node))
    else:
        shape = (rows, cols) if not squeeze else tuple(d for d in (rows, cols) if d > 1)
        axes = Abstract("ndarray", shape=shape, dtype=np.dtype(object),
                        origin=site.text(site.node))
    return (UNKNOWN, axes)
