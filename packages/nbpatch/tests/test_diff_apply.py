"""diff and apply: cell operations, alignment, conflicts."""

from __future__ import annotations

import copy

import pytest

import nbpatch
from nbpatch import (
    DeleteCell,
    Hunk,
    InsertCell,
    MoveCell,
    Patch,
    PatchConflict,
    ReplaceSource,
    SetMetadata,
    SetOutputs,
)

BASE = ("# Title", "import os\nx = 1\n", "print(x)", "y = x + 1")


def test_identical_notebooks_give_an_empty_patch(nb):
    patch = nbpatch.diff(nb(*BASE), nb(*BASE))
    assert patch == Patch(base={}, ops=())
    assert not patch


def test_edited_cell_is_a_line_hunk(nb):
    b = nb(*BASE)
    b.cells[1].source = "import os\nx = 2\n"
    patch = nbpatch.diff(nb(*BASE), b)
    assert patch.ops == (
        ReplaceSource(cell="c1", hunks=(Hunk(at=1, delete=("x = 1\n",), insert=("x = 2\n",)),)),
    )
    assert set(patch.base) == {"c1"}


def test_inserted_cell_is_an_insert_after_its_predecessor(nb):
    b = nb(*BASE)
    b.cells.insert(2, nb("z = 3").cells[0])
    b.cells[2].id = "new"
    patch = nbpatch.diff(nb(*BASE), b)
    assert [type(op) for op in patch.ops] == [InsertCell]
    assert (patch.ops[0].cell, patch.ops[0].after) == ("new", "c1")


def test_deleted_cell_is_a_delete(nb):
    b = nb(*BASE)
    del b.cells[2]
    assert nbpatch.diff(nb(*BASE), b).ops == (DeleteCell(cell="c2"),)


def test_moved_cell_is_a_move(nb):
    b = nb(*BASE)
    b.cells.append(b.cells.pop(0))
    assert nbpatch.diff(nb(*BASE), b).ops == (MoveCell(cell="c0", after="c3"),)


def test_edited_and_moved_cell_without_ids_is_found_by_similarity(nb, parts):
    a = nb(*BASE, "def train(model):\n    return model.fit(X, y)\n", ids=False)
    b = nb("def train(model):\n    return model.fit(X, y, epochs=3)\n", *BASE, ids=False)
    patch = nbpatch.diff(a, b)
    assert sorted(type(op).__name__ for op in patch.ops) == ["MoveCell", "ReplaceSource"]
    assert {op.cell for op in patch.ops} == {"#4"}
    assert parts(nbpatch.apply(a, patch)) == parts(b)


def test_rewritten_cell_in_place_is_paired_by_position(nb):
    b = nb(*BASE)
    b.cells[2].source = "for k in range(3):\n    log(k)"
    b.cells[2].id = "other"
    patch = nbpatch.diff(nb(*BASE), b)
    assert [type(op) for op in patch.ops] == [ReplaceSource]
    assert patch.ops[0].cell == "c2"


def test_same_id_with_another_type_is_delete_and_insert(nb, parts):
    a = nb(*BASE)
    b = nb(*BASE)
    b.cells[2] = nb("# now markdown").cells[0]
    b.cells[2].id = "c2"
    patch = nbpatch.diff(a, b)
    assert [type(op) for op in patch.ops] == [DeleteCell, InsertCell]
    result = nbpatch.apply(a, patch)
    assert parts(result) == parts(b)
    assert [c.id for c in result.cells] == ["c0", "c1", "c2", "c3"]


def test_outputs_and_metadata_are_ignored_unless_asked(nb, parts):
    a = nb(*BASE)
    b = nb(*BASE)
    b.cells[2].outputs = [{"output_type": "stream", "name": "stdout", "text": "1\n"}]
    b.cells[2].execution_count = 3
    b.cells[1].metadata["tags"] = ["setup"]
    b.metadata["title"] = "T"
    assert not nbpatch.diff(a, b)
    patch = nbpatch.diff(a, b, compare_outputs=True, compare_metadata=True)
    assert {type(op) for op in patch.ops} == {SetOutputs, SetMetadata}
    assert parts(nbpatch.apply(a, patch), outputs=True, metadata=True) == parts(
        b, outputs=True, metadata=True)


def test_apply_leaves_its_input_alone(nb):
    a = nb(*BASE)
    before = copy.deepcopy(a)
    b = nb(*BASE[::-1])
    nbpatch.apply(a, nbpatch.diff(a, b))
    assert a == before


def test_apply_to_a_changed_cell_is_a_conflict_naming_it(nb):
    b = nb(*BASE)
    b.cells[1].source = "import os\nx = 2\n"
    patch = nbpatch.diff(nb(*BASE), b)
    changed = nb(*BASE)
    changed.cells[1].source = "import sys\nx = 1\n"
    with pytest.raises(PatchConflict, match=r"^cell 2 \(id c1\): changed") as info:
        nbpatch.apply(changed, patch)
    assert info.value.cell == "c1"


