"""The dry run's jail (`_jail`): what the child shares with the kernel, tried for real.

Each test forks this pytest process (the "kernel") with `dry_run` and has the cell reach
for something the kernel holds: a file position, a lock, a temporary file, an eventfd, a
pipe, another process, a file through a folder descriptor or a /proc link, the probe
channel. After the dry run, the kernel's view must be exactly as before.
"""

from __future__ import annotations

import fcntl
import os
import resource
import shutil
import subprocess
import sys
import socket
import stat
import tempfile
import time

import pytest

from crashpredict._dryrun import dry_run
from crashpredict._dryrun import _fork

pytestmark = pytest.mark.usefixtures("no_new_children")


def test_the_jail_is_a_layer_and_the_cell_sees_its_own_pid_namespace():
    result = dry_run("import os\nassert os.getpid() == 2, os.getpid()\n"
                     "assert os.listdir('/proc').count('1') == 1\n"
                     "assert not [p for p in os.listdir('/proc') if p.isdigit() and int(p) > 2]",
                     {})
    assert result.outcome == "completed", result
    assert result.layers[0] == "namespaces"


def test_a_read_in_the_dry_run_does_not_move_the_kernels_file_position(tmp_path):
    path = tmp_path / "data.txt"
    path.write_text("".join(f"line {i}\n" for i in range(1000)))
    with open(path) as fh:
        fh.readline()
        position = os.lseek(fh.fileno(), 0, os.SEEK_CUR)
        result = dry_run("rest = fh.read()\nassert rest.startswith('line 1')\n"
                         "import os\nos.lseek(fh.fileno(), 0, os.SEEK_END)", {"fh": fh})
        assert result.outcome == "completed", result
        assert os.lseek(fh.fileno(), 0, os.SEEK_CUR) == position
        assert len(fh.read().splitlines()) == 999  # the real run reads the whole rest


@pytest.mark.parametrize("make", ["temporaryfile", "memfd"])
def test_a_deleted_or_memory_file_the_kernel_holds_is_private_in_the_child(make):
    if make == "memfd":
        fd = os.memfd_create("kernel-state")
        fh = open(fd, "w+b")
    else:
        fh = tempfile.TemporaryFile()
    with fh:
        fh.write(b"kernel state")
        fh.flush()
        cell = ("fh.seek(0)\nassert fh.read() == b'kernel state'\nfh.seek(0)\n"
                "fh.write(b'CHILD WROTE!')\nfh.flush()\nfh.truncate(3)")
        result = dry_run(cell, {"fh": fh})
        assert result.outcome == "completed", result
        assert os.pread(fh.fileno(), 100, 0) == b"kernel state"
        assert fh.tell() == len(b"kernel state")


def test_a_lock_the_kernel_holds_stays_held(tmp_path):
    path = tmp_path / "lockfile"
    path.write_text("x")
    with open(path) as held:
        fcntl.flock(held, fcntl.LOCK_EX)
        result = dry_run("import fcntl\nfcntl.flock(held, fcntl.LOCK_UN)", {"held": held})
        assert result.outcome == "completed", result
        with open(path) as other, pytest.raises(BlockingIOError):
            fcntl.flock(other, fcntl.LOCK_EX | fcntl.LOCK_NB)


def test_the_kernels_pipes_eventfds_and_sockets_cannot_be_written():
    efd = os.eventfd(0, os.EFD_NONBLOCK)
    read_end, write_end = os.pipe()
    os.set_blocking(read_end, False)
    left, right = socket.socketpair()
    right.setblocking(False)
    try:
        cell = ("import os\n"
                "for fd in (efd, write_end, left_fd):\n"
                "    try:\n"
                "        os.write(fd, (1).to_bytes(8, 'little'))\n"
                "    except OSError:\n"
                "        pass\n")
        result = dry_run(cell, {"efd": efd, "write_end": write_end, "left_fd": left.fileno()})
        assert result.outcome == "completed", result
        with pytest.raises(BlockingIOError):
            os.eventfd_read(efd)
        with pytest.raises(BlockingIOError):
            os.read(read_end, 10)
        with pytest.raises(BlockingIOError):
            right.recv(10)
    finally:
        for fd in (efd, read_end, write_end):
            os.close(fd)
        left.close()
        right.close()


def test_no_power_over_the_kernel_process():
    pid = os.getpid()
    before = (os.getpriority(os.PRIO_PROCESS, pid), resource.getrlimit(resource.RLIMIT_NOFILE),
              os.sched_getaffinity(pid))
    for cell in ("import os\nos.setpriority(os.PRIO_PROCESS, PID, 19)",
                 "import resource\nresource.prlimit(PID, resource.RLIMIT_NOFILE, (16, 16))",
                 "import os\nos.sched_setaffinity(PID, {0})",
                 "import os, signal\nos.kill(PID, signal.SIGTERM)"):
        result = dry_run(cell.replace("PID", str(pid)), {})
        assert result.outcome == "inconclusive", (cell, result)
    after = (os.getpriority(os.PRIO_PROCESS, pid), resource.getrlimit(resource.RLIMIT_NOFILE),
             os.sched_getaffinity(pid))
    assert after == before


