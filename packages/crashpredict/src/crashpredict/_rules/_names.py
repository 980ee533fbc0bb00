"""Rules on names and attributes: undefined names, missing and removed attributes."""

from __future__ import annotations

import inspect
import sys
import types
from typing import Any

from ._finding import Finding
from ._values import (
    _getattr_hook,
    is_estimator,
    is_frame,
    is_keras_model,
    is_series,
    library_of,
    static_lookup,
    type_root,
)
from ._walk._types import Walker

__all__ = ["undefined_name", "missing_attribute", "removed_attribute", "removed_from_class",
           "REMOVED"]

# (library root, type name or "module:<name>", attribute) -> advice. Used only to explain
# an attribute that is already absent, so no version check is needed.
REMOVED: dict[tuple[str, str, str], str] = {
    ("pandas", "DataFrame", "append"): "DataFrame.append was removed in pandas 2.0; use "
                                       "pd.concat([df, other])",
    ("pandas", "Series", "append"): "Series.append was removed in pandas 2.0; use pd.concat",
    ("pandas", "DataFrame", "iteritems"): "DataFrame.iteritems was removed in pandas 2.0; "
                                          "use .items()",
    ("pandas", "Series", "iteritems"): "Series.iteritems was removed in pandas 2.0; use "
                                       ".items()",
    ("pandas", "DataFrame", "ix"): ".ix was removed in pandas 1.0; use .loc or .iloc",
    ("pandas", "DataFrame", "as_matrix"): "as_matrix was removed; use .to_numpy()",
    ("pandas", "DataFrame", "get_value"): "get_value was removed; use .at",
    ("pandas", "module:pandas", "scatter_matrix"): "use pandas.plotting.scatter_matrix",
    ("keras", "*", "predict_classes"): "Sequential.predict_classes was removed in "
               "TensorFlow 2.6; use np.argmax(model.predict(x), axis=-1)",
    ("keras", "*", "predict_proba"): "predict_proba was removed from Keras models; use "
                                     "model.predict(x)",
    ("keras", "*", "fit_generator"): "fit_generator was removed; model.fit accepts "
                                     "generators",
    ("keras", "*", "evaluate_generator"): "evaluate_generator was removed; use evaluate",
    ("keras", "*", "predict_generator"): "predict_generator was removed; use predict",
    ("numpy", "module:numpy", "float"): "np.float was removed in NumPy 1.24; use float",
    ("numpy", "module:numpy", "int"): "np.int was removed in NumPy 1.24; use int",
    ("numpy", "module:numpy", "bool"): "np.bool was removed in NumPy 1.24; use bool",
    ("numpy", "module:numpy", "object"): "np.object was removed in NumPy 1.24; use object",
    ("numpy", "module:numpy", "str"): "np.str was removed in NumPy 1.24; use str",
    ("numpy", "module:numpy", "long"): "np.long was removed; use int",
    ("numpy", "module:numpy", "NaN"): "np.NaN was removed in NumPy 2.0; use np.nan",
    ("numpy", "module:numpy", "Inf"): "np.Inf was removed in NumPy 2.0; use np.inf",
    ("numpy", "module:numpy", "asscalar"): "np.asscalar was removed; use a.item()",
    ("numpy", "module:numpy", "product"): "np.product was removed in NumPy 2.0; use np.prod",
    ("numpy", "module:numpy", "in1d"): "np.in1d was removed; use np.isin",
    ("numpy", "module:numpy", "trapz"): "np.trapz was removed; use np.trapezoid",
    ("sklearn", "*", "get_feature_names"): "get_feature_names was removed in scikit-learn "
                                           "1.2; use get_feature_names_out()",
}


def undefined_name(name: str, walker: Walker) -> Finding | None:
    """A name the cell reads that nothing defined: in the cell, the session or builtins."""
    free = walker.free_names()
    if free is not None and name not in free:
        return None  # nbdeps sees a binding the walker does not model
    return Finding(
        exception="NameError", crash_type="variable not found", library="NBspecific",
        explanation=f"name '{name}' is not defined: no executed cell and no earlier line "
                    f"of this cell assigns it",
        evidence=(f"'{name}' is absent from the kernel namespace",), confidence=0.97,
        rule="undefined-name")


