"""User subclasses of library types: their overrides never run; true facts come back anyway.

Each hostile override records its call (or writes a file, or would block for seconds) so
the tests prove it was never called, rather than timing anything.
"""

from __future__ import annotations

import time
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import torch
from sklearn.base import BaseEstimator, ClassifierMixin

from rtextract import describe, snapshot

BIG = 10_000.0  # these tests compare whole results: a busy machine must not cut them short

CALLS: list[str] = []


@pytest.fixture(autouse=True)
def _clear_calls():
    CALLS.clear()
    yield
    CALLS.clear()


def _record(name: str):
    CALLS.append(name)
    raise RuntimeError(f"user code ran: {name}")


class HostileFrame(pd.DataFrame):
    """Every override a probe found rtextract calling, each leaving a trace."""

    marker: Path | None = None

    @property
    def shape(self):
        if HostileFrame.marker is not None:
            HostileFrame.marker.write_text("shape ran")
        return _record("shape")

    def __len__(self):
        CALLS.append("__len__")
        time.sleep(3)  # the probe's slow property: never reached
        return 0

    def isna(self):
        return _record("isna")

    @property
    def iloc(self):
        return _record("iloc")

    @property
    def _constructor(self):
        return _record("_constructor")

    def __getattr__(self, name):
        return _record(f"__getattr__({name})")


def test_frame_subclass_overrides_never_run(tmp_path, check_facts):
    HostileFrame.marker = tmp_path / "written-by-shape"
    frame = HostileFrame({"a": [1.0, None, 3.0], "b": ["x", "y", "x"]})
    CALLS.clear()
    facts = describe(frame, budget_ms=BIG)
    check_facts(facts)
    assert CALLS == []
    assert not HostileFrame.marker.exists()
    assert facts.kind == "pandas.DataFrame"
    assert facts.type_name.endswith("HostileFrame")
    assert facts.get("shape") == [3, 2]
    assert facts.get("columns") == [["a", "float64"], ["b", "object"]]
    assert facts.get("nan_counts") == {"a": 1}
    assert facts.get("n_unique") == {"b": 2}
    assert any("read as a plain pandas.DataFrame" in n for n in facts.notes)


def test_frame_subclass_chains_in_snapshot_run_no_user_code(tmp_path):
    HostileFrame.marker = tmp_path / "written-by-shape"
    frame = HostileFrame({"a": [1, 2], "b": [3, 4]})
    CALLS.clear()
    snap = snapshot({"df": frame}, "df['a'].sum()\ndf.b.mean()\ndf.shape\ndf['zzz']", budget_ms=BIG)
    assert CALLS == []
    assert not HostileFrame.marker.exists()
    objects = dict(snap.objects)
    assert objects["df['a']"].get("length") == 2
    assert (objects["df.b"].get("length"), objects["df.b"].get("dtype")) == (2, "int64")
    # the subclass overrides `shape`: what it would return is its own code's business
    assert "df.shape: not evaluated: property of a user subclass" in snap.notes
    assert any("df['zzz']: KeyError" in n for n in snap.notes)


class RaisingGetattribute(pd.DataFrame):
    def __getattribute__(self, name):
        if name.startswith("__") and name.endswith("__"):
            return object.__getattribute__(self, name)
        return _record(f"__getattribute__({name})")


def test_frame_with_hostile_getattribute_still_described():
    frame = RaisingGetattribute({"a": [1, 2]})
    CALLS.clear()
    facts = describe(frame, budget_ms=BIG)
    snap = snapshot({"df": frame}, "df['a']\ndf.a")
    assert CALLS == []
    assert facts.get("shape") == [2, 1]
    assert dict(snap.objects)["df['a']"].get("length") == 2


class NoInitFrame(pd.DataFrame):
    def __init__(self):  # never calls DataFrame.__init__: there is no data to view
        pass

    @property
    def shape(self):
        return _record("shape")


def test_subclass_without_data_gets_generic_facts_and_a_note(check_facts):
    facts = describe(NoInitFrame(), budget_ms=BIG)
    check_facts(facts)
    assert CALLS == []
    assert facts.kind == "object"
    assert any("data not reachable" in n for n in facts.notes)


class RecordingSeries(pd.Series):
    @property
    def _constructor(self):
        return _record("_constructor")

    def __len__(self):
        return _record("__len__")

    @property
    def dtype(self):
        return _record("dtype")


