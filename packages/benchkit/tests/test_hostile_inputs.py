"""Bounded inputs and safe writers (issue 22): label files, notebooks, results and baselines
that are FIFOs, devices, huge, deeply nested or not text are refused with one line naming
the file; report writers never replace anything that is not a regular file."""

from __future__ import annotations

import json
import os
import stat
import zipfile
from pathlib import Path

import nbformat
import pytest

import benchkit._xlsx
from benchkit import CaseError, load_cases, replay_plan
from benchkit._compare import load_baseline
from benchkit._store import ResultStore, read_records
from benchkit.cli import main
from benchkit.errors import ResultsError

# a regression would block in open() on a FIFO or read /dev/zero forever: fail, not hang
pytestmark = pytest.mark.timeout(60)

_NS = 'xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"'


def _fifo(path: Path) -> Path:
    os.mkfifo(path)
    return path


def _sparse(path: Path, size: int) -> Path:
    with path.open("wb") as fh:
        fh.truncate(size)  # costs no disk
    return path


def _one_line(capsys) -> str:
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err, err
    return err.strip()


def _workbook(path: Path, sheet_rows: str) -> Path:
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("xl/workbook.xml", f'<workbook {_NS} xmlns:r="http://schemas.openxmlformats.org/'
                    'officeDocument/2006/relationships"><sheets><sheet name="S" sheetId="1" '
                    'r:id="rId1"/></sheets></workbook>')
        zf.writestr("xl/_rels/workbook.xml.rels", '<Relationships xmlns="http://schemas.openxmlformats'
                    '.org/package/2006/relationships"><Relationship Id="rId1" Type="worksheet" '
                    'Target="worksheets/sheet1.xml"/></Relationships>')
        zf.writestr("xl/worksheets/sheet1.xml",
                    f"<worksheet {_NS}><sheetData>{sheet_rows}</sheetData></worksheet>")
    return path


# --- label files -----------------------------------------------------------------------------

@pytest.mark.parametrize(("write", "message"), [
    (lambda p: _fifo(p), "is a named pipe (FIFO), not a regular file"),
    (lambda p: p.symlink_to("/dev/zero"), "is a character device, not a regular file"),
    (lambda p: _sparse(p, (16 << 20) + 1), "16.0 MiB, over the 16 MiB limit for a label file"),
    (lambda p: p.write_text("[" * 100_000 + "]" * 100_000), "unreadable labels: JSON nested too deeply"),
    (lambda p: p.write_text('["ename"]'), "labels must be a JSON object, not a list"),
    (lambda p: p.write_bytes(b'{"ename": "\xff"}'), "unreadable labels: not UTF-8 text (byte 11)"),
], ids=["fifo", "dev-zero", "16-MiB", "deep", "list", "not-utf8"])
def test_bad_case_json_is_one_line_naming_it(tmp_path, write_case, capsys, write, message):
    folder = write_case(tmp_path / "root", "numpy_1", [("a", 1)], error_at=0)
    path = folder / "case.json"
    write(path)
    with pytest.raises(CaseError) as info:
        load_cases(tmp_path / "root")
    assert str(info.value) == f"{path}: {message}"
    assert main(["verify", str(tmp_path / "root"), "-o", str(tmp_path / "out")]) == 2
    assert _one_line(capsys) == f"benchkit: {path}: {message}"
    assert not (tmp_path / "out").exists()  # refused before anything was written


@pytest.mark.parametrize(("write", "where"), [
    (lambda p: _fifo(p), ": is a named pipe (FIFO), not a regular file"),
    (lambda p: p.write_bytes(b"nb_name,ename\n\xff\xfe\n"), ": unreadable labels: not UTF-8 text (byte 14)"),
    (lambda p: p.write_text('nb_name,ename\nnumpy_1,"' + "x" * 200_000 + '"\n'),
     ":2: unreadable labels: field larger than field limit (131072)"),
], ids=["fifo", "not-utf8", "csv-error"])
def test_bad_labels_csv_is_one_line_naming_it(tmp_path, write_case, write, where):
    write_case(tmp_path, "numpy_1", [("a", 1)], error_at=0)
    path = tmp_path / "labels.csv"
    write(path)
    with pytest.raises(CaseError) as info:
        load_cases(tmp_path)
    assert str(info.value) == f"{path}{where}"


