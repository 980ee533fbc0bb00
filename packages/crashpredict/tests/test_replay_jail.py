"""The jailed replay kernel (issue 22): what replayed cells and target cells do never
reaches the user's files or processes, a refused effect is never run for real, and the
kernel still interrupts, restarts and shuts down (real kernels, real namespaces)."""

from __future__ import annotations

import glob
import hashlib
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import nbformat
import pytest

from crashpredict import KernelError, KernelSession, check_notebook
from crashpredict._dryrun import _jailkernel
from crashpredict.cli import main

pytestmark = pytest.mark.kernel


def tree(root: Path) -> dict[str, str]:
    """Every entry under ``root``: links by target, files by mode and content."""
    out = {}
    for dirpath, dirnames, filenames in os.walk(root):
        for name in sorted(dirnames + filenames):
            path = Path(dirpath) / name
            rel = str(path.relative_to(root))
            if path.is_symlink():
                out[rel] = f"link {os.readlink(path)}"
            elif path.is_dir():
                out[rel] = f"dir {oct(path.lstat().st_mode)}"
            else:
                with open(path, "rb") as fh:
                    digest = hashlib.sha256(fh.read(1 << 20)).hexdigest()
                out[rel] = f"file {oct(path.lstat().st_mode)} {path.lstat().st_size} {digest}"
    return out


def project(root: Path) -> tuple[Path, Path]:
    """A notebook folder with a linked data folder (a sparse file over the copy budget),
    a dangling absolute link into ``outside``, and the ``outside`` folder itself."""
    folder, outside = root / "project", root / "outside"
    (folder / "data").mkdir(parents=True)
    outside.mkdir()
    with open(folder / "data" / "big.bin", "wb") as fh:
        fh.truncate(300 * 2**20)  # sparse, over private_copy's budget: data/ is linked
    for name in ("notes.txt", "notes2.txt", "notes3.txt", "log.txt"):
        (folder / "data" / name).write_text(f"the user's {name}\n")
    (folder / "results.txt").write_text("the user's results\n")
    (outside / "keep.txt").write_text("keep\n")
    (folder / "dangling").symlink_to(outside / "created-through-link.txt")
    return folder, outside


def notebook(folder: Path, cells: list[str], target: str) -> Path:
    nb = nbformat.v4.new_notebook(cells=[
        *(nbformat.v4.new_code_cell(c, execution_count=i) for i, c in enumerate(cells, 1)),
        nbformat.v4.new_code_cell(target)])
    path = folder / "nb.ipynb"
    nbformat.write(nb, path)
    return path


def descendants(pid: int) -> set[int]:
    """``pid``'s children, grandchildren... from /proc."""
    found, stack = set(), [pid]
    while stack:
        for path in glob.glob(f"/proc/{stack.pop()}/task/*/children"):
            try:
                with open(path) as fh:
                    pids = {int(p) for p in fh.read().split()}
            except OSError:
                continue
            stack += sorted(pids - found)
            found |= pids
    return found


def gone(pids: set[int], within: float = 10.0) -> bool:
    """Whether every process of ``pids`` ends (or is a zombie) within ``within`` seconds."""
    end = time.monotonic() + within
    while any(alive(p) for p in pids):
        if time.monotonic() > end:
            return False
        time.sleep(0.05)
    return True


def alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as fh:
            return fh.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


# ---- replayed cells ---------------------------------------------------------------------------

