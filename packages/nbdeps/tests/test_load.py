"""Reading notebooks, and the bad-input corpus: a one-line NotebookError naming the file
from the library, exit 2 and one stderr line from the CLI, never a traceback."""

from __future__ import annotations

import base64
import json
import random

import nbformat
import pytest

import nbdeps
from nbdeps.cli import main


def v4(cells, **metadata):
    return {"nbformat": 4, "nbformat_minor": 5, "metadata": metadata, "cells": cells}


def code(source, count=None, outputs=()):
    return {"cell_type": "code", "id": f"c{random.Random(str(source)).randrange(10**6)}", "metadata": {},
            "source": source, "execution_count": count, "outputs": list(outputs)}


R_META = {"kernelspec": {"name": "ir", "display_name": "R", "language": "R"}, "language_info": {"name": "R"}}
V3 = {
    "nbformat": 3, "nbformat_minor": 0, "metadata": {"name": ""},
    "worksheets": [{"metadata": {}, "cells": [
        {"cell_type": "code", "input": "x = 1", "language": "python", "outputs": [], "prompt_number": 1, "metadata": {}},
        {"cell_type": "markdown", "source": "text", "metadata": {}},
        {"cell_type": "code", "input": "print(y)", "language": "python", "outputs": [], "prompt_number": 2, "metadata": {}},
    ]}],
}

# (id, bytes of the file, words the one-line message must contain)
BAD = [
    ("not-json", b"hello {", "not JSON"),
    ("json-list", b"[1, 2, 3]", "not a notebook"),
    ("json-without-cells", b'{"a": 1}', "without 'cells'"),
    ("html", b"<!DOCTYPE html><html><body>Notebook</body></html>", "HTML page"),
    ("r-kernel", json.dumps(v4([code("x <- 1")], **R_META)).encode(), "a notebook in R (kernel 'R')"),
    ("octave-kernel", json.dumps(v4([code("x = 1;")], kernelspec={"name": "octave", "display_name": "Octave",
                                                                    "language": "octave"})).encode(),
     "a notebook in octave (kernel 'Octave')"),
    # jupytext's conversion of an R script: no kernelspec, only the script's language
    ("jupytext-r-script", json.dumps(v4([code("plot(cars)")], jupytext={"main_language": "R"})).encode(),
     "a notebook in R (jupytext's main_language)"),
    ("cell-without-source", json.dumps(v4([{"cell_type": "code", "metadata": {}}])).encode(), "no 'source'"),
    ("cell-without-type", json.dumps(v4([{"source": "x = 1"}])).encode(), "no 'cell_type'"),
    ("cells-not-list", json.dumps({"nbformat": 4, "cells": {"a": 1}}).encode(), "not a list"),
    ("binary", random.Random(0).randbytes(4096), "not UTF-8"),
    ("empty", b"", "empty file"),
    ("nbformat-5", json.dumps({"nbformat": 5, "cells": []}).encode(), "newer"),
    ("source-number", json.dumps(v4([{"cell_type": "code", "source": 5}])).encode(), "neither text"),
]


