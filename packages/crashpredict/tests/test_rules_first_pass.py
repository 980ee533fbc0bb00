"""A loop whose length is known runs its body at least once, first from the values the cell
had before the loop: what that pass does to a live value is certain (``results =
results.append(...)`` in a loop over a dict's items or an array's values meets the frame
itself). A loop that may not run, or runs over nothing, claims nothing.

The truth of each case is decided by running the cell after the rules have answered.
"""

from __future__ import annotations

import pytest

from crashpredict._rules import rules_engine

np = pytest.importorskip("numpy")
pd = pytest.importorskip("pandas")

#: (cell, the exception the real run raises)
CRASHES = [
    ("results = pd.DataFrame(columns=['model', 'auc'])\n"
     "for name, scores in cv_scores.items():\n"
     "    for fold, s in enumerate(scores):\n"
     "        results = results.append({'model': name, 'auc': s}, ignore_index=True)",
     "AttributeError"),
    ("rows = pd.DataFrame(columns=['auc'])\nfor s in cv_scores['knn']:\n"
     "    rows = rows.append({'auc': s}, ignore_index=True)", "AttributeError"),
    ("for name in cv_scores.keys():\n    best = cv_scores[name].max()\n"
     "    table[name].iloc[0]", "KeyError"),
    ("total = 0\nfor scores in cv_scores.values():\n    total += scores.mean()\n"
     "    frame.sort_values('auc_mean')", "KeyError"),
]

#: cells that run clean: the loop runs over nothing, or the first pass is fine
LEFT_ALONE = [
    "results = pd.DataFrame(columns=['auc'])\nfor s in empty_scores:\n"
    "    results = results.append({'auc': s}, ignore_index=True)",
    "results = pd.DataFrame(columns=['auc'])\nfor name, s in {}.items():\n"
    "    results = results.append({'auc': s}, ignore_index=True)",
    "parts = []\nfor name, scores in cv_scores.items():\n"
    "    parts.append(pd.DataFrame({'model': name, 'auc': scores}))\n"
    "results = pd.concat(parts, ignore_index=True)",
    "frame = frame.assign(auc_mean=0.0)\nfor scores in cv_scores.values():\n"
    "    frame = frame.sort_values('auc_mean')",
]


@pytest.fixture
def namespace():
    rng = np.random.default_rng(3)
    return {"np": np, "pd": pd,
            "cv_scores": {"logreg": 0.8 + rng.normal(0, 0.01, 5),
                          "knn": 0.7 + rng.normal(0, 0.01, 5)},
            "empty_scores": np.array([]),
            "table": pd.DataFrame({"other": [1.0]}),
            "frame": pd.DataFrame({"auc": [0.1, 0.2]})}


def _real_run(cell: str, ns: dict) -> str | None:
    try:
        exec(cell, ns)  # noqa: S102
    except Exception as exc:  # noqa: BLE001 - the truth
        return type(exc).__name__
    return None


@pytest.mark.parametrize("cell, raised", CRASHES)
def test_the_first_pass_of_a_loop_that_runs_is_certain(namespace, cell, raised):
    verdict = rules_engine(cell, dict(namespace))
    assert (verdict.crash, verdict.exception) == (True, raised), verdict
    assert _real_run(cell, namespace) == raised


@pytest.mark.parametrize("cell", LEFT_ALONE)
def test_a_loop_over_nothing_or_a_clean_first_pass_is_left_alone(namespace, cell):
    verdict = rules_engine(cell, dict(namespace))
    assert verdict.crash is not True, verdict
    assert _real_run(cell, namespace) is None
