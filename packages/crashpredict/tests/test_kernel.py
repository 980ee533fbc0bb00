"""KernelSession, the kernel-side entry and the extension, through one real kernel."""

from __future__ import annotations

import pytest

from crashpredict import KernelError, KernelSession, UnknownEngineError

pytestmark = pytest.mark.kernel


def test_run_reports_success_and_stdout(kernel: KernelSession) -> None:
    run = kernel.run("import pandas as pd\ndf = pd.DataFrame({'a': [1, 2]})\nprint('hi')")
    assert run.ok and run.stdout == "hi\n"


def test_run_reports_the_error(kernel: KernelSession) -> None:
    run = kernel.run("{}['nope']")
    assert (run.ok, run.ename, run.evalue) == (False, "KeyError", "'nope'")


def test_predict_uses_the_live_namespace_without_running_the_cell(
        kernel: KernelSession) -> None:
    kernel.run("import pandas as pd\ndf = pd.DataFrame({'a': [1, 2]})\nran = []")
    verdict = kernel.predict("ran.append(1)\ndf['b']")
    assert (verdict.crash, verdict.exception, verdict.line) == (True, "KeyError", 2)
    assert kernel.run("assert ran == [], ran").ok


def test_predict_leaves_no_names_and_no_history(kernel: KernelSession) -> None:
    kernel.run("before = set(dir())\nn_before = len(In)")
    kernel.predict("x = 1")
    kernel.predict("undefined_name_here")
    run = kernel.run("extra = {n for n in set(dir()) - before if not n.startswith('_')}"
                     " - {'before', 'n_before'}\n"
                     "assert extra == set(), extra\nassert len(In) == n_before + 1, "
                     "(len(In), n_before)")
    assert run.ok, run.evalue


def test_predict_never_breaks_the_kernel(kernel: KernelSession) -> None:
    kernel.run("class Weird:\n    def __getattribute__(self, name):\n"
               "        raise SystemError('boom')\nw = Weird()")
    verdict = kernel.predict("w.anything + w[1]")
    assert verdict.crash in (False, None)
    assert kernel.run("1 + 1").ok


def test_replay_stops_at_the_first_failure(kernel: KernelSession) -> None:
    result = kernel.replay(["a = 1", "b = a + missing", "c = 3"])
    assert (result.ok, result.ran, result.failed_index) == (False, 1, 1)
    assert result.reason == "NameError: name 'missing' is not defined"
    assert not kernel.run("c").ok


def test_unknown_engine_is_refused_before_the_kernel(kernel: KernelSession) -> None:
    with pytest.raises(UnknownEngineError):
        kernel.predict("x = 1", engines=("magic",))


def test_session_must_be_started() -> None:
    with pytest.raises(KernelError, match="not started"):
        KernelSession(".").run("1")


def test_extension_warns_and_strict_refuses_in_a_kernel(kernel: KernelSession) -> None:
    assert kernel.run("%load_ext crashpredict").ok
    kernel.run("import pandas as pd\nframe = pd.DataFrame({'a': [1]})\ntouched = []")
    warned = kernel.run("frame['zz']")
    assert warned.ename == "KeyError"  # warn mode lets the cell run
    assert kernel.run("%crashpredict strict").ok
    refused = kernel.run("touched.append(1)\nframe['zz']")
    assert refused.ename == "CellRefused"
    assert "KeyError predicted at line 2" in refused.evalue
    assert kernel.run("assert touched == []").ok  # the refused cell did not run
    assert kernel.run("fine = frame['a'].sum()").ok
    assert kernel.run("%crashpredict off").ok
    assert kernel.run("frame['zz']").ename == "KeyError"
    # unloaded, it ends its children now: a dry run still held as a witness would be
    # killed up to `HOLD_MOST_S` later, inside another test's watched cell (the kernel is
    # shared by the module)
    assert kernel.run("%unload_ext crashpredict").ok


