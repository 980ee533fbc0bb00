"""An encoder given a category its fit did not see: LabelEncoder's "previously unseen
labels", OneHotEncoder's and OrdinalEncoder's "unknown categories" (with their default
``handle_unknown='error'``), for an encoder fitted before the cell or in it. The rule runs
the encoder's own transform; truth is decided by running each cell on a fresh namespace."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from sklearn.preprocessing import LabelEncoder, OneHotEncoder, OrdinalEncoder

from crashpredict import predict
from crashpredict_tests_cells import raised  # registered by conftest.py


def ns() -> dict:
    rng = np.random.default_rng(3)
    train = pd.DataFrame({"city": rng.choice(["paris", "lyon", "nice"], 400),
                          "size": rng.choice(["S", "M", "L"], 400)})
    test = pd.DataFrame({"city": rng.choice(["paris", "lyon", "nice"], 150),
                         "size": rng.choice(["S", "M", "L"], 150)})
    test.loc[120, "city"] = "lille"  # a city the training rows never had
    return {"np": np, "pd": pd, "LabelEncoder": LabelEncoder, "OneHotEncoder": OneHotEncoder,
            "OrdinalEncoder": OrdinalEncoder, "train": train, "test": test,
            "le": LabelEncoder().fit(train["city"]),
            "ohe": OneHotEncoder().fit(train[["city", "size"]]),
            "scores": np.array([1.0, 2.0, np.nan]),
            "le_nan": LabelEncoder().fit(np.array([1.0, 2.0, 3.0, np.nan])),
            "always": lambda: True}


CRASHES = [
    ("an encoder fitted before the cell", "test['city_code'] = le.transform(test['city'])"),
    ("fit_transform on train, transform on test", """
enc = LabelEncoder()
train['city_code'] = enc.fit_transform(train['city'])
test['city_code'] = enc.transform(test['city'])
"""),
    ("a loop over the categorical columns", """
for col in ['size', 'city']:
    enc = LabelEncoder()
    train[col] = enc.fit_transform(train[col])
    test[col] = enc.transform(test[col])
"""),
    ("a one-hot encoder fitted before the cell", "X_test = ohe.transform(test[['city', 'size']])"),
    ("an ordinal encoder fitted in the cell", """
ord_enc = OrdinalEncoder().fit(train[['city', 'size']])
X_test = ord_enc.transform(test[['city', 'size']])
"""),
]

NEAR_MISSES = [
    ("fitted on train and test together", """
enc = LabelEncoder().fit(pd.concat([train['city'], test['city']]))
test['city_code'] = enc.transform(test['city'])
"""),
    ("unknown categories ignored",
     "X_test = OneHotEncoder(handle_unknown='ignore').fit(train[['city']]).transform(test[['city']])"),
    ("unknown categories given a code", """
ord_enc = OrdinalEncoder(handle_unknown='use_encoded_value', unknown_value=-1)
X_test = ord_enc.fit(train[['city']]).transform(test[['city']])
"""),
    ("the training rows themselves", "train['city_code'] = le.transform(train['city'])"),
    ("NaN is a label the fit saw", "codes = le_nan.transform(scores)"),
    ("a column without the new city", "test['size_code'] = LabelEncoder().fit(train['size']).transform(test['size'])"),
    ("refitted on every city where the walk cannot tell", """
enc = LabelEncoder().fit(train['city'])
if always():
    enc.fit(pd.concat([train['city'], test['city']]))
test['city_code'] = enc.transform(test['city'])
"""),
]


def _truth(source: str) -> BaseException | None:
    return raised(source, ns())


@pytest.mark.parametrize("source", [pytest.param(s.strip() + "\n", id=i) for i, s in CRASHES])
def test_an_unseen_category_is_a_value_error(source: str) -> None:
    assert type(_truth(source)).__name__ == "ValueError"
    verdict = predict(source, ns())
    assert (verdict.crash, verdict.exception) == (True, "ValueError"), verdict.explanation
    assert "lille" in verdict.explanation


@pytest.mark.parametrize("source", [pytest.param(s.strip() + "\n", id=i) for i, s in NEAR_MISSES])
def test_categories_the_fit_saw_are_not_flagged(source: str) -> None:
    assert _truth(source) is None
    verdict = predict(source, ns())
    assert verdict.crash is False, verdict.explanation


def test_the_fitted_encoder_is_not_changed() -> None:
    space = ns()
    before = space["le"].classes_.copy()
    predict("codes = le.transform(test['city'])", space)
    assert list(space["le"].classes_) == list(before) and "lille" not in before
