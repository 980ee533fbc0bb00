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
from .errors import NbpatchError, PatchConflict, PatchError, ReplyError

# the commands import what they use when they run: `nbpatch --version` and `--help` answer
# without loading nbformat (seconds, through jsonschema), rapidfuzz or jupyter_client

__all__ = ["main"]

DESCRIPTION = ("Cell-level diff and patch of Jupyter notebooks, edit similarity, and "
               "functional equivalence (runs both versions in fresh kernels).")
CELL_HELP = "the cell a single-block reply replaces: a cell id, or its position N counting " \
            "every cell from 1 as the notebook shows it"


QUIET_HELP = "less output: no progress, summary or 'wrote FILE' lines (results and errors still print)"
FORMAT_HELP = "output on stdout: text for people, json for programs"


class _HelpFormatter(argparse.HelpFormatter):
    """Help that shows each option's default, unless its text already says it."""

    def _get_help_string(self, action: argparse.Action) -> str:
        text = action.help or ""
        if (not action.option_strings or "default" in text or text == argparse.SUPPRESS
                or action.default in (None, False, "", (), [], argparse.SUPPRESS)):
            return text
        return f"{text} (default: %(default)s)"


class _Deprecated(argparse.Action):
    """A former spelling, still accepted: hidden from --help, one line on stderr."""

    def __init__(self, option_strings, dest, *, use: str, nargs=0, const=None, **kwargs):
        super().__init__(option_strings, dest, nargs=nargs, const=const, default=argparse.SUPPRESS,
                         help=argparse.SUPPRESS, **kwargs)
        self.use = use

    def __call__(self, parser, namespace, values, option_string=None):
        print(f"{parser.prog}: {option_string} is deprecated; use {self.use}", file=sys.stderr)
        setattr(namespace, self.dest, self.const if self.nargs == 0 else values)


def _output_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--format", choices=("text", "json"), default="text", help=FORMAT_HELP)
    p.add_argument("--json", action=_Deprecated, dest="format", const="json", use="--format json")
    p.add_argument("-q", "--quiet", action="store_true", help=QUIET_HELP)


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="nbpatch", description=DESCRIPTION,
                                     formatter_class=_HelpFormatter,
                                     epilog="Exit codes: 0 equal / applied / equivalent, "
                                     "1 different, 2 unusable input. Options: docs/cli.md.")
    parser.add_argument("--version", action="version", version=f"nbpatch {__version__}")
    sub = parser.add_subparsers(dest="command", required=True)
    add = lambda name, text: sub.add_parser(name, help=text, description=text,  # noqa: E731
                                            formatter_class=_HelpFormatter)
    d = add("diff", "the patch turning A into B (exit 1 when they differ)")
    d.add_argument("a", help="the first notebook")
    d.add_argument("b", help="the second notebook")
    d.add_argument("--outputs", action="store_true", help="compare outputs and counts too")
    d.add_argument("--metadata", action="store_true", help="compare metadata too")
    _output_options(d)  # json: the patch
    p = add("apply", "apply a patch (or an LLM reply) to a notebook")
    p.add_argument("notebook", help="the notebook to patch")
    p.add_argument("patch", help="a patch JSON file, or a reply file with --reply")
    p.add_argument("--reply", action="store_true", help="PATCH is an LLM/tool reply")
    p.add_argument("--cell", help=CELL_HELP)
    p.add_argument("-o", "--output", metavar="FILE", help="write here instead of over NOTEBOOK "
                   "(its folder is created if missing)")
    p.add_argument("--force", action="store_true", help="overwrite a read-only target file")
    _output_options(p)  # json: the applied patch
    s = add("similarity", "edit similarity of the code (exit 1 unless 1.0)")
    s.add_argument("a", help="the first notebook")
    s.add_argument("b", help="the second notebook")
    s.add_argument("--per-cell", action="store_true", help="mean over aligned code cells")
    s.add_argument("--ignore-comments", action="store_true", help="leave comments out")
    s.add_argument("--keep-blank", action="store_true", help="count blank lines too")
    s.add_argument("--method", choices=("levenshtein", "ratio"), default="levenshtein",
                   help="normalised Levenshtein or rapidfuzz's fuzz.ratio")
    _output_options(s)  # json: {"similarity": ..., "method": ...}
    e = add("equiv", "run both in fresh kernels and compare")
    e.add_argument("a", help="the original")
    e.add_argument("b", help="the modified version")
    e.add_argument("--variable", action="append", default=[], metavar="NAME",
                   help="compare this variable (repeatable)")
    e.add_argument("--score", metavar="EXPR", help="a variable or expression to compare")
    e.add_argument("--tolerance", type=float, default=0.1, help="relative tolerance on score")
    e.add_argument("--runs", type=int, default=1, help="runs per version (2+: a t-test)")
    e.add_argument("--timeout", type=float, default=600.0, metavar="S", help="seconds per cell")
    e.add_argument("--cwd", metavar="DIR", help="working directory of both kernels "
                   "(default: each notebook's folder)")
    _output_options(e)  # json: the verdict
    return parser


def _diff(args: argparse.Namespace) -> int:
    from ._diff import diff
    from ._notebook import read_notebook
    from ._render import render_patch

    a, b = read_notebook(args.a), read_notebook(args.b)
    patch = diff(a, b, compare_outputs=args.outputs, compare_metadata=args.metadata)
    print(patch.to_json() if args.format == "json" else render_patch(patch, a, b))
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
    from ._apply import apply
    from ._files import NOTEBOOK_LIMIT, REPLY_LIMIT, read_bounded
    from ._model import Patch
    from ._notebook import read_notebook, write_notebook
    from ._render import render_patch
    from ._reply import read_reply

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
    if args.output:  # -o creates the folder, as in the other commands
        folder = os.path.dirname(args.output) or "."
        try:
            os.makedirs(folder, exist_ok=True)
        except FileExistsError:
            raise NbpatchError(f"{args.output}: cannot write ({folder} is not a folder)") from None
        except OSError as exc:
            raise NbpatchError(f"{args.output}: cannot write ({exc.strerror or exc})") from None
    write_notebook(new, args.output or args.notebook, force=args.force)
    print(patch.to_json() if args.format == "json" else render_patch(patch, nb, new))
    return 0


def _similarity(args: argparse.Namespace) -> int:
    from ._notebook import read_notebook
    from ._similarity import similarity

    value = similarity(read_notebook(args.a), read_notebook(args.b), per_cell=args.per_cell,
                       ignore_comments=args.ignore_comments, ignore_blank=not args.keep_blank,
                       method=args.method)
    print(json.dumps({"similarity": value, "method": args.method}) if args.format == "json"
          else f"{value:.4f}")
    return 0 if value == 1.0 else 1


def _equiv(args: argparse.Namespace) -> int:
    from ._equiv import equivalent
    from ._render import render_equivalence

    verdict = equivalent(args.a, args.b, variables=args.variable, score=args.score,
                         tolerance=args.tolerance, runs=args.runs, timeout=args.timeout,
                         cwd=args.cwd)
    print(json.dumps(verdict.to_dict(), indent=1) if args.format == "json"
          else render_equivalence(verdict))
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
