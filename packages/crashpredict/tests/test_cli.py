"""The `crashpredict` CLI on the bundled example notebooks (real kernels)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import nbformat
import pytest

from crashpredict.cli import main

pytestmark = pytest.mark.kernel

EXAMPLES = Path(__file__).resolve().parents[3] / "examples" / "crashpredict"


@pytest.fixture
def examples(tmp_path: Path) -> Path:
    for nb in EXAMPLES.glob("*.ipynb"):
        shutil.copy(nb, tmp_path / nb.name)
    return tmp_path


def test_check_crashing_example_exits_1_with_the_diagnosis(examples: Path, capsys) -> None:
    code = main(["check", str(examples / "churn_crash.ipynb"), "--quiet"])
    out = capsys.readouterr().out
    assert code == 1
    assert "crash predicted at line 2: ValueError" in out
    assert "unseen at fit time: ['region']" in out


def test_check_fine_example_exits_0_as_json(examples: Path, capsys) -> None:
    code = main(["check", str(examples / "churn_fine.ipynb"), "--format", "json"])
    captured = capsys.readouterr()
    data = json.loads(captured.out)
    assert code == 0 and data["verdict"]["crash"] is False
    assert data["replayed"] == [1, 2, 3]
    assert "replaying cell 1 (1/3)" in captured.err


def test_replay_failure_exits_2_with_the_reason(tmp_path: Path, capsys) -> None:
    nb = nbformat.v4.new_notebook(cells=[
        nbformat.v4.new_code_cell("import pandas as pd", execution_count=1),
        nbformat.v4.new_code_cell("df = pd.read_csv('data/train.csv')", execution_count=2),
        nbformat.v4.new_code_cell("df.head()")])
    nbformat.write(nb, tmp_path / "nb.ipynb")
    assert main(["check", str(tmp_path / "nb.ipynb"), "--quiet"]) == 2
    err = capsys.readouterr().err
    assert "replay failed at cell 1: FileNotFoundError" in err and "data/train.csv" in err


def test_walk_reports_predicted_against_actual(tmp_path: Path, capsys) -> None:
    nb = nbformat.v4.new_notebook(cells=[
        nbformat.v4.new_code_cell("d = {'a': 1}"),
        nbformat.v4.new_code_cell("d['b']"),
        nbformat.v4.new_code_cell("x = d['a'] + 1")])
    nbformat.write(nb, tmp_path / "walk.ipynb")
    assert main(["walk", str(tmp_path / "walk.ipynb"), "--quiet"]) == 1
    out = capsys.readouterr().out
    assert "   1  crash KeyError       crash KeyError" in out
    assert "agreement: 3/3" in out


@pytest.mark.parametrize(("argv", "message"), [
    (["check", "missing.ipynb"], "missing.ipynb: no such file"),
    (["check", "{nb}", "--cell", "nope"], "no code cell with id or index 'nope'"),
    (["check", "{nb}", "--engine", "magic"], "unknown engine 'magic'"),
    (["check", "{nb}", "--engine", "dryrun", "--shrink", "0"], "--shrink must be at least 1"),
])
def test_bad_input_is_one_line_and_exit_2(examples: Path, argv: list, message: str,
                                          capsys) -> None:
    argv = [a.format(nb=examples / "churn_fine.ipynb") for a in argv]
    assert main(argv) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert message in err[-1] and err[-1].startswith("crashpredict: error:")


def test_not_a_notebook_exits_2(tmp_path: Path, capsys) -> None:
    bad = tmp_path / "bad.ipynb"
    bad.write_text("{not json")
    assert main(["check", str(bad)]) == 2
    assert f"{bad}: not a readable notebook" in capsys.readouterr().err
