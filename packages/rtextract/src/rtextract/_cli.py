"""Command line: ``rtextract render SNAPSHOT.json`` and ``rtextract select CELL.py``."""

from __future__ import annotations

import argparse
import json
import os
import stat
import sys
from collections.abc import Sequence

from rtextract import __version__
from rtextract._model import Snapshot
from rtextract._render import render
from rtextract._select import select
from rtextract.errors import RtextractError

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


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="rtextract", formatter_class=_HelpFormatter,
        description="Runtime facts of live objects: render a snapshot as a prompt block, or "
                    "list the names a cell reads.",
        epilog="Exit status: 0 done, 2 unreadable input or bad usage. Options: docs/cli.md.")
    parser.add_argument("--version", action="version", version=f"rtextract {__version__}")
    sub = parser.add_subparsers(dest="command", required=True)
    text = "render a snapshot JSON file as a prompt block"
    show = sub.add_parser("render", help=text, description=text, formatter_class=_HelpFormatter)
    show.add_argument("file", help="snapshot JSON written by Snapshot.to_json() (- for stdin)")
    show.add_argument("--budget", type=int, default=2000, help="characters at most")
    show.add_argument("--categories", default="SRV", help="fact categories to keep (S, R, V)")
    show.add_argument("-q", "--quiet", action="store_true", help=QUIET_HELP)
    text = "list the names and chains a cell reads, as JSON"
    pick = sub.add_parser("select", help=text, description=text, formatter_class=_HelpFormatter)
    pick.add_argument("file", help="a Python file holding the cell's source (- for stdin)")
    pick.add_argument("-q", "--quiet", action="store_true", help=QUIET_HELP)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the CLI; return 0 on success and 2 on bad input (with a one-line error)."""
    args = _parser().parse_args(argv)
    try:
        text = _read(args.file)
        if args.command == "render":
            snap = Snapshot.from_json(text).filter(args.categories)
            print(render(snap, args.budget))
        else:
            rows = [{"name": a.name, "path": list(a.path), "line": a.line, "text": a.text}
                    for a in select(text)]
            print(json.dumps(rows, indent=2))
    except RecursionError:
        print(f"rtextract: {args.file}: not a readable snapshot (nested too deeply)",
              file=sys.stderr)
        return 2
    except RtextractError as exc:
        print(f"rtextract: {args.file}: {exc}", file=sys.stderr)
        return 2
    return 0


#: Bytes of an input file (a snapshot's JSON, a cell's source) read at most.
INPUT_LIMIT = 64 << 20


def _read(file: str) -> str:
    """The text of a regular file of at most `INPUT_LIMIT` bytes: a FIFO never blocks
    (opened without blocking), a device such as /dev/zero is refused before it is read."""
    if file == "-":
        data = sys.stdin.buffer.read(INPUT_LIMIT + 1)
    else:
        try:
            if not stat.S_ISREG(os.stat(file).st_mode):
                raise RtextractError("not a regular file")
            fd = os.open(file, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
        except OSError as exc:
            raise RtextractError(f"cannot read: {exc.strerror or exc}") from None
        with os.fdopen(fd, "rb") as fh:
            if not stat.S_ISREG(os.fstat(fh.fileno()).st_mode):
                raise RtextractError("not a regular file")
            data = fh.read(INPUT_LIMIT + 1)
    if len(data) > INPUT_LIMIT:
        raise RtextractError(f"larger than the {INPUT_LIMIT >> 20} MiB limit")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise RtextractError(f"not UTF-8 text (byte {exc.start})") from None
