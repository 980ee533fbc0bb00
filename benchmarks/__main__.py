"""Run the benchmarks and record their figures in docs/benchmarks.md.

Usage: ``python -m benchmarks [NAME ...] [--no-record]`` where NAME is a package
(nbdeps, rtextract, nbpatch, crashpredict, dryrun, llm, benchkit, modernize, workdir,
longcells, startup); no NAME
runs them all.

Each ``benchmarks/bench_<name>.py`` has ``main() -> str`` that measures, prints and
returns a Markdown section; every figure in it is a median/p95 or a ratio against a
peer measured in the same process. This runner replaces that package's section of
docs/benchmarks.md (between ``<!-- bench:NAME -->`` markers) so the file always holds
the latest run, with the date and the machine it ran on.
"""

from __future__ import annotations

import argparse
import datetime as _dt
import importlib
import os
import platform
import re
import sys
import traceback
from pathlib import Path

NAMES = ("nbdeps", "rtextract", "nbpatch", "crashpredict", "dryrun", "llm", "benchkit", "modernize",
         "workdir", "longcells", "startup")
ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "benchmarks.md"
HEADER = """# Benchmarks

Produced by `make bench` (`python -m benchmarks`), which rewrites each package's section
below. Machines here are noisy: read medians and ratios, not single timings. Every ratio is
against a peer run in the same process on the same input.
"""


def _machine() -> str:
    cpus = os.cpu_count()
    return f"{platform.python_implementation()} {platform.python_version()}, {platform.machine()}, {cpus} CPUs"


def _record(name: str, section: str) -> None:
    text = DOC.read_text() if DOC.exists() else HEADER
    stamp = _dt.datetime.now(_dt.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    block = (
        f"<!-- bench:{name} -->\n{section.strip()}\n\n"
        f"_Recorded {stamp} on {_machine()}._\n<!-- /bench:{name} -->"
    )
    pattern = re.compile(rf"<!-- bench:{name} -->.*?<!-- /bench:{name} -->", re.S)
    if pattern.search(text):
        text = pattern.sub(lambda _m: block, text)
    else:
        text = text.rstrip() + "\n\n" + block + "\n"
    tmp = DOC.with_suffix(".md.tmp")
    tmp.write_text(text)
    tmp.replace(DOC)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks", description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="*", metavar="NAME", help="packages to benchmark (default: all)")
    parser.add_argument("--no-record", action="store_true", help="print only; leave docs/benchmarks.md alone")
    args = parser.parse_args(argv)
    unknown = sorted(set(args.names) - set(NAMES))
    if unknown:
        parser.error(f"unknown benchmark {', '.join(unknown)}; choose from {', '.join(NAMES)}")
    names = args.names or [n for n in NAMES if (ROOT / "benchmarks" / f"bench_{n}.py").exists()]
    failed = []
    for name in names:
        print(f"\n===== benchmark: {name} =====", flush=True)
        try:
            module = importlib.import_module(f"benchmarks.bench_{name}")
            section = module.main()
        except Exception:  # one broken benchmark must not hide the others' figures
            traceback.print_exc()
            failed.append(name)
            continue
        if not args.no_record:
            _record(name, section)
    if failed:
        print(f"benchmarks failed: {', '.join(failed)}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
