"""The patch schema, bad patch documents, and atomic notebook writes."""

from __future__ import annotations

import json
import os

import nbformat
import pytest

import nbpatch


@pytest.mark.parametrize(
    ("document", "message"),
    [
        ("not json", r"p.json: not JSON"),
        ('{"base": {}, "ops": []}', r"p.json: does not match the patch schema at top level: "
                                    r"'nbpatch' is a required property"),
        ('{"nbpatch": 1, "base": {}, "ops": [{"op": "delete"}]}', r"at ops/0"),
        ('{"nbpatch": 1, "base": {}, "ops": [{"op": "explode", "cell": "a"}]}', r"at ops/0"),
        ('{"nbpatch": 2, "base": {}, "ops": []}', r"at nbpatch"),
        ('{"nbpatch": 1, "base": {"a": 3}, "ops": []}', r"at base/a"),
        ('{"nbpatch": 1, "base": {}, "ops": [{"op": "replace_source", "cell": "a", '
         '"hunks": [{"at": -1, "delete": [], "insert": []}]}]}', r"at ops/0"),
    ],
)
def test_bad_patch_documents_name_what_is_wrong(document, message):
    with pytest.raises(nbpatch.PatchError, match=message):
        nbpatch.Patch.from_json(document, source="p.json")


def test_schema_is_plain_json():
    assert json.loads(json.dumps(nbpatch.PATCH_SCHEMA)) == nbpatch.PATCH_SCHEMA
    assert nbpatch.PATCH_SCHEMA["required"] == ["nbpatch", "base", "ops"]


def test_patch_is_read_only(nb):
    b = nb("x = 2")
    patch = nbpatch.diff(nb("x = 1"), b)
    with pytest.raises(TypeError):
        patch.base["c0"] = "other"  # type: ignore[index]


def test_write_notebook_round_trips_metadata(nb, tmp_path):
    original = nb("# T", "x = 1")
    original.metadata["custom"] = {"deep": [1, 2, {"k": "v"}]}
    original.cells[1].metadata["tags"] = ["a"]
    target = tmp_path / "n.ipynb"
    nbpatch.write_notebook(original, target)
    assert nbformat.read(target, 4) == original
    assert [p.name for p in tmp_path.iterdir()] == ["n.ipynb"]


def test_failed_write_leaves_the_original_whole(nb, tmp_path):
    target = tmp_path / "n.ipynb"
    nbpatch.write_notebook(nb("x = 1"), target)
    before = target.read_bytes()
    broken = nb("x = 2")
    broken.cells[0]["source"] = object()  # not serialisable
    with pytest.raises(nbpatch.NotebookError, match=r"n.ipynb: cannot serialise"):
        nbpatch.write_notebook(broken, target)
    assert target.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir()] == ["n.ipynb"]


def test_write_keeps_the_file_mode(nb, tmp_path):
    target = tmp_path / "n.ipynb"
    nbpatch.write_notebook(nb("x = 1"), target)
    os.chmod(target, 0o600)
    nbpatch.write_notebook(nb("x = 2"), target)
    assert target.stat().st_mode & 0o777 == 0o600


def test_old_nbformat_is_upgraded_on_read(tmp_path):
    v3 = {"nbformat": 3, "nbformat_minor": 0, "metadata": {},
          "worksheets": [{"cells": [{"cell_type": "code", "input": "x = 1", "outputs": [],
                                     "language": "python"}]}]}
    (tmp_path / "old.ipynb").write_text(json.dumps(v3))
    nb = nbpatch.read_notebook(tmp_path / "old.ipynb")
    assert [c.source for c in nb.cells] == ["x = 1"]
