"""Command line: ``rtextract render SNAPSHOT.json`` and ``rtextract select CELL.py``."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path

from rtextract import __version__
from rtextract._model import Snapshot
from rtextract._render import render
from rtextract._select import select
from rtextract.errors import RtextractError

__all__ = ["main"]


def main(argv: Sequence[str] | None = None) -> int:
    """Run the CLI; return 0 on success and 2 on bad input (with a one-line error)."""
    parser = argparse.ArgumentParser(
        prog="rtextract",
        description="Runtime facts of live objects: render a snapshot as a prompt block, or "
                    "list the names a cell reads.")
    parser.add_argument("--version", action="version", version=f"rtextract {__version__}")
    sub = parser.add_subparsers(dest="command", required=True)
    show = sub.add_parser("render", help="render a snapshot JSON file as a prompt block")
    show.add_argument("file", help="snapshot JSON written by Snapshot.to_json()")
    show.add_argument("--budget", type=int, default=2000, help="characters (default 2000)")
    show.add_argument("--categories", default="SRV", help="fact categories to keep (S, R, V)")
    pick = sub.add_parser("select", help="list the names and chains a cell reads, as JSON")
    pick.add_argument("file", help="a Python file holding the cell's source")
    args = parser.parse_args(argv)
    try:
        text = _read(args.file)
        if args.command == "render":
            snap = Snapshot.from_json(text).filter(args.categories)
            print(render(snap, args.budget))
        else:
            rows = [{"name": a.name, "path": list(a.path), "line": a.line, "text": a.text}
                    for a in select(text)]
            print(json.dumps(rows, indent=2))
    except RtextractError as exc:
        print(f"rtextract: {args.file}: {exc}", file=sys.stderr)
        return 2
    return 0


def _read(file: str) -> str:
    try:
        return Path(file).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise RtextractError(f"cannot read: {getattr(exc, 'strerror', None) or exc}") from None
