"""The saved outputs as the specification (issue 26): comparing a run with what the old
notebook printed, the knowledge base of changed defaults and its repairs, candidates from
a traceback's frames, and removed keywords that no repair may drop."""

from __future__ import annotations

import ast
import inspect
import json
import warnings
from importlib import import_module

import nbformat
import pytest

from benchkit._modernize import apply_codemods
from benchkit._modernize._codemods._removed import unfaithful_drop
from benchkit._modernize._defaults import (CHANGED_DEFAULTS, entries_in, for_frames, spell_out,
                                           unfaithful_calls)
from benchkit._modernize._runner import frames
from benchkit._modernize._saved import comparable, deviations, saved_outputs


def stream(text: str, name: str = "stdout") -> dict:
    return nbformat.v4.new_output("stream", name=name, text=text)


def result(text: str, **more: str) -> dict:
    return nbformat.v4.new_output("execute_result", data={"text/plain": text, **more},
                                  execution_count=1)


def notebook(*outputs: list) -> nbformat.NotebookNode:
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_markdown_cell("# old")]
    for k, outs in enumerate(outputs):
        cell = nbformat.v4.new_code_cell(f"x{k}")
        cell.id = f"c{k}"
        cell.outputs = outs
        nb.cells.append(cell)
    return nb


# -- comparing outputs --------------------------------------------------------------------

def test_a_number_off_by_more_than_the_tolerance_names_the_cell_and_both_values():
    saved = saved_outputs(notebook([stream("(600, 5)\n")], [stream("test accuracy: 0.9467\n")]))
    assert not deviations(saved, notebook([stream("(600, 5)\n")], [stream("test accuracy: 0.9501\n")]))
    found = deviations(saved, notebook([stream("(600, 5)\n")], [stream("test accuracy: 0.8133\n")]))
    assert [(d.cell, d.kind, d.old, d.new) for d in found] == [(2, "value", "0.9467", "0.8133")]
    assert found[0].message == "cell 3 [2] prints 0.8133 where the old notebook printed 0.9467"
    # integers (shapes, counts, folds) must be equal, whatever the tolerance
    found = deviations(saved, notebook([stream("(600, 6)\n")], [stream("test accuracy: 0.9467\n")]),
                       tolerance=0.5)
    assert [(d.cell, d.old, d.new) for d in found] == [(1, "5", "6")]


def test_a_changed_table_header_or_a_missing_output_is_a_deviation():
    old = "      tenure  charges\nplan\nbasic  36.4  70.1"
    new = "      tenure  charges  region\nplan\nbasic  36.4  70.1  northsouth"
    saved = saved_outputs(notebook([result(old)], [stream("done\n")]))
    found = deviations(saved, notebook([result(new)], []))
    assert [(d.cell, d.kind) for d in found] == [(1, "text"), (2, "missing")]
    assert found[0].old == "tenure  charges" and found[0].new == "tenure  charges  region"
    assert "where the old notebook printed 'done'" in found[1].message


def test_what_only_the_library_version_changes_is_not_compared():
    saved = saved_outputs(notebook(
        [stream("UserWarning: old\n", "stderr"), result("<matplotlib.figure.Figure at 0x7f3a2b>"),
         result("[<matplotlib.lines.Line2D at 0x10>]")],
        [result("RandomForestClassifier(bootstrap=True, class_weight=None, n_estimators=10)")],
        [result("[0.5, 3, True]")], [stream("fit in 3.2 s at 0x7f01\n")]))
    now = notebook([stream("FutureWarning: new\n", "stderr"), result("<Figure size 640x480 with 1 Axes>")],
                   [result("RandomForestClassifier(n_estimators=10)")],
                   [result("[np.float64(0.5), np.int64(3), np.True_]")],
                   [stream("fit in 0.4 s at 0x5e02\n")])
    assert not deviations(saved, now)
    assert comparable([result("<image/png>"), {"output_type": "display_data",
                                               "data": {"image/png": "iVBO"}}]) == ()


def test_a_notebook_with_no_saved_outputs_has_no_specification():
    saved = saved_outputs(notebook([], []))
    assert not saved and deviations(saved, notebook([stream("1\n")], [stream("2\n")])) == ()
    # a saved error is no specification either: the repair is meant to get past it
    err = nbformat.v4.new_output("error", ename="KeyError", evalue="'x'", traceback=[])
    assert not saved_outputs(notebook([stream("before\n"), err]))


