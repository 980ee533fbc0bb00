"""scikit-learn: renamed arguments, removed arguments and moved modules."""

from __future__ import annotations

import re

import libcst as cst

from ._base import Rule, RuleTransformer, dotted, kwarg, qualified, rename_kwarg, without

_MOVED = {"sklearn.cross_validation": "sklearn.model_selection",
          "sklearn.grid_search": "sklearn.model_selection",
          "sklearn.learning_curve": "sklearn.model_selection"}
_ESTIMATOR_OWNERS = {"AdaBoostClassifier", "AdaBoostRegressor", "BaggingClassifier",
                     "BaggingRegressor", "CalibratedClassifierCV", "RANSACRegressor"}


def _sklearn_call(call: cst.Call, aliases, *names: str) -> bool:
    name = qualified(call.func, aliases) or ""
    return name.startswith("sklearn.") and name.rsplit(".", 1)[-1] in names


class _OneHotSparse(RuleTransformer):
    def leave_Call(self, original: cst.Call, updated: cst.Call):
        if _sklearn_call(updated, self.scope.aliases, "OneHotEncoder") and kwarg(updated, "sparse"):
            return self.mark(rename_kwarg(updated, "sparse", "sparse_output"))
        return updated


class _Rmse(RuleTransformer):
    """``mean_squared_error(a, b, squared=False)`` -> ``root_mean_squared_error(a, b)``."""

    def __init__(self, scope) -> None:
        super().__init__(scope)
        self.needs_name = False

    def leave_Call(self, original: cst.Call, updated: cst.Call):
        if not _sklearn_call(updated, self.scope.aliases, "mean_squared_error"):
            return updated
        squared = kwarg(updated, "squared")
        if squared is None:
            return updated
        args = without(updated, "squared")
        if isinstance(squared.value, cst.Name) and squared.value.value == "True":
            return self.mark(updated.with_changes(args=args))
        func = updated.func
        if isinstance(func, cst.Attribute):
            new_func: cst.BaseExpression = func.with_changes(attr=cst.Name("root_mean_squared_error"))
        else:
            new_func = cst.Name("root_mean_squared_error")
            self.needs_name = "root_mean_squared_error" not in self.scope.aliases
        return self.mark(updated.with_changes(func=new_func, args=args))

    def leave_Module(self, original: cst.Module, updated: cst.Module):
        if self.needs_name:
            line = "from sklearn.metrics import root_mean_squared_error"
            if line not in self.scope.imports:
                self.scope.imports.append(line)
        return updated


class _MovedModules(RuleTransformer):
    def leave_ImportFrom(self, original: cst.ImportFrom, updated: cst.ImportFrom):
        module = dotted(updated.module) if updated.module is not None else None
        if module in _MOVED:
            return self.mark(updated.with_changes(module=cst.parse_expression(_MOVED[module])))
        return updated

    def leave_SimpleStatementLine(self, original, updated):
        # ``from sklearn.externals import joblib`` -> ``import joblib``
        body = updated.body
        if (len(body) == 1 and isinstance(body[0], cst.ImportFrom) and body[0].module is not None
                and dotted(body[0].module) == "sklearn.externals"
                and not isinstance(body[0].names, cst.ImportStar)
                and [dotted(a.name) for a in body[0].names] == ["joblib"]):
            asname = body[0].names[0].asname
            alias = cst.ImportAlias(name=cst.Name("joblib"), asname=asname)
            return self.mark(updated.with_changes(body=[cst.Import(names=[alias])]))
        return updated

    def leave_Attribute(self, original: cst.Attribute, updated: cst.Attribute):
        text = dotted(updated)
        if text is not None:
            full = qualified(updated, self.scope.aliases)
            if full in _MOVED and text == full:  # ``sklearn.cross_validation.KFold``
                return self.mark(cst.parse_expression(_MOVED[full]))
        return updated


class _EstimatorParam(RuleTransformer):
    def leave_Call(self, original: cst.Call, updated: cst.Call):
        if (_sklearn_call(updated, self.scope.aliases, *_ESTIMATOR_OWNERS)
                and kwarg(updated, "base_estimator") and not kwarg(updated, "estimator")):
            return self.mark(rename_kwarg(updated, "base_estimator", "estimator"))
        return updated


class _TsneIter(RuleTransformer):
    def leave_Call(self, original: cst.Call, updated: cst.Call):
        if (_sklearn_call(updated, self.scope.aliases, "TSNE") and kwarg(updated, "n_iter")
                and not kwarg(updated, "max_iter")):
            return self.mark(rename_kwarg(updated, "n_iter", "max_iter"))
        return updated


RULES = (
    Rule(id="sklearn-onehot-sparse", library="scikit-learn",
         hint=re.compile(r"\bsparse\s*="),
         rewrites="OneHotEncoder(sparse=...) -> OneHotEncoder(sparse_output=...)",
         applies="static: a call of sklearn's OneHotEncoder with sparse= (removed in 1.4)",
         make=_OneHotSparse, example=("e = OneHotEncoder(sparse=False)",
                                      "e = OneHotEncoder(sparse_output=False)")),
    Rule(id="sklearn-rmse", library="scikit-learn",
         hint=re.compile(r"\bsquared\s*="),
         rewrites="mean_squared_error(a, b, squared=False) -> root_mean_squared_error(a, b) "
                  "(and its import); squared=True is dropped",
         applies="static: sklearn's mean_squared_error called with squared= (removed in 1.6)",
         make=_Rmse, example=("r = mean_squared_error(y, p, squared=False)",
                              "r = root_mean_squared_error(y, p)")),
    Rule(id="sklearn-moved-modules", library="scikit-learn",
         hint=re.compile(r"cross_validation|grid_search|learning_curve|externals"),
         rewrites="sklearn.cross_validation / grid_search / learning_curve -> "
                  "sklearn.model_selection; from sklearn.externals import joblib -> import joblib",
         applies="static: imports of the removed modules (removed in 0.20-0.23)",
         make=_MovedModules, example=("from sklearn.cross_validation import train_test_split",
                                      "from sklearn.model_selection import train_test_split")),
    Rule(id="sklearn-estimator-param", library="scikit-learn",
         hint=re.compile(r"base_estimator"),
         rewrites="AdaBoost*/Bagging*/CalibratedClassifierCV/RANSACRegressor(base_estimator=) "
                  "-> estimator=",
         applies="static: those sklearn estimators called with base_estimator= (removed in 1.4)",
         make=_EstimatorParam, example=("m = AdaBoostClassifier(base_estimator=t)",
                                        "m = AdaBoostClassifier(estimator=t)")),
    Rule(id="sklearn-tsne-max-iter", library="scikit-learn",
         hint=re.compile(r"\bn_iter\s*="),
         rewrites="TSNE(n_iter=...) -> TSNE(max_iter=...)",
         applies="static: sklearn's TSNE called with n_iter= (removed in 1.7)",
         make=_TsneIter, example=("t = TSNE(n_iter=250)", "t = TSNE(max_iter=250)")),
)
