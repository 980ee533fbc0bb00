"""A benchkit run killed with SIGKILL leaves nothing behind: workers, kernels, tracker."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

pytestmark = [pytest.mark.kernel,
              pytest.mark.skipif(not Path("/proc/self/environ").exists(), reason="needs /proc")]


def _marked(mark: str) -> dict[int, str]:
    """Live processes whose environment holds ``mark``, with their command lines."""
    found = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit() or int(entry) == os.getpid():
            continue
        try:
            environ = Path(f"/proc/{entry}/environ").read_bytes()
            stat = Path(f"/proc/{entry}/stat").read_bytes()
            cmdline = Path(f"/proc/{entry}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except OSError:  # gone meanwhile, or not ours
            continue
        state = stat[stat.rfind(b")") + 2:].split()[0]
        if mark.encode() in environ and state != b"Z":
            found[int(entry)] = cmdline
    return found


def _poll(condition, deadline_s: float, step: float = 0.2):
    end = time.monotonic() + deadline_s
    while time.monotonic() < end:
        value = condition()
        if value:
            return value
        time.sleep(step)
    return condition()


def test_sigkilled_run_leaves_no_worker_or_kernel_behind(tmp_path, write_case):
    root = tmp_path / "cases"
    for i in range(4):  # more tasks than workers: some are queued when the parent dies
        write_case(root, f"python_{i}", [("import time\ntime.sleep(60)", 1), ("{}['k']", 2)],
                   [("import time\ntime.sleep(60)", 1), ("{}.get('k')", 2)],
                   error_at=1, labels={"ename": "keyerror"})
    mark = f"benchkit-test-{uuid.uuid4().hex}"
    env = {**os.environ, "BENCHKIT_TEST_MARK": mark}
    run = subprocess.Popen([sys.executable, "-m", "benchkit.cli", "verify", str(root), "-j", "2",
                            "--timeout", "120", "-o", str(tmp_path / "out")],
                           env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        kernels = _poll(lambda: [p for p, cmd in _marked(mark).items() if "ipykernel" in cmd]
                        if len([c for c in _marked(mark).values() if "ipykernel" in c]) >= 2 else None,
                        deadline_s=180)
        assert kernels, f"no two kernels started: {_marked(mark)}"
        before = _marked(mark)
        assert any("multiprocessing" in cmd for cmd in before.values()), before  # the workers
        os.kill(run.pid, signal.SIGKILL)
        run.wait()
        left = _poll(lambda: not _marked(mark), deadline_s=30) or _marked(mark)
        assert left is True, f"still running after the parent was killed: {left}"
    finally:
        if run.poll() is None:
            run.kill()
        for pid in _marked(mark):  # whatever the test failed to see die
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass


def test_a_worker_kills_the_process_group_of_a_child_that_ignores_its_parent(tmp_path):
    """A kernel that does not watch its parent (not every kernel does) still dies: here a
    `sleep` in its own session, as jupyter_client starts kernels."""
    (tmp_path / "orphan_task.py").write_text(
        "import subprocess, time\n"
        "def start_child_and_wait(task):\n"
        "    subprocess.Popen(['sleep', '600'], start_new_session=True)\n"
        "    time.sleep(600)\n")
    (tmp_path / "parent.py").write_text(
        "import sys\n"
        f"sys.path.insert(0, {str(tmp_path)!r})\n"
        "import orphan_task\n"
        "from benchkit._executor import LocalExecutor\n"
        "if __name__ == '__main__':\n"
        "    list(LocalExecutor(1).run(orphan_task.start_child_and_wait, [{}], lambda t, e: None))\n")
    mark = f"benchkit-test-{uuid.uuid4().hex}"
    parent = subprocess.Popen([sys.executable, str(tmp_path / "parent.py")],
                              env={**os.environ, "BENCHKIT_TEST_MARK": mark})
    try:
        started = _poll(lambda: [p for p, cmd in _marked(mark).items() if cmd.startswith("sleep 600")],
                        deadline_s=120)
        assert started, _marked(mark)
        os.kill(parent.pid, signal.SIGKILL)
        parent.wait()
        left = _poll(lambda: not _marked(mark), deadline_s=30) or _marked(mark)
        assert left is True, f"still running after the parent was killed: {left}"
    finally:
        if parent.poll() is None:
            parent.kill()
        for pid in _marked(mark):
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass
