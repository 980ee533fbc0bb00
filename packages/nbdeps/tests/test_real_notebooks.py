"""The false-finding classes of issue 24, met on hand-made real notebooks: one test
notebook per class, built with nbformat as Jupyter saves it, and the messages a user acts
on."""

from __future__ import annotations

import nbformat
import nbformat.v3 as v3
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook, new_output

import nbdeps

PY3 = {"kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"},
       "language_info": {"name": "python", "version": "3.11.4"}}


def code(source, count=None, *outputs):
    return new_code_cell(source, execution_count=count, outputs=list(outputs))


def out(text):
    return new_output("stream", name="stdout", text=text)


def failed(ename="NameError"):
    return new_output("error", ename=ename, evalue="", traceback=[])


def nb(*cells, metadata=PY3):
    notebook = new_notebook(cells=list(cells), metadata=metadata)
    for k, cell in enumerate(notebook.cells):
        cell.id = f"c{k}"
    return notebook


def serious(notebook, **kwargs):
    return [(f.code, f.cell_index, f.names) for f in nbdeps.check(notebook, **kwargs) if f.severity != "info"]


# -- class 1: cells that do not parse ------------------------------------------------------

def test_a_cell_that_does_not_parse_reads_nothing():
    notebook = nb(
        code("import pandas as pd", 1),
        code("p[rint] expr   print the value\nc[ontinue]     go on\nn[ext]", 2),  # a pdb cheat sheet
        code("You are a data analyst. Summarise df and plot the top rows.", None),  # a pasted prompt
        code("git clone https://example.org/repo.git\ncd repo", None),  # a shell line
        code("df = pd.read_csv('x.csv')\nprint(df.shape)", 3, out("(3, 2)")),
    )
    assert serious(notebook) == [("ND001", 1, ()), ("ND001", 2, ()), ("ND001", 3, ())]


def test_a_binding_inside_a_def_of_a_broken_cell_is_local_to_it():
    notebook = nb(
        code("print(scale)", 1, failed()),
        code("def fit(frame):\n    scale = frame.max(\n    return frame / scale\n", None),
    )
    assert "scale" not in nbdeps.analyze_cell(notebook.cells[1].source).defines
    found = serious(notebook)
    assert ("ND101", 0, ("scale",)) in found and not any(c == "ND201" for c, _, _ in found)


# -- class 2: star imports and %run that cannot be read -----------------------------------

def test_a_star_import_that_cannot_be_read_is_proven_by_a_reader_that_ran(tmp_path):
    notebook = nb(
        code("from lifetimes_not_installed.utils import *", 1),
        code("summary = summary_data_from_transaction_data(tx)", 2),
        code("%run ./missing_helpers.py", 3),
        code("plot_cohorts(summary)", 4, out("<Figure>")),
        code("print(never_shown)", None),
        code("print(shown_failing)", 5, failed()),
    )
    path = tmp_path / "nb.ipynb"
    nbformat.write(notebook, path)
    assert serious(path) == [("ND102", 4, ("never_shown",)), ("ND102", 5, ("shown_failing",))]


def test_a_star_import_reader_that_failed_is_still_reported(tmp_path):
    notebook = nb(code("from lifetimes_not_installed.utils import *", 1),
                  code("plot_cohorts(summary)", 2, failed()))
    path = tmp_path / "nb.ipynb"
    nbformat.write(notebook, path)
    assert [c for c, _, _ in serious(path)] == ["ND102", "ND102"]


# -- class 4: automagics of a loaded extension --------------------------------------------

def test_an_extension_magic_used_through_automagic_is_not_python():
    notebook = nb(code("%load_ext watermark", 1),
                  code("watermark -iv", 2, out("numpy: 1.26")),
                  code("watermark --author 'A. Person' -v", 3, out("Author: A. Person")),
                  code("import numpy as np\nprint(np.pi)", 4, out("3.14")))
    assert serious(notebook) == []


def test_the_same_lines_without_the_extension_are_read_as_python():
    notebook = nb(code("watermark -iv", 1, failed()))
    assert serious(notebook) == [("ND101", 0, ("watermark",)), ("ND101", 0, ("iv",))]
    notebook = nb(code("watermark -iv", 2), code("%load_ext watermark", 1))  # above the loading cell
    assert serious(notebook) == [("ND101", 0, ("watermark",)), ("ND101", 0, ("iv",))]


