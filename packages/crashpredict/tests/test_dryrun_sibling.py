"""The shrunk sibling of the dry run beside the cell (`_sibling`): a crash late in a cell
over big data is answered on the data's first rows, and only when the cut cannot have
caused it; the sibling writes nothing the whole run could see, and a standby child's cell
can start no process of its own."""

from __future__ import annotations

import ctypes
import errno
import os
import signal
import time

import pytest

from crashpredict._dryrun import _confine, _sibling
from crashpredict._dryrun._beside import Standby, prepare_standby
from crashpredict._dryrun._kinds import takes_a_part
from crashpredict._dryrun._verdict import dryrun_verdict

np = pytest.importorskip("numpy")
pd = pytest.importorskip("pandas")

pytestmark = pytest.mark.usefixtures("no_new_children")

#: A column function slow enough that the whole run over a million rows takes many
#: seconds (a loop in a lambda is no loop of the cell: fast-forward cannot cut it).
SLOW = "df['b'] = df['a'].apply(lambda v: sum(i * v for i in range({n})))\n"


def _layers_for_a_sibling() -> bool:
    standby = _armed(prepare_standby({}))
    beside = standby.start("x = 1", head_start_s=10.0)
    layers = beside.result.layers
    beside.settle(10)
    return "seccomp" in layers and "landlock" in layers


def _armed(standby: Standby, within: float = 20.0) -> Standby:
    end = time.monotonic() + within
    while not standby.armed():
        assert time.monotonic() < end, "the standby child never got ready"
        time.sleep(0.01)
    return standby


def _beside(source: str, ns: dict, within: float = 120.0):
    standby = _armed(prepare_standby(ns))
    beside = standby.start(source, head_start_s=0.01)
    result = beside.wait(within)
    beside.cancel()
    assert beside.settle(20)
    return result


@pytest.fixture
def shrunk_only(monkeypatch):
    """The rules run without trials, in the child and in the sibling (inherited by the
    forks): what a test of the run on the first rows sees is that run's, not the rules'
    trial of the same call."""
    from crashpredict._dryrun import _child

    monkeypatch.setattr(_sibling, "RULES_TRIALS_S", 0.0)
    monkeypatch.setattr(_child, "RULES_TRIALS_S", 0.0)


@pytest.fixture(scope="module")
def big() -> pd.DataFrame:
    if not _layers_for_a_sibling():
        pytest.skip("the sibling needs seccomp and Landlock in this kernel")
    n = 1_000_000
    return pd.DataFrame({"a": np.arange(n, dtype=float), "t": [f"r{i}" for i in range(n)]})


@pytest.mark.usefixtures("shrunk_only")
def test_a_late_crash_over_big_data_is_answered_on_its_first_rows(big) -> None:
    cell = SLOW.format(n=200) + "print(df.b.lenght)\n"
    result = _beside(cell, {"df": big})
    assert result.outcome == "crashed" and result.exception == "AttributeError", result
    assert "lenght" in result.message and result.line == 2
    # only the sibling runs on the first rows beside the cell: the whole run has minutes left
    assert result.shrunk and result.shrunk_names == ("df",)
    assert "b" not in big.columns


def _children_of(pid: int) -> list[int]:
    found = []
    for task in os.listdir(f"/proc/{pid}/task"):
        try:
            with open(f"/proc/{pid}/task/{task}/children") as fh:
                found += [int(p) for p in fh.read().split()]
        except OSError:
            pass
    return found


def _sibling_of(outer: int, within: float = 10.0) -> int | None:
    """The sibling's pid (the jail's outer process, its first process, the child, pid 2
    there, the sibling), once it exists."""
    end = time.monotonic() + within
    while time.monotonic() < end:
        try:
            for first in _children_of(outer):
                for child in _children_of(first):
                    for sibling in _children_of(child):
                        return sibling
        except (FileNotFoundError, ProcessLookupError):
            pass
        time.sleep(0.002)
    return None


def _stop_the_sibling(outer: int, at: float, within: float = 5.0) -> bool:
    """SIGSTOP the sibling (the jail's outer process, its first process, the child, pid 2
    there, the sibling) once it exists, at ``at`` (`time.monotonic`) or later."""
    sibling = _sibling_of(outer, within)
    if sibling is None:
        return False
    time.sleep(max(0.0, at - time.monotonic()))
    try:
        os.kill(sibling, signal.SIGSTOP)
    except ProcessLookupError:
        return False
    return True


