"""Hostile input and faults (issue 16): each case names the file, exits 2, prints no traceback
and leaves no partial or temporary file behind."""

from __future__ import annotations

import json
import os
import shutil
import signal
import stat
import subprocess
import sys
import tempfile
import textwrap
import time
from contextlib import contextmanager
from pathlib import Path

import pytest

import nbpatch
from nbpatch import DeleteCell, MoveCell, Patch, PatchError
from nbpatch._notebook import clean_stale_temporaries, cell_hash
from nbpatch.cli import main


def _write(nb, path: Path) -> Path:
    nbpatch.write_notebook(nb, path)
    return path


def _leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.startswith("."))


def _error_line(capsys) -> str:
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err, err
    return err


# --- 16.1 a lone surrogate ------------------------------------------------------------------

def test_lone_surrogate_is_refused_naming_file_cell_and_line(nb, tmp_path, capsys):
    data = nb("# Title", "x = 1", "s = 'ok'\nt = '\ud800'")
    path = tmp_path / "sur.ipynb"
    path.write_text(json.dumps(data))  # ensure_ascii: the surrogate travels as an escape
    other = _write(nb("# Title", "x = 2", "s = 'ok'"), tmp_path / "b.ipynb")
    for argv in (["diff", str(path), str(other)], ["similarity", str(other), str(path)]):
        assert main(argv) == 2
        assert _error_line(capsys) == (
            f"nbpatch {argv[0]}: error: {path}: cell 3 (id c2): source line 2: "
            "lone surrogate '\\ud800' (not valid Unicode)\n")


def test_surrogate_in_an_output_is_named_too(nb, tmp_path):
    data = nb("x = 1", {"cell_type": "code", "source": "print(s)", "outputs": [
        {"output_type": "stream", "name": "stdout", "text": "\udcff\n"}]})
    path = tmp_path / "out.ipynb"
    path.write_text(json.dumps(data))
    with pytest.raises(nbpatch.NotebookError, match=r"out\.ipynb: cell 2 \(id c1\): outputs"):
        nbpatch.read_notebook(path)


def test_writing_a_surrogate_is_refused_and_leaves_nothing(nb, tmp_path):
    target = tmp_path / "w.ipynb"
    with pytest.raises(nbpatch.NotebookError, match=r"w\.ipynb: cannot write: cell 1 \(id c0\)"):
        nbpatch.write_notebook(nb("s = '\ud800'"), target)
    assert list(tmp_path.iterdir()) == []


def test_byte_order_mark_is_accepted(nb, tmp_path):
    path = tmp_path / "bom.ipynb"
    path.write_bytes(b"\xef\xbb\xbf" + json.dumps(nb("x = 1")).encode())
    assert nbpatch.read_notebook(path).cells[0].source == "x = 1"


# --- 16.2 deep JSON -------------------------------------------------------------------------

@pytest.mark.parametrize("depth", [100_000, 2_000])
def test_deeply_nested_json_is_refused_cleanly(nb, tmp_path, capsys, depth):
    deep = tmp_path / "deep.ipynb"
    deep.write_text("[" * depth + "]" * depth)
    meta = tmp_path / "meta.ipynb"
    text = json.dumps(nb("x = 1")).replace('"metadata": {}', '"metadata": {"k": '
                                            + "[" * depth + "]" * depth + "}", 1)
    meta.write_text(text)
    other = _write(nb("x = 1"), tmp_path / "b.ipynb")
    for bad in (deep, meta):
        assert main(["diff", str(bad), str(other)]) == 2
        err = _error_line(capsys)
        assert err.startswith(f"nbpatch diff: error: {bad}: not a Jupyter notebook")
        assert "nested too deeply" in err
    patch = tmp_path / "p.json"
    patch.write_text('{"nbpatch": 1, "ops": ' + "[" * depth + "]" * depth + "}")
    assert main(["apply", str(other), str(patch)]) == 2
    assert f"{patch}: " in _error_line(capsys)


# --- 16.3 a cell moved after itself ---------------------------------------------------------

def test_move_after_itself_is_a_patch_error_in_the_api(nb):
    with pytest.raises(PatchError, match="move: cell c1 cannot move after itself"):
        MoveCell(cell="c1", after="c1")
    # two keys of one cell (its id and its position) reach the same cell only on apply
    base = nb("x = 1", "y = 2", "z = 3")
    patch = Patch(base={"c1": cell_hash(base.cells[1])}, ops=(MoveCell(cell="c1", after="#1"),))
    with pytest.raises(PatchError, match=r"patch op 1 \(move\): cell 2 \(id c1\) cannot move "
                                         r"after itself \('#1' names the same cell\)"):
        nbpatch.apply(base, patch)