def test_a_name_the_notebook_binds_is_not_taken_for_a_magic():
    notebook = nb(code("%load_ext autoreload", 1), code("iv = 2\nwatermark = 5", 2),
                  code("watermark -iv", 3, out("3")))
    assert nbdeps.check(notebook, select=("ND1", "ND2")) == ()
    assert "watermark" in nbdeps._cellinfo.cell_infos(nbdeps.load_notebook(notebook))[2].used_names


# -- class 5: Python 2 code without language metadata -------------------------------------

def _nbformat3(*cells):
    sheet = v3.new_worksheet(cells=[v3.new_code_cell(input=src, prompt_number=n, outputs=outs)
                                    for src, n, outs in cells])
    return v3.new_notebook(worksheets=[sheet])


def test_python2_cells_that_ran_in_an_nbformat3_notebook_are_the_python2_finding():
    old = _nbformat3(('print "loading"\nrows = range(3)', 1, [v3.new_output("stream", output_text="loading\n")]),
                     ("for r in xrange(3):\n    print r", 2, [v3.new_output("stream", output_text="0\n1\n2\n")]),
                     ("total = sum(rows)", 3, []))
    found = nbdeps.check(old)
    assert [(f.code, f.severity) for f in found if f.code in ("ND001", "ND002")] == [("ND002", "info")]
    assert "no version saved" in found[0].message
    assert serious(old) == []


def test_python2_syntax_that_never_ran_stays_a_syntax_error():
    old = _nbformat3(('print "loading"', None, []), ("x = 1", None, []))
    assert serious(old) == [("ND001", 0, ())]


# -- messages --------------------------------------------------------------------------------

def test_ND201_in_a_notebook_that_never_ran_does_not_mention_history():
    notebook = nb(code("print(rate)"), code("total = rate * 2"), code("rate = 0.1"))
    (finding,) = [f for f in nbdeps.check(notebook) if f.code == "ND201"]
    assert finding.message == ("`rate` is defined only below, in cell 3 (id c2) (never run): running the "
                               "notebook top to bottom (Restart & Run All) raises NameError here; it also "
                               "breaks cell 2")
    assert "history" not in finding.message


def test_one_finding_per_hazard_lists_the_cells_it_breaks():
    notebook = nb(code("a = 1", 1), code("del a", 2), code("print(a)", 3), code("b = a + 1", 4),
                  code("del a", 5))
    found = [(f.code, f.cell_index) for f in nbdeps.check(notebook) if f.severity != "info"]
    assert found == [("ND202", 2)]  # not once per reader, and no ND402 repeating it on cell 5
    (finding,) = [f for f in nbdeps.check(notebook) if f.code == "ND202"]
    assert finding.message.endswith("it also breaks cells 4, 5")


def test_ND101_for_a_name_read_in_a_called_function_reads_as_a_sentence():
    notebook = nb(code("def run_inference(x):\n    return torch.tensor(x)"), code("run_inference(1)", 1),
                  code("run_inference(2)", 2))
    (finding,) = [f for f in nbdeps.check(notebook) if f.code == "ND101"]
    assert finding.message == ("`run_inference`, defined in cell 1 (id c0) (never run), reads `torch`, which no "
                               "cell defines: NameError when it is called here (also called in cell 3)")


def test_ND302_is_not_reported_on_a_cell_saved_without_outputs():
    notebook = nb(code("x = 1", 1), code("x = 2", 4), code("y = x * 10", 2), code("z = y + 1", 3),
                  code("print(y)", 5, out("10")))
    codes = {(f.code, f.cell_index) for f in nbdeps.check(notebook)}
    assert ("ND301", 2) in codes and ("ND302", 3) not in codes and ("ND302", 4) in codes


def test_ND301_follows_the_nearest_definer_above():
    # cell 1 re-ran late, but cell 2 (run before the reader) rebinds x below it: a fresh run
    # gives the reader cell 2's value, the one it saw
    notebook = nb(code("x = 1", 5), code("x = 2", 2), code("print(x)", 3, out("2")))
    assert [f for f in nbdeps.check(notebook) if f.code == "ND301"] == []
    notebook = nb(code("x = 2", 2), code("x = 1", 5), code("print(x)", 3, out("2")))
    assert [(f.code, f.cell_index) for f in nbdeps.check(notebook) if f.code == "ND301"] == [("ND301", 2)]


