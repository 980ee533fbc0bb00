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
    assert "engine rules+dryrun" in out and "unseen at fit time: ['region']" in out
    assert "confirmed by a dry run" in out and "unseen at fit time: - region" in out
    assert main(["check", str(examples / "churn_crash.ipynb"), "--quiet", "--engine",
                 "rules"]) == 1
    out = capsys.readouterr().out
    assert "engine rules)" in out and "unseen at fit time: ['region']" in out


def test_check_fine_example_exits_0_as_json(examples: Path, capsys) -> None:
    code = main(["check", str(examples / "churn_fine.ipynb"), "--format", "json"])
    captured = capsys.readouterr()
    data = json.loads(captured.out)
    assert code == 0 and data["verdict"]["crash"] is False
    assert "replayed" not in data and "target_index" not in data  # no 0-based fields
    assert data["replayed_positions"] == [2, 3, 4] and data["cell_position"] == 5
    assert data["execution_count"] is None  # the target never ran in the saved notebook
    assert "replaying cell 2 [1] (id 11d77929) (1/3)" in captured.err


def test_replay_failure_is_reported_and_the_replay_goes_on(tmp_path: Path, capsys) -> None:
    nb = nbformat.v4.new_notebook(cells=[
        nbformat.v4.new_code_cell("import pandas as pd", execution_count=1),
        nbformat.v4.new_code_cell("df = pd.read_csv('data/train.csv')", execution_count=2),
        nbformat.v4.new_code_cell("df.head()")])
    nbformat.write(nb, tmp_path / "nb.ipynb")
    assert main(["check", str(tmp_path / "nb.ipynb"), "--quiet"]) == 1
    out = capsys.readouterr().out
    assert "after replaying 2 cell(s), 1 of which failed" in out
    assert "  replay: cell 2 [2] (id " in out
    assert ") failed at line 1: FileNotFoundError" in out and "data/train.csv" in out
    assert "left unbound: df (the replay went on)" in out
    assert "limits: the target reads df, left unbound because cell 2 [2]" in out


def test_walk_reports_predicted_against_actual(tmp_path: Path, capsys) -> None:
    nb = nbformat.v4.new_notebook(cells=[
        nbformat.v4.new_code_cell("d = {'a': 1}"),
        nbformat.v4.new_code_cell("d['b']"),
        nbformat.v4.new_code_cell("x = d['a'] + 1")])
    nbformat.write(nb, tmp_path / "walk.ipynb")
    assert main(["walk", str(tmp_path / "walk.ipynb"), "--quiet"]) == 1
    out = capsys.readouterr().out
    assert "   2        crash KeyError       crash KeyError" in out
    assert "agreement: 3/3 checked cells" in out


def test_walk_says_not_checked_when_its_dry_run_was_blocked(tmp_path: Path, capsys) -> None:
    nb = nbformat.v4.new_notebook(cells=[
        nbformat.v4.new_code_cell("x = 1", execution_count=1),
        nbformat.v4.new_markdown_cell("## fetch"),
        nbformat.v4.new_code_cell("import subprocess\nsubprocess.run(['true'])",
                                  execution_count=3),
        nbformat.v4.new_code_cell("y = x + 1", execution_count=2)])
    nbformat.write(nb, tmp_path / "walk.ipynb")
    assert main(["walk", str(tmp_path / "walk.ipynb"), "--quiet"]) == 0
    out = capsys.readouterr().out
    assert "   3 [3]    not checked          ok\n" in out  # never "ok" for an unchecked cell
    assert "   1 [1]    ok                   ok\n" in out
    assert "agreement: 2/2 checked cells (1 not checked)" in out
    assert "cell 3 [3] (id " in out and ("): not checked: its dry run was blocked "
                                         "(subprocess 'true')") in out
    assert main(["walk", str(tmp_path / "walk.ipynb"), "--quiet", "--format", "json"]) == 0
    steps = json.loads(capsys.readouterr().out)["steps"]
    assert [(s["cell_position"], s["execution_count"], s["checked"]) for s in steps] == [
        (1, 1, True), (3, 3, False), (4, 2, True)]
    assert all("index" not in s for s in steps)


def test_walk_says_a_download_failed_for_want_of_network(tmp_path: Path, capsys) -> None:
    nb = nbformat.v4.new_notebook(cells=[
        nbformat.v4.new_code_cell("import urllib.request\n"
                                  "data = urllib.request.urlopen('http://example.com/').read()")])
    nbformat.write(nb, tmp_path / "fetch.ipynb")
    main(["walk", str(tmp_path / "fetch.ipynb"), "--quiet", "--engine", "rules"])
    out = capsys.readouterr().out
    assert "crash URLError" in out and ("): the replay kernel has no network, so a download "
                                        "fails here even where it works for you") in out


