"""An array indexed with an integer array: numpy checks every value, so labels counted from
1 used as rows of ``np.eye(n)`` (a one-hot of ratings 1..5) or a lookup table one row short
fail on the largest. Truth is decided by running each cell on a fresh namespace."""

from __future__ import annotations

import numpy as np
import pytest

from crashpredict import predict
from crashpredict_tests_cells import raised  # registered by conftest.py


def ns() -> dict:
    rng = np.random.default_rng(3)
    return {"np": np, "stars": rng.integers(1, 6, 5_000), "classes": 5,
            "codes": rng.integers(0, 5, 5_000), "table": np.arange(10.0).reshape(5, 2),
            "back": -rng.integers(1, 7, 100), "flags": rng.integers(0, 2, 5_000).astype(bool)}


CRASHES = [
    ("one-hot of labels counted from 1", "Y = np.eye(classes)[stars]"),
    ("one-hot with a dtype", "Y = np.eye(classes, dtype=np.float32)[stars]\nw = Y.sum(axis=0)"),
    ("a lookup table one row short", "rows = table[stars]"),
    ("negative positions past the start", "rows = table[back]"),
    ("a list of positions", "rows = table[[0, 2, 5]]"),
]

NEAR_MISSES = [
    ("labels counted from 0", "Y = np.eye(classes)[codes]"),
    ("labels shifted to 0", "Y = np.eye(classes)[stars - 1]"),
    ("one more class", "Y = np.eye(classes + 1)[stars]"),
    ("a boolean mask", "picked = stars[flags]"),
    ("negative positions within", "rows = table[-codes - 1]"),
]


def _truth(source: str) -> BaseException | None:
    return raised(source, ns())


@pytest.mark.parametrize("source", [pytest.param(s, id=i) for i, s in CRASHES])
def test_an_index_array_past_the_axis_is_an_index_error(source: str) -> None:
    assert type(_truth(source)).__name__ == "IndexError"
    verdict = predict(source, ns())
    assert (verdict.crash, verdict.exception) == (True, "IndexError"), verdict.explanation
    assert "out of bounds" in verdict.explanation


@pytest.mark.parametrize("source", [pytest.param(s, id=i) for i, s in NEAR_MISSES])
def test_an_index_array_within_the_axis_is_not_flagged(source: str) -> None:
    assert _truth(source) is None
    verdict = predict(source, ns())
    assert verdict.crash is False, verdict.explanation


#: NaN or an infinity stored into an array of integers: numpy converts the value first.
NAN_STORES = [
    ("a NaN into masked counts", "stars[flags] = np.nan", "ValueError"),
    ("a NaN from math into one item", "import math\ncodes[0] = math.nan", "ValueError"),
    ("an empty selection still converts", "stars[stars > 9] = np.nan", "ValueError"),
    ("an infinity into unsigned counts", "small = codes.astype(np.uint8)\nsmall[:3] = np.inf",
     "OverflowError"),
]

NAN_STORES_THAT_WORK = [
    ("made float first", "yields = stars.astype(float)\nyields[flags] = np.nan"),
    ("into a float table", "table[0, 0] = np.nan"),
    ("a number that fits", "stars[flags] = 0.0"),
    ("into a boolean mask", "flags[0] = np.nan"),
]


@pytest.mark.parametrize(("source", "error"), [pytest.param(s, e, id=i) for i, s, e in NAN_STORES])
def test_a_nan_stored_into_integers_is_predicted(source: str, error: str) -> None:
    assert type(_truth(source)).__name__ == error
    verdict = predict(source, ns())
    assert (verdict.crash, verdict.exception) == (True, error), verdict.explanation
    assert "to integer" in verdict.explanation


@pytest.mark.parametrize("source", [pytest.param(s, id=i) for i, s in NAN_STORES_THAT_WORK])
def test_a_nan_stored_where_it_fits_is_not_flagged(source: str) -> None:
    assert _truth(source) is None
    verdict = predict(source, ns())
    assert verdict.crash is False, verdict.explanation
