"""Result types: JSON round trips, filtering, lookups, malformed input."""

from __future__ import annotations

import json

import pytest

import rtextract
from rtextract import Fact, Facts, Snapshot, SnapshotFormatError


def _facts() -> Facts:
    child = Facts(kind="torch.nn.Module", type_name="torch.nn.Linear",
                  items=(Fact("in_features", 3, "S"),))
    return Facts(kind="pandas.DataFrame", type_name="pandas.core.frame.DataFrame",
                 items=(Fact("shape", [10, 3], "S"), Fact("columns", [["a", "int64"]], "R"),
                        Fact("has_nan", True, "V", "in first 5 rows of 10")),
                 notes=("sampled",), children=(("layer", child),))


def test_facts_get_returns_value_or_default():
    facts = _facts()
    assert facts.get("shape") == [10, 3]
    assert facts.get("missing", 7) == 7
    assert facts.fact("has_nan").note == "in first 5 rows of 10"
    assert facts.child("layer").get("in_features") == 3


def test_facts_round_trip_through_dict_and_json():
    facts = _facts()
    assert Facts.from_dict(json.loads(json.dumps(facts.to_dict()))) == facts


def test_filter_keeps_only_requested_categories_recursively():
    only_s = _facts().filter("s")
    assert [f.key for f in only_s.items] == ["shape"]
    assert only_s.child("layer").get("in_features") == 3
    assert [f.key for f in _facts().filter("RV").items] == ["columns", "has_nan"]


def test_snapshot_json_round_trip_and_filter():
    snap = Snapshot(objects=(("df", _facts()),), notes=("df['x']: KeyError: 'x'",))
    again = Snapshot.from_json(snap.to_json())
    assert again == snap
    assert again.to_json() == snap.to_json()
    filtered = snap.filter("V")
    assert filtered.categories == "V"
    assert [f.key for f in filtered.get("df").items] == ["has_nan"]


@pytest.mark.parametrize("text", ["not json", "[]", '{"format": "other"}',
                                  '{"format": "rtextract.snapshot/1", "objects": [[1, {}]]}'])
def test_malformed_snapshot_raises_format_error(text):
    with pytest.raises(SnapshotFormatError):
        Snapshot.from_json(text)


def test_unknown_category_letters_are_rejected():
    with pytest.raises(SnapshotFormatError, match="unknown fact categories 'X'"):
        _facts().filter("SX")


def test_public_api_names():
    for name in ("describe", "select", "snapshot", "render", "kernel_snapshot", "Facts", "Fact",
                 "Access", "Snapshot", "RtextractError", "main"):
        assert name in rtextract.__all__
