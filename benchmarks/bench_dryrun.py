"""Benchmark of crashpredict's dry run: fork overhead with live memory, latency on real cases.

1. Fork-to-start: the time from just before ``os.fork`` to the child's first byte in the
   parent's pipe, as `dry_run` measures it (``DryRun.startup_s``), in this process with
   2 GB of live numpy arrays; the peer is the same measurement with no arrays (0 GB).
2. End-to-end: `dry_run` of the crashing target cell of JunoBench sample cases inside a
   real kernel that replayed the notebook; the peer is running the cell for real once in
   the same kernel afterwards.
"""

from __future__ import annotations

import gc
import json
import shutil
import statistics
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = ROOT / ".." / "shared" / "junobench-sample"
CASES = ("NBspecific_5", "numpy_2", "sklearn_3", "matplotlib_5")
FORK_RUNS = 30
DRY_RUNS = 10
GIGABYTES = 2
MARK = "@@bench@@"


def _stats(values: list[float]) -> tuple[float, float]:
    ordered = sorted(values)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    return statistics.median(ordered), p95


def _fork_startup(runs: int) -> tuple[list[float], list[float]]:
    """Return (startup ms, whole dry_run ms) of ``runs`` dry runs of an empty cell."""
    from crashpredict._dryrun import dry_run

    dry_run("pass", {})  # warm: IPython's transformer import
    startups, totals = [], []
    for _ in range(runs):
        result = dry_run("pass", {})
        assert result.outcome == "completed", result
        startups.append(result.startup_s * 1000)
        totals.append(result.elapsed_s * 1000)
    return startups, totals


def fork_overhead() -> str:
    import numpy as np

    base_start, base_total = _fork_startup(FORK_RUNS)
    # Live, touched memory: np.ones writes every page, so the fork must map all of them.
    arrays = [np.ones(GIGABYTES * 2**30 // 8 // 4) for _ in range(4)]
    try:
        big_start, big_total = _fork_startup(FORK_RUNS)
        live_gb = sum(a.nbytes for a in arrays) / 2**30
    finally:
        del arrays
        gc.collect()
    (b_med, b_p95), (g_med, g_p95) = _stats(base_start), _stats(big_start)
    (bt_med, bt_p95), (gt_med, gt_p95) = _stats(base_total), _stats(big_total)
    verdict = "met" if g_med <= 50 else "missed"
    return "\n".join([
        f"### Fork-to-start with {live_gb:.0f} GB of live arrays ({FORK_RUNS} dry runs of `pass`)",
        "",
        "| live memory | fork to child ready, median | p95 | whole dry run, median | p95 |",
        "|---|---|---|---|---|",
        f"| 0 GB (peer) | {b_med:.1f} ms | {b_p95:.1f} ms | {bt_med:.1f} ms | {bt_p95:.1f} ms |",
        f"| {live_gb:.0f} GB | {g_med:.1f} ms | {g_p95:.1f} ms | {gt_med:.1f} ms | {gt_p95:.1f} ms |",
        "",
        f"Ratio {live_gb:.0f} GB / 0 GB: fork-to-start {g_med / b_med:.1f}x, whole dry run "
        f"{gt_med / bt_med:.1f}x. Goal fork-to-start <= 50 ms with 2 GB: {verdict} "
        f"({g_med:.1f} ms median).",
    ])


class _Kernel:
    def __init__(self, cwd: Path) -> None:
        from jupyter_client.manager import KernelManager

        self.manager = KernelManager(kernel_name="python3")
        self.manager.start_kernel(cwd=str(cwd))
        self.client = self.manager.client()
        self.client.start_channels()
        self.client.wait_for_ready(timeout=90)

    def run(self, code: str) -> tuple[str, list[str]]:
        out, errors = [], []

        def hook(msg: dict) -> None:
            if msg["msg_type"] == "stream":
                out.append(msg["content"]["text"])
            elif msg["msg_type"] == "error":
                errors.append(msg["content"]["ename"])

        self.client.execute_interactive(code, timeout=300, output_hook=hook, allow_stdin=False)
        return "".join(out), errors

    def close(self) -> None:
        self.client.stop_channels()
        self.manager.shutdown_kernel(now=True)


_TIMING = """
import json as _j, time as _t
from crashpredict._dryrun import dry_run as _dry
_runs = [_dry({src!r}, globals(), budget_s=30) for _ in range({n})]
_start = _t.perf_counter()
try:
    exec(compile({src!r}, "<real>", "exec"), globals())
    _real_error = None
except Exception as _e:
    _real_error = type(_e).__name__
_real = _t.perf_counter() - _start
print({mark!r} + _j.dumps({{"dry": [r.elapsed_s for r in _runs],
    "outcomes": sorted({{r.exception or r.outcome for r in _runs}}),
    "real": _real, "real_error": _real_error}}))
"""


def _case_timing(name: str, work: Path) -> dict | None:
    import nbformat

    folder = work / name
    shutil.copytree(SAMPLE / name, folder)
    case = json.loads((folder / "case.json").read_text())
    nb = nbformat.read(folder / f"{name}_reproduced.ipynb", as_version=4)
    code = [c for c in nb.cells if c.cell_type == "code"]
    target = next(c for c in code if c.get("id") == case["target_cell_id"])
    ran = sorted((c for c in code if c.get("execution_count") and c is not target),
                 key=lambda c: c.execution_count)
    kernel = _Kernel(folder)
    try:
        for cell in ran:
            _, errors = kernel.run(cell.source)
            if errors:
                return None
        out, _ = kernel.run(_TIMING.format(src=target.source, n=DRY_RUNS, mark=MARK))
        line = next(x for x in out.splitlines() if x.startswith(MARK))
        return json.loads(line[len(MARK):])
    finally:
        kernel.close()


def case_latency() -> str:
    if not SAMPLE.is_dir():
        return "### End-to-end on sample cases\n\nSkipped: the JunoBench sample is absent."
    rows = ["### End-to-end dry-run latency on JunoBench sample cases (in a real kernel)", "",
            f"| case | dry run median ({DRY_RUNS} runs) | p95 | dry run saw | real run (1 run, peer) "
            "| real run raised | ratio dry/real |", "|---|---|---|---|---|---|---|"]
    with tempfile.TemporaryDirectory() as work:
        for name in CASES:
            if not (SAMPLE / name).is_dir():
                continue
            timing = _case_timing(name, Path(work))
            if timing is None:
                rows.append(f"| {name} | replay failed | | | | | |")
                continue
            med, p95 = _stats([s * 1000 for s in timing["dry"]])
            real = timing["real"] * 1000
            rows.append(f"| {name} | {med:.0f} ms | {p95:.0f} ms | {', '.join(timing['outcomes'])}"
                        f" | {real:.1f} ms | {timing['real_error']} | {med / max(real, 1e-3):.0f}x |")
    rows += ["", "The dry run pays for the fork, the child's set-up and tear-down and the pipe;"
             " the peer pays only for running the cell, and changes the kernel's state."]
    return "\n".join(rows)


def main() -> str:
    """Run both measurements; print and return the Markdown section."""
    section = "\n\n".join(["## dryrun", fork_overhead(), case_latency()])
    print(section)
    return section


if __name__ == "__main__":
    main()
