"""Shared test helpers (importlib mode: helpers live here, reached through fixtures)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import nbformat
import pytest

REPO = Path(__file__).resolve().parents[3]
JUNOBENCH = REPO / "tests" / "junobench-sample"  # shipped in the repo


def _cell(spec: Any, index: int, ids: bool) -> nbformat.NotebookNode:
    if isinstance(spec, str):
        kind, source = ("markdown", spec[2:]) if spec.startswith("# ") else ("code", spec)
        spec = {"cell_type": kind, "source": source}
    kind = spec["cell_type"]
    maker = nbformat.v4.new_code_cell if kind == "code" else nbformat.v4.new_markdown_cell
    cell = maker(spec["source"])
    cell.metadata.update(spec.get("metadata", {}))
    if kind == "code":
        cell.outputs = [nbformat.from_dict(o) for o in spec.get("outputs", [])]
        cell.execution_count = spec.get("execution_count")
    if ids:
        cell.id = spec.get("id", f"c{index}")
    else:
        cell.pop("id", None)
    return cell


def make_notebook(*specs: Any, ids: bool = True) -> nbformat.NotebookNode:
    """A notebook from cell specs: ``"code"``, ``"# markdown"`` or a dict; ids ``c<n>``."""
    nb = nbformat.v4.new_notebook()
    if not ids:
        nb.nbformat_minor = 4
    nb.cells = [_cell(spec, k, ids) for k, spec in enumerate(specs)]
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3",
                                 "language": "python"}
    return nb


def compared(nb: Any, *, outputs: bool = False, metadata: bool = False) -> list[tuple]:
    """The parts of a notebook that ``diff`` compares, in order."""
    parts = []
    for cell in nb["cells"]:
        item: tuple = (cell["cell_type"], "".join(cell["source"]))
        if outputs and cell["cell_type"] == "code":
            item += (cell.get("outputs"), cell.get("execution_count"))
        if metadata:
            item += (dict(cell.get("metadata", {})),)
        parts.append(item)
    if metadata:
        parts.append(("notebook", dict(nb["metadata"])))
    return parts


@pytest.fixture
def nb() -> Callable[..., nbformat.NotebookNode]:
    return make_notebook


@pytest.fixture
def parts() -> Callable[..., list[tuple]]:
    return compared


@pytest.fixture
def junobench() -> Path:
    if not JUNOBENCH.is_dir():
        pytest.skip("JunoBench sample not present")
    return JUNOBENCH.resolve()
