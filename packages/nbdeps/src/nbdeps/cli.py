"""The `nbdeps` command: check, order, graph.

    nbdeps check NB|FOLDER... [--format text|json|sarif] [--select CODES] [--ignore CODES]
                       [--show-info | --min-severity info|warning|error] [--history history.sqlite] [-q]
    nbdeps order NB [-q]
    nbdeps graph NB -o FILE.{svg,png,html,dot,mmd,json} [--order notebook|history] [--history SQLITE] [-q]

The options mean the same in all five of the workspace's commands: see docs/cli.md.

Text output leaves out info findings unless `--show-info` (or `--min-severity info`) asks
for them, as linters keep notes out of the way; JSON and SARIF hold every finding unless
`--min-severity` says otherwise. A folder is searched for notebooks, leaving out
`.ipynb_checkpoints` folders; a checkpoint copy named among the files is left out too when
its original is checked, so it is checked only when named on its own.

Exit status: 0 clean (info findings alone do not count), 1 an error or warning finding,
2 unreadable input or bad usage. A bad file among several is reported on stderr and the
others are still checked.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

from . import __version__
from ._checks import check, runs_top_to_bottom
from ._files import replace_file
from ._graph import build_graph, rerun_order
from ._load import load_notebook
from ._render import to_dot, to_html, to_json, to_mermaid, to_png, to_svg
from ._report import findings_json, to_sarif, to_text
from .errors import NbdepsError

__all__ = ["main"]

_GRAPH_FORMATS = (".svg", ".png", ".html", ".dot", ".gv", ".mmd", ".json")
_CHECKPOINTS = ".ipynb_checkpoints"


def main(argv: Sequence[str] | None = None) -> int:
    """Run the CLI; returns the exit status (0 clean, 1 findings, 2 unreadable input)."""
    parser = _parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # argparse exits 2 on bad usage, 0 on --help
        return int(exc.code or 0)
    try:
        return args.run(args)
    except NbdepsError as exc:
        print(f"nbdeps: {exc}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # `nbdeps check x | head`
        return 0


QUIET_HELP = "less output: no progress, summary or 'wrote FILE' lines (results and errors still print)"
_SEVERITIES = ("info", "warning", "error")


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

    def __init__(self, option_strings, dest, *, use: str, nargs=0, const=None, **kwargs):
        super().__init__(option_strings, dest, nargs=nargs, const=const, default=argparse.SUPPRESS,
                         help=argparse.SUPPRESS, **kwargs)
        self.use = use

    def __call__(self, parser, namespace, values, option_string=None):
        print(f"{parser.prog}: {option_string} is deprecated; use {self.use}", file=sys.stderr)
        setattr(namespace, self.dest, self.const if self.nargs == 0 else values)


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="nbdeps", description="Cross-cell dependencies and "
                                     "execution-history hazards of Jupyter notebooks.",
                                     epilog="Exit status: 0 clean, 1 findings (errors or warnings), "
                                     "2 unreadable input or bad usage. Options: docs/cli.md.",
                                     formatter_class=_HelpFormatter)
    parser.add_argument("--version", action="version", version=f"nbdeps {__version__}")
    sub = parser.add_subparsers(dest="command", required=True)
    add = lambda name, text: sub.add_parser(name, help=text, description=text,  # noqa: E731
                                            formatter_class=_HelpFormatter)
    p = add("check", "report findings (exit 1 on errors or warnings)")
    p.add_argument("notebooks", nargs="+", metavar="NB", help="notebooks (.ipynb) to check, or folders "
                   f"to search for them ({_CHECKPOINTS} folders left out)")
    p.add_argument("--format", choices=("text", "json", "sarif"), default="text",
                   help="output on stdout: text for people, json or sarif for programs")
    p.add_argument("--select", default="", help="comma-separated codes or prefixes to keep (ND1,ND402)")
    p.add_argument("--ignore", default="", help="comma-separated codes or prefixes to drop")
    p.add_argument("--min-severity", choices=_SEVERITIES, default=None,
                   help="leave out findings below this severity (default: warning in text output, "
                   "info in json and sarif)")
    p.add_argument("--show-info", action="store_true",
                   help="show info findings in text output too (the same as --min-severity info)")
    p.add_argument("-q", "--quiet", action="store_true", help=QUIET_HELP)
    p.add_argument("--history", metavar="SQLITE", help="IPython's history.sqlite of the kernel that ran "
                   "the notebook(s): use its recorded order of executions instead of the counts")
    p.set_defaults(run=_check)
    p = add("order", "print a re-run order that binds every name before use")
    p.add_argument("notebook", metavar="NB", help="the notebook (.ipynb)")
    p.add_argument("-q", "--quiet", action="store_true", help=QUIET_HELP)
    p.set_defaults(run=_order)
    p = add("graph", "write the dependency graph as a picture or text")
    p.add_argument("notebook", metavar="NB", help="the notebook (.ipynb)")
    p.add_argument("-o", "--output", required=True, metavar="FILE",
                   help="FILE.svg|png|html|dot|mmd|json (its folder is created if missing)")
    p.add_argument("--order", choices=("notebook", "history"), default="notebook",
                   help="edges by notebook position, or by the recorded order of runs")
    p.add_argument("--history", metavar="SQLITE", help="with --order history: IPython's history.sqlite "
                   "gives the order of the live session's runs")
    p.add_argument("-q", "--quiet", action="store_true", help=QUIET_HELP)
    p.set_defaults(run=_graph)
    return parser


def _codes(text: str) -> tuple[str, ...]:
    return tuple(c.strip().upper() for c in text.split(",") if c.strip())


def _notebook_paths(args: Sequence[str]) -> Iterator[str]:
    """The notebooks named and those in the folders named, without checkpoint copies: a
    folder's `.ipynb_checkpoints` is not searched, and a copy named among the files is
    left out when its original is named too."""
    named: list[str] = []
    for arg in args:
        if os.path.isdir(arg):
            for root, dirs, files in os.walk(arg):
                dirs[:] = sorted(d for d in dirs if d != _CHECKPOINTS)
                named += [os.path.join(root, f) for f in sorted(files) if f.endswith(".ipynb")]
        else:
            named.append(arg)
    checked = {os.path.normpath(p) for p in named}
    for path in dict.fromkeys(named):
        original = _original_of(path)
        if original is None or os.path.normpath(original) not in checked:
            yield path


def _original_of(path: str) -> str | None:
    """`a/b.ipynb` for Jupyter's checkpoint copy `a/.ipynb_checkpoints/b-checkpoint.ipynb`."""
    folder, name = os.path.split(path)
    if os.path.basename(folder) != _CHECKPOINTS or not name.endswith("-checkpoint.ipynb"):
        return None
    return os.path.join(os.path.dirname(folder), name[: -len("-checkpoint.ipynb")] + ".ipynb")


