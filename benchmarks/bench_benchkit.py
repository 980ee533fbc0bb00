"""benchkit: wall time of ``verify`` on the JunoBench sample with 1 and 2 workers, the
per-notebook cost of a benchkit replay against papermill running the same notebooks, and
the cost of bounding a results line against plain ``json.dumps`` of the same record."""

from __future__ import annotations

import shutil
import statistics
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
#: the shared JunoBench sample (10 cases) when it is beside the repository, else the copy
#: the repository ships (9: torch_9 needs torchvision)
SAMPLE = next((p for p in (ROOT / ".." / "shared" / "junobench-sample",
                           ROOT / "tests" / "junobench-sample") if p.is_dir()),
              ROOT / "tests" / "junobench-sample").resolve()


def _verify(cases: Path, out: Path, jobs: int):
    import benchkit

    t0 = time.perf_counter()
    records = benchkit.verify(cases, out, jobs=jobs, timeout=300, force=True)
    return time.perf_counter() - t0, records


def _papermill(cases: Path, work: Path, names: set[str]) -> dict[str, float]:
    """Seconds per fixed notebook through papermill, in a copy of its case folder.

    Only the cases whose fixed version ran clean under benchkit: papermill stops at the
    first error, so a case this environment cannot run (torch_9 needs torchvision)
    would measure nothing comparable.
    """
    import papermill

    seconds = {}
    for folder in sorted(p for p in cases.iterdir() if p.is_dir() and p.name in names):
        nb = folder / f"{folder.name}_fixed.ipynb"
        if not nb.is_file():
            continue
        copy = work / folder.name
        shutil.copytree(folder, copy)
        t0 = time.perf_counter()
        papermill.execute_notebook(str(copy / nb.name), str(copy / "out.ipynb"), cwd=str(copy),
                                   kernel_name="python3", progress_bar=False, log_output=False)
        seconds[folder.name] = time.perf_counter() - t0
    return seconds


def _skipped(records) -> str:
    failed = sorted({r.case for r in records if r.status != "ok"})
    if not failed:
        return ""
    reasons = {r.case: r.reason for r in records if r.status != "ok"}
    return ("Not runnable here (left out of the comparison): "
            + "; ".join(f"{c} ({reasons[c]})" for c in failed) + ".\n\n")


def _median_s(fn, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def _bounding() -> str:
    """Writing a results line: benchkit's bounded line against plain json.dumps (the peer)."""
    import json

    from benchkit import Record
    from benchkit._store import record_line

    typical = Record(task="detect", case="pandas_5", version="reproduced", status="ok", expected_crash=True,
                     labels={"ename": "valueerror", "library_group": "pandas"}, latency_s=0.03,
                     verdict={"crash": True, "exception": "ValueError", "line": 3, "confidence": 0.9,
                              "explanation": "int() of '46.0' " * 20, "evidence": [{"fact": "x" * 80}] * 8})
    huge = Record(task="detect", case="pandas_5", version="reproduced", status="ok", expected_crash=True,
                  verdict={"crash": True, "reasoning": "why " * 2_500_000})
    rows = []
    for name, record, repeat in (("typical verdict", typical, 2000), ("10 MB `reasoning`", huge, 15)):
        plain = _median_s(lambda: json.dumps(record.to_dict(), sort_keys=True), repeat)
        ours = _median_s(lambda: record_line(record), repeat)
        rows.append(f"| {name} | {len(json.dumps(record.to_dict())):,} | {len(record_line(record)):,} "
                    f"| {plain * 1e6:.0f} | {ours * 1e6:.0f} | {ours / plain:.2f} |")
    return ("Writing one results line: `record_line` (every field bounded) against plain\n"
            "`json.dumps` of the same record (the peer), median of repeated calls:\n\n"
            "| record | plain bytes | bounded bytes | json.dumps (µs) | record_line (µs) | ratio |\n"
            "|---|---|---|---|---|---|\n" + "\n".join(rows) + "\n")


def main() -> str:
    if not SAMPLE.is_dir():
        text = ("## benchkit\n\nSkipped: the JunoBench sample (../shared/junobench-sample or tests/junobench-sample) is not here.\n\n"
                + _bounding())
        print(text)
        return text
    with tempfile.TemporaryDirectory(prefix="bench-benchkit-") as tmp:
        tmp = Path(tmp)
        wall1, records = _verify(SAMPLE, tmp / "v1", 1)
        wall2, _ = _verify(SAMPLE, tmp / "v2", 2)
        passed = sum(1 for r in records if r.passed)
        ours = {r.case: r.elapsed_s for r in records if r.version == "fixed" and r.status == "ok"}
        theirs = _papermill(SAMPLE, tmp / "pm", set(ours))
    common = sorted(set(ours) & set(theirs))
    ratios = [ours[c] / theirs[c] for c in common]
    rows = "\n".join(f"| {c} | {ours[c]:.2f} | {theirs[c]:.2f} | {ours[c] / theirs[c]:.2f} |" for c in common)
    text = f"""## benchkit

`benchkit verify` on the {len(records) // 2} JunoBench sample cases ({len(records)} notebook
versions, each in a fresh kernel; {passed}/{len(records)} versions as labelled):

| workers | wall time (s) | speed-up |
|---|---|---|
| 1 | {wall1:.1f} | 1.00 |
| 2 | {wall2:.1f} | {wall1 / wall2:.2f} |

{_skipped(records)}Per notebook, the fixed version: benchkit replay (copy of the case folder, fresh kernel,
executed cells in execution-count order, target) against papermill executing the same
notebook in a copy of its folder. Median ratio benchkit/papermill: **{statistics.median(ratios):.2f}**
(below 1: benchkit is cheaper).

| case | benchkit (s) | papermill (s) | ratio |
|---|---|---|---|
{rows}

{_bounding()}"""
    print(text)
    return text


if __name__ == "__main__":
    main()
