"""The CLI over real files: exit codes, formats, SARIF shape, graph outputs."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from nbdeps.cli import main

EXAMPLES = Path(__file__).resolve().parents[3] / "examples" / "nbdeps"


def write(tmp_path, name, cells):
    nb = {"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": [
        {"cell_type": "code", "id": f"id{i}", "metadata": {}, "source": s, "execution_count": c, "outputs": []}
        for i, (s, c) in enumerate(cells)]}
    path = tmp_path / name
    path.write_text(json.dumps(nb))
    return str(path)


def test_exit_codes_clean_info_only_and_findings(tmp_path, capsys):
    clean = write(tmp_path, "clean.ipynb", [("x = 1", 1), ("print(x)", 2)])
    info_only = write(tmp_path, "info.ipynb", [("x = 1", 3), ("print(x)", 2)])
    broken = write(tmp_path, "broken.ipynb", [("print(nope)", 1)])
    assert main(["check", clean]) == 0
    assert main(["check", info_only]) == 0  # info alone does not fail
    assert main(["check", broken]) == 1
    assert main(["check", broken, "--ignore", "ND101"]) == 0
    assert main(["check", broken, "--select", "ND2"]) == 0
    capsys.readouterr()


def test_json_format(tmp_path, capsys):
    broken = write(tmp_path, "broken.ipynb", [("print(nope)", 1)])
    assert main(["check", "--format", "json", broken]) == 1
    data = json.loads(capsys.readouterr().out)
    assert data[broken][0]["code"] == "ND101" and data[broken][0]["names"] == ["nope"]


def test_sarif_format_is_sarif_2_1_0(tmp_path, capsys):
    broken = write(tmp_path, "broken.ipynb", [("print(nope)", 1), ("del a", 2)])
    assert main(["check", "--format", "sarif", broken]) == 1
    log = json.loads(capsys.readouterr().out)
    assert log["version"] == "2.1.0" and log["$schema"].endswith("sarif-2.1.0.json")
    (run,) = log["runs"]
    rules = run["tool"]["driver"]["rules"]
    assert all({"id", "shortDescription"} <= set(r) for r in rules)
    for result in run["results"]:
        assert rules[result["ruleIndex"]]["id"] == result["ruleId"]
        assert result["level"] in ("error", "warning", "note", "none")
        assert result["message"]["text"]
        assert result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == broken
    _validate_sarif_if_schema_available(log)


def _validate_sarif_if_schema_available(log):
    """Validate against the official schema when a copy is installed (no network here)."""
    jsonschema = pytest.importorskip("jsonschema")
    candidates = list(Path(sys.prefix).rglob("sarif-schema-2.1.0.json"))
    if candidates:
        jsonschema.validate(log, json.loads(candidates[0].read_text()))


@pytest.mark.parametrize("suffix", [".svg", ".html", ".dot", ".mmd", ".json", ".png"])
def test_graph_writes_every_format(tmp_path, capsys, suffix):
    out = tmp_path / f"g{suffix}"
    assert main(["graph", str(EXAMPLES / "hidden_state.ipynb"), "-o", str(out)]) == 0
    assert out.stat().st_size > 200
    assert main(["graph", str(EXAMPLES / "hidden_state.ipynb"), "--order", "history", "-o", str(out)]) == 0


def test_graph_rejects_unknown_format(tmp_path, capsys):
    assert main(["graph", str(EXAMPLES / "runs_clean.ipynb"), "-o", str(tmp_path / "g.gif")]) == 2
    assert "unknown picture format" in capsys.readouterr().err


def test_order_command(capsys):
    assert main(["order", str(EXAMPLES / "runs_clean.ipynb")]) == 0
    out = capsys.readouterr().out
    # it says what it checked (names, statically), never that the notebook runs
    assert "runs top to bottom" not in out and out.splitlines()[0].endswith(
        ": top to bottom after a restart, every name is bound before it is read (checked from "
        "the code; the cells were not run); re-run order (notebook order):")
    assert main(["order", str(EXAMPLES / "hidden_state.ipynb")]) == 1


def test_examples_show_their_hazards(capsys):
    assert main(["check", str(EXAMPLES / "runs_clean.ipynb")]) == 0
    assert main(["check", str(EXAMPLES / "hidden_state.ipynb")]) == 1
    assert main(["check", str(EXAMPLES / "rerun_drop.ipynb")]) == 1
    out = capsys.readouterr().out
    assert "ND201" in out and "ND101" in out and "ND402" in out


def test_bad_usage_exits_2(capsys):
    assert main(["check"]) == 2
    assert main(["frobnicate"]) == 2


def test_console_script_runs_in_a_subprocess(tmp_path):
    bad = tmp_path / "bad.ipynb"
    bad.write_text("<html></html>")
    proc = subprocess.run([sys.executable, "-m", "nbdeps", "check", str(bad)], capture_output=True, text=True)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr and proc.stderr.count("\n") == 1


SURROGATE = [("label = '\ud800'\nprint(label)", 1), ("shown = label + price", 2), ("price = 3", 3)]


@pytest.mark.parametrize("suffix", [".svg", ".html", ".dot", ".mmd", ".json", ".png"])
def test_graph_of_a_cell_with_a_lone_surrogate_is_written_whole(tmp_path, capsys, suffix):
    nb = write(tmp_path, "sur.ipynb", SURROGATE)
    out = tmp_path / f"g{suffix}"
    assert main(["graph", nb, "-o", str(out)]) == 0
    data = out.read_bytes()
    assert len(data) > 200
    if suffix != ".png":
        text = data.decode("utf-8")  # valid UTF-8: the surrogate is written as an escape
        assert "\\ud800" in text
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(["sur.ipynb", out.name])
    assert "1 from cells below" in capsys.readouterr().out


def test_order_prints_a_cell_with_a_lone_surrogate(tmp_path, capsys):
    nb = write(tmp_path, "sur.ipynb", SURROGATE)
    assert main(["order", nb]) == 1
    out = capsys.readouterr().out
    assert "\\ud800" in out and "a safe re-run order" in out


def test_console_order_and_graph_on_a_lone_surrogate_exit_cleanly(tmp_path):
    nb = write(tmp_path, "sur.ipynb", SURROGATE)
    for args in (["order", nb], ["graph", nb, "-o", str(tmp_path / "g.svg")]):
        proc = subprocess.run([sys.executable, "-m", "nbdeps", *args], capture_output=True, text=True,
                              env={"PYTHONIOENCODING": "utf-8", "PATH": ""})
        assert proc.returncode in (0, 1) and "Traceback" not in proc.stderr, proc.stderr


def test_graph_write_failures_leave_nothing_behind(tmp_path, capsys):
    nb = write(tmp_path, "nb.ipynb", [("x = 1", 1)])
    (tmp_path / "a_file").write_text("")
    assert main(["graph", nb, "-o", str(tmp_path / "a_file" / "g.svg")]) == 2
    assert "a_file/g.svg: cannot write" in capsys.readouterr().err
    target = tmp_path / "is_a_folder.svg"
    target.mkdir()
    assert main(["graph", nb, "-o", str(target)]) == 2
    assert "cannot write" in capsys.readouterr().err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a_file", "is_a_folder.svg", "nb.ipynb"]


def test_graph_output_folder_is_created(tmp_path, capsys):
    nb = write(tmp_path, "nb.ipynb", [("x = 1", 1)])
    assert main(["graph", nb, "-o", str(tmp_path / "new" / "deeper" / "g.dot")]) == 0
    assert (tmp_path / "new" / "deeper" / "g.dot").read_text().startswith("digraph")


def test_min_severity_leaves_out_info_findings_and_quiet_only_the_summary(tmp_path, capsys):
    info_only = write(tmp_path, "info.ipynb", [("x = 1", 3), ("print(x)", 2)])
    assert main(["check", info_only, "--show-info"]) == 0
    shown = capsys.readouterr()
    assert "info" in shown.out and "finding(s)" in shown.err
    assert main(["check", info_only, "--show-info", "-q"]) == 0
    assert capsys.readouterr() == (shown.out, "")  # the same findings, no summary line
    assert main(["check", info_only, "--min-severity", "info"]) == 0
    assert capsys.readouterr().out == shown.out
    assert main(["check", info_only, "--min-severity", "warning"]) == 0
    assert capsys.readouterr().out == ""


def test_text_output_shows_warnings_and_errors_and_info_behind_a_flag(tmp_path, capsys):
    nb = write(tmp_path, "nb.ipynb", [("x = 1", 3), ("print(x)", 2), ("print(nope)", 4)])
    assert main(["check", nb]) == 1
    out = capsys.readouterr()
    assert [line.split(": ")[1].split()[0] for line in out.out.splitlines()] == ["ND101"]
    assert "1 error/warning (2 more below warning: --show-info shows info)" in out.err
    assert main(["check", nb, "--show-info"]) == 1
    assert {"ND101", "ND103", "ND504"} <= set(capsys.readouterr().out.replace(":", " ").split())
    assert main(["check", nb, "--format", "json"]) == 1  # programs get every finding
    assert len(json.loads(capsys.readouterr().out)[nb]) == 3


def test_a_folder_is_searched_without_its_checkpoint_copies(tmp_path, capsys):
    (tmp_path / "sub").mkdir()
    write(tmp_path / "sub", "a.ipynb", [("print(nope)", 1)])
    (tmp_path / "sub" / ".ipynb_checkpoints").mkdir()
    copy = write(tmp_path / "sub" / ".ipynb_checkpoints", "a-checkpoint.ipynb", [("print(old)", 1)])
    assert main(["check", str(tmp_path)]) == 1
    out = capsys.readouterr().out
    assert "a.ipynb" in out and "checkpoint" not in out
    assert main(["check", str(tmp_path / "sub" / "a.ipynb"), copy]) == 1  # a copy beside its original
    assert "checkpoint" not in capsys.readouterr().out
    assert main(["check", copy]) == 1  # named on its own, it is checked
    assert "a-checkpoint.ipynb" in capsys.readouterr().out
    assert main(["check", str(tmp_path / "sub" / ".ipynb_checkpoints")]) == 1  # the folder named itself
    assert "a-checkpoint.ipynb" in capsys.readouterr().out
    (tmp_path / "empty").mkdir()
    assert main(["check", str(tmp_path / "empty")]) == 2
    assert "no notebook (.ipynb) in" in capsys.readouterr().err


def test_graph_replaces_an_existing_file_whole(tmp_path, capsys):
    nb = write(tmp_path, "nb.ipynb", [("x = 1", 1), ("y = x", 2)])
    out = tmp_path / "g.dot"
    out.write_text("old")
    assert main(["graph", nb, "-o", str(out)]) == 0
    assert out.read_text().startswith("digraph nbdeps {") and oct(out.stat().st_mode)[-3:] != "600"


def test_a_utf8_bom_notebook_is_accepted(tmp_path, capsys):
    path = tmp_path / "bom.ipynb"
    nb = {"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": [
        {"cell_type": "code", "metadata": {}, "source": "print(missing)", "execution_count": 1, "outputs": []}]}
    path.write_bytes(b"\xef\xbb\xbf" + json.dumps(nb).encode())
    assert main(["check", str(path)]) == 1
    assert "ND101" in capsys.readouterr().out


def test_order_says_what_the_order_is(tmp_path, capsys):
    nb = write(tmp_path, "nb.ipynb", [("print(t)", 2), ("t = 1", 1)])
    assert main(["order", nb]) == 1
    lines = capsys.readouterr().out.splitlines()
    assert "does NOT run top to bottom" in lines[0] and lines[0].endswith(
        "a safe re-run order, which binds every name before it is read:")
    assert lines[1] == "  cells 2 1"
    assert lines[2].startswith("  cell 2 (id id1)")


def test_sarif_positions_are_1_based_and_point_into_the_file(tmp_path, capsys):
    path = tmp_path / "nb.ipynb"
    nb = {"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": [
        {"cell_type": "markdown", "id": "m", "metadata": {}, "source": ["# title\n"]},
        {"cell_type": "code", "id": "c", "metadata": {}, "execution_count": 1, "outputs": [],
         "source": ["x = 1\n", "print(x, nope)\n"]}]}
    path.write_text(json.dumps(nb, indent=1))
    assert main(["check", "--format", "sarif", str(path)]) == 1
    (result,) = json.loads(capsys.readouterr().out)["runs"][0]["results"]
    assert result["properties"] | {"names": None} == {"cellPosition": 2, "executionCount": 1, "cellId": "c",
                                                      "cellLine": 2, "cellColumn": 10, "names": None}
    assert result["locations"][0]["logicalLocations"][0]["fullyQualifiedName"] == "cell 2 [1] (id c)"
    line = result["locations"][0]["physicalLocation"]["region"]["startLine"]
    assert path.read_text().splitlines()[line - 1].strip() == '"print(x, nope)\\n"'
    _validate_sarif_if_schema_available(json.loads(json.dumps(
        __import__("nbdeps").to_sarif({str(path): __import__("nbdeps").check(path)}))))


def test_order_says_what_order_cannot_fix(capsys):
    assert main(["order", str(EXAMPLES / "rerun_drop.ipynb")]) == 1
    lines = capsys.readouterr().out.splitlines()
    assert "a safe re-run order" in lines[0] and "order alone does not fix ND402" in lines[1]