def test_replayed_cells_never_reach_the_users_files_or_processes(tmp_path: Path) -> None:
    folder, outside = project(tmp_path)
    cells = [
        "import os, subprocess",
        f"subprocess.run(['touch', {str(outside / 'by-subprocess')!r}], check=True)\n"
        "subprocess.run(['rm', 'data/notes.txt'], check=True)",  # through the linked folder
        f"assert os.system('touch {outside / 'by-system'}; rm data/big.bin') == 0",
        "!rm data/notes2.txt",
        "open('dangling', 'w').write('through a dangling absolute link')",
        "fd = os.open('data', os.O_RDONLY)\nos.unlink('notes3.txt', dir_fd=fd)",
        "fh = open('data/log.txt')\n"
        "open(f'/proc/self/fd/{fh.fileno()}', 'w').write('overwritten through /proc')",
        "os.kill(os.getppid(), 9)",  # the kernel's parent is pid 1 of its namespace now
        # the cells see their own effects: they ran, in the jail
        f"assert os.path.exists({str(outside / 'by-subprocess')!r})\n"
        "assert not os.path.exists('data/notes.txt') and not os.path.exists('data/big.bin')\n"
        "assert open('dangling').read().startswith('through')\n"
        "assert open('data/log.txt').read() == 'overwritten through /proc'",
    ]
    nb = notebook(folder, cells, "y = 1")
    before = tree(tmp_path)
    result = check_notebook(nb, engines=("rules",), timeout=60)
    assert result.verdict.crash is False
    assert tree(tmp_path) == before  # crashpredict is alive, and every file is as it was
    assert "WARNING" not in result.workdir


# ---- target cells -------------------------------------------------------------------------------

@pytest.mark.parametrize(("target", "named"), [
    ("subprocess.run(['touch', {out!r}])", "subprocess 'touch /"),
    ("open('dangling', 'w').write('x')", "open('dangling', 'w')"),
    ("fd = os.open('data', os.O_RDONLY)\nos.unlink('notes3.txt', dir_fd=fd)",
     "os.remove('notes3.txt')"),
    ("open(f'/proc/self/fd/{{fh.fileno()}}', 'w').write('overwritten')",
     "open('/proc/self/fd/"),
    ("os.system('touch {out}')", "os.system"),
    ("!rm data/notes.txt", "os.forkpty"),  # IPython runs it on a pseudo-terminal
], ids=["process", "dangling-link", "unlink-dir-fd", "proc-fd-reopen", "os.system", "shell-rm"])
def test_a_target_with_a_refused_effect_is_reported_and_never_run(tmp_path: Path, target: str,
                                                                  named: str) -> None:
    folder, outside = project(tmp_path)
    out = str(outside / "by-target")
    nb = notebook(folder, ["import os, subprocess", "fh = open('data/log.txt')"],
                  target.format(out=out))
    before = tree(tmp_path)
    verdict = check_notebook(nb, timeout=60).verdict
    assert tree(tmp_path) == before
    assert verdict.crash is None, verdict
    assert verdict.explanation.startswith(
        f"inconclusive: the cell tries a side effect that is refused ({named}")
    assert verdict.evidence[0].startswith(f"blocked: {named}")
    assert "(refused in the dry run; crashpredict never runs such a cell for real" \
        in verdict.evidence[0]
    assert not any("replay kernel" in e for e in verdict.evidence)


def test_a_target_that_kills_its_parent_leaves_crashpredict_alive(tmp_path: Path) -> None:
    folder, _ = project(tmp_path)
    nb = notebook(folder, ["import os"], "os.kill(os.getppid(), 9)")
    done = subprocess.run([sys.executable, "-m", "crashpredict.cli", "check", str(nb),
                           "--quiet"], capture_output=True, text=True, timeout=180)
    assert done.returncode == 2, (done.returncode, done.stderr)  # not 137: unknown verdict
    assert "could not predict" in done.stdout
    assert "blocked: os.kill(" in done.stdout


# ---- the fallback: only a live-kernel reason, only jailed ---------------------------------------

# A library whose work runs on a thread it started at import, as thread pools do: in a
# fork the thread is gone and the call waits forever (the dry run's watchdog says "stuck
# in xgboost"); a live kernel answers. The name is one the watchdog knows.
POOL = """\
import queue, threading
_jobs, _done = queue.Queue(), queue.Queue()
def _work():
    while True:
        _done.put(_jobs.get()())
threading.Thread(target=_work, daemon=True).start()
def train(x):
    _jobs.put(lambda: 2 * x)
    return _done.get()
"""