@pytest.mark.parametrize(("data", "words"), [b[1:] for b in BAD], ids=[b[0] for b in BAD])
def test_bad_input_is_one_line_error_naming_the_file(tmp_path, capsys, data, words):
    path = tmp_path / "bad.ipynb"
    path.write_bytes(data)
    with pytest.raises(nbdeps.NotebookError) as info:
        nbdeps.load_notebook(path)
    message = str(info.value)
    assert str(path) in message and words in message and "\n" not in message
    assert main(["check", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"nbdeps: {path}") and "Traceback" not in err


@pytest.mark.parametrize("language", ["python", "Python3", "ipython3", "python2", ""])
def test_every_spelling_of_python_is_read(language):
    assert nbdeps.load_notebook(v4([code("x = 1")], kernelspec={"name": "k", "language": language},
                                   jupytext={"main_language": language})).cells[0].source == "x = 1"


def test_missing_file_and_directory(tmp_path):
    with pytest.raises(nbdeps.NotebookError, match="no such file"):
        nbdeps.load_notebook(tmp_path / "nope.ipynb")
    with pytest.raises(nbdeps.NotebookError, match="directory"):
        nbdeps.load_notebook(tmp_path)


def test_one_bad_file_among_several_still_checks_the_others(tmp_path, capsys):
    bad = tmp_path / "bad.ipynb"
    bad.write_text("not json")
    good = tmp_path / "good.ipynb"
    good.write_text(json.dumps(v4([code("print(missing)", 1)])))
    assert main(["check", str(bad), str(good)]) == 2
    out, err = capsys.readouterr()
    assert "ND101" in out and str(good) in out
    assert err.count("nbdeps: ") == 1 and str(bad) in err


def test_v3_notebook_is_upgraded_and_analysed(tmp_path):
    path = tmp_path / "old.ipynb"
    path.write_text(json.dumps(V3))
    nb = nbdeps.load_notebook(path)
    assert [c.kind for c in nb.cells] == ["code", "markdown", "code"]
    assert [c.execution_count for c in nb.cells] == [1, None, 2]
    assert [(f.code, f.names) for f in nbdeps.check(nb)] == [("ND101", ("y",))]


def test_source_as_list_of_lines_and_error_outputs(tmp_path):
    error = {"output_type": "error", "ename": "NameError", "evalue": "x", "traceback": []}
    path = tmp_path / "lines.ipynb"
    path.write_text(json.dumps(v4([code(["a = 1\n", "b = a\n"], 1, [error])])))
    cell = nbdeps.load_notebook(path).cells[0]
    assert cell.source == "a = 1\nb = a\n" and cell.has_error_output and cell.id is not None


def test_big_notebook_over_4_mb(tmp_path):
    image = base64.b64encode(random.Random(1).randbytes(3_200_000)).decode()
    display = {"output_type": "display_data", "metadata": {}, "data": {"image/png": image}}
    cells = [code("import math", 1), code("plot(math.pi)", 2, [display]), code("y = math.e", 3)]
    path = tmp_path / "big.ipynb"
    path.write_text(json.dumps(v4(cells)))
    assert path.stat().st_size > 4_000_000
    assert [f.code for f in nbdeps.check(path)] == ["ND101"]
    assert main(["check", str(path)]) == 1


def test_thousand_cell_notebook(tmp_path):
    cells = [code(f"v{i} = v{i - 1} + 1" if i else "v0 = 0", i + 1) for i in range(1200)]
    path = tmp_path / "long.ipynb"
    path.write_text(json.dumps(v4(cells)))
    nb = nbdeps.load_notebook(path)
    assert len(nb.cells) == 1200
    assert nbdeps.check(nb) == ()
    graph = nbdeps.build_graph(nb)
    assert len(graph.edges) == 1199
    assert nbdeps.rerun_order(nb) == tuple(range(1200))


def test_python2_cell_is_a_finding_and_analysis_goes_on():
    findings = nbdeps.check([("import os", 1), ('print "cwd", os.getcwd()', 2), ("print(undefined_thing)", 3)])
    assert [(f.code, f.cell_index, f.line) for f in findings] == [("ND001", 1, 1), ("ND101", 2, 1)]
    assert "Python 2" in findings[0].message


def test_inputs_other_than_paths():
    node = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("x = 1", execution_count=1)])
    assert nbdeps.load_notebook(node).cells[0].execution_count == 1
    assert nbdeps.load_notebook(dict(node)).cells[0].source == "x = 1"
    nb = nbdeps.load_notebook(["a = 1", ("b = a", 4)])
    assert [(c.source, c.execution_count) for c in nb.cells] == [("a = 1", None), ("b = a", 4)]
    assert nbdeps.load_notebook(nb) is nb
    with pytest.raises(nbdeps.NotebookError):
        nbdeps.load_notebook([("x", "three")])
    with pytest.raises(nbdeps.NotebookError):
        nbdeps.load_notebook(42)


def test_markdown_cells_are_kept_but_not_analysed():
    nb = nbdeps.load_notebook(v4([{"cell_type": "markdown", "source": "print(x)", "metadata": {}}, code("y = 1")]))
    assert [c.kind for c in nb.cells] == ["markdown", "code"]
    assert nbdeps.check(nb) == ()


def _json_strategy():
    from hypothesis import strategies as st

    leaves = st.one_of(st.none(), st.booleans(), st.integers(-3, 40), st.text(max_size=30))
    values = st.recursive(leaves, lambda inner: st.lists(inner, max_size=4)
                          | st.dictionaries(st.text(max_size=8), inner, max_size=4), max_leaves=12)
    cell = st.fixed_dictionaries(
        {}, optional={"cell_type": st.sampled_from(["code", "markdown", "raw", 3]),
                      "source": st.one_of(st.text(max_size=60), st.lists(st.text(max_size=20), max_size=3), values),
                      "execution_count": st.one_of(st.none(), st.integers(-2, 30), st.text(max_size=3)),
                      "outputs": st.one_of(st.lists(values, max_size=2), values),
                      "id": values, "metadata": values})
    return st.fixed_dictionaries(
        {}, optional={"cells": st.one_of(st.lists(cell, max_size=6), values),
                      "nbformat": st.one_of(st.integers(2, 6), values),
                      "metadata": st.one_of(st.fixed_dictionaries({}, optional={
                          "kernelspec": values, "language_info": values}), values),
                      "worksheets": values})


def test_any_json_object_loads_or_raises_notebook_error(tmp_path):
    from hypothesis import given, settings

    @settings(max_examples=80, deadline=None)
    @given(_json_strategy())
    def prop(data):
        path = tmp_path / "fuzz.ipynb"
        path.write_text(json.dumps(data))
        try:
            nb = nbdeps.load_notebook(path)
        except nbdeps.NotebookError as exc:
            assert "\n" not in str(exc) and str(path) in str(exc)
            return
        nbdeps.check(nb)
        nbdeps.build_graph(nb, "history")

    prop()
