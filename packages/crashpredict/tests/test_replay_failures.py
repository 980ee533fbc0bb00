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
    assert failure["repair"].startswith(
        "API drift (DataFrame.append was removed in pandas 2.0; use pd.concat([df, other])): "
        f"`benchkit modernize {nb}` rewrites removed library APIs with its codemods")
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


def test_drift_is_told_from_other_failures_without_importing_benchkit(monkeypatch) -> None:
    import importlib.util

    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec",  # as where benchkit is not installed
                        lambda name, *a: None if name == "benchkit" else real(name, *a))
    tail = ("`benchkit modernize nb.ipynb` (pip install benchkit) rewrites removed library "
            "APIs with its codemods; it writes the repaired notebook under "
            "benchkit-out/modernize/nb/ and leaves this one as it is")
    assert repair_hint("nb.ipynb", "AttributeError",
                       "module 'numpy' has no attribute 'float'.") == \
        f"API drift (np.float was removed in NumPy 1.24; use float): {tail}"
    assert repair_hint("nb.ipynb", "ImportError", "cannot import name 'plot_confusion_matrix' "
                       "from 'sklearn.metrics' (/x/metrics/__init__.py)") == \
        f"this looks like API drift (a library API removed or renamed): {tail}"
    for ename, evalue in [("AttributeError", "'NoneType' object has no attribute 'foo'"),
                          ("AttributeError", "module 'helpers' has no attribute 'load'"),
                          ("ModuleNotFoundError", "No module named 'torchvision_missing'"),
                          ("TypeError", "f() got an unexpected keyword argument 'x'"),
                          ("KeyError", "'x'")]:
        assert repair_hint("nb.ipynb", ename, evalue) == "", evalue


def test_the_repair_hint_imports_no_benchkit() -> None:
    import subprocess

    code = ("import sys\nfrom crashpredict._drift import repair_hint\n"
            "hint = repair_hint('nb.ipynb', 'AttributeError', "
            "\"'DataFrame' object has no attribute 'append'\")\n"
            "print(bool(hint), sorted(m for m in sys.modules if m.split('.')[0] == 'benchkit'))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, timeout=60)
    assert out.stdout.split() == ["True", "[]"]


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
        "  repair: API drift (np.float was removed in NumPy 1.24; use float): `benchkit "
        f"modernize {tmp_path / 'old.ipynb'}` rewrites removed library APIs with its codemods; "
        "it writes the repaired notebook under benchkit-out/modernize/old/ and leaves this "
        "one as it is")


def test_limits_name_where_a_chain_of_failures_starts(tmp_path: Path, capsys) -> None:
    nb = nbformat.v4.new_notebook(cells=[
        nbformat.v4.new_code_cell("import pandas as pd\ndf = pd.DataFrame({'a': [1.0]})",
                                  execution_count=1),
        nbformat.v4.new_code_cell("X = df.as_matrix()", execution_count=2),
        nbformat.v4.new_code_cell("Z = X * 2", execution_count=3),
        nbformat.v4.new_code_cell("Z.sum()")])
    for cell, cid in zip(nb.cells, ("load", "matrix", "double", "total")):
        cell.id = cid
    nbformat.write(nb, tmp_path / "chain.ipynb")
    assert main(["check", str(tmp_path / "chain.ipynb"), "--quiet", "--engine", "rules"]) == 1
    out = capsys.readouterr().out
    assert ("  limits: the target reads Z, left unbound because cell 2 [2] (id matrix) (then "
            "cell 3 [3] (id double), which needed its names) failed in the replay") in out
    assert "    API drift (as_matrix was removed; use .to_numpy()): `benchkit modernize" in out


def test_a_download_that_fails_in_the_jail_says_the_replay_has_no_network(
        tmp_path: Path, capsys) -> None:
    nb = nbformat.v4.new_notebook(cells=[
        nbformat.v4.new_code_cell("import urllib.request\n"
                                  "urllib.request.urlretrieve('http://example.com/a.csv', 'a.csv')",
                                  execution_count=1),
        nbformat.v4.new_code_cell("x = 1")])
    nbformat.write(nb, tmp_path / "fetch.ipynb")
    assert main(["check", str(tmp_path / "fetch.ipynb"), "--quiet", "--engine", "rules",
                 "--format", "json"]) == 0
    [failure] = json.loads(capsys.readouterr().out)["replay_failures"]
    assert failure["ename"] == "URLError" and failure["note"].startswith(
        "the replay kernel has no network, so a download fails here even where it works for "
        "you; --in-place replays unconfined")


def test_a_name_error_of_the_target_own_is_not_blamed_on_the_replay(tmp_path: Path,
                                                                     capsys) -> None:
    nb = nbformat.v4.new_notebook(cells=[
        nbformat.v4.new_code_cell("import pandas as pd\ndf = pd.DataFrame({'a': [1.0]})",
                                  execution_count=1),
        nbformat.v4.new_code_cell("X = df.as_matrix()", execution_count=2),
        nbformat.v4.new_code_cell("print(totl, X)")])  # a typo of the target's own first
    nbformat.write(nb, tmp_path / "typo.ipynb")
    assert main(["check", str(tmp_path / "typo.ipynb"), "--quiet", "--engine", "rules"]) == 1
    out = capsys.readouterr().out
    assert "limits: the target reads X, left unbound because cell 2 [2]" in out
    assert "name 'totl' is not defined" in out and "follows from that failure" not in out
