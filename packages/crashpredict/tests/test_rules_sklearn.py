"""scikit-learn rules on real estimators: crashes and near misses."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from sklearn.ensemble import RandomForestClassifier
from sklearn.linear_model import LinearRegression, LogisticRegression
from sklearn.pipeline import make_pipeline
from sklearn.model_selection import train_test_split
from sklearn.preprocessing import LabelEncoder, OneHotEncoder, StandardScaler
from sklearn.svm import SVC

from crashpredict import predict

rng = np.random.default_rng(0)


def ns() -> dict:
    X = pd.DataFrame(rng.normal(size=(40, 3)), columns=["a", "b", "c"])
    y = (X["a"] > 0).astype(int)
    fitted = LogisticRegression().fit(X, y)
    arr_model = LinearRegression().fit(X.to_numpy(), y)
    svc = SVC().fit(X, y)
    return {
        "np": np, "pd": pd, "prep": lambda frame: frame, "X": X, "y": y, "model": fitted,
        "arr_model": arr_model,
        "svc": svc, "fresh": LinearRegression(), "forest": RandomForestClassifier(),
        "StandardScaler": StandardScaler, "LogisticRegression": LogisticRegression,
        "LabelEncoder": LabelEncoder, "train_test_split": train_test_split,
        "X_wide": np.ones((5, 259)), "X_text": X.assign(city=["x"] * 40),
        "X_nan": X.mask(X > 1.5), "y_short": y.iloc[:30], "y_cont": X["b"],
        "X_renamed": X.rename(columns={"c": "d"}),
        "pipe": make_pipeline(OneHotEncoder(handle_unknown="ignore"), LogisticRegression()),
    }


CRASHES = [
    ("predict before fit", "fresh.predict(X)", ("NotFittedError", "NotFitted")),
    ("fitted attribute before fit", "fresh.coef_", ("AttributeError", "NotFitted")),
    ("SVC has no feature_importances_", "imp = svc.feature_importances_",
     ("AttributeError", "attribute error")),
    ("feature count", "arr_model.predict(X_wide)", ("ValueError", "tensor shape mismatch")),
    ("feature names", "model.predict(X_renamed)", ("ValueError", "feature name mismatch")),
    ("fit in the cell, then other names",
     "scaler = StandardScaler()\ntrain = scaler.fit_transform(X)\ntest = "
     "scaler.transform(X_renamed)", ("ValueError", "feature name mismatch")),
    ("1-D input", "arr_model.predict(X['a'].to_numpy())", ("ValueError", "value error")),
    ("strings to fit", "LogisticRegression().fit(X_text, y)", ("ValueError", "value error")),
    ("NaN to fit", "LogisticRegression().fit(X_nan, y)", ("ValueError", "value error")),
    ("inconsistent samples", "forest.fit(X, y_short)", ("ValueError", "value error")),
    ("continuous labels to a classifier", "forest.fit(X, y_cont)",
     ("ValueError", "value error")),
    ("LabelEncoder on two columns", "LabelEncoder().fit_transform(X[['a', 'b']])",
     ("ValueError", "value error")),
    ("split of different lengths", "parts = train_test_split(X, y_short)",
     ("ValueError", "value error")),
]

NEAR_MISSES = [
    ("fitted in the cell", "fresh.fit(X, y)\nfresh.predict(X)"),
    ("fitted attribute after fit in the cell", "fresh.fit(X, y)\nfresh.coef_"),
    ("same features", "model.predict(X)"),
    ("X rebound by an unknown expression", "X_wide = prep(X_wide)\n"
                                           "arr_model.predict(X_wide)"),
    ("refit on the new data", "arr_model.fit(X_wide, np.ones(5))\narr_model.predict(X_wide)"),
    ("array to a model fitted on names warns only", "model.predict(X.to_numpy())"),
    ("pipeline that encodes text", "pipe.fit(X_text[['city']], y)"),
    ("fitted chain", "m = LogisticRegression().fit(X, y)\nm.predict(X)"),
    ("NaN-free subset", "LogisticRegression().fit(X, y)"),
    ("LabelEncoder on one column", "LabelEncoder().fit_transform(X['a'])"),
    ("split of equal lengths", "parts = train_test_split(X, y)"),
]


@pytest.mark.parametrize(("source", "expected"), [pytest.param(s, e, id=i) for i, s, e in CRASHES])
def test_sklearn_crash_is_predicted(source: str, expected: tuple) -> None:
    verdict = predict(source, ns())
    assert (verdict.crash, verdict.exception, verdict.crash_type, verdict.library) == (
        True, *expected, "sklearn"), verdict.explanation


@pytest.mark.parametrize("source", [pytest.param(s, id=i) for i, s in NEAR_MISSES])
def test_sklearn_near_miss_is_not_flagged(source: str) -> None:
    verdict = predict(source, ns())
    assert verdict.crash is False, verdict.explanation


def test_feature_count_explanation_names_both_counts() -> None:
    verdict = predict("arr_model.predict(X_wide)", ns())
    assert verdict.explanation == ("X_wide has 259 features (columns); LinearRegression was "
                                   "fitted on 3")


def test_feature_names_explanation_lists_the_differences() -> None:
    verdict = predict("model.predict(X_renamed)", ns())
    assert "unseen at fit time: ['d']" in verdict.explanation
    assert "missing: ['c']" in verdict.explanation


def test_a_shape_crash_of_a_sklearn_model_is_not_called_a_tensor_mismatch():
    """JunoBench's label stays on the verdict (benchmarks score it); the text a user reads
    names what scikit-learn has: arrays, not tensors."""
    from crashpredict._render import verdict_text

    verdict = predict("arr_model.predict(X_wide)", ns())
    assert (verdict.crash, verdict.library, verdict.crash_type) == (True, "sklearn",
                                                                    "tensor shape mismatch")
    text = verdict_text(verdict)
    assert "crash type: array shape mismatch; library: sklearn" in text
    assert "tensor" not in text


def test_a_nan_explanation_names_the_columns_that_hold_it() -> None:
    X = pd.DataFrame({"age": [20.0, None, 40.0, 50.0], "fare": [1.0, 2.0, None, None],
                      "pclass": [1, 2, 3, 1]})
    y = pd.Series([0, 1, 0, 1])
    space = {"LinearRegression": LinearRegression, "X": X, "y": y, "df": X,
             "arr": X.to_numpy()}
    fit = predict("LinearRegression().fit(X, y)", space)
    assert fit.explanation == (
        "Input X contains NaN: X has missing values (NaN in columns 'age' (1 of 4 rows), "
        "'fare' (2 of 4 rows)) and LinearRegression does not accept NaN")
    cast = predict("df['fare'].astype(int)", space)
    assert cast.exception == "IntCastingNaNError"
    assert cast.explanation.endswith("(df['fare']: NaN in 2 of 4 values of 'fare')")
    assert predict("LinearRegression().fit(arr, y)", space).explanation == (
        "Input X contains NaN: arr has missing values (NaN in array columns 0, 1) and "
        "LinearRegression does not accept NaN")
