"""What every command-line tool of the workspace offers a new user."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

TOOLS = ("nbdeps", "rtextract", "nbpatch", "crashpredict", "benchkit")
BIN = Path(sys.executable).parent


@pytest.mark.parametrize("tool", TOOLS)
def test_every_tool_says_its_version(tool):
    done = subprocess.run([str(BIN / tool), "--version"], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert re.fullmatch(rf"{tool} \d+\.\d+\.\d+\S*\n", done.stdout)


@pytest.mark.parametrize("tool", TOOLS)
def test_help_has_no_rst_markup(tool):
    done = subprocess.run([str(BIN / tool), "--help"], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "``" not in done.stdout and ":func:" not in done.stdout and ":class:" not in done.stdout


# --- one option vocabulary (docs/cli.md) ------------------------------------------------

import argparse  # noqa: E402
import importlib  # noqa: E402
import json  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
PARSERS = {"nbdeps": "nbdeps.cli", "rtextract": "rtextract._cli", "nbpatch": "nbpatch.cli",
           "crashpredict": "crashpredict.cli", "benchkit": "benchkit.cli"}
FORMS = {"text", "json", "sarif", "html"}


def _subcommands(parser: argparse.ArgumentParser, path: tuple[str, ...] = ()):
    """Every leaf subcommand's parser, with its name path (``("junobench", "fetch")``)."""
    subs = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    if not subs:
        yield path, parser
    for action in subs:
        for name, child in action.choices.items():
            yield from _subcommands(child, path + (name,))


def _all_subcommands():
    for tool, module in PARSERS.items():
        for path, parser in _subcommands(importlib.import_module(module)._parser()):
            yield pytest.param(tool, path, parser, id=" ".join((tool, *path)))


def _options(parser):
    return {s: a for a in parser._actions for s in a.option_strings}


def _shown(parser):
    return [a for a in parser._actions if a.help != argparse.SUPPRESS
            and not isinstance(a, (argparse._HelpAction, argparse._VersionAction))]


@pytest.mark.parametrize(("tool", "path", "parser"), list(_all_subcommands()))
def test_every_subcommand_speaks_the_shared_vocabulary(tool, path, parser):
    options = _options(parser)
    # -q/--quiet everywhere, with the one meaning
    assert options.get("-q") is options.get("--quiet") is not None
    assert options["-q"].help.startswith("less output: no progress, summary or 'wrote FILE' lines")
    # --format: text by default, json always offered, nothing outside the known forms
    if "--format" in options:
        fmt = options["--format"]
        assert fmt.default == "text" and "json" in fmt.choices and set(fmt.choices) <= FORMS
    # no switch chooses the form but --format; the former spellings are hidden
    for former in ("--json", "--engines"):
        assert former not in options or options[former].help == argparse.SUPPRESS
    # --timeout is seconds per cell wherever it is shown
    if "--timeout" in options and options["--timeout"].help != argparse.SUPPRESS:
        assert "per cell" in options["--timeout"].help
    # -o always creates what is missing
    if "-o" in options:
        assert "created if missing" in options["-o"].help
    # every option and argument has help text, and a default shows in --help
    for action in _shown(parser):
        assert action.help, f"{action.dest}: no help text"
    formatter = parser._get_formatter()
    for action in _shown(parser):
        if action.option_strings and action.default not in (None, False, "", [], ()):
            shown = formatter._expand_help(action)  # the text --help prints for it
            assert "default" in shown, f"{action.option_strings[-1]}: {action.default!r} not shown"
    assert parser.format_help()


def _run(*argv, cwd=None):
    return subprocess.run([str(BIN / argv[0]), *argv[1:]], capture_output=True, text=True,
                          timeout=300, cwd=cwd)


def _notebook(path, *sources):
    """Cells that ran in order, the last one not yet (crashpredict's target)."""
    cells = [{"cell_type": "code", "id": f"c{i}", "metadata": {}, "source": s,
              "execution_count": i + 1 if i < len(sources) - 1 else None, "outputs": []}
             for i, s in enumerate(sources)]
    path.write_text(json.dumps({"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": cells}))
    return str(path)


