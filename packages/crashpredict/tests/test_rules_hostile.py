"""Hostile live objects: the rule engine runs their dunders under its time budget or not at
all, and survives a memory map whose file was truncated.

Each hostile method blocks for 30 s (or forever) once armed. These are guards with a wide
margin, not performance tests: a prediction must come back well within 5 s (the per-test
timeout is the backstop for code that would never return).
"""

from __future__ import annotations

import dataclasses
import json
import os
import subprocess
import sys
import textwrap
import threading
import time

import numpy as np
import pandas as pd
import pytest
import torch
from pandas.api.extensions import ExtensionArray, ExtensionDtype
from sklearn.base import BaseEstimator
from sklearn.linear_model import LinearRegression
from sklearn.pipeline import Pipeline
from sklearn.preprocessing import StandardScaler
from torch import nn

from crashpredict._rules import rules_engine

pytestmark = pytest.mark.timeout(120)

LIMIT_S = 5.0
CALLS: list[str] = []
ARMED = [False]  # off while the objects are built (a dict hashes its keys)


@pytest.fixture(autouse=True)
def _armed():
    CALLS.clear()
    ARMED[0] = True
    yield
    ARMED[0] = False
    CALLS.clear()


def _block(name: str, forever: bool = False):
    if not ARMED[0]:
        return None
    CALLS.append(name)
    if forever:
        while True:
            pass
    time.sleep(30)
    return None


class SlowRepr:
    def __repr__(self):
        return _block("__repr__")

    def __format__(self, spec):
        return _block("__format__")

    def __lt__(self, other):
        return _block("__lt__", forever=True)


class SlowHash:
    def __hash__(self):
        return _block("__hash__") or 12345

    def __eq__(self, other):
        return _block("__eq__", forever=True)


class SlowList(list):
    def __len__(self):
        return _block("__len__") or 0

    def __iter__(self):
        return _block("__iter__", forever=True)

    def __bool__(self):
        return _block("__bool__")


class SlowPair(tuple):
    def __iter__(self):
        return _block("pair __iter__", forever=True)

    def __len__(self):
        return _block("pair __len__") or 2


class SlowInt(int):
    def __str__(self):
        return _block("int __str__")

    def __format__(self, spec):
        return _block("int __format__")


class SlowProperty:
    @property
    def shape(self):
        return _block("shape")

    @property
    def size(self):
        return _block("size", forever=True)

    def __getattr__(self, name):
        return _block(f"__getattr__({name})")


@dataclasses.dataclass
class Config:
    """A dataclass with slow copies (an attrs class with custom methods is the same)."""

    name: str

    def __deepcopy__(self, memo):
        return _block("__deepcopy__")

    def __copy__(self):
        return _block("__copy__")


class SlowMeta(type):
    def __getattribute__(cls, name):
        return _block(f"metaclass __getattribute__({name})")

    def __instancecheck__(cls, obj):
        return _block("__instancecheck__")


class WithSlowMeta(metaclass=SlowMeta):
    pass


class SlowFitted(BaseEstimator):
    """A user estimator whose fitted check blocks: a Pipeline asks it."""

    def __sklearn_is_fitted__(self):
        return _block("__sklearn_is_fitted__", forever=True)

    def fit(self, X, y=None):
        return self

    def predict(self, X):
        return np.zeros(len(X))


def slow_default(a, b, config=SlowRepr()):
    return a


# ----- a user ExtensionArray whose methods block once armed -----------------------------------
class SlowDtype(ExtensionDtype):
    name = "slow"
    type = object
    kind = "O"

    @classmethod
    def construct_array_type(cls):
        return SlowArray

    def __repr__(self):
        _block("dtype __repr__")
        return "slow"


class SlowArray(ExtensionArray):
    def __init__(self, values):
        self._values = np.asarray(values, dtype=object)

    @classmethod
    def _from_sequence(cls, scalars, dtype=None, copy=False):
        return cls(scalars)

    @property
    def dtype(self):
        _block("dtype")
        return SlowDtype()

    def __len__(self):
        _block("__len__")
        return len(self._values)

    def __getitem__(self, item):
        _block("__getitem__")
        result = self._values[item]
        return SlowArray(result) if isinstance(result, np.ndarray) else result

    def isna(self):
        _block("isna")
        return np.array([v is None for v in self._values], dtype=bool)

    def take(self, indices, allow_fill=False, fill_value=None):
        _block("take")
        return SlowArray(self._values.take(indices))

    def copy(self):
        _block("copy")
        return SlowArray(self._values.copy())

    @property
    def nbytes(self):
        return 0

    @classmethod
    def _concat_same_type(cls, to_concat):
        return cls(np.concatenate([x._values for x in to_concat]))