def test_walk_says_rules_only_when_its_dry_run_did_not_answer(tmp_path: Path) -> None:
    from crashpredict import walk_notebook
    from crashpredict._render import walk_text

    nb = nbformat.v4.new_notebook(cells=[
        nbformat.v4.new_code_cell("x = 1"),
        nbformat.v4.new_code_cell("import time\ntime.sleep(5)\ny = x")])
    nbformat.write(nb, tmp_path / "slow.ipynb")
    # 1.5 s: on a loaded machine the fork and jail of cell 1's dry run took half a second
    walked = walk_notebook(tmp_path / "slow.ipynb", options={"dryrun": {"budget_s": 1.5}})
    text = walk_text(walked)
    assert "   2        ok (rules only)      ok\n" in text  # not a plain "ok"
    assert "   1        ok                   ok\n" in text
    assert "cell 2 (id " in text and "inconclusive" in text and "1.5 s budget" in text


def test_walk_names_the_repair_of_a_cell_that_fails_with_api_drift(tmp_path: Path,
                                                                    capsys) -> None:
    nb = nbformat.v4.new_notebook(cells=[
        nbformat.v4.new_code_cell("import numpy as np"),
        nbformat.v4.new_code_cell("x = np.float(1)")])
    nbformat.write(nb, tmp_path / "old.ipynb")
    assert main(["walk", str(tmp_path / "old.ipynb"), "--quiet", "--engine", "rules"]) == 1
    out = capsys.readouterr().out
    assert "   2        crash AttributeError crash AttributeError\n" in out
    assert ("  cell 2 (id " in out and "): API drift (np.float was removed in NumPy 1.24; "
            f"use float): `benchkit modernize {tmp_path / 'old.ipynb'}` rewrites removed "
            "library APIs with its codemods") in out


@pytest.mark.parametrize(("argv", "message"), [
    (["check", "missing.ipynb"], "missing.ipynb: no such file"),
    (["check", "{nb}", "--cell", "nope"], "no code cell with id or position 'nope'"),
    (["check", "{nb}", "--cell", "1"], "cell 1 is not a code cell"),
    (["check", "{nb}", "--engine", "magic"], "unknown engine 'magic'"),
    (["check", "{nb}", "--engine", "dryrun", "--shrink", "0"], "--shrink must be at least 1"),
])
def test_bad_input_is_one_line_and_exit_2(examples: Path, argv: list, message: str,
                                          capsys) -> None:
    argv = [a.format(nb=examples / "churn_fine.ipynb") for a in argv]
    assert main(argv) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert message in err[-1] and err[-1].startswith("crashpredict: error:")


def test_a_position_that_is_not_a_code_cell_points_at_the_execution_count(
        tmp_path: Path, capsys) -> None:
    nb = nbformat.v4.new_notebook(cells=[
        nbformat.v4.new_code_cell("x = 1", execution_count=1),
        nbformat.v4.new_markdown_cell("## next"),
        nbformat.v4.new_code_cell("y = x", execution_count=2)])
    nb.cells[2].id = "next"
    nbformat.write(nb, tmp_path / "nb.ipynb")
    assert main(["check", str(tmp_path / "nb.ipynb"), "--cell", "2"]) == 2
    assert capsys.readouterr().err.strip() == (
        f"crashpredict: error: {tmp_path / 'nb.ipynb'}: cell 2 is not a code cell (cells are "
        "counted from 1, markdown cells included; the cell JupyterLab shows as [2] is cell 3 "
        "[2] (id next), --cell 3)")


def test_not_a_notebook_exits_2(tmp_path: Path, capsys) -> None:
    bad = tmp_path / "bad.ipynb"
    bad.write_text("{not json")
    assert main(["check", str(bad)]) == 2
    assert f"{bad}: not a readable notebook" in capsys.readouterr().err


def _write(path: Path, cells: list, *, ids: bool = True) -> Path:
    nb = nbformat.v4.new_notebook(cells=cells)
    data = json.loads(nbformat.writes(nb))
    if not ids:  # an nbformat 4.4 notebook, as older Jupyter wrote them
        data["nbformat_minor"] = 4
        for c in data["cells"]:
            c.pop("id", None)
    path.write_text(json.dumps(data))
    return path


