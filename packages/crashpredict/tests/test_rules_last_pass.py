"""The rules' walk of a loop's last pass: a loop over ``range(...)`` or ``enumerate(...)`` of a
known length is walked once more with the count of its last pass (``for i in
range(len(prices)): prices.iloc[i + 1]``), and ``enumerate``/``zip`` of a few plain items is
unrolled (a subplot grid one panel short). Truth is decided by running each cell."""

from __future__ import annotations

import ast

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import pytest  # noqa: E402

from crashpredict import predict  # noqa: E402
from crashpredict._rules._walk import _statements  # noqa: E402
from crashpredict_tests_cells import raised  # noqa: E402 - registered by conftest.py


def ns() -> dict:
    rng = np.random.default_rng(0)
    return {
        "np": np, "pd": pd, "plt": plt,
        "prices": pd.DataFrame({"Close": rng.normal(100, 5, 300).round(2)}),
        "series": rng.normal(size=200),
        "scores": [float(s) for s in rng.random(100)],
        "names": [f"model_{i}" for i in range(99)],
        "columns": ["LotArea", "OverallQual", "YearBuilt", "GrLivArea", "GarageCars",
                    "LotFrontage", "SalePrice"],
        "data": list(range(100)),
        "wide": pd.DataFrame(rng.normal(size=(120, 80))).add_prefix("f"),
    }


CRASHES = [
    ("next-day target over every row", """
rows = []
for i in range(len(prices)):
    rows.append({'close': prices['Close'].iloc[i], 'next': prices['Close'].iloc[i + 1]})
""", "IndexError", 3),
    ("differences of neighbours over every index", """
steps = np.zeros(len(series))
for i in range(len(series)):
    steps[i] = series[i + 1] - series[i]
""", "IndexError", 3),
    ("a subplot grid one panel short", """
fig, axes = plt.subplots(2, 3, figsize=(12, 6))
for i, col in enumerate(columns):
    axes.flatten()[i].set_title(col)
    axes.flatten()[i].hist(np.arange(10))
""", "IndexError", 3),
    ("a subplot grid one short, read through flat", """
fig, axes = plt.subplots(2, 3)
for i, col in enumerate(columns):
    ax = axes.flat[i]
""", "IndexError", 3),
    ("a name list one shorter than the scores", """
for i in range(len(scores)):
    print(f'{names[i]}: {scores[i]:.3f}')
""", "IndexError", 2),
    ("enumerate from 1 over a list of the same length", """
labels = list(names) + ['baseline']
for rank, score in enumerate(scores, start=1):
    print(labels[rank], score)
""", "IndexError", 3),
    ("a label zipped with a key the dict does not have", """
palette = {'train': 'tab:blue', 'valid': 'tab:orange'}
for split, n in zip(['train', 'valid', 'test'], [700, 150, 150]):
    print(split, n, palette[split])
""", "KeyError", 3),
    ("a str method on the next name", """
for i in range(len(names)):
    pair = names[i].upper() + names[i + 1].lower()
""", "IndexError", 2),
    ("a module's function on the next name", """
import re
for i in range(len(names)):
    a = re.findall('[a-z]+', names[i].lower())
    b = re.findall('[a-z]+', names[i + 1].lower())
""", "IndexError", 4),
    ("the last pass's own arithmetic", """
for i in range(len(series)):
    j = i + 1
    window = series[j]
""", "IndexError", 3),
]

