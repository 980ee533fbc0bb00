"""A loop over a pandas groupby of a small frame, grouped by its columns: how many groups
it yields is counted (`_walk._statements._groups`: a millisecond, no user code), so the
first pass starts from the values before the loop, and ``summary = summary.append(...)``
meets the frame itself (``DataFrame.append`` is gone since pandas 2.0). Truth is decided
by running each cell."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from crashpredict_tests_cells import raised as _truth  # registered by conftest.py


def ns(rows: int = 600, keys: object = None) -> dict:
    rng = np.random.default_rng(11)
    leads = pd.DataFrame({
        "channel": rng.choice(["organic", "paid", "webinar", "referral"], rows)
        if keys is None else keys,
        "converted": rng.random(rows) < 0.2,
        "days": rng.integers(3, 120, rows),
    })
    return {"pd": pd, "np": np, "leads": leads}


SUMMARY = ("summary = pd.DataFrame(columns=['channel', 'n', 'rate'])\n"
           "for channel, grp in leads.groupby({by}):\n"
           "    summary = summary.append({{'channel': channel, 'n': len(grp),\n"
           "                              'rate': grp['converted'].mean()}}, ignore_index=True)\n")
FIXED = ("rows = []\n"
         "for channel, grp in leads.groupby('channel'):\n"
         "    rows.append({'channel': channel, 'n': len(grp), 'rate': grp['converted'].mean()})\n"
         "summary = pd.DataFrame(rows, columns=['channel', 'n', 'rate'])\n")


@pytest.mark.parametrize("by", ["'channel'", "['channel', 'converted']"])
@pytest.mark.parametrize("trials", [0.05, None])
def test_append_in_a_loop_over_a_small_frames_groups_is_seen(by: str, trials) -> None:
    source = SUMMARY.format(by=by)
    assert type(_truth(source, ns())).__name__ == "AttributeError"
    from crashpredict._rules import rules_engine

    verdict = rules_engine(source, ns(), trial_budget_s=trials)
    assert (verdict.crash, verdict.exception, verdict.line) == (True, "AttributeError", 3), \
        verdict.explanation
    assert "append" in verdict.explanation


def test_the_fix_and_a_groupby_of_no_group_are_not_flagged() -> None:
    from crashpredict._rules import rules_engine

    assert _truth(FIXED, ns()) is None
    assert rules_engine(FIXED, ns()).crash is not True
    # every key missing: no group, the body never runs (dropna)
    empty = ns(keys=np.full(600, np.nan))
    source = SUMMARY.format(by="'channel'")
    assert _truth(source, empty) is None
    assert rules_engine(source, empty).crash is not True


@pytest.mark.parametrize("namespace, by", [
    # grouped by a function: counting the groups would run it
    (lambda: ns(), "lambda i: i % 3"),
    # a categorical key: with unobserved categories the count is not the groups'
    (lambda: {**ns(), "leads": ns()["leads"].astype({"channel": "category"})}, "'channel'"),
    # a frame past the bound: counting its groups may take longer than the rules have
    (lambda: ns(rows=60_000), "'channel'"),
])
def test_groups_not_counted_leave_the_loop_uncertain(namespace, by) -> None:
    """Unit: `_groups` counts nothing there, so the body is not walked as certain (the
    crash is real, and left to the dry run)."""
    from crashpredict._rules._walk._statements import _groups

    made = namespace()
    assert _groups(eval(f"leads.groupby({by})", made)) is None  # noqa: S307
    assert _groups(ns()["leads"].groupby("channel")) == 4
