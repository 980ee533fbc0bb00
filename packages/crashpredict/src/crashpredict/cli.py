"""The `crashpredict` command: check one target cell, or walk a whole notebook."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import Any

from . import __version__
from ._render import as_json, check_text, walk_text
from ._options import ENGINE_FLAGS, engine_options
from .errors import CrashPredictError

__all__ = ["main"]


QUIET_HELP = "less output: no progress, summary or 'wrote FILE' lines (results and errors still print)"


class _HelpFormatter(argparse.HelpFormatter):
    """Help that shows each option's default, unless its text already says it."""

    def _get_help_string(self, action: argparse.Action) -> str:
        text = action.help or ""
        if (not action.option_strings or "default" in text or text == argparse.SUPPRESS
                or action.default in (None, False, "", argparse.SUPPRESS)):
            return text
        return f"{text} (default: %(default)s)"


class _Deprecated(argparse.Action):
    """A former spelling, still accepted: hidden from --help, one line on stderr."""

    def __init__(self, option_strings, dest, *, use: str, append: bool = False, nargs=None,
                 **kwargs):
        super().__init__(option_strings, dest, nargs=nargs, default=argparse.SUPPRESS,
                         help=argparse.SUPPRESS, **kwargs)
        self.use, self.append = use, append

    def __call__(self, parser, namespace, values, option_string=None):
        print(f"{parser.prog}: {option_string} is deprecated; use {self.use}", file=sys.stderr)
        if self.append:
            values = [*(getattr(namespace, self.dest, None) or []), values]
        setattr(namespace, self.dest, values)


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="crashpredict", formatter_class=_HelpFormatter,
        description="Predict whether a notebook cell will crash before it runs.",
        epilog="Exit status: 0 no crash predicted, 1 crash predicted, 2 could not run. "
               "Options: docs/cli.md.")
    parser.add_argument("--version", action="version", version=f"crashpredict {__version__}")
    sub = parser.add_subparsers(dest="command", required=True)
    for name, text in (("check", "replay the executed cells, then predict the target cell"),
                       ("walk", "predict each cell, then run it; report predicted vs actual")):
        p = sub.add_parser(name, help=text, description=text, formatter_class=_HelpFormatter)
        p.add_argument("notebook", help="the notebook (.ipynb)")
        if name == "check":
            p.add_argument("--cell", help="target cell: its id, or its position counting "
                                          "every cell from 1 as the notebook shows it "
                                          "(default: the cell with an error output, else "
                                          "the first after the cells that ran)")
        p.add_argument("--engine", action="append", dest="engines", metavar="NAMES",
                       help="engines, comma-separated or repeated: rules, dryrun, llm "
                            "(default: rules,dryrun; rules alone never runs the target); "
                            "they combine (see docs/crashpredict.md)")
        p.add_argument("--engines", action=_Deprecated, append=True, dest="engines",
                       use="--engine")
        p.add_argument("--in-place", action="store_true",
                       help="replay unconfined in the notebook's own folder, keeping whatever "
                            "the cells write (default: a jailed kernel in a private copy, "
                            "whose writes are discarded)")
        _add_engine_flags(p)
        p.add_argument("--format", choices=("text", "json"), default="text",
                       help="output on stdout: text for people, json for programs")
        p.add_argument("--order", choices=("history", "notebook"),
                       default="history" if name == "check" else "notebook",
                       help="replay by the saved execution counts (history) or top to bottom")
        p.add_argument("--timeout", type=float, default=600, metavar="S", help="seconds per cell")
        p.add_argument("-q", "--quiet", action="store_true", help=QUIET_HELP)
    return parser


def _add_engine_flags(parser: argparse.ArgumentParser,
                         engines: Sequence[str] = ("dryrun", "llm")) -> argparse.ArgumentParser:
    """Add the options of ``engines`` (from `crashpredict.ENGINE_FLAGS`) to ``parser``."""
    groups: dict[str, Any] = {}
    for flag in ENGINE_FLAGS:
        if flag.engine not in engines:
            continue
        if flag.engine not in groups:
            groups[flag.engine] = parser.add_argument_group(f"{flag.engine} engine")
        if flag.type is None:
            groups[flag.engine].add_argument(flag.name, action="store_true", default=None,
                                             help=flag.help)
        else:
            groups[flag.engine].add_argument(flag.name, type=flag.type, metavar=flag.metavar,
                                             help=flag.help)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the CLI; exit 0 no crash predicted, 1 crash predicted, 2 could not run."""
    args = _parser().parse_args(argv)
    from ._check import DEFAULT_ENGINES, check_notebook, walk_notebook

    def progress(message: str) -> None:
        print(f"crashpredict: {message}", file=sys.stderr, flush=True)

    specs = args.engines or [",".join(DEFAULT_ENGINES)]
    engines = tuple(e.strip() for spec in specs for e in spec.split(",") if e.strip())
    try:
        options = engine_options(engines, vars(args))
        if args.command == "check":
            result = check_notebook(args.notebook, cell=args.cell, order=args.order,
                                    engines=engines, timeout=args.timeout, options=options,
                                    progress=None if args.quiet else progress,
                                    in_place=args.in_place)
            print(as_json(result) if args.format == "json" else check_text(result))
            if result.verdict.crash is None:
                return 2
            return 1 if result.verdict.crash else 0
        walked = walk_notebook(args.notebook, order=args.order, engines=engines,
                               timeout=args.timeout, options=options,
                               progress=None if args.quiet else progress,
                               in_place=args.in_place)
        print(as_json(walked) if args.format == "json" else walk_text(walked))
        return 1 if any(s.verdict.crash for s in walked.steps) else 0
    except (CrashPredictError, ValueError, OSError) as exc:
        print(f"crashpredict: error: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    raise SystemExit(main())
