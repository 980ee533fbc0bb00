"""nbdeps: time per notebook of load + check over a generated corpus, against pyflakes.

The corpus is made here (seeded): typical notebooks of 20-80 cells mixing imports, pandas
code, functions, magics, markdown and out-of-order execution counts, plus one notebook of
1,000 cells. nbdeps is timed from the .ipynb path to its findings, with its per-cell cache
cleared first. The peer, pyflakes, is timed on the same cells' code already transformed
by IPython and concatenated (so it does no file reading, JSON or IPython work: a
conservative ratio). libcst's parse of the same cells is shown as the reason nbdeps walks
`ast` instead.
"""

from __future__ import annotations

import io
import json
import random
import statistics
import tempfile
import time
from pathlib import Path

ROUNDS = 3
CORPUS = 60

_SNIPPETS = [
    "import pandas as pd\nimport numpy as np",
    "import matplotlib.pyplot as plt\n%matplotlib inline",
    "df = pd.read_csv('data/{n}.csv')\ndf.head()",
    "df['{c}'] = df['{c}'].fillna(0)",
    "df.drop(columns='{c}', inplace=True)",
    "summary = df.describe()\nsummary",
    "def clean_{n}(frame, cols):\n    out = frame.copy()\n    for c in cols:\n        out[c] = out[c].astype(float)\n    return out",
    "features = [c for c in df.columns if c != 'target']\nX = df[features]\ny = df['target']",
    "from sklearn.model_selection import train_test_split\nX_train, X_test, y_train, y_test = train_test_split(X, y)",
    "%%time\nmodel_{n} = fit_model(X_train, y_train, depth={n})",
    "!pip install -q lightgbm",
    "scores = {{k: v for k, v in zip(features, range(len(features)))}}\nbest = max(scores, key=scores.get)",
    "for col in features:\n    if df[col].isnull().any():\n        df[col] = df[col].fillna(df[col].median())",
    "plt.figure(figsize=(8, 4))\nplt.plot(df['{c}'].rolling(7).mean())\nplt.show()",
    "class Config:\n    seed = {n}\n    lr = 0.01\ncfg = Config()",
    "with open('out_{n}.json', 'w') as fh:\n    json.dump(summary.to_dict(), fh)",
    "total_{n} = 0\nfor i in range(10):\n    total_{n} += i * cfg.lr",
    "df.groupby('{c}').agg(['mean', 'count']).sort_values(('{c}', 'mean'))",
    "X_train.shape, X_test.shape",
    "try:\n    import xgboost\nexcept ImportError as err:\n    print(err)",
]


def _notebook(rng: random.Random, n_cells: int) -> dict:
    cells = []
    count = 0
    for i in range(n_cells):
        if rng.random() < 0.15:
            cells.append({"cell_type": "markdown", "metadata": {}, "source": f"## Step {i}\nnotes"})
            continue
        source = rng.choice(_SNIPPETS).format(n=rng.randrange(100), c=rng.choice("abcdef"))
        r = rng.random()
        if r < 0.08:
            execution_count = None
        else:
            count += rng.choice((1, 1, 1, 2))
            execution_count = count if r > 0.1 else count + 40  # a few re-runs late
        cells.append({"cell_type": "code", "metadata": {}, "source": source.splitlines(keepends=True),
                      "execution_count": execution_count, "outputs": []})
    meta = {"kernelspec": {"name": "python3", "language": "python", "display_name": "Python 3"}}
    return {"nbformat": 4, "nbformat_minor": 5, "metadata": meta, "cells": cells}


def _percentiles(values: list[float]) -> tuple[float, float, float]:
    ordered = sorted(values)
    pick = lambda q: ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]  # noqa: E731
    return statistics.median(ordered), pick(0.95), pick(0.99)


def _time_nbdeps(path: Path) -> float:
    import nbdeps
    from nbdeps._cellinfo import _analyze

    _analyze.cache_clear()
    start = time.perf_counter()
    nbdeps.check(nbdeps.load_notebook(path))
    return time.perf_counter() - start


