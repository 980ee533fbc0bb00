"""The nbpatch command: diff, apply, similarity, equiv.

Exit codes: 0 equal / applied, 1 different, 2 unusable input (one line on stderr, nothing
written).
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager

from . import __version__
from ._apply import apply
from ._diff import diff
from ._files import NOTEBOOK_LIMIT, REPLY_LIMIT, read_bounded
from ._model import Patch
from ._notebook import read_notebook, write_notebook
from ._render import render_patch
from ._reply import read_reply
from ._similarity import similarity
from .errors import NbpatchError, PatchConflict, PatchError, ReplyError

__all__ = ["main"]

DESCRIPTION = ("Cell-level diff and patch of Jupyter notebooks, edit similarity, and "
               "functional equivalence (runs both versions in fresh kernels).")
CELL_HELP = "the cell a single-block reply replaces: a cell id, or its position N counting " \
            "every cell from 1 as the notebook shows it"


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="nbpatch", description=DESCRIPTION,
                                     epilog="Exit codes: 0 equal / applied / equivalent, "
                                     "1 different, 2 unusable input.")
    parser.add_argument("--version", action="version", version=f"nbpatch {__version__}")
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
    p.add_argument("--cell", help=CELL_HELP)
    p.add_argument("-o", "--output", help="write here instead of over NOTEBOOK")
    p.add_argument("--force", action="store_true", help="overwrite a read-only target file")
    p.add_argument("--json", action="store_true", help="print the applied patch as JSON")
    s = sub.add_parser("similarity", help="edit similarity of the code (exit 1 unless 1.0)")
    s.add_argument("a")
    s.add_argument("b")
    s.add_argument("--per-cell", action="store_true", help="mean over aligned code cells")
    s.add_argument("--ignore-comments", action="store_true", help="leave comments out")
    s.add_argument("--keep-blank", action="store_true", help="count blank lines too")
    s.add_argument("--method", choices=("levenshtein", "ratio"), default="levenshtein",
                   help="normalised Levenshtein (default) or rapidfuzz's fuzz.ratio")
    s.add_argument("--json", action="store_true", help="print a JSON object")
    e = sub.add_parser("equiv", help="run both in fresh kernels and compare")
    e.add_argument("a", help="the original")
    e.add_argument("b", help="the modified version")
    e.add_argument("--variable", action="append", default=[], help="compare this variable")
    e.add_argument("--score", help="a variable or expression to compare")
    e.add_argument("--tolerance", type=float, default=0.1, help="relative tolerance on score")
    e.add_argument("--runs", type=int, default=1, help="runs per version (2+: a t-test)")
    e.add_argument("--timeout", type=float, default=600.0, help="seconds per cell")
    e.add_argument("--cwd", help="working directory of both kernels")
    e.add_argument("--json", action="store_true", help="print the verdict as JSON")
    return parser


def _diff(args: argparse.Namespace) -> int:
    a, b = read_notebook(args.a), read_notebook(args.b)
    patch = diff(a, b, compare_outputs=args.outputs, compare_metadata=args.metadata)
    print(patch.to_json() if args.json else render_patch(patch, a, b))
    return 1 if patch else 0


def _cell_option(value: str | None, nb) -> str | int | None:
    """``--cell``: an id of the notebook, else a 1-based position (``read_reply`` counts from 0)."""
    if value is None or any(c.get("id") == value for c in nb.cells):
        return value
    if value.isdigit():
        if not 1 <= int(value) <= len(nb.cells):
            raise ReplyError(f"--cell {value}: the notebook has {len(nb.cells)} cells "
                             f"(positions 1..{len(nb.cells)})")
        return int(value) - 1
    return value


@contextmanager
def _naming(path: str, *kinds: type[NbpatchError]) -> Iterator[None]:
    """Errors of ``kinds`` raised inside get ``path: `` in front (unless they name it)."""
    try:
        yield
    except kinds as exc:
        if str(exc).startswith(f"{path}:"):
            raise
        raise type(exc)(f"{path}: {exc}") from None


def _apply(args: argparse.Namespace) -> int:
    nb = read_notebook(args.notebook)
    limit = REPLY_LIMIT if args.reply else NOTEBOOK_LIMIT  # a patch may carry a whole notebook
    raw = read_bounded(args.patch, limit=limit, what="reply" if args.reply else "patch")
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise NbpatchError(f"{args.patch}: cannot read (not UTF-8 text: byte {exc.start})") from None
    cell = _cell_option(args.cell, nb)
    with _naming(args.patch, ReplyError, PatchError):
        if args.reply:
            patch = read_reply(text, nb, cell=cell)
        else:
            patch = Patch.from_json(text, source=args.patch)
    with _naming(args.notebook, PatchConflict), _naming(args.patch, PatchError):
        new = apply(nb, patch)
    write_notebook(new, args.output or args.notebook, force=args.force)
    print(patch.to_json() if args.json else render_patch(patch, nb, new))
    return 0


def _similarity(args: argparse.Namespace) -> int:
    value = similarity(read_notebook(args.a), read_notebook(args.b), per_cell=args.per_cell,
                       ignore_comments=args.ignore_comments, ignore_blank=not args.keep_blank,
                       method=args.method)
    print(json.dumps({"similarity": value, "method": args.method}) if args.json else f"{value:.4f}")
    return 0 if value == 1.0 else 1


def _equiv(args: argparse.Namespace) -> int:
    from ._equiv import equivalent
    from ._render import render_equivalence

    verdict = equivalent(args.a, args.b, variables=args.variable, score=args.score,
                         tolerance=args.tolerance, runs=args.runs, timeout=args.timeout,
                         cwd=args.cwd)
    print(json.dumps(verdict.to_dict(), indent=1) if args.json else render_equivalence(verdict))
    return 0 if verdict.equivalent else 1


def _exit_on_signal(signum: int, _frame: object) -> None:
    # SystemExit unwinds through write_notebook's clean-up: no temporary file stays behind
    raise SystemExit(128 + signum)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``nbpatch`` command line; returns the exit code."""
    args = _parser().parse_args(argv)
    command = {"diff": _diff, "apply": _apply, "similarity": _similarity, "equiv": _equiv}
    previous = {}
    try:
        for signum in (signal.SIGTERM, signal.SIGHUP):
            previous[signum] = signal.signal(signum, _exit_on_signal)
    except ValueError:  # not the main thread: leave the handlers alone
        pass
    try:
        return command[args.command](args)
    except (NbpatchError, ValueError) as exc:
        print(f"nbpatch {args.command}: error: {exc}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # `nbpatch diff a b | head`: stop quietly, as cat does
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)


if __name__ == "__main__":
    raise SystemExit(main())
