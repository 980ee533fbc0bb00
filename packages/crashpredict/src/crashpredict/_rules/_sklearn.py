"""scikit-learn rules: unfitted estimators, feature count and names, strings, NaN, labels."""

from __future__ import annotations

import sys
import warnings
from typing import Any

from ._finding import Finding
from ._values import (
    UNKNOWN,
    Abstract,
    SizedUnknown,
    is_abstract,
    describe_value,
    is_estimator,
    is_frame,
    is_known,
    is_ndarray,
    is_series,
    meta_attr,
    nan_where,
    attr_or,
    safe_message,
    size_of_array,
    text_value,
)
from ._walk._types import CallSite, FitState

__all__ = ["sklearn_call", "record_fit", "split_result"]

_USE_METHODS = frozenset({"predict", "predict_proba", "predict_log_proba", "decision_function",
                          "transform", "score", "staged_predict"})
_FIT_METHODS = frozenset({"fit", "fit_transform", "fit_predict"})
_META_ATTRS = ("steps", "transformers")
# Wrappers whose input handling is their inner estimator's: never judged by their own tags.
_META_PREFIXES = ("Voting", "Stacking", "OneVsRest", "OneVsOne", "OutputCode", "MultiOutput",
                  "Bagging", "AdaBoost", "SelectFromModel", "RFE", "Calibrated",
                  "TransformedTarget", "ClassifierChain", "RegressorChain", "Sequential",
                  "SelfTraining", "FrozenEstimator")
_MAX_SCAN = 5_000_000


def _x_and_y(site: CallSite) -> tuple[Any, Any, str, str]:
    x = site.args[0] if site.args else site.kwargs.get("X", UNKNOWN)
    y = site.args[1] if len(site.args) > 1 else site.kwargs.get("y", UNKNOWN)
    nodes = [*site.node.args]
    x_name = site.text(nodes[0]) if nodes else "X"
    y_name = site.text(nodes[1]) if len(nodes) > 1 else "y"
    return x, y, x_name, y_name


def _tags(est: Any) -> Any:
    utils = sys.modules.get("sklearn.utils")
    get_tags = getattr(utils, "get_tags", None)
    try:
        return get_tags(est) if get_tags else None
    except Exception:
        return None


def _is_meta(est: Any) -> bool:
    name = type(est).__name__
    return any(a in vars(est) for a in _META_ATTRS) or name.endswith("SearchCV") or \
        name.startswith(_META_PREFIXES) or not type(est).__module__.startswith("sklearn")


def _finding(exc: str, crash: str, text: str, evidence: tuple[str, ...] = ()) -> Finding:
    return Finding(exception=exc, crash_type=crash, library="sklearn", explanation=text,
                   evidence=evidence, confidence=0.95, rule="sklearn")


def _split_lengths(site: CallSite) -> Finding | None:
    """train_test_split(X, y) with arrays of different lengths."""
    if meta_attr(site.func, "__name__") != "train_test_split" or not str(
            meta_attr(site.func, "__module__") or "").startswith("sklearn") or site.starred:
        return None
    lengths = []
    for node, value in zip(site.node.args, site.args):
        if not is_known(value) or not (is_frame(value) or is_series(value) or
                                       is_ndarray(value) or type(value) is list):
            return None
        lengths.append((site.text(node), len(value)))
    if len({n for _, n in lengths}) > 1:
        listed = ", ".join(f"{name} has {n}" for name, n in lengths)
        return _finding("ValueError", "value error",
                        f"Found input variables with inconsistent numbers of samples: {listed}")
    return None


#: sklearn.metrics functions that check y_true and y_pred for consistent lengths first.
_LENGTH_CHECKED_METRICS = frozenset({
    "accuracy_score", "precision_score", "recall_score", "f1_score", "fbeta_score",
    "confusion_matrix", "classification_report", "mean_squared_error", "mean_absolute_error",
    "r2_score", "roc_auc_score", "log_loss", "balanced_accuracy_score", "matthews_corrcoef",
    "cohen_kappa_score", "mean_absolute_percentage_error", "median_absolute_error",
    "explained_variance_score", "mean_squared_log_error", "root_mean_squared_error",
    "precision_recall_fscore_support", "jaccard_score", "hamming_loss", "zero_one_loss",
    "roc_curve", "precision_recall_curve", "average_precision_score", "max_error",
})
_METRIC_SECOND = ("y_pred", "y_score", "y_proba", "probas_pred", "y2")
_METRIC_FIRST = ("y_true", "y1")


