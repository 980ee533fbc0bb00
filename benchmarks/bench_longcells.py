"""Benchmark of long cells and of the extension beside the cell, in real kernels.

1. Fine cells with the extension loaded (default settings: rules, then the dry run beside
   the cell) against the same cells with it unloaded, in one kernel, alternating runs:
   the wall time of each execute request as the client sees it. Short cells (goal: at
   most +20 ms), and cells of 0.1 s and more, numpy and torch using every core among them
   (goal: median <= 1.05x, p95 <= 1.2x).
2. Crash/fix pairs whose crash comes after the long part (a torch training loop, Keras
   `fit` over many epochs, a loop over files written here, a long pandas row loop), each
   part sized to run `LONG_S` (60 s by default) for real. For each variant, in a real
   kernel with the extension loaded: the default engine's verdict (`predict` with rules
   + dry run, as `crashpredict check` asks) and its time; then the cell for real, with the
   time to the extension's warning and to the real crash. Truth is what the real run did.
   Reported: the share of inconclusive verdicts, accuracy and precision, the time to a
   verdict against the real run (ratio; goal >= 20x), the time to the warning against the
   time to the crash (goal >= 20x sooner).
3. The JunoBench sample in the notebook, with a user's pause before the target.
4. The dry-run benchmark's own crash/fix pairs in the notebook, back to back (as Run All
   sends cells): warned before the error, false warnings; a second set
   (`notebook_pairs`) and a third, written without reading the tool's code
   (`notebook_pairs_third`), back to back and after a pause.

``CRASHPREDICT_BENCH_LONG_S`` sets the long part's length (a quick look: 10).
"""

from __future__ import annotations

import importlib
import json
import os
import signal
import statistics
import tempfile
import time
from pathlib import Path

from .bench_dryrun import _stats

LONG_S = float(os.environ.get("CRASHPREDICT_BENCH_LONG_S", "60"))
REPEATS = 5
MARK = "@@bench@@"


class _Kernel:
    """A real kernel (jupyter_client) in ``cwd``: execute, and time what comes back."""

    def __init__(self, cwd: Path) -> None:
        from jupyter_client.manager import KernelManager

        self.manager = KernelManager(kernel_name="python3")
        self.manager.start_kernel(cwd=str(cwd), env={**os.environ, "TF_CPP_MIN_LOG_LEVEL": "3"})
        self.client = self.manager.client()
        self.client.start_channels()
        self.client.wait_for_ready(timeout=120)

    def run(self, code: str, timeout: float = 900) -> dict:
        """Run ``code``; return its wall time, the time of the first crashpredict warning,
        the error (ename) and the stdout."""
        msg_id = self.client.execute(code, store_history=True, allow_stdin=False)
        started = time.perf_counter()
        warned = error = error_at = None
        out: list[str] = []
        while True:
            msg = self.client.get_iopub_msg(timeout=timeout)
            if msg["parent_header"].get("msg_id") != msg_id:
                continue
            kind, content = msg["msg_type"], msg["content"]
            if kind == "display_data" and warned is None and \
                    "crashpredict" in content.get("data", {}).get("text/plain", ""):
                warned = time.perf_counter() - started
            elif kind == "error":
                error = content["ename"]
                error_at = time.perf_counter() - started
            elif kind == "stream":
                out.append(content["text"])
            elif kind == "status" and content["execution_state"] == "idle":
                break
        return {"wall": time.perf_counter() - started, "warned": warned, "error": error,
                "error_at": error_at, "stdout": "".join(out)}

    def freeze(self) -> None:
        """Stop the kernel (all its threads) and those of its processes that are not
        stopped already, until `thaw`: what it does while idle (the extension's standby fork
        and its copies, a child not yet stopped) must not run beside another kernel's cell
        that the bench is timing. Processes that were stopped (the extension keeps some
        stopped on purpose) stay as they were."""
        pid = self.manager.provisioner.pid
        os.kill(pid, signal.SIGSTOP)
        self._frozen = [p for p in _descendants(pid) if _state(p) not in ("T", "t", "Z", "")]
        for child in self._frozen:
            try:
                os.kill(child, signal.SIGSTOP)
            except ProcessLookupError:
                pass

    def thaw(self) -> None:
        for child in getattr(self, "_frozen", []):
            try:
                os.kill(child, signal.SIGCONT)
            except ProcessLookupError:
                pass
        self._frozen = []
        os.kill(self.manager.provisioner.pid, signal.SIGCONT)

    def value(self, expression: str) -> object:
        done = self.run(f"import json as _j\nprint({MARK!r} + _j.dumps({expression}))")
        line = next(x for x in done["stdout"].splitlines() if x.startswith(MARK))
        return json.loads(line[len(MARK):])

    def close(self) -> None:
        self.client.stop_channels()
        self.manager.shutdown_kernel(now=True)


def _descendants(pid: int) -> list[int]:
    out, todo = [], [pid]
    while todo:
        parent = todo.pop()
        try:
            tasks = os.listdir(f"/proc/{parent}/task")
        except OSError:
            continue
        for task in tasks:
            try:
                with open(f"/proc/{parent}/task/{task}/children", encoding="ascii") as fh:
                    kids = [int(x) for x in fh.read().split()]
            except (OSError, ValueError):
                continue
            out += kids
            todo += kids
    return out


