"""A replayed cell that fails today: the replay goes on, and the verdict says what it cost
(real kernels, real pandas; issue 25 item 1)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import nbformat
import pytest

from crashpredict._drift import repair_hint
from crashpredict.cli import main

pytestmark = pytest.mark.kernel

APPEND = "AttributeError: 'DataFrame' object has no attribute 'append'"


def drifted(tmp_path: Path) -> Path:
    """A notebook saved under pandas 1: its cell 3 [2] uses the removed DataFrame.append."""
    nb = nbformat.v4.new_notebook(cells=[
        nbformat.v4.new_code_cell("import pandas as pd\ndf = pd.DataFrame({'a': [1, 2]})",
                                  execution_count=1),
        nbformat.v4.new_markdown_cell("## more rows"),
        nbformat.v4.new_code_cell("extra = pd.DataFrame({'a': [3]})\nboth = df.append(extra)",
                                  execution_count=2),
        nbformat.v4.new_code_cell("total = df['a'].sum()", execution_count=3),
        nbformat.v4.new_code_cell("both['a'].sum()", execution_count=4),
        nbformat.v4.new_code_cell("total + len(extra)", execution_count=5)])
    path = tmp_path / "old.ipynb"
    nbformat.write(nb, path)
    return path


def test_the_replay_goes_on_past_a_failing_cell_and_names_what_it_left_unbound(
        tmp_path: Path, capsys) -> None:
    nb = drifted(tmp_path)
    assert main(["check", str(nb), "--cell", "5", "--engine", "rules"]) == 1
    captured = capsys.readouterr()
    out = captured.out
    assert "cell 5 [4] (id " in out and "after replaying 3 cell(s), 1 of which failed" in out
    assert (f"  replay: cell 3 [2] (id {nbformat.read(nb, 4).cells[2].id}) failed at line 2: "
            f"{APPEND}; left unbound: both (the replay went on)") in out
    assert "limits: the target reads both, left unbound because cell 3 [2]" in out
    assert "The predicted NameError follows from that failure, not from the target." in out
    assert "crash predicted at line 1: NameError" in out
    assert "; the replay goes on" in captured.err and "replaying cell 4 [3]" in captured.err


def test_a_drift_failure_suggests_benchkit_modernize_with_the_notebook(
        tmp_path: Path, capsys) -> None:
    nb = drifted(tmp_path)
    assert main(["check", str(nb), "--cell", "6", "--engine", "rules", "--quiet",
                 "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    failure, after = data["replay_failures"]
    assert (after["position"], after["ename"], after["evalue"], after["repair"]) == (
        5, "NameError", "name 'both' is not defined", "")  # what cell 3's failure left
    assert {k: failure[k] for k in ("position", "execution_count", "status", "ename", "line",
                                    "unbound")} == {
        "position": 3, "execution_count": 2, "status": "error", "ename": "AttributeError",
        "line": 2, "unbound": ["both"]}
    assert failure["repair"].startswith("API drift (a library API removed or renamed; "
                                        "benchkit's codemods know it: pandas-append): "
                                        f"`benchkit modernize {nb}` repairs it")
    assert "benchkit-out/modernize/old/" in failure["repair"]
    # the target reads total and extra, which cell 3 bound before it failed
    assert data["limits"].startswith("the target reads none of the names the failed cell(s) "
                                     "left unbound;")
    assert data["verdict"]["crash"] is False


def test_a_failure_that_is_not_drift_gets_no_repair_command(tmp_path: Path, capsys) -> None:
    nb = nbformat.v4.new_notebook(cells=[
        nbformat.v4.new_code_cell("import pandas as pd", execution_count=1),
        nbformat.v4.new_code_cell("df = pd.read_csv('data/train.csv')", execution_count=2),
        nbformat.v4.new_code_cell("df.head()")])
    nbformat.write(nb, tmp_path / "nb.ipynb")
    assert main(["check", str(tmp_path / "nb.ipynb"), "--quiet", "--engine", "rules"]) == 1
    out = capsys.readouterr().out
    assert "failed at line 1: FileNotFoundError" in out and "left unbound: df" in out
    assert "benchkit" not in out


def test_without_benchkit_a_library_api_error_gets_a_maybe(monkeypatch) -> None:
    for name in ("benchkit", "benchkit._modernize", "benchkit._modernize._codemods"):
        monkeypatch.setitem(sys.modules, name, None)  # as if benchkit were not installed
    assert repair_hint("nb.ipynb", "np.float(1)", "AttributeError",
                       "module 'numpy' has no attribute 'float'") == (
        "this looks like API drift (a library API removed or renamed): `benchkit modernize "
        "nb.ipynb` (pip install benchkit) may repair it; it writes the repaired notebook "
        "under benchkit-out/modernize/nb/ and leaves this one as it is")
    assert repair_hint("nb.ipynb", "d.foo", "AttributeError",
                       "'NoneType' object has no attribute 'foo'") == ""
    assert repair_hint("nb.ipynb", "d['x']", "KeyError", "'x'") == ""


def test_a_replayed_cell_that_kills_the_kernel_still_stops_the_replay(tmp_path: Path,
                                                                      capsys) -> None:
    nb = nbformat.v4.new_notebook(cells=[
        nbformat.v4.new_code_cell("x = 1", execution_count=1),
        nbformat.v4.new_code_cell("import os\nos._exit(3)", execution_count=2),
        nbformat.v4.new_code_cell("x + 1")])
    nbformat.write(nb, tmp_path / "nb.ipynb")
    assert main(["check", str(tmp_path / "nb.ipynb"), "--quiet", "--engine", "rules"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err[-1].startswith(f"crashpredict: error: {tmp_path / 'nb.ipynb'}: replay failed "
                              "at cell 2 [2] (id ")
    assert "the kernel died" in err[-1] and "Traceback" not in "\n".join(err)


def test_the_report_quotes_the_crashing_line_and_the_repair_of_a_drift_crash(
        tmp_path: Path, capsys) -> None:
    nb = nbformat.v4.new_notebook(cells=[
        nbformat.v4.new_code_cell("import numpy as np", execution_count=1),
        nbformat.v4.new_code_cell("# scale the prices\nrate = 2\nprice = np.float(3) * rate")])
    nbformat.write(nb, tmp_path / "old.ipynb")
    assert main(["check", str(tmp_path / "old.ipynb"), "--quiet", "--engine", "rules"]) == 1
    out = capsys.readouterr().out.splitlines()
    assert "  > line 3: price = np.float(3) * rate" in out  # not the cell's first line
    assert out[out.index("  > line 3: price = np.float(3) * rate") + 1].startswith(
        "crash predicted at line 3: AttributeError")
    assert out[-1] == (
        "  repair: API drift (a library API removed or renamed; benchkit's codemods know it: "
        f"numpy-builtin-aliases): `benchkit modernize {tmp_path / 'old.ipynb'}` repairs it; it "
        "writes the repaired notebook under benchkit-out/modernize/old/ and leaves this one "
        "as it is")