def test_the_kernel_is_jailed_by_default(kernel: KernelSession, tmp_path) -> None:
    outside = tmp_path / "written-by-the-kernel.txt"
    assert kernel.jailed
    run = kernel.run(
        "import os, socket, subprocess\n"
        "assert (os.getpid(), os.getppid()) == (2, 1)  # its own PID namespace\n"
        f"open({str(outside)!r}, 'w').write('x')\n"
        f"subprocess.run(['touch', {str(outside)!r} + '.2'], check=True)\n"
        f"assert os.path.exists({str(outside)!r} + '.2')  # the kernel sees its writes\n"
        "try:\n    socket.create_connection(('127.0.0.1', 9), timeout=2)\n"
        "except OSError as exc:\n    print(type(exc).__name__)\n")
    assert run.ok, run.evalue
    assert run.stdout.strip() in ("OSError", "ConnectionRefusedError")  # no network
    assert not outside.exists() and not (tmp_path / "written-by-the-kernel.txt.2").exists()


def test_run_watched_names_what_the_jail_changes(kernel: KernelSession) -> None:
    run, tried = kernel.run_watched(
        "import socket\ntry:\n    socket.getaddrinfo('example.com', 443)\nexcept OSError:\n"
        "    pass")
    assert run.ok and tried == "the network (a name look-up of 'example.com')"
    run, tried = kernel.run_watched("import os\nos.kill(os.getppid(), 0)")
    assert run.ok and tried == "a signal to a process outside the kernel (os.kill(1, 0))"
    run, tried = kernel.run_watched("x = 1")
    assert run.ok and tried is None


def test_run_watched_needs_a_jailed_kernel() -> None:
    with pytest.raises(KernelError, match="needs a jailed kernel"):
        KernelSession(".", jail=False).run_watched("1")


def test_pid_1_of_the_jail_reaps_orphans(kernel: KernelSession) -> None:
    run = kernel.run(
        "import glob, subprocess, time\n"
        "subprocess.run(['sh', '-c', 'sleep 0.2 & exit 0'], check=True)  # orphans a sleep\n"
        "time.sleep(1.5)\n"
        "states = [open(p).read().rsplit(')', 1)[1].split()[0]\n"
        "          for p in glob.glob('/proc/[0-9]*/stat')]\n"
        "assert 'Z' not in states, states")
    assert run.ok, run.evalue


def test_in_the_notebook_torch_layers_run_on_meta_once_the_notebook_imported_their_needs(
        tmp_path) -> None:
    """The rules run the user's model on torch's meta device, whose first layer imports
    ``torch._dynamo`` (seconds). The extension never imports it itself, neither as a cell
    waits nor from a thread (a dry run's fork would copy that import's locks held: its
    child, importing the same, waited forever). Once the notebook's own code has imported
    it (constructing an optimizer does), strict mode refuses a ``numpy()`` of predictions
    that require grad (the rules alone) and runs the same under ``torch.no_grad()``."""
    import time

    with KernelSession(tmp_path, timeout=300) as session:
        assert session.run("%load_ext crashpredict\n%crashpredict dryrun off").ok
        assert session.run("%crashpredict strict").ok
        assert session.run("import torch\ntorch.manual_seed(0)\nmodel = torch.nn.Linear(4, 2)\n"
                           "X = torch.randn(3, 4)\ntouched = []").ok
        time.sleep(1.0)  # idle time: nothing of the extension's imports it meanwhile
        imported = "import sys\nprint('torch._dynamo' in sys.modules)"
        assert session.run(imported).stdout.strip() == "False"
        assert session.run("touched.append(1)\npreds = model(X).numpy()").ename == "RuntimeError"
        assert session.run(imported).stdout.strip() == "False"  # not as a cell waits either
        assert session.run("opt = torch.optim.SGD(model.parameters(), lr=0.1)").ok
        refused = session.run("touched.append(2)\npreds = model(X).numpy()")
        assert refused.ename == "CellRefused", refused
        assert "RuntimeError predicted at line 2" in refused.evalue
        assert "requires grad" in refused.evalue
        assert session.run("assert touched == [1]").ok
        assert session.run("with torch.no_grad():\n    preds = model(X).numpy()").ok