NEAR_MISSES = [
    ("the range stops one short", """
for i in range(len(series) - 1):
    d = series[i + 1] - series[i]
"""),
    ("a guard on the index", """
for i in range(len(series)):
    if i + 1 < len(series):
        d = series[i + 1] - series[i]
"""),
    ("a break before the last pass reads past the end", """
for i in range(len(series)):
    if i == len(series) - 1:
        break
    d = series[i + 1]
"""),
    ("a continue on the last pass", """
for i in range(len(series)):
    if i == len(series) - 1:
        continue
    d = series[i + 1]
"""),
    ("the list grows as the loop goes", """
items = [0]
for i in range(100):
    items.append(i)
    last = items[i + 1]
"""),
    ("a function of the cell grows the list", """
def grow():
    data.append(0)

for i in range(len(data)):
    grow()
    x = data[i + 1]
"""),
    ("a grid with room for every column", """
fig, axes = plt.subplots(3, 3, figsize=(12, 9))
for i, col in enumerate(columns):
    axes.flatten()[i].set_title(col)
"""),
    ("a grid filled until it is full", """
fig, axes = plt.subplots(2, 3)
for i, col in enumerate(columns):
    if i >= 6:
        break
    axes.flatten()[i].set_title(col)
"""),
    ("the index clipped to the end", """
for i in range(len(series)):
    j = min(i + 1, len(series) - 1)
    x = series[j]
"""),
    ("the target rebound in the body", """
for i in range(len(series)):
    i = i - 1
    x = series[i + 1]
"""),
    ("an inner loop up to the outer count", """
total = 0.0
for i in range(len(series)):
    for j in range(i):
        total += series[j + 1]
"""),
    ("a label zipped with keys the dict has", """
palette = {'train': 'tab:blue', 'valid': 'tab:orange', 'test': 'tab:green'}
for split, n in zip(['train', 'valid', 'test'], [700, 150, 150]):
    print(split, n, palette[split])
"""),
    ("the loop leaves at the first rise", """
for i in range(len(series)):
    d = series[i + 1] - series[i]
    if d > 0:
        break
"""),
    ("enumerate over a frame's columns, not its rows", """
for i, col in enumerate(wide):
    print(names[i], col, wide[col].mean())
"""),
    ("the error caught in the loop", """
for i in range(len(series)):
    try:
        x = series[i + 1]
    except IndexError:
        x = None
"""),
    ("enumerate from 1 over a list one longer", """
labels = ['baseline'] + list(names) + ['ensemble']
for rank, score in enumerate(scores, start=1):
    print(labels[rank], score)
"""),
    ("a read-only method with inplace=True changes what a later pass reads", """
frame = pd.DataFrame({'k': ['a', 'b']})
codes = {'x': 1, 'y': 2}
for i in range(2):
    if i > 0:
        v = codes[frame['k'][i]]
    frame.replace({'a': 'x', 'b': 'y'}, inplace=True)
"""),
    ("a module rebound in the body", """
import re
for i in range(len(names)):
    re = names + ['extra']
    x = re[i + 1]
"""),
    ("the array replaced by a longer one in the body", """
values = series.copy()
for i in range(len(series)):
    values = np.append(values, 0.0)
    x = values[i + 1]
"""),
]


def _truth(source: str) -> BaseException | None:
    try:
        return raised(source, ns())
    finally:
        plt.close("all")


@pytest.mark.parametrize(("source", "exception", "line"),
                         [pytest.param(s.strip() + "\n", e, n, id=i) for i, s, e, n in CRASHES])
def test_a_crash_in_the_last_pass_is_predicted(source: str, exception: str, line: int) -> None:
    raised = _truth(source)
    assert type(raised).__name__ == exception, raised
    verdict = predict(source, ns())
    assert (verdict.crash, verdict.exception, verdict.line) == (True, exception, line), \
        verdict.explanation


@pytest.mark.parametrize("source", [pytest.param(s.strip() + "\n", id=i) for i, s in NEAR_MISSES])
def test_a_loop_that_ends_well_is_not_flagged(source: str) -> None:
    assert _truth(source) is None
    verdict = predict(source, ns())
    assert verdict.crash is False, verdict.explanation


def test_the_arguments_of_a_counting_header_are_read_once(monkeypatch) -> None:
    """enumerate's argument serves the unrolling, the DataLoader check, the length and the
    last count: read once (a read may run a library call on live data, within the
    rules' trial budget), not once for each."""
    reads: list[str] = []
    reread = _statements.StatementWalker._reread

    def counted(self, node):  # noqa: ANN001, ANN202 - a spy on the walker's re-reads
        reads.append(ast.unparse(node))
        return reread(self, node)

    monkeypatch.setattr(_statements.StatementWalker, "_reread", counted)
    cell = "for i, col in enumerate(wide.columns[:70], start=1):\n    x = names[i]\n"
    assert _truth(cell) is None
    assert predict(cell, ns()).crash is False
    assert reads.count("wide.columns[:70]") == 1, reads
