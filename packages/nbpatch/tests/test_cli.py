"""The nbpatch command line: exit codes 0 equal/applied, 1 different, 2 unusable input."""

from __future__ import annotations

import json

import pytest

import nbpatch
from nbpatch.cli import main


@pytest.fixture
def files(nb, tmp_path):
    a, b = nb("# T", "x = 1", "print(x)"), nb("# T", "x = 2", "print(x)")
    nbpatch.write_notebook(a, tmp_path / "a.ipynb")
    nbpatch.write_notebook(b, tmp_path / "b.ipynb")
    return tmp_path


def test_diff_exit_codes_and_text(files, capsys):
    assert main(["diff", str(files / "a.ipynb"), str(files / "a.ipynb")]) == 0
    assert capsys.readouterr().out == "no changes\n"
    assert main(["diff", str(files / "a.ipynb"), str(files / "b.ipynb")]) == 1
    assert capsys.readouterr().out == "edit cell 2 (id c1):\n  @@ line 1\n  -x = 1\n  +x = 2\n"


def test_diff_json_then_apply_writes_the_notebook(files, capsys, parts):
    assert main(["diff", "--json", str(files / "a.ipynb"), str(files / "b.ipynb")]) == 1
    (files / "p.json").write_text(capsys.readouterr().out)
    out = files / "out.ipynb"
    assert main(["apply", str(files / "a.ipynb"), str(files / "p.json"), "-o", str(out)]) == 0
    assert parts(nbpatch.read_notebook(out)) == parts(nbpatch.read_notebook(files / "b.ipynb"))


def test_apply_conflict_is_exit_2_and_writes_nothing(files, capsys):
    main(["diff", "--json", str(files / "a.ipynb"), str(files / "b.ipynb")])
    (files / "p.json").write_text(capsys.readouterr().out)
    before = (files / "b.ipynb").read_bytes()
    assert main(["apply", str(files / "b.ipynb"), str(files / "p.json")]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"nbpatch apply: error: {files / 'b.ipynb'}: cell 2 (id c1): changed "
                          "since the patch was made")
    assert err.count("\n") == 1
    assert (files / "b.ipynb").read_bytes() == before


@pytest.mark.parametrize("cell", ["2", "c1"])
def test_apply_reply_in_place_to_a_cell_by_position_or_id(files, capsys, cell):
    # positions count every cell from 1 (the markdown title is cell 1), as the notebook shows
    (files / "reply.md").write_text("Fixed:\n```python\nx = 3\n```\n")
    assert main(["apply", str(files / "a.ipynb"), str(files / "reply.md"), "--reply",
                 "--cell", cell]) == 0
    assert nbpatch.read_notebook(files / "a.ipynb").cells[1].source == "x = 3"
    assert capsys.readouterr().out == "edit cell 2 (id c1):\n  @@ line 1\n  -x = 1\n  +x = 3\n"


def test_cell_position_out_of_range_is_exit_2(files, capsys):
    (files / "reply.md").write_text("```python\nx = 3\n```\n")
    assert main(["apply", str(files / "a.ipynb"), str(files / "reply.md"), "--reply",
                 "--cell", "4"]) == 2
    assert capsys.readouterr().err == (
        "nbpatch apply: error: --cell 4: the notebook has 3 cells (positions 1..3)\n")


def test_text_output_names_cells_by_position_and_id(nb, tmp_path, capsys):
    a = nb("# T", "x = 1", "y = 2", "z = 3")
    b = nb(*[{"cell_type": t, "source": s, "id": i} for t, s, i in (
        ("markdown", "T", "c0"), ("code", "z = 3", "c3"), ("code", "x = 1", "c1"),
        ("markdown", "Notes", "new"))])
    for name, notebook in (("a", a), ("b", b)):
        nbpatch.write_notebook(notebook, tmp_path / f"{name}.ipynb")
    assert main(["diff", str(tmp_path / "a.ipynb"), str(tmp_path / "b.ipynb")]) == 1
    assert capsys.readouterr().out.splitlines() == [
        "delete cell 3 (id c2)",
        "move cell 4 (id c3) after cell 1 (id c0)",
        "insert markdown cell 4 (id new) after cell 2 (id c1): 'Notes'",
    ]
    nbpatch.write_notebook(nb("# T", "x = 1", "y = 2", "z = 3", ids=False), tmp_path / "a.ipynb")
    assert main(["diff", str(tmp_path / "a.ipynb"), str(tmp_path / "b.ipynb")]) == 1
    assert capsys.readouterr().out.splitlines()[:2] == [
        "delete cell 3", "move cell 4 after cell 1"]


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["diff", "{d}/junk.ipynb", "{d}/a.ipynb"], "{d}/junk.ipynb: not a Jupyter notebook"),
        (["diff", "{d}/none.ipynb", "{d}/a.ipynb"], "{d}/none.ipynb: cannot read"),
        (["apply", "{d}/a.ipynb", "{d}/junk.ipynb"], "{d}/junk.ipynb: not JSON"),
        (["apply", "{d}/a.ipynb", "{d}/bad.json"], "{d}/bad.json: does not match the patch"),
        (["apply", "{d}/a.ipynb", "{d}/empty.md", "--reply"], "{d}/empty.md: reply is empty"),
        (["similarity", "{d}/a.ipynb", "{d}/junk.ipynb"], "{d}/junk.ipynb: not a Jupyter"),
    ],
)
def test_unusable_input_is_one_line_and_exit_2(files, capsys, argv, message):
    (files / "junk.ipynb").write_text("hello")
    (files / "bad.json").write_text('{"nbpatch": 1, "ops": []}')
    (files / "empty.md").write_text("")
    before = (files / "a.ipynb").read_bytes()
    assert main([arg.format(d=files) for arg in argv]) == 2
    err = capsys.readouterr().err
    assert message.format(d=files) in err and err.count("\n") == 1
    assert (files / "a.ipynb").read_bytes() == before


def test_similarity_output_and_exit_codes(files, capsys):
    assert main(["similarity", str(files / "a.ipynb"), str(files / "a.ipynb")]) == 0
    assert capsys.readouterr().out == "1.0000\n"
    assert main(["similarity", "--json", "--method", "ratio", str(files / "a.ipynb"),
                 str(files / "b.ipynb")]) == 1
    report = json.loads(capsys.readouterr().out)
    assert report["method"] == "ratio" and 0.9 < report["similarity"] < 1.0
