"""Fast-forwarded dry runs: long cells reach their crash within the budget, honestly.

Each cell would run far past the budget for real (its loops sleep); the dry run retries it
with every loop cut to its first iterations. A crash that the cut cannot have caused is
reported with what was cut; one the cut may have caused (a list built by the loop, a name
bound in a later iteration) is inconclusive; a clean run is a weak "no crash".
"""

from __future__ import annotations

import linecache
import re
import sys
import time
import types
from collections.abc import Callable

import pytest

from crashpredict._dryrun import dry_run, dryrun_verdict
from crashpredict._dryrun._fastforward import KEEP_ITERATIONS
from crashpredict_tests_cells import beside_the_cell as _beside_the_cell  # registered by conftest.py
from crashpredict_tests_cells import raised_type as _raised_type
from crashpredict_tests_cells import raised_in_a_new_process

pytestmark = pytest.mark.usefixtures("no_new_children")

BUDGET = 2.0  # seconds: a fork, its jail and the cut run fit in it on a loaded machine
TRAIN = """
import time
history = []
for epoch in range(50):
    for batch in range(200):
        time.sleep(0.002)
    history.append(epoch)
"""


def _predict(cell: str, namespace: dict | None = None, budget_s: float = BUDGET):
    started = time.perf_counter()
    result = dry_run(cell, namespace if namespace is not None else {}, budget_s=budget_s,
                     retry_rows=None)
    elapsed = time.perf_counter() - started
    assert elapsed < 3 * budget_s + 2, elapsed  # the full run, then the fast-forwarded one
    return result, dryrun_verdict(result, cell)


def test_a_crash_after_a_long_loop_is_reached_and_says_what_was_cut():
    cell = TRAIN + "scores = {'loss': 0.1}\nprint(scores['val_accuracy'])\n"
    result, verdict = _predict(cell)
    assert result.fast_forwarded and result.cut_before_crash and not result.cut_may_cause
    assert (verdict.crash, verdict.exception, verdict.line) == (True, "KeyError", 9)
    assert verdict.confidence == 0.9
    assert "for epoch in range(50) (line 4 of the cell): ran 3 of 50 iterations" in result.cuts
    assert any("in each of its 3 runs" in c for c in result.cuts)
    assert any(e.startswith("cut short: for epoch") for e in verdict.evidence)


@pytest.mark.parametrize("after", [
    "import numpy as np\nnp.array(history).reshape(50, 1)",  # the loop built a shorter list
    "print(history[49])",                                      # an index past the cut
    "print(best)",                                              # bound in a later iteration
    "totals = {e: 1 for e in history}\nprint(totals[42])",      # a key the cut never made
    "import pandas as pd\nfull = pd.DataFrame({'epoch': history})\nfull.set_index('epoch').loc[42]",
])
def test_a_crash_the_cut_can_cause_is_inconclusive(after):
    cell = TRAIN.replace("    history.append(epoch)\n",
                         "    history.append(epoch)\n    if epoch == 40:\n        best = epoch\n")
    result, verdict = _predict(cell + after + "\n")
    assert result.outcome == "crashed" and result.cut_before_crash, result
    assert verdict.crash is None, verdict
    assert "after a loop was cut short" in verdict.explanation


def test_a_clean_fast_forwarded_run_is_a_weak_no_crash():
    result, verdict = _predict(TRAIN + "print(history[0])\n")
    assert result.outcome == "completed" and result.cuts
    assert verdict.crash is False and verdict.confidence == 0.6
    assert "iterations that were cut is not ruled out" in verdict.explanation


def test_while_loops_are_cut_and_the_cell_goes_on_after_them():
    cell = ("import time\nsteps = 0\nwhile True:\n    time.sleep(0.01)\n    steps += 1\n"
            "    if steps == 10_000:\n        break\nelse:\n    ended = True\n"
            "config = {}\nconfig['lr']\n")
    result, verdict = _predict(cell)
    assert (verdict.crash, verdict.exception, verdict.line) == (True, "KeyError", 11)
    # 10 ms a step: it ran until the run was CUT_AFTER_S old (a sixth of the budget)
    (cut,) = result.cuts
    ran = int(re.fullmatch(r"while True \(line 3 of the cell\): ran (\d+) iterations", cut)[1])
    assert KEEP_ITERATIONS <= ran < 10_000


def test_loops_within_the_kept_iterations_are_not_cut():
    cell = "import time\ntime.sleep(5)\n" + "\n".join(
        [f"for i in range({KEEP_ITERATIONS}):\n    pass"]) + "\nx = {}['k']\n"
    result, _ = _predict(cell)
    # the loop ran whole: nothing was cut, and the sleep outside any loop stays too long
    assert result.cuts == () and result.outcome == "inconclusive"


def test_a_short_loop_runs_whole_so_its_later_iterations_crash_for_real():
    pd = pytest.importorskip("pandas")
    # ten columns converted one by one; the seventh holds '46.0' (JunoBench pandas_5's class)
    frame = pd.DataFrame({f"c{i}": ["1", "2"] for i in range(10)}).assign(c6=["46.0", "3"])
    cell = ("import time\ntime.sleep(0.01)\nfor column in list(frame):\n"
            "    frame[column] = frame[column].astype('int')\n")
    # beside the cell (the notebook's one run): the loop runs whole, where the machine lets
    # the child take its ten iterations within the 0.1 s before a cut (`CUT_LAST_AFTER_S`:
    # a list's loop has a last item to run after its cut; a loaded machine may not: then
    # once more)
    result = _beside_the_cell({"frame": frame}, cell)
    if result.cuts:
        result = _beside_the_cell({"frame": frame}, cell)
    assert (result.outcome, result.exception, result.line) == ("crashed", "ValueError", 4), result
    assert result.cuts == () and not result.cut_before_crash
    # the replay's dry run cuts it at once, then runs the whole cell: the same crash (a
    # budget that a loaded machine's slow iterations still let it finish in)
    result, verdict = _predict(cell, {"frame": frame}, budget_s=3 * BUDGET)
    assert (result.outcome, result.exception, result.line) == ("crashed", "ValueError", 4), result
    assert verdict.crash is True


def test_the_cut_counts_the_cells_time_not_the_childs_set_up(monkeypatch):
    """A kernel that loaded a boosting library makes the child's set-up scan its modules
    (tens of ms in a big kernel, 0.3 s here): that is not the cell's time, so a loop whose
    last iteration runs after a cut (`CUT_LAST_AFTER_S`, 0.1 s) is still not cut."""
    pd = pytest.importorskip("pandas")
    from crashpredict._dryrun import _fastforward

    capped = _fastforward.cap_libraries

    def slow_set_up(*args, **kwargs):
        time.sleep(0.3)
        return capped(*args, **kwargs)

    monkeypatch.setattr(_fastforward, "cap_libraries", slow_set_up)  # the fork inherits it
    frame = pd.DataFrame({f"c{i}": ["1", "2"] for i in range(10)}).assign(c6=["46.0", "3"])
    cell = "for column in list(frame):\n    frame[column] = frame[column].astype('int')\n"
    result = _beside_the_cell({"frame": frame}, cell)
    assert (result.outcome, result.exception, result.line, result.cuts) == (
        "crashed", "ValueError", 2, ()), result


def test_a_long_loop_is_cut_once_the_run_has_taken_its_share_of_the_budget():
    from crashpredict._dryrun._fastforward import Cutter

    cutter = Cutter({}, cut_after_s=0.05)
    kept = sum(1 for _ in cutter._iterate(iter(range(10**6)), 0) if not time.sleep(0.002))
    assert KEEP_ITERATIONS < kept < 10**6 and cutter.cut == [0]
    assert cutter.kept == {0: kept} and cutter.scale() == pytest.approx(1.0)  # no total known
    quick = Cutter({}, cut_after_s=0.0)
    assert sum(1 for _ in quick._iterate(iter(range(100)), 1)) == KEEP_ITERATIONS


@pytest.mark.parametrize("cut_after_s, kept", [
    (0.05, 2),  # beside the cell: two slow iterations took SLOW_KEEP_S, and are enough
    (0.0, KEEP_ITERATIONS),  # the replay's cut: its whole run follows when the budget allows
])
def test_a_loop_of_slow_iterations_beside_the_cell_keeps_two(monkeypatch, cut_after_s, kept):
    from crashpredict._dryrun import _fastforward
    from crashpredict._dryrun._fastforward import Cutter

    monkeypatch.setattr(_fastforward, "SLOW_KEEP_S", 0.2)
    cutter = Cutter({}, cut_after_s=cut_after_s)
    ran = sum(1 for _ in cutter._iterate(iter(range(10)), 0) if not time.sleep(0.15))
    assert ran == kept and cutter.cut == [0]
    ticking = Cutter({}, cut_after_s=cut_after_s)  # a ``while`` loop's ticks alike
    ticks = 0
    while ticks < 10 and ticking.tick(2):
        time.sleep(0.15)
        ticks += 1
    assert ticks == kept and ticking.cut == [2]
    # quick iterations keep KEEP_ITERATIONS at least, whatever the run's age
    late = Cutter({}, cut_after_s=0.05)
    late.began -= 10
    assert sum(1 for _ in late._iterate(iter(range(10)), 1)) == KEEP_ITERATIONS


def _notebook_namespace(source: str, name: str = "<ipython-input-7>") -> dict:
    """A namespace whose functions come from a 'cell' whose source linecache knows, as
    IPython registers every cell."""
    linecache.cache[name] = (len(source), None, source.splitlines(True), name)
    namespace: dict = {"__name__": "__main__"}
    exec(compile(source, name, "exec"), namespace)  # noqa: S102
    return namespace


TRAIN_FUNCTION = """
import time

def train(epochs):
    losses = []
    for epoch in range(epochs):
        time.sleep(0.05)
        losses.append(1.0 / (epoch + 1))
    return losses
"""


def test_loops_in_the_notebooks_own_functions_are_cut_too():
    namespace = _notebook_namespace(TRAIN_FUNCTION)
    result, verdict = _predict("losses = train(500)\nsettings = {}\nsettings['epochs']\n",
                               namespace)
    assert (verdict.crash, verdict.exception, verdict.line) == (True, "KeyError", 3)
    (cut,) = result.cuts
    ran = re.fullmatch(r"for epoch in range\(epochs\) \(line 6 of function train\): ran "
                       r"(\d+) of 500 iterations", cut)
    assert ran and KEEP_ITERATIONS <= int(ran[1]) < 500, cut
    assert namespace["train"].__code__.co_filename == "<ipython-input-7>"  # the kernel's own


def test_a_value_returned_by_a_cut_function_is_not_trusted():
    namespace = _notebook_namespace(TRAIN_FUNCTION)
    result, verdict = _predict("losses = train(500)\nlosses.best_epoch\n", namespace)
    assert result.cut_may_cause and verdict.crash is None


def test_a_missing_file_that_a_cut_loop_writes_is_not_claimed(tmp_path):
    cell = (f"import time, os\nfor epoch in range(100):\n    time.sleep(0.02)\n"
            f"    if epoch == 90:\n        open(os.path.join({str(tmp_path)!r}, 'ckpt'), 'w')\n"
            f"open(os.path.join({str(tmp_path)!r}, 'ckpt'))\n")
    result, verdict = _predict(cell)
    assert result.exception == "FileNotFoundError" and verdict.crash is None, verdict


def test_a_loop_that_only_reads_files_cannot_make_a_missing_folder(tmp_path):
    for day in range(3):
        (tmp_path / f"day{day}.csv").write_text("t\n1\n2\n")
    cell = (f"import os, time\nrows = 0\nfor name in sorted(os.listdir({str(tmp_path)!r}))"
            f" * 100:\n    time.sleep(0.02)\n    with open(os.path.join({str(tmp_path)!r}, "
            f"name)) as fh:\n        rows += len(fh.readlines())\n"
            f"with open(os.path.join({str(tmp_path)!r}, 'results', 'summary.txt'), 'w') as fh:\n"
            f"    fh.write(str(rows))\n")
    result, verdict = _predict(cell)
    assert result.cut_before_crash and not result.cut_may_cause, result
    assert (verdict.crash, verdict.exception) == (True, "FileNotFoundError"), verdict


def test_keras_fit_runs_one_epoch_of_two_steps():
    tf = pytest.importorskip("tensorflow")
    np = pytest.importorskip("numpy")
    keras = tf.keras
    model = keras.Sequential([keras.Input((4,)), keras.layers.Dense(1)])
    model.compile(loss="mse", optimizer="sgd")
    namespace = {"model": model, "X": np.zeros((64, 4)), "y": np.zeros(64), "np": np}
    cell = ("history = model.fit(X, y, epochs=100000, batch_size=1, verbose=0)\n"
            "print(history.history['val_loss'][-1])\n")
    # a budget that a busy machine's first eager Keras steps fit in (the cut is the test)
    result = dry_run(cell, namespace, budget_s=3.0, retry_rows=None)
    verdict = dryrun_verdict(result, cell)
    assert (verdict.crash, verdict.exception, verdict.line) == (True, "KeyError", 2), result
    assert "Keras fit: ran 1 of 100,000 epochs, 2 steps" in result.cuts


#: an earlier cell: a small Keras classifier and a learning-rate plan of ten epochs
SCHEDULED_SETUP = """
import numpy as np
import keras
keras.utils.set_random_seed(1)
rng = np.random.default_rng(1)
X = rng.normal(size=(256, 8)).astype('float32')
y = (X[:, 0] > 0).astype('int32')
model = keras.Sequential([keras.Input(shape=(8,)), keras.layers.Dense(8, activation='relu'),
                          keras.layers.Dense(2, activation='softmax')])
model.compile(optimizer=keras.optimizers.Adam(1e-3), loss='sparse_categorical_crossentropy')
lr_plan = [1e-3] * 4 + [5e-4] * 4 + [1e-4] * 2
"""

SCHEDULED = """
def schedule(epoch, lr):
    return lr_plan[{index}]

callbacks = [keras.callbacks.LearningRateScheduler(schedule){more}]
hist = model.fit(X, y, epochs=12, batch_size=64, verbose=0, callbacks=callbacks)
"""