def _state(pid: int) -> str:
    try:
        with open(f"/proc/{pid}/stat", "rb") as fh:
            return fh.read().rsplit(b")", 1)[1].split()[0].decode()
    except (OSError, IndexError):
        return ""


# ---- 1. fine cells, with and without the extension ----------------------------------------

FINE_SETUP = """
import time, numpy as np, pandas as pd, torch
from sklearn.ensemble import RandomForestClassifier
rng = np.random.default_rng(0)
a = rng.random((900, 900))
big = rng.random(60_000_000)          # 480 MB, updated in place by one cell
df = pd.DataFrame({"k": rng.integers(0, 1000, 2_000_000), "v": rng.random(2_000_000)})
X = rng.random((20_000, 20)); y = (X[:, 0] > 0.5).astype(int)
t = torch.randn(1200, 1200)
"""
#: (name, cell): short ones first, then cells of 0.1 s and more
FINE_CELLS = [
    ("short: assignment", "x = 1", True),
    ("short: df.head()", "h = df.head()", True),
    ("short: a small sum", "s = a[:10].sum()", True),
    ("sleep 0.3 s", "time.sleep(0.3)", False),
    ("numpy matmul, all cores", "for _ in range(12):\n    b = a @ a", False),
    ("torch matmul, all cores", "for _ in range(10):\n    u = t @ t", False),
    ("pandas groupby", "g = df.groupby('k')['v'].agg(['mean', 'std'])", False),
    ("pandas apply of a function", "z = df['v'].apply(lambda v: v * 2.0)", False),
    ("sklearn forest, n_jobs=-1",
     "RandomForestClassifier(n_estimators=60, n_jobs=-1, random_state=0).fit(X, y)", False),
    ("480 MB updated in place", "big *= 1.000001", False),
    ("python loop", "acc = 0\nfor i in range(3_000_000):\n    acc += i % 7", False),
]


#: A user's pause before running a cell (the extension's standby child gets ready in it).
THINK_S = 0.5


def _fine_runs(kernel: _Kernel, think_s: float, repeats: int) -> tuple[list[str], list, list]:
    rows, long_ratios, short_added = [], [], []
    for name, cell, _short in FINE_CELLS:
        kernel.run(cell)  # warm
        on, off = [], []
        for _ in range(repeats):
            kernel.run("%unload_ext crashpredict")
            time.sleep(think_s)
            off.append(kernel.run(cell)["wall"])
            kernel.run("%load_ext crashpredict")
            time.sleep(think_s)
            on.append(kernel.run(cell)["wall"])
        m_on, m_off = statistics.median(on), statistics.median(off)
        ratios = [x / y for x, y in zip(on, off)]
        if m_off < 0.1:  # the classes: under 0.1 s, added time; from 0.1 s, ratios
            short_added += [(x - y) * 1000 for x, y in zip(on, off)]
        else:
            long_ratios += ratios
        rows.append(f"| {name} | {m_off * 1000:.1f} ms | {m_on * 1000:.1f} ms | "
                    f"{m_on / m_off:.3f}x | {(m_on - m_off) * 1000:+.1f} ms |")
    return rows, long_ratios, short_added


def _steady_runs(kernels: tuple[_Kernel, _Kernel], repeats: int,
                 think_s: float) -> tuple[list[str], list, list]:
    """A session as a user has it: the extension loaded, the cells in turn (each after a
    different one), each run a new cell to it (a comment numbers the run, so none is a
    re-run of a quick cell), against a twin kernel without the extension. The two kernels
    swap roles every round (``%unload_ext`` in one, ``%load_ext`` in the other), so what
    one kernel's own process is faster at counts on both sides."""
    on: dict[str, list[float]] = {name: [] for name, _, _ in FINE_CELLS}
    off: dict[str, list[float]] = {name: [] for name, _, _ in FINE_CELLS}
    for name, cell, _short in FINE_CELLS:  # warm both
        for kernel in kernels:
            kernel.run(cell)
    for run in range(repeats):
        with_ext, without = kernels if run % 2 == 0 else kernels[::-1]
        without.run("%unload_ext crashpredict")
        with_ext.run("%load_ext crashpredict")
        # the kernel with the extension is stopped while the twin's cell runs: each kernel
        # has think_s of idle time before its cell, and its idle work never runs beside
        # the other's
        with_ext.freeze()
        try:
            for name, cell, _short in FINE_CELLS:
                source = f"{cell}\n# run {run}"
                time.sleep(think_s)
                off[name].append(without.run(source)["wall"])
                with_ext.thaw()
                time.sleep(think_s)
                on[name].append(with_ext.run(source)["wall"])
                with_ext.freeze()
        finally:
            with_ext.thaw()
    rows, long_ratios, short_added = [], [], []
    for name, _cell, _short in FINE_CELLS:
        m_on, m_off = statistics.median(on[name]), statistics.median(off[name])
        if m_off < 0.1:
            short_added += [(x - y) * 1000 for x, y in zip(on[name], off[name])]
        else:
            long_ratios += [x / y for x, y in zip(on[name], off[name])]
        rows.append(f"| {name} | {m_off * 1000:.1f} ms | {m_on * 1000:.1f} ms | "
                    f"{m_on / m_off:.3f}x | {(m_on - m_off) * 1000:+.1f} ms |")
    return rows, long_ratios, short_added


