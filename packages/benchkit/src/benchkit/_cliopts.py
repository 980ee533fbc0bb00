"""The option vocabulary benchkit's subcommands share with the workspace's other commands
(docs/cli.md): help that shows defaults, and former spellings kept as deprecated aliases."""

from __future__ import annotations

import argparse
import sys

__all__ = ["FORMAT_HELP", "QUIET_HELP", "Deprecated", "HelpFormatter"]

QUIET_HELP = "less output: no progress, summary or 'wrote FILE' lines (results and errors still print)"
FORMAT_HELP = "output on stdout: text for people, json for programs"


class HelpFormatter(argparse.HelpFormatter):
    """Help that shows each option's default, unless its text already says it."""

    def _get_help_string(self, action: argparse.Action) -> str:
        text = action.help or ""
        if (not action.option_strings or "default" in text or text == argparse.SUPPRESS
                or action.default in (None, False, "", (), [], argparse.SUPPRESS)):
            return text
        return f"{text} (default: %(default)s)"


class Deprecated(argparse.Action):
    """A former spelling, still accepted: hidden from --help, one line on stderr.

    ``nargs=0`` with ``const`` for a former flag (``--json`` -> ``--format json``); otherwise
    it takes a value as the option it stands for would (``append`` to add to a list)."""

    def __init__(self, option_strings, dest, *, use: str, append: bool = False, nargs=None,
                 const=None, **kwargs):
        super().__init__(option_strings, dest, nargs=nargs, const=const, default=argparse.SUPPRESS,
                         help=argparse.SUPPRESS, **kwargs)
        self.use, self.append = use, append

    def __call__(self, parser, namespace, values, option_string=None):
        print(f"{parser.prog}: {option_string} is deprecated; use {self.use}", file=sys.stderr)
        if self.nargs == 0:
            values = self.const
        elif self.append:
            values = [*(getattr(namespace, self.dest, None) or []), values]
        setattr(namespace, self.dest, values)