def removed_from_class(cls: type, name: str) -> str | None:
    """The advice for ``name`` when ``cls`` (a library's class) lacks it because its library
    removed it (`REMOVED`), with no attribute hook that could supply it; else None."""
    if not isinstance(cls, type) or _getattr_hook(cls):
        return None
    try:
        inspect.getattr_static(cls, name)
        return None
    except AttributeError:
        pass
    root = str(type.__getattribute__(cls, "__module__") or "").partition(".")[0]
    lib = "keras" if root in ("keras", "tf_keras", "tensorflow") else root
    for (rlib, rtype, attr), advice in REMOVED.items():
        if attr == name and rlib == lib and rtype in ("*", cls.__name__):
            return advice
    return None


def _removed_advice(obj: Any, name: str) -> str | None:
    root = type_root(obj)
    lib = "keras" if root in ("keras", "tf_keras", "tensorflow") else root
    tname = f"module:{obj.__name__}" if isinstance(obj, types.ModuleType) else type(obj).__name__
    for (rlib, rtype, attr), advice in REMOVED.items():
        if attr != name or rlib != lib:
            continue
        if rtype in ("*", tname) or (rtype == "DataFrame" and is_frame(obj)) or (
                rtype == "Series" and is_series(obj)):
            return advice
    return None


def missing_attribute(obj: Any, name: str, walker: Walker) -> Finding | None:
    """``obj.name`` where the live object certainly has no such attribute."""
    if static_lookup(obj, name) is not False:
        return None
    if walker.modules_changed and (isinstance(obj, types.ModuleType) or
                                   library_of(obj) == "pandas"):
        return None  # an import earlier in the cell may add submodules or accessors
    library = library_of(obj)
    owner = f"module '{obj.__name__}'" if isinstance(obj, types.ModuleType) else (
        f"type object '{obj.__name__}'" if isinstance(obj, type) else
        f"'{type(obj).__module__}.{type(obj).__name__}' object"
        if type(obj).__module__ == "numpy" else f"'{type(obj).__name__}' object")
    crash_type = "attribute error"
    advice = _removed_advice(obj, name)
    extra = f" ({advice})" if advice else ""
    evidence = [f"type: {type(obj).__module__}.{type(obj).__qualname__}"]
    if is_estimator(obj) and name.endswith("_") and not name.startswith("_"):
        fitted = _estimator_fitted(obj, walker)
        if fitted is None:
            return None
        if fitted is False:
            crash_type = "NotFitted"
            extra = f" ({type(obj).__name__} is not fitted yet: {name} is set by fit())"
        else:
            similar = sorted(k for k in vars(obj) if k.endswith("_") and not k.startswith("_"))
            extra = f" (the fitted {type(obj).__name__} has {', '.join(similar[:6])})"
    if is_estimator(obj) and walker.fit_state(obj) is not None and not advice:
        return None  # fitted in this cell: fitted attributes will exist (a removed method
        # will not)
    if is_frame(obj) and not extra:
        extra = f" (and '{name}' is not a column)"
    if is_keras_model(obj) and not extra:
        extra = f" ({type(obj).__name__} has no method or attribute '{name}')"
    return Finding(
        exception="AttributeError", crash_type=crash_type, library=library,
        explanation=f"{owner} has no attribute '{name}'{extra}",
        evidence=tuple(evidence), confidence=0.96, rule="missing-attribute")


def removed_attribute(obj: Any, name: str, walker: Walker) -> Finding | None:
    """``obj.name`` on a live object a call earlier in the cell may have changed
    (``model.fit(...)`` then ``model.predict_classes(...)``): what it holds is unknown, its
    class is not. Only a name its library removed counts (`REMOVED`): no call puts one of
    those back on an instance, as ``fit`` puts ``coef_``. The class must lack it and
    customise no attribute lookup."""
    cls = type(obj)
    advice = removed_from_class(cls, name)
    if advice is None:
        return None
    subject = walker.subject or "the object"
    return Finding(
        exception="AttributeError", crash_type="attribute error", library=library_of(obj),
        explanation=f"'{cls.__name__}' object has no attribute '{name}' ({advice})",
        evidence=(f"type: {cls.__module__}.{cls.__qualname__}",
                  f"{subject} may have changed earlier in the cell; its class has not"),
        confidence=0.96, rule="removed-attribute")


def _estimator_fitted(obj: Any, walker: Walker) -> bool | None:
    validation = sys.modules.get("sklearn.utils.validation")
    check = getattr(validation, "check_is_fitted", None)
    if check is None:
        return None
    try:
        check(obj)
        return True
    except Exception as exc:
        return False if type(exc).__name__ == "NotFittedError" else None
