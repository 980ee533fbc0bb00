"""The dryrun engine inside real Jupyter kernels: the kernel's state survives, crashes match.

Each test starts a kernel (jupyter_client), defines objects in it, calls ``dry_run`` there
and reads the JSON result back from the kernel's stdout.
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import nbformat
import pytest

pytestmark = pytest.mark.kernel

REPO = Path(__file__).resolve().parents[3]
SAMPLE = REPO / "tests" / "junobench-sample"  # shipped in the repo
MARK = "@@dryrun@@"


class Kernel:
    """A real IPython kernel with its working directory, and a way to run code in it."""

    def __init__(self, cwd: Path) -> None:
        from jupyter_client.manager import KernelManager

        self.manager = KernelManager(kernel_name="python3")
        self.manager.start_kernel(cwd=str(cwd))
        self.client = self.manager.client()
        self.client.start_channels()
        self.client.wait_for_ready(timeout=90)

    def run(self, code: str, timeout: float = 180) -> tuple[str, list[tuple[str, str]]]:
        """Run ``code``; return its stdout and the errors it raised (ename, evalue)."""
        out: list[str] = []
        errors: list[tuple[str, str]] = []

        def hook(msg: dict) -> None:
            kind, content = msg["msg_type"], msg["content"]
            if kind == "stream":
                out.append(content["text"])
            elif kind == "error":
                errors.append((content["ename"], content["evalue"]))

        self.client.execute_interactive(code, timeout=timeout, output_hook=hook,
                                        allow_stdin=False)
        return "".join(out), errors

    def value(self, expression: str) -> object:
        """Evaluate ``expression`` in the kernel and return its JSON value."""
        out, errors = self.run(f"import json as _j\nprint({MARK!r} + _j.dumps({expression}))")
        assert not errors, errors
        line = next(x for x in out.splitlines() if x.startswith(MARK))
        return json.loads(line[len(MARK):])

    def dry_run(self, source: str, **kwargs: object) -> dict:
        """Call dry_run on ``source`` with the kernel's globals; return DryRun.to_dict()."""
        args = "".join(f", {k}={v!r}" for k, v in kwargs.items())
        self.run("from crashpredict._dryrun import dry_run as _dry_run")
        return self.value(f"_dry_run({source!r}, globals(){args}).to_dict()")

    def close(self) -> None:
        self.client.stop_channels()
        self.manager.shutdown_kernel(now=True)


@pytest.fixture
def kernel(tmp_path):
    k = Kernel(tmp_path)
    yield k
    k.close()


STATE_SETUP = """
import os, random, glob
import numpy as np, pandas as pd, torch
from sklearn.linear_model import LogisticRegression
import rtextract
random.seed(1); np.random.seed(1); torch.manual_seed(1)
df = pd.DataFrame({"a": np.arange(20.0), "b": list("xy") * 10, "y": [0, 1] * 10})
arr = np.arange(12).reshape(3, 4)
t = torch.ones(4, 2)
model = LogisticRegression().fit(df[["a"]], df["y"])
history = [1, 2, 3]
with open("data.csv", "w") as fh:
    fh.write("a,b\\n1,2\\n")
os.mkdir("models")
"""
MUTATING_CELL = """
df.drop(columns='b', inplace=True)
df['c'] = 1
arr[:] = -1
t.mul_(0)
model.fit(df[['a', 'c']], df['y'])
history.clear()
random.random(); np.random.rand(3); torch.rand(2)
new_object = object()
raise KeyError('late')
"""
SNAPSHOT = """{
 "facts": [rtextract.describe(globals()[name], budget_ms=60_000).to_dict()
           for name in ("df", "arr", "t", "model", "history")],
 "contents": [df.to_json(), arr.tolist(), t.tolist(), model.coef_.tolist(), history],
 "names": sorted(k for k in globals() if not k.startswith("_")),
 "rng": [repr(random.getstate()), repr(np.random.get_state()), torch.get_rng_state().tolist()],
 "files": sorted((p, os.path.getsize(p), os.stat(p).st_mtime_ns) for p in glob.glob("**", recursive=True)),
 "children": sorted(int(c) for f in glob.glob(f"/proc/{os.getpid()}/task/*/children") for c in open(f).read().split()),
}"""


