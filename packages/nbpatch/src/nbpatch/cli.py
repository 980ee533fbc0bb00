"""The ``nbpatch`` command: diff, apply, similarity, equiv.

Exit codes: 0 equal / applied, 1 different, 2 unusable input (one line on stderr, nothing
written).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path

from ._apply import apply
from ._diff import diff
from ._equiv import equivalent
from ._model import Patch
from ._notebook import read_notebook, write_notebook
from ._render import render_equivalence, render_patch
from ._reply import read_reply
from ._similarity import similarity
from .errors import NbpatchError, ReplyError

__all__ = ["main"]


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="nbpatch", description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    d = sub.add_parser("diff", help="the patch turning A into B (exit 1 when they differ)")
    d.add_argument("a")
    d.add_argument("b")
    d.add_argument("--outputs", action="store_true", help="compare outputs and counts too")
    d.add_argument("--metadata", action="store_true", help="compare metadata too")
    d.add_argument("--json", action="store_true", help="print the patch as JSON")
    p = sub.add_parser("apply", help="apply a patch (or an LLM reply) to a notebook")
    p.add_argument("notebook")
    p.add_argument("patch", help="a patch JSON file, or a reply file with --reply")
    p.add_argument("--reply", action="store_true", help="PATCH is an LLM/tool reply")
    p.add_argument("--cell", help="the cell a single-block reply replaces (id or position)")
    p.add_argument("-o", "--output", help="write here instead of over NOTEBOOK")
    p.add_argument("--json", action="store_true", help="print the applied patch as JSON")
    s = sub.add_parser("similarity", help="edit similarity of the code (exit 1 unless 1.0)")
    s.add_argument("a")
    s.add_argument("b")
    s.add_argument("--per-cell", action="store_true")
    s.add_argument("--ignore-comments", action="store_true")
    s.add_argument("--keep-blank", action="store_true", help="count blank lines too")
    s.add_argument("--method", choices=("levenshtein", "ratio"), default="levenshtein")
    s.add_argument("--json", action="store_true")
    e = sub.add_parser("equiv", help="run both in fresh kernels and compare")
    e.add_argument("a", help="the original")
    e.add_argument("b", help="the modified version")
    e.add_argument("--variable", action="append", default=[], help="compare this variable")
    e.add_argument("--score", help="a variable or expression to compare")
    e.add_argument("--tolerance", type=float, default=0.1, help="relative tolerance on score")
    e.add_argument("--runs", type=int, default=1)
    e.add_argument("--timeout", type=float, default=600.0, help="seconds per cell")
    e.add_argument("--cwd")
    e.add_argument("--json", action="store_true")
    return parser


def _diff(args: argparse.Namespace) -> int:
    patch = diff(read_notebook(args.a), read_notebook(args.b),
                 compare_outputs=args.outputs, compare_metadata=args.metadata)
    print(patch.to_json() if args.json else render_patch(patch))
    return 1 if patch else 0


def _apply(args: argparse.Namespace) -> int:
    nb = read_notebook(args.notebook)
    try:
        text = Path(args.patch).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise NbpatchError(f"{args.patch}: cannot read ({exc})") from None
    if args.reply:
        cell = int(args.cell) if args.cell and args.cell.lstrip("-").isdigit() else args.cell
        patch = read_reply(text, nb, cell=cell)
    else:
        patch = Patch.from_json(text, source=args.patch)
    new = apply(nb, patch)
    write_notebook(new, args.output or args.notebook)
    print(patch.to_json() if args.json else render_patch(patch))
    return 0


def _similarity(args: argparse.Namespace) -> int:
    value = similarity(read_notebook(args.a), read_notebook(args.b), per_cell=args.per_cell,
                       ignore_comments=args.ignore_comments, ignore_blank=not args.keep_blank,
                       method=args.method)
    print(json.dumps({"similarity": value, "method": args.method}) if args.json else f"{value:.4f}")
    return 0 if value == 1.0 else 1


def _equiv(args: argparse.Namespace) -> int:
    verdict = equivalent(args.a, args.b, variables=args.variable, score=args.score,
                         tolerance=args.tolerance, runs=args.runs, timeout=args.timeout,
                         cwd=args.cwd)
    print(json.dumps(verdict.to_dict(), indent=1) if args.json else render_equivalence(verdict))
    return 0 if verdict.equivalent else 1


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``nbpatch`` command line; returns the exit code."""
    args = _parser().parse_args(argv)
    command = {"diff": _diff, "apply": _apply, "similarity": _similarity, "equiv": _equiv}
    try:
        return command[args.command](args)
    except (NbpatchError, ValueError) as exc:
        where = f"{args.patch}: " if isinstance(exc, ReplyError) else ""
        print(f"nbpatch {args.command}: error: {where}{exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    raise SystemExit(main())
