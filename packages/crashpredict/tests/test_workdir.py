"""Replaying in a private copy of the notebook's folder (issue 19): the folder is left
byte-identical, whatever the replayed cells write, overwrite or delete (real kernels,
jailed unless said otherwise: the copy is writable there, the rest copy-on-write)."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

import nbformat
import pytest

from crashpredict import KernelSession, check_notebook, private_copy
from crashpredict.cli import main

pytestmark = pytest.mark.kernel


def tree_digest(folder: Path) -> dict[str, str]:
    """Every entry under ``folder``: its kind, mode and content hash (links: their target)."""
    out = {}
    for dirpath, dirnames, filenames in os.walk(folder):
        for name in sorted(dirnames + filenames):
            path = Path(dirpath) / name
            rel = str(path.relative_to(folder))
            st = path.lstat()
            if path.is_symlink():
                out[rel] = f"link {os.readlink(path)}"
            elif path.is_dir():
                out[rel] = f"dir {oct(st.st_mode)}"
            else:
                out[rel] = f"file {oct(st.st_mode)} {hashlib.sha256(path.read_bytes()).hexdigest()}"
    return out


def make_folder(root: Path) -> Path:
    folder = root / "project"
    (folder / "data" / "raw").mkdir(parents=True)
    (folder / "data" / "train.csv").write_text("a,b\n1,2\n3,4\n")
    (folder / "data" / "raw" / "big.bin").write_bytes(os.urandom(4096))
    (folder / "results.txt").write_text("the user's results\n")
    (folder / "model.pkl").write_bytes(b"weights" * 100)
    (folder / "old").mkdir()
    (folder / "old" / "run1.log").write_text("log\n")
    return folder


# cells that write, overwrite, append to, delete, rename and chmod entries of the folder,
# through open, os, shutil, pathlib and pandas
WRITERS = [
    "import os, shutil, pathlib\nimport pandas as pd",
    "open('results.txt', 'w').write('overwritten')\nopen('new.txt', 'w').write('new')",
    "with open('model.pkl', 'ab') as f:\n    f.write(b'more')",
    "os.remove('data/train.csv')\npd.DataFrame({'a': [9]}).to_csv('data/train.csv')",
    "open('data/raw/big.bin', 'r+b').write(b'XX')\nos.rename('data/raw/big.bin', 'data/raw/moved.bin')",
    "shutil.rmtree('old')\nos.makedirs('out/deep', exist_ok=True)\npathlib.Path('out/deep/x.txt').write_text('x')",
    "os.chmod('results.txt', 0o600)\nos.chdir('data')\nopen('inside.txt', 'w').write('i')\nos.chdir('..')",
]


@pytest.mark.parametrize("copy_limit", [0, 2**30], ids=["all-linked", "all-copied"])
def test_writes_land_in_the_copy_and_the_folder_is_unchanged(tmp_path: Path,
                                                            copy_limit: int) -> None:
    folder = make_folder(tmp_path)
    before = tree_digest(folder)
    with private_copy(folder, copy_limit=copy_limit) as work:
        assert bool(work.linked) == (copy_limit == 0)
        with KernelSession(work, timeout=120) as kernel:
            for cell in WRITERS:
                run = kernel.run(cell)
                assert run.ok, (cell, run.ename, run.evalue)
            # inside the kernel the cells see what they wrote
            check = kernel.run(
                "assert open('results.txt').read() == 'overwritten'\n"
                "assert open('model.pkl', 'rb').read().endswith(b'more')\n"
                "assert pd.read_csv('data/train.csv')['a'].tolist() == [9]\n"
                "assert open('data/raw/moved.bin', 'rb').read(2) == b'XX'\n"
                "assert not os.path.exists('old') and not os.path.exists('data/raw/big.bin')\n"
                "assert open('data/inside.txt').read() == 'i'\n"
                "assert os.getcwd() == " + repr(str(work.path)))
            assert check.ok, check.evalue
        copy_path = work.path
    assert tree_digest(folder) == before
    assert not copy_path.exists() and not copy_path.parent.exists()


def test_reads_see_the_originals_bytes_and_large_entries_are_linked(tmp_path: Path) -> None:
    folder = make_folder(tmp_path)
    with private_copy(folder, copy_limit=1000) as work:
        assert (work.path / "data" / "raw" / "big.bin").read_bytes() == \
            (folder / "data" / "raw" / "big.bin").read_bytes()
        assert (work.path / "results.txt").is_file() and not (work.path / "results.txt").is_symlink()
        assert "data" in work.linked and (work.path / "data").is_symlink()
        assert work.path.name == "project" and "linked read-only" in work.describe()


def test_a_relative_link_leaving_the_folder_still_resolves(tmp_path: Path) -> None:
    folder = make_folder(tmp_path)
    (tmp_path / "shared.csv").write_text("s\n")
    (folder / "shared.csv").symlink_to("../shared.csv")
    before = tree_digest(tmp_path)
    with private_copy(folder) as work:
        assert (work.path / "shared.csv").read_text() == "s\n"
        with KernelSession(work, timeout=60) as kernel:
            assert kernel.run("open('shared.csv', 'a').write('more')").ok
    assert tree_digest(tmp_path) == before


def _notebook(folder: Path, cells: list[str], target: str) -> Path:
    nb = nbformat.v4.new_notebook(cells=[
        *(nbformat.v4.new_code_cell(c, execution_count=i) for i, c in enumerate(cells, 1)),
        nbformat.v4.new_code_cell(target)])
    path = folder / "analysis.ipynb"
    nbformat.write(nb, path)
    return path


def test_check_leaves_the_folder_byte_identical_with_the_same_prediction(tmp_path: Path,
                                                                        capsys) -> None:
    folder = make_folder(tmp_path)
    # column b is gone after the rewrite of train.csv; a replay in place would change the file
    nb = _notebook(folder, [*WRITERS, "df = pd.read_csv('data/train.csv')"], "df['b']")
    before = tree_digest(folder)
    assert main(["check", str(nb), "--quiet", "--engine", "rules"]) == 1
    out = capsys.readouterr().out
    assert tree_digest(folder) == before
    assert f"replayed in a private copy of {folder}" in out
    copied = check_notebook(nb, engines=("rules",))
    assert tree_digest(folder) == before
    in_place = check_notebook(nb, engines=("rules",), in_place=True)
    assert tree_digest(folder) != before  # today's behaviour, asked for
    assert in_place.workdir.startswith("in place")
    assert (copied.verdict.crash, copied.verdict.exception) == \
        (in_place.verdict.crash, in_place.verdict.exception) == (True, "KeyError")


def test_a_folder_holding_the_temporary_folder_is_not_copied_into_itself(tmp_path: Path,
                                                                        monkeypatch) -> None:
    folder = make_folder(tmp_path)
    monkeypatch.setattr("tempfile.tempdir", str(folder))  # as for a notebook in /tmp itself
    before = set(os.listdir(folder))
    with private_copy(folder) as work:
        assert sorted(os.listdir(work.path)) == sorted(before)
    assert set(os.listdir(folder)) == before


C_WRITE = ("import ctypes, os\nlibc = ctypes.CDLL(None)\n"
           "fd = libc.open(b'weights.bin', os.O_WRONLY)\nlibc.write(fd, b'X', 1)\nlibc.close(fd)")


def _big_folder(root: Path) -> Path:
    folder = root / "big"
    folder.mkdir()
    with open(folder / "weights.bin", "wb") as f:
        f.truncate(300 * 2**20)  # sparse, beyond the copy budget: linked
    return folder


def test_a_write_in_c_through_a_link_stays_in_the_jail(tmp_path: Path, capsys) -> None:
    folder = _big_folder(tmp_path)
    nb = _notebook(folder, [C_WRITE], "x = 1")
    before = tree_digest(folder)
    stamp = (folder / "weights.bin").stat().st_mtime_ns
    assert main(["check", str(nb), "--quiet", "--engine", "rules"]) == 0
    out = capsys.readouterr().out
    assert "1 large entry linked read-only" in out
    assert "WARNING" not in out  # the jail's copy-on-write root took the write
    assert tree_digest(folder) == before and (folder / "weights.bin").stat().st_mtime_ns == stamp


def test_a_write_in_c_through_a_link_is_reported_when_unconfined(tmp_path: Path) -> None:
    folder = _big_folder(tmp_path)
    with private_copy(folder) as work:
        with KernelSession(work, timeout=60, jail=False) as kernel:
            assert kernel.run(C_WRITE).ok
        assert work.changed_originals() == ("weights.bin",)