def test_cli_move_after_itself_names_the_patch_file_and_op(nb, tmp_path, capsys):
    path = _write(nb("x = 1", "y = 2"), tmp_path / "a.ipynb")
    before = path.read_bytes()
    patch = tmp_path / "p.json"
    patch.write_text(json.dumps({"nbpatch": 1, "base": {}, "ops": [
        {"op": "delete", "cell": "c0"}, {"op": "move", "cell": "c1", "after": "c1"}]}))
    assert main(["apply", str(path), str(patch)]) == 2
    assert _error_line(capsys) == (f"nbpatch apply: error: {patch}: op 2: move: cell c1 "
                                   "cannot move after itself\n")
    assert path.read_bytes() == before


def test_delete_then_use_of_the_cell_is_a_conflict_not_a_crash(nb):
    base = nb("x = 1", "y = 2")
    patch = Patch(base={"c1": cell_hash(base.cells[1])},
                  ops=(DeleteCell(cell="c1"), MoveCell(cell="c0", after="c1")))
    with pytest.raises(nbpatch.PatchConflict, match=r"cell c1: not in the notebook"):
        nbpatch.apply(base, patch)


# --- 16.4 where the output goes -------------------------------------------------------------

@pytest.fixture
def patch_file(nb, tmp_path, capsys):
    a = _write(nb("x = 1"), tmp_path / "a.ipynb")
    b = _write(nb("x = 2"), tmp_path / "b.ipynb")
    main(["diff", "--json", str(a), str(b)])
    (tmp_path / "p.json").write_text(capsys.readouterr().out)
    return a, tmp_path / "p.json"


def test_output_into_a_missing_folder_or_onto_a_folder(patch_file, tmp_path, capsys):
    a, p = patch_file
    missing = tmp_path / "nowhere" / "deeper" / "out.ipynb"
    assert main(["apply", str(a), str(p), "-o", str(missing)]) == 0  # -o creates the folder
    assert missing.is_file()
    capsys.readouterr()
    (tmp_path / "a_file").write_text("")
    blocked = tmp_path / "a_file" / "out.ipynb"
    assert main(["apply", str(a), str(p), "-o", str(blocked)]) == 2
    assert _error_line(capsys) == (f"nbpatch apply: error: {blocked}: cannot write "
                                   f"({blocked.parent} is not a folder)\n")
    (tmp_path / "folder").mkdir()
    assert main(["apply", str(a), str(p), "-o", str(tmp_path / "folder")]) == 2
    assert _error_line(capsys) == (f"nbpatch apply: error: {tmp_path / 'folder'}: is a folder, "
                                   "not a notebook file\n")
    assert list((tmp_path / "folder").iterdir()) == []


def test_read_only_target_is_not_overwritten_without_force(patch_file, tmp_path, capsys):
    a, p = patch_file
    target = tmp_path / "ro.ipynb"
    target.write_text("keep me")
    target.chmod(0o444)
    assert main(["apply", str(a), str(p), "-o", str(target)]) == 2
    assert _error_line(capsys) == (f"nbpatch apply: error: {target}: is read-only; not "
                                   "overwritten (force=True, or --force on the command line, "
                                   "replaces it)\n")
    assert target.read_text() == "keep me"
    assert main(["apply", str(a), str(p), "-o", str(target), "--force"]) == 0
    assert nbpatch.read_notebook(target).cells[0].source == "x = 2"
    assert stat.S_IMODE(target.stat().st_mode) == 0o444
    assert _leftovers(tmp_path) == []


@contextmanager
def _unprivileged():
    """Act as an unprivileged user where we are root (root writes into any folder)."""
    if os.geteuid() != 0:
        yield
        return
    os.setegid(65534)
    os.seteuid(65534)
    try:
        yield
    finally:
        os.seteuid(0)
        os.setegid(0)


def test_read_only_folder_is_a_clear_error(patch_file, capsys):
    a, p = patch_file
    shared = Path(tempfile.mkdtemp(prefix="nbpatch-ro-", dir="/tmp"))
    try:
        shared.chmod(0o755)
        for name in (a, p):
            (shared / name.name).write_bytes(name.read_bytes())
            (shared / name.name).chmod(0o644)
        locked = shared / "locked"
        locked.mkdir(mode=0o555)
        out = locked / "out.ipynb"
        with _unprivileged():
            code = main(["apply", str(shared / a.name), str(shared / p.name), "-o", str(out)])
        assert code == 2
        assert _error_line(capsys) == (f"nbpatch apply: error: {out}: cannot write into "
                                       f"{locked} (Permission denied)\n")
        assert list(locked.iterdir()) == []
    finally:
        shutil.rmtree(shared, ignore_errors=True)


