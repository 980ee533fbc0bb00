"""The crash / fix pair corpus (``pairs/``): truth by running each cell, verdict by the rules.

``pairs/run_pairs.py`` runs in a subprocess: for every pair, the setup of its library, then
the rule engine's prediction, then the cell itself, each cell in a fresh namespace. A crash
cell must really raise and be predicted with a compatible exception class; a fixed cell must
really run and must not be flagged (a false alarm on working code is the worse defect).
Known misses are strict xfails with the reason.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow

PAIRS_DIR = Path(__file__).resolve().parent / "pairs"
RUNNER = PAIRS_DIR / "run_pairs.py"
LIBRARIES = ("numpy", "pandas", "sklearn", "torch", "keras", "plots")

#: Crashes the rules do not predict, and why (strict: a fix must remove the entry).
KNOWN_MISSES = {
    ("numpy", "a random boolean mask of the right length"):
        "a boolean mask keeps a data-dependent number of rows: the shape is not known",
    ("sklearn", "the codes of an ignored unknown category indexed past their width"):
        "the encoder's output is a scipy sparse matrix: only arrays are propagated",
    ("keras", "labels for ten classes with a three-unit softmax"):
        "the labels are changed by an item assignment, so they are unknown",
}


def _corpus() -> list[tuple[str, str]]:
    cases = []
    for library in LIBRARIES:
        namespace: dict = {}
        path = PAIRS_DIR / f"{library}_pairs.py"
        exec(compile(path.read_text(), str(path), "exec"), namespace)
        cases += [(library, name) for name, _, _ in namespace["PAIRS"]]
    return cases


CASES = _corpus()


@pytest.fixture(scope="module")
def results() -> dict:
    env = {**os.environ, "TF_CPP_MIN_LOG_LEVEL": "3"}
    done = subprocess.run([sys.executable, str(RUNNER)], capture_output=True, text=True,
                          timeout=1200, env=env, check=False)
    assert done.returncode == 0, done.stderr[-3000:]
    rows = [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")]
    rows = [r for r in rows if "warmup_ms" not in r]
    return {(r["library"], r["name"], r["version"]): r for r in rows}


def test_corpus_is_large_and_names_are_unique() -> None:
    assert len(CASES) >= 60
    assert len(set(CASES)) == len(CASES)


@pytest.mark.parametrize(("library", "name"), [pytest.param(*c, id=f"{c[0]}: {c[1]}")
                                               for c in CASES])
def test_fixed_cell_runs_and_is_not_flagged(results: dict, library: str, name: str) -> None:
    row = results[(library, name, "fixed")]
    assert row["raised"] is None, f"ground truth: the fixed cell must run ({row['message']})"
    assert row["predicted"] is False, row["explanation"]


def _crash_param(case: tuple[str, str]) -> pytest.param:
    reason = KNOWN_MISSES.get(case)
    marks = [pytest.mark.xfail(strict=True, reason=reason)] if reason else []
    return pytest.param(*case, id=f"{case[0]}: {case[1]}", marks=marks)


@pytest.mark.parametrize(("library", "name"), [_crash_param(c) for c in CASES])
def test_crash_cell_raises_and_is_predicted(results: dict, library: str, name: str) -> None:
    row = results[(library, name, "crash")]
    assert row["raised"] is not None, "ground truth: the crash cell must raise"
    assert row["predicted"] is True, row["explanation"]
    assert row["exception"] in row["raised_mro"], (row["exception"], row["raised"])


def test_known_misses_are_in_the_corpus() -> None:
    assert set(KNOWN_MISSES) <= set(CASES)