def test_series_subclass_keeps_its_name_and_values(check_facts):
    series = RecordingSeries([3, 1, 2], name="score")
    CALLS.clear()
    facts = describe(series, budget_ms=BIG)
    check_facts(facts)
    assert CALLS == []
    assert (facts.kind, facts.get("name"), facts.get("length"), facts.get("dtype")) == (
        "pandas.Series", "score", 3, "int64")
    assert (facts.get("min"), facts.get("max")) == (1, 3)


class RecordingArray(np.ndarray):
    @property
    def shape(self):
        return _record("shape")

    def __array_finalize__(self, obj):
        if obj is not None and getattr(obj, "_armed", False):
            CALLS.append("__array_finalize__")

    def __getitem__(self, key):
        return _record("__getitem__")


def test_ndarray_subclass_read_as_plain_array(check_facts):
    array = np.arange(6.0).reshape(2, 3).view(RecordingArray)
    array._armed = True
    facts = describe(array, budget_ms=BIG)
    check_facts(facts)
    assert CALLS == []
    assert (facts.kind, facts.get("shape"), facts.get("max")) == ("numpy.ndarray", [2, 3], 5.0)


class RecordingMasked(np.ma.MaskedArray):
    armed = False  # numpy's own view machinery calls these while the test builds the array

    def __getitem__(self, key):
        return _record("__getitem__") if RecordingMasked.armed else super().__getitem__(key)

    def compressed(self):
        return _record("compressed")


def test_masked_array_subclass_keeps_its_mask():
    masked = np.ma.masked_array([1.0, 2.0, 3.0], mask=[0, 1, 0]).view(RecordingMasked)
    RecordingMasked.armed = True
    try:
        facts = describe(masked, budget_ms=BIG)
    finally:
        RecordingMasked.armed = False
    assert CALLS == []
    assert (facts.kind, facts.get("masked_count"), facts.get("max")) == (
        "numpy.ma.MaskedArray", 1, 3.0)


class RecordingTensor(torch.Tensor):
    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        CALLS.append(getattr(func, "__name__", str(func)))
        return super().__torch_function__(func, types, args, kwargs or {})

    @property
    def shape(self):
        return _record("shape")


def test_tensor_subclass_torch_function_never_runs(check_facts):
    base = torch.arange(6.0, requires_grad=True)
    tensor = (base * 2).as_subclass(RecordingTensor)
    CALLS.clear()
    facts = describe(tensor, budget_ms=BIG)
    check_facts(facts)
    assert CALLS == []
    assert (facts.kind, facts.get("shape"), facts.get("max")) == ("torch.Tensor", [6], 10.0)
    assert facts.get("requires_grad") is True
    # the view was taken without autograd: the user's graph gained no node
    assert tensor.grad_fn is not None and tensor._version == 0