def test_a_sibling_born_stopped_is_continued(big) -> None:
    # Signals sent to the child's process group while it forks reach the new process too,
    # and there a stop wins over a continue whatever their order: a sibling forked while
    # the kernel's pacer held the group and let it go again (the cell's first tick) was
    # born stopped, and the pacer continues the group only when it lets a held one go. In
    # a large process (a slow fork) that left the sibling silent (in pytest's own process
    # after the whole suite, 4 of 4 tries). Stopped here after the pacer's first tick (the
    # cell leaves a CPU idle: the pacer sends nothing more) and before the sibling's go,
    # it is continued.
    standby = _armed(prepare_standby({"df": big}))
    began = time.monotonic()
    beside = standby.start(SLOW.format(n=200) + "print(df.b.lenght)\n", head_start_s=0.01)
    stopped = _stop_the_sibling(standby._child.pid, began + _sibling.AFTER_S / 3)
    result = beside.wait(120)
    beside.cancel()
    assert beside.settle(20)
    assert stopped
    assert result.outcome == "crashed" and result.exception == "AttributeError", result
    assert result.shrunk and result.shrunk_names == ("df",)


def _niceness(pid: int) -> set[int]:
    """The niceness of each thread of ``pid`` (field 19 of its tasks' ``stat``)."""
    found = set()
    for task in os.listdir(f"/proc/{pid}/task"):
        try:
            with open(f"/proc/{pid}/task/{task}/stat") as fh:
                found.add(int(fh.read().rsplit(")", 1)[1].split()[16]))
        except (OSError, IndexError, ValueError):
            pass
    return found


@pytest.mark.usefixtures("shrunk_only")
def test_a_sibling_long_on_the_first_rows_steps_back_for_the_whole_run(big) -> None:
    # What costs the first rows as long as the whole data (here a sum over a range; torch's
    # first optimizer importing its compiler, a model's build) would take half the CPU the
    # cell leaves idle from the whole run: once it used `SHARE_CPU_S` of CPU, every thread
    # of the sibling is at `STEP_BACK_NICE`. Before it, none is.
    standby = _armed(prepare_standby({"df": big}))
    cell = SLOW.format(n=200) + "total = sum(i * i for i in range(100_000_000))\n"
    beside = standby.start(cell, head_start_s=0.01)
    sibling = _sibling_of(standby._child.pid)
    seen = []
    try:
        assert sibling is not None
        end = time.monotonic() + 30
        while time.monotonic() < end:
            try:
                seen.append(_niceness(sibling))
            except FileNotFoundError:
                break
            if seen[-1] == {_sibling.STEP_BACK_NICE}:
                break
            time.sleep(0.01)
    finally:
        beside.cancel()
        assert beside.settle(20)
    assert seen and seen[0] == {0}, seen[:3]
    assert seen[-1] == {_sibling.STEP_BACK_NICE}, seen[-3:]


