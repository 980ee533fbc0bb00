"""Keras rules on a real (small) model; TensorFlow is imported only by this module."""

from __future__ import annotations

import numpy as np
import pytest

from crashpredict import predict

keras = pytest.importorskip("keras")


@pytest.fixture(scope="module")
def ns() -> dict:
    model = keras.Sequential([keras.Input((28, 28, 1)), keras.layers.Flatten(),
                              keras.layers.Dense(10, activation="softmax")])
    model.compile(loss="categorical_crossentropy", optimizer="adam")
    sparse = keras.Sequential([keras.Input((4,)), keras.layers.Dense(3, activation="softmax")])
    sparse.compile(loss="sparse_categorical_crossentropy", optimizer="adam")
    binary = keras.Sequential([keras.Input((4,)), keras.layers.Dense(3, activation="sigmoid")])
    binary.compile(loss="binary_crossentropy", optimizer="adam")
    import pandas as pd
    return {"np": np, "keras": keras, "model": model, "sparse": sparse, "binary": binary,
            "x4": np.zeros((8, 4), "float32"), "labels4": np.arange(8) % 4,
            "labels3": np.arange(8) % 3, "frame5": pd.DataFrame(np.zeros((8, 5))),
            "x_ok": np.zeros((4, 28, 28, 1), "float32"),
            "x_squeezed": np.zeros((4, 28, 28), "float32"),
            "x_rgb": np.zeros((4, 28, 28, 3), "float32"),
            "x_flat": np.zeros((4, 784), "float32"),
            "y_int": np.array([1, 2, 3, 4]), "y_onehot": np.eye(10)[[1, 2, 3, 4]],
            "y_short": np.eye(10)[[1, 2, 3]]}


CRASHES = [
    ("removed predict_classes", "model.predict_classes(x_ok)",
     ("AttributeError", "attribute error")),
    ("removed fit_generator", "model.fit_generator(x_ok)", ("AttributeError", "attribute error")),
    ("no load method", "model.load('train.h5')", ("AttributeError", "attribute error")),
    ("channels differ", "model.predict(x_rgb)", ("ValueError", "tensor shape mismatch")),
    ("rank differs", "model.predict(x_flat)", ("ValueError", "tensor shape mismatch")),
    ("integer labels for categorical_crossentropy", "model.fit(x_ok, y_int)",
     ("ValueError", "value error")),
    ("cardinality", "model.fit(x_ok, y_short)", ("ValueError", "value error")),
    ("sparse label beyond the units", "sparse.fit(x4, labels4)",
     ("InvalidArgumentError", "invalid argument")),
    ("binary labels of the wrong rank", "binary.fit(x4, labels3)", ("ValueError", "value error")),
    ("DataFrame of the wrong width", "sparse.predict(frame5)",
     ("ValueError", "tensor shape mismatch")),
    ("compiled in the cell for one-hot labels, fit on class indices",
     "sparse.compile(optimizer='adam', loss='categorical_crossentropy')\nsparse.fit(x4, labels3)",
     ("ValueError", "value error")),
]

NEAR_MISSES = [
    ("matching input", "model.predict(x_ok)"),
    ("Keras adds the trailing axis of size 1", "model.predict(x_squeezed)"),
    ("one-hot labels", "model.fit(x_ok, y_onehot, epochs=1)"),
    ("sparse labels in range", "sparse.fit(x4, labels3)"),
    ("an attribute that exists", "model.summary()"),
    # Keras looks a built-in optimizer's name up in lower case
    ("an optimizer named in capitals",
     "model.compile(optimizer='RMSprop', loss='categorical_crossentropy')"),
    # the loss the cell compiles with is the one fit uses, not the one compiled before
    ("recompiled in the cell for class indices",
     "model.compile(optimizer='adam', loss='sparse_categorical_crossentropy')\n"
     "model.fit(x_ok, y_int, epochs=1)"),
]


@pytest.mark.parametrize(("source", "expected"), [pytest.param(s, e, id=i) for i, s, e in CRASHES])
def test_keras_crash_is_predicted(ns: dict, source: str, expected: tuple) -> None:
    verdict = predict(source, ns)
    assert (verdict.crash, verdict.exception, verdict.crash_type, verdict.library) == (
        True, *expected, "tensorflow"), verdict.explanation


