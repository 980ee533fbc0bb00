"""Golden notebook pairs ``<base>--<variant>.ipynb`` with the expected patches beside them.

``<pair>.patch.json`` is the default diff, ``<pair>.full.patch.json`` the diff comparing
outputs and metadata too. Set NBPATCH_UPDATE_GOLDEN=1 to rewrite the expected files.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

import nbpatch

GOLDEN = Path(__file__).parent / "golden"
PAIRS = sorted(p for p in GOLDEN.glob("*--*.ipynb"))
UPDATE = os.environ.get("NBPATCH_UPDATE_GOLDEN") == "1"
MODES = {"patch": {}, "full.patch": {"compare_outputs": True, "compare_metadata": True}}


def _check(expected_path: Path, patch: nbpatch.Patch) -> None:
    if UPDATE:
        expected_path.write_text(patch.to_json() + "\n", encoding="utf-8")
    assert expected_path.is_file(), f"{expected_path.name} missing: run with NBPATCH_UPDATE_GOLDEN=1"
    assert json.loads(expected_path.read_text()) == patch.to_dict()
    assert nbpatch.Patch.from_json(expected_path.read_text()) == patch


def test_golden_pairs_exist():
    names = {p.name.split("--")[1].removesuffix(".ipynb") for p in PAIRS}
    assert {"cell-edited", "cell-inserted", "cell-deleted", "cell-moved", "markdown-changed",
            "outputs-only"} <= names


@pytest.mark.parametrize("mode", sorted(MODES))
@pytest.mark.parametrize("pair", PAIRS, ids=lambda p: p.stem)
def test_golden_pair_diff_matches_expected_and_applies(pair, mode, parts):
    base = GOLDEN / (pair.name.split("--")[0] + ".ipynb")
    patch = nbpatch.diff(base, pair, **MODES[mode])
    _check(pair.with_suffix(f".{mode}.json"), patch)
    flags = {"outputs": bool(MODES[mode]), "metadata": bool(MODES[mode])}
    result = nbpatch.apply(base, patch)
    assert parts(result, **flags) == parts(nbpatch.read_notebook(pair), **flags)


@pytest.mark.parametrize(
    ("variant", "kinds"),
    [
        ("cell-edited", ["replace_source"]),
        ("cell-inserted", ["insert"]),
        ("cell-deleted", ["delete"]),
        ("cell-moved", ["move"]),
        ("markdown-changed", ["replace_source"]),
        ("outputs-only", []),
        ("edited-moved-deleted-inserted", ["replace_source", "delete", "move", "insert"]),
    ],
)
def test_golden_variants_come_out_as_what_changed(variant, kinds):
    pair = next(p for p in PAIRS if p.name.endswith(f"--{variant}.ipynb"))
    base = GOLDEN / (pair.name.split("--")[0] + ".ipynb")
    assert [op["op"] for op in nbpatch.diff(base, pair).to_dict()["ops"]] == kinds
