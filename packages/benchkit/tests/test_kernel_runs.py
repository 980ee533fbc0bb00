"""verify and detect through real kernels: tiny generated cases, failures, resume, Dask."""

from __future__ import annotations

import importlib.util
import json

import pytest

import benchkit
from benchkit import detection_metrics, read_records

pytestmark = pytest.mark.kernel


def _by_key(records):
    return {(r.case, r.version): r for r in records}


def test_verify_tiny_cases_in_parallel(tiny_cases, tmp_path):
    records = benchkit.verify(tiny_cases, tmp_path / "out", jobs=2, timeout=60)
    assert len(records) == 8
    assert all(r.status == "ok" for r in records), [(r.case, r.reason) for r in records]
    assert all(r.passed for r in records)
    by = _by_key(records)
    assert by[("pandas_1", "reproduced")].actual_ename == "KeyError"
    assert by[("NBspecific_1", "reproduced")].actual_ename == "NameError"
    assert by[("numpy_1", "fixed")].actual_ename is None
    # the fixed notebooks ran in a private copy: nothing was written beside the cases
    assert sorted(p.name for p in (tiny_cases / "pandas_1").iterdir()) == [
        "case.json", "data", "pandas_1_fixed.ipynb", "pandas_1_reproduced.ipynb"]


def test_detect_records_verdicts_and_metrics_add_up(tiny_cases, tmp_path):
    records = benchkit.detect(tiny_cases, tmp_path / "out", engines=("rules",), jobs=1, timeout=60)
    assert len(records) == 8 and all(r.status == "ok" for r in records)
    assert all(r.verdict is not None and r.latency_s is not None for r in records)
    m = detection_metrics(records)
    o = m["overall"]
    predicted = sum(1 for r in records if r.predicted_crash)
    assert o["tp"] + o["fp"] == predicted
    assert o["tp"] + o["fn"] == 4 and o["tn"] + o["fp"] == 4
    # these crashes are what the rule engine exists for: a missing key/column and an
    # undefined name must be caught, and no fixed version flagged
    by = _by_key(records)
    for case in ("python_1", "pandas_1", "NBspecific_1"):
        assert by[(case, "reproduced")].predicted_crash is True, by[(case, "reproduced")].verdict
        assert by[(case, "fixed")].predicted_crash is False, by[(case, "fixed")].verdict


def test_dead_and_hung_kernels_are_recorded_and_the_run_goes_on(tmp_path, write_case):
    root = tmp_path / "cases"
    write_case(root, "python_2", [("import os, signal\nx = 1", 1), ("os.kill(os.getpid(), signal.SIGKILL)", 2)],
               error_at=1, labels={"ename": "keyerror"})
    write_case(root, "python_3", [("import time", 1), ("time.sleep(600)", 2)],
               error_at=1, labels={"ename": "keyerror"})
    write_case(root, "python_4", [("d = {}", 1), ("d['k']", 2)], [("d = {'k': 1}", 1), ("d['k']", 2)],
               error_at=1, labels={"ename": "keyerror"})
    records = benchkit.verify(root, tmp_path / "out", jobs=2, timeout=4)
    by = _by_key(records)
    assert by[("python_2", "reproduced")].status == "kernel-died"
    assert by[("python_3", "reproduced")].status == "timeout"
    assert by[("python_4", "reproduced")].passed and by[("python_4", "fixed")].passed


def test_output_flood_does_not_stop_the_run(tmp_path, write_case):
    root = tmp_path / "cases"
    write_case(root, "python_5", [("print('x' * 30_000_000)", 1), ("{}['k']", 2)],
               error_at=1, labels={"ename": "keyerror"})
    (record,) = benchkit.verify(root, tmp_path / "out", timeout=60)
    assert record.status == "ok" and record.passed


def test_resumed_run_equals_uninterrupted_run(tiny_cases, tmp_path):
    def essence(records):
        return sorted((r.case, r.version, r.status, r.actual_ename, r.passed) for r in records)

    whole = benchkit.verify(tiny_cases, tmp_path / "whole", timeout=60)
    # "interrupted" after two cases: only those are in the results file
    benchkit.verify(tiny_cases, tmp_path / "resumed", cases=["numpy_1", "python_1"], timeout=60)
    first_lines = (tmp_path / "resumed" / "results.jsonl").read_text().splitlines()
    assert len(first_lines) == 4
    resumed = benchkit.verify(tiny_cases, tmp_path / "resumed", timeout=60)
    lines = (tmp_path / "resumed" / "results.jsonl").read_text().splitlines()
    assert lines[:4] == first_lines and len(lines) == 8  # nothing redone
    assert essence(resumed) == essence(whole)
    assert essence(read_records(tmp_path / "resumed")) == essence(whole)


def test_dask_local_cluster_runs_verify_with_the_same_results(tiny_cases, tmp_path):
    distributed = pytest.importorskip("distributed")
    # worker processes, as on a real cluster: a kernel client needs a thread of its own
    # process with no foreign event loop, which in-process worker threads do not promise
    with distributed.LocalCluster(n_workers=1, threads_per_worker=2, processes=True,
                                  dashboard_address=None) as cluster, distributed.Client(cluster) as client:
        on_dask = benchkit.verify(tiny_cases, tmp_path / "dask", scheduler=client, timeout=60)
    local = benchkit.verify(tiny_cases, tmp_path / "local", jobs=2, timeout=60)
    key = lambda r: (r.case, r.version, r.status, r.actual_ename, r.passed)  # noqa: E731
    assert sorted(map(key, on_dask)) == sorted(map(key, local))