def test_kernel_state_files_rng_and_processes_survive_dry_runs(kernel):
    _, errors = kernel.run(STATE_SETUP)
    assert not errors, errors
    before = kernel.value(SNAPSHOT)
    crashed = kernel.dry_run(MUTATING_CELL)
    assert (crashed["outcome"], crashed["exception"], crashed["line"]) == ("crashed", "KeyError", 10)
    writes = ("df.to_csv('data.csv')\nassert len(pd.read_csv('data.csv')) == 20\n"
              "os.remove('data.csv')\nos.rmdir('models')\nassert glob.glob('*') == []")
    overlaid = kernel.dry_run(writes)
    assert overlaid["outcome"] == "completed", overlaid
    cwd = kernel.value("os.getcwd()")
    assert overlaid["writes"] == [f"removed {cwd}/data.csv", f"removed folder {cwd}/models"]
    # IPython's own open() in the namespace writes the overlay too
    opened = kernel.dry_run("with open('notes.txt', 'w') as fh:\n    fh.write('x')\n"
                            "assert open('notes.txt').read() == 'x'\nopen('no/such/dir.txt', 'w')")
    assert (opened["outcome"], opened["exception"]) == ("crashed", "FileNotFoundError"), opened
    saved = kernel.dry_run("torch.save(t, 'models/t.pt')\nassert torch.load('models/t.pt').sum() == 8")
    assert saved["outcome"] == "completed", saved
    assert saved["writes"][0].startswith("wrote ") and saved["writes"][0].endswith("models/t.pt")
    blocked = kernel.dry_run("import subprocess\nsubprocess.run(['rm', 'data.csv'])")
    assert blocked["blocked"] == "subprocess 'rm data.csv'"
    escapes = [
        "import signal\nsignal.pidfd_send_signal(os.pidfd_open(os.getppid()), signal.SIGKILL)",
        "import ctypes\nctypes.CDLL(None).kill(os.getppid(), 9)",
        "import ctypes\nctypes.CDLL(None).syscall(424, os.pidfd_open(os.getppid()), 9, None, 0)",
        "import ctypes\nlibc = ctypes.CDLL(None)\nif libc.fork() == 0:\n    libc._exit(0)",
        # every descriptor the kernel holds: its ZeroMQ sockets, eventfds (writing them
        # kills a kernel that shares them), pipes, locks
        "for fd in range(1024):\n    try:\n        os.write(fd, (1).to_bytes(8, 'little'))\n"
        "    except OSError:\n        pass",
        "import fcntl\nfor fd in range(1024):\n    try:\n        fcntl.flock(fd, fcntl.LOCK_UN)\n"
        "        os.lseek(fd, 0, os.SEEK_END)\n    except OSError:\n        pass",
        "os.setpriority(os.PRIO_PROCESS, os.getppid() or 1, 19)",
    ]
    for cell in escapes:
        kernel.dry_run(cell)  # the kernel must survive each, with nothing left behind
    looping = kernel.dry_run("while True:\n    history.append(1)", budget_s=0.5)
    assert looping["outcome"] == "inconclusive" and "budget" in looping["reason"]
    after = kernel.value(SNAPSHOT)
    assert after == before
    assert after["children"] == []


def test_kernel_torch_and_keras_training_cells_answer(kernel):
    _, errors = kernel.run(
        "import numpy as np, torch, tensorflow as tf\n"
        "X = np.random.rand(128, 4).astype('float32'); y = (X.sum(1) > 2).astype('float32')\n"
        "km = tf.keras.Sequential([tf.keras.Input((4,)), tf.keras.layers.Dense(1)])\n"
        "km.compile('sgd', 'mse'); km.fit(X, y, epochs=1, verbose=0)\n"
        "tm = torch.nn.Linear(4, 1); opt = torch.optim.SGD(tm.parameters(), lr=0.1)\n"
        "dl = torch.utils.data.DataLoader(torch.utils.data.TensorDataset(torch.tensor(X), "
        "torch.tensor(y)), batch_size=16)\n"
        "for xb, yb in dl:\n"
        "    l = ((tm(xb)[:, 0] - yb) ** 2).mean(); opt.zero_grad(); l.backward(); opt.step()",
        timeout=300)
    assert not errors, errors
    keras_fit = kernel.dry_run("km.fit(X, y, epochs=2, verbose=0)", budget_s=20)
    assert keras_fit["outcome"] == "completed", keras_fit
    keras_bad = kernel.dry_run("km.predict(X[:, :3], verbose=0)", budget_s=20)
    assert (keras_bad["outcome"], keras_bad["exception"]) == ("crashed", "ValueError")
    torch_step = ("for xb, yb in dl:\n    l = ((tm(xb){shape} - yb) ** 2).mean()\n"
                  "    opt.zero_grad(); l.backward(); opt.step()")
    torch_fit = kernel.dry_run(torch_step.format(shape="[:, 0]"), budget_s=20)
    assert torch_fit["outcome"] == "completed", torch_fit
    torch_bad = kernel.dry_run(torch_step.format(shape="[:, 1]"), budget_s=20)
    assert (torch_bad["outcome"], torch_bad["exception"]) == ("crashed", "IndexError")