def _check(args: argparse.Namespace) -> int:
    results = {}
    unreadable = False
    paths = list(_notebook_paths(args.notebooks))
    if not paths:
        print(f"nbdeps: no notebook (.ipynb) in {', '.join(args.notebooks)}", file=sys.stderr)
        return 2
    for path in paths:
        try:
            results[path] = check(path, select=_codes(args.select), ignore=_codes(args.ignore),
                                  history=args.history)
        except NbdepsError as exc:
            print(f"nbdeps: {exc}", file=sys.stderr)
            unreadable = True
    every = results
    minimum = args.min_severity or ("info" if args.show_info or args.format != "text" else "warning")
    least = _SEVERITIES.index(minimum)
    results = {path: [f for f in findings if _SEVERITIES.index(f.severity) >= least]
               for path, findings in results.items()}
    if args.format == "sarif":
        _print(json.dumps(to_sarif(results, version=__version__), indent=2))
    elif args.format == "json":
        _print(findings_json(results))
    else:
        for path, findings in results.items():
            _print(to_text(findings, path), end="")
        total = sum(len(f) for f in results.values())
        serious = sum(1 for fs in results.values() for f in fs if f.severity != "info")
        hidden = sum(len(f) for f in every.values()) - total
        if results and not args.quiet:
            more = f" ({hidden} more below {minimum}: --show-info shows info)" if hidden else ""
            print(f"{len(results)} notebook(s), {total} finding(s), {serious} error/warning{more}",
                  file=sys.stderr)
    if unreadable:
        return 2
    return 1 if any(f.severity != "info" for fs in results.values() for f in fs) else 0


