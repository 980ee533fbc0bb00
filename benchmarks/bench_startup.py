"""How fast each command answers `--version`: the five console scripts, each against
`python -c pass` on the same interpreter, alternated in the same run.

A command is started afresh each time (a new process, as a user or a shell script starts
it); the figure is the median and p95 of the wall time over the runs, and the ratio of the
median to the bare interpreter's. The target is `--version` in under 0.5 s: the commands
import their heavy parts (nbformat, whose import through jsonschema alone takes seconds,
libcst, kernels) only when a subcommand runs.
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import time
from pathlib import Path

TOOLS = ("nbdeps", "rtextract", "crashpredict", "nbpatch", "benchkit")
RUNS = 9
TARGET_S = 0.5
BIN = Path(sys.executable).parent


def _time(argv: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run(argv, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - start


def _p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]


def main() -> str:
    peer = [sys.executable, "-c", "pass"]
    times: dict[str, list[float]] = {tool: [] for tool in ("python -c pass", *TOOLS)}
    for tool in TOOLS:  # warm the file cache once, outside the figures
        _time([str(BIN / tool), "--version"])
    for _ in range(RUNS):  # alternate, so that a burst of load hits every command alike
        times["python -c pass"].append(_time(peer))
        for tool in TOOLS:
            times[tool].append(_time([str(BIN / tool), "--version"]))
    base = statistics.median(times["python -c pass"])
    rows = ["| command | median | p95 | median / `python -c pass` | under 0.5 s |",
            "|---|---|---|---|---|"]
    for name, values in times.items():
        median = statistics.median(values)
        command = f"`{name}`" if name.startswith("python") else f"`{name} --version`"
        rows.append(f"| {command} | {median * 1000:.0f} ms | {_p95(values) * 1000:.0f} ms | "
                    f"{median / base:.1f}x | {'yes' if median < TARGET_S else 'NO'} |")
    section = "\n".join([
        "## startup",
        "",
        f"`--version` of each command, a new process each time, {RUNS} runs alternated with "
        "the bare interpreter (`python -c pass`) in the same run. Before the commands "
        "imported their heavy parts lazily, `nbpatch --version` took 2.7 s and "
        "`benchkit --version` 3.6 s on this kind of machine (nbformat's import, through "
        "jsonschema's format checkers, is most of it).",
        "",
        *rows,
    ])
    print(section)
    return section


if __name__ == "__main__":
    main()
