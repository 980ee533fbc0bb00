"""Bounded inputs and safe writers (issue 22): a FIFO, a device or a huge file named as a
notebook is refused unread with one line naming it; `graph -o` never replaces anything
that is not a regular file."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

import pytest

import nbdeps
from nbdeps import NOTEBOOK_LIMIT, NotebookError, read_bounded, replace_file
from nbdeps.cli import main

# a regression would block in open() or read forever: fail instead of hanging the run
pytestmark = pytest.mark.timeout(60)


def v4(*cells, **extra):
    return {"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": list(cells), **extra}


def code(source, count=None):
    return {"cell_type": "code", "metadata": {}, "source": source, "execution_count": count,
            "outputs": []}


def _one_line(capsys) -> str:
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err, err
    return err.strip()


def _fifo(tmp_path: Path, name: str = "nb.ipynb") -> Path:
    path = tmp_path / name
    os.mkfifo(path)
    return path


@pytest.mark.parametrize(("make", "kind"), [
    (lambda tmp: _fifo(tmp), "a named pipe (FIFO)"),
    (lambda tmp: Path("/dev/zero"), "a character device"),
    (lambda tmp: tmp, "a directory"),
], ids=["fifo", "dev-zero", "directory"])
def test_anything_but_a_regular_file_is_refused_unread(tmp_path, capsys, make, kind):
    path = make(tmp_path)
    with pytest.raises(NotebookError) as info:
        nbdeps.load_notebook(path)
    assert str(info.value) == f"{path}: is {kind}, not a regular file"
    for argv in (["check", str(path)], ["order", str(path)],
                 ["graph", str(path), "-o", str(tmp_path / "g.svg")]):
        assert main(argv) == 2
        if argv[0] == "check" and kind == "a directory":  # check searches a folder for notebooks
            assert _one_line(capsys) == f"nbdeps: no notebook (.ipynb) in {path}"
            continue
        assert _one_line(capsys) == f"nbdeps: {path}: is {kind}, not a regular file"
    assert not (tmp_path / "g.svg").exists()


def test_a_symlink_to_a_device_is_refused_too(tmp_path, capsys):
    link = tmp_path / "nb.ipynb"
    link.symlink_to("/dev/zero")
    assert main(["check", str(link)]) == 2
    assert _one_line(capsys) == f"nbdeps: {link}: is a character device, not a regular file"


def test_a_file_over_the_limit_is_refused_before_it_is_read(tmp_path, capsys):
    path = tmp_path / "huge.ipynb"
    with path.open("wb") as fh:
        fh.truncate(300 << 20)  # sparse: costs no disk
    assert main(["check", str(path)]) == 2
    assert _one_line(capsys) == f"nbdeps: {path}: 300 MiB, over the 256 MiB limit for a notebook"
    assert NOTEBOOK_LIMIT == 256 << 20


def test_read_bounded_stops_at_the_limit_and_names_the_kind(tmp_path):
    path = tmp_path / "labels.json"
    path.write_bytes(b"x" * 11)
    assert read_bounded(path, limit=11) == b"x" * 11
    with pytest.raises(ValueError, match=r"labels.json: 11 bytes, over the 10 bytes limit for a label file"):
        read_bounded(path, limit=10, what="label file", error=ValueError)
    with pytest.raises(nbdeps.NbdepsError, match="no such file"):
        read_bounded(tmp_path / "missing", limit=10)


@pytest.mark.parametrize(("data", "message"), [
    (v4(code("x = 1"), nbformat="4"), "'nbformat' is '4', not a version number"),
    (v4(code("x = 1"), nbformat=True), "'nbformat' is True, not a version number"),
    (v4(code(["x = 1\n", 3])), "cell 1: 'source' line 2 is not text (int)"),
    (v4(code({"a": 1})), "cell 1: 'source' is neither text nor a list of lines (dict)"),
], ids=["nbformat-string", "nbformat-bool", "source-int", "source-dict"])
def test_malformed_fields_are_named_with_the_cell(tmp_path, capsys, data, message):
    path = tmp_path / "bad.ipynb"
    path.write_text(json.dumps(data))
    assert main(["check", str(path)]) == 2
    assert _one_line(capsys) == f"nbdeps: {path}: {message}"


def test_sarif_of_a_notebook_replaced_by_a_fifo_has_no_file_lines(tmp_path):
    """to_sarif reads the file again for line numbers: a FIFO there must not block it."""
    path = tmp_path / "nb.ipynb"
    path.write_text(json.dumps(v4(code("print(y)", 1))))
    findings = nbdeps.check(path)
    path.unlink()
    os.mkfifo(path)
    sarif = nbdeps.to_sarif({str(path): findings})
    physical = sarif["runs"][0]["results"][0]["locations"][0]["physicalLocation"]
    assert physical == {"artifactLocation": {"uri": str(path)}}  # no line: the file is gone


# --- writers: -o names a FIFO or a device ----------------------------------------------------

def _notebook(tmp_path: Path) -> str:
    path = tmp_path / "nb.ipynb"
    path.write_text(json.dumps(v4(code("x = 1", 1), code("y = x", 2))))
    return str(path)


def test_graph_does_not_replace_a_fifo(tmp_path, capsys):
    nb = _notebook(tmp_path)
    out = _fifo(tmp_path, "g.svg")
    assert main(["graph", nb, "-o", str(out)]) == 2
    assert _one_line(capsys) == (f"nbdeps: {out}: cannot write: is a named pipe (FIFO), "
                                 "not a regular file (left as it was)")
    assert stat.S_ISFIFO(os.lstat(out).st_mode)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["g.svg", "nb.ipynb"]  # no temporary file


def test_graph_does_not_replace_dev_null_or_a_link_to_it(tmp_path, capsys):
    nb = _notebook(tmp_path)
    link = tmp_path / "g.svg"
    link.symlink_to("/dev/null")
    assert main(["graph", nb, "-o", str(link)]) == 2
    assert "is a character device, not a regular file (left as it was)" in _one_line(capsys)
    assert link.is_symlink() and stat.S_ISCHR(os.stat("/dev/null").st_mode)
    assert main(["graph", nb, "-o", "/dev/null"]) == 2  # no picture suffix: refused first
    _one_line(capsys)
    assert stat.S_ISCHR(os.stat("/dev/null").st_mode)


def test_replace_file_keeps_regular_files_atomic(tmp_path):
    out = tmp_path / "out.txt"
    out.write_text("old")
    replace_file(out, b"new")
    assert out.read_text() == "new"

    def fails(tmp: str) -> None:
        Path(tmp).write_text("half")
        raise RuntimeError("renderer died")

    with pytest.raises(RuntimeError):
        replace_file(out, fails)
    assert out.read_text() == "new" and sorted(p.name for p in tmp_path.iterdir()) == ["out.txt"]
    with pytest.raises(nbdeps.NbdepsError, match="is a directory, not a regular file"):
        replace_file(tmp_path, b"x")