class SneakyNet(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.body = torch.nn.Sequential(torch.nn.Linear(4, 8), torch.nn.ReLU())
        self.head = torch.nn.Linear(8, 2)

    def parameters(self, recurse=True):
        return _record("parameters")

    def named_modules(self, *args, **kwargs):
        return _record("named_modules")

    def __getattr__(self, name):
        return _record(f"__getattr__({name})")


def test_user_module_overrides_never_run(check_facts):
    facts = describe(SneakyNet(), budget_ms=BIG)
    check_facts(facts)
    assert CALLS == []
    assert facts.get("n_parameters") == 4 * 8 + 8 + 8 * 2 + 2
    assert facts.get("n_layers") == 3
    assert (facts.get("input_features"), facts.get("output_features")) == (4, 2)
    assert facts.get("training") is True


class SneakyEstimator(ClassifierMixin, BaseEstimator):
    def __init__(self, alpha=1.0, scorer=None):
        self.alpha = alpha
        self.scorer = scorer

    def __sklearn_tags__(self):
        return _record("__sklearn_tags__")

    def __sklearn_is_fitted__(self):
        return _record("__sklearn_is_fitted__")


class CallableScorer:
    def __getattr__(self, name):
        return _record(f"scorer.__getattr__({name})")

    def __call__(self, *args):
        return 0.0


def test_user_estimator_tags_and_params_never_run(check_facts):
    est = SneakyEstimator(alpha=0.5, scorer=CallableScorer())
    est.classes_ = np.array([0, 1])
    facts = describe(est, budget_ms=BIG)
    check_facts(facts)
    assert CALLS == []
    assert facts.get("estimator_type") == "classifier"
    assert facts.get("fitted") is True
    assert facts.get("params")["alpha"] == 0.5


class SlowLengthDataset(torch.utils.data.Dataset):
    """A map-style dataset whose __len__ never returns on its own."""

    def __len__(self):
        CALLS.append("__len__")
        while True:
            time.sleep(0.01)

    def __getitem__(self, i):
        return _record("__getitem__")


def test_dataset_len_is_stopped_at_the_budget():
    # not a timed test: without the bound this call never returns (pytest-timeout fails it)
    facts = describe(SlowLengthDataset(), budget_ms=50)
    assert CALLS == ["__len__"]
    assert facts.get("length") is None
    assert any("stopped after the time budget" in n for n in facts.notes)


class Untouchable:
    def __getattribute__(self, name):
        raise RuntimeError(f"no attribute {name}")


def test_object_whose_getattribute_raises(check_facts):
    obj = Untouchable()
    facts = describe(obj, budget_ms=BIG)
    check_facts(facts)
    snap = snapshot({"obj": obj}, "obj.fit(1)\nobj['a']\nobj.shape")
    assert dict(snap.objects)["obj"].kind == "object"
    assert [n.split(":")[0] for n in snap.notes] == ["obj['a']", "obj.shape"]


def test_safe_view_says_what_callers_may_read():
    from rtextract import safe_view

    frame = HostileFrame({"a": [1, 2]})
    plain = pd.DataFrame({"a": [1]})
    CALLS.clear()
    view = safe_view(frame)
    assert type(view) is pd.DataFrame and view.shape == (2, 1)
    assert safe_view(plain) is plain and safe_view([1]) == [1]
    assert safe_view(Untouchable()) is None
    assert safe_view(NoInitFrame()) is None
    assert CALLS == []


def test_groupby_of_a_frame_subclass_reads_the_plain_frame():
    frame = HostileFrame({"k": ["a", "b", "a"], "v": [1, 2, 3]})
    grouped = pd.DataFrame.groupby(frame, "k")  # the subclass's own groupby is not the point
    CALLS.clear()
    facts = describe(grouped, budget_ms=BIG)
    assert CALLS == []
    assert facts.get("obj_shape") == [3, 2]
    assert facts.child("obj").get("shape") == [3, 2]


class StubbornDataset(torch.utils.data.Dataset):
    """A __len__ that swallows the first stop and then blocks again.

    The stop is a BaseException (like KeyboardInterrupt): ``except Exception`` cannot
    catch it, a bare ``except`` can, and the repeating timer stops the code again.
    """

    def __len__(self):
        CALLS.append("__len__")
        try:
            try:
                while True:
                    time.sleep(0.01)
            except Exception:
                CALLS.append("caught as an Exception")
        except BaseException:
            CALLS.append("swallowed")
        while True:
            time.sleep(0.01)

    def __getitem__(self, i):
        return _record("__getitem__")


def test_dataset_len_that_swallows_the_first_stop_is_stopped_again():
    # not timed: without a repeating stop this call never returns
    facts = describe(StubbornDataset(), budget_ms=50)
    assert CALLS == ["__len__", "swallowed"]
    assert facts.get("length") is None
    assert any("stopped after the time budget" in n for n in facts.notes)


class FrameWithExtras(pd.DataFrame):
    _metadata = ["source"]

    @property
    def _constructor(self):
        return _record("_constructor")

    def summary(self):
        return _record("summary")

    @property
    def report(self):
        return _record("report")


def test_snapshot_keeps_what_a_subclass_adds_without_running_it():
    frame = FrameWithExtras({"a": [1, 2]})
    frame.source = "survey.csv"
    CALLS.clear()
    snap = snapshot({"df": frame}, "df.source\ndf.summary()\ndf.report\ndf.a\ndf.nothing",
                    budget_ms=BIG)
    objects = dict(snap.objects)
    assert CALLS == []
    assert objects["df.source"].get("value") == "survey.csv"
    assert objects["df.a"].get("length") == 2
    assert "df.report: not evaluated: property of a user subclass" in snap.notes
    assert any(n.startswith("df.nothing: AttributeError") for n in snap.notes)