def _sample_count(value: Any) -> int | None:
    if is_abstract(value, "ndarray") or is_abstract(value, "tensor"):
        return value.shape[0] if value.shape else None
    if not is_known(value):
        return None
    if is_ndarray(value):
        return int(value.shape[0]) if value.ndim >= 1 else None
    if is_series(value) or is_frame(value):
        return len(value)
    if type(value) in (list, tuple) and len(value) <= 1_000_000:
        return len(value)
    return None


def _metric_lengths(site: CallSite) -> Finding | None:
    """accuracy_score(y_test, preds) with y_true and y_pred of different lengths."""
    name = meta_attr(site.func, "__name__")
    if name not in _LENGTH_CHECKED_METRICS or not str(
            meta_attr(site.func, "__module__") or "").startswith("sklearn.metrics") or \
            site.starred:
        return None
    nodes = list(site.node.args)
    pairs: list[tuple[str, Any]] = [(site.text(n), v) for n, v in zip(nodes, site.args)][:2]
    for keys in (_METRIC_FIRST, _METRIC_SECOND):
        if len(pairs) >= 2:
            break
        for key in keys:
            if key in site.kwargs:
                pairs.append((key, site.kwargs[key]))
                break
    if len(pairs) != 2:
        return None
    counts = [_sample_count(v) for _, v in pairs]
    if None in counts or counts[0] == counts[1]:
        return None
    (first, _), (second, _) = pairs
    return _finding("ValueError", "value error",
                    f"Found input variables with inconsistent numbers of samples: {first} has "
                    f"{counts[0]}, {second} has {counts[1]} ({name} compares them one to one)")


#: Classification metrics whose target-type checks hold on any rows of their inputs:
#: a continuous or multiclass target in some rows is one in all of them.
_TYPE_CHECKED_METRICS = frozenset({
    "accuracy_score", "precision_score", "recall_score", "f1_score", "fbeta_score",
    "jaccard_score", "confusion_matrix", "classification_report", "balanced_accuracy_score",
    "precision_recall_fscore_support", "multilabel_confusion_matrix",
})
_TYPE_WORDS = ("can't handle a mix", "Target is multiclass", "is not supported",
               "continuous", "pos_label")


def _metric_targets(site: CallSite) -> Finding | None:
    """A classification metric given a target type it rejects, where y_pred is computed in
    the cell (a regressor's continuous predictions, a multiclass target with the default
    binary average): the metric itself is run on y_true alone and on sample rows."""
    name = meta_attr(site.func, "__name__")
    if name not in _TYPE_CHECKED_METRICS or not str(meta_attr(
            site.func, "__module__") or "").startswith("sklearn.metrics") or site.starred:
        return None
    if len(site.args) < 2 or not all(is_known(v) for v in site.kwargs.values()):
        return None
    y_true, y_pred = site.args[0], site.args[1]
    if not is_abstract(y_pred, "ndarray") or not is_known(y_true):
        return None
    if not (is_series(y_true) or is_ndarray(y_true)) or size_of_array(y_true, 0) > _MAX_SCAN:
        return None
    true = y_true.to_numpy() if is_series(y_true) else y_true
    probes = [(true, true, "y_true")]
    if y_pred.sample is not None and is_ndarray(y_pred.sample):
        k = min(len(y_pred.sample), len(true))
        probes.append((true[:k], y_pred.sample[:k], "the first rows of y_pred"))
    for a, b, what in probes:
        try:
            import warnings
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                site.func(a, b, *site.args[2:], **site.kwargs)
        except ValueError as exc:
            message = safe_message(exc)
            if any(w in message for w in _TYPE_WORDS):
                return _finding("ValueError", "value error",
                                f"{name} rejects these targets ({what} show it): {message}",
                                (f"{site.text(site.node.args[1])}: computed in the cell",))
        except Exception:
            continue
    return None


