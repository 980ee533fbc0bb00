"""Every command line on hostile input (issue 22): `/dev/zero`, a FIFO, a 300 MiB sparse
file, malformed JSON. Each must exit non-zero within seconds with one line on stderr naming
the file, never a traceback; `-o` never replaces a FIFO or a device. The commands run as
subprocesses with a timeout, so a hang fails its test instead of blocking the run; none
starts a kernel (each is refused before one would start)."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow  # some 60 short subprocesses
BIN = Path(sys.executable).parent
_V4 = {"nbformat": 4, "nbformat_minor": 5, "metadata": {}}


def _cell(source) -> dict:
    # executed, no error output: even a reader that accepted the notebook would find no
    # target to check, so no kernel ever starts
    return {"cell_type": "code", "id": "c1", "metadata": {}, "source": source,
            "execution_count": 1, "outputs": []}


def _text(text: str | bytes) -> Callable[[Path], Path]:
    def write(path: Path) -> Path:
        path.write_bytes(text if isinstance(text, bytes) else text.encode())
        return path
    return write


def _fifo(path: Path) -> Path:
    os.mkfifo(path)
    return path


def _sparse(path: Path) -> Path:
    with path.open("wb") as fh:
        fh.truncate(300 << 20)  # costs no disk
    return path


def _dev_zero(path: Path) -> Path:
    path.symlink_to("/dev/zero")  # where a command takes a folder, not a file name
    return path


# id -> (writes the input at a path, words its refusal must contain (None: any words))
INPUTS: dict[str, tuple[Callable[[Path], Path], str | None]] = {
    "dev-zero": (_dev_zero, None),
    "fifo": (_fifo, None),
    "300-MiB": (_sparse, None),
    # a whole line (a results file ignores a torn last line, as an interrupted run leaves)
    "deep-json": (_text("[" * 100_000 + "]" * 100_000 + "\n"), "nested too deeply"),
    "json-list": (_text("[1, 2, 3]\n"), None),
    "not-utf8": (_text(b'{"cells": [], "x": "\xff\xfe"}'), None),
    "nbformat-string": (_text(json.dumps({**_V4, "nbformat": "4", "cells": [_cell("x = 1")]})),
                        "nbformat"),
    "source-int": (_text(json.dumps({**_V4, "cells": [_cell(["x = 1\n", 2])]})), "source"),
}
NOTEBOOK_INPUTS = tuple(INPUTS)
JSON_INPUTS = ("dev-zero", "fifo", "300-MiB", "deep-json", "json-list", "not-utf8")

# id -> (argv with {f} for the hostile file and {d} for a scratch folder, where the input
# goes relative to {d} (None: {f} is passed itself, /dev/zero as is), inputs that apply)
COMMANDS = {
    "nbdeps check": (["nbdeps", "check", "{f}"], "nb.ipynb", NOTEBOOK_INPUTS),
    "nbpatch diff": (["nbpatch", "diff", "{d}/ok.ipynb", "{f}"], "nb.ipynb", NOTEBOOK_INPUTS),
    "nbpatch apply patch": (["nbpatch", "apply", "{d}/ok.ipynb", "{f}"], "p.json", JSON_INPUTS),
    "crashpredict check": (["crashpredict", "check", "{f}", "--quiet", "--engine", "rules"],
                           "nb.ipynb", NOTEBOOK_INPUTS),
    "benchkit modernize": (["benchkit", "modernize", "{f}", "-o", "{d}/out"], "nb.ipynb",
                           NOTEBOOK_INPUTS),
    "benchkit case.json": (["benchkit", "verify", "{d}/root", "-o", "{d}/out"],
                           "root/numpy_1/case.json", JSON_INPUTS),
    "benchkit report": (["benchkit", "report", "{f}"], "r.jsonl", JSON_INPUTS),
    "rtextract render": (["rtextract", "render", "{f}"], "snap.json", JSON_INPUTS),
}
# Known gaps in modules other engineers own (issue 22 splits the work): strict, so that a fix
# shows up as XPASS and the mark is removed with it.
GAPS = {
}
CASES = [
    pytest.param(command, kind, id=f"{command}-{kind}",
                 marks=[pytest.mark.xfail(strict=True, reason=GAPS[command, kind])]
                 if (command, kind) in GAPS else [])
    for command, (_, _, kinds) in COMMANDS.items() for kind in kinds
]


def _ok_notebook(folder: Path) -> Path:
    path = folder / "ok.ipynb"
    path.write_text(json.dumps({**_V4, "metadata": {"kernelspec": {
        "name": "python3", "display_name": "Python 3", "language": "python"}},
        "cells": [_cell("x = 1")]}))
    return path


def _run(argv: list[str], timeout: float) -> subprocess.CompletedProcess:
    return subprocess.run([str(BIN / argv[0]), *argv[1:]], capture_output=True, text=True,
                          timeout=timeout, stdin=subprocess.DEVNULL)


def _one_line(done: subprocess.CompletedProcess) -> str:
    assert done.returncode != 0, done.stdout
    assert "Traceback" not in done.stderr, done.stderr
    lines = [line for line in done.stderr.splitlines() if line.strip()]
    assert len(lines) == 1, done.stderr
    return lines[0]


@pytest.mark.parametrize(("command", "kind"), CASES)
def test_hostile_input_is_one_line_naming_the_file(tmp_path, command, kind):
    argv, where, _ = COMMANDS[command]
    write, words = INPUTS[kind]
    _ok_notebook(tmp_path)
    target = tmp_path / where
    target.parent.mkdir(parents=True, exist_ok=True)
    if where.startswith("root/"):  # a case folder whose label file is the hostile input
        _ok_notebook(tmp_path).replace(target.parent / "numpy_1_reproduced.ipynb")
        _ok_notebook(tmp_path)
    path = Path("/dev/zero") if kind == "dev-zero" and not where.startswith("root/") else write(target)
    before = sorted(os.listdir(tmp_path))
    # a known hang is given less time: the gap is recorded, the run not held a minute
    timeout = 10 if (command, kind) in GAPS else 60
    line = _one_line(_run([a.format(f=path, d=tmp_path) for a in argv], timeout))
    assert str(path) in line
    if words is not None:
        assert words in line
    assert sorted(os.listdir(tmp_path)) == before  # nothing written, no temporary file left


def test_benchkit_bad_label_csv_is_one_line(tmp_path):
    (tmp_path / "numpy_1").mkdir()
    _ok_notebook(tmp_path).replace(tmp_path / "numpy_1" / "numpy_1_reproduced.ipynb")
    labels = tmp_path / "labels.csv"
    labels.write_text('nb_name,ename\nnumpy_1,"' + "x" * 200_000 + '"\n')
    line = _one_line(_run(["benchkit", "verify", str(tmp_path), "-o", str(tmp_path / "out")], 60))
    assert line == f"benchkit: {labels}:2: unreadable labels: field larger than field limit (131072)"
    assert not (tmp_path / "out").exists()


# --- writers: -o names a FIFO, then /dev/null -------------------------------------------------
# The FIFO cases come first: they prove a writer refuses a node before the /dev/null cases run
# (as root, a broken writer WOULD replace /dev/null).

def _writers(folder: Path, out: str) -> dict[str, list[str]]:
    nb = _ok_notebook(folder)
    patch = folder / "p.json"
    patch.write_text(json.dumps({"nbpatch": 1, "base": {}, "ops": []}))
    results = folder / "r.jsonl"
    results.write_text("")
    base = folder / "base.csv"
    base.write_text("case,version,predicted\nc_1,reproduced,true\nc_1,fixed,false\n")
    return {
        "nbdeps graph": ["nbdeps", "graph", str(nb), "-o", out],
        "nbpatch apply": ["nbpatch", "apply", str(nb), str(patch), "-o", out],
        "benchkit report": ["benchkit", "report", str(results), "-o", out],
        "benchkit compare": ["benchkit", "compare", "--baseline", str(base), "--html", out],
    }


WRITERS = ("nbdeps graph", "nbpatch apply", "benchkit report", "benchkit compare")


@pytest.mark.parametrize("writer", WRITERS)
def test_output_onto_a_fifo_is_refused_and_left_as_it_was(tmp_path, writer):
    out = _fifo(tmp_path / "out.svg")  # nbdeps picks the format by suffix
    argv = _writers(tmp_path, str(out))[writer]
    before = sorted(os.listdir(tmp_path))
    line = _one_line(_run(argv, 60))
    assert line.endswith(f"{out}: cannot write: is a named pipe (FIFO), not a regular file "
                         "(left as it was)")
    assert stat.S_ISFIFO(os.lstat(out).st_mode)
    assert sorted(os.listdir(tmp_path)) == before


@pytest.mark.parametrize("writer", WRITERS)
def test_output_onto_dev_null_is_refused_and_left_as_it_was(tmp_path, writer):
    argv = _writers(tmp_path, "/dev/null")[writer]
    line = _one_line(_run(argv, 60))
    assert "/dev/null" in line
    assert stat.S_ISCHR(os.stat("/dev/null").st_mode)
    assert not [n for n in os.listdir("/dev") if n.startswith(".null.")]
