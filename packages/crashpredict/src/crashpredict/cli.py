"""The `crashpredict` command: check one target cell, or walk a whole notebook."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from ._render import as_json, check_text, walk_text
from .errors import CrashPredictError

__all__ = ["main"]


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="crashpredict",
        description="Predict whether a notebook cell will crash before it runs.")
    sub = parser.add_subparsers(dest="command", required=True)
    for name, text in (("check", "replay the executed cells, then predict the target cell"),
                       ("walk", "predict each cell, then run it; report predicted vs actual")):
        p = sub.add_parser(name, help=text, description=text)
        p.add_argument("notebook")
        if name == "check":
            p.add_argument("--cell", help="target cell id or index (default: the cell with "
                                          "an error output, else the first after the "
                                          "replayed ones)")
        p.add_argument("--engine", action="append", dest="engines",
                       help="engine name (repeatable; default: rules)")
        p.add_argument("--format", choices=("text", "json"), default="text")
        p.add_argument("--order", choices=("history", "notebook"),
                       default="history" if name == "check" else "notebook")
        p.add_argument("--timeout", type=float, default=600, help="seconds per cell")
        p.add_argument("--quiet", action="store_true", help="no progress on stderr")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the CLI; exit 0 no crash predicted, 1 crash predicted, 2 could not run."""
    args = _parser().parse_args(argv)
    from ._check import check_notebook, walk_notebook

    def progress(message: str) -> None:
        print(f"crashpredict: {message}", file=sys.stderr, flush=True)

    engines = tuple(e for spec in (args.engines or ["rules"]) for e in spec.split(",") if e)
    try:
        if args.command == "check":
            result = check_notebook(args.notebook, cell=args.cell, order=args.order,
                                    engines=engines, timeout=args.timeout,
                                    progress=None if args.quiet else progress)
            print(as_json(result) if args.format == "json" else check_text(result))
            if result.verdict.crash is None:
                return 2
            return 1 if result.verdict.crash else 0
        walked = walk_notebook(args.notebook, order=args.order, engines=engines,
                               timeout=args.timeout, progress=None if args.quiet else progress)
        print(as_json(walked) if args.format == "json" else walk_text(walked))
        return 1 if any(s.verdict.crash for s in walked.steps) else 0
    except (CrashPredictError, ValueError) as exc:
        print(f"crashpredict: error: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    raise SystemExit(main())