def _python_sources(path: Path) -> list[str]:
    from IPython.core.inputtransformer2 import TransformerManager

    manager = TransformerManager()
    data = json.loads(path.read_text())
    return [manager.transform_cell("".join(c["source"])) for c in data["cells"] if c["cell_type"] == "code"]


def _time_pyflakes(sources: list[str]) -> float:
    from pyflakes.api import check
    from pyflakes.reporter import Reporter

    code = "\n".join(sources)
    start = time.perf_counter()
    check(code, "<notebook>", Reporter(io.StringIO(), io.StringIO()))
    return time.perf_counter() - start


def _time_libcst(sources: list[str]) -> float:
    import libcst

    start = time.perf_counter()
    for source in sources:
        try:
            libcst.parse_module(source)
        except Exception:  # a cell libcst cannot parse still costs its time
            pass
    return time.perf_counter() - start


def main() -> str:
    import nbdeps

    rng = random.Random(20261129)
    nbdeps.check(["import os"])  # import IPython etc. outside the timings
    with tempfile.TemporaryDirectory() as tmp:
        paths = []
        for i in range(CORPUS):
            path = Path(tmp) / f"nb{i:03d}.ipynb"
            path.write_text(json.dumps(_notebook(rng, rng.randint(20, 80))))
            paths.append(path)
        big = Path(tmp) / "big.ipynb"
        big.write_text(json.dumps(_notebook(rng, 1000)))
        sources = {p: _python_sources(p) for p in [*paths, big]}
        ours = {p: min(_time_nbdeps(p) for _ in range(ROUNDS)) for p in paths}
        peer = {p: min(_time_pyflakes(sources[p]) for _ in range(ROUNDS)) for p in paths}
        cst = {p: _time_libcst(sources[p]) for p in paths[:20]}
        big_ours = min(_time_nbdeps(big) for _ in range(ROUNDS))
        big_peer = min(_time_pyflakes(sources[big]) for _ in range(ROUNDS))
        n_cells = [sum(1 for c in json.loads(p.read_text())["cells"]) for p in paths]
    o, p_, c = _percentiles(list(ours.values())), _percentiles(list(peer.values())), _percentiles(list(cst.values()))
    ratios = [ours[k] / peer[k] for k in paths]
    ms = lambda v: f"{v * 1000:.2f}"  # noqa: E731
    lines = [
        "## nbdeps",
        "",
        f"Load + check per notebook, {CORPUS} generated notebooks of {min(n_cells)}-{max(n_cells)} cells "
        f"(best of {ROUNDS} per notebook), against pyflakes on the same cells' transformed code.",
        "",
        "| tool | median ms | p95 ms | p99 ms |",
        "|---|---|---|---|",
        f"| nbdeps load + check | {ms(o[0])} | {ms(o[1])} | {ms(o[2])} |",
        f"| pyflakes (code only) | {ms(p_[0])} | {ms(p_[1])} | {ms(p_[2])} |",
        f"| libcst parse only (20 notebooks) | {ms(c[0])} | {ms(c[1])} | {ms(c[2])} |",
        "",
        f"Ratio nbdeps / pyflakes per notebook: median {statistics.median(ratios):.2f}x, "
        f"p95 {_percentiles(ratios)[1]:.2f}x. Goal p99 < 50 ms: "
        f"{'met' if o[2] < 0.050 else 'NOT met'} ({ms(o[2])} ms).",
        "",
        "| 1,000-cell notebook | ms |",
        "|---|---|",
        f"| nbdeps load + check | {ms(big_ours)} |",
        f"| pyflakes (code only) | {ms(big_peer)} |",
        f"| ratio | {big_ours / big_peer:.2f}x |",
    ]
    text = "\n".join(lines)
    print(text)
    return text


if __name__ == "__main__":
    main()