@pytest.mark.parametrize("source", [pytest.param(s, id=i) for i, s in NEAR_MISSES])
def test_keras_near_miss_is_not_flagged(ns: dict, source: str) -> None:
    verdict = predict(source, ns)
    assert verdict.crash is False, verdict.explanation


def test_removed_method_advice(ns: dict) -> None:
    verdict = predict("model.predict_classes(x_ok)", ns)
    assert "np.argmax(model.predict(x), axis=-1)" in verdict.explanation


@pytest.mark.parametrize("trials", [None, 0.0])
def test_the_loss_compiled_in_the_cell_is_read_with_or_without_trials(ns: dict, trials) -> None:
    """The extension gives the rules no trials where a dry run has the cell already: the
    loss a cell compiles with is read by the Keras rule itself, not by a trial."""
    options = {} if trials is None else {"rules": {"trial_budget_s": trials}}
    crash = predict("sparse.compile(optimizer='adam', loss='categorical_crossentropy')\n"
                    "sparse.fit(x4, labels3)", ns, engines=("rules",), options=options)
    assert (crash.crash, crash.exception) == (True, "ValueError"), crash.explanation
    fine = predict("model.compile(optimizer='adam', loss='sparse_categorical_crossentropy')\n"
                   "model.fit(x_ok, y_int, epochs=1)", ns, engines=("rules",), options=options)
    assert fine.crash is not True, fine.explanation


#: A fit's logs, read by key after it. Each cell's truth comes from running it: a missing
#: key raises KeyError; the others read a key the fit logged.
_FIT_IN_CELL = ("m = keras.Sequential([keras.Input((4,)), keras.layers.Dense(3, activation='softmax')])\n"
                "m.compile(optimizer='adam', loss='sparse_categorical_crossentropy', metrics={m})\n"
                "h = m.fit(x4, labels3, epochs=2, verbose=0{fit})\n")
HISTORY_KEYS = [
    # code written for Keras before 2.3, which logged 'accuracy' as 'acc'
    (_FIT_IN_CELL.format(m="['accuracy']", fit="") + "plot = h.history['acc']", True),
    (_FIT_IN_CELL.format(m="['accuracy']", fit=", validation_split=0.25")
     + "plot = h.history['val_acc']", True),
    # a live model compiled in the cell; it validates on nothing
    ("sparse.compile(optimizer='adam', loss='sparse_categorical_crossentropy', "
     "metrics=['accuracy'])\nh = sparse.fit(x4, labels3, epochs=1, verbose=0)\n"
     "best = max(h.history['val_accuracy'])", True),
    # the keys it logs: as named, validated, a callback's, a metric object's
    (_FIT_IN_CELL.format(m="['acc']", fit="") + "plot = h.history['acc']", False),
    (_FIT_IN_CELL.format(m="['accuracy']", fit=", validation_data=(x4, labels3)")
     + "plot = h.history['val_accuracy']", False),
    (_FIT_IN_CELL.format(m="['accuracy']", fit=", validation_split=split")
     + "plot = h.history['val_accuracy']", False),
    (_FIT_IN_CELL.format(m="['accuracy']", fit=", callbacks=[keras.callbacks.ReduceLROnPlateau("
                                               "monitor='loss')]")
     + "plot = h.history['learning_rate']", False),
    (_FIT_IN_CELL.format(m="[keras.metrics.SparseCategoricalAccuracy(name='acc')]", fit="")
     + "plot = h.history['acc']", False),
    # compiled in a branch: which metrics it logs is not known
    ("m = keras.Sequential([keras.Input((4,)), keras.layers.Dense(3, activation='softmax')])\n"
     "import random\nif random.random() < 2:\n    m.compile(optimizer='adam', loss='sparse_categorical_crossentropy', "
     "metrics=['acc'])\nelse:\n    m.compile(optimizer='adam', "
     "loss='sparse_categorical_crossentropy', metrics=['accuracy'])\n"
     "h = m.fit(x4, labels3, epochs=1, verbose=0)\nplot = h.history['acc']", False),
]