def sklearn_call(site: CallSite) -> Finding | None:
    """predict/transform/fit on an estimator, checked against its fit and the data."""
    if site.method is None or isinstance(site.receiver, __import__("types").ModuleType):
        found = _split_lengths(site) or _metric_lengths(site) or _metric_targets(site)
        if found is not None:
            return found
    est, method = site.receiver, site.method
    if method is None or not is_known(est) or not is_estimator(est) or site.starred:
        return None
    if method in _USE_METHODS:
        return _check_use(site, est, method)
    if method in _FIT_METHODS:
        return _check_fit(site, est)
    return None


def _fit_facts(site: CallSite, est: Any) -> tuple[bool | None, int | None, tuple | None]:
    state = site.walker.fit_state(est)
    if state is not None:
        return (True if state.known else None), state.n_features, state.feature_names
    validation = sys.modules.get("sklearn.utils.validation")
    try:
        validation.check_is_fitted(est)  # type: ignore[union-attr]
        fitted: bool | None = True
    except Exception as exc:
        fitted = False if type(exc).__name__ == "NotFittedError" else None
    attrs = vars(est)
    names = attrs.get("feature_names_in_")
    return fitted, attrs.get("n_features_in_"), tuple(names) if names is not None else None


def _check_use(site: CallSite, est: Any, method: str) -> Finding | None:
    fitted, n_features, names = _fit_facts(site, est)
    if fitted is None:
        return None
    name = type(est).__name__
    if not fitted:
        if not type(est).__module__.startswith("sklearn"):
            return None  # third-party estimators raise their own error types
        tags = _tags(est)
        if tags is not None and not getattr(tags, "requires_fit", True):
            return None
        return _finding("NotFittedError", "NotFitted",
                        f"This {name} instance is not fitted yet: {method}() needs fit() "
                        f"to have run first on {site.text(site.node.func.value)}")
    x, _, x_name, _ = _x_and_y(site)
    if is_abstract(x, "ndarray"):
        return _check_abstract(est, x, x_name, n_features) if x.shape is not None else None
    if not is_known(x):
        return None
    if method == "transform" and _encoder(est) is not None:
        found = _unseen_categories(site, est, x, x_name)
        if found is not None or _encoder(est) == "LabelEncoder":
            return found  # labels, not features: NaN is a label it may have seen
    found = _check_features(name, x, x_name, n_features, names)
    return found or _check_values(est, x, x_name)


#: Encoders whose transform raises on a category the fit did not see (the two of X with
#: ``handle_unknown='error'``, their default for OneHotEncoder and OrdinalEncoder).
_ENCODERS = ("LabelEncoder", "OneHotEncoder", "OrdinalEncoder")
#: An encoder's transform is tried on at most this many values (fit and transform each).
_ENCODER_VALUES = 500_000


def _encoder(est: Any) -> str | None:
    """The name of scikit-learn's own encoder class ``est`` is an instance of, or None."""
    name = type(est).__name__
    return name if name in _ENCODERS and type(est).__module__.startswith(
        "sklearn.preprocessing") else None


