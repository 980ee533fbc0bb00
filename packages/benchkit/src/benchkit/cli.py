"""The ``benchkit`` command: verify, detect, compare and report over JunoBench-style cases,
and modernize old notebooks.

Exit codes: 0 all as expected, 1 some case did not verify / some run failed,
2 unusable input (no cases, unreadable results, bad options).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence
from pathlib import Path

from typing import TYPE_CHECKING

from benchkit import __version__
from benchkit._cliopts import FORMAT_HELP, QUIET_HELP, Deprecated, HelpFormatter
from benchkit._fetch import JUNOBENCH_REPOSITORY, JUNOBENCH_URL, URL_ENV, fetch_junobench
from benchkit._modernize._cli import add_modernize_parser, run_modernize
from benchkit.errors import BenchkitError
from crashpredict import ENGINE_FLAGS, CrashPredictError, engine_options

if TYPE_CHECKING:
    from benchkit._model import Record

# the subcommands import the runners, metrics and reports when they run, so that
# `benchkit --version` and `--help` answer at once (nbformat alone takes seconds to import)


def _progress(done: int, total: int, record: Record) -> None:
    outcome = record.actual_ename or ""
    if record.task == "detect" and record.verdict is not None:
        outcome = {True: "crash", False: "no crash"}.get(record.predicted_crash, "unknown")
    if record.task == "verify" and record.status == "ok":
        outcome = ("pass" if record.passed else "FAIL") + (f" ({record.actual_ename})" if record.actual_ename else "")
    reason = f" - {record.reason}" if record.reason and (record.status != "ok" or record.task == "verify") else ""
    print(f"[{done}/{total}] {record.case} {record.version}: {record.status} {outcome}"
          f" {record.elapsed_s:.1f}s{reason}", file=sys.stderr, flush=True)


def _write(path: str | None, text: str, quiet: bool = False) -> None:
    """Write a report whole or not at all; a FIFO or a device (``/dev/null``) is refused."""
    if not path:
        return
    from nbdeps import replace_file

    target = Path(path)
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise BenchkitError(f"{target}: cannot write ({exc.strerror or exc})") from None
    replace_file(target, text.encode("utf-8", "backslashreplace"), error=BenchkitError)
    if not quiet:
        print(f"wrote {target}", file=sys.stderr)


def _refuse_outputs(*paths: str | None) -> None:
    """Refuse output paths that exist and are not regular files (a FIFO, ``/dev/null``)
    before a run starts, rather than after it; `_write` would refuse them anyway."""
    for path in paths:
        if path and os.path.exists(path) and not os.path.isfile(path):
            from nbdeps import file_kind

            mode = os.stat(path).st_mode
            raise BenchkitError(f"{path}: cannot write: is {file_kind(mode)}, not a regular file "
                                "(left as it was)")


def _add_run_options(p: argparse.ArgumentParser, default_out: str, shown: str | None = None) -> None:
    p.add_argument("root", help="folder with one sub-folder per case")
    p.add_argument("-j", "--jobs", type=int, default=1, help="parallel workers, each with its own kernel")
    p.add_argument("--timeout", type=float, default=600, metavar="S",
                   help="seconds per cell before the kernel is given up")
    p.add_argument("-o", "--out", default=default_out, metavar="DIR",
                   help=f"results folder, created if missing (default: {shown or default_out})")
    p.add_argument("--force", action="store_true", help="redo cases already in the results")
    p.add_argument("--scheduler", metavar="ADDRESS",
                   help="Dask scheduler address (tcp://host:port) instead of local workers")
    p.add_argument("--case", action="append", dest="cases", metavar="NAME",
                   help="only this case (repeatable)")
    p.add_argument("--format", choices=("text", "json"), default="text",
                   help=FORMAT_HELP + " (json: the summary)")
    p.add_argument("--html", metavar="FILE", help="also write a self-contained HTML report here")
    p.add_argument("--json", dest="json_out", action=Deprecated, use="--format json > FILE")
    p.add_argument("-q", "--quiet", action="store_true", help=QUIET_HELP)


def add_engine_flags(parser: argparse.ArgumentParser, engines: Sequence[str]) -> argparse.ArgumentParser:
    """crashpredict's engine options (`crashpredict.ENGINE_FLAGS`) for ``engines`` as flags."""
    for engine in engines:
        group = parser.add_argument_group(f"{engine} engine (crashpredict)")
        for flag in (f for f in ENGINE_FLAGS if f.engine == engine):
            if flag.type is None:
                group.add_argument(flag.name, action="store_true", default=None, help=flag.help)
            else:
                group.add_argument(flag.name, type=flag.type, metavar=flag.metavar, help=flag.help)
    return parser


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="benchkit", description="Crash/fix notebook benchmarks (JunoBench layout) and the modernization loop.",
        epilog="Exit status: 0 all as expected, 1 some case did not verify / some run failed, "
               "2 unusable input. Options: docs/cli.md.", formatter_class=HelpFormatter)
    parser.add_argument("--version", action="version", version=f"benchkit {__version__}")
    sub = parser.add_subparsers(dest="command", required=True)
    add = lambda name, text, **kw: sub.add_parser(  # noqa: E731
        name, help=text, description=kw.pop("description", text), formatter_class=HelpFormatter, **kw)
    v = add("verify", "check that reproduced targets crash as labelled and fixed ones run clean")
    _add_run_options(v, "benchkit-out/verify")
    d = add("detect", "predict each target with crashpredict and score the predictions")
    _add_run_options(d, "benchkit-out/detect", "benchkit-out/detect-ENGINES, e.g. detect-rules+dryrun")
    d.add_argument("--engine", action="append", dest="engines", metavar="NAMES",
                   help="crashpredict engines, comma-separated or repeated: rules, dryrun, llm "
                   "(default: rules,dryrun, as crashpredict check; rules alone is static only)")
    d.add_argument("--engines", action=Deprecated, append=True, dest="engines", use="--engine")
    add_engine_flags(d, ("dryrun", "llm"))
    c = add("compare", "side-by-side metrics of detect runs and baselines")
    c.add_argument("results", nargs="*", help="detect results folders or results.jsonl files")
    c.add_argument("--baseline", action="append", default=[], metavar="CSV",
                   help="CSV of case,version,predicted crash (repeatable)")
    c.add_argument("--format", choices=("text", "json"), default="text", help=FORMAT_HELP)
    c.add_argument("--html", metavar="FILE", help="also write a self-contained HTML report here")
    c.add_argument("-q", "--quiet", action="store_true", help=QUIET_HELP)
    r = add("report", "print or write the report of a finished run")
    r.add_argument("results", help="results folder or results.jsonl")
    r.add_argument("--format", choices=("text", "json", "html"), default="text",
                   help=FORMAT_HELP + "; html: a self-contained page")
    r.add_argument("-o", "--output", metavar="FILE",
                   help="write here instead of standard output (its folder is created if missing)")
    r.add_argument("-q", "--quiet", action="store_true", help=QUIET_HELP)
    add_engine_flags(add_modernize_parser(sub, formatter_class=HelpFormatter), ("llm",))
    j = add("junobench", "get the JunoBench benchmark")
    jsub = j.add_subparsers(dest="junobench_command", required=True)
    f = jsub.add_parser("fetch", help="download JunoBench from its public repository into a new folder",
                        description=f"Download JunoBench ({JUNOBENCH_REPOSITORY}) as an archive over "
                        "HTTPS, check it, extract it safely and lay it out as benchkit reads it. "
                        "Needs a network; nothing is left behind if it fails.",
                        formatter_class=HelpFormatter)
    f.add_argument("dest", help="folder to create (must not exist, or be empty)")
    f.add_argument("--url", help=f"archive to download instead (zip or tar; default ${URL_ENV}, "
                   f"else {JUNOBENCH_URL})")
    f.add_argument("--sha256", help="refuse the archive unless its SHA-256 is this")
    f.add_argument("--network-timeout", type=float, default=60, metavar="S",
                   help="seconds without data before giving up")
    f.add_argument("--timeout", action=Deprecated, dest="network_timeout", type=float,
                   use="--network-timeout (--timeout is seconds per cell elsewhere)")
    f.add_argument("-q", "--quiet", action="store_true", help=QUIET_HELP)
    return parser