@pytest.mark.parametrize(("target", "crash", "exception", "line"), [
    ("y = xgboost.train(3)\n\nassert y == 7, y", True, "AssertionError", 3),
    ("y = xgboost.train(3)\nassert y == 6", False, None, None),
], ids=["crash", "clean"])
def test_a_cell_stuck_on_a_dead_thread_pool_runs_in_the_jailed_replay_kernel(
        tmp_path: Path, target: str, crash: bool, exception: str | None,
        line: int | None) -> None:
    folder, _ = project(tmp_path)
    (folder / "xgboost.py").write_text(POOL)
    nb = notebook(folder, ["import xgboost"], target)
    before = tree(tmp_path)
    verdict = check_notebook(nb, timeout=60).verdict
    assert (verdict.crash, verdict.exception, verdict.line) == (crash, exception, line), verdict
    assert "dryrun" in verdict.engine
    assert any("ran in the jailed replay kernel" in e for e in verdict.evidence)
    assert tree(tmp_path) == before


def test_the_network_in_the_replay_kernel_makes_the_fallback_inconclusive(
        tmp_path: Path) -> None:
    folder, _ = project(tmp_path)
    (folder / "xgboost.py").write_text(POOL)
    # after the stuck call, a look-up: it fails in the jail, but would not for real
    nb = notebook(folder, ["import xgboost, socket"],
                  "y = xgboost.train(3)\nsocket.getaddrinfo('example.com', 80)")
    verdict = check_notebook(nb, timeout=60).verdict
    assert verdict.crash is None, verdict
    assert "the network (a name look-up of 'example.com')" in verdict.explanation
    assert "jail changes its outcome" in verdict.evidence[0]


# ---- the kernel's life: interrupt, restart, shutdown, refusal ---------------------------------

def test_an_interrupted_cell_is_reported_and_the_jailed_kernel_goes_on(tmp_path: Path,
                                                                      no_new_children) -> None:
    with KernelSession(tmp_path, timeout=2) as kernel:
        launcher = kernel._km.provisioner.pid
        tree_pids = descendants(launcher)
        assert len(tree_pids) == 2  # pid 1 of the namespace, the kernel
        assert kernel.run("import os\nassert os.getpid() == 2 and os.getppid() == 1").ok
        started = time.monotonic()
        run = kernel.run("import time\ntime.sleep(60)")
        assert run.status == "timeout" and time.monotonic() - started < 15
        assert kernel.run("x = 41 + 1").ok
        assert alive(launcher) and descendants(launcher) == tree_pids
        kernel._km.restart_kernel(now=True)
        kernel._kc.wait_for_ready(timeout=60)
        assert kernel.run("import os\nassert os.getpid() == 2\n"
                          "assert 'x' not in globals()").ok
        pids = {kernel._km.provisioner.pid, *descendants(kernel._km.provisioner.pid)}
        assert len(pids) == 3
    assert gone(pids | tree_pids | {launcher})


def test_the_jail_ends_when_crashpredict_is_killed(tmp_path: Path) -> None:
    code = ("import sys, time\nfrom crashpredict import KernelSession\n"
            "kernel = KernelSession(sys.argv[1], timeout=30).__enter__()\n"
            "print(kernel._km.provisioner.pid, kernel._runtime, flush=True)\ntime.sleep(120)")
    client = subprocess.Popen([sys.executable, "-c", code, str(tmp_path)],
                              stdout=subprocess.PIPE, text=True)
    try:
        pid, runtime = client.stdout.readline().split()
        pids = {int(pid), *descendants(int(pid))}
        assert len(pids) == 3
    finally:
        client.kill()
        client.wait()
    assert gone(pids)  # the launcher saw its parent go, and killed the jail
    shutil.rmtree(runtime, ignore_errors=True)  # what close() would have removed