def _unseen_categories(site: CallSite, est: Any, x: Any, x_name: str) -> Finding | None:
    """``enc.transform(x)`` where ``x`` holds a category (a label) the encoder's fit did
    not see: the encoder's own transform is run on ``x``, by the fitted encoder itself
    (fitted before the cell) or by a clone fitted on the data it was fitted on in the
    cell; only its "unseen labels"/"unknown categories" error counts."""
    name = _encoder(est)
    if name != "LabelEncoder" and vars(est).get("handle_unknown") != "error":
        return None
    if not (is_series(x) or is_frame(x) or is_ndarray(x)) or \
            size_of_array(x, _ENCODER_VALUES + 1) > _ENCODER_VALUES:
        return None
    state = site.walker.fit_state(est)
    if state is not None:
        if not state.known or state.data is None or state.data[1] is not None:
            return None
        fitted_on = state.data[0]
        if size_of_array(fitted_on, _ENCODER_VALUES + 1) > _ENCODER_VALUES:
            return None
    base = sys.modules.get("sklearn.base")
    if base is None:
        return None

    def attempt() -> str | None:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            encoder = est if state is None else base.clone(est).fit(fitted_on)
            try:
                encoder.transform(x)
            except ValueError as exc:
                return safe_message(exc)
        return None

    try:
        message = site.walker.guarded(attempt, at_least_ms=_ENCODER_MS)
    except Exception:  # noqa: BLE001 - the fit data's own trouble: no verdict
        return None
    if message is None or not ("unseen labels" in message or "unknown categor" in message):
        return None
    where = "when it was fitted" if state is None else "in its fit in this cell"
    return _finding("ValueError", "value error",
                    f"{x_name} holds categories {name} did not see {where}: {message}",
                    (f"{x_name}: {describe_value(x)}",))


#: What the encoder's transform may take, past the walk's trial budget.
_ENCODER_MS = 200.0


def _check_abstract(est: Any, x: Abstract, x_name: str, n_features: Any) -> Finding | None:
    """An array computed in the cell (a transform's output, a stack): its width and the
    NaN, inf or strings it certainly holds."""
    name = type(est).__name__
    shape = x.shape or ()
    evidence = (f"{x_name}: ndarray of shape {shape} computed in the cell",)
    if n_features is not None and len(shape) == 2 and shape[1] != n_features:
        return _finding("ValueError", "tensor shape mismatch",
                        f"{x_name} has {shape[1]} features (columns); {name} was fitted "
                        f"on {n_features}", (*evidence, f"{name}.n_features_in_ = "
                                                        f"{n_features}"))
    if n_features is not None and len(shape) == 1:
        return _finding("ValueError", "value error",
                        f"Expected 2D array, got 1D array instead: {x_name} has shape "
                        f"{shape}")
    if _is_meta(est):
        return None
    tags = _tags(est)
    if tags is None:
        return None
    if x.nan and not tags.input_tags.allow_nan:
        return _finding("ValueError", "value error",
                        f"Input X contains NaN: {x_name} certainly holds missing values "
                        f"(from {x.origin or 'a computation in the cell'}) and {name} does "
                        f"not accept NaN", evidence)
    sample = x.sample
    if sample is not None and is_ndarray(sample) and _numeric_only(est, tags):
        text = _first_string(sample)
        if text is not None:
            return _finding("ValueError", "value error",
                            f"could not convert string to float: {text!r}: {x_name} holds "
                            f"text that {name} cannot take", evidence)
    return None


def _check_features(name: str, x: Any, x_name: str, n_features: Any,
                    names: tuple | None) -> Finding | None:
    if not (is_frame(x) or is_ndarray(x)):
        return None
    if names is not None and is_frame(x) and all(isinstance(c, str) for c in x.columns):
        seen = [str(c) for c in x.columns]
        if seen != list(names):
            unseen = [c for c in seen if c not in names]
            missing = [c for c in names if c not in seen]
            detail = f"unseen at fit time: {unseen[:5]}" if unseen else ""
            if missing:
                detail += ("; " if detail else "") + f"missing: {missing[:5]}"
            if not detail:
                detail = "same names in a different order"
            return _finding("ValueError", "feature name mismatch",
                            f"The feature names of {x_name} do not match those {name} was "
                            f"fitted with ({detail})",
                            (f"{x_name}: {describe_value(x)}",
                             f"fitted on {len(names)} features: {list(names)[:6]}"))
    if n_features is None:
        return None
    if x.ndim == 1:
        return _finding("ValueError", "value error",
                        f"Expected 2D array, got 1D array instead: {x_name} has shape "
                        f"{tuple(x.shape)} (reshape it with .reshape(-1, 1) or (1, -1))")
    if x.ndim == 2 and x.shape[1] != n_features:
        return _finding("ValueError", "tensor shape mismatch",
                        f"{x_name} has {x.shape[1]} features (columns); {name} was fitted "
                        f"on {n_features}",
                        (f"{x_name}: {describe_value(x)}", f"{name}.n_features_in_ = "
                                                           f"{n_features}"))
    if x.ndim > 2:
        return _finding("ValueError", "value error",
                        f"{name} expects a 2D array; {x_name} has shape {tuple(x.shape)}")
    return None