def test_proc_fd_reopens_and_folder_descriptors_reach_only_the_overlay(tmp_path):
    victim = tmp_path / "victim.txt"
    victim.write_text("keep")
    folder = os.open(tmp_path, os.O_RDONLY | os.O_DIRECTORY)
    try:
        with open(victim) as fh:
            cell = (f"import os\nwith open('/proc/self/fd/{fh.fileno()}', 'w') as out:\n"
                    "    out.write('overwritten')\n"
                    f"os.unlink('victim.txt', dir_fd={folder})\n"
                    f"fd = os.open('new.txt', os.O_WRONLY | os.O_CREAT, dir_fd={folder})\n"
                    "os.write(fd, b'x')\n")
            result = dry_run(cell, {})
        assert result.outcome in ("completed", "inconclusive"), result
    finally:
        os.close(folder)
    assert victim.read_text() == "keep"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["victim.txt"]


def test_a_dangling_absolute_link_writes_nothing_real(tmp_path):
    outside = tmp_path / "outside"
    outside.mkdir()
    (tmp_path / "link.csv").symlink_to(outside / "made-by-link.csv")
    cell = (f"import ctypes\nlibc = ctypes.CDLL(None)\n"
            f"open({str(tmp_path / 'link.csv')!r}, 'w').write('a,b')\n"
            f"libc.fopen({str(tmp_path / 'link.csv')!r}.encode(), b'w')\n")
    result = dry_run(cell, {})
    assert result.outcome in ("completed", "inconclusive"), result
    assert list(outside.iterdir()) == []


def test_c_level_writes_anywhere_never_reach_the_disk(tmp_path):
    target = tmp_path / "from_c.txt"
    cell = ("import ctypes\nlibc = ctypes.CDLL(None, use_errno=True)\n"
            f"f = libc.fopen({str(target)!r}.encode(), b'w')\n"
            "if f:\n    libc.fputs(b'x', f)\n    libc.fclose(f)\n")
    dry_run(cell, {})
    assert not target.exists()


def test_no_device_node_and_no_raw_disk_in_the_jail():
    cell = ("import os, stat, tempfile\n"
            "devices = [n for n in os.listdir('/dev') if stat.S_ISBLK(os.stat('/dev/' + n).st_mode)]\n"
            "assert devices == [], devices\n"
            "path = os.path.join(tempfile.gettempdir(), 'disk')\n"
            "try:\n"
            "    os.mknod(path, stat.S_IFBLK | 0o600, os.makedev(8, 0))\n"
            "except PermissionError:\n"
            "    made = False\n"
            "else:\n"
            "    made = True\n"
            "assert not made\n")
    result = dry_run(cell, {})
    assert result.outcome == "completed", result


def test_fork_hooks_do_not_run_before_the_jail_nor_in_the_kernel(tmp_path):
    marker_child, marker_parent = tmp_path / "child-hook", tmp_path / "parent-hook"
    active = [True]

    def in_child() -> None:
        if active[0]:
            marker_child.write_text("ran unconfined")

    def before() -> None:
        if active[0]:
            marker_parent.write_text("ran in the kernel")

    os.register_at_fork(before=before, after_in_child=in_child)
    try:
        result = dry_run("x = 1", {})
    finally:
        active[0] = False
    assert result.outcome == "completed", result
    assert not marker_child.exists() and not marker_parent.exists()


def test_a_program_the_cell_writes_is_never_run_by_the_probe_channel(tmp_path):
    marker = tmp_path / "planted-ran"
    cell = ("import os, stat, subprocess, tempfile\n"
            "folder = tempfile.mkdtemp()\n"
            "fake = os.path.join(folder, 'uname')\n"
            f"open(fake, 'w').write('#!/bin/sh\\necho planted > {marker}\\necho planted\\n')\n"
            "os.chmod(fake, 0o755)\n"
            "os.environ['PATH'] = folder + ':' + os.environ.get('PATH', '')\n"
            "by_name = subprocess.run(['uname'], capture_output=True, text=True).stdout\n"
            "by_path = subprocess.run([fake, '-s'], capture_output=True, text=True).stdout\n"
            "assert 'planted' not in by_name + by_path, (by_name, by_path)\n"
            "assert by_name.strip() == os.uname().sysname\n")
    result = dry_run(cell, {}, budget_s=10)
    assert result.outcome == "completed", result
    assert not marker.exists()


