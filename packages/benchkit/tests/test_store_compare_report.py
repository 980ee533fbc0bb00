from __future__ import annotations

import json

import pytest

from benchkit import Record, ResultStore, ResultsError, compare, load_baseline, load_run, read_records
from benchkit._report import html_report, metrics_text, records_text
from benchkit import detection_metrics


def rec(case, version, crash, task="detect"):
    return Record(task=task, case=case, version=version, status="ok",
                  expected_crash=version == "reproduced", verdict={"crash": crash},
                  labels={"ename": "keyerror", "library_group": case.split("_")[0]}, latency_s=0.02)


def test_store_appends_lines_and_skips_done_keys_on_resume(tmp_path):
    store = ResultStore(tmp_path, task="detect")
    store.add(rec("a_1", "reproduced", True))
    again = ResultStore(tmp_path, task="detect")
    assert again.done(("a_1", "reproduced")) and not again.done(("a_1", "fixed"))
    assert not ResultStore(tmp_path, task="detect", force=True).done(("a_1", "reproduced"))
    assert not ResultStore(tmp_path, task="verify").done(("a_1", "reproduced"))


def test_torn_last_line_is_ignored_and_repaired(tmp_path):
    store = ResultStore(tmp_path, task="detect")
    store.add(rec("a_1", "reproduced", True))
    with store.path.open("a") as fh:
        fh.write('{"task": "detect", "case": "a_1", "vers')  # killed mid-write
    assert len(read_records(tmp_path)) == 1
    store = ResultStore(tmp_path, task="detect")
    store.add(rec("a_1", "fixed", False))
    assert {r.version for r in read_records(tmp_path)} == {"reproduced", "fixed"}


def test_a_corrupt_middle_line_is_an_error_naming_the_line(tmp_path):
    path = tmp_path / "results.jsonl"
    path.write_text("garbage\n" + json.dumps(rec("a_1", "fixed", False).to_dict()) + "\n")
    with pytest.raises(ResultsError, match="results.jsonl:1"):
        read_records(path)


def test_compare_runs_and_a_baseline_lists_differences(tmp_path):
    ours = ResultStore(tmp_path / "ours", task="detect")
    for r in (rec("a_1", "reproduced", True), rec("a_1", "fixed", False),
              rec("b_1", "reproduced", True), rec("b_1", "fixed", False)):
        ours.add(r)
    baseline = tmp_path / "gpt5.csv"
    baseline.write_text("case,version,predicted_crash\na_1,reproduced,true\na_1,fixed,true\n"
                        "b_1,reproduced,false\nb_1,fixed,false\n")
    run = load_run(tmp_path / "ours")
    labels = {r.case: r.labels for r in run.records}
    result = compare([run, load_baseline(baseline, labels)])
    assert result["runs"]["ours"]["overall"]["accuracy"] == 1.0
    assert result["runs"]["gpt5"]["overall"]["accuracy"] == 0.5
    assert result["runs"]["gpt5"]["breakdown"]["library_group"]["a"]["n"] == 2
    assert [(d["case"], d["version"]) for d in result["differences"]] == [("a_1", "fixed"), ("b_1", "reproduced")]


def test_baseline_with_bad_values_names_the_line(tmp_path):
    bad = tmp_path / "b.csv"
    bad.write_text("case,version,predicted\na_1,reproduced,maybe\n")
    with pytest.raises(ResultsError, match="b.csv:2"):
        load_baseline(bad)
    bad.write_text("case,predicted\na_1,true\n")
    with pytest.raises(ResultsError, match="no column version"):
        load_baseline(bad)


def test_reports_render_text_and_self_contained_html():
    records = [rec("a_1", "reproduced", True), rec("a_1", "fixed", True)]
    metrics = detection_metrics(records)
    text = metrics_text(metrics)
    assert "accuracy" in text and "by library group" in text
    assert "WRONG" in records_text(records)
    page = html_report(title="t <x>", records=records, metrics=metrics)
    assert page.startswith("<!doctype html>") and "t &lt;x&gt;" in page
    assert "<svg" in page and "FP 1" in page
    assert "http" not in page.replace('xmlns="http://www.w3.org/2000/svg"', "")  # loads nothing


