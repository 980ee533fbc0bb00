"""Adapter for scikit-learn estimators, Pipelines, ColumnTransformers and meta-estimators.

Fitted state is read the way ``check_is_fitted`` does (instance attributes ending in "_"),
from ``dict_of(est)``, so no ``__sklearn_is_fitted__`` or property of a user estimator runs.
"""

from __future__ import annotations

import inspect
import math
import sys
import types
from typing import Any

from rtextract._builder import Builder, brief, dict_of, jsonable, short_name, type_name
from rtextract._mapped import unreadable_memory
from rtextract._views import library_class

__all__ = ["describe", "is_fitted"]

_HEADLINE = ("n_features_in_", "feature_names_in_", "classes_", "n_outputs_", "categories_")
_NESTED = ("steps", "transformers", "transformer_list", "estimators")


def describe(obj: Any, b: Builder) -> bool:
    base = sys.modules.get("sklearn.base")
    if base is None or not issubclass(type(obj), base.BaseEstimator):
        return False
    b.kind = "sklearn.estimator"
    b.add("class", short_name(type(obj)), "R")
    b.step("estimator type", _estimator_type, obj, b)
    b.add("fitted", is_fitted(obj), "V")
    b.step("params", _params, obj, b)
    b.step("fitted attributes", _fitted_attributes, obj, b)
    b.step("structure", _structure, obj, b)
    return True


def is_fitted(est: Any) -> bool:
    """Whether ``est`` looks fitted: a Pipeline by its last step, others by ``vars``."""
    steps = dict_of(est).get("steps")
    if short_name(type(est)) == "Pipeline" and type(steps) is list and steps:
        for entry in reversed(steps):
            step = _step_of(entry)
            if not _skipped_step(step):
                return is_fitted(step)
        return True
    return any(k.endswith("_") and not k.startswith("__") for k in dict_of(est))


def _estimator_type(est: Any, b: Builder) -> None:
    kind = _kind(est, 0)
    if kind is not None:
        b.add("estimator_type", kind, "R")


def _kind(est: Any, depth: int) -> str | None:
    """The estimator type from class attributes, sklearn's own tags, or the mixins.

    A meta-estimator (Pipeline, SearchCV) takes its inner estimator's type, read here from
    its state, since sklearn's tags would ask the inner (possibly user) estimator's code.
    """
    for klass in _mro(type(est)):
        value = type.__getattribute__(klass, "__dict__").get("_estimator_type")
        if type(value) is str:
            return value
    state = dict_of(est)
    inner = _inner(state)
    if inner is not None:
        return _kind(inner, depth + 1) if depth < 5 else None
    if _own_tags(type(est)):
        return est.__sklearn_tags__().estimator_type
    # a user estimator: its tags are user code; its mixins say the same
    return next((_MIXIN_TYPES[short_name(k)] for k in _mro(type(est))
                 if short_name(k) in _MIXIN_TYPES and library_class(k)), None)


def _mro(tp: type) -> tuple[type, ...]:
    return type.__getattribute__(tp, "__mro__")


def _step_of(entry: Any) -> Any:
    """The estimator of a ``(name, estimator)`` pipeline entry (None when not one)."""
    return entry[1] if type(entry) is tuple and len(entry) >= 2 else None


def _skipped_step(step: Any) -> bool:
    # identity and exact types: `step in (None, "passthrough")` would call step.__eq__
    return step is None or type(step) is str and step in ("passthrough", "drop")


def _inner(state: dict[str, Any]) -> Any:
    steps = state.get("steps")
    if type(steps) is list and steps:
        last = steps[-1]
        return last[1] if type(last) is tuple and len(last) == 2 and not _is_str_or_none(last[1]) else None
    for key in ("best_estimator_", "estimator", "base_estimator"):
        inner = state.get(key)
        base = sys.modules["sklearn.base"]
        if issubclass(type(inner), base.BaseEstimator):
            return inner
    return None


def _is_str_or_none(value: Any) -> bool:
    return value is None or type(value) is str


_MIXIN_TYPES = {"ClassifierMixin": "classifier", "RegressorMixin": "regressor",
                "ClusterMixin": "clusterer", "OutlierMixin": "outlier_detector",
                "DensityMixin": "density_estimator", "TransformerMixin": "transformer"}


def _own_tags(tp: type) -> bool:
    """True when ``__sklearn_tags__`` exists and only sklearn's own classes define it."""
    definers = [k for k in _mro(tp) if "__sklearn_tags__" in type.__getattribute__(k, "__dict__")]
    return bool(definers) and library_class(tp) and all(library_class(k) for k in definers)


def _params(est: Any, b: Builder) -> None:
    init = next((type.__getattribute__(k, "__dict__")["__init__"] for k in _mro(type(est))
                 if "__init__" in type.__getattribute__(k, "__dict__")), None)
    if type(init) is not types.FunctionType or not _plain_signature(init):
        return  # object.__init__, or a wrapped __init__ whose signature is the wrapper's
    defaults = {
        name: p.default for name, p in inspect.signature(init).parameters.items()
        if p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD) and name != "self"
    }
    state = dict_of(est)
    changed: dict[str, Any] = {}
    for name, default in defaults.items():
        if name in _NESTED or name not in state:
            continue
        value = state[name]
        if not _same(value, default):
            changed[name] = _param_value(value)
    if changed:
        b.add("params", dict(sorted(changed.items())), "R", "non-default constructor parameters")


