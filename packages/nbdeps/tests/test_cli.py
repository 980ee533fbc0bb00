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
    assert "runs top to bottom" in out and "re-run order" in out
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