def test_an_xlsx_zip_bomb_is_refused_before_it_is_inflated(tmp_path, write_case, monkeypatch):
    write_case(tmp_path, "numpy_1", [("a", 1)], error_at=0)
    # 64 MiB of one repeated row deflates to ~64 KiB; a small limit shows the same refusal fast
    book = _workbook(tmp_path / "benchmark_desc.xlsx", '<row r="1"><c r="A1"><v>1</v></c></row>' * 2000)
    assert book.stat().st_size < 10_000
    monkeypatch.setattr(benchkit._xlsx, "XLSX_PART_LIMIT", 50_000)
    with pytest.raises(CaseError, match=r"benchmark_desc.xlsx: not a readable .xlsx workbook: part "
                       r"xl/worksheets/sheet1.xml unpacks to 0 MiB, over the 0 MiB limit"):
        load_cases(tmp_path)


def test_an_xlsx_cell_beyond_the_last_column_is_refused(tmp_path):
    book = _workbook(tmp_path / "b.xlsx", '<row r="1"><c r="A1" t="inlineStr"><is><t>nb_name</t></is>'
                     '</c><c r="XFE1"><v>1</v></c></row>')
    with pytest.raises(CaseError, match="b.xlsx: not a readable .xlsx workbook: cell XFE1 is beyond"):
        benchkit._xlsx.read_xlsx_rows(book)


def test_a_wide_but_sparse_xlsx_costs_its_cells_only(tmp_path):
    rows = ('<row r="1"><c r="A1" t="inlineStr"><is><t>nb_name</t></is></c>'
            '<c r="XFD1" t="inlineStr"><is><t>ename</t></is></c></row>'
            + "".join(f'<row r="{r}"><c r="A{r}" t="inlineStr"><is><t>c_{r}</t></is></c></row>'
                      for r in range(2, 2002)))
    got = benchkit._xlsx.read_xlsx_rows(_workbook(tmp_path / "b.xlsx", rows))
    assert len(got) == 2000 and got[0] == {"nb_name": "c_2"}


@pytest.mark.parametrize("write", [lambda p: _fifo(p), lambda p: p.symlink_to("/dev/zero")],
                         ids=["fifo", "dev-zero"])
def test_an_xlsx_that_is_not_a_regular_file_is_refused(tmp_path, write_case, write):
    write_case(tmp_path, "numpy_1", [("a", 1)], error_at=0)
    write(tmp_path / "benchmark_desc.xlsx")
    with pytest.raises(CaseError, match="benchmark_desc.xlsx: is a"):
        load_cases(tmp_path)


# --- notebooks of a case ---------------------------------------------------------------------

@pytest.mark.parametrize("version", ["reproduced", "fixed"])
def test_a_case_notebook_that_is_a_fifo_is_refused_not_skipped(tmp_path, write_case, version):
    folder = write_case(tmp_path, "numpy_1", [("a", 1)], error_at=0)
    path = folder / f"numpy_1_{version}.ipynb"
    path.unlink(missing_ok=True)
    _fifo(path)
    with pytest.raises(CaseError) as info:
        load_cases(tmp_path)
    assert str(info.value) == f"{path}: is a named pipe (FIFO), not a regular file"


@pytest.mark.parametrize(("write", "message"), [
    (lambda p: _sparse(p, 300 << 20), "300 MiB, over the 256 MiB limit for a notebook"),
    (lambda p: p.write_bytes(b'{"cells": "\xff"}'), "not a readable notebook: not UTF-8 text (byte 11)"),
    (lambda p: p.write_text("[" * 100_000 + "]" * 100_000), "not a readable notebook: JSON nested too deeply"),
    (lambda p: p.write_text(json.dumps({"nbformat": "4", "nbformat_minor": 5, "metadata": {}, "cells": []})),
     "not a readable notebook: NBFormatError: Unsupported nbformat version 4"),
], ids=["300-MiB", "not-utf8", "deep", "nbformat-string"])
def test_an_unreadable_case_notebook_is_a_case_error_naming_it(tmp_path, write_case, write, message):
    folder = write_case(tmp_path, "numpy_1", [("a", 1)], error_at=0)
    path = folder / "numpy_1_reproduced.ipynb"
    path.unlink()
    write(path)
    (case,) = load_cases(tmp_path)
    with pytest.raises(CaseError) as info:
        replay_plan(case, "reproduced")
    assert str(info.value) == f"{path}: {message}"


# --- results files and baselines -------------------------------------------------------------

@pytest.mark.parametrize(("line", "message"), [
    ("[" * 100_000 + "]" * 100_000, "JSON nested too deeply"),
    ("[1, 2]", "a JSON list, not an object"),
], ids=["deep", "list"])
def test_a_bad_results_line_is_named(tmp_path, capsys, line, message):
    path = tmp_path / "r.jsonl"
    path.write_text(line + "\n{}\n")
    assert main(["report", str(path)]) == 2
    assert _one_line(capsys) == f"benchkit: {path}:1: not a result record: {message}"


