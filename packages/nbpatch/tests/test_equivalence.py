"""Functional equivalence through real kernels (kept few and small: each kernel costs ~1-2 s)."""

from __future__ import annotations

import json

import pytest

import nbpatch
from nbpatch.cli import main

pytestmark = pytest.mark.kernel

NOISY = (
    "import datetime, random\nclass Model: pass\nprint(Model(), datetime.datetime.now())",
    "import sys, time\nfor k in range(3):\n    print(f'\\r{k}/3 [{\"=\" * k}>] {k * 0.1:.1f}s', end='')\nprint()",
    "n = 10\ntotal = sum(range(n)) / 3\nprint(n, total)",
)
SEEDED = (
    "import random\nrandom.seed(SEED)\nsample = [random.gauss(1.0, 0.05) for _ in range(400)]",
    "score = sum(sample) / len(sample)",
)


def test_equal_notebooks_are_equivalent_despite_addresses_times_and_bars(nb):
    verdict = nbpatch.equivalent(nb(*NOISY), nb(*NOISY), variables=("n", "total"),
                                 score="total")
    assert verdict.differences == ()
    assert verdict.equivalent and verdict.score.reproduced
    assert verdict.score.original == verdict.score.modified == (15.0,)


def test_changed_constant_differs_in_output_and_variable(nb):
    b = nb(*NOISY)
    b.cells[2].source = "n = 11\ntotal = sum(range(n)) / 3\nprint(n, total)"
    verdict = nbpatch.equivalent(nb(*NOISY), b, variables=("n",))
    assert not verdict.equivalent
    output, variable = verdict.differences
    assert (output.kind, output.cell, output.expected, output.actual) == (
        "output", "c2", "10 15.0", "11 18.333333333333332")
    assert (variable.kind, variable.variable) == ("variable", "n")
    assert json.loads(variable.actual) == {"type": "builtins.int", "value": 11}


@pytest.mark.parametrize(("tolerance", "reproduced"), [(0.1, True), (0.0, False)])
def test_changed_seed_is_equivalent_only_within_tolerance(nb, tolerance, reproduced):
    a = nb(SEEDED[0].replace("SEED", "0"), SEEDED[1])
    b = nb(SEEDED[0].replace("SEED", "1"), SEEDED[1])
    verdict = nbpatch.equivalent(a, b, score="score", tolerance=tolerance)
    assert verdict.score.reproduced is reproduced
    assert 0 < verdict.score.relative_change < 0.01
    assert verdict.equivalent is reproduced
    assert [d.kind for d in verdict.differences] == ([] if reproduced else ["score"])


def test_extra_print_and_a_new_error_are_listed_cell_by_cell(nb):
    a = nb("x = 1", "y = x + 1", "z = 3")
    b = nb("x = 1", "y = x + 1\nprint('debug', y)", "print('new cell')", "z = 3 / 0")
    b.cells[2].id, b.cells[3].id = "extra", "c2"
    verdict = nbpatch.equivalent(a, b)
    assert [(d.kind, d.cell) for d in verdict.differences] == [
        ("output", "c1"), ("added", "extra"), ("error", "c2")]
    assert verdict.differences[2].message == "raises ZeroDivisionError: division by zero"


def test_repeated_runs_use_a_one_sample_t_test(nb, tmp_path):
    # Each run reads and bumps a counter file, so the score moves a little from run to run.
    counter = "import pathlib\np = pathlib.Path('runs.txt')\nk = int(p.read_text()) + 1 if p.exists() else 1\np.write_text(str(k))"
    a = nb(counter, "score = 1 + 0.01 * k")
    b = nb(counter, "score = 2 + 0.01 * k")
    verdict = nbpatch.equivalent(a, b, score="score", runs=2, cwd=tmp_path)
    assert verdict.score.original == (1.01, 1.02)
    assert verdict.score.modified == (2.03, 2.04)
    assert verdict.score.p_value < 0.05 and not verdict.score.reproduced
    assert verdict.runs == 2


def test_cli_equiv_json_reports_the_difference(nb, tmp_path, capsys):
    nbpatch.write_notebook(nb("print(1.5)"), tmp_path / "a.ipynb")
    nbpatch.write_notebook(nb("print(2.5)"), tmp_path / "b.ipynb")
    assert main(["equiv", "--json", str(tmp_path / "a.ipynb"), str(tmp_path / "b.ipynb")]) == 1
    report = json.loads(capsys.readouterr().out)
    assert report["equivalent"] is False
    assert report["differences"][0]["cell"] == "c0"


FRAME = ("import numpy as np, pandas as pd\n"
         "rng = np.random.default_rng(0)\n"
         "df = pd.DataFrame({'id': np.arange(1000), 'x': rng.random(1000),\n"
         "                   'label': [f'r{k}' for k in range(1000)]})\n"
         "EDIT\n"
         "df")


@pytest.mark.parametrize(("edit", "message"), [
    ("df.loc[500, 'x'] += 0.5", "displayed values differ: column 'x': row 500: "),
    ("df.loc[500, 'id'] = -1", "displayed values differ: column 'id': values differ"),
    ("df.loc[500, 'label'] = 'changed'", "displayed values differ: column 'label': values differ"),
])
def test_dataframes_differing_at_row_500_are_not_equivalent(nb, edit, message):
    # the displayed repr shows rows 0-4 and 995-999 only: the same text for both versions
    a, b = nb(FRAME.replace("EDIT", "")), nb(FRAME.replace("EDIT", edit))
    verdict = nbpatch.equivalent(a, b, variables=("df",))
    assert not verdict.equivalent
    output, variable = verdict.differences
    assert output.kind == "output" and output.message.startswith(message)
    assert output.expected == output.actual  # the truncated text alone would say "equal"
    assert (variable.kind, variable.variable) == ("variable", "df")
    assert variable.message.startswith("values differ: column ")