_HANGING_WRITER = textwrap.dedent("""
    import os, sys, time
    from nbpatch.cli import main
    def hang(fd):
        print("writing", flush=True)
        time.sleep(120)
    os.fsync = hang  # stop between writing the temporary file and replacing the target
    sys.exit(main(sys.argv[1:]))
""")


def _start_hanging_apply(a: Path, p: Path) -> subprocess.Popen:
    proc = subprocess.Popen([sys.executable, "-c", _HANGING_WRITER, "apply", str(a), str(p)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert proc.stdout.readline() == "writing\n"
    return proc


def test_sigterm_during_apply_removes_the_temporary_file(patch_file, tmp_path):
    a, p = patch_file
    before = a.read_bytes()
    proc = _start_hanging_apply(a, p)
    assert len(_leftovers(tmp_path)) == 1  # the temporary file, mid-write
    proc.send_signal(signal.SIGTERM)
    assert proc.wait(timeout=30) == 128 + signal.SIGTERM
    assert "Traceback" not in proc.stderr.read()
    assert _leftovers(tmp_path) == [] and a.read_bytes() == before


def test_temporary_file_of_a_killed_apply_is_removed_by_the_next_write(patch_file, tmp_path):
    a, p = patch_file
    before = a.read_bytes()
    proc = _start_hanging_apply(a, p)
    (stale,) = _leftovers(tmp_path)
    assert ".nbpatch-" in stale and f"-{proc.pid}-" in stale
    proc.kill()  # SIGKILL: no handler runs, the temporary file stays
    proc.wait(timeout=30)
    proc.stdout.close(), proc.stderr.close()
    assert _leftovers(tmp_path) == [stale] and a.read_bytes() == before
    assert main(["apply", str(a), str(p), "-o", str(tmp_path / "out.ipynb")]) == 0
    assert _leftovers(tmp_path) == []


def test_temporary_files_of_live_writers_and_other_files_are_kept(tmp_path):
    live = tmp_path / f".a.ipynb.nbpatch-00000000-{os.getppid()}-x.tmp"
    other = tmp_path / ".a.ipynb.abc.tmp"
    live.write_text(""), other.write_text("")
    assert clean_stale_temporaries(tmp_path) == ()
    assert _leftovers(tmp_path) == sorted([live.name, other.name])


# --- 17.6 help and version ------------------------------------------------------------------

def test_help_has_no_markup_and_version_is_printed(capsys):
    with pytest.raises(SystemExit) as stop:
        main(["--version"])
    assert stop.value.code == 0
    assert capsys.readouterr().out == f"nbpatch {nbpatch.__version__}\n"
    for argv in (["--help"], ["apply", "--help"], ["equiv", "--help"]):
        with pytest.raises(SystemExit):
            main(argv)
        text = capsys.readouterr().out
        assert "``" not in text and "usage: nbpatch" in text


def test_interrupted_pipe_is_not_a_traceback(nb, tmp_path):
    a = _write(nb(*[f"x{k} = {k}" for k in range(2000)]), tmp_path / "a.ipynb")
    b = _write(nb(*[f"x{k} = {k + 1}" for k in range(2000)]), tmp_path / "b.ipynb")
    proc = subprocess.Popen([sys.executable, "-m", "nbpatch.cli", "diff", str(a), str(b)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    proc.stdout.readline()
    proc.stdout.close()
    start = time.monotonic()
    assert proc.wait(timeout=60) in (0, 1) and time.monotonic() - start < 60
    assert b"Traceback" not in proc.stderr.read()


# --- 22: bounded inputs and safe writers ------------------------------------------------------
# a regression would block in open() on a FIFO or read /dev/zero forever: fail, not hang

def _fifo(folder: Path, name: str) -> Path:
    path = folder / name
    os.mkfifo(path)
    return path


def _sparse(folder: Path, name: str, size: int) -> Path:
    path = folder / name
    with path.open("wb") as fh:
        fh.truncate(size)  # costs no disk
    return path


@pytest.mark.timeout(60)
@pytest.mark.parametrize(("make", "reason"), [
    (lambda d: _fifo(d, "nb.ipynb"), "cannot read: is a named pipe (FIFO), not a regular file"),
    (lambda d: Path("/dev/zero"), "cannot read: is a character device, not a regular file"),
    (lambda d: _sparse(d, "huge.ipynb", 300 << 20),
     "cannot read: 300 MiB, over the 256 MiB limit for a notebook"),
], ids=["fifo", "dev-zero", "300-MiB"])
def test_unbounded_notebook_inputs_are_refused_unread(nb, tmp_path, capsys, make, reason):
    path = make(tmp_path)
    other = _write(nb("x = 1"), tmp_path / "b.ipynb")
    for argv in (["diff", str(other), str(path)], ["similarity", str(path), str(other)],
                 ["apply", str(path), str(other)]):
        assert main(argv) == 2
        assert _error_line(capsys) == f"nbpatch {argv[0]}: error: {path}: {reason}\n"
    with pytest.raises(nbpatch.NotebookError):
        nbpatch.read_notebook(path)


@pytest.mark.timeout(60)
@pytest.mark.parametrize("reply", [False, True], ids=["patch", "reply"])
def test_unbounded_patch_and_reply_files_are_refused_unread(patch_file, tmp_path, capsys, reply):
    a, _ = patch_file
    flag = ["--reply"] if reply else []
    for path, kind in ((_fifo(tmp_path, "p.fifo"), "is a named pipe (FIFO), not a regular file"),
                       (Path("/dev/zero"), "is a character device, not a regular file")):
        assert main(["apply", str(a), str(path), *flag]) == 2
        assert _error_line(capsys) == f"nbpatch apply: error: {path}: cannot read: {kind}\n"
    limit, what = (16 << 20, "reply") if reply else (256 << 20, "patch")
    huge = _sparse(tmp_path, "big.txt", limit + (1 << 20))
    assert main(["apply", str(a), str(huge), *flag]) == 2
    assert _error_line(capsys) == (f"nbpatch apply: error: {huge}: cannot read: "
                                   f"{(limit >> 20) + 1} MiB, over the {limit >> 20} MiB limit "
                                   f"for a {what}\n")


@pytest.mark.parametrize(("data", "where"), [
    ({"nbformat": "4", "nbformat_minor": 5, "metadata": {}, "cells": []},
     "not a Jupyter notebook ('nbformat' is '4', not a version number)"),
    ({"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": [
        {"cell_type": "markdown", "id": "m", "metadata": {}, "source": "# t"},
        {"cell_type": "code", "id": "c2", "metadata": {}, "source": ["x = 1\n", 7],
         "outputs": [], "execution_count": None}]},
     "cell 2 (id c2): 'source' line 2 is not text (int)"),
    ({"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": [
        {"cell_type": "code", "metadata": {}, "source": None, "outputs": []}]},
     "cell 1: 'source' is neither text nor a list of lines (NoneType)"),
], ids=["nbformat-string", "source-int", "source-null"])
def test_malformed_fields_name_the_file_and_cell(nb, tmp_path, capsys, data, where):
    path = tmp_path / "bad.ipynb"
    path.write_text(json.dumps(data))
    other = _write(nb("x = 1"), tmp_path / "b.ipynb")
    assert main(["diff", str(other), str(path)]) == 2
    assert _error_line(capsys) == f"nbpatch diff: error: {path}: {where}\n"
    with pytest.raises(nbpatch.NotebookError, match="not"):
        nbpatch.diff(data, other)  # a dict is checked as a file is


def test_non_utf8_bytes_are_named(nb, tmp_path, capsys):
    path = tmp_path / "bin.ipynb"
    path.write_bytes(b'{"cells": "\xff"}')
    assert main(["diff", str(path), str(path)]) == 2
    assert _error_line(capsys) == (f"nbpatch diff: error: {path}: cannot read (not UTF-8 text: "
                                   "byte 11 is 0xff)\n")


def test_apply_does_not_replace_a_fifo(nb, patch_file, tmp_path, capsys):
    a, p = patch_file
    out = _fifo(tmp_path, "out.ipynb")
    before = a.read_bytes()
    assert main(["apply", str(a), str(p), "-o", str(out)]) == 2
    assert _error_line(capsys) == (f"nbpatch apply: error: {out}: cannot write: is a named pipe "
                                   "(FIFO), not a regular file (left as it was)\n")
    assert stat.S_ISFIFO(os.lstat(out).st_mode) and a.read_bytes() == before
    assert _leftovers(tmp_path) == []
    with pytest.raises(nbpatch.NotebookError, match="named pipe"):
        nbpatch.write_notebook(nb("x = 1"), out)


def test_apply_does_not_replace_dev_null(patch_file, capsys):
    # runs as root in CI: a broken writer WOULD replace /dev/null (the FIFO test above guards it)
    a, p = patch_file
    assert main(["apply", str(a), str(p), "-o", "/dev/null"]) == 2
    assert _error_line(capsys) == ("nbpatch apply: error: /dev/null: cannot write: is a character "
                                   "device, not a regular file (left as it was)\n")
    assert stat.S_ISCHR(os.stat("/dev/null").st_mode)
    assert not [n for n in os.listdir("/dev") if n.startswith(".null.")]