def _section(title: str, columns: list[str], rows: list[str], *after: str) -> list[str]:
    """A Markdown section: its title, a table of ``rows`` under ``columns``, then the
    paragraphs ``after`` it."""
    return [f"### {title}", "", "| " + " | ".join(columns) + " |",
            "|" + "---|" * len(columns), *rows, "", *after]


def _fine_table(title: str, rows: list[str], long_ratios: list[float],
                short_added: list[float]) -> list[str]:
    """A fine-cell table in Markdown, with its summary against the issue's goals."""
    med, p95 = _stats(long_ratios)
    add_med, add_p95 = _stats(short_added)
    return _section(
        title, ["cell", "without (median)", "with (median)", "ratio", "added"], rows,
        f"Cells of 0.1 s and more (without the extension): median ratio {med:.3f}x, p95 "
        f"{p95:.3f}x (goal <= 1.05x, <= 1.2x). Shorter cells: median {add_med:+.1f} ms, "
        f"p95 {add_p95:+.1f} ms (goal <= +20 ms).", "")


#: The session's rounds (even: each kernel has the extension in half of them) and paces.
SESSION_ROUNDS = 6
SESSION_PACES = (THINK_S, 2.0)


def fine_cells_in_a_session(repeats: int = SESSION_ROUNDS,
                            paces: tuple[float, ...] = SESSION_PACES) -> str:
    """The fine cells in a session that keeps the extension loaded, against a twin kernel,
    at each pace (seconds of idle time before each cell)."""
    out = []
    with tempfile.TemporaryDirectory() as work_a, tempfile.TemporaryDirectory() as work_b:
        kernels = (_Kernel(Path(work_a)), _Kernel(Path(work_b)))
        try:
            for kernel in kernels:
                kernel.run(FINE_SETUP)
            for think_s in paces:
                out += _fine_table(
                    f"Fine cells in a session that keeps the extension loaded, against a twin "
                    f"kernel without it, {think_s:g} s between cells: {repeats} rounds of every "
                    f"cell in turn", *_steady_runs(kernels, repeats, think_s))
        finally:
            for kernel in kernels:
                kernel.close()
    out += [
        "Each run is a cell new to the extension (a comment numbers the run), after a "
        "different cell, so each is a first run as above; unlike above, the extension stays "
        "loaded through a round, as in a user's session: after each cell the standby child "
        "is forked and the kernel's memory it shares is copied ahead while the kernel is idle "
        "(both kernels hold about 800 MB; the copies take about 0.45 s of a CPU here, so at "
        "0.5 s between cells the largest array is often not copied yet when the next cell "
        "starts). Two kernels hold the same data and swap roles every round; the one with "
        "the extension is stopped (its process, and its children not stopped already) while "
        "the other's cell runs, so its idle work never runs beside the twin's cell.", ""]
    return "\n".join(out)


def fine_cells() -> str:
    out = []
    with tempfile.TemporaryDirectory() as work:
        kernel = _Kernel(Path(work))
        try:
            kernel.run(FINE_SETUP)
            for think_s, repeats, title in (
                    (THINK_S, REPEATS, f"at a user's pace ({THINK_S:g} s between cells)"),
                    (0.0, 3, "back to back (as Run All sends them)")):
                out += _fine_table(
                    f"Fine cells with the extension (default: rules + dry run beside the cell) "
                    f"against without it, {title}: {repeats} alternating runs each, one kernel",
                    *_fine_runs(kernel, think_s, repeats))
        finally:
            kernel.close()
    out.append("Each run with the extension follows a fresh `%load_ext`, so each is a first "
               "run (a cell the session saw finish in under a second gets the head start only "
               "on its next run). Where the time goes: at a user's pace the standby child is "
               "forked while the kernel is idle; back to back there is no idle time: a cell "
               "that loops or fits gets a child forked as it starts (no head start); one "
               "that does not gets one too where a fork of the kernel takes at most 8 ms "
               "(here 6-9 ms), else none (such a child runs the cell at its speed: it gets "
               "ahead only of a traceback slow to show). "
               "A cell with no "
               "loop or fit waits for a ready child at most 10 ms (its head start), less when "
               "it answers sooner; one that loops or fits does not wait. Then the "
               "child runs beside it on the CPUs the cell leaves idle (beside a cell that "
               "keeps every CPU busy: none for the cell's first second, then one tick in "
               "three). Once the standby child is forked, the kernel's memory it shares is "
               "copied while the kernel is idle (the smaller mappings first; here about 0.45 s "
               "of a CPU for 800 MB, so 0.5 s after a fresh `%load_ext` the largest array is "
               "often not copied yet); each page the cell writes that was not copied ahead is "
               "copied as it writes it (library scratch buffers too: BLAS, the allocators' "
               "caches), and the dry run steps aside when those copies would cost the cell "
               "more than 3% of its time. Back to back, nothing is copied ahead. A child that "
               "is done is stopped, not ended, until the kernel is idle (its exit would take "
               "a CPU for its unmapping). On 2 cores the child also shares the CPUs with "
               "cells that use them all.")
    out += ["", fine_cells_in_a_session(), copies_ahead()]
    return "\n".join(out)


