"""The false-positive classes found on public notebooks (issue 15), one table row or test
per class, on notebooks built as Jupyter saves them (counts, outputs, metadata)."""

from __future__ import annotations

import json

import pytest

import nbdeps


def cell(source, count=None, outputs=None, cid=None):
    data = {"cell_type": "code", "metadata": {}, "source": source, "execution_count": count,
            "outputs": [] if outputs is None else outputs}
    if cid:
        data["id"] = cid
    return data


def shown(text):
    return [{"output_type": "stream", "name": "stdout", "text": text}]


def error(ename="NameError"):
    return [{"output_type": "error", "ename": ename, "evalue": "", "traceback": []}]


def notebook(*cells, metadata=None):
    return {"nbformat": 4, "nbformat_minor": 5, "metadata": metadata or {}, "cells": list(cells)}


def serious(nb, **kwargs):
    return sorted((f.code, f.cell_index) for f in nbdeps.check(nb, **kwargs) if f.severity != "info")


# (id, notebook, expected warning/error findings)
CLASSES = [
    ("copied-cell-shares-its-count",
     notebook(cell("import os", 1), cell("base = os.getcwd()", 2), cell("names = os.listdir(base)", 3),
              cell("base = os.getcwd()", 2), cell("print(len(names))", 4, shown("3"))), []),
    ("one-repeated-count-is-not-a-restart",
     notebook(*[cell(f"v{i} = {i}", i) for i in range(1, 30)], cell("w = 0", 12),
              cell("total = " + " + ".join(f"v{i}" for i in range(1, 30)), 30, shown("435"))), []),
    ("colab-zero-counts-ran",
     notebook(cell("import math", 0), cell("r = 2.0", 0), cell("print(math.pi * r)", 1, shown("6.28"))), []),
    ("uncounted-cell-in-an-exact-gap-ran",
     notebook(cell("a = 1", 1), cell("b = a + 1", None), cell("c = b * 2", 3), cell("print(c)", 4, shown("4"))),
     []),
    ("uncounted-definer-proven-by-a-later-output",
     notebook(cell("a = 1", 1), cell("b = a + 1", None), cell("print(b)", 7, shown("2"))), []),
    ("uncounted-definer-without-proof-is-still-reported",
     notebook(cell("a = 1", 1), cell("b = a + 1", None), cell("print(b)", 7, error())), [("ND104", 2)]),
    ("two-repeated-counts-are-a-restart",
     notebook(cell("k = 1", 1), cell("m = 2", 2), cell("x = 0", 1), cell("y = 0", 2), cell("print(k)", 3, error())),
     [("ND105", 4)]),
    ("a-cell-that-ran-without-error-had-its-names",
     notebook(cell("k = 1", 1), cell("m = 2", 2), cell("x = 0", 1), cell("y = 0", 2), cell("z = k", 3)), []),
    ("a-live-rerun-that-showed-no-error-did-not-fail-but-restart-and-run-all-does",
     notebook(cell("d = {'k': 1}", 1), cell("d.pop('k')", 2, shown("1")), cell("d.pop('k')", 5, shown("1"))),
     [("ND402", 2)]),
    ("a-live-rerun-that-failed",
     notebook(cell("d = {'k': 1}", 1), cell("d.pop('k')", 2, shown("1")), cell("d.pop('k')", 3, error("KeyError"))),
     [("ND402", 2)]),
    ("reset-index-undoes-set-index",
     notebook(cell("df = make()", 1), cell("df.set_index('day', inplace=True)", 2),
              cell("df.reset_index(inplace=True)", 3), cell("df.set_index('day', inplace=True)", 4)),
     [("ND101", 0)]),
    ("set-index-twice-without-reset-fails",
     notebook(cell("df = make()", 1), cell("df.set_index('day', inplace=True)", 2),
              cell("df.set_index('day', inplace=True)", 3)),
     [("ND101", 0), ("ND402", 2)]),
    ("one-ND101-per-name",
     notebook(cell("model.fit(X)", 1), cell("model.predict(X)", 2), cell("model.score(X)", 3)),
     [("ND101", 0), ("ND101", 0)]),
]


