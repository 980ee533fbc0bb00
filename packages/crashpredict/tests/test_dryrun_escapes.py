"""Ways out of the dry run's sandbox, each tried for real on a fork of the pytest process.

Every escape must end blocked or inconclusive, with this process, its memory and the disk
unchanged and no process left behind. Python-level escapes are refused by the audit hook
and patches; C-level ones (through ctypes) by the kernel layer (seccomp, Landlock), which
is checked to be active where the kernel has it.
"""

from __future__ import annotations

import mmap
import os
import signal
import struct

import pytest

from crashpredict._dryrun import dry_run
from crashpredict._dryrun._confine import ERRNO_BLOCKED, seccomp_program

np = pytest.importorskip("numpy")


pytestmark = pytest.mark.usefixtures("no_new_children")

LIBC = "import ctypes, os\nlibc = ctypes.CDLL(None, use_errno=True)\n"
RAISE_ERRNO = "raise OSError(ctypes.get_errno(), os.strerror(ctypes.get_errno()))\n"


def test_kernel_layers_are_active_where_the_kernel_has_them():
    result = dry_run("x = 1", {})
    assert result.outcome == "completed"
    if os.uname().machine in ("x86_64", "aarch64"):
        assert "seccomp" in result.layers
    abi = _landlock_abi()
    assert ("landlock" in result.layers) == (abi >= 1)


def _landlock_abi() -> int:
    import ctypes

    libc = ctypes.CDLL(None, use_errno=True)
    libc.syscall.restype = ctypes.c_long
    return libc.syscall(444, None, ctypes.c_size_t(0), ctypes.c_uint32(1))


# ---- writable shared mappings made in an earlier cell -------------------------------------

def test_writes_through_an_anonymous_shared_mapping_stay_in_the_child():
    shared = mmap.mmap(-1, 4096)  # MAP_SHARED: without care, the child would write our page
    shared[:5] = b"kernl"
    result = dry_run("shared[:5] = b'CHILD'\nassert shared[:5] == b'CHILD'", {"shared": shared})
    assert result.outcome == "completed", result
    assert shared[:5] == b"kernl"


def test_writes_through_a_numpy_memmap_reach_neither_the_parent_nor_the_file(tmp_path):
    path = tmp_path / "weights.dat"
    weights = np.memmap(path, dtype="float64", mode="w+", shape=(1000,))
    weights[:] = 1.0
    weights.flush()
    before = path.read_bytes()
    cell = "weights[:] = 7.0\nweights.flush()\nassert weights.sum() == 7000.0"
    result = dry_run(cell, {"weights": weights})
    assert result.outcome == "completed", result
    assert weights.sum() == 1000.0 and path.read_bytes() == before


def test_a_new_writable_mapping_of_a_file_the_parent_holds_open_goes_to_the_copy(tmp_path):
    path = tmp_path / "data.bin"
    path.write_bytes(b"\0" * 4096)
    with open(path, "r+b") as fh:
        cell = "import mmap\nm = mmap.mmap(fh.fileno(), 0)\nm[:4] = b'EVIL'\nm.flush()"
        result = dry_run(cell, {"fh": fh})
    assert result.outcome == "completed", result
    assert path.read_bytes() == b"\0" * 4096


# ---- processes -----------------------------------------------------------------------------

def test_fork_through_ctypes_is_refused_by_the_kernel_layer():
    cell = LIBC + "pid = libc.fork()\nif pid == 0:\n    libc._exit(0)\nif pid < 0:\n    " + RAISE_ERRNO
    result = dry_run(cell, {})
    assert result.outcome == "inconclusive", result
    assert result.blocked == ERRNO_BLOCKED[4001]


def test_exec_through_ctypes_is_refused_by_the_kernel_layer(tmp_path):
    victim = tmp_path / "made_by_exec"
    cell = (LIBC + "argv = (ctypes.c_char_p * 3)(b'/bin/touch', "
            f"{str(victim).encode()!r}, None)\n"
            "libc.execv(b'/bin/touch', argv)\n" + RAISE_ERRNO)
    result = dry_run(cell, {})
    assert result.outcome == "inconclusive" and result.blocked == ERRNO_BLOCKED[4002]
    assert not victim.exists()


def test_threads_still_run_in_the_child():
    cell = ("from concurrent.futures import ThreadPoolExecutor\n"
            "with ThreadPoolExecutor(2) as pool:\n    total = sum(pool.map(abs, [-1, -2, 3]))\n"
            "assert total == 6")
    assert dry_run(cell, {}).outcome == "completed"


# ---- signals to the parent -----------------------------------------------------------------

@pytest.fixture
def usr1():
    received: list[int] = []
    old = signal.signal(signal.SIGUSR1, lambda *_: received.append(1))
    yield received
    signal.signal(signal.SIGUSR1, old)


