"""Hypothesis round trips: apply(a, diff(a, b)) equals b on the compared parts, for any pair."""

from __future__ import annotations

import json

import jsonschema
import nbformat
from hypothesis import given, settings
from hypothesis import strategies as st

import nbpatch

LINES = st.sampled_from(
    ["x = 1\n", "y = x + 1\n", "print(x)\n", "# why\n", "\n", "df = load()\n", "import os\n",
     "for i in range(3):\n", "    total += i\n", "fit(model)", "", "é = 'ü'\n"]
)
SOURCE = st.lists(LINES, max_size=5).map("".join)
CELL = st.fixed_dictionaries({
    "cell_type": st.sampled_from(["code", "code", "markdown", "raw"]),
    "source": SOURCE,
    "tag": st.sampled_from([None, "a", "b"]),
    "out": st.sampled_from([None, "1\n", "2\n"]),
})


def _notebook(specs, ids, prefix="c"):
    nb = nbformat.v4.new_notebook()
    if not ids:
        nb.nbformat_minor = 4
    for k, spec in enumerate(specs):
        cell = {"cell_type": spec["cell_type"], "source": spec["source"],
                "metadata": {"tags": [spec["tag"]]} if spec["tag"] else {}}
        if spec["cell_type"] == "code":
            cell["outputs"] = ([{"output_type": "stream", "name": "stdout", "text": spec["out"]}]
                               if spec["out"] else [])
            cell["execution_count"] = None
        if ids:
            cell["id"] = spec.get("id", f"{prefix}{k}")
        nb.cells.append(nbformat.from_dict(cell))
    return nb


@st.composite
def pairs(draw):
    ids = draw(st.booleans())
    a_specs = draw(st.lists(CELL, max_size=8))
    for k, spec in enumerate(a_specs):
        spec["id"] = f"c{k}"
    if draw(st.booleans()):  # an unrelated notebook
        b_specs = draw(st.lists(CELL, max_size=8))
        for k, spec in enumerate(b_specs):
            spec["id"] = f"n{k}"
    else:  # a mutated copy: shuffle, edit, drop, add
        b_specs = [dict(s) for s in draw(st.permutations(a_specs))]
        for spec in b_specs:
            if draw(st.integers(0, 3)) == 0:
                spec["source"] = draw(SOURCE)
            if draw(st.integers(0, 5)) == 0:
                spec["out"] = draw(st.sampled_from([None, "3\n"]))
        keep = draw(st.lists(st.booleans(), min_size=len(b_specs), max_size=len(b_specs)))
        b_specs = [s for s, k in zip(b_specs, keep) if k or draw(st.booleans())]
        for k, extra in enumerate(draw(st.lists(CELL, max_size=3))):
            extra["id"] = f"n{k}"
            b_specs.insert(draw(st.integers(0, len(b_specs))), extra)
    return _notebook(a_specs, ids), _notebook(b_specs, ids)


@settings(max_examples=80, deadline=None)
@given(pairs())
def test_apply_of_diff_gives_b(pair):
    a, b = pair
    patch = nbpatch.diff(a, b)
    assert [(c.cell_type, c.source) for c in nbpatch.apply(a, patch).cells] == [
        (c.cell_type, c.source) for c in b.cells]


@settings(max_examples=60, deadline=None)
@given(pairs())
def test_apply_of_full_diff_gives_b_with_outputs_and_metadata(pair):
    a, b = pair
    patch = nbpatch.diff(a, b, compare_outputs=True, compare_metadata=True)
    result = nbpatch.apply(a, patch)

    def parts(nb):
        return [(c.cell_type, c.source, c.metadata, c.get("outputs")) for c in nb.cells]

    assert parts(result) == parts(b)
    ids = [c.get("id") for c in result.cells if c.get("id")]
    assert len(ids) == len(set(ids))
    nbformat.validate(result)


@settings(max_examples=60, deadline=None)
@given(pairs())
def test_patch_json_round_trips_and_matches_the_schema(pair):
    a, b = pair
    patch = nbpatch.diff(a, b, compare_outputs=True, compare_metadata=True)
    jsonschema.validate(json.loads(patch.to_json()), nbpatch.PATCH_SCHEMA)
    assert nbpatch.Patch.from_json(patch.to_json()) == patch


@settings(max_examples=50, deadline=None)
@given(pairs())
def test_diff_of_a_notebook_with_itself_is_empty_and_similarity_is_one(pair):
    a, _ = pair
    assert not nbpatch.diff(a, a, compare_outputs=True, compare_metadata=True)
    assert nbpatch.similarity(a, a) == 1.0
    assert nbpatch.similarity(a, a, per_cell=True) == 1.0