@pytest.mark.parametrize("index", ["epoch", "min(epoch, len(lr_plan) - 1)"])
def test_a_learning_rate_plan_that_runs_out_at_a_cut_epoch_is_the_cells_crash(index):
    """A Keras fit of 12 epochs with a schedule that reads a plan of 10: the real fit's
    11th epoch begins with ``lr_plan[10]``. The cut fit runs one epoch; its schedule, a
    pure function of the notebook's, is then called for each epoch as the real fit calls
    it (`_scheduled_failure`): the ``IndexError`` is the cell's, at the schedule's line.
    The fix clips the index."""
    pytest.importorskip("keras")
    cell = SCHEDULED.format(index=index, more="")
    truth = raised_in_a_new_process(SCHEDULED_SETUP, cell)
    assert truth == (None if "min" in index else "IndexError")
    namespace: dict = {"__name__": "__main__"}
    exec(SCHEDULED_SETUP, namespace)  # noqa: S102 - the notebook's earlier cell
    result, verdict = _predict(cell, namespace)
    assert "Keras fit: ran 1 of 12 epochs, 2 steps" in result.cuts, result
    if truth is None:
        assert verdict.crash is not True, (verdict, result)
    else:
        assert result.cut_before_crash and not result.cut_may_cause, result
        assert (verdict.crash, verdict.exception, verdict.line) == (True, "IndexError", 3), \
            verdict


def test_a_learning_rate_plan_that_an_early_stop_never_reaches_is_not_read_as_failing():
    """The same plan, but an ``EarlyStopping`` callback stops the real fit after its
    first epochs, before the plan runs out: the real run is clean. The schedule's failure
    at the 11th epoch is not called for (a callback that may stop the fit)."""
    pytest.importorskip("keras")
    cell = SCHEDULED.format(index="epoch", more=", keras.callbacks.EarlyStopping("
                            "monitor='loss', patience=0, min_delta=10.0)")
    assert raised_in_a_new_process(SCHEDULED_SETUP, cell) is None
    namespace: dict = {"__name__": "__main__"}
    exec(SCHEDULED_SETUP, namespace)  # noqa: S102 - the notebook's earlier cell
    result, verdict = _predict(cell, namespace)
    assert verdict.crash is not True, (verdict, result)


def test_a_missing_folder_after_training_is_the_cells_own():
    cell = TRAIN + "import json\nwith open('reports/metrics.json', 'w') as fh:\n" \
                   "    json.dump({'epochs': len(history)}, fh)\n"
    result, verdict = _predict(cell)
    assert result.cut_before_crash and not result.cut_may_cause, result
    assert (verdict.crash, verdict.exception, verdict.crash_type) == (
        True, "FileNotFoundError", "file not found")


def test_a_doubtful_fast_forward_is_retried_whole_on_fewer_rows():
    pd = pytest.importorskip("pandas")
    df = pd.DataFrame({"a": range(20_000), "b": 1.0})
    cell = ("import time\nscores = []\nfor row in df.itertuples():\n    time.sleep(0.001)\n"
            "    scores.append(row.a * 2)\ndf['score'] = scores\ndf['missing']\n")
    result = dry_run(cell, {"df": df}, budget_s=BUDGET)
    # fast-forwarded, `df['score'] = scores` fails (3 scores for 20,000 rows): the cut's
    # doing; on 500 rows the whole loop runs and the real crash is seen
    assert (result.outcome, result.exception, result.shrunk) == ("crashed", "KeyError", True), result
    assert dryrun_verdict(result, cell).crash is True
    assert len(df) == 20_000


def _sklearn_data():
    np = pytest.importorskip("numpy")
    pytest.importorskip("sklearn")
    rng = np.random.default_rng(0)
    X = rng.random((3000, 10))
    return np, X, (X[:, 0] > 0.5).astype(int)


def test_sklearn_fits_keep_two_iterations_and_their_input_checks_count():
    np, X, y = _sklearn_data()
    from sklearn.ensemble import GradientBoostingClassifier

    # 100,000 trees: hours for real; the prediction's input has 5 features, the fit's 10
    cell = ("model = GradientBoostingClassifier(n_estimators=100_000).fit(X, y)\n"
            "pred = model.predict(X[:, :5])\n")
    ns = {"GradientBoostingClassifier": GradientBoostingClassifier, "X": X, "y": y}
    result, verdict = _predict(cell, ns)
    assert (verdict.crash, verdict.exception, verdict.line) == (True, "ValueError", 2), result
    assert "GradientBoostingClassifier fit: n_estimators cut to 2 of 100,000" in result.cuts
    assert "features" in result.message and not result.cut_before_crash
    assert "model" not in ns


def test_a_library_the_cell_imports_itself_is_loaded_first_so_its_fits_are_cut(tmp_path):
    """A kernel that has not loaded scikit-learn yet, and a cell that imports it and then
    fits for hours: the dry run loads it before the cell runs, so the fit is cut from the
    start, and the crash after it is reached. Run in a fresh process: this one has
    scikit-learn loaded already."""
    import subprocess
    import textwrap

    pytest.importorskip("sklearn")
    script = tmp_path / "fresh.py"
    script.write_text(textwrap.dedent(r"""
        import sys
        import numpy as np
        from crashpredict._dryrun import dry_run, dryrun_verdict
        assert "sklearn" not in sys.modules
        X = np.random.default_rng(0).random((3000, 10))
        cell = ("from sklearn.ensemble import GradientBoostingClassifier\n"
                "model = GradientBoostingClassifier(n_estimators=100_000)\n"
                "model.fit(X, (X[:, 0] > 0.5).astype(int))\n"
                "pred = model.predict(X[:, :5])\n")
        result = dry_run(cell, {"X": X, "np": np}, budget_s=float(sys.argv[1]), retry_rows=None)
        verdict = dryrun_verdict(result, cell)
        print(verdict.crash, verdict.exception, verdict.line, "sklearn" in sys.modules)
        print(*result.cuts, sep="\n")
    """))
    # the budget holds the child's first import of scikit-learn (2-3 s on a loaded machine)
    done = subprocess.run([sys.executable, str(script), "8"], capture_output=True, text=True,
                          timeout=120)
    lines = done.stdout.splitlines()
    assert done.returncode == 0 and lines, done.stderr[-2000:]
    assert lines[0] == "True ValueError 4 False", done.stdout  # the kernel's own: untouched
    assert "GradientBoostingClassifier fit: n_estimators cut to 2 of 100,000" in lines[1:]


def test_a_crash_that_the_cut_fit_may_cause_is_not_trusted():
    np, X, y = _sklearn_data()
    from sklearn.ensemble import GradientBoostingClassifier

    cell = ("model = GradientBoostingClassifier(n_estimators=100_000).fit(X, y)\n"
            "tree = model.estimators_[500]\n")  # fewer trees after the cut: not the cell's
    result, verdict = _predict(cell, {"GradientBoostingClassifier": GradientBoostingClassifier,
                                      "X": X, "y": y})
    assert verdict.crash is not True, result


def test_a_short_sklearn_fit_still_runs_whole():
    np, X, y = _sklearn_data()
    from sklearn.linear_model import LogisticRegression

    cell = "model = LogisticRegression(max_iter=500).fit(X, y)\nscore = model.score(X, y)\n"
    result, verdict = _predict(cell, {"LogisticRegression": LogisticRegression, "X": X, "y": y})
    assert result.outcome == "completed" and not result.cuts, result  # the whole run's answer
    assert verdict.crash is False


def test_the_cap_leaves_small_and_warm_started_estimators_alone():
    pytest.importorskip("sklearn")
    from sklearn.ensemble import RandomForestClassifier

    from crashpredict._dryrun._fastforward import Cutter, _cap_estimator

    cutter = Cutter({})
    warm = RandomForestClassifier(n_estimators=300, warm_start=True)
    _cap_estimator(warm, cutter)
    small = RandomForestClassifier(n_estimators=2)
    _cap_estimator(small, cutter)
    assert (warm.n_estimators, small.n_estimators, cutter.library_cuts) == (300, 2, [])
    big = RandomForestClassifier(n_estimators=300)
    _cap_estimator(big, cutter)
    assert big.n_estimators == 2
    assert cutter.library_cuts == ["RandomForestClassifier fit: n_estimators cut to 2 of 300"]


def test_a_doubtful_crash_on_fewer_rows_is_run_again_whole_on_them():
    pd = pytest.importorskip("pandas")
    np = pytest.importorskip("numpy")
    rng = np.random.default_rng(0)
    n = 2_000_000
    df = pd.DataFrame({"age": rng.integers(18, 90, n).astype(float),
                       "city": np.array(["north", "south"], dtype=object)[rng.integers(0, 2, n)]})
    # the row loop is cut; then a step too slow on all rows even fast-forwarded (two
    # seconds per million rows); on 500 rows, fast-forwarded, the crash reads what the cut loop
    # made: the whole cell runs on them
    cell = ("bad = []\nfor row in df.itertuples():\n    if row.age > 120:\n"
            "        bad.append(row.Index)\ndf = df.drop(index=bad)\n"
            "import time\ntime.sleep(len(df) / 500_000)\n"
            "X = df[['age', 'city']].astype(float)\n")
    result = dry_run(cell, {"df": df}, budget_s=BUDGET)
    assert (result.outcome, result.exception, result.line) == ("crashed", "ValueError", 8), result
    assert result.shrunk and not result.cuts
    assert dryrun_verdict(result, cell).crash is True


# ---- gradient boosting libraries: two rounds, the same data checks -------------------------


def _frame_data():
    pd = pytest.importorskip("pandas")
    np, X, y = _sklearn_data()
    return pd.DataFrame(X, columns=[f"f{i}" for i in range(X.shape[1])]), y


def test_an_xgboost_fit_trains_two_rounds_and_its_prediction_checks_count():
    xgb = pytest.importorskip("xgboost")
    frame, y = _frame_data()
    # 100,000 rounds: far past the budget for real; the prediction's frame lacks a column
    cell = ("model = xgb.XGBClassifier(n_estimators=100_000, max_depth=3).fit(frame, y)\n"
            "pred = model.predict(frame.drop(columns=['f3']))\n")
    result, verdict = _predict(cell, {"xgb": xgb, "frame": frame, "y": y})
    assert (verdict.crash, verdict.exception, verdict.line) == (True, "ValueError", 2), result
    assert "XGBoost train: num_boost_round cut to 2 of 100,000" in result.cuts
    assert "f3" in result.message and not result.cut_before_crash


def test_a_lightgbm_train_reads_its_rounds_from_params_and_leaves_them_untouched():
    lgb = pytest.importorskip("lightgbm")
    np, X, y = _sklearn_data()
    params = {"objective": "binary", "num_iterations": 100_000, "verbose": -1}
    cell = ("booster = lgb.train(params, lgb.Dataset(X, y))\n"
            "print(params['num_iterations'])\n"
            "pred = booster.predict(X[:, :5])\n")  # 5 features; it was trained on 10
    ns = {"lgb": lgb, "X": X, "y": y, "params": params}
    result, verdict = _predict(cell, ns)
    assert (verdict.crash, verdict.line) == (True, 3), result
    assert result.exception.endswith("LightGBMError") and "features" in result.message
    assert "LightGBM train: num_boost_round cut to 2 of 100,000" in result.cuts
    assert params["num_iterations"] == 100_000 and "booster" not in ns


def test_beside_the_cell_a_boosting_fit_is_capped_through_the_modules_found_ahead():
    """A standby child finds the boosting library's modules while it waits for its cell
    (`find_library_modules`): its trainer is capped through them, as with a full read."""
    lgb = pytest.importorskip("lightgbm")
    np, X, y = _sklearn_data()
    cell = ("for seed in range(2):\n"
            "    booster = lgb.train({'objective': 'binary', 'verbose': -1, 'seed': seed},\n"
            "                        lgb.Dataset(X, y), num_boost_round=100_000)\n"
            "pred = booster.predict(X[:, :5])\n")  # 5 features; it was trained on 10
    result = _beside_the_cell({"lgb": lgb, "X": X, "y": y}, cell)
    assert (result.outcome, result.line) == ("crashed", 4), result
    assert result.exception.endswith("LightGBMError") and "features" in result.message
    assert "LightGBM train: num_boost_round cut to 2 of 100,000" in result.cuts


def test_the_modules_found_ahead_are_read_again_once_a_module_is_loaded(monkeypatch):
    pytest.importorskip("lightgbm")
    from crashpredict._dryrun import _fastforward

    monkeypatch.setattr(_fastforward, "_LIBRARY_MODULES", None)
    read_now = _fastforward._library_modules("lightgbm")
    _fastforward.find_library_modules()
    loaded, found = _fastforward._LIBRARY_MODULES
    assert loaded == len(sys.modules) and "lightgbm" in found
    assert [id(d) for d in found["lightgbm"]] == [id(d) for d in read_now]
    assert _fastforward._library_modules("lightgbm") is found["lightgbm"]
    new = types.ModuleType("lightgbm._crashpredict_test_loaded_later")
    monkeypatch.setitem(sys.modules, new.__name__, new)  # a module the cell loads
    again = _fastforward._library_modules("lightgbm")
    assert again is not found["lightgbm"] and any(d is vars(new) for d in again)


def test_a_catboost_fit_trains_two_iterations_by_default_too():
    cb = pytest.importorskip("catboost")
    frame, y = _frame_data()
    # no iterations given: CatBoost's default is 1,000
    cell = ("model = cb.CatBoostClassifier(verbose=0, thread_count=1).fit(frame, y)\n"
            "pred = model.predict(frame.drop(columns=['f3']))\n")
    result, verdict = _predict(cell, {"cb": cb, "frame": frame, "y": y})
    assert (verdict.crash, verdict.line) == (True, 2), result
    assert "CatBoost fit: iterations cut to 2 of 1,000" in result.cuts


