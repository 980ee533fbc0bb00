"""The ``benchkit modernize`` subcommand: its flags and the one library call behind them."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from benchkit._cliopts import QUIET_HELP
from benchkit.errors import BenchkitError

if TYPE_CHECKING:
    from ._model import ModernizeSettings

__all__ = ["add_modernize_parser", "run_modernize"]


def add_modernize_parser(sub: argparse._SubParsersAction, **kwargs) -> argparse.ArgumentParser:
    """Add ``modernize`` to benchkit's subcommands (``kwargs`` go to ``add_parser``)."""
    text = "make old notebooks run today: run, classify, patch (codemods, then an LLM), repeat"
    m = sub.add_parser("modernize", help=text, description=text, **kwargs)
    m.add_argument("path", help="a notebook, or a folder of notebooks")
    m.add_argument("-o", "--out", default="benchkit-out/modernize", metavar="DIR",
                   help="output folder, created if missing")
    m.add_argument("--target-score", type=float, metavar="X",
                   help="the score the notebook should reach")
    m.add_argument("--score", metavar="EXPR", help="variable or expression giving the score, "
                   "evaluated in the kernel after the run")
    m.add_argument("--tolerance", type=float, default=0.1,
                   help="allowed relative deviation from --target-score (default 0.1)")
    m.add_argument("--output-tolerance", type=float, default=0.01, metavar="X",
                   help="allowed relative difference of a printed number from the one the old "
                        "notebook saved (default 0.01; integers and text must be equal)")
    m.add_argument("--max-iter", type=int, default=16, help="rounds per notebook")
    m.add_argument("--timeout", type=float, default=600, metavar="S", help="seconds per cell")
    m.add_argument("--total-timeout", type=float, metavar="S",
                   help="seconds for the whole notebook per round (default: no limit beyond "
                        "--timeout per cell)")
    m.add_argument("-j", "--jobs", type=int, default=1, help="notebooks at a time (folder)")
    m.add_argument("--scheduler", metavar="ADDRESS",
                   help="Dask scheduler address instead of local workers")
    m.add_argument("--no-codemods", action="store_true",
                   help="no codemods and no drift knowledge base (resolvers and the LLM only)")
    m.add_argument("--no-resolvers", action="store_true",
                   help="do not try the error-driven resolvers (each candidate costs a run)")
    m.add_argument("--no-equivalence", action="store_true",
                   help="skip the functional-equivalence check against the original")
    m.add_argument("--llm", action="store_true",
                   help="use the LLM for repairs codemods cannot make (implied by --llm-model "
                        "or --llm-base-url)")
    m.add_argument("-q", "--quiet", action="store_true", help=QUIET_HELP)
    return m  # the caller adds crashpredict's --llm-* flags


def _settings(args: argparse.Namespace) -> ModernizeSettings:
    from ._model import ModernizeSettings

    llm = None
    if args.llm or args.llm_model or args.llm_base_url:
        from crashpredict.llm import LLMError, settings_from_values

        try:
            llm = settings_from_values(vars(args))
        except LLMError as exc:
            raise BenchkitError(str(exc)) from None
        if "api.openai.com" in llm.base_url and llm.api_key() is None:
            raise BenchkitError(f"no API key for {llm.base_url}: set {llm.api_key_env}, or "
                                "point --llm-base-url at a local server")
        if args.llm_cache_dir is None and llm.cache_dir is not None:
            # nothing is written outside the output folder unless asked for
            llm = llm.replace(cache_dir=Path(args.out) / "llm-cache")
    return ModernizeSettings(target_score=args.target_score, score=args.score,
                             tolerance=args.tolerance, max_iter=args.max_iter,
                             output_tolerance=args.output_tolerance,
                             timeout=args.timeout, total_timeout=args.total_timeout, llm=llm, codemods=not args.no_codemods,
                             resolvers=not args.no_resolvers,
                             check_equivalence=not args.no_equivalence)


def run_modernize(args: argparse.Namespace) -> int:
    """Run the subcommand; 0 when every notebook runs now, 1 otherwise."""
    from nbdeps import replace_file

    from ._folder import modernize_folder  # the loop loads only when it runs (libcst, kernels)
    from ._loop import modernize
    from ._report import html_report, result_text, summary_text

    settings = _settings(args)
    path = Path(args.path)
    say = lambda line: None if args.quiet else print(line, file=sys.stderr, flush=True)  # noqa: E731
    if path.is_dir():
        done = lambda k, n, r: say(f"[{k}/{n}] {r.notebook}: "  # noqa: E731
                                   f"{'runs now' if r.reproduced else r.error or r.stop_reason}")
        folder = modernize_folder(path, args.out, settings=settings, jobs=args.jobs,
                                  scheduler=args.scheduler, progress=done)
        print(summary_text(folder.results))
        say(f"report: {folder.report_html}")
        return 0 if all(r.reproduced for r in folder.results) else 1
    out = Path(args.out) / path.stem
    result = modernize(path, out, settings=settings, progress=say)
    print(result_text(result))
    replace_file(out / "report.html",
                 html_report([result], title=f"benchkit modernize: {path}").encode("utf-8"),
                 error=BenchkitError)
    say(f"report: {out / 'report.json'}, {out / 'report.html'}")
    return 0 if result.reproduced else 1