def test_kernel_cell_over_budget_is_answered_fast_forwarded_or_on_shrunk_data(kernel):
    _, errors = kernel.run("import numpy as np, pandas as pd, time\n"
                           "df = pd.DataFrame({'a': np.arange(50_000.0)})\n"
                           "def scale(frame):\n    for v in frame['a']:\n        time.sleep(0.001)\n"
                           "    return frame")
    assert not errors
    looped = kernel.dry_run("for v in df['a']:\n    time.sleep(0.001)\ndf['b']", budget_s=2)
    assert (looped["outcome"], looped["exception"], looped["fast_forwarded"]) == (
        "crashed", "KeyError", True), looped
    (cut,) = looped["cuts"]  # every iteration for a sixth of the budget, then cut (and
    # the column's last value run: a loop over a column has a last item)
    ran = re.fullmatch(r"for v in df\['a'\] \(line 1 of the cell\): ran ([\d,]+) of 50,000 "
                       r"iterations and the last", cut)
    assert ran and 3 <= int(ran[1].replace(",", "")) < 50_000, cut
    # a function defined in an earlier cell: its source comes from IPython's cell cache
    called = kernel.dry_run("scaled = scale(df)\ndf['b']", budget_s=2)
    assert (called["exception"], called["fast_forwarded"]) == ("KeyError", True), called
    assert "of function scale" in called["cuts"][0]
    # 50,000 rows sleep 10 s or more; the 500 of the shrunk retry about 0.1 s of the 2 s
    slow = "_ = df['a'].apply(lambda v: time.sleep(0.0002))\ndf['b']"
    result = kernel.dry_run(slow, budget_s=2)
    assert (result["outcome"], result["exception"], result["shrunk_names"]) == (
        "crashed", "KeyError", ["df"]), result
    assert kernel.value("len(df)") == 50_000


def test_kernel_objects_are_never_freed_in_the_dry_run(kernel):
    """A cell that rebinds the name of a table the kernel holds, and the shrunk retry that
    replaces it by its first rows, free nothing of the kernel's in the child (each free
    writes into pages shared with the kernel: seconds on a large text column)."""
    _, errors = kernel.run(
        "import numpy as np, pandas as pd, time\nFREED = []\n"
        "class Row:\n    def __init__(self, i):\n        self.i = i\n"
        "    def __del__(self):\n        FREED.append(self.i)\n"
        "df = pd.DataFrame({'row': [Row(i) for i in range(3_000)], 'v': np.arange(3_000.0)})")
    assert not errors, errors
    rebound = kernel.dry_run("df = df.drop(index=[0, 1])\ndel df\nassert FREED == [], len(FREED)")
    assert rebound["outcome"] == "completed", rebound
    # over budget on full data, then on its first rows: the full table stays alive there too
    slow = "for r in df.itertuples():\n    time.sleep(0.01)\ndf = df.iloc[:1]\nassert FREED == []\ndf['w']"
    shrunk = kernel.dry_run(slow, budget_s=1)
    assert (shrunk["outcome"], shrunk["exception"]) == ("crashed", "KeyError"), shrunk
    assert kernel.value("[len(FREED), len(df)]") == [0, 3_000]


def test_kernel_output_magics_and_shell_commands(kernel):
    # matplotlib is first imported inside the dry run, with a config folder that does not
    # exist yet: its config folder and font cache are written to the overlay.
    out, errors = kernel.run("x = 41\nimport os, tempfile\n"
                             "os.environ['MPLCONFIGDIR'] = os.path.join(os.getcwd(), 'mplconfig')")
    assert not errors
    out, errors = kernel.run(
        "from crashpredict._dryrun import dry_run\n"
        "r1 = dry_run(\"print('LEAK')\\ndisplay('LEAK')\\n%time y = x + 1\\nx\", globals())\n"
        "r2 = dry_run('!touch made_by_shell', globals())\n"
        "r3 = dry_run('%matplotlib inline\\nimport matplotlib.pyplot as plt\\n"
        "plt.plot([1, 2])\\nplt.show()\\nplt.nope()', globals(), budget_s=60)\n"
        "print(r1.outcome, r2.blocked is not None, r3.exception, r3.line)")
    assert not errors, errors
    assert out == "completed True AttributeError 5\n"  # nothing the children printed leaked
    assert kernel.value("[x, 'y' in globals()]") == [41, False]
    assert kernel.value("__import__('os').path.exists('made_by_shell')") is False
    assert kernel.value("[os.path.exists('mplconfig'), 'matplotlib' in __import__('sys').modules]") \
        == [False, False]