def test_a_crash_that_fewer_trees_may_cause_is_not_trusted():
    xgb = pytest.importorskip("xgboost")
    np, X, y = _sklearn_data()
    cell = ("model = xgb.XGBClassifier(n_estimators=100_000, max_depth=3).fit(X, y)\n"
            "tree = model.get_booster().get_dump()[500]\n")  # 2 trees after the cut
    result, verdict = _predict(cell, {"xgb": xgb, "X": X, "y": y})
    assert verdict.crash is not True, result
    assert any("cut to 2 of 100,000" in c for c in result.cuts)


def test_a_training_function_imported_by_name_is_cut_and_a_short_one_runs_whole():
    pytest.importorskip("xgboost")
    from xgboost import DMatrix, train
    np, X, y = _sklearn_data()
    ns = {"train": train, "DMatrix": DMatrix, "X": X, "y": y}
    cell = ("booster = train({'max_depth': 2}, DMatrix(X, y), num_boost_round=100_000)\n"
            "print(booster['missing'])\n")  # a Booster has no such attribute: a TypeError
    result, verdict = _predict(cell, ns)
    assert "XGBoost train: num_boost_round cut to 2 of 100,000" in result.cuts, result
    assert ns["train"] is train
    short = "booster = train({'max_depth': 2}, DMatrix(X, y), num_boost_round=2)\n"
    result, verdict = _predict(short, dict(ns))
    assert result.outcome == "completed" and not result.cuts, result
    assert verdict.crash is False


def test_a_cut_training_call_says_how_much_longer_the_whole_fit_takes():
    xgb = pytest.importorskip("xgboost")
    from crashpredict._dryrun import _fastforward

    np, X, y = _sklearn_data()
    cutter = _fastforward.Cutter({})
    original = xgb.training.train
    missing = object()
    # cap_libraries patches what is imported here (scikit-learn's parameter check, Keras'
    # fit): put back every one of them, or later dry runs inherit a cutter of this test's
    patched = [(owner, name, vars(owner).get(name, missing)) for owner, name in (
        (getattr(sys.modules.get("sklearn.base"), "BaseEstimator", None), "_validate_params"),
        *((getattr(sys.modules.get(k), "Model", None), "fit") for k in ("keras", "tf_keras")))
        if owner is not None]
    try:
        _fastforward.cap_libraries(cutter, {})
        xgb.train({"max_depth": 2}, xgb.DMatrix(X, y), num_boost_round=200)
    finally:
        for module in [m for n, m in sys.modules.items() if n.startswith("xgboost")]:
            for key, value in list(vars(module).items()):
                if getattr(value, "__wrapped__", None) is original or \
                        getattr(value, "_crashpredict_capped", False):
                    setattr(module, key, getattr(value, "__wrapped__", value))
        for owner, name, value in patched:
            if value is missing:
                if name in vars(owner):
                    delattr(owner, name)
            else:
                setattr(owner, name, value)
    assert cutter.library_cuts == ["XGBoost train: num_boost_round cut to 2 of 200"]
    assert cutter.library_extra_s > 0


def test_a_dtype_mismatch_after_a_cut_training_loop_counts():
    """Fewer epochs leave every tensor's dtype as it was: a float64 frame fed to a float32
    model after a cut training loop is the cell's crash, not the cut's (no shape or size
    is involved), so it is reported, not left inconclusive."""
    torch = pytest.importorskip("torch")
    np = pytest.importorskip("numpy")
    torch.manual_seed(0)
    ns = {"torch": torch, "time": time,
          "X": torch.randn(64, 4), "Y": torch.randint(0, 2, (64,)),
          "test": np.random.default_rng(0).random((8, 4)),
          "model": torch.nn.Sequential(torch.nn.Linear(4, 8), torch.nn.ReLU(),
                                       torch.nn.Linear(8, 2))}
    ns["opt"] = torch.optim.SGD(ns["model"].parameters(), lr=0.1)
    cell = ("for epoch in range(400):\n"
            "    loss = torch.nn.functional.cross_entropy(model(X), Y)\n"
            "    opt.zero_grad(); loss.backward(); opt.step()\n"
            "    time.sleep(0.01)\n"
            "preds = model(torch.tensor(test)).argmax(1)\n")
    result, verdict = _predict(cell, ns)
    assert result.fast_forwarded and result.cut_before_crash and not result.cut_may_cause
    assert "same dtype" in result.message
    assert (verdict.crash, verdict.exception, verdict.line) == (True, "RuntimeError", 5)


def test_a_size_error_after_fits_cut_to_fewer_trees_is_the_cells_own():
    """Every loop ran whole; only the forests were cut to fewer trees. Fewer trees change
    no group's size, so a group too small for 5 folds is the cell's crash, reported (it
    was left inconclusive by the kind test made for cut rows)."""
    pd = pytest.importorskip("pandas")
    np = pytest.importorskip("numpy")
    from sklearn.ensemble import RandomForestClassifier
    from sklearn.model_selection import cross_val_score

    rng = np.random.default_rng(0)
    df = pd.DataFrame({"x": rng.random(300), "label": rng.integers(0, 2, 300),
                       "group": ["a"] * 150 + ["b"] * 147 + ["c"] * 3})
    cell = ("scores = {}\nfor group, g in df.groupby('group'):\n"
            "    clf = RandomForestClassifier(n_estimators=400, random_state=0)\n"
            "    scores[group] = cross_val_score(clf, g[['x']], g['label'], cv=5).mean()\n")
    result, verdict = _predict(cell, {"df": df, "RandomForestClassifier": RandomForestClassifier,
                                      "cross_val_score": cross_val_score})
    assert result.cut_only_library and not result.cut_may_cause, result
    assert "n_estimators cut to 2 of 400" in " ".join(result.cuts)
    assert (verdict.crash, verdict.exception, verdict.line) == (True, "ValueError", 4)


SCREENING = """
import time
def knn_pipe():
    return make_pipeline(StandardScaler(), KNeighborsRegressor(n_neighbors=5))
base = ['a']
baseline = -cross_val_score(knn_pipe(), df[base], df['y'], cv=3).mean()
gain = {}
for col in candidates:
    if col in base:
        continue
    time.sleep(0.3)
    rmse = -cross_val_score(knn_pipe(), df[base + [col]], df['y'], cv=3).mean()
    gain[col] = baseline - rmse
"""


@pytest.mark.parametrize("fixed", [False, True])
def test_a_screening_loop_whose_last_column_holds_nan_is_the_cells_crash(fixed):
    """A feature screening that scores each candidate column with the cell's own pipeline
    (``cross_val_score(knn_pipe(), ...).mean()``): the last column holds NaN, and every
    fold's fit fails there. The cut run's last iteration is the real run's (the scores'
    ``.mean()`` is a call on what the library returned, not on ``cross_val_score``); the
    author's fix (an imputer first) is not warned."""
    pd = pytest.importorskip("pandas")
    np = pytest.importorskip("numpy")
    from sklearn.impute import SimpleImputer
    from sklearn.model_selection import cross_val_score
    from sklearn.neighbors import KNeighborsRegressor
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    rng = np.random.default_rng(3)
    df = pd.DataFrame(rng.random((120, 11)), columns=list("abcdefghijk"))
    df["y"] = df["a"] * 2 + rng.random(120)
    df.loc[df.index[::7], "k"] = np.nan
    cell = SCREENING.replace("StandardScaler(), ", "SimpleImputer(), StandardScaler(), ") \
        if fixed else SCREENING
    namespace = {"df": df, "candidates": [c for c in df.columns if c != "y"],
                 "cross_val_score": cross_val_score, "make_pipeline": make_pipeline,
                 "StandardScaler": StandardScaler, "SimpleImputer": SimpleImputer,
                 "KNeighborsRegressor": KNeighborsRegressor}
    result, verdict = _predict(cell, namespace)
    if fixed:
        assert not verdict.crash, result
        return
    assert result.fast_forwarded and result.cut_before_crash and not result.cut_may_cause, result
    assert (verdict.crash, verdict.exception, verdict.line) == (True, "ValueError", 12)


def test_a_call_on_what_a_library_function_returns_is_no_call_through_its_name():
    """Unit: ``cross_val_score(...).mean()`` calls no method of ``cross_val_score``; a
    bound method's result and the notebook's function's result still count as calls
    through the name (the method's object, a global the function may return)."""
    import ast

    from sklearn.model_selection import cross_val_score

    from crashpredict._dryrun._fastforward import _calls_in

    class Model:
        def fit(self, X):
            return self

    namespace: dict = {"__name__": "__main__", "cross_val_score": cross_val_score,
                       "fit": Model().fit, "push": [].append}
    exec("def get_model():\n    return MODEL\n", namespace)
    calls = _calls_in(ast.parse("s = cross_val_score(m, X, y).mean()\n"
                                "n = len(rows).bit_length()\n"
                                "p = get_model().fit(X)\n"
                                "q = fit(X).predict(X)\n"
                                "r = push(X).x()\n").body, namespace)
    chains = {(name, tuple(chain)) for name, chain, _ in calls}
    assert ("cross_val_score", ("mean",)) not in chains and ("cross_val_score", ()) in chains
    assert ("len", ("bit_length",)) not in chains and ("len", ()) in chains
    assert ("get_model", ("fit",)) in chains
    assert ("fit", ("predict",)) in chains and ("push", ("x",)) in chains


@pytest.mark.parametrize(("cell", "error", "counts"), [
    # what counts the epochs or trees: the cut's doing, maybe
    ("history = model.fit(X, y, epochs=50)\nhistory.history['loss'][49]", IndexError, False),
    ("history = model.fit(X, y, epochs=50)\nlosses = history.history['loss']\nlosses[49]",
     IndexError, False),
    ("history = model.fit(X, y, epochs=50)\nlast = len(history.epoch)\nnp.zeros(last).reshape(10, 5)",
     ValueError, False),
    ("model.fit(X, y)\nscore = model.score(X, y)\nassert score > 0.9", AssertionError, False),
    ("model.fit(X, y, epochs=50)\nmodel.load_weights('ckpt/epoch_50.h5')", FileNotFoundError, False),
    ("model.fit(X, y)\nbooster.predict(X, iteration_range=(0, 300))", ValueError, False),
    # what fewer iterations leave as it was: the cell's own
    ("model.fit(X, y, epochs=50)\nmodel.predict(X[:, :3])", ValueError, True),
    ("history = model.fit(X, y, epochs=50)\nhistory.history['val_loss']", KeyError, True),
    ("model.fit(X, y)\nmodel.transform(X)", AttributeError, True),
])
def test_after_library_cuts_only_what_counts_iterations_is_doubtful(cell, error, counts):
    import ast

    from crashpredict._dryrun._fastforward import Cutter

    history = type("History", (), {})()
    history.history = {"loss": [0.5]}
    history.epoch = [0]
    cutter = Cutter({}, cell_tree=ast.parse(cell), library_cuts=["Keras fit: ran 1 of 50 "
                                                                  "epochs, 2 steps"])
    cutter.cut_outputs.append(history)
    namespace = {"history": history, "losses": history.history["loss"], "last": 1}
    messages = {KeyError: "val_loss", ValueError: "cannot reshape array of size 1 into shape "
                "(10,5)", FileNotFoundError: "No such file or directory"}
    exc = error(messages.get(error, "boom"))
    line = len(cell.splitlines())
    assert cutter.judge_library(exc, line, namespace) is (not counts)


# ---- the last iteration of a cut range loop ---------------------------------------------

#: An index one past the end: the real run fails in the loop's last iteration, which a cut
#: run reaches only because it runs that iteration after the cut. Each cell is written over
#: names sized in `_last_namespace` (`n`, `prices`, `frame`), so the truth below runs it for
#: real on small data, and the dry run on data too large to run whole in its budget.
PAST_THE_END = [
    "returns = []\nfor i in range(len(prices)):\n    returns.append(prices[i + 1] / prices[i] - 1)",
    "out = np.zeros(len(prices))\nfor i in range(len(prices)):\n    out[i] = prices[i + 1] - prices[i]",
    "for i in range(len(frame)):\n    frame.loc[i, 'next'] = frame.loc[i + 1, 'price']",
    "total = 0.0\nfor i in range(n):\n    if i % 2 == 1:\n        total += frame['price'].iloc[i + 1]",
    # one more name than weights, panels or entries: the last one fails
    "out = []\nfor i, name in enumerate(names):\n    out.append(weights[i] * len(name))",
    "for i, name in enumerate(names, 1):\n    x = len(name) + grid.ravel()[i - 1]",
    "total = 0\nfor name in names:\n    total += entries[name]",
    # what the last iteration binds before the statement from the target and what no cut
    # loop makes holds the real run's values there (a window, an index one past it)
    "rows = []\nfor i in range(len(frame)):\n    window = frame['price'].iloc[max(i - 3, 0):i + 1]\n"
    "    rows.append({'mean': window.mean(), 'up': frame['price'].iloc[i + 1] > window.iloc[-1]})",
    "for i in range(n):\n    j = i + 1\n    step = prices[j] - prices[i]",
    # the store fails, after a notebook function's call that ran clean in the statement
    "boot = np.zeros(n)\nfor b in range(1, n + 1):\n    idx = b % 7\n"
    "    boot[b] = spread(prices, idx)",
]
#: The same cells, fixed as their authors would.
FIXED = {"range(len(prices))": "range(len(prices) - 1)", "range(len(frame))": "range(len(frame) - 1)",
         "range(1, n + 1)": "range(1, n)",
         "range(n)": "range(n - 1)", "in enumerate(names": "in enumerate(names[:-1]",
         "for name in names:": "for name in names[:-1]:"}


