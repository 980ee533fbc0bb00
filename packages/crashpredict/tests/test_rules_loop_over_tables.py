"""A loop over frames or arrays (a list of them, or a dict's ``items()``/``values()``):
the walk runs its body on the first, then on the first whose columns or dtypes differ
from the first's (for arrays, the shape past the first axis or the dtype) and on the
last (`_walk._witness.table_witnesses`). A built Keras model's fit in the body changes
its weights, not the input shape the rules check. Truth is decided by running each
cell."""

from __future__ import annotations

import inspect

import numpy as np
import pandas as pd
import pytest

from crashpredict._rules import rules_engine
from crashpredict_tests_cells import raised_in_a_new_process
from crashpredict_tests_cells import raised_type as _truth  # registered by conftest.py

FEATURES = ["temp", "humidity", "wind", "rain"]


def stations(drop_at: int | None = 8, count: int = 12) -> dict:
    """Each station's readings; the one at ``drop_at`` lost its humidity sensor."""
    rng = np.random.default_rng(9)
    frames = {}
    for k in range(count):
        df = pd.DataFrame(rng.normal(size=(300, 4)), columns=FEATURES)
        df["rentals"] = rng.poisson(20, 300).astype(float)
        if k == drop_at:
            df = df.drop(columns=["humidity"])
        frames[f"ST-{k:02d}"] = df
    return frames


def ns(drop_at: int | None = 8, count: int = 12) -> dict:
    from sklearn.linear_model import Ridge

    frames = stations(drop_at, count)
    model = Ridge().fit(frames["ST-00"][FEATURES], frames["ST-00"]["rentals"])
    return {"np": np, "pd": pd, "station_frames": frames, "features": FEATURES,
            "model": model, "frame_list": list(frames.values())}


SCORES = """
scores = []
for df in {loop}:
    X = df{select}
    scores.append(float(np.mean(np.abs(model.predict(X) - df['rentals']))))
"""


@pytest.mark.parametrize("loop, count", [
    ("frame_list", 12), ("station_frames.values()", 12),
    ("station_frames.values()", 100),  # a dict too long to unroll
])
@pytest.mark.parametrize("trials", [0.005, 0.05, None])
def test_a_station_without_a_feature_met_late_is_seen(loop: str, count: int, trials) -> None:
    cell = SCORES.format(loop=loop, select="[features]")
    assert _truth(cell, ns(count=count)) == "KeyError"
    verdict = rules_engine(cell, ns(count=count), trial_budget_s=trials)
    assert (verdict.crash, verdict.exception, verdict.line) == (True, "KeyError", 4), verdict
    assert "humidity" in verdict.explanation and "item 8" in verdict.explanation


@pytest.mark.parametrize("cell", [
    SCORES.format(loop="frame_list", select=".reindex(columns=features, fill_value=0.0)"),
    SCORES.format(loop="frame_list",
                  select="[[c for c in features if c in df.columns]]").replace(
        "model.predict(X)", "X.sum(axis=1)"),
    "kept = []\nfor df in frame_list:\n    if 'humidity' not in df.columns:\n        continue\n"
    "    kept.append(df[features].mean())\n",
])
def test_fixes_and_near_misses_are_not_flagged(cell: str) -> None:
    assert _truth(cell, ns()) is None
    assert rules_engine(cell, ns(), trial_budget_s=0.05).crash is not True


def test_frames_alike_are_not_flagged() -> None:
    for loop in ("frame_list", "station_frames.values()"):
        cell = SCORES.format(loop=loop, select="[features]")
        assert _truth(cell, ns(drop_at=None)) is None
        assert rules_engine(cell, ns(drop_at=None), trial_budget_s=0.05).crash is False


def test_an_array_of_another_width_is_seen() -> None:
    rng = np.random.default_rng(2)
    batches = [rng.normal(size=(50, 6)) for _ in range(9)] + [rng.normal(size=(50, 5))] + \
        [rng.normal(size=(50, 6)) for _ in range(5)]
    env = {"np": np, "batches": batches, "w": rng.normal(size=6)}
    cell = "scores = []\nfor b in batches:\n    scores.append(b @ w)\n"
    assert _truth(cell, dict(env)) == "ValueError"
    verdict = rules_engine(cell, dict(env), trial_budget_s=0.05)
    assert (verdict.crash, verdict.exception, verdict.line) == (True, "ValueError", 3), verdict
    assert "item 9" in verdict.explanation
    env["batches"] = [b[:, :5] for b in batches]
    env["w"] = env["w"][:5]
    assert _truth(cell, dict(env)) is None
    assert rules_engine(cell, dict(env), trial_budget_s=0.05).crash is False


KERAS_SETUP = f"import numpy as np\nimport pandas as pd\nFEATURES = {FEATURES!r}\n" + \
    inspect.getsource(stations) + """
import keras
keras.utils.set_random_seed(0)
model = keras.Sequential([keras.Input(shape=(4,)), keras.layers.Dense(8), keras.layers.Dense(1)])
model.compile(optimizer='adam', loss='mse')
station_frames = stations()
"""
FITS = """
mae = {}
for station, df in station_frames.items():
    X = df.drop(columns=['rentals']).to_numpy('float32')
    hist = model.fit(X, df['rentals'].to_numpy('float32'), epochs=1, verbose=0)
    mae[station] = hist.history['loss'][-1]
"""


def test_a_built_keras_models_fit_in_the_loop_keeps_its_input_shape() -> None:
    """Each fit changes the model's weights: the next station's frame still meets the
    model's input shape, and the station without humidity has one column too few."""
    pytest.importorskip("keras")
    env: dict = {}
    exec(KERAS_SETUP, env)
    verdict = rules_engine(FITS, env, trial_budget_s=0.05)
    assert (verdict.crash, verdict.exception, verdict.line) == (True, "ValueError", 5), verdict
    assert "(300, 3)" in verdict.explanation
    assert raised_in_a_new_process(KERAS_SETUP, FITS) in ("ValueError", "InvalidArgumentError")
    env = {}
    exec(KERAS_SETUP.replace("stations()", "stations(drop_at=None)"), env)
    assert rules_engine(FITS, env, trial_budget_s=0.05).crash is False


def test_an_unbuilt_keras_models_first_fit_builds_it_so_its_fits_change_it() -> None:
    """A model without an input shape is built by its first fit: the walk does not know
    the shape the later fits meet, and says nothing."""
    pytest.importorskip("keras")
    env: dict = {}
    exec(KERAS_SETUP.replace("keras.Input(shape=(4,)), ", ""), env)
    assert env["model"].built is False
    assert rules_engine(FITS, env, trial_budget_s=0.05).crash is not True