def _first_string(x: Any) -> str | None:
    if is_frame(x):
        for col in x.columns[x.dtypes == object][:50]:
            for value in x[col].dropna().iloc[:200]:
                if text_value(value) and not _floaty(value):
                    return value
        return None
    if is_ndarray(x) and x.dtype.kind in "OU":
        for value in x.ravel()[:2000]:
            if text_value(value) and not _floaty(value):
                return value
    return None


def _floaty(text: str) -> bool:
    try:
        float(text)
        return True
    except ValueError:
        return False


def _has_nan(x: Any) -> bool:
    if size_of_array(x, _MAX_SCAN + 1) > _MAX_SCAN:
        return False
    if is_frame(x):
        numeric = x.select_dtypes("number")
        return bool(numeric.isna().to_numpy().any())
    if is_ndarray(x) and x.dtype.kind == "f":
        import numpy as np  # numpy is loaded: x is an ndarray
        return bool(np.isnan(x).any())
    return False


def _check_values(est: Any, x: Any, x_name: str) -> Finding | None:
    if _is_meta(est) or not (is_frame(x) or is_ndarray(x)):
        return None
    tags = _tags(est)
    if tags is None:
        return None
    inputs = tags.input_tags
    if _numeric_only(est, tags) and (is_frame(x) or is_ndarray(x)):
        if size_of_array(x, _MAX_SCAN + 1) <= _MAX_SCAN:
            text = _first_string(x)
            if text is not None:
                return _finding("ValueError", "value error",
                                f"could not convert string to float: {text!r}: {x_name} "
                                f"holds text that {type(est).__name__} cannot take",
                                (f"{x_name}: {describe_value(x)}",))
    if not inputs.allow_nan and _has_nan(x):
        where = nan_where(x)
        return _finding("ValueError", "value error",
                        f"Input X contains NaN: {x_name} has missing values"
                        f"{f' ({where})' if where else ''} and "
                        f"{type(est).__name__} does not accept NaN",
                        (f"{x_name}: {describe_value(x)}",))
    if not inputs.allow_nan and _has_inf(x):
        return _finding("ValueError", "value error",
                        f"Input X contains infinity: {x_name} has infinite values (a "
                        f"division by zero?) and {type(est).__name__} does not accept them",
                        (f"{x_name}: {describe_value(x)}",))
    return None


#: Estimators that take text or labels whatever their tags say: imputers with the
#: most_frequent/constant strategies, dummies, label encoders, vectorizers, encoders.
_TAKES_TEXT = ("SimpleImputer", "MissingIndicator", "Dummy", "LabelEncoder", "LabelBinarizer",
               "MultiLabelBinarizer", "FunctionTransformer", "CountVectorizer",
               "TfidfVectorizer", "HashingVectorizer", "DictVectorizer", "FeatureHasher",
               "TargetEncoder", "OneHotEncoder", "OrdinalEncoder", "ColumnTransformer",
               "FeatureUnion", "Pipeline", "GridSearchCV", "RandomizedSearchCV")


def _numeric_only(est: Any, tags: Any) -> bool:
    """The estimator converts X to numbers: text in X is a certain ValueError."""
    inputs = tags.input_tags
    return not (inputs.string or inputs.categorical or inputs.dict) and not type(
        est).__name__.startswith(_TAKES_TEXT) and not _is_meta(est)