def test_never_run_notebook_replays_the_cells_above_in_order(tmp_path: Path, capsys) -> None:
    nb = _write(tmp_path / "fresh.ipynb", [
        nbformat.v4.new_markdown_cell("# never run"),
        nbformat.v4.new_code_cell("import pandas as pd"),
        nbformat.v4.new_code_cell("df = pd.DataFrame({'a': [1, 2]})"),
        nbformat.v4.new_code_cell("total = df['a'].sum()"),
        nbformat.v4.new_code_cell("df['b']")], ids=False)
    assert main(["check", str(nb), "--cell", "4", "--quiet"]) == 0
    out = capsys.readouterr().out
    assert "cell 4, after replaying 2 cell(s)" in out and "(id" not in out
    assert "never run (no execution counts): replayed the 2 code cell(s) above" in out
    assert main(["check", str(nb), "--cell", "5", "--quiet", "--format", "json"]) == 1
    data = json.loads(capsys.readouterr().out)
    assert data["replayed_positions"] == [2, 3, 4] and data["verdict"]["exception"] == "KeyError"
    assert data["cell_position"] == 5 and data["cell_id"] is None


@pytest.mark.parametrize(("counts", "message"), [
    ((None, None), "never run (no execution counts) and has no error output"),
    ((1, 2), "every code cell has run and none shows an error"),
])
def test_no_default_target_is_explained(tmp_path: Path, capsys, counts, message) -> None:
    nb = _write(tmp_path / "nb.ipynb", [nbformat.v4.new_code_cell("x = 1", execution_count=counts[0]),
                                       nbformat.v4.new_code_cell("y = x", execution_count=counts[1])])
    assert main(["check", str(nb), "--quiet"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith(f"crashpredict: error: {nb}: ") and message in err
    assert "--cell" in err and len(err.splitlines()) == 1


def test_old_notebook_without_ids_gives_no_warning(tmp_path: Path, capfd) -> None:
    nb = _write(tmp_path / "old.ipynb", [nbformat.v4.new_code_cell("d = {}", execution_count=1),
                                        nbformat.v4.new_code_cell("d['k']")], ids=False)
    assert main(["check", str(nb), "--quiet", "--engine", "rules"]) == 1
    captured = capfd.readouterr()
    assert captured.err == "" and "Warning" not in captured.out
    assert "cell 2, after replaying 1 cell(s)" in captured.out


def test_utf8_bom_notebook_is_accepted(tmp_path: Path, capsys) -> None:
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("d = {}", execution_count=1),
                                         nbformat.v4.new_code_cell("d['k']")])
    path = tmp_path / "bom.ipynb"
    path.write_bytes(b"\xef\xbb\xbf" + nbformat.writes(nb).encode())
    assert main(["check", str(path), "--quiet", "--engine", "rules"]) == 1
    assert "KeyError" in capsys.readouterr().out


def test_lone_surrogate_names_file_cell_and_line(tmp_path: Path, capsys) -> None:
    path = tmp_path / "sur.ipynb"
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_markdown_cell("m"),
                                         nbformat.v4.new_code_cell("x = 1\ns = '\ud800'")])
    nb.cells[1]["id"] = "c2"
    path.write_text(json.dumps(nb), encoding="utf-8")  # json escapes the surrogate
    assert main(["check", str(path), "--cell", "2"]) == 2
    err = capsys.readouterr().err.strip()
    assert err == (f"crashpredict: error: {path}: cell 2 (id c2), line 2: holds a lone "
                   f"surrogate (U+D800), which is not valid text")


def test_deeply_nested_json_is_refused_cleanly(tmp_path: Path, capsys) -> None:
    path = tmp_path / "deep.ipynb"
    path.write_text("[" * 100_000 + "]" * 100_000)
    assert main(["check", str(path)]) == 2
    assert f"{path}: not a readable notebook" in capsys.readouterr().err


@pytest.mark.parametrize(("target", "fault", "budget"), [
    ("os._exit(3)", "exit code 3", "4"),  # these end at once: a loaded machine may take
    ("import faulthandler\nfaulthandler._sigsegv()", "SIGSEGV", "4"),  # 1 s to start them
    ("while True:\n    pass", "1 s budget", "1"),
], ids=["os._exit", "segfault", "hang"])
def test_default_engines_are_rules_and_dry_run_and_faults_are_named(tmp_path: Path, capsys,
                                                                    target, fault,
                                                                    budget) -> None:
    nb = _write(tmp_path / "fault.ipynb", [
        nbformat.v4.new_code_cell("import os", execution_count=1),
        nbformat.v4.new_code_cell(target)])
    assert main(["check", str(nb), "--quiet", "--dryrun-budget", budget]) == 0
    out = capsys.readouterr().out
    assert "engine rules)" in out  # the rules' verdict stands: the dry run could not answer
    (note,) = [line for line in out.splitlines() if line.startswith("  dry run:")]
    assert "inconclusive" in note and fault in note