def _last_namespace(n: int) -> dict:
    import numpy as np
    import pandas as pd

    prices = 100 + np.cumsum(np.random.default_rng(0).normal(0, 1, n))
    names = [f"c{i}" for i in range(n)]
    namespace = {"np": np, "pd": pd, "n": n, "prices": prices,
                 "frame": pd.DataFrame({"price": prices}), "grown": pd.Series(prices),
                 "names": names, "weights": prices[:-1].copy(),
                 "grid": np.zeros((2, (n - 1) // 2)) if n % 2 else np.zeros((1, n - 1)),
                 "entries": dict.fromkeys(names[:-1], 1), "buf": prices.copy(),
                 "todo": list(names)}
    earlier = ("def lookup(j):\n    return table[j]\n"  # a function of an earlier cell
               "def spread(values, k):\n    return float(values[k:k + 50].std())\n"
               "class Offsets:\n    def at(self, i):\n        return i - 1 + n - len(table)\n"
               "offsets = Offsets()\n")
    exec(compile(earlier, "<ipython-input-3>", "exec"), namespace)  # noqa: S102
    return namespace


def _raises_for_real(cell: str) -> bool:
    try:
        exec(cell, _last_namespace(40))  # noqa: S102 - the truth: the cell run for real
    except (IndexError, KeyError):
        return True
    return False


@pytest.mark.parametrize("cell", PAST_THE_END)
def test_an_index_past_the_end_in_a_cut_loops_last_iteration_is_the_cells_crash(cell):
    assert _raises_for_real(cell)
    result, verdict = _predict(cell, _last_namespace(300_000))
    assert result.cut_before_crash and result.last_iteration, result
    assert verdict.crash is True and verdict.exception in ("IndexError", "KeyError"), verdict
    assert any(c.endswith("iterations and the last") for c in result.cuts), result.cuts
    assert any("last iteration" in e for e in verdict.evidence)
    fixed = cell
    for old, new in FIXED.items():
        fixed = fixed.replace(old, new)
    assert not _raises_for_real(fixed)
    result, verdict = _predict(fixed, _last_namespace(300_000))
    assert (result.outcome, verdict.crash) == ("completed", False), result


@pytest.mark.parametrize("cell", [
    # the real run leaves the loop before its last iteration
    "total = 0\nfor i in range(n):\n    total += 1\n    if total > n // 2:\n        break\n"
    "    x = prices[i + 1]",
    # the way to the statement reads what the loop counts: the real run skips it at the end
    "count = 0\nfor i in range(n):\n    count += 1\n    if count < n // 2:\n        x = prices[i + 1]",
    "seen = []\nfor i in range(n):\n    seen.append(i)\n    if len(seen) > 10:\n        continue\n"
    "    x = prices[i + 1]",
    # the notebook's own function reads what the loop builds
    "table = []\nfor i in range(n):\n    table.append(prices[i])\n    x = lookup(i) + prices[i]",
    "table = []\nfor i in range(n):\n    table.append(i)\n    x = prices[offsets.at(i) + 1]",
    # an index bound in the iteration from what the loop counts, or changed by a statement
    # that reads it, or by a method of the notebook's own class that reads what it builds
    "count = 0\nfor i in range(n):\n    count += 1\n    j = i + 1 if count < n else i\n"
    "    x = prices[j] - prices[i]",
    "count = 0\nfor i in range(n):\n    count += 1\n    j = i + 1\n    if count == n:\n"
    "        j = i\n    x = prices[j] - prices[i]",
    "table = []\nfor i in range(n):\n    table.append(i)\n    j = offsets.at(i)\n"
    "    x = prices[j + 1] - prices[i]",
    # a container the loop grows by label: its size at the end is not the cut run's
    "for i in range(n):\n    grown.loc[n + i] = 0.0\n    x = grown.iloc[n + i]",
    # a list the loop shortens as it goes: the real run never reaches the item it had last
    "for name in todo:\n    if name == 'c0':\n        todo.pop()\n    total = entries[name]",
    # ...or resizes in place, in an iteration the cut skips
    "for i in range(n):\n    if i == n - 2:\n        buf.resize(n + 1, refcheck=False)\n"
    "    x = buf[i + 1]",
])
def test_a_crash_in_the_last_iteration_that_the_cut_may_cause_is_not_the_cells(cell):
    assert not _raises_for_real(cell)
    result, verdict = _predict(cell, _last_namespace(300_000))
    assert not result.last_iteration, result
    assert verdict.crash is not True, verdict


#: A failure on the last record's own values (a ``None``, a text where a number was): the
#: real run meets the same record with the same values (`Cutter.crashed_in_last_iteration`).
#: Each loop is slow per record (``time.sleep``), so it is cut; the truth runs it for real.
OWN_VALUES = [
    "names = {}\nfor r in records:\n    time.sleep(0.0001)\n"
    "    names[r['id']] = r['name'].strip().title()",
    "amounts = {}\nfor r in records:\n    time.sleep(0.0001)\n"
    "    amounts[r['id']] = float(r['amount']) * 1.2",
    "sizes = np.zeros(n)\nfor i in range(n):\n    time.sleep(0.0001)\n"
    "    sizes[i] = len(records[i]['name']) + 1",
    # loops that do not index with their target run their last item too
    "amounts = []\nfor r in records:\n    time.sleep(0.0001)\n"
    "    amounts.append(float(r['amount']))",
    "total = 0\nfor i, r in enumerate(records):\n    time.sleep(0.0001)\n"
    "    total += len(r['name']) * i",
    # a loop over a frame's column runs its last value too
    "names = []\nfor name in people['name']:\n    time.sleep(0.0001)\n"
    "    names.append(name.strip().title())",
    # a change of a container's item keyed by the record changes the container, not the
    # record (`_receiver_base`)
    "from collections import defaultdict\nby_key = defaultdict(list)\nfor r in records:\n"
    "    time.sleep(0.0001)\n    by_key[r['key']].append(len(r['name'].strip()))",
    # a target rebound first thing from its own value (``r = dict(r)``): the real run's
    # last iteration rebinds it to the same value (`_rebound_first_in_body`)
    "names = {}\nfor r in records:\n    time.sleep(0.0001)\n    r = dict(r)\n"
    "    names[r['id']] = r['name'].strip().title()",
    "amounts = []\nfor i, r in enumerate(records):\n    time.sleep(0.0001)\n"
    "    r = {**r, 'rank': i}\n    amounts.append(float(r['amount']) * r['rank'])",
    # a store keyed by the records changes the dict, not the records (`_stored`)
    "totals = {}\nfor i in range(n):\n    time.sleep(0.0001)\n    rec = records[i]\n"
    "    amount = float(rec['amount'])\n    totals[records[i]['key']] = amount * 2",
    # a dict's items, unpacked, stored under their key (`_last_kind`: "batches"); the
    # failing statement rebinding the target from itself (`_rebound_first_in_body`); a
    # frame's method that makes a new frame leaves it as it was (`_own_values_failed`)
    "amounts = {}\nfor k, r in by_id.items():\n    time.sleep(0.0001)\n"
    "    amounts[k] = float(r['amount'])",
    "names = {}\nfor k, r in by_id.items():\n    time.sleep(0.0001)\n"
    "    r = r['name'].strip()\n    names[k] = r",
    "totals = {}\nfor k, r in by_id.items():\n    time.sleep(0.0001)\n"
    "    named = len(people.set_index('name'))\n"
    "    totals[k] = people.head(1).assign(v=r['amount']).astype({'v': float})",
]


def _records_namespace(n: int) -> dict:
    import numpy as np

    records = [{"id": i, "name": f" user {i} ", "amount": f"{i * 0.5:.2f}", "key": f"k{i}",
                "parent": f"k{max(i - 2, 0)}"} for i in range(n)]
    records[-1].update(name=None, amount="n/a")  # the last batch scraped: a null, a text
    import pandas as pd

    namespace = {"np": np, "n": n, "records": records, "cache": {},
                 "by_id": {r["id"]: r for r in records},
                 "people": pd.DataFrame({"name": [r["name"] for r in records]})}
    earlier = "import time\ndef remember(r):\n    cache[r['key']] = r\n"
    exec(compile(earlier, "<ipython-input-3>", "exec"), namespace)  # noqa: S102
    return namespace


def _raised_on_records(cell: str) -> str | None:
    return _raised_type(cell, _records_namespace(50))


@pytest.mark.parametrize("cell", OWN_VALUES)
def test_a_failure_on_the_last_records_own_values_is_the_cells_crash(cell):
    raised = _raised_on_records(cell)
    assert raised is not None
    result, verdict = _predict(cell, _records_namespace(100_000))
    assert result.cut_before_crash and result.last_iteration, result
    assert (verdict.crash, verdict.exception) == (True, raised), (verdict, result)


@pytest.mark.parametrize("cell", [
    # the record's parent went into the index in an iteration the cut skipped
    "index = {}\nfor r in records:\n    time.sleep(0.0001)\n    index[r['key']] = r\n"
    "    up = index[r['parent']]['amount']",
    # ...or into the notebook's cache, by a function of an earlier cell
    "for r in records:\n    time.sleep(0.0001)\n    remember(r)\n"
    "    up = cache[r['parent']]['amount']",
    # ...or by a library's function, given the index, or by a method of the index
    "import operator\nindex = {}\nfor r in records:\n    time.sleep(0.0001)\n"
    "    operator.setitem(index, r['key'], r)\n    up = index[r['parent']]['amount']",
    "index = {}\nfor r in records:\n    time.sleep(0.0001)\n"
    "    index.__setitem__(r['key'], r)\n    up = index[r['parent']]['amount']",
    # ...in a loop that does not index with its target (a parent missing: None)
    "parents = {}\nfor r in records:\n    time.sleep(0.0001)\n    parents.update({r['key']: r})\n"
    "    up = parents.get(r['parent'])['amount']",
    # ...or into a counter, through a method no list of growers names
    "import collections\nseen = collections.Counter()\nfor r in records:\n"
    "    time.sleep(0.0001)\n    seen.subtract({r['key']: -1})\n"
    "    share = 1 / seen[r['parent']]",
    # ...or the record rebound from what the skipped records filled in
    "index = {}\nfor r in records:\n    time.sleep(0.0001)\n    index[r['key']] = r\n"
    "    r = index.get(r['parent'], r)\n    up = float(r['amount'])",
    "filled = {}\nfor r in records:\n    time.sleep(0.0001)\n    filled[r['key']] = r\n"
    "    if r['name'] is None:\n        r = filled[r['parent']]\n"
    "    up = r['name'].strip()",
])
def test_a_failure_on_what_the_skipped_records_built_is_not_the_cells(cell):
    assert _raised_on_records(cell) is None
    result, verdict = _predict(cell, _records_namespace(100_000))
    assert result.outcome == "crashed" and result.exception in (
        "KeyError", "ZeroDivisionError", "TypeError", "ValueError"), result
    assert not result.last_iteration and verdict.crash is not True, (verdict, result)


#: Loops that work column by column: each iteration reads and writes only the columns its
#: own item names, so the last item's columns hold the real run's values (`Cutter._keyed`).
#: Each iteration sleeps, so the loop is cut; the truth runs it for real.
BY_COLUMN = [
    # an encoder fitted on the last column meets a label only the test rows have
    "encoders = {}\nfor col in cat_cols:\n    time.sleep(0.05)\n"
    "    freq = train[col].value_counts(normalize=True)\n"
    "    train[col + '_freq'] = train[col].map(freq)\n"
    "    test[col + '_freq'] = test[col].map(freq).fillna(0)\n"
    "    le = LabelEncoder()\n    train[col] = le.fit_transform(train[col])\n"
    "    test[col] = le.transform(test[col])\n    encoders[col] = le",
    # counts cast to int, the last column with a gap
    "for col in count_cols:\n    time.sleep(0.05)\n"
    "    counts[f'{col}_share'] = counts[col] / counts[col].sum()\n"
    "    counts[col] = counts[col].astype(int)",
]


def _columns_namespace(middle: int) -> dict:
    import numpy as np
    import pandas as pd
    from sklearn.preprocessing import LabelEncoder

    rng = np.random.default_rng(5)
    cat_cols = [f"c{k}" for k in range(middle)] + ["device"]
    train = pd.DataFrame({c: rng.choice(["a", "b", "c"], 300) for c in cat_cols})
    test = pd.DataFrame({c: rng.choice(["a", "b", "c"], 100) for c in cat_cols})
    test.loc[7, "device"] = "smart_tv"  # a device type only the test period has
    count_cols = [f"n{k}" for k in range(middle)] + ["n_last"]
    counts = pd.DataFrame({c: rng.integers(0, 9, 300).astype(float) for c in count_cols})
    counts.loc[3, "n_last"] = np.nan  # a customer with no visits in the last window
    # a stale text copy of the last column: an earlier iteration writes it as numbers
    sizes = pd.DataFrame({"size": rng.integers(1, 9, 300).astype(str),
                          **{f"s{k}": rng.integers(1, 9, 300).astype(str) for k in range(middle)},
                          "size_num": ["n/a"] * 300})
    namespace = {"np": np, "pd": pd, "LabelEncoder": LabelEncoder, "cat_cols": cat_cols,
                 "train": train, "test": test, "count_cols": count_cols, "counts": counts,
                 "sizes": sizes, "size_cols": [*[f"s{k}" for k in range(middle // 2)], "size",
                                                *[f"s{k}" for k in range(middle // 2, middle)],
                                                "size_num"],
                 "frames": {"counts": counts},
                 "store": types.SimpleNamespace(counts=counts)}
    exec("import time", namespace)  # noqa: S102
    return namespace


def _raised_by_column(cell: str) -> str | None:
    return _raised_type(cell, _columns_namespace(6))


@pytest.mark.parametrize("cell", BY_COLUMN)
def test_a_failure_on_the_last_columns_own_values_is_the_cells_crash(cell):
    raised = _raised_by_column(cell)
    assert raised is not None
    result, verdict = _predict(cell, _columns_namespace(60))
    assert result.cut_before_crash and result.last_iteration, result
    assert (verdict.crash, verdict.exception) == (True, raised), (verdict, result)


def _sensors(n: int) -> dict:
    """``n`` sensors' readings, a frame each; the last logger wrote its values as text
    (``'ERR'`` for dropouts)."""
    import numpy as np
    import pandas as pd

    rng = np.random.default_rng(4)
    index = pd.date_range("2024-01-01", periods=600, freq="min")
    frames = [pd.DataFrame({"ts": index, "value": rng.normal(20 + k, 2, 600).round(3)})
              for k in range(n)]
    last = frames[-1]
    last["value"] = last["value"].astype(str)
    last.loc[last.index[::97], "value"] = "ERR"
    namespace = {"np": np, "pd": pd, "sensor_frames": frames, "N_SENSORS": n}
    exec("import time", namespace)  # noqa: S102
    return namespace


SENSORS = """
features = []
for i in range(N_SENSORS):
    time.sleep(0.05)
    s = {read}
{convert}    roll = s.rolling('30min')
    feat = pd.DataFrame({{'mean_30m': roll.mean(), 'max_30m': roll.max()}})
    feat['sensor'] = i
    features.append(feat.resample('15min').last())
features = pd.concat(features)
"""


@pytest.mark.parametrize("fixed", [False, True])
def test_a_rolling_mean_of_the_last_sensors_text_is_the_cells_crash(fixed):
    """The last sensor's values came in as text: its rolling mean raises pandas'
    ``DataError`` (no numeric types to aggregate), an error of the series' own values,
    not of a count the cut changed: read as the cell's crash in the last iteration. The
    fix converts the values to numbers."""
    read = "pd.to_numeric(sensor_frames[i].set_index('ts')['value'], errors='coerce')" \
        if fixed else "sensor_frames[i].set_index('ts')['value']"
    cell = SENSORS.format(read=read, convert="")
    assert _raised_type(cell, _sensors(6)) == (None if fixed else "DataError")
    result, verdict = _predict(cell, _sensors(40))
    if fixed:
        assert verdict.crash is not True and not result.last_iteration, (verdict, result)
    else:
        assert result.cut_before_crash and result.last_iteration, result
        assert (verdict.crash, verdict.exception, verdict.line, verdict.crash_type) == (
            True, "DataError", 7, "type error"), verdict


def test_a_rolling_mean_of_text_an_earlier_sensor_converts_is_not_the_cells():
    """The same loop, but the iteration of the third sensor from the end converts the last
    sensor's values (a patch for a known logger): the real run's last sensor is numbers.
    The cut skips that iteration, so its last one fails; that failure is not read as the
    cell's (the frame it reads is stored into by the loop)."""
    convert = ("    if i == N_SENSORS - 3:\n        sensor_frames[-1]['value'] = pd.to_numeric("
               "sensor_frames[-1]['value'], errors='coerce')\n")
    cell = SENSORS.format(read="sensor_frames[i].set_index('ts')['value']", convert=convert)
    assert _raised_type(cell, _sensors(6)) is None
    result, verdict = _predict(cell, _sensors(40))
    assert not result.last_iteration and verdict.crash is not True, (verdict, result)


def _loans() -> dict:
    """Loans in issue order; the newest ones (the table's end) carry a grade ``E`` the
    notebook's code map lacks."""
    import numpy as np
    import pandas as pd

    rng = np.random.default_rng(3)
    loans = pd.DataFrame({"grade": rng.choice(list("ABCD"), 4000),
                          "amount": rng.integers(1000, 40000, 4000)})
    loans.loc[3990:, "grade"] = "E"
    namespace = {"np": np, "pd": pd, "loans": loans, "chunk_size": 100,
                 "grade_map": {"A": 0, "B": 1, "C": 2, "D": 3}}
    exec("import time", namespace)  # noqa: S102
    return namespace


LOAN_CHUNKS = """
start, parts = 0, []
while start < len(loans):
    time.sleep(0.03)
    c = loans.iloc[start:start + chunk_size].copy()
{patch}    c['grade_code'] = c['grade'].map(grade_map){fill}.astype(int)
    parts.append(c)
    start += chunk_size
clean = pd.concat(parts, ignore_index=True)
"""


@pytest.mark.parametrize("fill", ["", ".fillna(-1)"])
def test_a_code_map_that_lacks_the_last_chunks_grade_fails_its_cast_there(fill):
    """Loans cleaned chunk by chunk (a ``while`` that counts through the table): the last
    chunk's new grade maps to NaN, which ``astype(int)`` refuses. The map is read, not
    changed, by ``Series.map`` (`_PANDAS_READERS`), so the failure in the last chunk, run
    after the cut, is read as the cell's. The fix fills the unknown grade."""
    cell = LOAN_CHUNKS.format(patch="", fill=fill)
    assert _raised_type(cell, _loans()) == (None if fill else "IntCastingNaNError")
    result, verdict = _predict(cell, _loans())
    if fill:
        assert verdict.crash is not True and not result.last_iteration, (verdict, result)
    else:
        assert result.cut_before_crash and result.last_iteration, result
        assert (verdict.crash, verdict.exception, verdict.line) == (
            True, "IntCastingNaNError", 6), verdict


def test_a_code_map_a_skipped_chunk_extends_is_not_read_as_the_last_chunks():
    """The same loop, but an iteration the cut skips adds the new grade to the map: the
    real run's last chunk maps it. The cut run's failure in the last chunk is not read as
    the cell's (the map is stored into by the loop)."""
    patch = "    if start == 2000:\n        grade_map['E'] = 4\n"
    cell = LOAN_CHUNKS.format(patch=patch, fill="")
    assert _raised_type(cell, _loans()) is None
    result, verdict = _predict(cell, _loans())
    assert not result.last_iteration and verdict.crash is not True, (verdict, result)


@pytest.mark.parametrize("cell", [
    # an item the cut skips writes the column the last item reads (``size`` -> ``size_num``)
    "for col in size_cols:\n    time.sleep(0.05)\n"
    "    sizes[col + '_num'] = sizes[col].astype(int)",
    # an item the cut skips fills the whole frame (the frame named, not a column)
    "for col in count_cols:\n    time.sleep(0.05)\n    if col == 'n30':\n"
    "        counts = counts.fillna(0)\n    counts[col] = counts[col].astype(int)",
    # ...through a dict that holds the same frame
    "for col in count_cols:\n    time.sleep(0.05)\n    if col == 'n30':\n"
    "        frames['counts']['n_last'] = 0.0\n    counts[col] = counts[col].astype(int)",
    # ...or through an object that holds it, by a method of the column it holds
    "for col in count_cols:\n    time.sleep(0.05)\n    if col == 'n30':\n"
    "        store.counts['n_last'].fillna(0.0, inplace=True)\n"
    "    counts[col] = counts[col].astype(int)",
    # ...or through the key of another item (a text made otherwise than of the target)
    "for col in count_cols:\n    time.sleep(0.05)\n"
    "    counts[col.replace('n30', 'n_last')] = counts[col] * 0 + 1\n"
    "    counts[col] = counts[col].astype(int)",
])
def test_a_failure_on_a_column_an_earlier_item_writes_is_not_the_cells(cell):
    assert _raised_type(cell, _columns_namespace(60)) is None  # the item the cut skips
    result, verdict = _predict(cell, _columns_namespace(60))
    assert result.outcome == "crashed" and result.cut_before_crash, result
    assert not result.last_iteration and verdict.crash is not True, (verdict, result)


#: A ``range`` loop that looks rows up by label (``.loc[i]``, ``s[i]``) over a frame that
#: lost rows (``dropna``, a filter) fails at the first label its index lacks: after the cut
#: that iteration runs, before the last (`Cutter._first_missing`).
LABELS = [
    "clean = sensor.dropna(subset=['reading'])\njumps = []\n"
    "for i in range(1, len(clean)):\n"
    "    delta = clean.loc[i, 'reading'] - clean.loc[i - 1, 'reading']\n"
    "    if abs(delta) > 3.0:\n        jumps.append(i)",
    "kept = sensor[sensor['reading'] > 0]['reading']\ntotal = 0.0\n"
    "for i in range(len(kept)):\n    total += kept[i] * 0.5",
    "clean = sensor.dropna()\nout = []\nfor i in range(len(clean) - 1):\n"
    "    out.append(clean['reading'][i + 1] - clean['reading'][i])",
]
#: The same loops fixed as their authors would (labels made positions again).
LABELS_FIXED = {"dropna(subset=['reading'])": "dropna(subset=['reading']).reset_index(drop=True)",
                "['reading']\ntotal": "['reading'].reset_index(drop=True)\ntotal",
                "sensor.dropna()\n": "sensor.dropna().reset_index(drop=True)\n"}


def _sensor_namespace(n: int) -> dict:
    import numpy as np
    import pandas as pd

    rng = np.random.default_rng(7)
    sensor = pd.DataFrame({"reading": np.cumsum(rng.normal(0, 0.8, n)) + 50})
    late = rng.choice(np.arange(int(n * 0.7), n - 2), max(3, n // 200), replace=False)
    sensor.loc[late, "reading"] = np.nan  # the battery failed late in the recording
    return {"np": np, "pd": pd, "sensor": sensor}


def _raised_on_sensor(cell: str) -> str | None:
    return _raised_type(cell, _sensor_namespace(3_000))


@pytest.mark.parametrize("cell", LABELS)
def test_a_label_the_skipped_iterations_lack_is_looked_up_after_the_cut(cell):
    raised = _raised_on_sensor(cell)
    assert raised == "KeyError"
    result, verdict = _predict(cell, _sensor_namespace(400_000))
    assert result.cut_before_crash and result.last_iteration, result
    assert any("a label the index lacks" in c for c in result.cuts), result.cuts
    assert (verdict.crash, verdict.exception) == (True, raised), (verdict, result)
    fixed = cell
    for old, new in LABELS_FIXED.items():
        fixed = fixed.replace(old, new)
    assert fixed != cell and _raised_on_sensor(fixed) is None
    result, verdict = _predict(fixed, _sensor_namespace(400_000))
    assert (result.outcome, verdict.crash) == ("completed", False), result


@pytest.mark.parametrize("cell", [
    # the loop looks only where the label is
    "clean = sensor.dropna()\nfor i in range(len(clean)):\n    if i in clean.index:\n"
    "        x = clean.loc[i, 'reading']",
    # the loop fills the label in before it reads it (a store adds the row)
    "clean = sensor.dropna()\nfor i in range(len(clean)):\n"
    "    clean.loc[i, 'reading'] = 0.0\n    x = clean.loc[i, 'reading']",
    # a text index: ``s[i]`` is a position there (the iteration that runs after the cut
    # is a real one: where its lookup works, nothing is claimed)
    "named = sensor['reading'].dropna()\nnamed.index = 'r' + named.index.astype(str)\n"
    "total = 0.0\nfor i in range(len(named)):\n    total += named[i]",
])
def test_a_label_lookup_that_cannot_miss_is_not_claimed(cell):
    assert _raised_on_sensor(cell) is None
    result, verdict = _predict(cell, _sensor_namespace(400_000))
    assert verdict.crash is not True, (verdict, result)


#: Weights updated in place by a loop by hand keep their shape, however many iterations
#: ran: a shape error of an expression of names after the cut is the real run's.
GRADIENT = ("Xb = np.hstack([np.ones((len(X), 1)), X])\nw = np.zeros(Xb.shape[1])\n"
            "for epoch in range(250):\n    time.sleep(0.01)\n    err = Xb @ w - y\n"
            "    w -= 0.05 * (Xb.T @ err) / len(y)\n")


def _weights_namespace() -> dict:
    import numpy as np

    rng = np.random.default_rng(0)
    X = rng.normal(size=(500, 6))
    return {"np": np, "time": time, "X": X, "y": X @ np.arange(6.0) + 1,
            "X_test": rng.normal(size=(50, 6)), "M": np.ones((4, 250)), "M7": np.ones((4, 7))}


def _raised_with_weights(cell: str) -> str | None:
    return _raised_type(cell, _weights_namespace())


def test_a_shape_error_on_weights_updated_in_place_is_the_cells_crash():
    cell = GRADIENT + "pred = X_test @ w\n"  # the test matrix lacks the bias column
    assert _raised_with_weights(cell) == "ValueError"
    result, verdict = _predict(cell, _weights_namespace())
    assert result.shapes_kept and not result.cut_may_cause, result
    assert (verdict.crash, verdict.exception) == (True, "ValueError"), verdict
    assert any("updates in place" in e for e in verdict.evidence), verdict.evidence
    fixed = GRADIENT + "pred = np.hstack([np.ones((len(X_test), 1)), X_test]) @ w\n"
    assert _raised_with_weights(fixed) is None
    result, verdict = _predict(fixed, _weights_namespace())
    assert (result.outcome, verdict.crash) == ("completed", False), result


@pytest.mark.parametrize("cell", [
    # a vector the loop grows by rebinding: the cut leaves it shorter
    "w = np.zeros(1)\nfor epoch in range(249):\n    time.sleep(0.01)\n"
    "    w = np.append(w, epoch)\nprint(M @ w)\n",
    # a history the loop appends to, made an array: its length is the iterations'
    "hist = []\nfor epoch in range(250):\n    time.sleep(0.01)\n    hist.append(epoch)\n"
    "arr = np.array(hist)\nprint(M @ arr)\n",
    # weights updated in place, beside a shape their values set
    GRADIENT + "k = 6 + int(np.abs(w).sum() > 10)\nprint(np.ones((4, k)) @ w)\n",
    GRADIENT + "print(np.ones((4, 6 + int(np.abs(w).sum() > 10))) @ w)\n",
    # a list grows in place (``+=``): only an array keeps its shape
    "w = []\nfor epoch in range(250):\n    time.sleep(0.01)\n    w += [1.0]\nprint(M @ w)\n",
    # an array the loop never binds, reshaped by a method of its own in each iteration
    "v = np.zeros(1)\nfor epoch in range(249):\n    time.sleep(0.01)\n"
    "    v.resize(len(v) + 1, refcheck=False)\nprint(M @ v)\n",
    # ...or by the notebook's own function
    "def grow():\n    global u\n    u = np.append(u, 0.0)\nu = np.zeros(1)\n"
    "for epoch in range(249):\n    time.sleep(0.01)\n    grow()\nprint(M @ u)\n",
])
def test_a_shape_the_cut_may_have_changed_is_not_the_cells(cell):
    assert _raised_with_weights(cell) is None
    result, verdict = _predict(cell, _weights_namespace())
    assert result.outcome == "crashed" and result.cut_before_crash, result
    assert not result.shapes_kept and verdict.crash is not True, verdict


def test_beside_the_cell_a_loops_last_iteration_runs_soon(monkeypatch):
    """In the notebook's one run a short loop runs whole (`CUT_AFTER_S`), reaching its end no
    sooner than the cell: one that indexes with its target is cut sooner and runs its last
    iteration, so an index past the end is seen long before the cell gets there. (The
    child's rules, which see this index too, are left out: this is the run's test.)"""
    from crashpredict._dryrun import _sibling
    from crashpredict._dryrun._fastforward import CUT_AFTER_S, CUT_LAST_AFTER_S

    monkeypatch.setattr(_sibling, "rules_on_the_whole", lambda *args, **kwargs: None)

    assert CUT_LAST_AFTER_S < CUT_AFTER_S
    cell = "import time\nreturns = []\nfor i in range(len(prices)):\n" \
           "    time.sleep(0.0001)\n    returns.append(prices[i + 1] / prices[i] - 1)"
    result = _beside_the_cell(_last_namespace(20_000), cell)  # 2 s of sleeps, for real
    assert (result.outcome, result.exception, result.line) == ("crashed", "IndexError", 5), result
    assert result.last_iteration and dryrun_verdict(result, cell).crash is True
    assert re.search(r"ran [\d,]+ of 20,000 iterations and the last", result.cuts[0]), result.cuts


def test_a_loop_with_a_last_iteration_to_run_is_cut_sooner_and_runs_it():
    from crashpredict._dryrun._fastforward import CUT_LAST_AFTER_S, Cutter, LoopInfo

    loops = {0: LoopInfo(0, 1, "for i in range(...)", "the cell", last="range")}
    cutter = Cutter(loops, cut_after_s=10 * CUT_LAST_AFTER_S)
    seen = [i for i in cutter.iterate(range(10**6), 0) if not time.sleep(0.002)]
    took = time.perf_counter() - cutter.began
    assert seen[-1] == 10**6 - 1 and KEEP_ITERATIONS < len(seen) - 1 < 10**6 - 1
    assert cutter.ran_last == [0] and cutter.in_last == []  # it ended: no crash in it
    assert took < 5 * CUT_LAST_AFTER_S, took  # not at the other loops' 10x


def _torch_namespace(n: int, frozen: bool = False) -> dict:
    torch = pytest.importorskip("torch")
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(4, 8), torch.nn.ReLU(), torch.nn.Linear(8, 1))
    for parameter in model.parameters():
        parameter.requires_grad_(not frozen)
    return {"torch": torch, "model": model, "n": n, "X": torch.randn(64, 4),
            "y": torch.randn(64, 1), "opt": torch.optim.SGD(model.parameters(), lr=0.01)}


def _raised_for_real(cell: str, namespace: dict) -> str | None:
    try:
        exec(cell, namespace)  # noqa: S102 - the truth: the cell run for real
    except RuntimeError as exc:
        return str(exc)
    return None


def test_autograd_state_after_a_cut_training_loop_is_the_cells_own():
    """What autograd rejects (numpy() of a tensor that requires grad) does not depend on
    how many epochs ran: after a cut training loop it counts."""
    train = ("for epoch in range(n):\n    opt.zero_grad()\n"
             "    loss = torch.nn.functional.mse_loss(model(X), y)\n    loss.backward()\n"
             "    opt.step()\n")
    crash, fixed = train + "preds = model(X).numpy()", \
        train + "with torch.no_grad():\n    preds = model(X).numpy()"
    assert "requires grad" in _raised_for_real(crash, _torch_namespace(20))
    result, verdict = _predict(crash, _torch_namespace(10**7))
    assert result.cut_before_crash and not result.cut_may_cause, result
    assert (verdict.crash, verdict.exception) == (True, "RuntimeError"), verdict
    assert _raised_for_real(fixed, _torch_namespace(20)) is None
    result, verdict = _predict(fixed, _torch_namespace(10**7))
    assert (result.outcome, verdict.crash) == ("completed", False), result


def test_autograd_state_after_a_cut_loop_that_unfreezes_tensors_is_doubtful():
    cell = ("params = list(model.parameters())\nfor step in range(n):\n"
            "    if step == n - 1:\n        for p in params:\n            p.requires_grad_(True)\n"
            "model(X).sum().backward()")
    assert _raised_for_real(cell, _torch_namespace(20, frozen=True)) is None
    assert "does not require grad" in _raised_for_real(
        cell.replace("p.requires_grad_(True)", "pass"), _torch_namespace(20, frozen=True))
    result, verdict = _predict(cell, _torch_namespace(10**7, frozen=True))
    assert result.outcome == "crashed" and result.cut_may_cause, result
    assert verdict.crash is not True, verdict


def test_a_strange_container_leaves_the_last_iteration_unbelieved_not_the_child_dead():
    namespace = _last_namespace(300_000)
    odd = type("Odd", (list,), {"__module__": None})  # type(...).__module__.partition fails
    namespace["out"] = odd([0.0] * 300_000)
    cell = "for i in range(len(prices)):\n    out[i] = prices[i + 1]"
    result, verdict = _predict(cell, namespace)
    assert (result.outcome, result.exception) == ("crashed", "IndexError"), result
    assert not result.last_iteration and verdict.crash is not True


# ---- the smaller last batch of a DataLoader ------------------------------------------

#: A net whose forward fixes the batch size, as tutorials write it (``x.view(BATCH, -1)``),
#: defined in an earlier cell; the cell trains it over a loader whose last batch is smaller.
LAST_BATCH_NET = """
import torch
from torch.utils.data import DataLoader, TensorDataset
BATCH = 64
class Net(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = torch.nn.Linear(8, 2)
    def forward(self, x):
        rows = BATCH if step < len(loader) else x.shape[0]
        return self.fc(x.view(rows, -1))
torch.manual_seed(0)
net = Net()
opt = torch.optim.SGD(net.parameters(), lr=0.01)
"""
LAST_BATCH_TRAIN = """
step = 0
for epoch in range(3):
    for xb, yb in loader:
        step += 1
        opt.zero_grad()
        loss = torch.nn.functional.cross_entropy(net(xb), yb)
        loss.backward()
        opt.step()
"""


def _loader_namespace(batches: int, rest: int, **loader) -> dict:
    torch = pytest.importorskip("torch")
    namespace: dict = {}
    exec(compile(LAST_BATCH_NET, "<ipython-input-2>", "exec"), namespace)  # noqa: S102
    rows = batches * 64 + rest
    data = namespace["TensorDataset"](torch.randn(rows, 8), torch.randint(0, 2, (rows,)))
    namespace["loader"] = namespace["DataLoader"](data, batch_size=64, **loader)
    namespace["step"] = 0
    return namespace


def _last_batch_raised(cell: str, batches: int = 3, rest: int = 17, **loader) -> bool:
    try:
        exec(cell, _loader_namespace(batches, rest, **loader))  # noqa: S102 - the truth
    except RuntimeError:
        return True
    return False


#: Each loop's forward fixes the batch size on the smaller last batch. The step counter of
#: `LAST_BATCH_NET`'s forward, bumped on each batch, stays below the loader's length.
LAST_BATCH_CRASH = [
    "for epoch in range(3):\n    for xb, yb in loader:\n        opt.zero_grad()\n"
    "        out = net.fc(xb.view(BATCH, -1))\n        loss = torch.nn.functional.cross_entropy("
    "out, yb)\n        loss.backward()\n        opt.step()",
    # the notebook's own forward, read through the module
    "for epoch in range(3):\n    for i, (xb, yb) in enumerate(loader):\n        opt.zero_grad()\n"
    "        loss = torch.nn.functional.cross_entropy(net(xb), yb)\n        loss.backward()\n"
    "        opt.step()",
    # a module the cell defines, whose forward raises on the cell's own lines
    "class Flat(torch.nn.Module):\n    def __init__(self):\n        super().__init__()\n"
    "        self.fc = torch.nn.Linear(8, 2)\n    def forward(self, x):\n"
    "        return self.fc(x.view(BATCH, -1))\nflat = Flat()\n"
    "opt = torch.optim.SGD(flat.parameters(), lr=0.01)\nfor epoch in range(3):\n"
    "    for xb, yb in loader:\n        opt.zero_grad()\n"
    "        torch.nn.functional.cross_entropy(flat(xb), yb).backward()\n        opt.step()",
    # predictions kept batch by batch: the list the loop grows is no part of what raised
    "preds = []\nwith torch.no_grad():\n    for xb, yb in loader:\n"
    "        preds.append(net.fc(xb.view(BATCH, -1)).argmax(1))",
]


@pytest.mark.parametrize("shuffle", [False, True])
@pytest.mark.parametrize("cell", LAST_BATCH_CRASH)
def test_a_size_the_smaller_last_batch_breaks_is_the_cells_crash(cell, shuffle):
    assert _last_batch_raised(cell, shuffle=shuffle)
    assert not _last_batch_raised(cell, rest=0, shuffle=shuffle)  # every batch full: it runs
    result, verdict = _predict(cell, _loader_namespace(20_000, 17, shuffle=shuffle))
    assert result.cut_before_crash and result.last_iteration, result
    assert (verdict.crash, verdict.exception) == (True, "RuntimeError"), verdict
    assert any(c.endswith("iterations and the last") for c in result.cuts), result.cuts
    for loader in ({"shuffle": shuffle, "drop_last": True}, {"rest": 0, "shuffle": shuffle}):
        rest = loader.pop("rest", 17)
        result, verdict = _predict(cell, _loader_namespace(20_000, rest, **loader))
        assert verdict.crash is not True and not result.last_iteration, result


@pytest.mark.parametrize("cell", [
    # the forward reads the step count, which the cut run leaves short of the loader's end
    LAST_BATCH_TRAIN,
    # the statement's size reads what the loop counts
    "count = 0\nfor xb, yb in loader:\n    count += 1\n"
    "    rows = BATCH if count < len(loader) else len(xb)\n    out = net.fc(xb.view(rows, -1))",
])
def test_a_size_the_cut_may_have_changed_on_the_last_batch_is_not_the_cells(cell):
    assert not _last_batch_raised(cell)
    result, verdict = _predict(cell, _loader_namespace(20_000, 17))
    assert not result.last_iteration, result
    assert verdict.crash is not True, verdict


# ---- loops over files: a listing's last item, the frames a cut loop collects ----------------

def _log_folder(tmp_path, files: int, late: int, late_row: str, rows: int = 20) -> dict:
    """``files`` CSV exports in a folder; the last ``late`` write ``late_row`` (a format
    string of the file's number) where the others write ``2023-01-01 00:00:{k:02d},k,k``."""
    import glob
    import os

    import numpy as np
    import pandas as pd

    folder = tmp_path / "logs"
    folder.mkdir()
    for i in range(files):
        line = late_row if i >= files - late else "2023-01-{d:02d} 00:00:{k:02d},{k},{k}"
        body = "".join(line.format(d=1 + i % 28, k=k) + "\n" for k in range(rows))
        (folder / f"log_{i:04d}.csv").write_text("timestamp,count,reading\n" + body)
    import csv

    return {"np": np, "pd": pd, "glob": glob, "os": os, "csv": csv, "time": time,
            "folder": str(folder)}


READ_EACH = ("totals = {}\nfor fname in sorted(os.listdir(folder)):\n    time.sleep(0.01)\n"
             "    total = 0\n"
             "    with open(os.path.join(folder, fname), newline='') as f:\n"
             "        for row in csv.DictReader(f):\n            total += {parse}\n"
             "    totals[fname] = total\n")


def test_a_loop_over_a_listing_runs_its_last_item_and_its_own_values_count(tmp_path):
    def namespace():
        folder = tmp_path / str(len(list(tmp_path.iterdir())))
        folder.mkdir()
        return _log_folder(folder, 300, 3, "2023-02-01 00:00:{k:02d},{k}.0,{k}")

    cell = READ_EACH.replace("{parse}", "int(row['count'])")
    assert _raised_type(cell, namespace()) == "ValueError"
    result, verdict = _predict(cell, namespace())
    assert result.last_iteration and any("and the last" in c for c in result.cuts), result
    assert (verdict.crash, verdict.exception) == (True, "ValueError"), (verdict, result)
    fixed = READ_EACH.replace("{parse}", "int(float(row['count']))")
    assert _raised_type(fixed, namespace()) is None
    result, verdict = _predict(fixed, namespace())
    assert (result.outcome, verdict.crash) == ("completed", False), result


COLLECT = ("frames = []\nfor path in sorted(glob.glob(os.path.join(folder, '*.csv'))):\n"
           "    time.sleep(0.01)\n    chunk = pd.read_csv(path)\n"
           "    chunk = chunk[chunk['reading'] >= 0]\n"
           "    chunk['log_reading'] = np.log1p(chunk['reading'])\n"
           "    chunk['source'] = os.path.basename(path)\n    frames.append(chunk)\n"
           "readings = pd.concat(frames, ignore_index=True)\n")
#: (the cell's end, the rows of the late files, the fixed end)
COLLECTED_CRASHES = [
    ("readings['timestamp'] = pd.to_datetime(readings['timestamp'])\n",
     "2023-02-01T00:00:{k:02d}.000,{k},{k}",
     "readings['timestamp'] = pd.to_datetime(readings['timestamp'], format='mixed')\n"),
    ("readings['count'] = readings['count'].astype(int)\n", "2023-02-01 00:00:{k:02d},,{k}",
     "readings['count'] = readings['count'].fillna(0).astype(int)\n"),
]


@pytest.mark.parametrize("end, late_row, fixed_end", COLLECTED_CRASHES)
def test_a_value_of_the_frames_a_cut_loop_collected_fails_as_in_the_whole(
        tmp_path, end, late_row, fixed_end):
    def namespace():
        folder = tmp_path / str(len(list(tmp_path.iterdir())))
        folder.mkdir()
        return _log_folder(folder, 300, 3, late_row)

    cell = COLLECT + end
    assert _raised_type(cell, namespace()) == "ValueError" or \
        _raised_type(cell, namespace()) == "IntCastingNaNError"
    result, verdict = _predict(cell, namespace())
    assert result.cut_before_crash and not result.cut_may_cause, result
    assert verdict.crash is True, (verdict, result)
    fixed = COLLECT + fixed_end
    assert _raised_type(fixed, namespace()) is None
    result, verdict = _predict(fixed, namespace())
    assert (result.outcome, verdict.crash) == ("completed", False), result


@pytest.mark.parametrize("end", [
    # a column made after the join from many rows (a group's spread): the cut run's groups
    # hold fewer rows than the real run's
    "readings['spread'] = readings.groupby('station')['reading'].transform('std')\n"
    "readings['spread'].astype(int)\n",
    "readings.groupby('station')['reading'].transform('std').astype(int)\n",
])
def test_a_value_made_after_the_join_from_many_rows_is_not_claimed(tmp_path, end):
    """One row per file, each station in two files: the real run's every station has two
    readings, the cut run's last one only one (a NaN spread)."""
    def namespace():
        folder = tmp_path / str(len(list(tmp_path.iterdir())))
        folder.mkdir()
        ns = _log_folder(folder, 300, 0, "", rows=1)
        for k, path in enumerate(sorted((folder / "logs").iterdir())):
            path.write_text(f"timestamp,count,reading,station\n2023-01-01,{k},{k % 7},s{k // 2}\n")
        return ns

    cell = COLLECT + end
    assert _raised_type(cell, namespace()) is None
    result, verdict = _predict(cell, namespace())
    assert result.outcome == "crashed" and result.cut_before_crash, result
    assert verdict.crash is not True, (verdict, result)


SAMPLED = ("frames = []\nfor path in sorted(glob.glob(os.path.join(folder, '*.csv'))):\n"
           "    time.sleep(0.01)\n    chunk = pd.read_csv(path)\n"
           "    chunk = chunk.iloc[rng.permutation(len(chunk))[:5]]\n    frames.append(chunk)\n"
           "readings = pd.concat(frames, ignore_index=True)\n"
           "readings['count'] = readings['count'].astype(int)\n")


def test_a_frame_sampled_with_a_generator_the_cut_loop_draws_from_is_not_claimed(tmp_path):
    """Five rows drawn from each file with one generator: the cut run draws the last file's
    rows with the generator as the cut left it, not as the real run does. The last file's
    count is empty in every row but the five the real run draws: the real run is clean,
    the cut run's draw almost surely holds an empty count."""
    import numpy as np

    def namespace():
        folder = tmp_path / str(len(list(tmp_path.iterdir())))
        folder.mkdir()
        ns = _log_folder(folder, 300, 0, "")
        rng = np.random.default_rng(7)
        for _ in range(299):
            rng.permutation(20)
        drawn = set(rng.permutation(20)[:5].tolist())
        last = sorted((folder / "logs").iterdir())[-1]
        rows = last.read_text().splitlines()
        last.write_text("\n".join(rows[:1] + [
            row if k in drawn else row.split(",")[0] + ",," + row.split(",")[2]
            for k, row in enumerate(rows[1:])]) + "\n")
        ns["rng"] = np.random.default_rng(7)
        return ns

    assert _raised_type(SAMPLED, namespace()) is None
    result, verdict = _predict(SAMPLED, namespace())
    assert result.outcome == "crashed" and result.cut_before_crash, result
    assert verdict.crash is not True, (verdict, result)


@pytest.mark.parametrize("body, own", [
    ("chunk = pd.read_csv(path)\nchunk['x'] = np.log1p(chunk['v'])\nframes.append(chunk)", True),
    ("chunk = pd.read_csv(path)\nif chunk.empty:\n    continue\nframes.append(chunk)", True),
    # running state: the frame is no longer the item's own
    ("chunk = pd.read_csv(path)\nchunk['k'] = seen\nseen += 1\nframes.append(chunk)", False),
    ("chunk = pd.read_csv(path)\nframes.append(chunk)\nframes.append(frames[0])", False),
    ("chunk = pd.read_csv(path)\nif chunk.empty:\n    break\nframes.append(chunk)", False),
    ("chunk = pd.read_csv(path)\nframes.append(chunk.dropna())", True),
    ("chunk = pd.read_csv(path)\nframes.append(chunk.assign(k=seen))\nseen += 1", False),
    ("a, (b, *c) = np.gradient(path)\nframes.append(np.stack([a, b]))", True),
    ("a, b = seen, path\nframes.append(a)\nseen += 1", False),
    ("chunk = pd.read_csv(path)", False),
])
def test_a_loop_collects_its_items_own_frames_only_in_plain_statements(body, own):
    import ast
    import textwrap

    from crashpredict._dryrun._fastforward import _bound_in, _own_items

    loop = ast.parse("for path in paths:\n" + textwrap.indent(body, "    ")).body[0]
    made, _ = _bound_in(loop.body, [loop.target])
    assert _own_items(loop, "frames", set(made)) is own


# ---- what a loop runs over, read when it begins ---------------------------------------------

def _wide_namespace() -> dict:
    import numpy as np
    import pandas as pd

    frame = pd.DataFrame(np.ones((20, 400)), columns=[f"c{k}" for k in range(400)])
    frame["y"] = 1
    return {"np": np, "pd": pd, "time": time, "df": frame}


GRID = ("grid = np.zeros(({rows}, 20))\nfor i, col in enumerate(names):\n    time.sleep(0.01)\n"
        "    grid[i // 20, i % 20] = pd.to_numeric(df[col]).mean()\n")


def test_a_list_made_before_the_loop_is_not_what_the_loop_hands_on():
    """The panels' names are read from the frame before the loop; the loop hands the frame
    to a call, which cannot change the list it already runs over: the grid one row short
    fails on the last name, as in the real run."""
    cell = "names = [c for c in df.columns if c != 'y']\n" + GRID.format(rows=19)
    assert _raised_type(cell, _wide_namespace()) == "IndexError"
    result, verdict = _predict(cell, _wide_namespace())
    assert result.last_iteration, result
    assert (verdict.crash, verdict.exception) == (True, "IndexError"), (verdict, result)
    fixed = "names = [c for c in df.columns if c != 'y']\n" + GRID.format(rows=20)
    assert _raised_type(fixed, _wide_namespace()) is None
    result, verdict = _predict(fixed, _wide_namespace())
    assert verdict.crash is not True, (verdict, result)


def test_a_list_made_after_a_cut_loop_changed_its_source_is_not_claimed():
    """A cut loop drops fewer columns than the real one: the names read after it are more,
    and the cut run's last name falls past a grid the real run fills exactly."""
    cell = ("for col in [f'c{k}' for k in range(100)]:\n    time.sleep(0.02)\n"
            "    df.drop(columns=col, inplace=True)\n"
            "names = [c for c in df.columns if c != 'y']\n" + GRID.format(rows=15))
    assert _raised_type(cell, _wide_namespace()) is None
    result, verdict = _predict(cell, _wide_namespace())
    assert verdict.crash is not True, (verdict, result)


# ---- an iteration a cut loop's current run keeps --------------------------------------------

def _sectors_namespace() -> dict:
    """Three sectors' daily returns; the last sector's vendor file was missing: all zero."""
    import numpy as np

    rng = np.random.default_rng(4)
    n = 1200
    market = rng.normal(0, 0.01, n)
    returns = {"energy": rng.normal(0, 0.01, n), "tech": rng.normal(0, 0.01, n),
               "utilities": np.zeros(n)}
    return {"np": np, "time": time, "market": market, "sector_ret": returns,
            "sectors": ["energy", "tech", "utilities"], "n": n, "window": 60}


#: a rolling regression per sector: each sector's windows are a run of the inner loop, cut
#: to a few windows in the cut run; the whole run takes about 3.4 s
ROLLING = ("betas = {{}}\nseen = 0\nfor sec in sectors:\n"
           "    X_full = np.column_stack([np.ones(n), market, sector_ret[sec]])\n"
           "    rows = []\n    for start in range(0, n - window + 1):\n"
           "        time.sleep(0.001)\n        seen += 1\n"
           "        X = X_full[start:start + window]\n"
           "        XtX_inv = {inverse}\n        rows.append(XtX_inv[0, 0])\n"
           "    betas[sec] = rows\n")


def test_a_failure_on_a_kept_iterations_own_values_is_the_cells_crash():
    """The utilities sector's first window is singular: the cut run meets it in the first
    iteration of the inner loop's third run (its earlier runs were cut), on values that
    iteration made from its own item; the real run meets it there too. The fix (``pinv``)
    runs clean."""
    cell = ROLLING.format(inverse="np.linalg.inv(X.T @ X)")
    assert _raised_type(cell, _sectors_namespace()) == "LinAlgError"
    result, verdict = _predict(cell, _sectors_namespace())
    assert result.cut_before_crash and result.kept_iteration, result
    assert (verdict.crash, verdict.exception, verdict.line) == (True, "LinAlgError", 10), \
        (verdict, result)
    fixed = ROLLING.format(inverse="np.linalg.pinv(X.T @ X)")
    assert _raised_type(fixed, _sectors_namespace()) is None
    result, verdict = _predict(fixed, _sectors_namespace())
    assert verdict.crash is not True, (verdict, result)


def test_a_kept_iteration_that_reads_a_count_the_cut_runs_made_is_not_claimed():
    """A count carried across the runs: at the third run's first window the cut run's is 9
    (its earlier runs kept four windows each), and ``1 // (seen - 9)`` divides by zero
    there; the real run's is 2,283 there, and it runs clean."""
    cell = ROLLING.format(inverse="np.linalg.inv(X.T @ X) * (1 // (seen - 9) if start == 0 else 1)")
    namespace = _sectors_namespace()
    namespace["sectors"] = ["energy", "tech", "energy"]  # no singular window at all
    assert _raised_type(cell, dict(namespace)) is None
    result, verdict = _predict(cell, namespace)
    assert result.outcome == "crashed" and result.exception == "ZeroDivisionError", result
    assert not result.kept_iteration and verdict.crash is not True, (verdict, result)


#: A sweep of a parameter whose last value the installed library refuses: the cut run's
#: last iteration fits with that value, on data no cut loop changes (scikit-learn's fits,
#: predictions and metrics change none of their arguments), so it is the cell's crash.
SWEEP = ("results = {{}}\n"
         "for mf in [0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 'sqrt', 'log2', {last!r}]:\n"
         "    rf = RandomForestClassifier(n_estimators=300, max_features=mf, random_state=0)\n"
         "    rf.fit(X_tr, y_tr)\n"
         "    results[mf] = accuracy_score(y_va, rf.predict(X_va))\n")


def _sweep_namespace() -> dict:
    np = pytest.importorskip("numpy")
    from sklearn.ensemble import RandomForestClassifier
    from sklearn.metrics import accuracy_score

    rng = np.random.default_rng(12)
    X = rng.normal(size=(2000, 20))
    y = (X[:, 0] + X[:, 1] > 0).astype(int)
    return {"RandomForestClassifier": RandomForestClassifier,
            "accuracy_score": accuracy_score, "X_tr": X[:1500], "y_tr": y[:1500],
            "X_va": X[1500:], "y_va": y[1500:]}


def test_a_parameter_the_library_refuses_in_a_sweeps_last_iteration_is_the_cells_crash():
    from sklearn.utils._param_validation import InvalidParameterError

    cell = SWEEP.format(last="auto")
    with pytest.raises(InvalidParameterError):  # the truth (its first fits take seconds)
        exec(cell.replace("n_estimators=300", "n_estimators=2"), _sweep_namespace())  # noqa: S102
    result, verdict = _predict(cell, _sweep_namespace())
    assert result.cut_before_crash and result.last_iteration, result
    assert verdict.crash is True and verdict.exception == "InvalidParameterError", verdict
    result, verdict = _predict(SWEEP.format(last=0.9), _sweep_namespace())
    assert (result.outcome, verdict.crash) == ("completed", False), result


def test_only_scikit_learns_own_reading_calls_leave_their_arguments_as_they_were():
    import ast

    from sklearn import metrics
    from sklearn.ensemble import RandomForestClassifier
    from sklearn.pipeline import make_pipeline
    from sklearn.feature_extraction.text import HashingVectorizer
    from sklearn.preprocessing import FunctionTransformer, StandardScaler

    from crashpredict._dryrun._fastforward import _reads_its_arguments

    def scale_in_place(x):  # the notebook's function: it may change what it is given
        x *= 2
        return x

    class Mine(RandomForestClassifier):  # the notebook's own class: its fit may do anything
        pass

    namespace = {"rf": RandomForestClassifier(), "mine": Mine(), "metrics": metrics,
                 "accuracy_score": metrics.accuracy_score,
                 "inplace": make_pipeline(StandardScaler(copy=False), RandomForestClassifier()),
                 "scaled": make_pipeline(StandardScaler(), RandomForestClassifier()),
                 "vec": HashingVectorizer(), "doubled": FunctionTransformer(scale_in_place),
                 "scaler": StandardScaler(copy=False)}

    def reads(call: str) -> bool:
        node = ast.parse(call, mode="eval").body
        assert isinstance(node, ast.Call)
        return _reads_its_arguments(node, namespace)

    assert reads("rf.fit(X, y)") and reads("rf.predict(X)") and reads("scaled.fit(X, y)")
    assert reads("accuracy_score(y, p)") and reads("metrics.f1_score(y, p)")
    assert not reads("inplace.fit(X, y)")  # StandardScaler(copy=False) scales X in place
    assert not reads("mine.fit(X, y)") and not reads("rf.set_params(x)")
    assert not reads("np.copyto(a, b)")
    # a transform reads what it is given, but where a step works in place or runs a function
    assert reads("scaled.transform(X)") and reads("vec.transform(batch['text'])")
    assert reads("rf.partial_fit(X, y)")
    assert not reads("doubled.transform(X)") and not reads("scaler.transform(X)")


def _sales() -> dict:
    """A year of transactions in 40 stores, each sold through two channels."""
    import numpy as np
    import pandas as pd

    rng = np.random.default_rng(13)
    n = 24_000
    return {"np": np, "pd": pd, "time": time, "tx": pd.DataFrame({
        "month": rng.integers(1, 13, n), "store": rng.integers(1, 41, n),
        "channel": rng.integers(1, 3, n), "amount": rng.gamma(2.0, 18.0, n)})}


MONTHLY_SUMMARIES = """
rows = []
for m in range(1, 13):
    time.sleep(0.25)
    month_tx = tx[tx['month'] == m]
    summary = month_tx.groupby({keys}).agg(revenue=('amount', 'sum')).reset_index()
    summary['month'] = m
    rows.append(summary)
monthly = pd.concat(rows, ignore_index=True)
{between}grid = {reshape}
"""


@pytest.mark.parametrize("reshape", [
    "monthly.pivot(index='store', columns='month', values='revenue')",
    "monthly.set_index(['store', 'month'], verify_integrity=True)",
    "pd.pivot(monthly, index='store', columns='month', values='revenue')",
    "monthly.set_index(['store', 'month'])['revenue'].unstack()",
    "monthly.set_index(['store', 'month']).unstack(level='month')",
])
def test_a_reshape_of_collected_frames_that_refuses_a_key_twice_is_the_whole_runs(reshape):
    """Each month's summary has a row per store and channel: the pivot by store and month
    meets each key twice. The cut run's months are some of the real run's, each made from
    its own rows, so the real run's frame holds the same two rows of a key: its pivot
    fails too. The fix sums the channels first (or keys by channel too)."""
    cell = MONTHLY_SUMMARIES.format(keys="['store', 'channel']", between="", reshape=reshape)
    assert _raised_type(cell, _sales()) == "ValueError"
    result, verdict = _predict(cell, _sales())
    assert result.duplicates_kept and not result.cut_may_cause, result
    assert (verdict.crash, verdict.exception, verdict.line) == (True, "ValueError", 10), verdict
    assert any("refuses a key twice" in line for line in verdict.evidence), verdict.evidence
    fixed = MONTHLY_SUMMARIES.format(keys="['store']", between="", reshape=reshape)
    assert _raised_type(fixed, _sales()) is None
    result, verdict = _predict(fixed, _sales())
    assert (result.outcome, verdict.crash) == ("completed", False), result


@pytest.mark.parametrize("keys, between, reshape", [
    # the duplicates dropped in place before the reshape: clean for real
    ("['store', 'channel']", "monthly.drop_duplicates(['store', 'month'], inplace=True)\n",
     "monthly.pivot(index='store', columns='month', values='revenue')"),
    # keys of the months the cut run kept: but read from a column made after the join
    ("['store', 'channel']", "monthly['store'] = monthly['store'] * 100 + monthly['channel']\n",
     "monthly.pivot(index='store', columns='month', values='revenue')"),
    ("['store', 'channel']", "monthly['store'] = monthly['store'] * 100 + monthly['channel']\n",
     "monthly.set_index(['store', 'month'])['revenue'].unstack()"),
    # the index appended to, not set: unstacks the old row numbers too, unique
    ("['store', 'channel']", "",
     "monthly.set_index(['store', 'month'], append=True)['revenue'].unstack()"),
])
def test_a_reshape_of_keys_changed_after_the_join_is_not_claimed(keys, between, reshape):
    cell = MONTHLY_SUMMARIES.format(keys=keys, between=between, reshape=reshape)
    assert _raised_type(cell, _sales()) is None
    result, verdict = _predict(cell, _sales())
    assert not result.duplicates_kept and verdict.crash is not True, (verdict, result)


def _tasks() -> dict:
    """Three classification tasks of 300 rows; the last one's labels came from a join
    whose gaps were filled with 0, so they are floats (float64)."""
    torch = pytest.importorskip("torch")
    torch.manual_seed(0)
    tasks = {}
    for name, classes in (("churn", 2), ("tier", 4), ("fraud", 2)):
        X = torch.randn(300, 8)
        y = X[:, :classes].argmax(dim=1)
        tasks[name] = (X, y.double() if name == "fraud" else y)
    return {"torch": torch, "nn": torch.nn, "time": time, "tasks": tasks}


MULTITASK = """
heads = {{}}
for name, (X, y) in tasks.items():
    model = nn.Linear(8, int(y.max()) + 1)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for epoch in range(40):
        for i in range(0, len(X), 30):
            time.sleep(0.001)
            opt.zero_grad()
            loss = nn.functional.cross_entropy(model(X[i:i + 30]), y[i:i + 30]{cast})
            loss.backward()
            opt.step()
    heads[name] = model
"""


def test_a_tensors_element_type_refused_after_cut_loops_is_the_real_runs():
    """Each task trains its own head; the third task's float labels meet the loss in its
    first batch, after the first two tasks' epochs were cut. Fewer iterations run the
    same statements on tensors of the same element types, so the refusal of a float64
    target is the real run's (`_about_dtypes`), though the statement reads what the cut
    loops bind. Its fix casts the labels to class indices."""
    cell = MULTITASK.format(cast="")
    assert _raised_type(cell, _tasks()) == "RuntimeError"
    result, verdict = _predict(cell, _tasks())
    assert result.cut_before_crash and not result.cut_may_cause, result
    assert (verdict.crash, verdict.exception, verdict.line) == (True, "RuntimeError", 10), \
        verdict
    fixed = MULTITASK.format(cast=".long()")
    assert _raised_type(fixed, _tasks()) is None
    result, verdict = _predict(fixed, _tasks())
    assert (result.outcome, verdict.crash) == ("completed", False), result


def test_a_store_changes_what_it_stores_into_and_its_keys_reach_it():
    """Unit: a store into ``d[k]`` or ``o.attr`` binds or changes the base alone
    (`_stored`); the names of its key still reach the base (`_propagate`: ``seen[key] =
    1`` with a key a cut loop makes holds what that loop made)."""
    import ast

    from crashpredict._dryrun._fastforward import _propagate, _stored

    cases = {"scores[months[i]] = auc": {"scores"}, "a, (b, *c) = t": {"a", "b", "c"},
             "df.loc[mask, col] = 0": {"df"}, "model.coef_[j] = w[j]": {"model"},
             "x = 1": {"x"}}
    for source, stored in cases.items():
        statement = ast.parse(source).body[0]
        assert set().union(*(_stored(t) for t in statement.targets)) == stored, source
    tree = ast.parse("for k in keys:\n    seen[k] = 1\nfirst = min(seen)\nlabel = names[0]\n")
    assert _propagate(tree, {"k"}) == {"k", "seen", "first"}
    assert "names" not in _propagate(tree, {"seen"})
    # a tuple's other targets are not reached through the one tainted
    tree = ast.parse("start, size, seen = 0, 50, 0\nfor start in range(start, n, size):\n"
                     "    seen += 1\n")
    assert _propagate(tree, {"start"}) == {"start"}


QUEUED = """
parsed = []
while queue:
    chunk = queue.popleft()
    time.sleep(0.02)
    chunk['ts'] = pd.to_datetime(chunk['ts']{fix}, format='%Y-%m-%d %H:%M')
    chunk = chunk.sort_values('ts')
    parsed.append(chunk)
"""


def _queued_logs() -> dict:
    """A queue of forty hourly log frames; the last one's clock writes ISO 8601 times."""
    import collections

    import pandas as pd

    frames = []
    for hour in range(40):
        stamps = pd.date_range("2024-05-01", periods=50, freq="min") + pd.Timedelta(hours=hour)
        frames.append(pd.DataFrame({"ts": stamps.strftime(
            "%Y-%m-%dT%H:%M:%S" if hour == 39 else "%Y-%m-%d %H:%M"), "n": range(50)}))
    return {"pd": pd, "time": time, "queue": collections.deque(frames)}


def _last_item_pair(namespace: Callable[[], dict], cell: str, fixed: str, line: int,
                    rules_ok: bool = False) -> None:
    """A crash/fix pair whose crash is the loop's last item's own (each variant's truth
    run for real on a fresh ``namespace()``): beside the cell the crash is warned at
    ``line`` from the last iteration (``rules_ok``: or found by the child's rules first),
    the fix is not."""
    assert _raised_type(cell, namespace()) == "ValueError"
    result = _beside_the_cell(namespace(), cell)
    verdict = dryrun_verdict(result, cell)
    assert result.last_iteration or (rules_ok and result.found_by_rules), result
    assert (verdict.crash, verdict.exception, verdict.line) == (True, "ValueError", line), verdict
    assert _raised_type(fixed, namespace()) is None
    result = _beside_the_cell(namespace(), fixed)
    verdict = dryrun_verdict(result, fixed)
    assert verdict.crash is not True and not result.last_iteration, (verdict, result)


def test_a_queues_last_frame_changed_in_place_fails_on_its_own_values():
    """Each hour's frame of a queue is parsed in place (``chunk['ts'] = ...``), then
    rebound sorted: the last frame, a buffer of its own that no other frame shares
    (`Cutter._item_alone`), meets the parser with the real run's values. Its fix parses
    either format."""
    _last_item_pair(_queued_logs, QUEUED.format(fix=""),
                    QUEUED.format(fix=".str.replace('T', ' ').str.slice(0, 16)"), line=6)


def test_an_item_alone_shares_no_buffer_with_another():
    """Unit: `Cutter._item_alone`: frames and arrays of their own (and a zip's tuples of
    them) are alone; windows of one array, one frame twice, or dicts are not."""
    import numpy as np
    import pandas as pd

    from crashpredict._dryrun._fastforward import Cutter, LoopInfo

    base = np.arange(100.0)
    frames = [pd.DataFrame({"a": np.arange(5.0) + k}) for k in range(4)]
    cases = [(frames, frames[-1], True),
             ([np.arange(3.0) for _ in range(4)], None, True),
             (list(zip(range(4), frames)), None, True),
             ([base[k:k + 20] for k in range(0, 80, 10)], None, False),  # overlapping windows
             ([frames[0], frames[1], frames[0]], frames[0], False),  # the same frame twice
             ([{"a": [1]}, {"a": [2]}], None, False)]
    for items, last, alone in cases:
        cutter = Cutter({0: LoopInfo(0, 1, "", "the cell", sweep=True)})
        cutter.sources[0] = (items, None)
        last = items[-1] if last is None else last
        assert cutter._item_alone(0, last) is alone, (items, alone)
    cutter = Cutter({0: LoopInfo(0, 1, "", "the cell", sweep=True)})
    cutter.sources[0] = (frames, 0)
    assert cutter._item_alone(0, (3, frames[-1]))  # an ``enumerate``'s (count, item)


STREAMED = """
clf = SGDClassifier(loss='log_loss', random_state=0)
classes = {classes}
progressive = []
for k, (Xb, yb) in enumerate(batches):
    time.sleep(0.02)
    if k:
        progressive.append(clf.score(Xb, yb))
    clf.partial_fit(Xb, yb, classes=classes)
"""


def _streamed_batches() -> dict:
    """Forty batches of a support queue's tickets; the last holds a label the first
    batches never had (a queue opened late)."""
    import numpy as np
    from sklearn.linear_model import SGDClassifier

    rng = np.random.default_rng(12)
    batches = []
    for k in range(40):
        labels = ["billing", "tech", "account"] + (["urgent"] if k == 39 else [])
        batches.append((rng.normal(size=(60, 5)), rng.choice(labels, 60)))
    return {"np": np, "time": time, "SGDClassifier": SGDClassifier, "batches": batches}


def test_a_label_past_the_classes_of_a_partial_fit_in_the_last_batch_is_the_cells_crash():
    """A classifier fitted batch by batch, its classes fixed by its first ``partial_fit``
    from the first batch: the last batch has a label they lack. The classes are the real
    run's, whatever the batches the cut skipped (`_shaped_modules`), so the check of the
    weights of classes that refuses it is the real run's (`_about_a_models_shapes`). Its
    fix takes the classes of every batch."""
    _last_item_pair(_streamed_batches, STREAMED.format(classes="np.unique(batches[0][1])"),
                    STREAMED.format(classes="np.unique(np.concatenate([b[1] for b in batches]))"),
                    line=9)


ENUMERATED_ITEMS = """
scores = {{}}
for k, (store, frame) in enumerate(stores.items()):
    time.sleep(0.02)
    model = LinearRegression().fit(frame[['price', 'promo']]{fill}, frame['units'])
    scores[store] = (k, model.score(frame[['price', 'promo']]{fill}, frame['units']))
"""


def _store_frames() -> dict:
    """Forty stores' weekly sales; the last store's till lost some prices (NaN)."""
    import numpy as np
    import pandas as pd
    from sklearn.linear_model import LinearRegression

    rng = np.random.default_rng(4)
    stores = {}
    for k in range(40):
        frame = pd.DataFrame({"price": rng.uniform(2, 5, 52), "promo": rng.integers(0, 2, 52)})
        frame["units"] = 100 - 10 * frame["price"] + 5 * frame["promo"] + rng.normal(0, 2, 52)
        if k == 39:
            frame.loc[[3, 17], "price"] = np.nan
        stores[f"store{k:02d}"] = frame
    return {"time": time, "LinearRegression": LinearRegression, "stores": stores}


def test_an_enumerate_of_a_dicts_items_runs_its_last_item():
    """``for k, (store, frame) in enumerate(stores.items())`` runs its last item after its
    cut (a dict's view made again: `_dict_view`, its last item `_last_item`), where the
    last store's prices with gaps fail the fit as in the real run (the child's rules,
    which walk each store's frame first, may see it before). Its fix fills them."""
    import ast

    from crashpredict._dryrun._fastforward import Cutter, _last_kind, rewrite_cell

    source = ENUMERATED_ITEMS.format(fill="").replace("time.sleep(0.02)", "pass")
    assert _last_kind(ast.parse(source).body[1]) == "enumerate"
    loops: dict = {}
    tree = rewrite_cell(ast.parse(source), loops)
    cutter = Cutter(loops, cell_tree=ast.parse(source))
    namespace = {**_store_frames(), "__crashpredict_fast_forward__": cutter}
    namespace["stores"] = {k: v.fillna(0) for k, v in namespace["stores"].items()}
    exec(compile(ast.fix_missing_locations(tree), "<cell>", "exec"), namespace)  # noqa: S102
    assert list(namespace["scores"]) == ["store00", "store01", "store02", "store39"]
    assert cutter.last_items[0][0] == 39 and cutter.last_items[0][1][0] == "store39"
    _last_item_pair(_store_frames, ENUMERATED_ITEMS.format(fill=""),
                    ENUMERATED_ITEMS.format(fill=".fillna(0)"), line=5, rules_ok=True)