def test_a_replayed_cell_over_its_timeout_is_reported(tmp_path: Path, capsys) -> None:
    folder, _ = project(tmp_path)
    nb = notebook(folder, ["x = 1", "import time\ntime.sleep(60)"], "y = x")
    started = time.monotonic()
    assert main(["check", str(nb), "--quiet", "--timeout", "2"]) == 0  # y = x still runs
    assert time.monotonic() - started < 30
    out = capsys.readouterr().out
    assert "  replay: cell 2 [2] (id " in out and "timed out" in out
    assert "TimeoutError: the cell ran longer than 2 s (the replay went on)" in out


def test_a_refused_jail_fails_clearly_and_never_runs_unconfined(tmp_path: Path,
                                                               monkeypatch, capsys) -> None:
    real = _jailkernel.launcher_argv

    def refusing(**kwargs: object) -> list[str]:
        # a private folder the launcher cannot use: its jail is refused, as without
        # user namespaces
        return real(**{**kwargs, "private": "/dev/null/jail"})

    monkeypatch.setattr(_jailkernel, "launcher_argv", refusing)
    with pytest.raises(KernelError, match=r"could not be jailed \(.*Not a directory.*--in-place"):
        with KernelSession(tmp_path, timeout=30):
            pass
    folder, _ = project(tmp_path)
    nb = notebook(folder, ["x = 1"], "y = x")
    assert main(["check", str(nb), "--quiet"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("crashpredict: error: the replay kernel "
                                                   "could not be jailed")
    assert "--in-place" in err
    with KernelSession(tmp_path, timeout=30, jail=False) as kernel:  # the explicit way out
        assert kernel.run("import os\nassert os.getpid() != 2").ok


def test_the_launcher_refuses_with_its_own_exit_code_and_one_line(tmp_path: Path) -> None:
    argv = _jailkernel.launcher_argv(private="/dev/null/jail", ipc=str(tmp_path),
                                     cwd=str(tmp_path))
    done = subprocess.run([*argv, sys.executable, "-c", "open('ran', 'w')"], cwd=tmp_path,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == _jailkernel.JAIL_REFUSED
    assert done.stderr.startswith(_jailkernel.REFUSAL_PREFIX) and done.stderr.count("\n") == 1
    assert not (tmp_path / "ran").exists()


def test_the_launcher_mirrors_the_kernels_exit(tmp_path: Path) -> None:
    (tmp_path / "ipc").mkdir()
    (tmp_path / "jail").mkdir()
    argv = _jailkernel.launcher_argv(private=str(tmp_path / "jail"), ipc=str(tmp_path / "ipc"),
                                     cwd=str(tmp_path), quiet=False)
    # no capabilities, bounding set included; a root kernel keeps CAP_SETFCAP (bit 31) and
    # root's power over files (chown, dac_override, dac_read_search, fowner, fsetid: 0x1f)
    probe = ("import os, sys\nst = open('/proc/self/status').read()\n"
             "caps = {l.split(':')[0]: l.split()[1] for l in st.splitlines()\n"
             "        if l.startswith('Cap')}\n"
             "keep = '000000008000001f' if os.geteuid() == 0 else 16 * '0'\n"
             "assert caps['CapEff'] == caps['CapBnd'] == caps['CapPrm'] == keep, caps\n"
             "assert caps['CapInh'] == caps['CapAmb'] == 16 * '0', caps\n"
             "assert (os.getpid(), os.getppid(), os.environ['JPY_PARENT_PID']) == (2, 1, '1')\n"
             "open('written', 'w')\nopen('ipc/sock', 'w')\n"
             "os.kill(os.getpid(), int(sys.argv[1])) if sys.argv[1] != '0' else sys.exit(7)")
    for arg, code in (("0", 7), ("9", -9), ("15", -15)):
        done = subprocess.run([*argv, sys.executable, "-c", probe, arg], cwd=tmp_path,
                              capture_output=True, text=True, timeout=60)
        assert done.returncode == code, done.stderr
    assert not (tmp_path / "written").exists() and (tmp_path / "ipc" / "sock").exists()
