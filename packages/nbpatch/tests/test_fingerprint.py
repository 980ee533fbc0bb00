"""Value fingerprints (run inside kernels; tested here in-process with real numpy and pandas)."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from nbpatch._kernel_side import fingerprint
from nbpatch._normalize import fingerprint_difference

np = pytest.importorskip("numpy")
pd = pytest.importorskip("pandas")


def _differ(a, b, tolerance=1e-6):
    return fingerprint_difference(fingerprint(a), fingerprint(b), tolerance)


class Hostile:
    def __repr__(self):
        raise RuntimeError("no repr")

    def __getattribute__(self, name):
        if name in ("__class__", "__repr__", "__dict__"):
            return object.__getattribute__(self, name)
        raise RuntimeError(f"no {name}")


def test_hostile_objects_never_raise_and_stay_json():
    for value in (Hostile(), [Hostile(), 1], {"k": Hostile()}, {Hostile(): 1}):
        json.dumps(fingerprint(value))


@given(st.recursive(st.none() | st.booleans() | st.integers() | st.floats() | st.text(),
                    lambda inner: st.lists(inner, max_size=4)
                    | st.dictionaries(st.text(max_size=3), inner, max_size=4), max_leaves=20))
def test_any_json_like_value_matches_itself_and_serialises(value):
    fp = fingerprint(value)
    assert fingerprint_difference(fp, json.loads(json.dumps(fp)), 1e-6) is None


def test_frames_compare_labels_dtypes_index_and_every_value():
    rng = np.random.default_rng(1)
    df = pd.DataFrame({"n": np.arange(1000), "x": rng.normal(size=1000),
                       "s": [f"r{k}" for k in range(1000)]})
    assert _differ(df, df.copy()) is None
    assert _differ(df, df.assign(x=df.x + 1e-12)) is None
    assert _differ(df, df.assign(x=df.x.where(df.index != 500, 9.0))).startswith(
        "column 'x': row 500: ")
    assert _differ(df, df.set_index(df.index + 1)) == "index: values differ"
    assert _differ(df, df.astype({"n": "int32"})).startswith("dtypes ")
    assert _differ(df, df.rename(columns={"s": "t"})).startswith("columns ")


def test_nan_positions_and_block_sums_of_large_arrays():
    a = np.zeros(300_000)
    b = a.copy()
    b[123_456] = np.nan
    assert _differ(a, b) == "NaN / infinity at other places"
    b[123_456] = 1e-3
    assert _differ(a, b).startswith("the block of values starting at value ")
    assert _differ(a, a + 1e-12) is None


def test_tolerance_is_relative_with_a_small_absolute_floor():
    assert _differ([1.0, 0.0], [1.0 + 1e-7, 1e-10]) is None
    assert _differ([1.0], [1.0 + 1e-5]) == "[0]: 1.0 vs 1.00001"
    assert _differ(np.array([[0.0, 1.0], [2.0, 3.0]]),
                   np.array([[0.0, 1.0], [2.5, 3.0]])) == "value [1, 0]: 2.0 vs 2.5"