def _missing_imports(case_folder):
    """Top-level modules the case's notebooks import that this environment lacks."""
    import re

    names = set()
    for path in case_folder.glob("*.ipynb"):
        for cell in json.loads(path.read_text())["cells"]:
            source = "".join(cell["source"]) if isinstance(cell["source"], list) else cell["source"]
            names |= set(re.findall(r"^\s*(?:import|from)\s+([A-Za-z_]\w*)", source, re.M))
    return sorted(n for n in names if importlib.util.find_spec(n) is None)


@pytest.mark.slow
def test_verify_passes_on_the_junobench_sample(sample_root, tmp_path):
    records = benchkit.verify(sample_root, tmp_path / "out", jobs=2, timeout=300)
    folders = {p.name for p in sample_root.iterdir() if (p / "case.json").is_file()}
    assert {r.case for r in records} == folders and len(folders) >= 9
    runnable = {r.case for r in records if not _missing_imports(sample_root / r.case)}
    failed = [(r.case, r.version, r.status, r.reason, r.actual_ename)
              for r in records if r.case in runnable and not r.passed]
    assert failed == []
    # a case whose libraries are not installed is reported as a replay failure, not hidden
    for r in records:
        if r.case not in runnable:
            assert r.status == "replay-failed" and "ModuleNotFoundError" in r.reason


def test_detect_with_the_llm_engine_uses_its_cache_on_a_rerun(tiny_cases, tmp_path):
    """benchkit runs crashpredict's LLM engine over a case set; a forced re-run is free."""
    import importlib.util as iu
    import sys
    from pathlib import Path

    server_path = Path(__file__).resolve().parents[2] / "crashpredict" / "tests" / "llm_server.py"
    spec = iu.spec_from_file_location("benchkit_tests_llm_server", server_path)
    fake = iu.module_from_spec(spec)
    sys.modules[spec.name] = fake
    spec.loader.exec_module(fake)
    from crashpredict.llm import LLMSettings

    server = fake.FakeChatServer().start()
    try:
        server.push(*[fake.answer(False, explanation="looks fine")] * 8)
        settings = LLMSettings(model="gpt-4o-mini", base_url=server.url, timeout=10, max_retries=1,
                               total_budget_s=20, backoff_base_s=0.01, backoff_max_s=0.02,
                               cache_dir=tmp_path / "cache")
        options = {"llm": {"settings": settings}}
        first = benchkit.detect(tiny_cases, tmp_path / "out", engines=("llm",), options=options,
                                cases=["numpy_1"], timeout=60)
        asked = len(server.requests)
        again = benchkit.detect(tiny_cases, tmp_path / "out", engines=("llm",), options=options,
                                cases=["numpy_1"], timeout=60, force=True)
    finally:
        server.stop()
    assert asked == 2 and len(server.requests) == 2  # one per version; nothing asked again
    assert [r.verdict["engine"] for r in first] == ["llm", "llm"]
    assert sorted(r.predicted_crash for r in again) == [False, False]


def test_verify_failures_say_what_was_expected_and_what_happened(tmp_path):
    import nbformat

    def write(folder, name, cells):
        nb = nbformat.v4.new_notebook()
        for i, (kind, source, count, error) in enumerate(cells):
            if kind == "md":
                cell = nbformat.v4.new_markdown_cell(source)
            else:
                cell = nbformat.v4.new_code_cell(source, execution_count=count)
                if error:
                    cell.outputs = [nbformat.v4.new_output("error", ename="E", evalue="", traceback=[])]
            cell.id = f"k{i}"
            nb.cells.append(cell)
        folder.mkdir(parents=True, exist_ok=True)
        nbformat.write(nb, folder / name)

    root = tmp_path / "cases"
    # labelled ValueError, raises IndexError on the 2nd line of the 3rd cell (a markdown cell first)
    write(root / "numpy_7", "numpy_7_reproduced.ipynb",
          [("md", "# load", None, False), ("code", "a = [1]", 1, False),
           ("code", "b = a[0]\nc = a[5]", 2, True)])
    # the fixed version still crashes, at line 1
    write(root / "numpy_7", "numpy_7_fixed.ipynb",
          [("md", "# load", None, False), ("code", "a = [1]", 1, False), ("code", "{}['k']", 2, False)])
    (root / "numpy_7" / "case.json").write_text(json.dumps({"ename": "valueerror"}))
    # a reproduced target that runs clean
    write(root / "python_8", "python_8_reproduced.ipynb", [("code", "x = 1", 1, True)])
    records = _by_key(benchkit.verify(root, tmp_path / "out", timeout=60))
    assert records[("numpy_7", "reproduced")].reason == \
        "expected ValueError, got IndexError at line 2 of cell 3 [2] (id k2)"
    assert records[("numpy_7", "reproduced")].error_line == 2
    assert records[("numpy_7", "reproduced")].cell_position == 3
    assert records[("numpy_7", "fixed")].reason == "expected clean, got KeyError at line 1 of cell 3 [2] (id k2)"
    assert records[("python_8", "reproduced")].reason == "expected a crash, cell 1 [1] (id k0) ran clean"
    assert not any(r.passed for r in records.values())


def test_detect_defaults_to_rules_and_dry_run_like_crashpredict_check(tiny_cases, tmp_path):
    from benchkit.cli import main

    out = tmp_path / "out"
    assert main(["detect", str(tiny_cases), "--case", "numpy_1", "-o", str(out)]) in (0, 1)
    records = read_records(out)
    assert [r.engines for r in records] == [("rules", "dryrun")] * 2
    assert all(r.status == "ok" for r in records), [r.reason for r in records]
    by = _by_key(records)
    assert by[("numpy_1", "reproduced")].predicted_crash is True
    assert by[("numpy_1", "fixed")].predicted_crash is False
