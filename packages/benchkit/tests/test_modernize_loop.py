"""The modernization loop offline: real kernels, the bundled old-style notebooks, timeouts,
score deviations, the CLI, and the promise that only OUT_DIR is written."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
from pathlib import Path

import nbformat
import pytest

from benchkit.cli import main
from benchkit._modernize import ModernizeSettings, modernize, modernize_folder
from benchkit._modernize._classify import classify, score_deviates
from benchkit._modernize._model import CellRun, NotebookRun
from benchkit._modernize._runner import traceback_lines

pytestmark = pytest.mark.kernel

EXAMPLES = Path(__file__).resolve().parents[3] / "examples" / "modernize"


def write_nb(path: Path, *sources: str, markdown: str = "# notes") -> Path:
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nb.cells.append(nbformat.v4.new_markdown_cell(markdown))
    nb.cells[0].id = "intro"
    for k, source in enumerate(sources):
        cell = nbformat.v4.new_code_cell(source)
        cell.id = f"code{k}"
        nb.cells.append(cell)
    path.parent.mkdir(parents=True, exist_ok=True)
    nbformat.write(nb, path)
    return path


def tree(root: Path, skip: Path | None = None) -> dict[str, str]:
    """Every file below ``root`` (but ``skip``) with its content hash."""
    out = {}
    for path in sorted(root.rglob("*")):
        if path.is_file() and (skip is None or skip not in path.parents):
            out[str(path.relative_to(root))] = hashlib.sha256(path.read_bytes()).hexdigest()
    return out


def test_traceback_lines_of_the_failing_cell_only():
    tb = ["\x1b[0;31mZeroDivisionError\x1b[0m Traceback", "Cell \x1b[0;32mIn[3], line 2\x1b[0m\n  f()",
          "Cell In[2], line 5, in f()\n  1/0"]
    assert traceback_lines(tb, 3) == (2,)
    assert traceback_lines(tb, None) == (2, 5)


def _run(*cells: CellRun, timed_out=False, score=None, score_error=None) -> NotebookRun:
    return NotebookRun(cells=cells, timed_out=timed_out, elapsed_s=1.0, score=score,
                       score_error=score_error)


def test_classification_of_each_outcome():
    settings = ModernizeSettings(target_score=0.8, score="acc", tolerance=0.1)
    ok = CellRun(index=0, status="ok")
    assert classify(_run(ok, score=0.82), settings).kind == "reproduced"
    assert classify(_run(ok, score=0.6), settings).kind == "score"
    assert classify(_run(ok, score_error="NameError: acc"), settings).kind == "score"
    err = CellRun(index=1, status="error", ename="KeyError", evalue="'x'\nmore", lines=(3,))
    c = classify(_run(ok, err), settings)
    # cell 2 [2]: the 1-based position (as crashpredict and nbpatch count) and the count
    assert (c.kind, c.cell, c.execution_count, c.ename, c.lines, c.message) == (
        "error", 1, 2, "KeyError", (3,), "cell 2 [2]: KeyError: 'x'")
    late = CellRun(index=1, status="timeout")
    assert classify(_run(ok, late, timed_out=True), settings).kind == "timeout"
    assert classify(_run(ok), ModernizeSettings()).kind == "reproduced"
    assert score_deviates(0.0, 0.0, 0.1) is False and score_deviates(0.2, 0.0, 0.1) is True


def test_bundled_pandas_notebook_is_fixed_offline_and_only_out_dir_is_written(tmp_path):
    src = tmp_path / "in"
    shutil.copytree(EXAMPLES, src)
    (src / "data.csv").write_text("a,b\n1,2\n")
    notebook = src / "pandas_numpy_legacy.ipynb"
    before = tree(tmp_path)
    out = tmp_path / "out"
    lines: list[str] = []
    result = modernize(notebook, out, settings=ModernizeSettings(timeout=120),
                       progress=lines.append)
    assert tree(tmp_path, skip=out) == before  # the input folder is untouched
    assert result.reproduced and result.stop_reason == "reproduced"
    assert [r.classification.kind for r in result.rounds] == ["error", "error", "error", "reproduced"]
    assert [r.repair for r in result.rounds] == ["codemod", "codemod", "codemod", None]
    assert set(result.codemods) == {"numpy-builtin-aliases", "numpy-constants", "pandas-iteritems",
                                    "pandas-append", "pandas-numeric-only"}
    assert result.equivalence == "equivalent"
    assert 0.8 < result.similarity < 1.0
    assert len(lines) == 4 and "round 1: error" in lines[0]
    final = nbformat.read(result.final_notebook, as_version=4)
    original = nbformat.read(notebook, as_version=4)
    assert [c.id for c in final.cells] == [c.id for c in original.cells]
    assert [c.source for c in final.cells if c.cell_type == "markdown"] == [
        c.source for c in original.cells if c.cell_type == "markdown"]
    assert "# the base table" in final.cells[2].source  # comments kept
    assert (out / "work" / "data.csv").is_file()  # the kernel ran in a copy of the folder
    assert not list((out / "work").glob("*.ipynb"))
    report = json.loads((out / "report.json").read_text())
    assert report["reproduced"] and len(report["rounds"]) == 4
    log = [json.loads(x) for x in (out / "trajectory.jsonl").read_text().splitlines()]
    assert [x["number"] for x in log] == [1, 2, 3, 4]
    assert log[0]["patch_file"] == "rounds/round-01.patch.json"
    assert (out / "rounds" / "round-04.ipynb").is_file()


@pytest.mark.slow
@pytest.mark.parametrize("name, rules", [
    ("sklearn_legacy", {"sklearn-moved-modules", "sklearn-onehot-sparse", "sklearn-rmse"}),
    ("plots_torch_legacy", {"matplotlib-seaborn-styles", "numpy-renamed-functions",
                            "seaborn-distplot", "torch-scalar-item"}),
])
def test_bundled_notebooks_are_fixed_offline(tmp_path, name, rules):
    result = modernize(EXAMPLES / f"{name}.ipynb", tmp_path / "out",
                       settings=ModernizeSettings(timeout=120, check_equivalence=False))
    assert result.reproduced, result.rounds[-1].classification
    assert set(result.codemods) == rules
    assert result.cost_usd == 0 and result.prompt_tokens == 0


@pytest.mark.slow
def test_bundled_keras_notebook_is_fixed_offline(tmp_path):
    pytest.importorskip("tensorflow")
    result = modernize(EXAMPLES / "keras_legacy.ipynb", tmp_path / "out",
                       settings=ModernizeSettings(timeout=240, check_equivalence=False,
                                                  score="accuracy"))
    assert result.reproduced, result.rounds[-1].classification
    assert set(result.codemods) == {"keras-layer-modules", "tf-random-seed", "keras-optimizer-lr",
                                    "keras-accuracy-names", "keras-predict-classes"}
    assert 0.0 <= result.rounds[-1].run.score <= 1.0


def test_timeout_kills_the_kernel_process_group(tmp_path):
    notebook = write_nb(tmp_path / "in" / "slow.ipynb",
                        "import subprocess, time, os\nchild = subprocess.Popen(['sleep', '120'])\n"
                        "open('child.pid', 'w').write(str(child.pid))",
                        "time.sleep(120)")
    result = modernize(notebook, tmp_path / "out",
                       settings=ModernizeSettings(timeout=4, max_iter=1))
    assert result.final_kind == "timeout" and not result.reproduced
    assert result.rounds[0].classification.cell == 2
    assert result.stop_reason == "round limit (1) reached"
    pid = int((tmp_path / "out" / "work" / "child.pid").read_text())
    status = Path(f"/proc/{pid}/status")
    assert not status.exists() or "State:\tZ" in status.read_text()


def test_score_deviation_without_llm_stops_with_no_repair(tmp_path):
    notebook = write_nb(tmp_path / "in" / "score.ipynb", "acc = 0.5")
    far = modernize(notebook, tmp_path / "out1",
                    settings=ModernizeSettings(target_score=0.9, score="acc"))
    assert far.final_kind == "score" and len(far.rounds) == 1
    assert far.stop_reason == "no repair left: no codemod applies and no LLM is configured"
    assert far.rounds[0].run.score == 0.5 and far.equivalence == "identical"
    near = modernize(notebook, tmp_path / "out2",
                     settings=ModernizeSettings(target_score=0.52, score="acc", tolerance=0.1))
    assert near.reproduced


def test_cli_single_notebook_and_bad_input(tmp_path, capsys):
    notebook = write_nb(tmp_path / "in" / "ok.ipynb", "import numpy as np\nx = np.NaN")
    assert main(["modernize", str(notebook), "-o", str(tmp_path / "out"), "--no-equivalence"]) == 0
    captured = capsys.readouterr()
    assert "runs now after 2 round(s)" in captured.out and "numpy-constants" in captured.out
    assert "reproduced" not in captured.out + captured.err  # the data's word, not the user's
    assert (tmp_path / "out" / "ok" / "report.html").is_file()
    assert main(["modernize", str(tmp_path / "missing.ipynb"), "-o", str(tmp_path / "o2")]) == 2
    assert "missing.ipynb: no such notebook" in capsys.readouterr().err
    bad = tmp_path / "bad.ipynb"
    bad.write_text("{not json")
    assert main(["modernize", str(bad), "-o", str(tmp_path / "o3")]) == 2
    err = capsys.readouterr().err
    assert "bad.ipynb" in err and "Traceback" not in err
    assert main(["modernize", str(notebook), "--target-score", "1"]) == 2
    assert "--score" in capsys.readouterr().err


def test_not_reproduced_never_reads_plain_equivalent(tmp_path, capsys):
    notebook = write_nb(tmp_path / "in" / "half.ipynb", "x = 1\nprint(x)",
                        "import numpy as np\ny = np.float(x)",
                        "raise ValueError('not a known removal')")
    assert main(["modernize", str(notebook), "-o", str(tmp_path / "out"),
                 "--no-resolvers"]) == 1
    head = capsys.readouterr().out.splitlines()[0]
    assert head.startswith(f"{notebook}: does NOT run yet (")
    assert ("; the last run still stops at cell 4 [3]: ValueError: not a known removal; "
            in head)
    assert ("; equivalence: the cells before cell 3 (where the original failed) match the "
            "original's; the rest has no original outputs to compare;") in head
    assert "equivalence equivalent" not in head
    report = json.loads((tmp_path / "out" / "half" / "report.json").read_text())
    assert (report["equivalence"], report["compared_before"]) == ("equivalent", 3)
    first = report["rounds"][0]  # JSON names cells 1-based only; the count has its own field
    assert (first["classification"]["cell_position"],
            first["classification"]["execution_count"]) == (3, 2)
    assert "cell" not in first["classification"]
    assert [c["cell_position"] for c in first["run"]["cells"]] == [2, 3, 4]
    assert [a["cell_position"] for a in first["codemods"]] == [3]


def test_cli_folder_runs_in_parallel_and_writes_totals(tmp_path, capsys):
    write_nb(tmp_path / "nbs" / "a.ipynb", "import numpy as np\nx = np.Inf")
    write_nb(tmp_path / "nbs" / "sub" / "b.ipynb", "raise ValueError('not a known removal')")
    out = tmp_path / "out"
    assert main(["modernize", str(tmp_path / "nbs"), "-o", str(out), "-j", "2",
                 "--no-equivalence"]) == 1
    text = capsys.readouterr().out
    assert "runs now 1/2" in text
    summary = json.loads((out / "summary.json").read_text())
    assert summary["summary"]["reproduced"] == 1 and summary["summary"]["codemod_rounds"] == 1
    assert [n["notebook"] for n in summary["notebooks"]] == [
        str(tmp_path / "nbs" / "a.ipynb"), str(tmp_path / "nbs" / "sub" / "b.ipynb")]
    assert (out / "sub__b" / "report.json").is_file()
    html = (out / "report.html").read_text()
    assert "<table>" in html and "numpy-constants" in html


def test_folder_without_notebooks_is_an_error(tmp_path):
    (tmp_path / "empty").mkdir()
    assert main(["modernize", str(tmp_path / "empty"), "-o", str(tmp_path / "out")]) == 2
    with pytest.raises(Exception, match="no .ipynb notebooks"):
        modernize_folder(tmp_path / "empty", tmp_path / "out")
    assert not os.path.exists(tmp_path / "out")


def test_a_kernel_that_cannot_start_is_a_clear_error(tmp_path):
    from benchkit.errors import BenchkitError

    notebook = write_nb(tmp_path / "in" / "nb.ipynb", "x = 1")
    with pytest.raises(BenchkitError, match=r"nb.ipynb: cannot start kernel 'no-such-kernel'"):
        modernize(notebook, tmp_path / "out",
                  settings=ModernizeSettings(kernel_name="no-such-kernel"))


def test_an_output_folder_holding_the_notebook_is_refused(tmp_path):
    from benchkit.errors import BenchkitError

    notebook = write_nb(tmp_path / "proj" / "nb.ipynb", "x = 1")
    before = notebook.read_bytes()
    for out in (tmp_path / "proj", tmp_path):
        with pytest.raises(BenchkitError, match="must not contain the notebook"):
            modernize(notebook, out)
    assert notebook.read_bytes() == before and not (tmp_path / "proj" / "work").exists()


def test_a_result_round_trips_through_its_dict(tmp_path):
    """Folder runs send results from workers as plain dicts; nothing is lost on the way."""
    from benchkit._modernize._model import ModernizeResult

    nb = tmp_path / "old.ipynb"
    nbformat.write(nbformat.v4.new_notebook(cells=[
        nbformat.v4.new_code_cell("import pandas as pd\ns = pd.Series([1.0, None])\nv = s.valid()")]), nb)
    result = modernize(nb, tmp_path / "out", settings=ModernizeSettings(timeout=120))
    assert result.rounds
    again = ModernizeResult.from_dict(json.loads(json.dumps(result.to_dict())))
    assert again == result


def test_equivalence_notes_name_cells_as_every_tool_does(tmp_path):
    from benchkit._modernize._loop import _equivalence

    original = nbformat.v4.new_notebook(cells=[
        nbformat.v4.new_markdown_cell("# notes"), nbformat.v4.new_code_cell("print(1)"),
        nbformat.v4.new_code_cell("raise ValueError('old')")])
    final = nbformat.from_dict(json.loads(json.dumps(original)))
    final.cells[1].source = "print(2)"
    first = _run(CellRun(index=1, status="ok"), CellRun(index=2, status="error"))
    kind, notes = _equivalence(original, final, first, ModernizeSettings(timeout=60), tmp_path)
    assert kind == "different"
    assert notes == (f"output: outputs differ (cell 2 [1] (id {original.cells[1].id}))",)