def _imputer_text(est: Any, x: Any, x_name: str) -> Finding | None:
    """SimpleImputer's mean/median strategy on a column of text."""
    if type(est).__name__ != "SimpleImputer" or not type(est).__module__.startswith(
            "sklearn") or vars(est).get("strategy") not in ("mean", "median"):
        return None
    if not (is_frame(x) or is_ndarray(x)) or size_of_array(x, _MAX_SCAN + 1) > _MAX_SCAN:
        return None
    text = _first_string(x)
    if text is None:
        return None
    return _finding("ValueError", "value error",
                    f"Cannot use {vars(est)['strategy']} strategy with non-numeric data: "
                    f"{x_name} holds text such as {text!r} (use strategy='most_frequent' or "
                    f"'constant')", (f"{x_name}: {describe_value(x)}",))


def _has_inf(x: Any) -> bool:
    if size_of_array(x, _MAX_SCAN + 1) > _MAX_SCAN:
        return False
    import numpy as np  # numpy is loaded: x is an ndarray or a DataFrame
    if is_frame(x):
        numeric = x.select_dtypes("number").to_numpy(dtype=float, na_value=np.nan)
        return bool(np.isinf(numeric).any())
    if is_ndarray(x) and x.dtype.kind == "f":
        return bool(np.isinf(x).any())
    return False


def _check_fit(site: CallSite, est: Any) -> Finding | None:
    x, y, x_name, y_name = _x_and_y(site)
    found = _imputer_text(est, x, x_name)
    if found is not None:
        return found
    if is_abstract(x, "ndarray") and x.shape:
        n_y = _sample_count(y)
        if n_y is not None and n_y != x.shape[0]:
            return _finding("ValueError", "value error",
                            f"Found input variables with inconsistent numbers of samples: "
                            f"{x_name} has {x.shape[0]} rows, {y_name} has {n_y}")
        found = _check_abstract(est, x, x_name, None)
        if found is not None:
            return found
    if type(est).__name__ in ("LabelEncoder", "LabelBinarizer") and is_known(x) and (
            is_frame(x) or is_ndarray(x)) and x.ndim == 2 and x.shape[1] != 1:
        return _finding("ValueError", "value error",
                        f"y should be a 1d array, got an array of shape {tuple(x.shape)} "
                        f"instead: {type(est).__name__} encodes one column at a time")
    if is_known(x) and is_known(y) and (is_frame(x) or is_ndarray(x)) and (
            is_series(y) or is_ndarray(y) or is_frame(y)):
        if len(x) != len(y):
            return _finding("ValueError", "value error",
                            f"Found input variables with inconsistent numbers of samples: "
                            f"{x_name} has {len(x)} rows, {y_name} has {len(y)}")
    if is_known(x):
        found = _check_values(est, x, x_name)
        if found is not None:
            return found
        if (is_frame(x) or is_ndarray(x)) and x.ndim == 1 and not _is_meta(est):
            tags = _tags(est)
            if tags is not None and tags.input_tags.two_d_array and not \
                    tags.input_tags.one_d_array:
                return _finding("ValueError", "value error",
                                f"Expected 2D array, got 1D array instead: {x_name} has shape "
                                f"{tuple(x.shape)}")
    if is_known(y) and (is_series(y) or is_ndarray(y)) and _is_classifier(est):
        return _continuous_labels(est, y, y_name)
    if is_known(y) and (is_series(y) or is_ndarray(y)) and _is_regressor(est):
        return _text_targets(est, y, y_name)
    return None


# Regressors whose fit never converts y to float (a neighbours average of labels), and
# those whose error on a numpy str_ array is a TypeError rather than the ValueError of
# the float conversion.
_NO_Y_CHECK = ("KNeighborsRegressor", "RadiusNeighborsRegressor")
_STR_ARRAY_TYPEERROR = ("BayesianRidge", "HuberRegressor", "MLPRegressor",
                        "OrthogonalMatchingPursuitCV", "QuantileRegressor")


def _is_regressor(est: Any) -> bool:
    tags = _tags(est)
    return tags is not None and getattr(tags, "estimator_type", None) == "regressor" and \
        not _is_meta(est) and type(est).__module__.startswith("sklearn") and \
        type(est).__name__ not in _NO_Y_CHECK


