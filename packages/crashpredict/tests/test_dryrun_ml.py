"""The dry run on TensorFlow/Keras and PyTorch training cells after the parent used them,
and on cells over budget (retried on shrunk data). Real libraries, tiny models."""

from __future__ import annotations

import numpy as np
import pytest

from crashpredict._dryrun import SHRUNK_CLEAN_CONFIDENCE, combine_with_rules, dry_run, dryrun_verdict
from crashpredict._model import Verdict


# ---- torch ---------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def torch_ns():
    torch = pytest.importorskip("torch")
    torch.manual_seed(0)
    X, y = torch.randn(512, 8), torch.randint(0, 2, (512,))
    loader = torch.utils.data.DataLoader(torch.utils.data.TensorDataset(X, y), batch_size=32,
                                         shuffle=True)
    model = torch.nn.Sequential(torch.nn.Linear(8, 16), torch.nn.ReLU(), torch.nn.Linear(16, 2))
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for xb, yb in loader:  # the parent's thread pools and autograd engine are now in use
        loss = torch.nn.functional.cross_entropy(model(xb), yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
    return {"torch": torch, "loader": loader, "model": model, "opt": opt, "X": X, "y": y}


TORCH_TRAIN = """
for epoch in range(2):
    for xb, yb in loader:
        loss = torch.nn.functional.cross_entropy(model(xb), yb{target})
        opt.zero_grad()
        loss.backward()
        opt.step()
"""


def test_torch_training_answers_after_the_parent_trained(torch_ns):
    before = [p.detach().clone() for p in torch_ns["model"].parameters()]
    clean = dry_run(TORCH_TRAIN.format(target=""), torch_ns, budget_s=20)
    assert clean.outcome == "completed", clean
    crash = dry_run(TORCH_TRAIN.format(target=".float()"), torch_ns, budget_s=20)
    assert (crash.outcome, crash.line, crash.library) == ("crashed", 4, "torch"), crash
    after = list(torch_ns["model"].parameters())
    assert all(bool((a == b).all()) for a, b in zip(after, before))


def test_a_dataloader_with_workers_loads_in_the_child_instead_of_forking(torch_ns):
    torch = torch_ns["torch"]
    ns = dict(torch_ns, workers=torch.utils.data.DataLoader(
        torch.utils.data.TensorDataset(torch_ns["X"], torch_ns["y"]), batch_size=64,
        num_workers=2, persistent_workers=True))
    cell = "total = 0\nfor xb, yb in workers:\n    total += len(model(xb{cut}))\nassert total == 512"
    assert dry_run(cell.format(cut=""), ns, budget_s=20).outcome == "completed"
    bad = dry_run(cell.format(cut="[:, :7]"), ns, budget_s=20)
    assert (bad.outcome, bad.exception, bad.line) == ("crashed", "RuntimeError", 3), bad


def test_torch_shape_error_in_forward(torch_ns):
    result = dry_run("model(torch.randn(4, 9))", torch_ns, budget_s=20)
    assert (result.outcome, result.exception) == ("crashed", "RuntimeError"), result


# ---- TensorFlow / Keras --------------------------------------------------------------------

@pytest.fixture(scope="module")
def keras_ns():
    tf = pytest.importorskip("tensorflow")
    rng = np.random.default_rng(0)
    X = rng.random((256, 8), dtype=np.float32)
    y = (X.sum(axis=1) > 4).astype("float32")
    model = tf.keras.Sequential([tf.keras.Input((8,)), tf.keras.layers.Dense(8, activation="relu"),
                                 tf.keras.layers.Dense(1, activation="sigmoid")])
    model.compile(optimizer="adam", loss="binary_crossentropy")
    model.fit(X, y, epochs=1, verbose=0)  # TensorFlow's runtime and thread pools now run
    ds = tf.data.Dataset.from_tensor_slices((X, y)).batch(32)
    return {"tf": tf, "model": model, "X": X, "y": y, "ds": ds}


@pytest.mark.parametrize(("cell", "outcome", "exception"), [
    ("model.fit(X, y, epochs=2, verbose=0)", "completed", None),
    ("model.fit(ds, epochs=1, verbose=0)", "completed", None),
    ("p = model.predict(X, verbose=0)\nassert p.shape == (256, 1)", "completed", None),
    ("loss = tf.keras.losses.binary_crossentropy(y, model(X)[:, 0])", "completed", None),
    ("model.fit(X, y[:-1], epochs=1, verbose=0)", "crashed", "ValueError"),
    ("model.predict(X[:, :5], verbose=0)", "crashed", "ValueError"),
])
def test_keras_cells_answer_after_the_parent_trained(keras_ns, cell, outcome, exception):
    weights = [w.copy() for w in keras_ns["model"].get_weights()]
    result = dry_run(cell, keras_ns, budget_s=20)
    assert (result.outcome, result.exception) == (outcome, exception), result
    assert all((a == b).all() for a, b in zip(keras_ns["model"].get_weights(), weights))


def test_a_tensorflow_op_stuck_on_a_dead_pool_is_stopped_early(keras_ns):
    # A large matmul shards onto the intra-op pool, whose threads did not survive the fork:
    # the child's watchdog sees an idle CPU inside TensorFlow and stops it, well before the
    # budget; the retry on shrunk data has nothing to cut.
    result = dry_run("tf.matmul(tf.ones((1500, 1500)), tf.ones((1500, 1500)))", keras_ns,
                     budget_s=30)
    assert result.outcome == "inconclusive"
    assert "thread pool did not survive the fork" in result.reason
    assert result.stuck_in == "tensorflow" and result.elapsed_s < 15


AFTER_A_FAILED_FIT = """
import sys
import numpy as np, keras
from crashpredict._dryrun import dry_run
keras.utils.set_random_seed(0)
X = np.random.rand(64, 3).astype("float32"); y = X.sum(1)
model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(8, activation="relu"),
                          keras.layers.Dense(1)])
model.compile(optimizer="adam", loss="mse")
model.fit(X, y, epochs=1, verbose=0)
try:
    model.fit(X[:, :2], y, epochs=1, verbose=0)  # a graph error; its pipeline is garbage now
except Exception as exc:
    print("PARENT", type(exc).__name__)
ns = {"model": model, "X": X, "y": y}
for cut in ("", "[:, :2]"):
    result = dry_run(f"model.fit(X{cut}, y, epochs=1, verbose=0)", ns, budget_s=20)
    print("RESULT", result.outcome, result.exception)
"""


def test_a_keras_fit_answers_right_after_the_parents_fit_failed():
    # The failed fit's tf.data iterator is garbage in the parent when it forks; the child
    # must not collect it (its threads did not survive the fork: the child hung until the
    # budget, then again on the retry). Run in a new interpreter: the graph error stays in
    # TensorFlow's runtime of the process that raised it.
    import os
    import subprocess
    import sys

    pytest.importorskip("keras")
    done = subprocess.run([sys.executable, "-c", AFTER_A_FAILED_FIT], capture_output=True,
                          text=True, timeout=300, env={**os.environ, "TF_CPP_MIN_LOG_LEVEL": "3"})
    lines = [line.split() for line in done.stdout.splitlines()
             if line.startswith(("PARENT", "RESULT"))]
    assert lines == [["PARENT", "InvalidArgumentError"], ["RESULT", "completed", "None"],
                     ["RESULT", "crashed", "ValueError"]], done.stdout + done.stderr[-2000:]


def test_the_child_sees_the_kernels_objects_in_gc_lists():
    # The child freezes what the kernel held (`freeze_kernel_objects`); a notebook that
    # looks its objects up through the GC still finds them there.
    class Probe:
        pass

    probe = Probe()
    ns = {"probe": probe, "holder": [probe], "Probe": Probe}
    cell = ("import gc\nfound = [o for o in gc.get_objects() if type(o) is Probe]\n"
            "assert found == [probe], found\n"
            "assert any(r is holder for r in gc.get_referrers(probe))\n"
            "junk = [[]]; junk[0].append(junk); del junk\n"
            "assert gc.collect() >= 1")
    result = dry_run(cell, ns, budget_s=20)
    assert result.outcome == "completed", result


# ---- joblib -------------------------------------------------------------------------------

def test_sklearn_n_jobs_runs_sequentially_instead_of_forking():
    pytest.importorskip("sklearn")
    from sklearn.linear_model import LogisticRegression
    from sklearn.model_selection import GridSearchCV

    X, y = np.random.default_rng(0).random((60, 3)), np.arange(60) % 2
    ns = {"GridSearchCV": GridSearchCV, "LogisticRegression": LogisticRegression, "X": X, "y": y}
    cell = "GridSearchCV(LogisticRegression(), {{'C': [1, 2]}}, n_jobs=2).fit({x}, y)"
    assert dry_run(cell.format(x="X"), ns, budget_s=20).outcome == "completed"
    bad = dry_run(cell.format(x="X[:, 0]"), ns, budget_s=20)
    assert (bad.outcome, bad.exception) == ("crashed", "ValueError"), bad


# ---- over budget: retried on shrunk data ---------------------------------------------------

# slow in proportion to the rows, with no loop statement of the cell's own to cut short
# 20,000 rows sleep at least 4 s, past the 2 s budgets below; the 500 rows of a shrunk retry
# take about 0.1 s, with room for a loaded machine (a millisecond a row left too little)
SLOW_ROWS = "import time\n_ = df['a'].apply(lambda value: time.sleep(0.0002))\n"


def test_a_cell_over_budget_is_retried_on_the_first_rows():
    pd = pytest.importorskip("pandas")
    df = pd.DataFrame({"a": np.arange(20_000.0), "b": 1.0})
    crash = dry_run(SLOW_ROWS + "df['missing']", {"df": df}, budget_s=2)
    assert (crash.outcome, crash.exception, crash.shrunk, crash.shrunk_names) == (
        "crashed", "KeyError", True, ("df",)), crash
    assert "budget" in crash.retry_reason
    verdict = dryrun_verdict(crash, SLOW_ROWS + "df['missing']")
    assert verdict.confidence == 0.9 and any(e.startswith("retried on the first rows of df")
                                             for e in verdict.evidence)
    assert len(df) == 20_000


def test_a_shrunk_retry_keeps_the_rows_with_missing_values_and_new_labels():
    pd = pytest.importorskip("pandas")
    pytest.importorskip("sklearn.linear_model")  # imported here, not in the child's budget
    df = pd.DataFrame({"a": np.arange(20_000.0), "y": [0, 1] * 10_000})
    df.loc[15_000, "a"] = np.nan  # far past the head a shrunk run keeps
    cell = (SLOW_ROWS + "from sklearn.linear_model import LogisticRegression\n"
            "LogisticRegression().fit(df[['a']], df['y'])")
    # 3 s: the whole run (4 s of sleeps) is over it; the shrunk retry fits in it when loaded
    dry = dry_run(cell, {"df": df}, budget_s=3)
    assert (dry.outcome, dry.exception, dry.shrunk) == ("crashed", "ValueError", True), dry
    fixed = dry_run(cell.replace("df[['a']]", "df[['a']].fillna(0)"), {"df": df}, budget_s=3)
    assert (fixed.outcome, fixed.shrunk) == ("completed", True), fixed


def test_a_clean_shrunk_run_does_not_clear_a_crash_past_the_head():
    pd = pytest.importorskip("pandas")
    dates = pd.Series(pd.date_range("2020-01-01", periods=20_000, freq="h").astype(str))
    # past the head, of the head's shape: no NaN, new category or new shape flags it
    dates[15_000] = "2020-13-45 00:00:00"
    df = pd.DataFrame({"a": np.arange(20_000.0), "when": dates})
    cell = SLOW_ROWS + "df['when'] = pd.to_datetime(df['when'], format='%Y-%m-%d %H:%M:%S')"
    dry = dry_run(cell, {"df": df, "pd": pd}, budget_s=2)
    assert (dry.outcome, dry.shrunk) == ("completed", True), dry
    alone = dryrun_verdict(dry, cell)
    assert (alone.crash, alone.confidence) == (False, SHRUNK_CLEAN_CONFIDENCE)
    assert "not ruled out" in alone.explanation
    rule = Verdict(crash=True, confidence=0.5, exception="ValueError", crash_type="value error",
                   explanation="a date that does not match the format", engine="rules")
    assert combine_with_rules(rule, dry).crash is True


def test_a_shrunk_retry_keeps_a_text_of_a_new_shape_past_the_head():
    pd = pytest.importorskip("pandas")
    dates = pd.Series(pd.date_range("2020-01-01", periods=20_000, freq="h").astype(str))
    dates[15_000] = "not a date"  # no NaN, a new label as every date is: a new shape
    df = pd.DataFrame({"a": np.arange(20_000.0), "when": dates})
    cell = SLOW_ROWS + "df['when'] = pd.to_datetime(df['when'], format='%Y-%m-%d %H:%M:%S')"
    dry = dry_run(cell, {"df": df, "pd": pd}, budget_s=2)
    assert (dry.outcome, dry.exception, dry.shrunk) == ("crashed", "ValueError", True), dry
    assert "not a date" in dry.message
    assert dryrun_verdict(dry, cell).crash is True


def test_a_shrunk_retry_cuts_what_functions_of_earlier_cells_read():
    pd = pytest.importorskip("pandas")
    ns = {"pd": pd, "df": pd.DataFrame({"a": np.arange(20_000.0)})}
    exec("import time\ndef slow_sum():\n    for v in df['a']:\n        time.sleep(0.001)\n"
         "    return df['b']", ns)
    result = dry_run("total = slow_sum()", ns, budget_s=2)
    assert (result.outcome, result.exception, result.shrunk_names) == (
        "crashed", "KeyError", ("df",)), result


def test_a_cell_over_budget_with_nothing_to_cut_stays_inconclusive():
    result = dry_run("import time\ntime.sleep(30)", {"big": np.zeros(10_000)}, budget_s=1)
    assert result.outcome == "inconclusive" and "budget" in result.reason
    assert result.elapsed_s < 1 + 0.5 + 2.5


# ---- loaders cut to their first rows keep what the user reads of them ----------------------

def test_a_cut_torch_loader_answers_for_its_dataset(torch_ns):
    from crashpredict._dryrun._shrink import shrink_namespace

    torch = torch_ns["torch"]

    class Images(torch.utils.data.TensorDataset):
        classes = ["cat", "dog"]

    dataset = Images(torch_ns["X"], torch_ns["y"])
    dataset.root = "data/train"
    ns = {"loader": torch.utils.data.DataLoader(dataset, batch_size=32)}
    assert shrink_namespace(ns, 40) == ("loader",)
    cut = ns["loader"].dataset
    assert len(cut) == 40 and cut.classes == ["cat", "dog"] and cut.root == "data/train"
    with pytest.raises(AttributeError):
        cut.no_such_field
    assert sum(len(xb) for xb, _ in ns["loader"]) == 40


def test_a_cut_tf_dataset_keeps_what_was_set_on_it(keras_ns):
    from crashpredict._dryrun._shrink import shrink_namespace

    ds = keras_ns["tf"].data.Dataset.from_tensor_slices((keras_ns["X"], keras_ns["y"])).batch(8)
    ds.class_names = ["low", "high"]  # as image_dataset_from_directory sets it
    ns = {"ds": ds}
    assert shrink_namespace(ns, 100) == ("ds",)
    assert ns["ds"] is not ds and ns["ds"].class_names == ["low", "high"]
    assert int(ns["ds"].cardinality()) == 3