#: One process's rounds of a standby fork and its copies ahead, either way (`copies_ahead`).
_COPIES_SCRIPT = """
import json, resource, statistics, sys, time
import numpy as np
from crashpredict._dryrun import _beside
by_child = sys.argv[1] == "child"
rng = np.random.default_rng(0)
big = rng.random(60_000_000)          # 480 MB, updated in place after the copies
other = rng.random(40_000_000)        # 320 MB
namespace = {"big": big, "other": other}

def cpu():
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime

rows = []
for _ in range(int(sys.argv[2])):
    began = time.perf_counter()
    standby = _beside.prepare_standby(namespace, copy_ahead=by_child)
    fork = time.perf_counter() - began
    while not standby.armed():
        time.sleep(0.002)
    ready = time.perf_counter() - began
    spent = cpu()
    standby.copy_ahead()
    done, kernel_cpu = time.perf_counter() - began, cpu() - spent
    began = time.perf_counter()
    big *= 1.000001
    rows.append([fork, ready, done, kernel_cpu, time.perf_counter() - began])
    standby.discard(wait=True)
print(json.dumps([statistics.median(column) for column in zip(*rows)]))
"""


def copies_ahead(rounds: int = 5) -> str:
    """The idle kernel's standby fork and its copies ahead, made by the child (the default)
    against made by the kernel itself (the peer: how it was done before), each in a fresh
    process holding 800 MB, `rounds` forks each (medians)."""
    import subprocess
    import sys

    figures = {}
    for way in ("child", "kernel"):
        done = subprocess.run([sys.executable, "-c", _COPIES_SCRIPT, way, str(rounds)],
                              capture_output=True, text=True, check=True, timeout=600)
        figures[way] = json.loads(done.stdout.strip().splitlines()[-1])
    names = ("fork (the kernel waits)", "child ready (jail built)",
             "copies done, from the fork", "the kernel's own CPU for the copies",
             "480 MB updated in place after them")
    rows = []
    for i, name in enumerate(names):
        child, kernel = figures["child"][i], figures["kernel"][i]
        scale, unit = (1000, "ms") if max(child, kernel) < 1 else (1, "s")
        rows.append(f"| {name} | {child * scale:.{0 if unit == 'ms' else 3}f} {unit} | "
                    f"{kernel * scale:.{0 if unit == 'ms' else 3}f} {unit} | "
                    f"{kernel / child if child else float('inf'):.2f}x |")
    return "\n".join(_section(
        f"Copies ahead, made by the standby child against made by the kernel: a process "
        f"holding 800 MB, {rounds} idle forks each (medians)",
        ["", "by the child", "by the kernel (peer)", "peer / child"], rows,
        "The child copies the pages it shares with the kernel while it waits for its cell, "
        "in its own address space; the kernel keeps its pages (huge pages stay whole) and "
        "then takes, idle, the faults its first writes would take (they copy nothing). The "
        "peer copies them in the kernel, from a thread: its pages come back as 4 KiB pages, "
        "so each later fork copies more page tables, and the copying is the kernel's CPU "
        "time. Either way the cell that follows takes a handful of faults.", ""))


# ---- 2. long crash/fix pairs --------------------------------------------------------------

