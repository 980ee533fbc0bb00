"""A loop over ``d.items()``, ``d.keys()`` or ``d.values()`` of a dict whose values no trial
copies (an estimator per model name): its length is known, so the first pass starts from
the values before the loop, and ``results = results.append(...)`` meets the frame itself
(``DataFrame.append`` is gone since pandas 2.0). Truth is decided by running each cell."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from sklearn.linear_model import LogisticRegression
from sklearn.naive_bayes import GaussianNB
from sklearn.tree import DecisionTreeClassifier

from crashpredict import predict
from crashpredict_tests_cells import raised as _truth  # registered by conftest.py


def ns(models: int = 3) -> dict:
    rng = np.random.default_rng(8)
    X = rng.normal(size=(300, 4))
    y = (X[:, 0] > 0).astype(int)
    made = {"logreg": LogisticRegression(), "tree": DecisionTreeClassifier(max_depth=3),
            "bayes": GaussianNB()}
    return {"pd": pd, "np": np, "X": X, "y": y,
            "models": dict(list(made.items())[:models])}


SCORES = ("results = pd.DataFrame(columns=['model', 'acc'])\n"
          "for {target} in models.{view}():\n"
          "    {fit}\n"
          "    results = results.append({{'model': {label}, 'acc': 0.5}}, ignore_index=True)\n")

CRASHES = [
    ("items", SCORES.format(target="name, model", view="items", fit="model.fit(X, y)",
                            label="name")),
    ("keys", SCORES.format(target="name", view="keys", fit="models[name].fit(X, y)",
                           label="name")),
    ("values", SCORES.format(target="model", view="values", fit="model.fit(X, y)",
                             label="type(model).__name__")),
]


@pytest.mark.parametrize("source", [pytest.param(s, id=i) for i, s in CRASHES])
@pytest.mark.parametrize("trials", [0.05, None])
def test_append_in_a_loop_over_a_dict_of_estimators_is_seen(source: str, trials) -> None:
    assert type(_truth(source, ns())).__name__ == "AttributeError"
    from crashpredict._rules import rules_engine

    verdict = rules_engine(source, ns(), trial_budget_s=trials)
    assert (verdict.crash, verdict.exception, verdict.line) == (True, "AttributeError", 4), \
        verdict.explanation
    assert "append" in verdict.explanation


def test_the_fix_and_an_empty_dict_are_not_flagged() -> None:
    fixed = ("rows = []\nfor name, model in models.items():\n    model.fit(X, y)\n"
             "    rows.append({'model': name, 'acc': 0.5})\n"
             "results = pd.DataFrame(rows, columns=['model', 'acc'])\n")
    assert _truth(fixed, ns()) is None
    assert predict(fixed, ns()).crash is False
    empty = CRASHES[0][1]
    assert _truth(empty, ns(models=0)) is None  # the body never runs
    assert predict(empty, ns(models=0)).crash is False