def test_step_back_sets_every_thread_once_the_cpu_is_used() -> None:
    import subprocess
    import sys

    # (a thread that has just ended, ``late`` among them, may still be listed in /proc
    # and gone when it is asked: left out; the worker is a daemon, so nothing hangs)
    code = ("import os, threading, time\n"
            "from crashpredict._dryrun import _sibling\n"
            "go = threading.Event()\n"
            "worker = threading.Thread(target=go.wait, daemon=True)\n"
            "worker.start()\n"
            "_sibling._step_back(0.0)\n"
            "late = threading.Thread(target=lambda: print(os.getpriority(os.PRIO_PROCESS, 0)))\n"
            "late.start(); late.join()\n"
            "def nice(task):\n"
            "    try:\n"
            "        return os.getpriority(os.PRIO_PROCESS, int(task))\n"
            "    except ProcessLookupError:\n"
            "        return None\n"
            "print(sorted({nice(t) for t in os.listdir('/proc/self/task')} - {None}))\n"
            "go.set()\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.split() == [str(_sibling.STEP_BACK_NICE), f"[{_sibling.STEP_BACK_NICE}]"]


@pytest.mark.parametrize("tail", [
    "print(df.loc[900_000, 'b'])\n",  # a row label past the first rows
    "s = df.set_index('t')\nprint(s.loc['r900000', 'a'])\n",  # a text row label too
    # rows the first ones lack: a name the loop binds stays unbound
    "for i, v in df[df.a > 999_000].a.items():\n    last = v\nprint(last)\n",
])
def test_a_crash_the_cut_may_cause_is_left_to_the_whole_run(big, tail) -> None:
    cell = SLOW.format(n=10) + tail
    result = _beside(cell, {"df": big})
    assert result.outcome != "crashed", result
    assert not result.shrunk


def test_the_sibling_writes_no_file_the_whole_run_could_see(big, tmp_path) -> None:
    folder = tmp_path / "out"
    cell = SLOW.format(n=10) + f"import os\nos.makedirs({str(folder)!r})\nprint(df.b.lenght)\n"
    result = _beside(cell, {"df": big})
    # the sibling stopped at the write (it makes no folder), so the whole run made it once
    # and failed where the real run fails, not on a folder that already exists
    assert result.outcome == "crashed" and result.exception == "AttributeError", result
    assert not result.shrunk
    assert not folder.exists()


def test_a_standby_cell_can_start_no_process(big) -> None:
    cell = ("import ctypes, os\nlibc = ctypes.CDLL(None, use_errno=True)\n"
            "sizes = [len(v) for v in (df, df)] if 'df' in globals() else []\n"
            "pid = libc.fork()\nif pid == 0:\n    os._exit(0)\n"
            "if pid < 0:\n"
            "    raise OSError(ctypes.get_errno(), os.strerror(ctypes.get_errno()))\n")
    for ns in ({}, {"df": big}):  # without and with a sibling forked before the cell ran
        result = _beside(cell, dict(ns))
        assert result.outcome == "inconclusive" and "a new process" in result.blocked, result


@pytest.mark.parametrize("source, works", [
    ("df.head()", False),
    ("big *= 1.000001", False),
    ("g = df.groupby('k')['v'].mean()", False),
    ("df['b'] = df['a'].apply(abs)", True),
    ("g = df.groupby('k')['v'].agg(['mean', 'std'])", False),  # reductions by name
    ("g = df.groupby('k').agg({'v': ['mean', 'max']})", False),
    ("g = df.groupby('k')['v'].agg(lambda s: s.iloc[-1])", True),
    ("z = df.groupby('k')['v'].transform('mean')", False),
    ("model.fit(X, y)", True),
    ("for row in df.itertuples():\n    pass", True),
    ("total = sum(v * 2 for v in df.a)", True),
    ("summary = report(df)", True),  # a function of the notebook's: it may loop
    ("summary = len(df)", False),
])
def test_only_a_cell_that_works_through_rows_gets_a_sibling(source, works) -> None:
    def report(frame):
        return frame

    assert _sibling._works_through_rows(source, {"report": report, "len": len}) is works


def test_a_small_frame_gets_no_sibling() -> None:
    code = compile("df.a.sum(); arr.mean()", "<cell>", "exec")
    small = {"df": pd.DataFrame({"a": range(100)}), "arr": np.zeros(_sibling.MIN_ROWS)}
    assert _sibling._big_reads(code, small) == ()
    large = {**small, "arr": np.zeros(_sibling.MIN_ROWS + 1)}
    assert _sibling.MIN_ROWS > 100
    assert _sibling._big_reads(code, large) == ("arr", "df")


def _crash(exception: str, message: str, **extra) -> dict:
    return {"outcome": "crashed", "exception": exception, "message": message, **extra}


@pytest.mark.parametrize("result, expected", [
    (_crash("AttributeError", "'Pipeline' object has no attribute 'coef_'"), True),
    (_crash("AttributeError", "'NoneType' object has no attribute 'fit'"), False),
    (_crash("AttributeError", "Can only use .str accessor with string values!"), False),
    (_crash("NameError", "name 'nombre' is not defined"), True),
    (_crash("NameError", "name 'best' is not defined"), False),  # the cell binds it
    (_crash("KeyError", "'Age_group'"), True),
    (_crash("KeyError", "'r7'"), False),  # a value of the frame cut: a label it may lack
    (_crash("KeyError", "7"), False),
    (_crash("KeyError", "'t_r7'"), False),  # a one-hot column of that value
    (_crash("KeyError", "'age'"), False),  # a column of the frame cut
    (_crash("ValueError", "Input X contains NaN."), True),
    (_crash("ValueError", 'time data "n/a" doesn\'t match format "%Y-%m-%d", at position 520.'),
     True),  # a text of the rows kept
    (_crash("JSONDecodeError", "Expecting property name enclosed in double quotes: line 1 "
                               "column 3 (char 2)"), True),  # a text of the rows kept
    (_crash("IntCastingNaNError", "Cannot convert non-finite values (NA or inf) to integer"),
     True),
    (_crash("ValueError", "y contains previously unseen labels: 'z'"), False),
    (_crash("ValueError", "n_components=600 must be between 0 and min(n_samples, "
                          "n_features)=520 (see the maintenance notes)"), False),
    (_crash("IndexError", "index 900 is out of bounds for axis 0 with size 520"), False),
    (_crash("ValueError", "The feature names should match those that were passed "
                          "during fit."), False),
    (_crash("AttributeError", "'list' object has no attribute 'shape'",
            cut_before_crash=True, cut_may_cause=True), False),
    ({"outcome": "inconclusive", "blocked": "open('x', 'w')"}, False),
])
def test_what_a_run_on_the_first_rows_may_say(result, expected) -> None:
    source = "for m in models:\n    best = m\nprint(best)\n"
    originals = {"df": pd.DataFrame({"t": ["r1", "r7"], "age": [1, 2]})}
    assert _sibling.counts(result, source, originals) is expected


def test_a_missing_value_after_a_join_of_two_tables_cut_is_not_trusted() -> None:
    nan = _crash("ValueError", "Input X contains NaN.")
    two = {"orders": pd.DataFrame({"id": [1, 2]}), "customers": pd.DataFrame({"id": [2, 1]})}
    joined = "X = orders.merge(customers, on='id', how='left')\nmodel.fit(X, y)\n"
    assert not _sibling.counts(nan, joined, two)
    assert _sibling.counts(nan, "model.fit(orders, y)\n", two)  # no join: the rows' own NaN
    assert _sibling.counts(nan, joined, {"orders": two["orders"]})  # one table cut, one whole


def _in_a_fork(body) -> int:
    """Run ``body()`` in a forked process; its return value (a small int) comes back."""
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:
        code = 255
        try:
            code = int(body())
        finally:
            os.write(write, bytes([code]))
            os._exit(0)
    os.close(write)
    got = os.read(read, 1)
    os.close(read)
    os.waitpid(pid, 0)
    return got[0] if got else 255


def _fork_errno() -> int:
    libc = ctypes.CDLL(None, use_errno=True)
    pid = libc.fork()
    if pid == 0:
        os._exit(0)
    if pid > 0:
        os.waitpid(pid, 0)
        return 0
    return ctypes.get_errno() - 4000  # ERRNO_BLOCKED numbers, as a byte


@pytest.mark.skipif(os.uname().machine not in ("x86_64", "aarch64"), reason="no filter here")
def test_processes_are_allowed_until_the_stacked_filter_refuses_them(tmp_path) -> None:
    def body() -> int:
        confinement = _confine.confine(str(tmp_path), processes=True)
        if not confinement.seccomp:
            return 200
        if _fork_errno() != 0:
            return 201
        if _confine.no_new_processes() is not None:
            return 202
        return _fork_errno()

    code = _in_a_fork(body)
    if code == 200:
        pytest.skip("no seccomp here")
    assert code == 1, code  # 4001: a new process


def test_the_read_only_layer_refuses_writes_in_the_private_folder_too(tmp_path) -> None:
    def body() -> int:
        confinement = _confine.confine(str(tmp_path), processes=True)
        if not confinement.landlock:
            return 200
        (tmp_path / "before").write_text("ok")
        if _confine.read_only_files() is not None:
            return 201
        try:
            (tmp_path / "after").write_text("no")
        except PermissionError as exc:
            return 0 if exc.errno == errno.EACCES else 202
        return 203

    code = _in_a_fork(body)
    if code == 200:
        pytest.skip("no Landlock here")
    assert code == 0, code
    assert (tmp_path / "before").exists() and not (tmp_path / "after").exists()


@pytest.mark.parametrize("data, forwarded", [
    (b'R{"outcome": "crashed", "exception": "KeyError"}\n', True),
    (b'{"outcome": "crashed", "exception": "KeyError"}', True),  # the newline is added
    (b'R{"outcome": "completed"}\n', False),
    (b'R{"outcome": "inconclusive", "reason": "stuck"}\n', False),
    (b'RQ\x00\x00\x00\x00\x00\x00\x00\x02{}{"outcome": "crashed"}\n', False),  # after a probe
    (b'R{"outcome": "crash', False),  # cut short
    (b'', False),
])
def test_the_child_forwards_only_a_whole_crash_report(data, forwarded) -> None:
    report = _sibling._crash_report(data)
    assert (report is not None) is forwarded
    if forwarded:
        assert report.endswith(b"\n") and report.count(b"\n") == 1


def test_a_cast_of_nan_to_int_on_the_first_rows_is_warned_about() -> None:
    """The rows kept are real rows: a NaN among them makes the whole cast fail too."""
    from crashpredict._dryrun import DryRun, dryrun_verdict

    message = "Cannot convert non-finite values (NA or inf) to integer"
    dry = DryRun(outcome="crashed", exception="IntCastingNaNError", message=message, line=6,
                 shrunk=True, shrunk_names=("energy",))
    verdict = dryrun_verdict(dry, "x\n" * 6)
    assert (verdict.crash, verdict.exception, verdict.line) == (True, "IntCastingNaNError", 6)
    assert "on data cut to its first rows (energy)" in verdict.explanation


@pytest.fixture(scope="module")
def prices() -> pd.DataFrame:
    """Prices written as text; the newest rows say ``'n/a'`` where the price is unknown."""
    if not _layers_for_a_sibling():
        pytest.skip("the sibling needs seccomp and Landlock in this kernel")
    n = 300_000
    rng = np.random.default_rng(7)
    price = np.array([f"{v:.2f}" for v in rng.uniform(5, 500, n)], dtype=object)
    price[-2000::7] = "n/a"
    return pd.DataFrame({"a": np.arange(n, dtype=float), "price": price})


@pytest.mark.parametrize("parse, crashes", [
    ("df['p'] = df['price'].astype(float)\n", True),
    ("df['p'] = pd.to_numeric(df['price'], errors='coerce')\n", False),  # the fix
    # the first 100,000 rows hold no 'n/a'; of the rows kept, the first 100,000 do
    ("first = df.iloc[:100_000]\nfirst['price'].astype(float)\n", False),
])
@pytest.mark.usefixtures("shrunk_only")
def test_a_text_the_newest_rows_hold_is_on_the_first_rows_too(prices, parse, crashes) -> None:
    result = _beside(SLOW.format(n=400) + parse, {"df": prices.copy(), "pd": pd})
    if crashes:
        # the sibling keeps the first 'n/a' row: its answer comes before the whole run's
        assert result.outcome == "crashed" and result.exception == "ValueError", result
        assert "n/a" in result.message and result.shrunk, result
    else:
        assert result.outcome == "completed", result


@pytest.fixture(scope="module")
def sales() -> pd.DataFrame:
    """Sales by day; two stores (codes 49, 50) opened in the last weeks, past the head."""
    if not _layers_for_a_sibling():
        pytest.skip("the sibling needs seccomp and Landlock in this kernel")
    n = 400_000
    rng = np.random.default_rng(11)
    store = rng.integers(1, 49, n)
    store[-30_000:] = rng.integers(1, 51, 30_000)
    return pd.DataFrame({"store_id": store, "units": rng.poisson(3.0, n).astype(float)})


@pytest.mark.parametrize("cast, crashes", [
    ("tx['region'] = tx['region'].astype(int)\n", True),
    ("tx['region'] = tx['region'].fillna(0).astype(int)\n", False),  # the fix
])
@pytest.mark.usefixtures("shrunk_only")
def test_a_code_only_the_newest_rows_hold_is_on_the_first_rows_too(sales, cast, crashes) -> None:
    """A store that opened late has no row in the store table: merged, its region is NaN,
    and the cast fails on the whole data. The first rows keep the first row of each code
    their head lacks, so the sibling meets it (`_shrink._codes`)."""
    stores = pd.DataFrame({"store_id": np.arange(1, 49), "region": np.arange(48) % 7 + 1})
    source = ("tx['score'] = tx['units'].apply(lambda v: sum(i * v for i in range(400)))\n"
              "tx = tx.merge(stores, on='store_id', how='left')\n" + cast)
    result = _beside(source, {"tx": sales.copy(), "stores": stores, "pd": pd})
    if crashes:
        assert result.outcome == "crashed" and result.exception == "IntCastingNaNError", result
        assert result.shrunk and result.shrunk_names == ("tx",), result
        assert dryrun_verdict(result, source).crash is True
    else:
        assert result.outcome == "completed", result


@pytest.mark.parametrize("source, part", [
    ("df.iloc[:100_000]['p'].astype(float)", True),
    ("X[-200:].astype(float)", True),
    ("df[:split].p.astype(float)", True),
    ("df['p'].values[: 2 * n].astype(float)", True),
    ("df.sample(frac=0.1).p.astype(float)", True),
    ("df.tail().p.astype(float)", True),
    ("df.head(n).p.astype(float)", True),
    ("df.head(10).p.astype(float)", False),  # within the first rows: the same rows
    ("df.iloc[:, 1:].astype(float)", False),  # columns, not rows
    ("X[:100].astype(float)", False),
    ("df.p.apply(lambda s: float(s[1:-1]))", False),  # a text's slice
    ("other[:5000].astype(float)", False),  # not cut
])
def test_a_part_of_the_rows_cut_is_told_from_the_text(source, part) -> None:
    cut = {"df": pd.DataFrame({"p": ["1"]}), "X": np.array(["1"], dtype=object)}
    assert takes_a_part(source, cut, _sibling.ROWS) is part
    text = _crash("ValueError", "could not convert string to float: 'n/a'")
    assert _sibling.counts(text, source, cut) is not part


@pytest.fixture(scope="module")
def genres() -> pd.DataFrame:
    """Genres as JSON texts; the newest rows hold Python reprs (single quotes) instead."""
    if not _layers_for_a_sibling():
        pytest.skip("the sibling needs seccomp and Landlock in this kernel")
    import json

    n = 400_000
    names = ["Drama", "Comedy", "Action", "Horror"]
    pick = np.random.default_rng(5).integers(0, 4, n)
    as_json = np.array([json.dumps([{"id": i, "name": g}]) for i, g in enumerate(names)],
                       dtype=object)
    as_repr = np.array([str([{"id": i, "name": g}]) for i, g in enumerate(names)], dtype=object)
    texts = as_json[pick]
    texts[-3000:] = as_repr[pick[-3000:]]
    return pd.DataFrame({"genres": texts, "a": np.arange(n, dtype=float)})


#: A loop over every row (slow per row: the fast-forward cuts it) that builds a list and
#: stores it as a column: after the cut the lengths differ, a crash the cut itself causes
#: (over an iterator of the column's values, whose last item the cut run cannot take ahead)
GENRES = ("import json, time\nparsed = []\nfor s in iter(movies['genres'].tolist()):\n"
          "    time.sleep(0.00002)\n    parsed.append({parse}(s)[0]['name'])\n"
          "movies['first'] = parsed\n")


@pytest.mark.parametrize("parse, crashes", [
    ("json.loads", True),
    ("ast.literal_eval", False),  # the fix: reads both
])
@pytest.mark.usefixtures("shrunk_only")
def test_a_doubtful_crash_after_a_cut_waits_for_the_first_rows(genres, parse, crashes) -> None:
    import ast
    import json

    ns = {"movies": genres.copy(), "json": json, "ast": ast}
    result = _beside(GENRES.format(parse=parse), ns)
    if crashes:
        # the cut run's length mismatch is doubtful; the sibling, on the first rows and the
        # first row of each new shape, runs the loop whole and meets a repr
        assert result.outcome == "crashed" and result.exception == "JSONDecodeError", result
        assert result.shrunk and result.shrunk_names == ("movies",), result
        assert dryrun_verdict(result, GENRES).crash is True
    else:
        assert result.outcome != "crashed" or dryrun_verdict(result, GENRES).crash is not True


# ---- the rules first, with their trials on the whole data --------------------------------

@pytest.fixture(scope="module")
def houses() -> pd.DataFrame:
    """Houses whose garage year is missing only in the last tenth (the test rows)."""
    if not _layers_for_a_sibling():
        pytest.skip("the sibling needs seccomp and Landlock in this kernel")
    n = 400_000
    rng = np.random.default_rng(13)
    garage = rng.integers(1900, 2010, n).astype(float)
    garage[-40_000::9] = np.nan
    return pd.DataFrame({"a": np.arange(n, dtype=float), "garage": garage})


#: the test rows taken by position: a run on the first rows proves nothing of them
#: (`_kinds.takes_a_part`), the rules' trial on the whole data does
SPLIT = "test = df.iloc[360_000:]\n" + SLOW.format(n=400) + "years = test['garage']{fix}.astype(int)\n"


@pytest.mark.parametrize("child_trials", [None, 0.0])
@pytest.mark.parametrize("fix, crashes", [("", True), (".fillna(0)", False)])
def test_a_cast_of_the_rows_taken_by_position_is_found_by_the_rules(
        houses, fix, crashes, child_trials, monkeypatch) -> None:
    """Found by the child's rules before its run; with no trials there, by the sibling's
    rules once the first rows said nothing that counts (the whole run takes minutes)."""
    from crashpredict._dryrun import _child

    if child_trials is not None:
        monkeypatch.setattr(_child, "RULES_TRIALS_S", child_trials)
    source = SPLIT.format(fix=fix)
    result = _beside(source, {"df": houses.copy()}, within=240.0)
    if crashes:
        assert result.outcome == "crashed" and result.found_by_rules, result
        assert (result.exception, result.line) == ("IntCastingNaNError", 3), result
        assert not result.shrunk and "NaN in" in result.message, result
        verdict = dryrun_verdict(result, source)
        assert verdict.crash is True and "found by the rules" in verdict.explanation
    else:
        assert result.outcome == "completed", result


class _Policy:
    blocked: str | None = None


def test_the_rules_report_only_a_certain_crash() -> None:
    space = {"s": pd.Series([1.0, np.nan]), "pd": pd}
    found = _sibling.rules_on_the_whole("s.astype(int)", space, _Policy())
    assert found is not None and found["found_by_rules"] and found["line"] == 1
    assert found["exception"] == "IntCastingNaNError" and found["outcome"] == "crashed"
    assert _sibling.rules_on_the_whole("s.fillna(0).astype(int)", space, _Policy()) is None


def test_a_trial_refused_a_side_effect_makes_the_rules_answer_nothing(monkeypatch) -> None:
    """A refusal (`_sandbox.Blocked`, a BaseException) inside the rules' walk: no answer,
    and the refusal is not left on the policy for the run that follows."""
    from crashpredict import _rules
    from crashpredict._dryrun._sandbox import Blocked

    def refused(*args, **kwargs):
        policy.blocked = "open('x.csv', 'w')"
        raise Blocked("open('x.csv', 'w')")

    policy = _Policy()
    monkeypatch.setattr(_rules, "rules_engine", refused)
    assert _sibling.rules_on_the_whole("s.astype(int)", {}, policy) is None
    assert policy.blocked is None


def test_the_child_s_rules_answer_before_its_run() -> None:
    """A frame made in the cell, then ``results.append`` in a loop over a dict of models
    whose fits come first: the child's rules, with their trials, answer in milliseconds
    (the kernel's ran with a few milliseconds of trials, before the cell)."""
    from sklearn.linear_model import LogisticRegression

    rng = np.random.default_rng(2)
    X = rng.normal(size=(3000, 10))
    ns = {"pd": pd, "X": X, "y": (X[:, 0] > 0).astype(int),
          "models": {f"m{k}": LogisticRegression(max_iter=300) for k in range(3)}}
    cell = ("import time\nresults = pd.DataFrame(columns=['model', 'acc'])\n"
            "for name, model in models.items():\n    time.sleep(2)\n    model.fit(X, y)\n"
            "    results = results.append({'model': name, 'acc': model.score(X, y)},"
            " ignore_index=True)\n")
    result = _beside(cell, ns)
    assert result.outcome == "crashed" and result.found_by_rules, result
    assert (result.exception, result.line) == ("AttributeError", 6), result
    assert result.elapsed_s < 1.0 and "append" in result.message, result
    verdict = dryrun_verdict(result, cell)  # the rules' own confidence, not a run's 1.0
    assert verdict.crash is True and verdict.confidence == result.rules_confidence >= 0.9