_TORCH = """
import json, os, time, torch
torch.manual_seed(0)
X = torch.randn(20_000, 32); y = (X[:, 0] > 0).long()
loader = torch.utils.data.DataLoader(torch.utils.data.TensorDataset(X, y), batch_size=64,
                                     shuffle=True)
model = torch.nn.Sequential(torch.nn.Linear(32, 128), torch.nn.ReLU(), torch.nn.Linear(128, 2))
opt = torch.optim.Adam(model.parameters())
def one_epoch():
    for xb, yb in loader:
        loss = torch.nn.functional.cross_entropy(model(xb), yb)
        opt.zero_grad(); loss.backward(); opt.step()
    return loss
t0 = time.perf_counter(); one_epoch(); EPOCHS = max(2, round(LONG / (time.perf_counter() - t0)))
"""
_TORCH_CELL = """{prep}for epoch in range(EPOCHS):
    for xb, yb in loader:
        loss = torch.nn.functional.cross_entropy(model(xb), yb)
        opt.zero_grad(); loss.backward(); opt.step()
with open('reports/metrics.json', 'w') as fh:
    json.dump({{'loss': float(loss)}}, fh)
"""
_KERAS = """
import time, numpy as np, tensorflow as tf
rng = np.random.default_rng(0)
X = rng.random((4000, 16), dtype=np.float32); y = (X[:, 0] > 0.5).astype('float32')
model = tf.keras.Sequential([tf.keras.Input((16,)), tf.keras.layers.Dense(32, activation='relu'),
                             tf.keras.layers.Dense(1, activation='sigmoid')])
model.compile('adam', 'binary_crossentropy', metrics=['accuracy'])
model.fit(X, y, epochs=1, batch_size=32, verbose=0)  # the first call traces the graph
t0 = time.perf_counter(); model.fit(X, y, epochs=2, batch_size=32, verbose=0)
EPOCHS = max(2, round(LONG / ((time.perf_counter() - t0) / 2)))
"""
_KERAS_CELL = """history = model.fit(X, y, epochs=EPOCHS, batch_size=32, verbose=0{extra})
best = max(history.history['val_accuracy'])
"""
_FILES = """
import glob, os, time, numpy as np, pandas as pd
os.makedirs('parts', exist_ok=True)
rng = np.random.default_rng(0)
for i in range(200):
    pd.DataFrame({'k': rng.integers(0, 50, 3000), 'x': rng.random(3000)}).to_csv(
        f'parts/part{i:03d}.csv', index=False)
def process(path):
    part = pd.read_csv(path)
    part['z'] = (part['x'] - part['x'].mean()) / part['x'].std()
    return part.groupby('k')['z'].agg(['mean', 'max'])
t0 = time.perf_counter(); [process(p) for p in sorted(glob.glob('parts/*.csv'))[:20]]
REPEAT = max(1, round(LONG / ((time.perf_counter() - t0) / 20 * 200)))
"""
_FILES_CELL = """{prep}frames = []
for path in sorted(glob.glob('parts/*.csv')) * REPEAT:
    frames.append(process(path))
summary = pd.concat(frames, axis=1)
summary.to_csv('out/summary.csv')
"""
_ROWS = """
import time, numpy as np, pandas as pd
from sklearn.linear_model import LogisticRegression
rng = np.random.default_rng(0)
def table(n):
    return pd.DataFrame({'age': rng.integers(18, 90, n).astype(float),
                         'income': rng.normal(5e4, 1e4, n),
                         'city': rng.choice(['north', 'south', 'east'], n),
                         'label': rng.integers(0, 2, n)})
t0 = time.perf_counter()
for row in table(20_000).itertuples():
    pass
df = table(int(20_000 * LONG / max(time.perf_counter() - t0, 1e-3) / 1.6))
"""
_ROWS_CELL = """bad = []
for row in df.itertuples():
    if row.income < 0 or row.age > 120:
        bad.append(row.Index)
df = df.drop(index=bad)
model = LogisticRegression().fit(df[{features}], df['label'])
"""

_BOOST = """
import time, numpy as np, pandas as pd, xgboost as xgb
rng = np.random.default_rng(0)
train = pd.DataFrame(rng.random((20_000, 20)), columns=[f'f{i}' for i in range(20)])
y = (train['f0'] + 0.1 * rng.random(20_000) > 0.55).astype(int)
test = pd.DataFrame(rng.random((2_000, 20)), columns=train.columns).drop(columns=['f7'])
def _fit_s(n):
    t0 = time.perf_counter(); xgb.XGBClassifier(n_estimators=n, max_depth=8).fit(train, y)
    return time.perf_counter() - t0
_fit_s(5)  # the first fit pays for the thread pool and the data's conversion
short, longer = _fit_s(20), _fit_s(80)  # the rounds' own time, without the fixed part
ROUNDS = max(2, round(20 + (LONG - short) / max((longer - short) / 60, 1e-4)))
"""
_BOOST_CELL = """model = xgb.XGBClassifier(n_estimators=ROUNDS, max_depth=8).fit(train, y)
pred = model.predict({test})
"""

_APPLY = """
import time, numpy as np, pandas as pd
from sklearn.linear_model import LogisticRegression
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
rng = np.random.default_rng(0)
WORDS = np.array(['good', 'bad', 'fine', 'poor', 'great', 'awful', 'okay', 'superb'])
POSITIVE = {'good', 'fine', 'great', 'superb'}
def score(text):
    words = text.split()
    return sum((len(w) if w in POSITIVE else -len(w)) * k for k in range(1, 9) for w in words)
def reviews(n):
    picks = rng.integers(0, len(WORDS), (n, 12))
    return pd.DataFrame({'review': [' '.join(WORDS[p]) for p in picks],
                         'length': rng.integers(20, 400, n), 'label': rng.integers(0, 2, n)})
t0 = time.perf_counter(); reviews(20_000).review.apply(score)
df = reviews(int(20_000 * LONG / max(time.perf_counter() - t0, 1e-3)))
"""
_APPLY_CELL = """df['score'] = df['review'].apply(score)
pipe = make_pipeline(StandardScaler(), LogisticRegression()).fit(df[['score', 'length']], df['label'])
weights = pd.Series(pipe{step}.coef_[0], index=['score', 'length'])
"""

#: (name, set-up, crashing cell, fixed cell)
LONG_PAIRS = [
    ("torch training loop, then metrics into a missing folder", _TORCH,
     _TORCH_CELL.format(prep=""), _TORCH_CELL.format(prep="os.makedirs('reports', exist_ok=True)\n")),
    ("Keras fit over many epochs, then a missing history key", _KERAS,
     _KERAS_CELL.format(extra=""), _KERAS_CELL.format(extra=", validation_split=0.2")),
    ("loop over 200 files, then a summary into a missing folder", _FILES,
     _FILES_CELL.format(prep=""), _FILES_CELL.format(prep="os.makedirs('out', exist_ok=True)\n")),
    ("long pandas row loop, then a fit on a text column", _ROWS,
     _ROWS_CELL.format(features="['age', 'city']"), _ROWS_CELL.format(features="['age', 'income']")),
    ("XGBoost fit of many rounds, then a prediction on a frame without a column", _BOOST,
     _BOOST_CELL.format(test="test"),
     _BOOST_CELL.format(test="test.reindex(columns=train.columns, fill_value=0.0)")),
    ("apply over a big text column, then a pipeline's coefficients", _APPLY,
     _APPLY_CELL.format(step=""), _APPLY_CELL.format(step="[-1]")),
]

