"""Detection metrics over detect records: the numbers crash-prediction papers compare.

Ground truth: every reproduced target crashes, every fixed target does not. A record with
no usable verdict (the run failed, or the engine answered "unknown") counts as predicting
no crash, as a user would experience it, and is counted separately in ``unanswered``.
"""

from __future__ import annotations

import statistics
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from benchkit._model import Record
from benchkit._run import same_exception

BREAKDOWNS = ("library_group", "crash_type", "root_cause", "pipeline_stage")


@dataclass(frozen=True, slots=True, kw_only=True)
class Confusion:
    tp: int = 0
    fp: int = 0
    tn: int = 0
    fn: int = 0

    @property
    def total(self) -> int:
        return self.tp + self.fp + self.tn + self.fn

    @property
    def accuracy(self) -> float | None:
        return _ratio(self.tp + self.tn, self.total)

    @property
    def precision(self) -> float | None:
        return _ratio(self.tp, self.tp + self.fp)

    @property
    def recall(self) -> float | None:
        return _ratio(self.tp, self.tp + self.fn)

    @property
    def f1(self) -> float | None:
        p, r = self.precision, self.recall
        if p is None or r is None or p + r == 0:
            return None if p is None or r is None else 0.0
        return 2 * p * r / (p + r)

    def to_dict(self) -> dict[str, Any]:
        return {
            "tp": self.tp, "fp": self.fp, "tn": self.tn, "fn": self.fn, "n": self.total,
            "accuracy": self.accuracy, "precision": self.precision,
            "recall": self.recall, "f1": self.f1,
        }


def _ratio(num: int, den: int) -> float | None:
    return num / den if den else None


def confusion(pairs: Iterable[tuple[bool, bool]]) -> Confusion:
    """Counts from (expected crash, predicted crash) pairs."""
    tp = fp = tn = fn = 0
    for expected, predicted in pairs:
        if expected and predicted:
            tp += 1
        elif expected:
            fn += 1
        elif predicted:
            fp += 1
        else:
            tn += 1
    return Confusion(tp=tp, fp=fp, tn=tn, fn=fn)


def percentile(values: Sequence[float], q: float) -> float | None:
    """The q-th percentile (0-100) by linear interpolation; None for no values."""
    if not values:
        return None
    ordered = sorted(values)
    k = (len(ordered) - 1) * q / 100
    lo, hi = int(k), min(int(k) + 1, len(ordered) - 1)
    return ordered[lo] + (ordered[hi] - ordered[lo]) * (k - lo)


def _predicted(record: Record) -> bool:
    return record.status == "ok" and record.predicted_crash is True


def _exception_matches(record: Record) -> bool:
    predicted = (record.verdict or {}).get("exception")
    labelled = record.labels.get("ename", "")
    return bool(predicted) and bool(labelled) and same_exception(labelled, predicted)


def detection_metrics(records: Iterable[Record]) -> dict[str, Any]:
    """Accuracy, precision, recall, F1, pairs fully right, diagnosis accuracy, latency,
    and the same confusion metrics broken down by each label in BREAKDOWNS."""
    records = [r for r in records if r.task == "detect"]
    overall = confusion((r.expected_crash, _predicted(r)) for r in records)
    by_case: dict[str, dict[str, bool]] = defaultdict(dict)
    for r in records:
        by_case[r.case][r.version] = _predicted(r)
    complete = {c: v for c, v in by_case.items() if {"reproduced", "fixed"} <= v.keys()}
    pairs_right = sum(1 for v in complete.values() if v["reproduced"] and not v["fixed"])
    detected = [r for r in records if r.expected_crash and _predicted(r)]
    labelled = [r for r in detected if r.labels.get("ename")]
    diagnosed = sum(1 for r in labelled if _exception_matches(r))
    latencies = [r.latency_s for r in records if r.latency_s is not None]
    breakdown = {}
    for label in BREAKDOWNS:
        groups: dict[str, list[Record]] = defaultdict(list)
        for r in records:
            groups[r.labels.get(label) or "(unlabelled)"].append(r)
        breakdown[label] = {
            group: confusion((r.expected_crash, _predicted(r)) for r in members).to_dict()
            for group, members in sorted(groups.items())
        }
    return {
        "overall": overall.to_dict(),
        "cases": len(by_case),
        "pairs": len(complete),
        "pairs_fully_right": pairs_right,
        "pairs_fully_right_rate": _ratio(pairs_right, len(complete)),
        "diagnosis_accuracy": _ratio(diagnosed, len(labelled)),
        "diagnosed": diagnosed,
        "unanswered": sum(1 for r in records if r.status != "ok" or r.predicted_crash is None),
        "failed_runs": sum(1 for r in records if r.status != "ok"),
        "latency_s": {
            "n": len(latencies),
            "median": statistics.median(latencies) if latencies else None,
            "p95": percentile(latencies, 95),
        },
        "breakdown": breakdown,
    }


def verify_summary(records: Iterable[Record]) -> dict[str, Any]:
    """Totals of a verify run: cases whose both versions behave as labelled, and why not.

    ``failed`` lists the cases that ran and are not as labelled (or whose run could not
    finish); ``malformed`` the cases that could not be run at all (a notebook missing,
    unreadable, or without a target), counted apart because nothing was checked.
    """
    records = [r for r in records if r.task == "verify"]
    by_case: dict[str, list[Record]] = defaultdict(list)
    for r in records:
        by_case[r.case].append(r)
    good = sorted(c for c, rs in by_case.items() if rs and all(r.passed for r in rs))
    malformed = sorted(c for c, rs in by_case.items() if any(r.status == "malformed" for r in rs))
    statuses: dict[str, int] = defaultdict(int)
    for r in records:
        statuses[r.status] += 1
    return {
        "cases": len(by_case),
        "cases_passed": len(good),
        "versions": len(records),
        "versions_passed": sum(1 for r in records if r.passed),
        "statuses": dict(sorted(statuses.items())),
        "failed": sorted(c for c in by_case if c not in good and c not in malformed),
        "malformed": malformed,
    }