def _text_targets(est: Any, y: Any, y_name: str) -> Finding | None:
    """A regressor fitted on text labels: y cannot be converted to float."""
    if attr_or(y, "ndim", 1) != 1 or size_of_array(y, 0) > _MAX_SCAN:
        return None
    values = y.to_numpy() if is_series(y) else y
    dtype = attr_or(values, "dtype", None) if is_ndarray(values) else None
    kind = dtype.kind if dtype is not None else None
    if kind not in ("O", "U") or (kind == "U" and type(est).__name__ in _STR_ARRAY_TYPEERROR):
        return None
    if kind == "U" and type(est).__name__.startswith("MultiTask"):
        return None
    text = _first_string(values)
    if text is None:
        return None
    return _finding("ValueError", "value error",
                    f"could not convert string to float: {text!r}: {type(est).__name__} is a "
                    f"regressor and {y_name} holds text labels",
                    (f"{y_name}: {describe_value(y)}",))


def split_result(site: CallSite, result: Any) -> Any:
    """``train_test_split(*arrays)`` returns two splits per array, whatever the randomness."""
    if is_known(result) or site.starred or not site.args or site.method not in (
            None, "train_test_split"):
        return None
    if meta_attr(site.func, "__name__") != "train_test_split" or not str(
            meta_attr(site.func, "__module__") or "").startswith("sklearn"):
        return None
    return SizedUnknown(2 * len(site.args))


def _is_classifier(est: Any) -> bool:
    tags = _tags(est)
    return tags is not None and getattr(tags, "estimator_type", None) == "classifier" and \
        not _is_meta(est)


def _continuous_labels(est: Any, y: Any, y_name: str) -> Finding | None:
    if y.dtype.kind != "f" or size_of_array(y, 0) > _MAX_SCAN or attr_or(y, "ndim", 1) != 1:
        return None
    values = y.to_numpy() if is_series(y) else y
    import numpy as np  # numpy is loaded: values is an ndarray
    finite = values[~np.isnan(values)]
    if finite.size and not np.all(np.mod(finite, 1) == 0):
        return _finding("ValueError", "value error",
                        f"Unknown label type: continuous: {type(est).__name__} is a "
                        f"classifier and {y_name} holds non-integer floats "
                        f"(e.g. {float(finite[np.mod(finite, 1) != 0][0])!r})")
    return None


def record_fit(site: CallSite, result: Any) -> Any:
    """After ``est.fit(X, ...)``: remember what the estimator was fitted on."""
    est, method = site.receiver, site.method
    if method not in _FIT_METHODS or not is_known(est) or not is_estimator(est):
        return None
    x, _, _, _ = _x_and_y(site)
    if _encoder(est) == "LabelEncoder" and not site.walker.uncertain and not site.starred:
        # its fit takes labels, 1-D: what it saw is kept for its transform
        labels = is_known(x) and (is_series(x) or is_ndarray(x)) and x.ndim == 1
        site.walker.fitted[id(est)] = FitState(estimator=est, n_features=None,
                                               feature_names=None, known=bool(labels),
                                               data=(x, None) if labels else None)
        return est if method == "fit" else None
    # A fit on a path that may not run says nothing about the estimator's state.
    if is_abstract(x, "ndarray") and x.shape is not None and len(x.shape) == 2 and not \
            site.walker.uncertain and not site.starred:
        site.walker.fitted[id(est)] = FitState(estimator=est, n_features=x.shape[1],
                                               feature_names=None, known=True)
        return est if method == "fit" else None
    known = not site.walker.uncertain and not site.starred and is_known(x) and (
        is_frame(x) or is_ndarray(x)) and x.ndim == 2
    names = None
    if known and is_frame(x) and all(isinstance(c, str) for c in x.columns):
        names = tuple(x.columns)
    _, y, _, _ = _x_and_y(site)
    labels = y if is_known(y) and (is_series(y) or is_ndarray(y)) else None
    data = (x, labels) if known and (labels is not None or y is UNKNOWN and len(
        site.args) < 2 and "y" not in site.kwargs) else None
    site.walker.fitted[id(est)] = FitState(
        estimator=est, n_features=int(x.shape[1]) if known else None, feature_names=names,
        known=bool(known), data=data)
    return est if method == "fit" else None
