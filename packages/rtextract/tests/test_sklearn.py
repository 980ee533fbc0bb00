"""scikit-learn: estimators, Pipelines and ColumnTransformers, fitted and unfitted."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

pytest.importorskip("sklearn")
from sklearn.base import BaseEstimator, ClassifierMixin  # noqa: E402
from sklearn.compose import ColumnTransformer  # noqa: E402
from sklearn.linear_model import LogisticRegression  # noqa: E402
from sklearn.model_selection import GridSearchCV  # noqa: E402
from sklearn.pipeline import Pipeline  # noqa: E402
from sklearn.preprocessing import LabelEncoder, OneHotEncoder, StandardScaler  # noqa: E402

import rtextract  # noqa: E402

# These tests check what the facts say. A loaded CI machine can spend the default
# 30 ms budget on a library's first-use costs (lazy imports), cutting the
# facts short; the budget itself is tested in test_numpy_pandas and test_hostile.
BIG = 10_000.0


def describe(obj, **options):
    return rtextract.describe(obj, **{"budget_ms": BIG, **options})


@pytest.fixture(scope="module")
def data():
    X = pd.DataFrame({"age": [20.0, 30, 40, 50, 60, 70], "city": list("abcabc")})
    y = np.array([0, 1, 0, 1, 0, 1])
    return X, y


def _pipeline():
    pre = ColumnTransformer([("num", StandardScaler(), ["age"]),
                             ("cat", OneHotEncoder(handle_unknown="ignore"), ["city"])])
    return Pipeline([("pre", pre), ("clf", LogisticRegression(C=0.5))])


def test_unfitted_pipeline(check_facts):
    facts = describe(_pipeline())
    check_facts(facts)
    assert facts.kind == "sklearn.estimator"
    assert facts.get("fitted") is False
    assert facts.get("steps") == [["pre", "ColumnTransformer"], ["clf", "LogisticRegression"]]
    pre = facts.child("pre")
    assert pre.get("fitted") is False
    assert pre.get("transformers") == [["num", "StandardScaler", ["age"]],
                                       ["cat", "OneHotEncoder", ["city"]]]
    assert facts.child("clf").get("params") == {"C": 0.5}
    assert facts.child("clf").get("n_features_in_") is None


def test_fitted_pipeline(data, check_facts, attribute_ids):
    X, y = data
    pipe = _pipeline().fit(X, y)
    before = [attribute_ids(step) for _, step in pipe.steps]
    facts = describe(pipe)
    assert [attribute_ids(step) for _, step in pipe.steps] == before
    check_facts(facts)
    assert facts.get("fitted") is True
    assert facts.get("n_features_in_") == 2  # the pipeline expects what its first step saw
    pre = facts.child("pre")
    assert pre.get("fitted") is True
    assert pre.get("n_features_in_") == 2
    assert pre.get("feature_names_in_") == ["age", "city"]
    assert [row[0] for row in pre.get("transformers")][:2] == ["num", "cat"]
    assert pre.fact("transformers").note == "fitted"
    clf = facts.child("clf")
    assert (clf.get("classes_"), clf.get("n_classes"), clf.get("n_features_in_")) == ([0, 1], 2, 4)
    assert clf.get("estimator_type") == "classifier"


def test_encoders_and_scalers(data, check_facts):
    X, y = data
    enc = OneHotEncoder().fit(X[["city"]])
    facts = describe(enc)
    check_facts(facts)
    assert facts.get("categories_") == [["a", "b", "c"]]
    assert facts.get("n_categories") == [3]
    scaler = describe(StandardScaler().fit(X[["age"]]))
    assert scaler.get("fitted_attributes")["mean_"] == {"shape": [1], "dtype": "float64"}
    labels = describe(LabelEncoder().fit(["cat", "dog", "cat"]))
    assert labels.get("classes_") == ["cat", "dog"]


def test_search_cv(data, check_facts):
    X, y = data
    search = GridSearchCV(LogisticRegression(), {"C": [0.1, 1.0]}, cv=2)
    facts = describe(search)
    check_facts(facts)
    assert facts.child("estimator").get("class") == "LogisticRegression"
    search.fit(X[["age"]], y)
    fitted = describe(search)
    assert fitted.get("best_params_") in ({"C": 0.1}, {"C": 1.0})
    assert fitted.child("best_estimator_").get("fitted") is True


class Watched(ClassifierMixin, BaseEstimator):
    calls: list[str] = []

    def __init__(self, depth=3):
        self.depth = depth

    def __sklearn_is_fitted__(self):
        Watched.calls.append("is_fitted")
        return True

    @property
    def expensive_(self):
        Watched.calls.append("property")
        raise RuntimeError("never read this")


def test_custom_estimator_code_is_not_run(check_facts):
    Watched.calls.clear()
    facts = describe(Watched(depth=5))
    check_facts(facts)
    assert Watched.calls == []
    assert facts.get("params") == {"depth": 5}
    assert facts.get("fitted") is False
