"""What the rules still know of a frame after the cell calls a function on its rows: an
``apply``/``map``/``transform`` of a lambda that only reads, a grouping's ``rank``, a
column picked from a frame too large for a trial. A feature-engineering cell that adds a
column with ``df.apply(lambda r: ..., axis=1)`` and then casts a column with a NaN to int
fails on the cast; before, any function handed to ``apply`` made the whole frame unknown.
A lambda that writes (``seen.add``, ``inplace=True``, a draw from numpy's global
generator) still does. Truth is decided by running each cell on a fresh namespace."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from crashpredict import predict
from crashpredict_tests_cells import raised as _truth  # registered by conftest.py


def ns(rows: int = 2_000) -> dict:
    rng = np.random.default_rng(5)
    built = rng.integers(1900, 2010, rows)
    garage = (built + rng.integers(0, 10, rows)).astype(float)
    garage[rng.random(rows) < 0.05] = np.nan
    houses = pd.DataFrame({
        "built": built, "remod": np.maximum(built, rng.integers(1950, 2011, rows)),
        "garage": garage, "hood": rng.choice(["NAmes", "OldTown", "Edwards"], rows),
        "area": rng.normal(1500, 400, rows).round()})
    return {"np": np, "pd": pd, "houses": houses, "seen": set(),
            "era_of": {"NAmes": 1, "OldTown": 2, "Edwards": 3}}


#: a wide frame of 300,000 rows: 2.4 million values, more than a trial copies
def long_ns() -> dict:
    space = ns(300_000)
    houses = space["houses"]
    for k in range(3):
        houses[f"extra{k}"] = houses["area"] * k
    return space


CAST = 'houses["garage"] = houses["garage"].astype(int)\n'

CRASHES = [
    ("a row-wise apply of a flag",
     'houses["remodelled"] = houses.apply(lambda r: int(r["remod"] != r["built"]), axis=1)\n'
     + CAST),
    ("a column apply of an era",
     'houses["era"] = houses["built"].apply(lambda y: "old" if y < 1945 else "new")\n' + CAST),
    ("a text lambda",
     'houses["hood_key"] = houses["hood"].map(lambda h: h.lower().strip())\n' + CAST),
    ("a map of a dict", 'houses["hood_code"] = houses["hood"].map(era_of)\n' + CAST),
    ("a ufunc", 'houses["log_area"] = houses["area"].apply(np.log1p)\n' + CAST),
    ("a group rank", 'houses["rank"] = houses.groupby("hood")["area"].rank(pct=True)\n' + CAST),
    ("a transform by name, then a rank",
     'houses["mid"] = houses.groupby("hood")["area"].transform("median")\n'
     'houses["r"] = houses.groupby("hood")["area"].rank()\n' + CAST),
]

#: the same cells where the cast is fixed, or where the lambda writes (nothing is claimed)
NEAR_MISSES = [
    ("the cast fixed",
     'houses["remodelled"] = houses.apply(lambda r: int(r["remod"] != r["built"]), axis=1)\n'
     'houses["garage"] = houses["garage"].fillna(houses["built"]).astype(int)\n'),
    ("a lambda that fills the row in place",
     'houses["g"] = houses.apply(lambda r: r.fillna(0, inplace=True), axis=1)\n' + CAST),
    ("a lambda that adds to a set",
     'houses["first"] = houses["hood"].apply(lambda h: seen.add(h))\n' + CAST),
]


@pytest.mark.parametrize("source", [pytest.param(s, id=i) for i, s in CRASHES])
def test_a_cast_after_a_reading_function_on_the_rows_is_still_seen(source: str) -> None:
    assert type(_truth(source, ns())).__name__ == "IntCastingNaNError"
    verdict = predict(source, ns())
    assert (verdict.crash, verdict.exception) == (True, "IntCastingNaNError"), \
        verdict.explanation
    assert verdict.line == source.count("\n")
    assert "NaN in" in verdict.explanation


def test_the_fixed_cast_is_not_flagged() -> None:
    source = NEAR_MISSES[0][1]
    assert _truth(source, ns()) is None
    assert predict(source, ns()).crash is False


@pytest.mark.parametrize("source", [pytest.param(s, id=i) for i, s in NEAR_MISSES[1:]])
def test_a_lambda_that_writes_leaves_the_frame_unknown(source: str) -> None:
    """The cast still fails for real here, but the lambda may have changed what the walk
    knows: no rule may read the frame after it (no claim, right or wrong)."""
    verdict = predict(source, ns())
    assert verdict.crash is not True, verdict.explanation


def test_a_lambda_that_draws_from_numpy_s_generator_leaves_the_frame_unknown() -> None:
    source = 'houses["noise"] = houses["area"].apply(lambda a: a + np.random.rand())\n' + CAST
    assert predict(source, ns()).crash is not True


def test_a_column_of_a_frame_too_large_for_a_trial_is_tried_alone() -> None:
    space = long_ns()
    assert space["houses"].size > 2_000_000
    source = 'houses["age"] = 2011 - houses["built"]\n' + CAST
    assert type(_truth(source, long_ns())).__name__ == "IntCastingNaNError"
    verdict = predict(source, space)
    assert (verdict.crash, verdict.exception) == (True, "IntCastingNaNError"), \
        verdict.explanation
    fixed = 'houses["age"] = 2011 - houses["built"]\n' \
            'houses["garage"] = houses["garage"].fillna(0).astype(int)\n'
    assert _truth(fixed, long_ns()) is None
    assert predict(fixed, long_ns()).crash is False


def test_a_function_of_the_user_s_handed_to_a_grouping_leaves_the_frame_unknown() -> None:
    """``houses.groupby('hood').apply(fill)``: the user's ``fill`` writes the garage years
    into the frame the grouping was made from; the cast after it runs clean for real, and
    the walk must not read the frame as it was."""
    source = "parts = houses.groupby('hood').apply(fill)\n" + CAST

    def space() -> dict:
        made = ns()
        exec("def fill(g):\n    houses['garage'] = houses['garage'].fillna(0)\n    return g\n",
             made)
        return made

    assert _truth(source, space()) is None
    assert predict(source, space()).crash is not True