_VERDICT = """
import time as _t
from crashpredict import predict as _predict
_s = _t.perf_counter()
_v = _predict({cell!r}, globals(), engines=("rules", "dryrun"))
_verdict = {{"crash": _v.crash, "exception": _v.exception, "seconds": _t.perf_counter() - _s,
            "summary": _v.summary[:200]}}
"""


def _variant(setup: str, cell: str) -> dict:
    with tempfile.TemporaryDirectory() as work:
        kernel = _Kernel(Path(work))
        try:
            kernel.run(f"LONG = {LONG_S!r}\n" + setup)
            kernel.run(_VERDICT.format(cell=cell))
            verdict = kernel.value("_verdict")
            kernel.run("%load_ext crashpredict")
            time.sleep(THINK_S)  # a user's pause: the standby child gets ready
            real = kernel.run(cell)
            status = kernel.run("%crashpredict status")["stdout"]
        finally:
            kernel.close()
    said = status.partition("last dry run: ")[2].strip()
    return {**verdict, "truth": real["error"] is not None, "real_s": real["wall"],
            "warned_s": real["warned"], "ename": real["error"], "status": said}


def long_pairs(names: tuple[str, ...] = ()) -> str:
    """The long pairs (those whose name starts with one of ``names``, when given)."""
    rows, results = [], []
    for name, setup, crash, fixed in LONG_PAIRS:
        if names and not name.startswith(names):
            continue
        for variant, cell in (("crash", crash), ("fix", fixed)):
            r = _variant(setup, cell)
            r.update(name=name, variant=variant)
            results.append(r)
            said = {True: "crash", False: "no crash", None: "inconclusive"}[r["crash"]]
            warn = f"{r['warned_s']:.1f} s" if r["warned_s"] is not None else "none"
            if r["warned_s"] is None and r["truth"] and r["status"]:
                warn += f" (its dry run: {r['status'][:120]})"
            rows.append(f"| {name} | {variant} | {r['real_s']:.0f} s"
                        f"{' (' + r['ename'] + ')' if r['ename'] else ''} | {said} | "
                        f"{r['seconds']:.1f} s | {r['real_s'] / max(r['seconds'], 1e-3):.0f}x | "
                        f"{warn} |")
    decided = [r for r in results if r["crash"] is not None]
    right = sum(r["crash"] == r["truth"] for r in decided)
    said_crash = [r for r in decided if r["crash"]]
    precision = sum(r["truth"] for r in said_crash) / len(said_crash) if said_crash else 1.0
    speed = [r["real_s"] / max(r["seconds"], 1e-3) for r in results]
    ahead = [r["real_s"] / r["warned_s"] for r in results if r["truth"] and r["warned_s"]]
    warned = sum(1 for r in results if r["truth"] and r["warned_s"])
    crashes = sum(r["truth"] for r in results)
    false_warnings = sum(1 for r in results if not r["truth"] and r["warned_s"])
    return "\n".join(_section(
        f"Long crash/fix pairs (the long part sized to {LONG_S:g} s for real)",
        ["pair", "variant", "real run", "default engine said", "time to verdict", "faster",
         "extension's warning after"], rows,
        f"Default engine (rules + dry run): {len(results) - len(decided)} of {len(results)} "
        f"inconclusive ({(len(results) - len(decided)) / len(results):.0%}; goal <= 2%), "
        f"accuracy {right / len(results):.3f} (inconclusive counts as wrong), precision "
        f"{precision:.3f}; time to a verdict against the real run: median "
        f"{statistics.median(speed):.0f}x faster (goal >= 20x).",
        f"Extension beside the cell: warned on {warned} of {crashes} crashes, "
        f"{statistics.median(ahead) if ahead else 0:.0f}x sooner than the crash (median; goal "
        f">= 20x); false warnings on fixed cells: {false_warnings}."))


# ---- 3. the JunoBench sample, in the notebook ---------------------------------------------

#: the shared JunoBench sample (10 cases) when it is beside the repository, else the copy
#: the repository ships (9: torch_9 needs torchvision)
SAMPLE = next((p for p in (Path(__file__).resolve().parents[1] / ".." / "shared" / "junobench-sample",
                           Path(__file__).resolve().parents[1] / "tests" / "junobench-sample") if p.is_dir()),
              Path(__file__).resolve().parents[1] / "tests" / "junobench-sample").resolve()


def _replay_cells(notebook: Path, target_id: str) -> tuple[list[str], str | None]:
    """The code cells that ran, in execution-count order, and the target's source."""
    import nbformat

    nb = nbformat.read(notebook, as_version=4)
    cells = [c for c in nb.cells if c.cell_type == "code"]
    target = next((c.source for c in cells if c.get("id") == target_id), None)
    ran = sorted((c for c in cells if c.get("execution_count") and c.get("id") != target_id),
                 key=lambda c: c.execution_count)
    return [c.source for c in ran], target


