from __future__ import annotations

import json

from benchkit import Record, ResultStore
from benchkit.cli import main


def test_missing_root_is_exit_2_with_one_line(tmp_path, capsys):
    assert main(["verify", str(tmp_path / "nope")]) == 2
    err = capsys.readouterr().err
    assert err.strip() == f"benchkit: {tmp_path / 'nope'}: not a folder of cases"


def test_report_formats_on_an_existing_run(tmp_path, capsys):
    store = ResultStore(tmp_path / "run", task="detect")
    store.add(Record(task="detect", case="pandas_1", version="reproduced", status="ok",
                     expected_crash=True, verdict={"crash": True, "exception": "KeyError"},
                     labels={"ename": "keyerror", "library_group": "pandas"}, latency_s=0.01))
    assert main(["report", str(tmp_path / "run")]) == 0
    out = capsys.readouterr().out
    assert "pandas_1" in out and "accuracy" in out
    assert main(["report", str(tmp_path / "run"), "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["summary"]["detect"]["overall"]["tp"] == 1
    assert main(["report", str(tmp_path / "run"), "--format", "html", "-o", str(tmp_path / "r.html")]) == 0
    assert (tmp_path / "r.html").read_text().startswith("<!doctype html>")


def test_compare_without_inputs_and_unreadable_results_exit_2(tmp_path, capsys):
    assert main(["compare"]) == 2
    assert "at least one" in capsys.readouterr().err
    assert main(["report", str(tmp_path)]) == 2
    assert "no results file" in capsys.readouterr().err


def test_verify_on_malformed_cases_reports_each_and_exits_1(tmp_path, write_case, capsys):
    write_case(tmp_path, "numpy_1", [("a = 1", 1)], [("a = 1", 1)], error_at=None)
    assert main(["verify", str(tmp_path), "-o", str(tmp_path / "out")]) == 1
    captured = capsys.readouterr()
    assert "malformed" in captured.out and "numpy_1" in captured.out
    assert "[2/2]" in captured.err
    rows = [line for line in captured.out.splitlines() if line.startswith("numpy_1")]
    assert len(rows) == 2 and all("MALFORMED" in row and "no target cell" in row for row in rows)
    assert "ran clean" not in captured.out  # nothing ran
    assert "malformed (not run; see the reasons above): numpy_1" in captured.out
    assert "not as labelled" not in captured.out


def test_unknown_engine_is_exit_2_before_any_case_runs(tiny_cases, tmp_path, capsys):
    assert main(["detect", str(tiny_cases), "--engine", "rules,magic", "-o", str(tmp_path / "o")]) == 2
    assert "unknown engine 'magic'" in capsys.readouterr().err
    assert not (tmp_path / "o" / "results.jsonl").exists()


def test_verify_speaks_the_shared_options(tiny_cases, tmp_path, capsys):
    """--format json prints the summary, -q drops the progress and 'results:' lines, -o
    makes missing folders, and the former --json FILE still writes the summary there
    (with one deprecation line)."""
    out = tmp_path / "new" / "deeper" / "out"
    args = ["verify", str(tiny_cases), "--case", "python_1", "-o", str(out)]
    assert main([*args, "--format", "json", "-q"]) == 0
    captured = capsys.readouterr()
    assert json.loads(captured.out)["verify"]["versions_passed"] == 2 and captured.err == ""
    assert (out / "results.jsonl").is_file()
    assert main([*args, "--json", str(tmp_path / "s.json")]) == 0
    captured = capsys.readouterr()
    assert captured.err.splitlines()[0] == ("benchkit verify: --json is deprecated; use "
                                            "--format json > FILE")
    assert json.loads((tmp_path / "s.json").read_text())["verify"]["versions_passed"] == 2


def test_fetch_timeout_is_now_network_timeout(tmp_path, capsys):
    url = "http://127.0.0.1:1/main.zip"  # nothing listens on port 1: refused at once
    assert main(["junobench", "fetch", str(tmp_path / "a"), "--url", url, "--timeout", "2"]) == 2
    old = capsys.readouterr().err.splitlines()
    assert main(["junobench", "fetch", str(tmp_path / "b"), "--url", url,
                 "--network-timeout", "2", "-q"]) == 2
    new = capsys.readouterr().err.splitlines()
    assert old[0].startswith("benchkit junobench fetch: --timeout is deprecated; use "
                             "--network-timeout")
    assert len(new) == 1 and new[0].startswith(f"benchkit: cannot download {url}")
