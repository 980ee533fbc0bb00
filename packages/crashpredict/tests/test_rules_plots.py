"""matplotlib rules: subplot grids, image shapes, x/y lengths; and the JunoBench-style
multiple-values call."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import pytest  # noqa: E402
import seaborn as sns  # noqa: E402

from crashpredict import predict  # noqa: E402


def ns() -> dict:
    return {"plt": plt, "np": np, "sns": sns, "X": np.ones((10, 3)),
            "df": pd.DataFrame({"Sex": ["m", "f"], "Age": [1.0, 2.0]}), "img": np.zeros((28, 28, 1)),
            "rgb": np.zeros((28, 28, 3)), "xs": np.arange(10), "ys": np.arange(9)}


CRASHES = [
    ("DataFrame.plot column", "df.plot(x='Age', y='Fare')", ("KeyError", "key error")),
    ("DataFrame.plot.scatter column", "df.plot.scatter(x='age', y='Age')",
     ("KeyError", "key error")),
    ("DataFrame.boxplot column", "df.boxplot(column='Fare', by='Sex')",
     ("KeyError", "key error")),
    ("seaborn column", "sns.countplot(x='sex', data=df)", ("ValueError", "invalid argument")),
    ("seaborn hue", "sns.histplot(df, x='Age', hue='Survived')",
     ("ValueError", "invalid argument")),
    ("subplot beyond the grid", "plt.subplot(2, 2, 5)", ("ValueError", "invalid argument")),
    ("three-digit subplot", "plt.subplot(223)\nplt.subplot(225)",
     ("ValueError", "invalid argument")),
    ("image with one channel", "plt.imshow(img)", ("TypeError", "invalid argument")),
    ("plot lengths", "plt.plot(xs, ys)", ("ValueError", "value error")),
    ("bar lengths", "plt.bar(['a', 'b', 'c'], ys)", ("ValueError", "value error")),
    ("scatter gets s twice", "plt.scatter(X[:, 0], X[:, 1], X[:, 2], s=200, c='red')",
     ("TypeError", "invalid argument")),
]

NEAR_MISSES = [
    ("DataFrame.plot columns exist", "df.plot(kind='scatter', x='Age', y='Age')"),
    ("scatter colour name", "df.plot.scatter(x='Age', y='Age', c='red')"),
    ("seaborn columns exist", "sns.histplot(df, x='Age', hue='Sex')"),
    ("seaborn vectors", "sns.scatterplot(x=df['Age'], y=df['Age'])"),
    ("subplot in the grid", "plt.subplot(2, 2, 4)"),
    ("rgb image", "plt.imshow(rgb)"),
    ("squeezed image", "plt.imshow(img.squeeze())"),
    ("plot lengths match", "plt.plot(xs, xs * 2)"),
    ("bar with one height", "plt.bar(['a', 'b', 'c'], 3)"),
    ("scatter with size positional", "plt.scatter(X[:, 0], X[:, 1], X[:, 2], c='red')"),
]


@pytest.mark.parametrize(("source", "expected"), [pytest.param(s, e, id=i) for i, s, e in CRASHES])
def test_plot_crash_is_predicted(source: str, expected: tuple) -> None:
    verdict = predict(source, ns())
    library = "seaborn" if "sns." in source else "pandas" if "df." in source else "matplotlib"
    assert (verdict.crash, verdict.exception, verdict.crash_type, verdict.library) == (
        True, *expected, library), verdict.explanation


@pytest.mark.parametrize("source", [pytest.param(s, id=i) for i, s in NEAR_MISSES])
def test_plot_near_miss_is_not_flagged(source: str) -> None:
    verdict = predict(source, ns())
    assert verdict.crash is False, verdict.explanation
