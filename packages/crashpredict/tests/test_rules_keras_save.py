"""Keras 3 saves a model only to a ``.keras`` (or legacy ``.h5``) file and weights only to a
``.weights.h5`` file: a path it refuses is predicted before the cell runs (after a long
fit, the crash comes last), and a path it takes is never flagged.

The truth of each case is decided by running the cell for real (in a temporary working
directory) after the rules have answered.
"""

from __future__ import annotations

import os
import pathlib

import pytest

from crashpredict._rules import rules_engine

np = pytest.importorskip("numpy")
keras = pytest.importorskip("keras")
if int(keras.__version__.split(".")[0]) < 3:
    pytest.skip("Keras 2 still writes SavedModel folders", allow_module_level=True)

#: (cell, the first words of the error Keras raises)
CRASHES = [
    ("model.save('model')", "Invalid filepath extension"),
    ("model.fit(x, y, epochs=1, verbose=0)\nmodel.save('churn_model')",
     "Invalid filepath extension"),
    ("model.save('saved/model.tf')", "Invalid filepath extension"),
    ("model.save(OUT)", "Invalid filepath extension"),  # a pathlib.Path
    ("model.save('model', save_format='tf')", "The `save_format` argument"),
    ("keras.models.save_model(model, 'exported')", "Invalid filepath extension"),
    ("model.save_weights('weights.h5')", "The filename must end in `.weights.h5`"),
    ("model.save_weights('checkpoint')", "The filename must end in `.weights.h5`"),
    # a model built and trained in the cell itself
    ("m = keras.Sequential([keras.Input((4,)), keras.layers.Dense(1)])\n"
     "m.compile(loss='mse')\nm.fit(x, y, epochs=1, verbose=0)\nm.save(f'{NAME}_v2')",
     "Invalid filepath extension"),
]

#: paths Keras 3 takes
LEFT_ALONE = [
    "model.save('model.keras')",
    "model.save('legacy/model.h5')",  # h5py makes the folder
    "model.save('model.hdf5')",
    "model.save('model.keras', save_format='keras')",
    "model.save_weights('model.weights.h5')",
    "keras.models.save_model(model, 'exported.keras')",
    "model.export('serving')",  # the SavedModel folder, as Keras 3 makes it
    "custom.save('anything')",  # the notebook's own save
    "if len(x) > 1000:\n    model.save('model')",  # a branch that does not run
]

DEFINITIONS = """
NAME = 'churn'
OUT = pathlib.Path('best_model')

class Tracked(keras.Model):
    def __init__(self):
        super().__init__()
        self.dense = keras.layers.Dense(1)

    def call(self, inputs):
        return self.dense(inputs)

    def save(self, path):
        with open(str(path) + '.txt', 'w') as fh:
            fh.write('saved')
"""


@pytest.fixture
def namespace(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    rng = np.random.default_rng(0)
    model = keras.Sequential([keras.Input((4,)), keras.layers.Dense(1)])
    model.compile(loss="mse")
    ns = {"np": np, "keras": keras, "pathlib": pathlib, "model": model,
          "x": rng.normal(size=(32, 4)).astype("float32"),
          "y": rng.normal(size=(32,)).astype("float32")}
    exec(DEFINITIONS, ns)  # noqa: S102
    ns["custom"] = ns["Tracked"]()
    return ns


def _real_run(cell: str, ns: dict) -> str | None:
    try:
        exec(cell, ns)  # noqa: S102
    except Exception as exc:  # noqa: BLE001 - the truth
        return f"{type(exc).__name__}: {exc}"
    return None


@pytest.mark.parametrize("cell, words", CRASHES)
def test_a_path_keras_3_refuses_is_predicted(namespace, cell, words):
    verdict = rules_engine(cell, namespace)
    assert os.listdir(".") == []  # the rules wrote nothing
    assert (verdict.crash, verdict.exception) == (True, "ValueError"), verdict
    raised = _real_run(cell, namespace)
    assert raised is not None and raised.startswith(f"ValueError: {words}"), raised


@pytest.mark.parametrize("cell", LEFT_ALONE)
def test_a_path_keras_3_takes_is_never_flagged(namespace, cell):
    verdict = rules_engine(cell, namespace)
    assert verdict.crash is not True, verdict
    assert _real_run(cell, namespace) is None
