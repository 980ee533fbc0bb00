"""Predictions against a real Jupyter kernel: what nbdeps says fails does fail when the
cells run, top to bottom (Restart & Run All) or in the saved execution-count order."""

from __future__ import annotations

import copy
from pathlib import Path

import nbformat
import pytest

import nbdeps

EXAMPLES = Path(__file__).resolve().parents[3] / "examples" / "nbdeps"
pytestmark = [pytest.mark.kernel, pytest.mark.slow]


def run(node, order):
    """Execute the code cells of `node` in `order` (cell indices) in a fresh kernel; return
    the indices of the cells that raised."""
    nbclient = pytest.importorskip("nbclient")
    node = copy.deepcopy(node)
    ordered = [copy.deepcopy(node.cells[i]) for i in order]
    for cell, index in zip(ordered, order):
        cell.metadata["nbdeps_index"] = index
        cell.outputs = []
    node.cells = ordered
    nbclient.NotebookClient(node, timeout=60, kernel_name="python3", allow_errors=True).execute()
    return {c.metadata["nbdeps_index"] for c in node.cells
            if any(o.get("output_type") == "error" for o in c.get("outputs", []))}


@pytest.mark.parametrize("name", ["runs_clean", "hidden_state", "rerun_drop"])
def test_restart_and_run_all_fails_where_predicted(name):
    path = EXAMPLES / f"{name}.ipynb"
    node = nbformat.read(path, as_version=4)
    code = [i for i, c in enumerate(node.cells) if c.cell_type == "code"]
    failed = run(node, code)
    assert nbdeps.runs_top_to_bottom(path) == (not failed)
    predicted = {f.cell_index for f in nbdeps.check(path) if f.code in nbdeps._checks.TOP_TO_BOTTOM_CODES}
    assert min(failed, default=None) == min(predicted, default=None)  # the first failure is foreseen


def test_replaying_the_history_fails_on_the_repeated_destructive_cell():
    path = EXAMPLES / "rerun_drop.ipynb"
    node = nbformat.read(path, as_version=4)
    history = sorted((c.execution_count, i) for i, c in enumerate(node.cells)
                     if c.cell_type == "code" and c.execution_count is not None)
    failed = run(node, [i for _, i in history])
    predicted = {f.cell_index for f in nbdeps.check(path) if f.code == "ND402"}
    assert failed == predicted == {4}