def _in_time(real: dict, crashed: bool) -> tuple[bool, bool, bool]:
    """(warned, warned before the error, said right): a crash counts as predicted when the
    warning came before the error; any warning on a cell that ran clean is a false one."""
    warned = real["warned"] is not None
    before = warned and (real["error_at"] is None or real["warned"] < real["error_at"])
    return warned, before, before if crashed else warned


def _warnings_scored(outcomes: list[tuple[bool, bool]], fine: str) -> str:
    """The summary line of (crashed, said) outcomes; ``fine`` names the cells that ran clean."""
    right = sum(c == s for c, s in outcomes)
    said = [c for c, s in outcomes if s]
    crashes = sum(c for c, _ in outcomes)
    return (f"Warned before the error on {sum(c and s for c, s in outcomes)} of {crashes} "
            f"crashes; false warnings on {sum(s and not c for c, s in outcomes)} of "
            f"{len(outcomes) - crashes} {fine}; accuracy {right / max(len(outcomes), 1):.3f}, "
            f"precision {sum(said) / len(said) if said else 1.0:.3f}.")


def junobench_sample() -> str:
    """Each sample case's two versions run as a user would: a real kernel, the extension
    loaded (default settings), the cells that ran in execution-count order, a pause, then
    the target. A crash counts as predicted when the warning came before the error."""
    import shutil

    if not SAMPLE.is_dir():
        return "### The JunoBench sample in the notebook\n\n(no JunoBench sample here)"
    rows, outcomes = [], []
    for case in sorted(p for p in SAMPLE.iterdir() if (p / "case.json").is_file()):
        target_id = json.loads((case / "case.json").read_text())["target_cell_id"]
        for variant in ("reproduced", "fixed"):
            notebook = case / f"{case.name}_{variant}.ipynb"
            if not notebook.is_file():
                continue
            cells, target = _replay_cells(notebook, target_id)
            if target is None:
                continue
            with tempfile.TemporaryDirectory() as work:
                folder = Path(work) / case.name
                shutil.copytree(case, folder)
                kernel = _Kernel(folder)
                try:
                    kernel.run("%load_ext crashpredict")
                    for cell in cells:
                        kernel.run(cell, timeout=300)
                    time.sleep(THINK_S)
                    real = kernel.run(target, timeout=300)
                finally:
                    kernel.close()
            crashed = real["error"] is not None and real["error"] != "CellRefused"
            warned, before, said = _in_time(real, crashed)
            outcomes.append((crashed, said))
            rows.append(f"| {case.name} | {variant} | {real['error'] or 'no error'} | "
                        f"{'warned ' + format(real['warned'] * 1000, '.0f') + ' ms after the start' if warned else 'no warning'}"
                        f"{' (before the error)' if crashed and before else ''} | "
                        f"{real['wall'] * 1000:.0f} ms |")
    return "\n".join(_section(
        "The JunoBench sample in the notebook (default settings, a user's pause before the "
        "target)", ["case", "version", "the target raised", "the extension",
                    "target's wall time"], rows,
        _warnings_scored(outcomes, "fixed targets") + " These are the examples the rules were "
        "written beside, not unseen cases: a check of the notebook path, not an accuracy "
        "claim."))


# ---- 4. crash/fix pairs in the notebook: the own ones back to back, the new ones both ways ---

def _pair_in_a_kernel(setup: str, cell: str, think_s: float) -> tuple[dict, str]:
    """A fresh kernel with the extension (default settings), ``setup``, a pause of
    ``think_s``, then ``cell``: what the client saw, and what `status` says of the dry run."""
    with tempfile.TemporaryDirectory() as work:
        kernel = _Kernel(Path(work))
        try:
            kernel.run("%load_ext crashpredict")
            kernel.run(setup, timeout=300)
            if think_s:
                time.sleep(think_s)
            real = kernel.run(cell, timeout=300)
            status = kernel.run("%crashpredict status")["stdout"]
        finally:
            kernel.close()
    return real, status.split("last dry run: ", 1)[-1].strip().split(": the cell writes")[0]


def _said(real: dict, crashed: bool) -> str:
    if real["warned"] is None:
        return "no warning"
    return (f"warned {real['warned'] * 1000:.0f} ms after the start"
            + (f", the error came at {real['error_at'] * 1000:.0f} ms" if crashed else ""))


def new_pairs(think_s: float = 1.0) -> str:
    """The second set of pairs (`notebook_pairs.PAIRS`, written after the notebook path was
    built), each variant in a fresh kernel twice: back to back, and after a pause of
    ``think_s`` before the cell (a standby child ready). Truth is what the cell did; a
    crash counts as predicted when the warning came before the error."""
    from .notebook_pairs import PAIRS

    return _pairs_in_the_notebook(
        PAIRS, "A second set of crash/fix pairs", think_s,
        "These pairs were written after the notebook path, to find where it misses "
        "(`benchmarks/notebook_pairs.py`); changes followed what they showed, so they are a "
        "check of that path, not unseen cases.")