def test_float_noise_below_the_tolerance_is_equivalent(nb):
    a = nb(FRAME.replace("EDIT", ""), "arr = df['x'].to_numpy() * 3\narr",
           "import torch\nt = torch.tensor(arr)\nt", "nested = {'a': [df['x'].sum(), 1]}\nnested")
    b = nb(FRAME.replace("EDIT", "df['x'] = df['x'] + 1e-12"),
           "arr = df['x'].to_numpy() * 3\narr", "import torch\nt = torch.tensor(arr)\nt",
           "nested = {'a': [df['x'].sum(), 1]}\nnested")
    verdict = nbpatch.equivalent(a, b, variables=("df", "arr", "t", "nested"))
    assert verdict.differences == () and verdict.equivalent


def test_arrays_tensors_and_nested_containers_are_compared_by_value(nb):
    setup = ("import numpy as np, torch\nbig = np.zeros(200_000)\nt = torch.zeros(5000)\n"
             "series = [big[:3000].tolist(), {'k': np.zeros(10)}]\nEDIT")
    a = nb(setup.replace("EDIT", ""))
    b = nb(setup.replace("EDIT", "big[150_000] = 1.0\nt[4000] = 2.0\nseries[1]['k'][7] = 3.0"))
    verdict = nbpatch.equivalent(a, b, variables=("big", "t", "series"))
    by_name = {d.variable: d.message for d in verdict.differences}
    assert by_name == {
        # beyond the whole-value budget: sums of blocks find the changed value
        "big": "values differ: the block of values starting at value 150000: sum 0.0 vs 1.0",
        "t": "values differ: value 4000: 0.0 vs 2.0",
        "series": "values differ: [1]['k']: value 7: 0.0 vs 3.0",
    }


def test_text_output_names_cells_by_position_and_id(nb):
    from nbpatch._render import render_equivalence

    a = nb("# Title", "print(1)")
    b = nb("# Title", "print(2)")
    verdict = nbpatch.equivalent(a, b)
    (difference,) = verdict.differences
    assert (difference.cell_position, difference.cell_id) == (2, "c1")
    # position counting every cell, the execution count of the run, the id
    assert render_equivalence(verdict).splitlines()[1] == \
        "cell 2 [1] (id c1): output: outputs differ"
    data = verdict.to_dict()["differences"][0]  # JSON: 1-based only, the count its own field
    assert (data["cell_position"], data["position_a"], data["position_b"],
            data["execution_count"]) == (2, 2, 2, 1)
    assert "index_a" not in data and "index_b" not in data


def test_two_versions_that_crash_the_same_way_are_not_called_plain_equivalent(nb, tmp_path,
                                                                              capsys):
    from nbpatch._render import render_equivalence

    a = nb("import pandas as pd\ndf = pd.DataFrame({'price': [1.0]})", "df['Price'].sum()")
    b = nb("import pandas as pd\ndf = pd.DataFrame({'price': [1.0]})",
           "df['Price'].sum()  # the total")
    verdict = nbpatch.equivalent(a, b)
    assert verdict.equivalent and verdict.both_crash and verdict.errors_match
    assert verdict.modified_crash == nbpatch.Crash(cell_position=2, cell_id="c1",
                                                   execution_count=2, status="error",
                                                   ename="KeyError", evalue="'Price'")
    assert render_equivalence(verdict).splitlines() == [
        "both crash, with the same error: neither runs to the end; nothing else differs",
        "original crashes at cell 2 [2] (id c1): KeyError: 'Price'",
        "modified crashes at cell 2 [2] (id c1): KeyError: 'Price'"]
    nbformat_write = __import__("nbformat").write
    nbformat_write(a, tmp_path / "a.ipynb")
    nbformat_write(b, tmp_path / "b.ipynb")
    assert main(["equiv", str(tmp_path / "a.ipynb"), str(tmp_path / "b.ipynb")]) == 0
    assert capsys.readouterr().out.startswith("both crash, with the same error")
    assert main(["equiv", str(tmp_path / "a.ipynb"), str(tmp_path / "b.ipynb"), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert (report["both_crash"], report["errors_match"]) == (True, True)
    assert report["original_crash"]["cell_position"] == 2


def test_versions_crashing_with_different_errors_say_both_and_which(nb):
    from nbpatch._render import render_equivalence

    a = nb("x = {'a': 1}", "x['b']")
    b = nb("x = {'a': 1}", "x.b")
    verdict = nbpatch.equivalent(a, b)
    assert not verdict.equivalent and verdict.both_crash and verdict.errors_match is False
    lines = render_equivalence(verdict).splitlines()
    assert lines[:3] == [
        "both crash, with different errors: neither runs to the end; different (1)",
        "original crashes at cell 2 [2] (id c1): KeyError: 'b'",
        "modified crashes at cell 2 [2] (id c1): AttributeError: 'dict' object has no attribute 'b'"]
    fixed = nbpatch.equivalent(a, nb("x = {'a': 1}", "x.get('b')"))
    assert not fixed.both_crash and fixed.errors_match is None
    assert render_equivalence(fixed).splitlines()[1:3] == [
        "original crashes at cell 2 [2] (id c1): KeyError: 'b'", "modified runs to the end"]