@pytest.mark.parametrize(("source", "raises"), HISTORY_KEYS)
def test_a_key_a_fit_in_the_cell_does_not_log_is_a_certain_key_error(ns: dict, source: str,
                                                                      raises: bool) -> None:
    live = dict(ns, split=0.25, sparse=keras.models.clone_model(ns["sparse"]))
    verdict = predict(source, live, engines=("rules",), options={"rules": {"trial_budget_s": 0.0}})
    truth = dict(live)
    try:
        exec(source, truth)  # noqa: S102 - the truth: the cell run for real
        raised = False
    except KeyError:
        raised = True
    assert raised is raises
    if raises:
        assert (verdict.crash, verdict.exception, verdict.library) == (True, "KeyError", "tensorflow"), \
            verdict.explanation
        assert "the fit logs 'loss'" in verdict.explanation
    else:
        assert verdict.crash is not True, verdict.explanation


@pytest.mark.parametrize("source", [
    "opt = keras.optimizers.Adam(lr=0.001)",
    "opt = keras.optimizers.SGD(lr=0.01, momentum=0.9)",
    "opt = keras.optimizers.Adam(learnig_rate=0.01)",
    # the keywords they do take, and one they take and drop
    "opt = keras.optimizers.Adam(learning_rate=0.001, decay=1e-6)",
    "opt = keras.optimizers.RMSprop(learning_rate=0.01, rho=0.8, clipnorm=1.0)",
    "opt = keras.optimizers.AdamW(weight_decay=0.01, global_clipnorm=1.0, name='w')",
    # a notebook's own optimizer (an earlier cell's) may take what Keras's do not
    "opt = Mine(lr=0.01)",
])
def test_a_keyword_a_keras_optimizer_does_not_take_is_a_certain_value_error(ns: dict, source):
    import warnings

    live = dict(ns)
    exec("class Mine(keras.optimizers.Adam):\n    def __init__(self, **kwargs):\n"  # noqa: S102
         "        lr = kwargs.pop('lr', 0.001)\n"
         "        super().__init__(learning_rate=lr, **kwargs)\n", live)
    verdict = predict(source, live, engines=("rules",), options={"rules": {"trial_budget_s": 0.0}})
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            exec(source, dict(live))  # noqa: S102 - the truth: the cell run for real
        raised = None
    except ValueError as exc:
        raised = str(exc)
    if raised is None:
        assert verdict.crash is not True, verdict.explanation
    else:
        assert "not recognized" in raised
        assert (verdict.crash, verdict.exception, verdict.crash_type) == (
            True, "ValueError", "invalid argument"), verdict.explanation
        assert "not recognized" in verdict.explanation


_CATEGORICAL = ("m = keras.Sequential([keras.Input((4,)), keras.layers.Dense(3, activation='{a}')])\n"
                "m.compile(optimizer='adam', loss='{loss}')\n"
                "y = keras.utils.to_categorical({y})\nm.fit(x4, y, epochs=1, verbose=0)")


@pytest.mark.parametrize(("source", "raises"), [
    # labels one-hot already (the cell that encodes them run a second time)
    (_CATEGORICAL.format(a="softmax", loss="categorical_crossentropy", y="onehot3, 3"), True),
    (_CATEGORICAL.format(a="sigmoid", loss="binary_crossentropy", y="onehot3, 3"), True),
    # class indices, a column of them, the classes counted from the labels
    (_CATEGORICAL.format(a="softmax", loss="categorical_crossentropy", y="labels3, 3"), False),
    (_CATEGORICAL.format(a="softmax", loss="categorical_crossentropy", y="column3, 3"), False),
    (_CATEGORICAL.format(a="softmax", loss="categorical_crossentropy", y="labels3"), False),
    (_CATEGORICAL.format(a="sigmoid", loss="binary_crossentropy", y="labels3, num_classes=3"),
     False),
])
def test_labels_one_hot_encoded_twice_are_a_certain_rank_error(ns: dict, source: str,
                                                                raises: bool) -> None:
    live = dict(ns, onehot3=np.eye(3, dtype="float32")[ns["labels3"]],
                column3=ns["labels3"].reshape(-1, 1))
    verdict = predict(source, live, engines=("rules",), options={"rules": {"trial_budget_s": 0.0}})
    try:
        exec(source, dict(live))  # noqa: S102 - the truth: the cell run for real
        raised = None
    except ValueError as exc:
        raised = str(exc)
    assert (raised is not None) is raises, raised
    if raises:
        assert (verdict.crash, verdict.exception) == (True, "ValueError"), verdict.explanation
        assert "same rank" in verdict.explanation and "(8, 3, 3)" in verdict.explanation
    else:
        assert verdict.crash is not True, verdict.explanation