@pytest.mark.parametrize(("nb", "expected"), [c[1:] for c in CLASSES], ids=[c[0] for c in CLASSES])
def test_false_positive_classes(nb, expected):
    assert serious(nb) == sorted(expected)


def test_one_ND101_per_name_lists_every_reading_cell():
    nb = notebook(cell("model.fit(X)", 1), cell("# note"), cell("model.predict(X)", 2))
    (model,) = [f for f in nbdeps.check(nb) if f.names == ("model",)]
    assert (model.code, model.cell_index) == ("ND101", 0)
    assert model.message == ("`model`, read in cells 1, 3, is defined in no cell of the notebook (deleted cell or "
                             "hidden state): NameError on a fresh run")


def test_star_import_of_a_module_beside_the_notebook_is_resolved(tmp_path):
    (tmp_path / "helpers.py").write_text(
        "import os\nfrom math import *\nLIMIT = 3\n_private = 1\n"
        "def load(path):\n    return path\nclass Model:\n    pass\n"
        "try:\n    import json as fast_json\nexcept ImportError:\n    fast_json = None\n")
    path = tmp_path / "nb.ipynb"
    path.write_text(json.dumps(notebook(cell("from helpers import *", 1),
                                        cell("m = Model(); data = load(LIMIT); fast_json, os", 2),
                                        cell("print(_private, missing)", 3))))
    found = [(f.code, f.cell_index, f.names) for f in nbdeps.check(path) if f.severity != "info"]
    assert found == [("ND101", 2, ("_private",)), ("ND101", 2, ("missing",))]
    (tmp_path / "helpers.py").write_text("__all__ = ['load']\ndef load(p):\n    return p\nLIMIT = 3\n")
    found = {(f.code, f.names) for f in nbdeps.check(path) if f.severity != "info"}
    assert ("ND101", ("LIMIT",)) in found and ("ND101", ("load",)) not in found


def test_star_import_of_a_missing_module_stays_unknown(tmp_path):
    path = tmp_path / "nb.ipynb"
    path.write_text(json.dumps(notebook(cell("from helpers import *", 1), cell("print(thing)"))))
    assert serious(path) == [("ND102", 1)]
    path.write_text(json.dumps(notebook(cell("from helpers import *", 1), cell("print(thing)", 2, error()))))
    assert serious(path) == [("ND102", 1)]


def test_run_of_a_script_beside_the_notebook_binds_its_names(tmp_path):
    (tmp_path / "setup.py").write_text("import numpy as np\nSEED = 1\n_cache = {}\n")
    path = tmp_path / "nb.ipynb"
    path.write_text(json.dumps(notebook(cell("%run setup.py", 1), cell("print(np, SEED, _cache)", 2))))
    assert serious(path) == []


PY2 = {"kernelspec": {"name": "python2", "display_name": "Python 2", "language": "python"},
       "language_info": {"name": "python", "version": "2.7.18"}}


def test_a_python2_notebook_gets_one_info_finding_not_syntax_errors():
    nb = notebook(cell('print "start"\ntotal = 0', 1), cell("for i in xrange(3):\n    total += i", 2),
                  cell('print "total", total\nname = raw_input()', 3), metadata=PY2)
    found = nbdeps.check(nb)
    assert [(f.code, f.severity) for f in found if f.code in ("ND001", "ND002")] == [("ND002", "info")]
    assert "Python 2.7.18 notebook: 2 cell(s) (cells 1, 3)" in found[0].message
    assert [f for f in found if f.severity != "info"] == []
    assert nbdeps.runs_top_to_bottom(nb)


def test_python2_read_from_the_kernelspec_alone():
    nb = nbdeps.load_notebook(notebook(cell("x = 1"), metadata={"kernelspec": {"name": "python2"}}))
    assert nb.is_python2 and nb.python_version == "2"
    assert not nbdeps.load_notebook(notebook(cell("x = 1"), metadata=PY2 | {"language_info": {
        "name": "python", "version": "3.11.4"}})).is_python2


def test_names_bound_in_an_unparsable_cell_are_not_called_undefined():
    nb = notebook(cell("import pandas as pd\ndf = pd.read_csv('x.csv')\nprint df.shape"),
                  cell("df.head()"))
    found = nbdeps.check(nb)
    assert [(f.code, f.cell_index) for f in found if f.severity != "info"] == [("ND001", 0)]
    assert "running it raises SyntaxError before any of its lines runs" in found[0].message