class Namespace(dict):
    """The test namespace: a failing test's report prints this, not the hostile objects."""

    def __repr__(self):
        return "<hostile namespace>"


def _namespace() -> Namespace:
    frame = pd.DataFrame({"x": [1, 2, 3]})
    frame["s"] = SlowArray([1, 2, 3])
    net = nn.Linear(3, 2)
    net.config = Config("layer")  # deep-copying the layer for a meta run would copy this
    return Namespace({
        "np": np, "pd": pd, "torch": torch,
        "obj": SlowRepr(), "keyed": {SlowHash(): 1, "a": 2}, "items": SlowList([1, 2]),
        "pair": SlowPair((1, 2)), "count": SlowInt(3), "prop": SlowProperty(),
        "meta_obj": WithSlowMeta(), "Meta": WithSlowMeta, "slow_default": slow_default,
        "cells": pd.DataFrame({"k": [SlowHash(), SlowHash()], "v": [1.0, 2.0]}),
        "words": pd.DataFrame({"t": [SlowRepr(), "x"]}),
        "zero_d": np.array(SlowRepr(), dtype=object),
        "ea": frame, "net": net, "X": np.ones((6, 3)), "y": np.arange(6.0),
        "reg": LinearRegression(n_jobs=Config("jobs")),
        "pipe": Pipeline([("scale", StandardScaler()), ("model", SlowFitted())]),
    })


def _predict(source: str, namespace: dict | None = None):
    namespace = _namespace() if namespace is None else namespace
    ARMED[0] = True
    started = time.perf_counter()
    verdict = rules_engine(source, namespace)
    elapsed = time.perf_counter() - started
    assert elapsed < LIMIT_S, f"{source!r} took {elapsed:.1f} s"
    json.dumps(verdict.to_dict() if hasattr(verdict, "to_dict") else None)
    return verdict


@pytest.fixture
def namespace():
    ARMED[0] = False
    built = _namespace()
    ARMED[0] = True
    return built


# ----- user dunders the rules would call directly: never called --------------------------------
NEVER_CALLED = [
    "repr(obj)\nstr(obj)\nhash(obj)\nsorted([obj, obj])",
    "keyed['zzz']\nkeyed[obj]\n'b' in keyed",
    "if items:\n    total = len(items)\nfor i in items:\n    pass",
    "a, b = pair\nlabel = f'{count}'\nsize = f'{count:3d}'",
    "prop.shape\nprop.size\nprop.missing_method()",
    "meta_obj.fit()\nisinstance(obj, Meta)\nrepr(Meta)",
    "value = f'{zero_d:.2f}'",
    "slow_default(1, 2, 3, 4)",
    "out = net(torch.zeros(4, 3))\nout.sum()",
    "reg.fit(X, y)\npred = reg.predict(X)",
    "words.astype(float)\nwords['t'].astype(float)",
]


@pytest.mark.parametrize("source", NEVER_CALLED)
def test_user_dunders_are_not_called(source, namespace):
    verdict = _predict(source, namespace)
    assert CALLS == [], (source, verdict.explanation)


def test_the_rules_still_predict_around_hostile_objects(namespace):
    verdict = _predict("slow_default(1, 2, 3, 4)", namespace)
    assert verdict.crash is True and verdict.exception == "TypeError"
    assert "config=<" in verdict.explanation  # the default's type, never its repr
    verdict = _predict("keyed['zzz']", namespace)
    assert verdict.crash is True and verdict.exception == "KeyError"
    assert "SlowHash object>" in verdict.explanation
    assert CALLS == []


# ----- library code that reaches user code: stopped at the budget -------------------------------
def test_a_user_extension_array_in_a_frame(namespace):
    verdict = _predict("ea['zzz']", namespace)  # the KeyError needs only the column names
    assert verdict.crash is True and verdict.exception == "KeyError"
    _predict("ea['s'].sum()\nea.drop(columns=['x'])\nea.iloc[0]", namespace)
    assert len(CALLS) <= 3  # each trial's first blocking call is stopped at the budget


def test_object_cells_whose_hash_blocks(namespace):
    _predict("n = cells['k'].nunique()\ncells.drop_duplicates()", namespace)
    assert set(CALLS) <= {"__hash__", "__eq__"}