def test_kernel_with_gui_event_loop_integration_is_refused(kernel):
    # %gui asyncio is the loop integration that needs no display; %gui qt/tk take the same path.
    _, errors = kernel.run("%gui asyncio")
    assert not errors
    refused = kernel.dry_run("x = 1")
    assert refused["outcome"] == "inconclusive" and refused["startup_s"] is None
    assert refused["reason"] == (
        "the kernel runs a %gui event loop (loop_asyncio): forking it is unsafe")
    kernel.run("%gui")  # integration off: dry runs are allowed again
    assert kernel.dry_run("x = 1")["outcome"] == "completed"


# ---- JunoBench crashes: the dry run sees the labelled exception ----------------------------

def _replay_cells(notebook: Path, target_id: str) -> tuple[list[str], str]:
    nb = nbformat.read(notebook, as_version=4)
    code = [c for c in nb.cells if c.cell_type == "code"]
    target = next(c for c in code if c.get("id") == target_id)
    ran = sorted((c for c in code if c.get("execution_count") and c is not target),
                 key=lambda c: c.execution_count)
    return [c.source for c in ran], target.source


def _case(tmp_path: Path, name: str) -> tuple[Path, dict]:
    folder = SAMPLE / name
    if not folder.is_dir():
        pytest.skip(f"JunoBench sample case {name} is not at {SAMPLE}")
    copy = tmp_path / name
    shutil.copytree(folder, copy)
    return copy, json.loads((copy / "case.json").read_text())


CASES = [
    pytest.param("NBspecific_5", id="NBspecific_5-KeyError"),
    pytest.param("matplotlib_5", id="matplotlib_5-TypeError"),
    pytest.param("sklearn_3", id="sklearn_3-ValueError"),
    pytest.param("numpy_2", id="numpy_2-AttributeError"),
    pytest.param("torch_9", id="torch_9-RuntimeError"),  # needs torchvision
    pytest.param("tensorflow_3", id="tensorflow_3-AttributeError", marks=pytest.mark.slow),
]


@pytest.mark.parametrize("name", CASES)
def test_junobench_crash_is_seen_by_the_dry_run(tmp_path, name):
    if name == "torch_9":
        pytest.importorskip("torchvision")
    folder, case = _case(tmp_path, name)
    cells, target = _replay_cells(folder / f"{name}_reproduced.ipynb", case["target_cell_id"])
    k = Kernel(folder)
    try:
        for source in cells:
            _, errors = k.run(source)
            assert not errors, (source[:80], errors)
        files = sorted(p.relative_to(folder) for p in folder.rglob("*"))
        result = k.dry_run(target, budget_s=30)
        assert result["outcome"] == "crashed", result
        assert result["exception"].lower() == case["ename"]
        assert sorted(p.relative_to(folder) for p in folder.rglob("*")) == files
        if name == "tensorflow_3":  # Keras writes .h5 files from C: pointed at the overlay
            saved = k.dry_run("model.save('best.h5')", budget_s=30)
            assert saved["outcome"] == "completed", saved
            assert saved["writes"][0].endswith(f"bytes to {folder.resolve()}/best.h5")
            assert not (folder / "best.h5").exists()
            # A convolution on a full-size image: functions run eagerly in the child, and an
            # op that still waits on TensorFlow's dead intra-op pool is stopped early.
            conv = k.dry_run("import numpy as np\nmodel.predict(np.zeros((1, 150, 150, 3)))",
                             budget_s=20)
            assert conv["outcome"] == "completed" or (
                "did not survive the fork" in conv["reason"] and conv["elapsed_s"] < 20), conv
        assert k.value("sorted(int(c) for f in __import__('glob').glob("
                       "f'/proc/{__import__(\"os\").getpid()}/task/*/children') "
                       "for c in open(f).read().split())") == []
    finally:
        k.close()