def test_markdown_cells_count_in_positions_of_the_listed_cells():
    notebook = nb(new_markdown_cell("# intro"), code("print(k)"), code("print(k + 1)"), code("k = 1"))
    (finding,) = [f for f in nbdeps.check(notebook) if f.code == "ND201"]
    assert finding.cell_position == 2 and finding.message.endswith("it also breaks cell 3")


# -- class 3: branches inside called functions --------------------------------------------

HELPER = ("def model(x, init='zeros', verbose=False):\n"
          "    if init == 'he':\n        w = he_init(x)\n"
          "    elif init in ('xavier', 'glorot'):\n        w = xavier_init(x)\n"
          "    else:\n        w = 0 * x\n"
          "    if not verbose:\n        return w\n"
          "    log(w)\n    return w")


def test_a_call_does_not_read_what_only_other_branches_of_the_helper_read():
    notebook = nb(code(HELPER, 1), code("w1 = model(3, init='zeros')", 2), code("w2 = model(4)", 3),
                  code("def he_init(x):\n    return x", 4))
    assert serious(notebook) == []


def test_a_call_that_takes_the_branch_is_reported():
    notebook = nb(code(HELPER, 1), code("w1 = model(3, init='he')", 2), code("def he_init(x):\n    return x", 4),
                  code("w2 = model(3, 'xavier', verbose=True)", 5))
    found = serious(notebook)
    assert ("ND201", 1, ("he_init",)) in found
    assert ("ND101", 3, ("xavier_init", "log")) in found


def test_an_undecided_branch_still_counts():
    notebook = nb(code(HELPER, 1), code("w = model(3, init=choice)", 2), code("choice = 'he'", 3))
    assert ("ND101", 1, ("he_init", "xavier_init")) in serious(notebook)


def test_a_read_above_a_star_import_its_run_proves_still_fails(tmp_path):
    notebook = nb(code("print(HELPER_LIMIT)"), code("from helpers_not_here import *", 1),
                  code("print(HELPER_LIMIT)", 2, out("3")))
    path = tmp_path / "nb.ipynb"
    nbformat.write(notebook, path)
    (finding,) = [f for f in nbdeps.check(path) if f.severity != "info"]
    assert (finding.code, finding.cell_index) == ("ND102", 0)
    assert "which is below: Restart & Run All raises NameError here" in finding.message


def test_a_called_function_reading_a_name_bound_nowhere_beside_a_star_import(tmp_path):
    notebook = nb(code("def f():\n    return helper_x()", 1), code("from helpers_not_here import *", 2),
                  code("f()"))
    path = tmp_path / "nb.ipynb"
    nbformat.write(notebook, path)
    assert serious(path) == [("ND102", 2, ("helper_x",))]
    notebook.cells[2].execution_count, notebook.cells[2].outputs = 3, [out("1")]
    nbformat.write(notebook, path)
    assert nbdeps.check(path, select=("ND1", "ND6")) == nbdeps.check(path, select=("ND601",))


def test_python2_print_statements_are_read_for_their_names():
    old = _nbformat3(('print "loading"', 1, [v3.new_output("stream", output_text="loading\n")]),
                     ("print totl", 2, [v3.new_output("pyerr", ename="NameError", evalue="", traceback=[])]),
                     ("total = 1", 3, []))
    assert serious(old) == [("ND101", 1, ("totl",))]


# -- a read that an `except NameError` guards cannot raise ---------------------------------

def test_a_read_guarded_by_except_name_error_is_not_a_finding():
    notebook = nb(code("try:\n    model\nexcept NameError:\n    model = 1", 1),
                  code("try:\n    del big_frame\nexcept Exception:\n    pass", 2),
                  code("try:\n    cache\nexcept KeyError:\n    cache = {}", 3),
                  code("print(model)", 4, out("1")))
    assert serious(notebook) == [("ND101", 2, ("cache",))]
    assert nbdeps.analyze_cell(notebook.cells[1].source).non_idempotent == ()