def _print(text: str, end: str = "\n") -> None:
    """Print even text the terminal cannot encode (a lone surrogate in a cell)."""
    encoding = getattr(sys.stdout, "encoding", None) or "utf-8"
    sys.stdout.write((text + end).encode(encoding, "backslashreplace").decode(encoding, "replace"))


def _order(args: argparse.Namespace) -> int:
    nb = load_notebook(args.notebook)
    order = rerun_order(nb)
    if order is None:
        _print(f"{args.notebook}: no order of its cells binds every name before use")
        for f in check(nb, select=("ND101",)):
            cell = nb.cells[f.cell_index]
            _print(f"  {cell.label}: {f.message}")
        return 1
    top = runs_top_to_bottom(nb)
    if top:
        _print(f"{args.notebook}: top to bottom after a restart, every name is bound before it is "
               "read (checked from the code; the cells were not run); re-run order (notebook order):")
    else:
        _print(f"{args.notebook}: does NOT run top to bottom after a restart (see `nbdeps check`); "
               "a safe re-run order, which binds every name before it is read:")
        others = sorted({f.code for f in check(nb, select=("ND001", "ND402"))})
        if others:
            _print(f"  (order alone does not fix {', '.join(others)}: a cell that does not parse or "
                   "repeats a destructive step fails in any order)")
    _print("  cells " + " ".join(str(i + 1) for i in order))
    for i in order:
        cell = nb.cells[i]
        count = " " if cell.execution_count is None else cell.execution_count
        _print(f"  {cell.label:<12} [{count:>3}] {cell.first_line[:70]}")
    return 0 if top else 1


def _graph(args: argparse.Namespace) -> int:
    out = Path(args.output)
    suffix = out.suffix.lower()
    if suffix not in _GRAPH_FORMATS:
        print(f"nbdeps: {out}: unknown picture format {suffix or '(none)'}; use one of "
              f"{', '.join(_GRAPH_FORMATS)}", file=sys.stderr)
        return 2
    nb = load_notebook(args.notebook)
    graph = build_graph(nb, args.order, history=args.history)
    findings = check(nb, history=args.history)
    if suffix == ".png":
        content: bytes | Callable[[str], object] = lambda tmp: to_png(graph, tmp, findings)
    else:
        text = {
            ".svg": lambda: to_svg(graph, findings),
            ".html": lambda: to_html(graph, findings),
            ".dot": lambda: to_dot(graph, findings),
            ".gv": lambda: to_dot(graph, findings),
            ".mmd": lambda: to_mermaid(graph, findings),
            ".json": lambda: to_json(graph),
        }[suffix]()
        content = text.encode("utf-8", "backslashreplace")  # a lone surrogate shows as \ud800
    try:  # -o creates the folder, as in the other commands
        out.parent.mkdir(parents=True, exist_ok=True)
    except FileExistsError:
        raise NbdepsError(f"{out}: cannot write ({out.parent} is not a folder)") from None
    except OSError as exc:
        raise NbdepsError(f"{out}: cannot write ({exc.strerror or exc})") from None
    # whole or not at all; a FIFO or a device such as /dev/null is refused, never replaced
    replace_file(out, content)
    if not args.quiet:
        print(f"wrote {out} ({len(graph.sequence)} cells, {len(graph.edges)} edges, "
              f"{len(graph.backward_edges)} from cells below)")
    return 0