def test_ND101_message_names_the_unparsable_cell_that_may_bind_it():
    nb = notebook(cell("with open('a',,) as other:\n    pass", 1), cell("print(other, third)", 2))
    found = {f.names: f.message for f in nbdeps.check(nb) if f.code == "ND101"}
    assert "(cell 1 does not parse and may bind it, else" in found[("other",)]


def test_ND101_hedges_only_with_unparsable_cells_that_hold_the_name():
    nb = notebook(cell("config = {\n'a': 1,,\n}", 1), cell("p[rint]\nc[ontinue]", 2),
                  cell("print(config['a'], other)", 3))
    found = {f.names: f.message for f in nbdeps.check(nb) if f.code == "ND101"}
    assert found[("other",)] == ("`other` is defined in no cell of the notebook (deleted cell or hidden "
                                 "state): NameError on a fresh run")


def test_display_made_stale_by_an_in_place_change_run_later():
    nb = notebook(cell("import pandas as pd\ndf = pd.DataFrame({'a': [1]})", 1),
                  cell("df['place'] = 'x'", 3), cell("df.dtypes", 2, shown("a int64")))
    stale = [f for f in nbdeps.check(nb) if f.code == "ND301"]
    assert [(f.cell_index, f.names) for f in stale] == [(2, ("df",))]
    assert "changed in place by cell 2" in stale[0].message
    # the same change run later but sitting below is the normal flow of a pipeline
    nb = notebook(cell("import pandas as pd\ndf = pd.DataFrame({'a': [1]})", 1),
                  cell("df.dtypes", 2, shown("a int64")), cell("df['place'] = 'x'", 3))
    assert [f for f in nbdeps.check(nb) if f.code == "ND301"] == []


def test_star_imports_of_installed_modules_are_read_without_importing_them():
    import subprocess
    import sys

    code = ("import sys, nbdeps; fs = nbdeps.check([('from json import *', 1), ('from pandas import *', 2), "
            "('dumps(DataFrame, read_csv, nope)', 3)]); "
            "print(sorted((f.code, f.names) for f in fs if f.severity != 'info'), 'pandas' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[('ND101', ('nope',))] False"


def test_a_module_that_extends_its_all_is_read_but_not_trusted_to_be_complete(tmp_path):
    (tmp_path / "tools.py").write_text("__all__ = ['load']\n__all__ += ['save']\ndef load(): pass\n"
                                       "def save(): pass\n")
    path = tmp_path / "nb.ipynb"
    path.write_text(json.dumps(notebook(cell("from tools import *", 1), cell("load(); save(); other", 2))))
    assert [(f.code, f.names) for f in nbdeps.check(path) if f.severity != "info"] == [("ND101", ("other",))]
    from nbdeps._modules import installed_names

    assert installed_names("os") is not None and installed_names("os")[1] is False  # os extends __all__
    assert installed_names("not_installed_anywhere") is None


def test_a_live_rerun_without_error_is_not_called_a_live_failure():
    nb = notebook(cell("d = {'k': 1}", 1), cell("d.pop('k')", 2, shown("1")), cell("d.pop('k')", 5, shown("1")))
    (finding,) = [f for f in nbdeps.check(nb) if f.code == "ND402"]
    assert finding.message.endswith("in Restart & Run All this fails")


@pytest.mark.parametrize("metadata", [
    {"kernelspec": {"name": "pysparkkernel", "display_name": "PySpark", "language": "python"}},
    {"application/vnd.databricks.v1+notebook": {"notebookName": "etl"}},
])
def test_names_a_spark_kernel_defines_are_defined(metadata):
    nb = notebook(cell("df = spark.read.csv(path_in)", 1), cell("sc.setLogLevel('WARN')", 2), metadata=metadata)
    assert [(f.code, f.names) for f in nbdeps.check(nb) if f.severity != "info"] == [("ND101", ("path_in",))]
    assert nbdeps.build_graph(nb).backward_edges == ()
    plain = notebook(cell("df = spark.read.csv('x')", 1))
    assert [f.names for f in nbdeps.check(plain)] == [("spark",)]
