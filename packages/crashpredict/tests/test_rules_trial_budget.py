"""The rules' trial budget: the extension runs no trials when a ready dry run has the cell."""

from __future__ import annotations

import numpy as np

from crashpredict import predict
from crashpredict._rules import rules_engine

NS = {"np": np, "a": np.arange(10), "s": "abc"}


def test_a_trial_finds_what_only_running_the_call_shows() -> None:
    verdict = rules_engine("n = int(s)", NS)
    assert verdict.crash and verdict.exception == "ValueError" and "rule: trial" in verdict.evidence


def test_no_trials_with_a_zero_budget_and_the_other_rules_still_answer() -> None:
    assert rules_engine("n = int(s)", NS, trial_budget_s=0).crash is False
    shaped = rules_engine("b = a.reshape(3, 4)", NS, trial_budget_s=0)
    assert shaped.crash and shaped.exception == "ValueError"


def test_predict_passes_the_budget_to_the_rules() -> None:
    options = {"rules": {"trial_budget_s": 0}}
    assert predict("n = int(s)", NS, engines=("rules",), options=options).crash is False
    assert predict("n = int(s)", NS, engines=("rules",)).crash is True