def test_a_forged_or_endless_report_is_no_report():
    forge = ("import os, json\n"
             "bad = json.dumps({'outcome': 'crashed', 'traceback': 5, 'line': 'x', 'writes': 7})\n"
             "for fd in sorted(int(n) for n in os.listdir('/proc/self/fd')):\n"
             "    try:\n"
             "        os.write(fd, bad.encode())\n"
             "    except OSError:\n"
             "        pass\n"
             "os._exit(0)\n")
    result = dry_run(forge, {}, fast_forward=False)  # every loop whole: the parent's bounds
    assert result.outcome in ("crashed", "inconclusive")
    assert isinstance(result.traceback, tuple) and result.line is None
    flood = ("import os\nchunk = b'{' * (1 << 20)\n"
             "for fd in sorted(int(n) for n in os.listdir('/proc/self/fd')):\n"
             "    try:\n"
             "        for _ in range(64):\n"
             "            os.write(fd, chunk)\n"
             "    except OSError:\n"
             "        pass\n")
    started = time.perf_counter()
    result = dry_run(flood, {}, budget_s=5, fast_forward=False)
    assert result.outcome == "inconclusive"
    assert time.perf_counter() - started < 10
    assert len(result.reason) < 1000


def test_a_probe_request_flood_cannot_block_the_kernel():
    cell = ("import os, struct, json\n"
            "body = json.dumps({'argv': ['fc-list']}).encode()\n"
            "frame = b'Q' + struct.pack('>Q', len(body)) + body\n"
            "for fd in sorted(int(n) for n in os.listdir('/proc/self/fd')):\n"
            "    try:\n"
            "        for _ in range(300):\n"
            "            os.write(fd, frame)\n"
            "    except OSError:\n"
            "        pass\n"
            "import time\ntime.sleep(30)\n")
    started = time.perf_counter()
    result = dry_run(cell, {}, budget_s=3, retry_rows=None, fast_forward=False)
    assert time.perf_counter() - started < 3 + _fork.KILL_MARGIN_S + 2
    assert result.outcome == "inconclusive"


def test_writes_stay_in_memory_and_the_disk_is_unchanged(tmp_path):
    home_file = os.path.expanduser("~/.crashpredict-jail-test")
    cell = (f"open({home_file!r}, 'w').write('x')\n"
            "import os\nos.makedirs('/opt/crashpredict-jail-test/a', exist_ok=True)\n"
            f"open({str(tmp_path / 'out.txt')!r}, 'w').write('y')\n")
    result = dry_run(cell, {})
    assert result.outcome == "completed", result
    assert not os.path.exists(home_file)
    assert not os.path.exists("/opt/crashpredict-jail-test")
    assert list(tmp_path.iterdir()) == []
    assert stat.S_ISCHR(os.stat("/dev/null").st_mode)


REFUSED = """
from crashpredict._dryrun import dry_run, fork_refusal
import os
result = dry_run("open({marker!r}, 'w').write('ran')", {{}})
assert result.outcome == "inconclusive", result
assert "refused the dry run's isolation" in result.reason, result.reason
assert "user namespaces" in result.reason, result.reason
assert fork_refusal() == result.reason
again = dry_run("x = 1", {{}})
assert again.outcome == "inconclusive" and again.startup_s is None
print("refused as expected")
"""


def test_without_user_namespaces_the_dry_run_refuses_rather_than_runs_unconfined(tmp_path):
    if shutil.which("unshare") is None:
        pytest.skip("util-linux's unshare is not installed")
    marker = tmp_path / "ran-unconfined"
    # A user namespace of its own in which no further user namespace may be made: the
    # kernel refuses the jail there, as on a system that forbids unprivileged namespaces.
    script = ("echo 0 > /proc/sys/user/max_user_namespaces && exec \"$0\" -c \"$1\"")
    done = subprocess.run(["unshare", "--user", "--map-root-user", "sh", "-c", script,
                           sys.executable, REFUSED.format(marker=str(marker))],
                          capture_output=True, text=True, timeout=120)
    if "max_user_namespaces" in done.stderr:
        pytest.skip(f"cannot limit user namespaces here: {done.stderr.strip()}")
    assert done.returncode == 0, done.stderr
    assert "refused as expected" in done.stdout
    assert not marker.exists()


def test_the_processes_above_the_cell_cannot_be_read_or_written():
    # pid 1 of the jail is a copy of the kernel without seccomp: the cell may not reach
    # its memory (it is not dumpable; Landlock scopes ptrace too), not even to read it.
    cell = ("for name in ('mem', 'environ'):\n"
            "    try:\n"
            "        with open(f'/proc/1/{name}', 'rb') as fh:\n"
            "            fh.read(1)\n"
            "    except PermissionError:\n"
            "        continue\n"
            "    raise AssertionError('read /proc/1/' + name)\n")
    result = dry_run(cell, {})
    assert result.outcome == "completed", result


def test_many_probe_requests_end_at_the_deadline_or_the_cap():
    cell = ("import subprocess\n"
            "for i in range(200):\n"
            "    subprocess.run(['getconf', f'NO_SUCH_{i}'], capture_output=True)\n")
    started = time.perf_counter()
    result = dry_run(cell, {}, budget_s=3, retry_rows=None, fast_forward=False)
    assert time.perf_counter() - started < 3 + _fork.KILL_MARGIN_S + 2
    assert result.outcome in ("completed", "inconclusive")