def test_pidfd_send_signal_to_the_parent_is_blocked(usr1):
    cell = "import os, signal\nsignal.pidfd_send_signal(os.pidfd_open(os.getppid()), signal.SIGUSR1)"
    result = dry_run(cell, {})
    assert result.outcome == "inconclusive" and result.blocked == "signal.pidfd_send_signal"
    assert usr1 == []


@pytest.mark.parametrize("call", [
    "libc.kill(os.getppid(), 10)",
    "libc.syscall(424, os.pidfd_open(os.getppid()), 10, None, 0)",
    "libc.syscall(234, os.getppid(), os.getppid(), 10)",  # tgkill
])
def test_signals_through_ctypes_are_refused_by_the_kernel_layer(usr1, call):
    cell = LIBC + f"if {call} != 0:\n    " + RAISE_ERRNO
    result = dry_run(cell, {})
    assert result.outcome == "inconclusive" and result.blocked == ERRNO_BLOCKED[4003]
    assert usr1 == []


def test_a_cell_may_still_signal_itself():
    cell = ("import os, signal\nseen = []\nsignal.signal(signal.SIGUSR2, lambda *a: seen.append(1))\n"
            "os.kill(os.getpid(), signal.SIGUSR2)\nassert seen == [1]")
    assert dry_run(cell, {}).outcome == "completed"


# ---- the network ---------------------------------------------------------------------------

def test_connect_through_ctypes_is_refused_by_the_kernel_layer():
    import socket

    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen()
        server.setblocking(False)
        port = server.getsockname()[1]
        address = struct.pack("!HH4s8x", socket.AF_INET, port, socket.inet_aton("127.0.0.1"))
        address = struct.pack("=H", socket.AF_INET) + address[2:]
        cell = (LIBC + "import socket\ns = socket.socket()\n"
                f"if libc.connect(s.fileno(), {address!r}, {len(address)}) != 0:\n    "
                + RAISE_ERRNO)
        result = dry_run(cell, {})
        assert result.outcome == "inconclusive" and result.blocked == ERRNO_BLOCKED[4004]
        with pytest.raises(BlockingIOError):
            server.accept()


# ---- file writes from C --------------------------------------------------------------------

def test_a_file_write_from_c_outside_the_overlay_is_refused(tmp_path):
    if _landlock_abi() < 1:
        pytest.skip("this kernel has no Landlock")
    victim = tmp_path / "from_c.txt"
    cell = (LIBC + "libc.fopen.restype = ctypes.c_void_p\n"
            f"path = {str(victim)!r}\n"
            "if not libc.fopen(path.encode(), b'w'):\n"
            "    raise OSError(ctypes.get_errno(), os.strerror(ctypes.get_errno()), path)")
    result = dry_run(cell, {})
    assert result.outcome == "inconclusive", result
    assert result.blocked == f"a file write from C code to {str(victim)!r}"
    assert not victim.exists()


def test_a_real_permission_error_is_still_a_crash(tmp_path):
    if os.geteuid() == 0:
        pytest.skip("root may write anywhere")
    secret = tmp_path / "secret"
    secret.write_text("x")
    secret.chmod(0)
    result = dry_run(f"open({str(secret)!r}).read()", {})
    assert (result.outcome, result.exception) == ("crashed", "PermissionError")


# ---- switching the policy off --------------------------------------------------------------

def test_a_cell_cannot_switch_the_policy_off(tmp_path):
    victim = tmp_path / "made"
    cell = ("import crashpredict._dryrun._sandbox as s\n"
            "s.Policy.block = lambda *a: None\ns.Policy.hook = lambda *a: None\n"
            "s._decide = lambda *a: None\ns._record = lambda *a: None\n"
            f"import subprocess\nsubprocess.run(['touch', {str(victim)!r}])")
    quiet = cell.replace(f"import subprocess\nsubprocess.run(['touch', {str(victim)!r}])",
                         "name = input('who?')")
    result = dry_run(cell, {})
    assert result.outcome == "inconclusive" and result.blocked.startswith("subprocess")
    assert not victim.exists()
    assert dry_run(quiet, {}).blocked == "input() would wait for the user"


def test_the_kernel_layer_holds_when_the_python_layer_is_gone(tmp_path):
    victim = tmp_path / "made"
    cell = (LIBC + "import sys, _posixsubprocess\n"
            "sys.modules['crashpredict._dryrun._sandbox']._decide = lambda *a: None\n"
            "argv = (ctypes.c_char_p * 3)(b'/bin/touch', "
            f"{str(victim).encode()!r}, None)\n"
            "if libc.fork() == 0:\n    libc.execv(b'/bin/touch', argv)\n    libc._exit(0)\n")
    dry_run(cell, {})
    assert not victim.exists()


# ---- the filter itself ---------------------------------------------------------------------

@pytest.mark.parametrize("machine", ["x86_64", "aarch64"])
def test_seccomp_programs_assemble_for_both_architectures(machine):
    program = seccomp_program(machine, 1234)
    assert program is not None and len(program) % 8 == 0 and len(program) // 8 < 4096
    assert seccomp_program("riscv64", 1234) is None