def test_malformed_saved_outputs_are_skipped_and_named_not_a_traceback():
    nb = notebook([stream("1\n")], [stream("2\n")])
    # odd values inside an output are read as far as they go
    nb.cells[1]["outputs"] = [{"output_type": "stream", "name": "stdout", "text": ["a", 3]},
                              {"output_type": "execute_result", "data": "x"}]
    # an output that is not one makes the cell's saved outputs untrustworthy: skipped
    nb.cells[2]["outputs"] = [{"output_type": "stream", "name": "stdout", "text": "2\n"}, "junk"]
    saved = saved_outputs(nb)
    assert saved.by_index == {1: ("a",)}
    assert saved.skipped == ("cell 3 [2]: its saved outputs are not a list of outputs; "
                             "not compared",)
    bad = notebook([])
    bad.cells[1]["outputs"] = 7
    assert not saved_outputs(bad) and len(saved_outputs(bad).skipped) == 1


def test_cells_are_matched_by_id_when_a_repair_added_cells():
    saved = saved_outputs(notebook([stream("1\n")], [stream("2\n")]))
    now = notebook([stream("1\n")], [stream("3\n")])
    now.cells.insert(1, nbformat.v4.new_code_cell("import x"))
    found = deviations(saved, now)
    assert [(d.cell, d.old, d.new) for d in found] == [(3, "2", "3")]


# -- the knowledge base of changed defaults --------------------------------------------------

def _target(path: str):
    module, _, name = path.rpartition(".")
    return getattr(import_module(module), name)


_OWNERS = {"GroupBy": "pandas.core.groupby.GroupBy", "DataFrame": "pandas.DataFrame",
           "Series": "pandas.Series",
           "StringMethods": "pandas.core.strings.accessor.StringMethods"}


@pytest.mark.parametrize("entry", CHANGED_DEFAULTS, ids=lambda e: e.id)
def test_every_changed_default_is_today_s_signature_and_its_old_value_is_accepted(entry):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        targets = [_target(c) for c in entry.callables]
        targets += [getattr(_target(_OWNERS[m.split(".")[0]]), m.split(".")[1])
                    for m in entry.methods]
    assert targets
    if entry.result is not None:
        return  # a changed result: see the behaviour test below
    places = []
    for target in targets:
        params = inspect.signature(target).parameters
        assert params[entry.keyword].default == entry.now, (target, entry.keyword)
        positional = [p.name for p in params.values() if p.kind == p.POSITIONAL_OR_KEYWORD
                      and p.name != "self"]
        if entry.keyword in positional:
            places.append(positional.index(entry.keyword))
    # the first place it may be passed by position (a call passing that many is left alone)
    assert (min(places) if places else None) == entry.position
    for target in targets:
        required = [p for p in inspect.signature(target).parameters.values()
                    if p.default is p.empty and p.kind == p.POSITIONAL_OR_KEYWORD]
        if inspect.isclass(target) and target.__module__.startswith("sklearn") and not required:
            # the old value is a valid setting today (checked when fitting: get_params shows it)
            model = target(**{entry.keyword: ast.literal_eval(entry.old)})
            assert model.get_params()[entry.keyword] == ast.literal_eval(entry.old)


def test_changed_defaults_behave_as_the_entries_say():
    import numpy as np
    import pandas as pd
    from sklearn.model_selection import cross_val_score
    from sklearn.tree import DecisionTreeClassifier

    s = pd.Series(["a", "b", "a"], name="city")
    assert (s.value_counts().name, s.value_counts().index.name) == ("count", "city")
    old = s.value_counts().rename(s.name).rename_axis(None)  # the entry's template
    assert list(old.reset_index().columns) == ["index", "city"]
    assert pd.get_dummies(s).dtypes.iloc[0] == bool
    assert pd.Series(["$1,2"]).str.replace("[$,]", "").iloc[0] == "$1,2"
    frame = pd.DataFrame({"g": ["x", "x"], "t": ["p", "q"], "v": [1.0, 3.0]})
    with pytest.raises(TypeError):
        frame.groupby("g").mean()
    X, y = np.arange(40.0).reshape(20, 2), np.arange(20) % 2
    assert len(cross_val_score(DecisionTreeClassifier(), X, y)) == 5  # cv=None: 5 folds


