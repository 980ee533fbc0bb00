"""nbpatch: ``diff`` of two 1,000-cell notebooks and of a notebook with one 50 KB cell,
against nbdime's ``diff_notebooks`` on the same pairs.

nbdime runs in a subprocess with a time limit (it can take minutes on one large cell, its
issues #396 and #540), so the benchmark stays bounded; when it does not finish, the table
says ">= limit" and the ratio is a lower bound.
"""

from __future__ import annotations

import copy
import json
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import nbformat

REPEATS = 7
NBDIME_REPEATS = 3
NBDIME_LIMIT_S = 100.0

_NBDIME = r"""
import json, sys, time
import nbformat
from nbdime.diffing.notebooks import diff_notebooks
a, b = (nbformat.read(p, as_version=4) for p in sys.argv[1:3])
times = []
for _ in range(int(sys.argv[3])):
    t0 = time.perf_counter()
    diff_notebooks(a, b)
    times.append(time.perf_counter() - t0)
    print(json.dumps(times), flush=True)
"""


def _line(rng: random.Random, k: int) -> str:
    names = ("df", "model", "X_train", "y", "scores", "features", "history", "params")
    calls = ("fit", "transform", "groupby", "merge", "predict", "append", "plot", "describe")
    return (f"{rng.choice(names)}_{k} = {rng.choice(names)}.{rng.choice(calls)}"
            f"({rng.randint(0, 999)}, axis={rng.randint(0, 1)})")


def _thousand_cells(rng: random.Random) -> tuple[nbformat.NotebookNode, nbformat.NotebookNode]:
    a = nbformat.v4.new_notebook()
    for k in range(1000):
        if k % 5 == 0:
            cell = nbformat.v4.new_markdown_cell(f"## Step {k}\n\nWhy step {k} matters.")
        else:
            n = rng.randint(3, 12)
            cell = nbformat.v4.new_code_cell("\n".join(_line(rng, k * 20 + i) for i in range(n)))
        cell.id = f"cell-{k}"
        a.cells.append(cell)
    b = copy.deepcopy(a)
    for cell in rng.sample(b.cells, 50):  # 5% edited: one line changed
        lines = cell.source.split("\n")
        lines[rng.randrange(len(lines))] = _line(rng, 99_999)
        cell.source = "\n".join(lines)
    for k in sorted(rng.sample(range(len(b.cells)), 20), reverse=True):  # 2% deleted
        del b.cells[k]
    for k in range(20):  # 2% inserted
        new = nbformat.v4.new_code_cell(_line(rng, 50_000 + k))
        new.id = f"new-{k}"
        b.cells.insert(rng.randrange(len(b.cells)), new)
    for _ in range(10):  # 1% moved
        b.cells.insert(rng.randrange(len(b.cells)), b.cells.pop(rng.randrange(len(b.cells))))
    return a, b


def _one_big_cell(rng: random.Random) -> tuple[nbformat.NotebookNode, nbformat.NotebookNode]:
    lines = []
    while sum(len(x) + 1 for x in lines) < 50_000:
        lines.append(_line(rng, len(lines)))
    a = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("\n".join(lines))])
    a.cells[0].id = "big"
    b = copy.deepcopy(a)
    for k in rng.sample(range(len(lines)), len(lines) // 20):  # 5% of the lines edited
        lines[k] = _line(rng, 70_000 + k)
    b.cells[0].source = "\n".join(lines)
    return a, b


def _rewritten_big_cell(rng: random.Random) -> tuple[nbformat.NotebookNode,
                                                      nbformat.NotebookNode]:
    """The 50 KB cell after a codemod-style rename that touches every line."""
    a, _ = _one_big_cell(rng)
    b = copy.deepcopy(a)
    b.cells[0].source = a.cells[0].source.replace("axis=", "axis = ").replace("df_", "frame_")
    return a, b


def _time_nbpatch(a, b) -> tuple[list[float], bool]:
    import nbpatch

    times = []
    for _ in range(REPEATS):
        t0 = time.perf_counter()
        patch = nbpatch.diff(a, b)
        times.append(time.perf_counter() - t0)
    result = nbpatch.apply(a, patch)
    same = [(c.cell_type, c.source) for c in result.cells] == [
        (c.cell_type, c.source) for c in b.cells]
    return times, same


def _time_nbdime(a, b, repeats: int) -> tuple[list[float], bool]:
    """nbdime's timings, and whether it finished within the limit."""
    with tempfile.TemporaryDirectory(prefix="bench-nbpatch-") as tmp:
        pa, pb = Path(tmp) / "a.ipynb", Path(tmp) / "b.ipynb"
        nbformat.write(a, pa)
        nbformat.write(b, pb)
        proc = subprocess.Popen([sys.executable, "-c", _NBDIME, str(pa), str(pb), str(repeats)],
                                stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        try:
            out, _ = proc.communicate(timeout=NBDIME_LIMIT_S)
            finished = proc.returncode == 0
        except subprocess.TimeoutExpired:
            proc.kill()
            out, _ = proc.communicate()
            finished = False
    lines = [line for line in out.splitlines() if line.startswith("[")]
    times = json.loads(lines[-1]) if lines else []
    return times, finished and len(times) == repeats


def _p95(times: list[float]) -> float:
    return statistics.quantiles(times, n=20, method="inclusive")[-1] if len(times) > 1 else times[0]


def _ms(seconds: float) -> str:
    return f"{seconds * 1000:,.1f} ms" if seconds < 10 else f"{seconds:,.1f} s"


def main() -> str:
    rng = random.Random(8)
    pairs = {
        "two 1,000-cell notebooks (5% edited, 2% inserted, 2% deleted, 1% moved)":
            (_thousand_cells(rng), NBDIME_REPEATS),
        "one 50 KB cell (5% of its lines edited)": (_one_big_cell(rng), 1),
        "one 50 KB cell (every line edited: a codemod rename)": (_rewritten_big_cell(rng), 1),
    }
    rows = []
    for name, ((a, b), nbdime_repeats) in pairs.items():
        ours, correct = _time_nbpatch(a, b)
        theirs, finished = _time_nbdime(a, b, nbdime_repeats)
        our_median = statistics.median(ours)
        if finished:
            their = statistics.median(theirs)
            their_text, ratio = _ms(their), f"{their / our_median:,.0f}x"
        else:
            their_text = f">= {NBDIME_LIMIT_S:.0f} s (limit)"
            ratio = f">= {NBDIME_LIMIT_S / our_median:,.0f}x"
        rows.append(f"| {name} | {_ms(our_median)} | {_ms(_p95(ours))} | {their_text} | "
                    f"{ratio} | {'yes' if correct else 'NO'} |")
    text = "\n".join([
        "## nbpatch",
        "",
        f"`nbpatch.diff` ({REPEATS} runs: median, p95) against nbdime "
        f"`diff_notebooks` (median of {NBDIME_REPEATS} runs on the 1,000-cell pair, 1 run on "
        f"each 50 KB cell; in a subprocess limited to {NBDIME_LIMIT_S:.0f} s) on the same pairs. "
        "Ratio = nbdime median / nbpatch median; goal >= 5x. "
        "\"apply ok\": `apply(a, diff(a, b))` reproduces b.",
        "",
        "| pair | nbpatch median | nbpatch p95 | nbdime median | ratio | apply ok |",
        "|---|---|---|---|---|---|",
        *rows,
        "",
    ])
    print(text)
    return text


if __name__ == "__main__":
    main()