STANDARDIZED = """
X_train = ((train_df[feature_cols] - mu) / sd).to_numpy("float32")
model = keras.Sequential([keras.Input(shape=(X_train.shape[1],)),
                          keras.layers.Dense(8, activation="relu"),
                          keras.layers.Dense(1, activation="sigmoid")])
model.compile(optimizer="adam", loss="binary_crossentropy")
test_cols = {test_cols}
X_test = ((test_df[test_cols] - mu[test_cols]) / sd[test_cols]).to_numpy("float32")
proba = model.predict(X_test, verbose=0)
"""


def _standardized_ns() -> dict:
    import pandas as pd

    rng = np.random.default_rng(4)
    train = pd.DataFrame(rng.normal(size=(20_000, 6)), columns=[f"f{i}" for i in range(6)])
    test = pd.DataFrame(rng.normal(size=(4_000, 6)), columns=[f"f{i}" for i in range(6)])
    train["ratio"] = train["f0"] / (1 + train["f1"].abs())  # made for the training rows only
    cols = list(train.columns)
    return {"np": np, "pd": pd, "keras": keras, "train_df": train, "test_df": test,
            "feature_cols": cols, "mu": train[cols].mean(), "sd": train[cols].std()}


@pytest.mark.parametrize("trials", [0.05, None])
def test_features_standardized_by_a_frame_minus_a_series_carry_their_shape(trials) -> None:
    """``(frame - series) / series`` aligns the series on the frame's columns: the
    result has the frame's rows. A test set without a feature made for the training rows
    only gives the model one input too few."""
    from crashpredict._rules import rules_engine
    from crashpredict_tests_cells import raised_type

    crash = STANDARDIZED.format(test_cols="[c for c in test_df.columns]")
    fixed = STANDARDIZED.format(test_cols="feature_cols")
    fixed = "test_df['ratio'] = test_df['f0'] / (1 + test_df['f1'].abs())\n" + fixed
    assert raised_type(crash, _standardized_ns()) == "ValueError"
    assert raised_type(fixed, _standardized_ns()) is None
    verdict = rules_engine(crash, _standardized_ns(), trial_budget_s=trials)
    assert (verdict.crash, verdict.exception, verdict.line) == (True, "ValueError", 9), verdict
    assert "(None, 7)" in verdict.explanation and "(4000, 6)" in verdict.explanation
    assert rules_engine(fixed, _standardized_ns(), trial_budget_s=trials).crash is False


def test_arithmetic_on_large_frames_waits_for_the_trials_time() -> None:
    """Milliseconds of arithmetic on 140,000 values run only while the trials have time:
    with none, the walk does not compute the features (and so says nothing)."""
    from crashpredict._rules import rules_engine

    crash = STANDARDIZED.format(test_cols="[c for c in test_df.columns]")
    assert rules_engine(crash, _standardized_ns(), trial_budget_s=0.0).crash is not True


def test_a_series_whose_labels_repeat_is_not_aligned_on_a_frame() -> None:
    """pandas aligns a series with repeated labels on a frame's columns by a join that
    can multiply them: not computed."""
    import pandas as pd

    from crashpredict._rules._facts import result_fits
    import ast as _ast

    frame = pd.DataFrame(np.zeros((10, 3)), columns=["a", "b", "c"])
    assert result_fits(_ast.Sub(), frame, pd.Series([1.0, 2.0, 3.0], index=["a", "b", "c"]))
    assert not result_fits(_ast.Sub(), frame, pd.Series([1.0, 2.0], index=["a", "a"]))
    assert not result_fits(_ast.Sub(), pd.DataFrame(np.zeros((2_000_000, 1)), columns=["a"]),
                           pd.Series([1.0], index=["b"]))