def test_store_bounds_every_text_field_of_a_record(tmp_path):
    from benchkit._store import MAX_RECORD, MAX_TEXT, bounded

    huge = "why " * 2_500_000  # a 10 MB LLM explanation
    record = Record(task="detect", case="a_1", version="reproduced", status="ok", expected_crash=True,
                    reason=huge, verdict={"crash": True, "explanation": huge, "reasoning": huge,
                                          "evidence": [{"note": huge}] * 10_000, "line": 3})
    store = ResultStore(tmp_path, task="detect")
    store.add(record)
    assert len(store.path.read_text()) <= MAX_RECORD + 1  # kilobytes, not megabytes
    (back,) = read_records(tmp_path)
    assert back.verdict["crash"] is True and back.verdict["line"] == 3
    assert back.verdict["reasoning"].startswith("why why")
    assert back.verdict["reasoning"].endswith(" more characters]")
    assert 0 < len(back.verdict["evidence"]) < 10_000
    # a record with one long field keeps that field's first MAX_TEXT characters
    store.add(Record(task="detect", case="a_1", version="fixed", status="ok", expected_crash=False,
                     verdict={"crash": False, "explanation": huge}))
    fixed = {r.version: r for r in read_records(tmp_path)}["fixed"]
    assert fixed.verdict["explanation"] == bounded(huge)
    assert fixed.verdict["explanation"].endswith(f"… [{len(huge) - MAX_TEXT} more characters]")
    # small values pass unchanged, at any nesting
    small = {"a": [1, 2.5, None, True, {"b": "text"}]}
    assert bounded(small) == small


def test_verify_rows_say_what_went_wrong(tmp_path):
    def v(version, status="ok", **kw):
        return Record(task="verify", case="numpy_1", version=version, status=status,
                      expected_crash=version == "reproduced", **kw)

    text = records_text([
        v("reproduced", passed=False, actual_ename="IndexError", error_line=2, cell_position=4,
          cell_id="c3", reason="expected ValueError, got IndexError at line 2 of cell 4 (id c3)"),
        v("fixed", status="malformed", passed=False,
          reason="numpy_1_fixed.ipynb: not a readable notebook: NotJSONError"),
    ])
    rows = {line.split()[1]: line for line in text.splitlines()[2:]}
    assert "FAIL" in rows["reproduced"] and "IndexError at line 2 of cell 4 (id c3)" in rows["reproduced"]
    assert "expected ValueError, got IndexError" in rows["reproduced"]
    assert "MALFORMED" in rows["fixed"] and "not a readable notebook" in rows["fixed"]
    assert "ran clean" not in text


def test_html_bars_name_their_metric_and_the_histogram_shows_counts():
    import re

    from benchkit._report import latency_bins

    latencies = [0.010, 0.0105, 0.011, 0.020, 0.050, 0.050]
    records = [Record(task="detect", case=f"a_{i}", version="reproduced", status="ok", expected_crash=True,
                      verdict={"crash": i % 2 == 0}, labels={"library_group": "a"}, latency_s=s)
               for i, s in enumerate(latencies)]
    page = html_report(title="t", records=records, metrics=detection_metrics(records))
    assert "accuracy per library group (share of targets predicted right; n = targets)" in page
    assert "accuracy per crash type" in page
    bins = latency_bins(latencies)
    assert sum(c for _, _, c in bins) == 6 and bins[0][2] == 3 and bins[-1][2] == 2
    histogram = page[page.index("targets per latency bin"):]
    histogram = histogram[:histogram.index("</svg>")]
    shown = [int(n) for n in re.findall(r'text-anchor="middle">(\d+)</text>', histogram)]
    assert shown == [c for _, _, c in bins if c]  # a count above every non-empty bar
    assert "6 targets" in histogram


def test_records_name_the_target_1_based_only_and_read_older_lines(tmp_path):
    record = Record(task="verify", case="numpy_1", version="fixed", status="ok",
                    expected_crash=False, cell_position=4, cell_id="c3")
    data = record.to_dict()
    assert data["cell_position"] == 4 and "target_cell" not in data  # no 0-based field
    older = {**data, "target_cell": 3}
    del older["cell_position"]  # a line written before positions: the 0-based index only
    assert Record.from_dict(older).cell_position == 4