def test_quiet_leaves_the_result_and_drops_the_chatter(tmp_path):
    nb = _notebook(tmp_path / "a.ipynb", "x = 1", "print(y)")
    loud, quiet = _run("nbdeps", "check", nb), _run("nbdeps", "check", nb, "-q")
    assert loud.returncode == quiet.returncode == 1
    assert loud.stdout == quiet.stdout and loud.stderr and quiet.stderr == ""
    loud = _run("crashpredict", "check", nb, "--engine", "rules")
    quiet = _run("crashpredict", "check", nb, "--engine", "rules", "-q")
    assert loud.returncode == quiet.returncode == 1, quiet.stderr
    assert loud.stderr.startswith("crashpredict: ") and quiet.stderr == ""
    assert "NameError" in quiet.stdout


def test_o_creates_missing_folders_in_every_command_that_writes(tmp_path):
    a = _notebook(tmp_path / "a.ipynb", "x = 1")
    b = _notebook(tmp_path / "b.ipynb", "x = 2")
    patch = tmp_path / "p.json"
    patch.write_text(_run("nbpatch", "diff", a, b, "--format", "json").stdout)
    assert _run("nbdeps", "graph", a, "-o", str(tmp_path / "n1" / "x" / "g.dot")).returncode == 0
    assert _run("nbpatch", "apply", a, str(patch), "-o", str(tmp_path / "n2" / "x" / "b.ipynb"),
                "-q").returncode == 0
    results = tmp_path / "results.jsonl"
    results.write_text("")
    done = _run("benchkit", "report", str(results), "-o", str(tmp_path / "n3" / "x" / "r.txt"))
    assert done.returncode == 0, done.stderr
    for made in ("n1/x/g.dot", "n2/x/b.ipynb", "n3/x/r.txt"):
        assert (tmp_path / made).is_file(), made
    blocked = _run("nbdeps", "graph", a, "-o", str(tmp_path / "a.ipynb" / "g.dot"))
    assert blocked.returncode == 2 and "is not a folder" in blocked.stderr
    assert "Traceback" not in blocked.stderr


@pytest.mark.parametrize(("former", "now"), [
    (["nbpatch", "diff", "{a}", "{b}", "--json"], ["nbpatch", "diff", "{a}", "{b}", "--format", "json"]),
    (["nbpatch", "similarity", "{a}", "{b}", "--json"],
     ["nbpatch", "similarity", "{a}", "{b}", "--format", "json"]),
    (["crashpredict", "check", "{a}", "--engines", "rules", "-q"],
     ["crashpredict", "check", "{a}", "--engine", "rules", "-q"]),
])
def test_former_spellings_still_work_with_one_line_on_stderr(tmp_path, former, now):
    a = _notebook(tmp_path / "a.ipynb", "x = 1", "print(x)")
    b = _notebook(tmp_path / "b.ipynb", "x = 2", "print(x)")
    fill = lambda argv: [s.format(a=a, b=b) for s in argv]  # noqa: E731
    old, new = _run(*fill(former)), _run(*fill(now))
    assert (old.returncode, old.stdout) == (new.returncode, new.stdout)
    assert new.stderr == ""
    lines = old.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"{former[0]} {former[1]}: --"), old.stderr
    assert "is deprecated; use --" in lines[0]
    assert not any(o in _run(former[0], former[1], "--help").stdout for o in ("--json", "--engines"))


HEAVY = ("nbformat", "jsonschema", "libcst", "jupyter_client", "zmq", "IPython", "networkx",
         "rapidfuzz", "numpy", "pandas")


@pytest.mark.parametrize("tool", TOOLS)
def test_version_and_help_load_no_heavy_library(tool):
    """`--version` and `--help` answer without importing what the subcommands need
    (nbformat alone, through jsonschema, took 2.5 s of `nbpatch --version`); how fast that
    is, is `make bench`'s startup part, not a timed test."""
    code = (f"import contextlib, io, sys\nfrom {PARSERS[tool]} import main\n"
            "for argv in (['--version'], ['--help']):\n"
            "    with contextlib.redirect_stdout(io.StringIO()):\n"
            "        try:\n            main(argv)\n        except SystemExit:\n            pass\n"
            f"print(sorted(m for m in {HEAVY!r} if m in sys.modules))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"
