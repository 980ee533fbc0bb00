"""The rebuilt JunoBench cases: from the saved notebook alone, the NBspecific crashes are
errors on their target cell, the fixed versions have no error, and no other sample
notebook gets an error (each of those was reviewed by hand)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import nbdeps

SAMPLE = Path(__file__).resolve().parents[3] / "tests" / "junobench-sample"  # shipped in the repo


def cases():
    if not SAMPLE.is_dir():
        return []
    return sorted(p.name for p in SAMPLE.iterdir() if (p / "case.json").is_file())


def target(case):
    return json.loads((SAMPLE / case / "case.json").read_text())["target_cell_id"]


@pytest.fixture(autouse=True)
def _needs_sample():
    if not SAMPLE.is_dir():
        pytest.skip("JunoBench sample not present (tests/junobench-sample)")


@pytest.mark.parametrize(("case", "code", "names"), [
    ("NBspecific_13", "ND101", {"X", "y", "accuracy_score"}),
    ("NBspecific_5", "ND402", {"df", "numeric_columns"}),
])
def test_nbspecific_reproduced_crash_is_an_error_on_the_target(case, code, names):
    findings = nbdeps.check(SAMPLE / case / f"{case}_reproduced.ipynb")
    errors = [f for f in findings if f.severity == "error"]
    assert errors and {f.cell_id for f in errors} == {target(case)}
    assert {f.code for f in errors} == {code}
    assert set().union(*(f.names for f in errors)) == names


@pytest.mark.parametrize("case", ["NBspecific_13", "NBspecific_5"])
def test_nbspecific_fixed_has_no_error(case):
    findings = nbdeps.check(SAMPLE / case / f"{case}_fixed.ipynb")
    assert [f for f in findings if f.severity != "info"] == []


def test_fixed_nbspecific_5_notes_the_non_idempotent_target():
    findings = nbdeps.check(SAMPLE / "NBspecific_5" / "NBspecific_5_fixed.ipynb")
    assert {(f.code, f.cell_id) for f in findings if f.code == "ND401"} == {("ND401", "d52cf4e5")}


@pytest.mark.parametrize("notebook", [
    f"{case}/{case}_{kind}.ipynb" for case in cases() if not case.startswith("NBspecific")
    for kind in ("reproduced", "fixed")])
def test_other_sample_notebooks_get_no_error_or_warning(notebook):
    # their crashes are library misuse, not execution history: nothing to report here
    findings = nbdeps.check(SAMPLE / notebook)
    assert [f for f in findings if f.severity != "info"] == []