def _same(value: Any, default: Any) -> bool:
    if value is default:
        return True
    simple = (int, float, str, bool, type(None))
    if type(value) in simple and type(default) in simple:
        if type(value) is float and type(default) is float and math.isnan(value):
            return math.isnan(default)
        return type(value) is type(default) and value == default
    return False


def _param_value(value: Any) -> Any:
    base = sys.modules["sklearn.base"]
    if issubclass(type(value), base.BaseEstimator):
        return short_name(type(value))
    if type(value) in (types.FunctionType, types.BuiltinFunctionType):
        return value.__name__  # a C getter of these final types
    if issubclass(type(value), type):
        return short_name(value)
    return jsonable(value, max_items=10)


def _fitted_attributes(est: Any, b: Builder) -> None:
    state = dict_of(est)
    for name in _HEADLINE:
        if name in state:
            _headline(name, state[name], b)
    others = {}
    for name, value in state.items():
        if name.endswith("_") and not name.startswith("_") and name not in _HEADLINE:
            others[name] = _summary(value)
    if others:
        shown = dict(list(others.items())[: b.max_items])
        b.add("fitted_attributes", shown, "S",
              None if len(shown) == len(others) else f"first {len(shown)} of {len(others)}")


def _headline(name: str, value: Any, b: Builder) -> None:
    if name == "n_features_in_" or name == "n_outputs_":
        b.add(name, jsonable(value), "S")
        return
    arrays = value if type(value) is list and all(_is_array(v) for v in value) else None
    if not _is_array(value) and arrays is None and not (
            name == "feature_names_in_" and type(value) in (list, tuple)):
        b.note(f"{name}: not read: a {short_name(type(value))}, not a numpy array")
        return
    why = next((w for w in map(unreadable_memory, arrays or [value]) if w), None) \
        if arrays is not None or _is_array(value) else None
    if why is not None:  # an array over a truncated memmap (joblib's mmap_mode)
        b.note(f"{name}: {why}")
        return
    if name == "feature_names_in_":
        names = list(value)
        limit = b.max_items * 10  # KeyError / feature-mismatch checks need the names
        b.add(name, names[:limit], "R",
              None if len(names) <= limit else f"first {limit} of {len(names)}", max_items=limit)
    elif name == "classes_":
        if arrays is None:
            b.add("n_classes", int(len(value)), "S")
            b.add("classes_", value[: b.max_items].tolist(), "V",
                  None if len(value) <= b.max_items else f"first {b.max_items} of {len(value)}")
        else:  # multi-output: a list of arrays
            b.add("n_classes", [int(len(c)) for c in arrays], "S")
            b.add("classes_", [c[: b.max_items].tolist() for c in arrays], "V")
    elif name == "categories_" and arrays is not None:
        b.add("n_categories", [int(len(c)) for c in arrays], "S")
        b.add("categories_", [c[:10].tolist() for c in arrays[: b.max_items]], "V",
              "first 10 categories of each feature")


def _is_array(value: Any) -> bool:
    np = sys.modules.get("numpy")
    return np is not None and issubclass(type(value), np.ndarray) and library_class(type(value))


def _plain_signature(init: Any) -> bool:
    """No ``__wrapped__``/``__signature__`` that ``inspect.signature`` would follow."""
    attrs = init.__dict__
    return "__wrapped__" not in attrs and "__signature__" not in attrs


def _summary(value: Any) -> Any:
    if _is_array(value):
        return {"shape": list(value.shape), "dtype": str(value.dtype)}
    base = sys.modules["sklearn.base"]
    if issubclass(type(value), base.BaseEstimator):
        return type_name(type(value))
    if type(value) in (int, float, str, bool) or value is None:
        return jsonable(value)
    return brief(value)


def _structure(est: Any, b: Builder) -> None:
    state = dict_of(est)
    name = short_name(type(est))
    if type(state.get("steps")) is list:
        steps = [e for e in state["steps"] if type(e) is tuple and len(e) == 2]
        b.add("steps", [[jsonable(n), _step_name(s)] for n, s in steps], "R")
        b.add("n_steps", len(steps), "S")
        # what the pipeline expects is what its first real step was fitted on
        first = next((s for _, s in steps if not _skipped_step(s)), None)
        first_state = dict_of(first) if first is not None else {}
        for key in ("n_features_in_", "feature_names_in_"):
            if key in first_state:
                _headline(key, first_state[key], b)
        for step_name, step in steps:
            b.child(str(jsonable(step_name)), step)
    fitted_ct = state.get("transformers_")
    for key in ("transformers_", "transformers", "transformer_list"):
        items = state.get(key)
        if type(items) is list and (key != "transformers" or fitted_ct is None):
            items = [t for t in items if type(t) is tuple and len(t) >= 2]
            rows = [[jsonable(t[0]), _step_name(t[1])] +
                    ([jsonable(t[2], max_items=10)] if len(t) > 2 else []) for t in items]
            b.add("transformers", rows, "R", "fitted" if key == "transformers_" else None)
            for row in items:
                if not _skipped_step(row[1]):
                    b.child(str(jsonable(row[0])), row[1])
            break
    for key in ("best_estimator_", "estimator", "base_estimator", "final_estimator"):
        inner = state.get(key)
        base = sys.modules["sklearn.base"]
        if issubclass(type(inner), base.BaseEstimator):
            b.child(key, inner)
    if name.endswith("SearchCV") and "best_params_" in state:
        b.add("best_params_", jsonable(state["best_params_"]), "V")
        b.add("best_score_", jsonable(state.get("best_score_")), "V")


def _step_name(step: Any) -> str:
    return step if type(step) is str else "None" if step is None else short_name(type(step))