def test_apply_with_a_missing_cell_is_a_conflict(nb):
    b = nb(*BASE)
    del b.cells[3]
    patch = nbpatch.diff(nb(*BASE), b)
    with pytest.raises(PatchConflict, match=r"cell c3: not in the notebook"):
        nbpatch.apply(nb(*BASE[:3]), patch)


def test_apply_to_an_unrelated_cell_change_still_works(nb, parts):
    b = nb(*BASE)
    b.cells[1].source = "import os\nx = 2\n"
    patch = nbpatch.diff(nb(*BASE), b)
    other = nb(*BASE)
    other.cells[3].source = "y = x * 2"
    result = nbpatch.apply(other, patch)
    assert [c.source for c in result.cells] == ["Title", "import os\nx = 2\n", "print(x)",
                                                 "y = x * 2"]


def test_position_keys_refuse_a_shifted_notebook(nb):
    a = nb(*BASE, ids=False)
    b = nb(*BASE, ids=False)
    b.cells[2].source = "print(x, y)"
    patch = nbpatch.diff(a, b)
    assert patch.ops[0].cell == "#2"
    shifted = nb("# Preface", *BASE, ids=False)
    with pytest.raises(PatchConflict, match=r"^cell 3: changed since"):
        nbpatch.apply(shifted, patch)


def test_hunk_that_does_not_match_is_a_conflict(nb):
    patch = Patch(base={}, ops=(ReplaceSource(cell="c1", hunks=(Hunk(at=5, delete=("q\n",)),)),))
    with pytest.raises(PatchConflict, match=r"^cell 2 \(id c1\): line 6 does not match"):
        nbpatch.apply(nb(*BASE), patch)


def test_insert_without_id_gets_a_fresh_unique_id(nb):
    patch = Patch(base={}, ops=(InsertCell(cell="+1", after="c0",
                                           content={"cell_type": "code", "source": "z"}),))
    result = nbpatch.apply(nb(*BASE), patch)
    ids = [c.id for c in result.cells]
    assert len(set(ids)) == len(ids) == 5
    assert result.cells[1].source == "z"


def test_inserted_id_that_collides_is_renamed(nb):
    content = {"cell_type": "code", "source": "z", "id": "c2"}
    patch = Patch(base={}, ops=(InsertCell(cell="new", after=None, content=content),))
    result = nbpatch.apply(nb(*BASE), patch)
    assert result.cells[0].id not in {"c0", "c1", "c2", "c3"}


def test_duplicate_sources_are_kept_apart(nb, parts):
    a = nb("x = 1", "x = 1", "x = 1", ids=False)
    b = nb("x = 1", "y = 0", "x = 1", ids=False)
    assert parts(nbpatch.apply(a, nbpatch.diff(a, b))) == parts(b)


def test_replacement_patch_replaces_the_notebook_and_checks_the_base(nb, parts):
    a, b = nb(*BASE), nb("# Other", "print(1)")
    patch = nbpatch.replacement(a, b)
    assert parts(nbpatch.apply(a, patch)) == parts(b)
    assert nbpatch.Patch.from_json(patch.to_json()) == patch
    with pytest.raises(PatchConflict, match="notebook: changed"):
        nbpatch.apply(nb(*BASE[:2]), patch)


def test_diff_reads_paths(nb, tmp_path, parts):
    a, b = nb(*BASE), nb(*BASE[:3])
    nbpatch.write_notebook(a, tmp_path / "a.ipynb")
    nbpatch.write_notebook(b, tmp_path / "b.ipynb")
    patch = nbpatch.diff(tmp_path / "a.ipynb", str(tmp_path / "b.ipynb"))
    assert parts(nbpatch.apply(tmp_path / "a.ipynb", patch)) == parts(b)


def test_not_a_notebook_is_a_notebook_error(tmp_path, nb):
    (tmp_path / "x.ipynb").write_text("[1, 2]")
    with pytest.raises(nbpatch.NotebookError, match=r"x.ipynb: not a Jupyter notebook"):
        nbpatch.diff(tmp_path / "x.ipynb", nb(*BASE))


def test_junobench_fixes_round_trip_and_edit_the_target_when_it_changed(junobench, parts):
    import json

    for case in sorted(p for p in junobench.iterdir() if (p / "case.json").is_file()):
        before = nbpatch.read_notebook(case / f"{case.name}_reproduced.ipynb")
        after = nbpatch.read_notebook(case / f"{case.name}_fixed.ipynb")
        target = json.loads((case / "case.json").read_text())["target_cell_id"]
        patch = nbpatch.diff(before, after)
        assert parts(nbpatch.apply(before, patch)) == parts(after), case.name
        old = next(c.source for c in before.cells if c.get("id") == target)
        new = next(c.source for c in after.cells if c.get("id") == target)
        edited = {op.cell for op in patch.ops if isinstance(op, ReplaceSource)}
        assert (target in edited) == (old != new), case.name