def _summaries(records: Sequence[Record]) -> dict:
    from benchkit._metrics import detection_metrics, verify_summary

    out: dict = {}
    if any(r.task == "verify" for r in records):
        out["verify"] = verify_summary(records)
    if any(r.task == "detect" for r in records):
        out["detect"] = detection_metrics(records)
    return out


def _text(records: Sequence[Record], summary: dict) -> str:
    from benchkit._report import metrics_text, records_text, verify_text

    parts = [records_text(records), ""]
    if "verify" in summary:
        parts.append(verify_text(summary["verify"]))
    if "detect" in summary:
        parts.append(metrics_text(summary["detect"]))
    return "\n".join(parts)


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    try:
        return _main(args)
    except (BenchkitError, CrashPredictError) as exc:
        print(f"benchkit: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:  # an output folder that cannot be made (`-o /dev/null`), a full disk
        where = f"{exc.filename}: " if exc.filename else ""
        print(f"benchkit: {where}{exc.strerror or exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("benchkit: interrupted; finished cases are kept in the results file", file=sys.stderr)
        return 130


def _main(args: argparse.Namespace) -> int:
    from benchkit._bench import detect, verify
    from benchkit._compare import compare, load_baseline, load_run
    from benchkit._report import compare_text, html_report
    from benchkit._store import read_records, results_path

    if args.command == "modernize":
        return run_modernize(args)
    if args.command == "junobench":
        say = lambda line: None if args.quiet else print(line, file=sys.stderr, flush=True)  # noqa: E731
        url = args.url or os.environ.get(URL_ENV) or JUNOBENCH_URL
        say(f"downloading {url}")
        fetched = fetch_junobench(args.dest, url=url, sha256=args.sha256,
                                  timeout=args.network_timeout, progress=say)
        print(f"fetched {fetched.cases} cases into {fetched.folder} (SHA-256 {fetched.sha256})")
        return 0
    if args.command in ("verify", "detect"):
        json_out = getattr(args, "json_out", None)  # the deprecated --json FILE
        _refuse_outputs(args.html, json_out)
        if args.jobs < 1:
            raise BenchkitError(f"-j must be at least 1, not {args.jobs}")
        common = dict(jobs=args.jobs, timeout=args.timeout, force=args.force,
                      scheduler=args.scheduler, cases=args.cases,
                      progress=None if args.quiet else _progress)
        if args.command == "verify":
            records = verify(args.root, args.out, **common)
        else:
            specs = args.engines or ["rules,dryrun"]
            engines = tuple(e.strip() for spec in specs for e in spec.split(",") if e.strip())
            out = args.out if args.out != "benchkit-out/detect" else f"benchkit-out/detect-{'+'.join(engines)}"
            records = detect(args.root, out, engines=engines, options=engine_options(engines, vars(args)), **common)
        summary = _summaries(records)
        print(json.dumps(summary, indent=2) if args.format == "json" else _text(records, summary))
        if not args.quiet:
            print(f"results: {results_path(args.out if args.command == 'verify' else out)}", file=sys.stderr)
        _write(json_out, json.dumps(summary, indent=2) + "\n", args.quiet)
        if args.html:
            _write(args.html, html_report(title=f"benchkit {args.command}: {args.root}", records=records,
                                          metrics=summary.get("detect"), verify=summary.get("verify")),
                   args.quiet)
        if args.command == "verify":
            return 0 if not (summary["verify"]["failed"] or summary["verify"]["malformed"]) else 1
        return 0 if all(r.status == "ok" for r in records) else 1
    if args.command == "compare":
        _refuse_outputs(args.html)
        runs = [load_run(p) for p in args.results]
        labels = {r.case: r.labels for run in runs for r in run.records}
        runs += [load_baseline(p, labels) for p in args.baseline]
        if not runs:
            raise BenchkitError("compare needs at least one results folder or --baseline")
        comparison = compare(runs)
        print(json.dumps(comparison, indent=2) if args.format == "json" else compare_text(comparison))
        if args.html:
            _write(args.html, html_report(title="benchkit compare", records=(), comparison=comparison),
                   args.quiet)
        return 0
    _refuse_outputs(args.output)
    records = read_records(args.results)
    summary = _summaries(records)
    if args.format == "json":
        text = json.dumps({"summary": summary, "records": [r.to_dict() for r in records]}, indent=2) + "\n"
    elif args.format == "html":
        text = html_report(title=f"benchkit report: {args.results}", records=records,
                           metrics=summary.get("detect"), verify=summary.get("verify"))
    else:
        text = _text(records, summary) + "\n"
    if args.output:
        _write(args.output, text, args.quiet)
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