def third_pairs(think_s: float = 1.0) -> str:
    """The third set (`notebook_pairs_third.PAIRS`, written by someone who had not read the
    tool's code), as `new_pairs` runs the second."""
    from .notebook_pairs_third import PAIRS

    return _pairs_in_the_notebook(
        PAIRS, "A third set of crash/fix pairs, written without reading the tool's code,",
        think_s, "These pairs (`benchmarks/notebook_pairs_third.py`) were written by a helper "
        "who read none of the tool's code, docs or tests; their first run, before any change "
        "followed them, is a measure on unseen cases.")


def unseen_pairs(ordinal: str, think_s: float = 1.0) -> str:
    """A set written by a helper who had read neither the tool's code nor the earlier sets
    (`notebook_pairs_<ordinal>.PAIRS`: ``fourth`` to ``twentyninth``), as `third_pairs`
    runs the third."""
    module = importlib.import_module(f"{__package__}.notebook_pairs_{ordinal}")
    article = "An" if ordinal[:1] in "aeiou" else "A"
    return _pairs_in_the_notebook(
        module.PAIRS, f"{article} {ordinal} set of crash/fix pairs, written without reading the tool's "
        "code,", think_s, f"These pairs (`benchmarks/notebook_pairs_{ordinal}.py`) were written "
        "by a helper who read none of the tool's code, docs or tests, nor the earlier pair "
        "sets; their first run, before any change followed them, is a measure on unseen cases.")


def _pairs_in_the_notebook(pairs: list[tuple[str, str, str, str]], title: str, think_s: float,
                           note: str) -> str:
    rows: list[str] = []
    modes: dict[str, list[tuple[bool, bool]]] = {"back to back": [], "after a pause": []}
    for name, setup, crash, fix in pairs:
        for variant, cell in (("crash", crash), ("fix", fix)):
            shown = []
            for mode, pause in (("back to back", 0.0), ("after a pause", think_s)):
                real, dry = _pair_in_a_kernel(setup, cell, pause)
                crashed = real["error"] is not None
                said = _in_time(real, crashed)[2]
                modes[mode].append((crashed, said))
                shown.append(_said(real, crashed) + ("" if said == crashed else f" ({dry[:90]})"))
            rows.append(f"| {name} | {variant} | {real['error'] or 'no error'} | "
                        f"{shown[0]} | {shown[1]} |")
    return "\n".join(_section(
        f"{title} in the notebook (default settings), back to back and after a {think_s:g} s "
        f"pause",
        ["pair", "variant", "the cell raised", "back to back", f"after a {think_s:g} s pause"],
        rows, *(line for mode, outcomes in modes.items() for line in (
            f"{mode.capitalize()}: " + _warnings_scored(outcomes, "fixed cells").lower(), "")),
        f"A miss or a false warning shows what `%crashpredict status` said of the dry run. {note}"))


# ---- the own crash/fix pairs, in the notebook, back to back ----------------------------------

def own_pairs_back_to_back() -> str:
    """The dry-run benchmark's own crash/fix pairs (`bench_dryrun.PAIRS`) in the notebook as
    Run All sends them: a real kernel, the extension loaded (default settings), then the
    set-up and the cell each sent as soon as the last one's reply came (no idle time, so
    no standby child is ever ready). Unlike the JunoBench sample, these include crashes
    the rules do not see. A crash counts as predicted when the warning came before the
    error; the truth is what the cell did."""
    from .bench_dryrun import PAIRS

    rows, outcomes = [], []
    for name, _kind, setup, crash, fix in PAIRS:
        for variant, cell in (("crash", crash), ("fix", fix)):
            real, dry = _pair_in_a_kernel(setup, cell, 0.0)
            crashed = real["error"] is not None
            warned, _, said_right = _in_time(real, crashed)
            outcomes.append((crashed, said_right))
            rows.append(f"| {name} | {variant} | {real['error'] or 'no error'} | "
                        f"{_said(real, crashed)} | {dry[:110]} |")
    return "\n".join(_section(
        "The own crash/fix pairs in the notebook, back to back (as Run All sends them; "
        "default settings)",
        ["pair", "variant", "the cell raised", "the extension", "its last dry run"], rows,
        _warnings_scored(outcomes, "fixed cells") + " Back to back no child is ready before "
        "a cell: one that loops or fits gets a child forked as it starts, one that does not "
        "gets one where a fork of the kernel takes at most 8 ms, and its warning can come "
        "only before an error that is slow to show."))


def main() -> str:
    section = "\n\n".join(["## longcells", fine_cells(), long_pairs(), junobench_sample(),
                            own_pairs_back_to_back(), new_pairs(),
                            third_pairs(), *(unseen_pairs(ordinal) for ordinal in
                                             ("fourth", "fifth", "sixth", "seventh",
                                              "eighth", "ninth", "tenth", "eleventh",
                                              "twelfth", "thirteenth", "fourteenth",
                                              "fifteenth", "sixteenth", "seventeenth",
                                              "eighteenth", "nineteenth", "twentieth",
                                              "twentyfirst", "twentysecond",
                                              "twentythird", "twentyfourth",
                                              "twentyfifth", "twentysixth", "twentyseventh",
                                              "twentyeighth", "twentyninth"))])
    print(section)
    return section


if __name__ == "__main__":
    main()