def test_names_bound_through_exec_or_globals_are_not_undefined():
    notebook = nb(code("exec(open('config.py').read())", 1), code("print(LEARNING_RATE)", 2, out("0.1")),
                  code("globals()['seed'] = 7\nexec('batch = 32')", 3), code("print(seed, batch)", 4, out("7 32")))
    assert serious(notebook) == []


def test_a_name_defined_only_in_a_never_run_cell_below_is_one_finding():
    notebook = nb(code("x = 1", 1), code("print(k)", 2, failed()), code("k = 3"))
    assert serious(notebook) == [("ND201", 1, ("k",))]
    notebook = nb(code("print(k)", 2, failed()), code("x = 1", 1), code("def f():\n    pass\nk = 3"))
    assert serious(notebook) == [("ND201", 0, ("k",))]
    notebook = nb(code("k = 3"), code("print(k)", 2, failed()))  # above: only the live kernel lacks it
    assert serious(notebook) == [("ND104", 1, ("k",))]


def test_a_python3_cell_broken_after_its_run_does_not_make_the_notebook_python2():
    # no version saved; the cell ran, then was edited into a typo (its old output stays)
    notebook = nb(code("day = '2019-01-05'\nprinter = make(day\n", 1, out("ok")), metadata={})
    assert [f.code for f in nbdeps.check(notebook) if f.code in ("ND001", "ND002")] == ["ND001"]


def test_the_rerun_order_ignores_what_a_cell_that_does_not_parse_reads():
    notebook = nb(code("shown = totl * 2\nplot the total against the day"), code("x = 1"), code("print(x)"))
    assert nbdeps.rerun_order(notebook) == (0, 1, 2)
    assert [e.names for e in nbdeps.build_graph(notebook).edges] == [("x",)]


# -- issue 24, second sample: classes met on third-party notebooks -------------------------

def test_a_notebook_jupytext_built_from_an_r_script_is_not_read_as_python(tmp_path):
    # jupytext writes no kernelspec for a converted script, only the script's language
    notebook = nb(code("plot(cars)"), code("x <- rnorm(100)\nmean(x)"),
                  metadata={"jupytext": {"main_language": "R", "notebook_metadata_filter": "-all"}})
    path = tmp_path / "knitr.ipynb"
    nbformat.write(notebook, path)
    try:
        nbdeps.load_notebook(path)
    except nbdeps.NotebookError as exc:
        assert str(exc) == f"{path}: a notebook in R (jupytext's main_language); nbdeps reads Python notebooks only"
    else:
        raise AssertionError("an R notebook was read as Python")
    notebook.metadata["jupytext"]["main_language"] = "python"
    assert {f.code for f in nbdeps.check(notebook)} == {"ND101"}  # read as Python, R is nonsense


def test_a_swap_by_unpacking_is_one_non_idempotent_finding_that_shows_the_statement():
    notebook = nb(code("i, j = 1, 1", 1), code("for m in range(10):\n    j, i = i + j, j\n    print(j)", 2),
                  code("[i, j] = j, i + j", 3))
    found = [(f.cell_index, f.names, f.line, f.message) for f in nbdeps.check(notebook) if f.code == "ND401"]
    assert found == [
        (1, ("j", "i"), 2, "not idempotent: `j, i = i + j, j` rebinds j, i from themselves; a second run applies it again"),
        (2, ("i", "j"), 1, "not idempotent: `[i, j] = j, i + j` rebinds i, j from themselves; a second run applies it "
                           "again"),
    ]


def test_counts_missing_before_a_cell_read_as_one_or_several():
    notebook = nb(code("a = 1", 1), code("b = 2", 3), code("c = 3", 7))
    messages = [f.message for f in nbdeps.check(notebook) if f.code == "ND502"]
    assert messages == [
        "execution count 2 is missing before this cell: a cell that ran was deleted, re-run or its output cleared",
        "execution counts 4-6 are missing before this cell: cells that ran were deleted, re-run or their output "
        "cleared",
    ]


def test_several_unknown_sources_in_one_cell_define_in_the_plural():
    notebook = nb(code("from not_here_a import *\nfrom not_here_b import *", 1))
    (finding,) = [f for f in nbdeps.check(notebook) if f.code == "ND601"]
    assert finding.message == "`from not_here_a import *`, `from not_here_b import *` define names nbdeps cannot list"
