from __future__ import annotations

import pytest

from benchkit import Record, confusion, detection_metrics, verify_summary
from benchkit._metrics import percentile


def rec(case, version, predicted, *, ename="keyerror", exception=None, status="ok", lat=0.01, **labels):
    verdict = None if predicted == "none" else {"crash": predicted, "exception": exception}
    return Record(task="detect", case=case, version=version, status=status,
                  expected_crash=version == "reproduced", verdict=verdict, latency_s=lat,
                  labels={"ename": ename, **labels})


def test_confusion_arithmetic_by_hand():
    c = confusion([(True, True)] * 3 + [(True, False)] + [(False, True)] + [(False, False)] * 5)
    assert (c.tp, c.fn, c.fp, c.tn) == (3, 1, 1, 5)
    assert c.accuracy == pytest.approx(8 / 10)
    assert c.precision == pytest.approx(3 / 4)
    assert c.recall == pytest.approx(3 / 4)
    assert c.f1 == pytest.approx(0.75)


def test_empty_and_degenerate_confusions_have_no_ratio():
    c = confusion([])
    assert c.accuracy is None and c.precision is None and c.recall is None and c.f1 is None
    c = confusion([(False, False)])
    assert c.accuracy == 1.0 and c.precision is None and c.recall is None


def test_detection_metrics_against_a_hand_computed_table():
    records = [
        # case a: both right
        rec("a", "reproduced", True, exception="KeyError", library_group="pandas", crash_type="key error"),
        rec("a", "fixed", False, library_group="pandas", crash_type="key error"),
        # case b: crash detected but false alarm on the fix; wrong exception class
        rec("b", "reproduced", True, ename="valueerror", exception="TypeError", library_group="sklearn"),
        rec("b", "fixed", True, ename="valueerror", library_group="sklearn"),
        # case c: missed; and the fixed run failed (counts as no crash predicted)
        rec("c", "reproduced", False, library_group="sklearn"),
        rec("c", "fixed", "none", status="timeout", lat=None, library_group="sklearn"),
        # case d: only the reproduced version, unknown verdict
        rec("d", "reproduced", "none", library_group="torch"),
    ]
    m = detection_metrics(records)
    o = m["overall"]
    assert (o["tp"], o["fp"], o["tn"], o["fn"]) == (2, 1, 2, 2)
    assert o["accuracy"] == pytest.approx(4 / 7)
    assert o["precision"] == pytest.approx(2 / 3)
    assert o["recall"] == pytest.approx(2 / 4)
    assert o["f1"] == pytest.approx(2 * (2 / 3) * 0.5 / (2 / 3 + 0.5))
    assert (m["pairs"], m["pairs_fully_right"]) == (3, 1)
    assert m["diagnosis_accuracy"] == pytest.approx(1 / 2)
    assert m["unanswered"] == 2 and m["failed_runs"] == 1
    assert m["latency_s"]["n"] == 6
    sk = m["breakdown"]["library_group"]["sklearn"]
    assert (sk["tp"], sk["fp"], sk["tn"], sk["fn"]) == (1, 1, 1, 1)
    assert m["breakdown"]["crash_type"]["(unlabelled)"]["n"] == 5


def test_percentile_interpolates():
    assert percentile([1, 2, 3, 4, 5], 50) == 3
    assert percentile([1, 2], 95) == pytest.approx(1.95)
    assert percentile([], 95) is None


def test_verify_summary_counts_cases_whose_both_versions_pass():
    def v(case, version, passed, status="ok"):
        return Record(task="verify", case=case, version=version, status=status,
                      expected_crash=version == "reproduced", passed=passed)

    s = verify_summary([v("a", "reproduced", True), v("a", "fixed", True),
                        v("b", "reproduced", True), v("b", "fixed", False, "timeout")])
    assert s["cases"] == 2 and s["cases_passed"] == 1 and s["failed"] == ["b"]
    assert s["statuses"] == {"ok": 3, "timeout": 1}
    assert s["malformed"] == []


def test_verify_summary_counts_malformed_cases_apart_from_failures():
    def v(case, version, passed, status="ok"):
        return Record(task="verify", case=case, version=version, status=status,
                      expected_crash=version == "reproduced", passed=passed)

    s = verify_summary([v("a", "reproduced", False), v("a", "fixed", True),
                        v("m", "reproduced", False, "malformed"), v("m", "fixed", False, "malformed")])
    assert (s["failed"], s["malformed"], s["cases_passed"]) == (["a"], ["m"], 0)
