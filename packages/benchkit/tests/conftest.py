"""Tiny generated cases in the JunoBench layout."""

from __future__ import annotations

import json
from pathlib import Path

import nbformat
import pytest

SAMPLE = Path(__file__).resolve().parents[3] / "tests" / "junobench-sample"  # shipped in the repo


def notebook(cells, *, error_at=None, ids=None):
    """cells: sequence of (source, execution_count); the cell at ``error_at`` gets an error output."""
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    for i, (source, count) in enumerate(cells):
        cell = nbformat.v4.new_code_cell(source, execution_count=count)
        cell.id = (ids or {}).get(i, f"c{i:03d}")
        if i == error_at:
            cell.outputs = [nbformat.v4.new_output("error", ename="Err", evalue="boom", traceback=[])]
        nb.cells.append(cell)
    return nb


def write_case(root: Path, name: str, reproduced, fixed=None, *, error_at, labels=None, files=None):
    folder = root / name
    folder.mkdir(parents=True)
    nbformat.write(notebook(reproduced, error_at=error_at), folder / f"{name}_reproduced.ipynb")
    if fixed is not None:
        nbformat.write(notebook(fixed), folder / f"{name}_fixed.ipynb")
    if labels is not None:
        (folder / "case.json").write_text(json.dumps({"name": name, **labels}))
    for rel, text in (files or {}).items():
        (folder / rel).parent.mkdir(parents=True, exist_ok=True)
        (folder / rel).write_text(text)
    return folder


@pytest.fixture(name="write_case")
def write_case_fixture():
    return write_case


@pytest.fixture
def sample_root():
    if not SAMPLE.is_dir():
        pytest.skip("the JunoBench sample (tests/junobench-sample) is not here")
    return SAMPLE.resolve()


@pytest.fixture
def tiny_cases(tmp_path):
    """Crash/fix pairs, one per kind of crash, that run in a second each."""
    root = tmp_path / "cases"
    write_case(root, "python_1",
               [("x = {'a': 1}", 1), ("x['b']", 2)],
               [("x = {'a': 1}", 1), ("x['a']", 2)],
               error_at=1, labels={"ename": "keyerror", "crash_type": "key error",
                                   "root_cause": "data confusion", "pipeline_stage": "data preparation"})
    write_case(root, "NBspecific_1",
               [("a = 1", 1), ("print(b)", 2)],
               [("a = 1", 1), ("b = a", 2), ("print(b)", 3)],
               error_at=1, labels={"ename": "nameerror", "crash_type": "variable not found",
                                   "root_cause": "NB specific", "pipeline_stage": "training"})
    write_case(root, "numpy_1",
               [("import numpy as np\na = np.ones((2, 3))", 1), ("a @ a", 2)],
               [("import numpy as np\na = np.ones((2, 3))", 1), ("a @ a.T", 2)],
               error_at=1, labels={"ename": "valueerror", "crash_type": "tensor shape mismatch",
                                   "root_cause": "API misuse", "pipeline_stage": "training"})
    write_case(root, "pandas_1",
               [("import pandas as pd\ndf = pd.read_csv('data/t.csv')", 1), ("df['missing']", 2)],
               [("import pandas as pd\ndf = pd.read_csv('data/t.csv')", 1), ("df['a']", 2)],
               error_at=1, labels={"ename": "keyerror", "crash_type": "key error",
                                   "root_cause": "data confusion", "pipeline_stage": "data preparation"},
               files={"data/t.csv": "a,b\n1,2\n3,4\n"})
    return root