def test_old_defaults_are_spelled_out_where_the_call_leaves_them_to_the_library():
    code = {1: "from sklearn.ensemble import RandomForestClassifier as RF\nimport pandas as pd\n",
            2: "a = RF(max_depth=3)\nb = RF(50)\nc = RF(n_estimators=20)\nd = RF(**kw)\n",
            3: "x = df.price.str.replace('[$,]', '')\ny = df.a.str.replace('-', '')\n"
               "z = df.groupby('k').mean()\nw = np.sum(v)\n"}
    entries = {e.id: e for e in CHANGED_DEFAULTS}
    out = spell_out(code, [entries["sklearn-forest-n-estimators"]], [1, 2, 3])
    assert out == {2: "a = RF(max_depth=3, n_estimators=10)\nb = RF(50)\nc = RF(n_estimators=20)\n"
                      "d = RF(**kw)\n"}
    out = spell_out(code, [entries["pandas-str-replace-regex"]], [3])
    assert "str.replace('[$,]', '', regex=True)" in out[3]
    assert "str.replace('-', '')" in out[3]  # a plain pattern reads the same either way
    assert [e.id for e, _ in entries_in(code, [3])] == [
        "pandas-groupby-numeric-only", "pandas-frame-numeric-only",
        "pandas-str-replace-regex"]  # np.sum is a function, not a method
    wrap = spell_out({1: "from sklearn.linear_model import LogisticRegression\n",
                      2: "m = LogisticRegression(C=2)\n"}, [entries["sklearn-logistic-ovr"]], [1, 2])
    assert wrap[2] == "m = OneVsRestClassifier(LogisticRegression(C=2, solver='liblinear'))\n"
    assert wrap[1].startswith("from sklearn.multiclass import OneVsRestClassifier\n")
    counts = spell_out({1: "import pandas as pd\n", 2: "c = df.city.value_counts().reset_index()\n"},
                       [entries["pandas-value-counts-name"]], [2])
    assert counts[2] == ("c = df.city.value_counts().rename(df.city.name).rename_axis(None)"
                         ".reset_index()\n")


def test_a_traceback_s_frames_name_the_entries_of_the_functions_it_went_through():
    tb = ("\x1b[0;31mTypeError\x1b[0m",
          "File \x1b[0;32m/v/lib/python3.11/site-packages/pandas/core/groupby/groupby.py:2452\x1b[0m, "
          "in \x1b[0;36mGroupBy.mean\x1b[0;34m(self, numeric_only)\x1b[0m",
          "File /v/lib/python3.11/site-packages/sklearn/linear_model/_logistic.py:1466, in "
          "LogisticRegression.fit(self, X, y)", "Cell In[3], line 1")
    assert frames(tb) == ("pandas.core.groupby.groupby:GroupBy.mean",
                          "sklearn.linear_model._logistic:LogisticRegression.fit")
    assert [e.id for e in for_frames(frames(tb))] == [
        "pandas-groupby-numeric-only", "sklearn-logistic-solver", "sklearn-logistic-ovr"]
    assert for_frames(("pandas.core.series:Series.map",)) == ()


# -- removed keywords no repair may drop ------------------------------------------------------

def test_a_removed_keyword_that_did_something_is_not_dropped_and_the_report_says_why():
    code = ("from sklearn.linear_model import Ridge, LinearRegression\n"
            "m = Ridge(alpha=1.0, normalize=True)\nl = LinearRegression(normalize=True)\n"
            "r = Ridge(normalize=False)\n")
    new, applied = apply_codemods(code)
    assert "Ridge(alpha=1.0, normalize=True)" in new  # kept: nothing does that today
    assert "LinearRegression()" in new and "Ridge()" in new  # least squares; the default
    assert unfaithful_drop("Ridge", "normalize", "False") is None
    notes = unfaithful_calls({1: new})
    assert len(notes) == 1 and notes[0][0] == 1
    assert notes[0][1].startswith("Ridge(normalize=True): normalize= was removed in "
                                  "scikit-learn 1.2")


def test_the_resolvers_never_offer_to_drop_such_a_keyword():
    from benchkit._modernize._model import Classification
    from benchkit._modernize._resolve import candidates

    cls = Classification(kind="error", message="", cell=1, ename="TypeError", lines=(2,),
                         evalue="Ridge.__init__() got an unexpected keyword argument 'normalize'")
    code = {1: "from sklearn.linear_model import Ridge\nm = Ridge(alpha=1.0, normalize=True)\n"}
    assert not any("dropped" in c.label for c in candidates(code, cls))
    cls = Classification(kind="error", message="", cell=1, ename="TypeError", lines=(2,),
                         evalue="KMeans.__init__() got an unexpected keyword argument 'n_jobs'")
    code = {1: "from sklearn.cluster import KMeans\nm = KMeans(3, n_jobs=2)\n"}
    assert [c.label for c in candidates(code, cls)][-1] == "keyword n_jobs= dropped"


def test_report_json_round_trips_the_new_fields(tmp_path):
    from benchkit._modernize._model import ModernizeResult

    r = ModernizeResult(notebook="a.ipynb", out_dir="o", final_notebook="o/a.ipynb",
                        reproduced=False, final_kind="score", stop_reason="x", rounds=(),
                        similarity=0.9, equivalence="not-compared", saved_cells=3,
                        outputs_match=False, deviations_found=("cell 2 prints 1",),
                        deviations_left=("cell 2 prints 1",), unfaithful=("n",))
    back = ModernizeResult.from_dict(json.loads(json.dumps(r.to_dict())))
    assert back == r