def test_library_code_reaching_user_code_is_stopped_by_the_walk_limit(namespace):
    # a Pipeline's fitted check asks its last step, whose check never returns
    verdict = _predict("pipe.predict(X)", namespace)
    assert CALLS == ["__sklearn_is_fitted__"]
    assert verdict.crash is None and "time limit" in verdict.explanation


def test_off_the_main_thread_values_holding_user_code_are_unknown(namespace):
    found = []

    def run():
        for source in ("ea['s'].sum()\nea['zzz']", "n = cells['k'].nunique()",
                       "out = net(torch.zeros(4, 3))"):
            found.append(rules_engine(source, namespace))

    thread = threading.Thread(target=run)
    started = time.perf_counter()
    thread.start()
    thread.join(60)
    assert time.perf_counter() - started < LIMIT_S
    assert CALLS == []
    assert len(found) == 3 and all(v.crash is not True for v in found[1:])
    assert any("not read" in e for e in found[0].evidence)


# ----- a memory map truncated after mapping --------------------------------------------------
_MEMMAP_SCRIPT = textwrap.dedent("""
    import json, os, sys
    import numpy as np, pandas as pd, torch
    from crashpredict._rules import rules_engine

    path = sys.argv[1]
    np.memmap(path, dtype="float64", mode="w+", shape=(100_000,)).flush()
    mm = np.memmap(path, dtype="float64", mode="r", shape=(100_000,))
    ns = {"np": np, "pd": pd, "torch": torch, "mm": mm, "tail": mm[90_000:],
          "frame": pd.DataFrame({"a": mm}, copy=False),
          "t": torch.from_numpy(np.frombuffer(mm, dtype="float64"))}
    os.truncate(path, 4096)  # another process rewrote the file: the map outlives its pages
    out = []
    for cell in ("total = mm.sum()\\nboth = np.concatenate([mm, tail])\\nmm[99_999]",
                 "frame['a'].mean()\\nframe.describe()\\nframe['zzz']",
                 "t.sum()\\ntorch.cat([t, t])"):
        verdict = rules_engine(cell, ns)
        out.append([verdict.crash, verdict.exception, list(verdict.evidence)])
    print(json.dumps(out))
""")


def test_truncated_memmap_is_survived(tmp_path):
    script = tmp_path / "probe.py"
    script.write_text(_MEMMAP_SCRIPT)
    env = {**os.environ, "PYTHONFAULTHANDLER": "1"}
    run = subprocess.run([sys.executable, str(script), str(tmp_path / "data.bin")],
                         capture_output=True, text=True, timeout=120, env=env)
    assert run.returncode == 0, run.stderr[-2000:]
    (arrays, frames, tensors) = json.loads(run.stdout.splitlines()[-1])
    for crash, _, evidence in (arrays, frames, tensors):  # unknown: no value is read
        assert crash is not True
        assert any("truncated after mapping" in e for e in evidence), evidence


# ----- in a real kernel: the rules run in its main thread, under the timer ------------------------
_KERNEL_SETUP = textwrap.dedent("""
    import time
    import numpy as np, pandas as pd

    class SlowKey:
        def __hash__(self):
            time.sleep(30)
            return 1

    df = pd.DataFrame({"k": [SlowKey(), SlowKey()], "v": [1.0, 2.0]})
""")


@pytest.mark.kernel
def test_the_rules_on_hostile_objects_in_a_real_kernel():
    jupyter_client = pytest.importorskip("jupyter_client")
    km, kc = jupyter_client.manager.start_new_kernel(kernel_name="python3")
    try:
        assert kc.execute_interactive(_KERNEL_SETUP, timeout=120)["content"]["status"] == "ok"
        entry = ("__import__('crashpredict._rules', fromlist=['rules_engine']).rules_engine("
                 "{!r}, get_ipython().user_ns).to_dict()")
        started = time.perf_counter()
        reply = kc.execute_interactive("", silent=True, timeout=60, user_expressions={
            "unique": entry.format("n = df['k'].nunique()\ndf.drop_duplicates()"),
            "key": entry.format("df['zzz']")})
        assert time.perf_counter() - started < 2 * LIMIT_S
        values = {k: eval(v["data"]["text/plain"], {"nan": float("nan")})
                  for k, v in reply["content"]["user_expressions"].items()}
        assert values["unique"]["crash"] is not True
        assert values["key"]["crash"] is True and values["key"]["exception"] == "KeyError"
        reply = kc.execute_interactive("print(len(df), 'kernel alive')", timeout=30)
        assert reply["content"]["status"] == "ok"
    finally:
        kc.stop_channels()
        km.shutdown_kernel(now=True)