def test_results_that_are_a_fifo_or_not_text_are_refused(tmp_path, capsys):
    fifo = _fifo(tmp_path / "r.jsonl")
    with pytest.raises(ResultsError, match="r.jsonl: is a named pipe"):
        read_records(fifo)
    with pytest.raises(ResultsError, match="r.jsonl: is a named pipe .* regular file only"):
        ResultStore(fifo, task="verify", force=True)  # appending would block
    binary = tmp_path / "b.jsonl"
    binary.write_bytes(b"\xff\n")
    assert main(["report", str(binary)]) == 2
    assert _one_line(capsys) == f"benchkit: {binary}: not a results file (not UTF-8 text at byte 0)"


@pytest.mark.parametrize(("write", "where"), [
    (lambda p: _fifo(p), ": is a named pipe (FIFO), not a regular file"),
    (lambda p: p.write_bytes(b"case,version,predicted\n\xff"), ": cannot read baseline: not UTF-8 text (byte 23)"),
    (lambda p: p.write_text('case,version,predicted\nc,fixed,"' + "x" * 200_000 + '"\n'),
     ":2: cannot read baseline: field larger than field limit (131072)"),
], ids=["fifo", "not-utf8", "csv-error"])
def test_a_bad_baseline_is_one_line_naming_it(tmp_path, capsys, write, where):
    path = tmp_path / "base.csv"
    write(path)
    with pytest.raises(ResultsError):
        load_baseline(path)
    assert main(["compare", "--baseline", str(path)]) == 2
    assert _one_line(capsys) == f"benchkit: {path}{where}"


# --- writers ---------------------------------------------------------------------------------

def _baseline(tmp_path: Path) -> Path:
    path = tmp_path / "base.csv"
    path.write_text("case,version,predicted\nc_1,reproduced,true\nc_1,fixed,false\n")
    return path


def test_report_and_compare_do_not_replace_a_fifo(tmp_path, capsys):
    base, out = _baseline(tmp_path), _fifo(tmp_path / "r.html")
    assert main(["compare", "--baseline", str(base), "--html", str(out)]) == 2
    assert _one_line(capsys) == (f"benchkit: {out}: cannot write: is a named pipe (FIFO), not a "
                                 "regular file (left as it was)")
    store = ResultStore(tmp_path / "run", task="verify")
    assert main(["report", str(store.path), "-o", str(out)]) == 2
    _one_line(capsys)
    assert stat.S_ISFIFO(os.lstat(out).st_mode)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["base.csv", "r.html", "run"]


def test_report_does_not_replace_dev_null(tmp_path, capsys):
    # runs as root in CI: a broken writer WOULD replace /dev/null (the FIFO test above guards it)
    store = ResultStore(tmp_path / "run", task="verify")
    assert main(["report", str(store.path), "-o", "/dev/null"]) == 2
    assert _one_line(capsys) == ("benchkit: /dev/null: cannot write: is a character device, not a "
                                 "regular file (left as it was)")
    assert stat.S_ISCHR(os.stat("/dev/null").st_mode)


def test_results_or_modernize_folder_that_cannot_be_made_is_one_line(tmp_path, write_case, capsys):
    write_case(tmp_path / "root", "numpy_1", [("a", 1)], error_at=0)
    fifo = _fifo(tmp_path / "out")
    assert main(["verify", str(tmp_path / "root"), "-o", str(fifo)]) == 2
    assert _one_line(capsys) == f"benchkit: {fifo}: cannot make the results folder (File exists)"
    nb = tmp_path / "old.ipynb"
    nbformat.write(nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("x = 1")]), nb)
    assert main(["modernize", str(nb), "-o", "/dev/null"]) == 2  # fails before any kernel
    assert _one_line(capsys) == "benchkit: /dev/null/old: Not a directory"
    assert stat.S_ISCHR(os.stat("/dev/null").st_mode)


@pytest.mark.parametrize(("write", "message"), [
    (lambda p: _fifo(p), "cannot read: is a named pipe (FIFO), not a regular file"),
    (lambda p: p.write_text(json.dumps({"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": [
        {"cell_type": "code", "metadata": {}, "source": ["x", 1], "outputs": []}]})),
     "cell 1: 'source' line 2 is not text (int)"),
], ids=["fifo", "source-int"])
def test_modernize_refuses_a_bad_notebook_before_any_kernel(tmp_path, capsys, write, message):
    path = tmp_path / "old.ipynb"
    write(path)
    assert main(["modernize", str(path), "-o", str(tmp_path / "out")]) == 2
    assert _one_line(capsys) == f"benchkit: {path}: {message}"
    assert not (tmp_path / "out").exists()
