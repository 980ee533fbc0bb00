"""An integer is a label, never a position, for ``.loc`` and for a Series' ``[]`` on an
index of integers: ``df.loc[0]`` after a filter dropped row 0, and ``s[-1]``, are certain
KeyErrors. Truth is decided by running each cell on a fresh namespace."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from crashpredict import predict
from crashpredict_tests_cells import raised  # registered by conftest.py


def ns() -> dict:
    prices = pd.DataFrame({"Close": np.arange(40.0), "Volume": np.arange(40) * 10})
    return {"np": np, "pd": pd, "prices": prices, "close": prices["Close"].copy(),
            "rich": prices[prices["Close"] > 10],
            "by_year": pd.Series([3.0, 4.0], index=[2019, 2020]),
            "floaty": pd.Series([1.0, 2.0], index=[0.0, 40.0]),
            "named": pd.Series([1.0, 2.0], index=["a", "b"])}


CRASHES = [
    ("the first row of a filtered frame", "first = rich.loc[0]"),
    ("a row and a column past the end", "x = prices.loc[40, 'Close']"),
    ("the last item by -1", "last = close[-1]"),
    ("a numpy integer label", "x = close[np.int64(45)]"),
    ("a year the series lacks", "x = by_year[2021]"),
    ("an update in place of a row that is not there", "prices.loc[40, 'Close'] += 1"),
    ("a filtered series' first item", "first = rich['Close'][0]"),
]

NEAR_MISSES = [
    ("a row the frame has", "x = prices.loc[39, 'Close']"),
    ("a new row set", "prices.loc[40] = [1.0, 2]"),
    ("a new label set on a series", "close[40] = 1.0"),
    ("get() of a missing label", "x = close.get(40)"),
    ("a float index holds the number", "x = floaty.loc[40]"),
    ("a position on a labelled series", "x = named.iloc[1]"),
    ("a filtered frame's rows by position", "first = rich.iloc[0]"),
    ("the index reset after the filter", "first = rich.reset_index(drop=True).loc[0]"),
    ("a bool key", "x = close.loc[close > 5]"),
]


def _truth(source: str) -> BaseException | None:
    return raised(source, ns())


@pytest.mark.parametrize("source", [pytest.param(s, id=i) for i, s in CRASHES])
def test_a_missing_integer_label_is_a_key_error(source: str) -> None:
    assert type(_truth(source)).__name__ == "KeyError"
    verdict = predict(source, ns())
    assert (verdict.crash, verdict.exception) == (True, "KeyError"), verdict.explanation
    assert "from " in verdict.explanation  # the index's range is named


@pytest.mark.parametrize("source", [pytest.param(s, id=i) for i, s in NEAR_MISSES])
def test_labels_the_index_holds_or_writes_are_not_flagged(source: str) -> None:
    assert _truth(source) is None
    verdict = predict(source, ns())
    assert verdict.crash is False, verdict.explanation
