"""``DataFrame.pivot`` needs each (index, columns) pair once: a row sent twice makes it
raise ``ValueError: Index contains duplicate entries, cannot reshape``, often after many
seconds of rolling features. numpy 2's module has no name it does not list
(``np.trapz``, removed in 2.4). Truth is decided by running each cell."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from crashpredict import predict
from crashpredict_tests_cells import raised as _truth  # registered by conftest.py


def ns(twice: bool = True) -> dict:
    rng = np.random.default_rng(12)
    dates = pd.date_range("2023-01-01", periods=60, freq="D")
    sales = pd.MultiIndex.from_product([np.arange(1, 21), dates],
                                       names=["store", "date"]).to_frame(index=False)
    sales["sales"] = rng.gamma(2.0, 100.0, len(sales)).round(2)
    if twice:  # store 7's last day sent twice
        again = sales[(sales["store"] == 7) & (sales["date"] == dates[-1])]
        sales = pd.concat([sales, again.assign(sales=again["sales"] * 1.01)],
                          ignore_index=True)
    return {"np": np, "pd": pd, "sales": sales}


ROLLED = ("sales['s7'] = sales.groupby('store')['sales'].transform("
          "lambda s: s.rolling(7, min_periods=1).mean())\n")
PIVOTS = [
    ("the raw values", "wide = sales.pivot(index='date', columns='store', values='sales')\n"),
    ("a rolling feature first",
     ROLLED + "wide = sales.pivot(index='date', columns='store', values='s7')\n"),
]


@pytest.mark.parametrize("source", [pytest.param(s, id=i) for i, s in PIVOTS])
def test_a_pivot_of_a_pair_sent_twice_is_a_value_error(source: str) -> None:
    assert "duplicate entries" in str(_truth(source, ns()))
    verdict = predict(source, ns())
    assert (verdict.crash, verdict.exception) == (True, "ValueError"), verdict.explanation
    assert verdict.line == source.count("\n")
    assert "store=7" in verdict.explanation and "duplicate entries" in verdict.explanation


@pytest.mark.parametrize("source", [pytest.param(s, id=i) for i, s in PIVOTS] + [
    pytest.param("sales = sales.drop_duplicates(['date', 'store'], keep='last')\n"
                 + PIVOTS[0][1], id="the duplicates dropped first"),
    pytest.param("wide = sales.pivot_table(index='date', columns='store', values='sales')\n",
                 id="a pivot table aggregates them"),
])
def test_a_pivot_of_pairs_each_once_is_not_flagged(source: str) -> None:
    twice = "drop_duplicates" in source or "pivot_table" in source
    assert _truth(source, ns(twice)) is None
    assert predict(source, ns(twice)).crash is False


def test_a_pivot_on_a_column_the_cell_rewrites_is_left_alone() -> None:
    """The date column rewritten in the cell (to months): the pairs are the cell's, unread."""
    source = ("sales['date'] = sales['date'].dt.to_period('M')\n"
              "wide = sales.pivot(index='date', columns='store', values='sales')\n")
    assert "duplicate entries" in str(_truth(source, ns(False)))  # months repeat, for real
    assert predict(source, ns(False)).crash is not True


@pytest.mark.parametrize("source, crashes", [
    ("auc = np.trapz([0.1, 0.6, 1.0], [0.0, 0.5, 1.0])", True),
    ("auc = np.trapezoid([0.1, 0.6, 1.0], [0.0, 0.5, 1.0])", False),
    ("n = np.linalg.norm([3.0, 4.0])", False),  # a submodule numpy loads on first use
    ("np.testing.assert_allclose(1.0, 1.0)", False),
])
def test_a_name_numpy_2_does_not_have_is_an_attribute_error(source: str, crashes: bool) -> None:
    if not hasattr(np, "__numpy_submodules__"):
        pytest.skip("numpy 1's module attributes")
    raised = _truth(source, {"np": np})
    assert (type(raised).__name__ == "AttributeError") is crashes
    verdict = predict(source, {"np": np})
    assert verdict.crash is crashes, verdict.explanation
