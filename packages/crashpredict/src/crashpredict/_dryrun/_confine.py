"""The kernel-enforced layer of a dry run's child: seccomp, Landlock, private mappings, fds.

The audit hooks and patches of `_sandbox` and `_overlay` are Python: code that calls C
directly (ctypes, a C extension, ``_posixsubprocess.fork_exec``) or that rebinds them can
pass them by. This module asks the Linux kernel to enforce the lines that matter, in the
forked child only, after the Python layer is installed and before the cell runs:

- **seccomp** (a BPF filter assembled here, x86_64 and aarch64): no new processes (``clone``
  without ``CLONE_THREAD``, ``fork``, ``vfork``), no ``execve``/``execveat``, no signal to
  any process but the child itself (``kill``, ``tkill``, ``tgkill``, ``rt_*sigqueueinfo``,
  ``pidfd_send_signal``), no ``connect``, ``bind``, ``sendmsg`` or ``sendto`` to an
  address (a socket may be created, but it cannot reach anything), no ``ptrace``,
  ``process_vm_*``, ``pidfd_getfd``, ``io_uring_setup``, ``unshare``, ``setns``, ``mount``.
  A refused call fails with one of the `ERRNO_BLOCKED` numbers, which `blocked_errno` names.
- **Landlock** (when the kernel has it): file writes, creations, removals and renames only
  under the child's private directory (and ``/dev/null``); TCP bind/connect refused (ABI 4);
  signals out of the child's domain refused (ABI 6). A refused write fails with EACCES.
- **Shared mappings**: every writable ``MAP_SHARED`` mapping inherited from the kernel (an
  anonymous ``mmap``, ``np.memmap(mode='w+')``, a file mapped read-write) is replaced by a
  private copy at the same address, so writes through it stay in the child.
- **Inherited fds**: every regular file the kernel holds open for writing is swapped for a
  copy in the overlay (same offset and flags), so ``f.write`` on a file object opened in an
  earlier cell writes the copy.

Everything degrades gracefully: a kernel without Landlock or seccomp, or another
architecture, leaves the Python layer alone in charge and `Confinement` says which layers
are active.
"""

from __future__ import annotations

import ctypes
import errno
import os
import re
import stat
import struct
from collections.abc import Callable
from dataclasses import dataclass

__all__ = ["ERRNO_BLOCKED", "Confinement", "blocked_errno", "confine", "no_new_processes",
           "privatise_shared_mappings", "read_only_files", "swap_writable_fds"]

#: errno of a call refused by seccomp -> what it was. Linux's own errnos stop below 200,
#: so these cannot be confused with a real failure of the call.
ERRNO_BLOCKED = {
    4001: "a new process (fork/clone)",
    4002: "running a program (execve)",
    4003: "a signal to another process",
    4004: "a network connection",
    4005: "access to another process (ptrace, process_vm, pidfd_getfd, io_uring, namespaces)",
}
_E_PROC, _E_EXEC, _E_SIGNAL, _E_NET, _E_OTHER = ERRNO_BLOCKED

# ---- seccomp -------------------------------------------------------------------------------

_AUDIT_ARCH = {"x86_64": 0xC000003E, "aarch64": 0xC00000B7}
# name -> (x86_64 number, aarch64 number); None where the call does not exist
_NR = {
    "kill": (62, 129), "tkill": (200, 130), "tgkill": (234, 131),
    "rt_sigqueueinfo": (129, 138), "rt_tgsigqueueinfo": (297, 240),
    "pidfd_send_signal": (424, 424), "execve": (59, 221), "execveat": (322, 281),
    "clone": (56, 220), "clone3": (435, 435), "fork": (57, None), "vfork": (58, None),
    "connect": (42, 203), "bind": (49, 200), "sendto": (44, 206),
    "sendmsg": (46, 211), "sendmmsg": (307, 269),
    "ptrace": (101, 117), "process_vm_readv": (310, 270), "process_vm_writev": (311, 271),
    "pidfd_getfd": (438, 438), "io_uring_setup": (425, 425), "unshare": (272, 97),
    "setns": (308, 268), "mount": (165, 40),
}
_ALWAYS_REFUSED = {
    "execve": _E_EXEC, "execveat": _E_EXEC, "fork": _E_PROC, "vfork": _E_PROC,
    "pidfd_send_signal": _E_SIGNAL, "connect": _E_NET, "bind": _E_NET, "sendmsg": _E_NET,
    "sendmmsg": _E_NET,
    "ptrace": _E_OTHER, "process_vm_readv": _E_OTHER, "process_vm_writev": _E_OTHER,
    "pidfd_getfd": _E_OTHER, "io_uring_setup": _E_OTHER, "unshare": _E_OTHER,
    "setns": _E_OTHER, "mount": _E_OTHER,
}
_CLONE_THREAD = 0x00010000
_RET_ALLOW, _RET_ERRNO, _RET_KILL = 0x7FFF0000, 0x00050000, 0x80000000
_LD_W_ABS, _JEQ_K, _JSET_K, _JGE_K, _RET_K = 0x20, 0x15, 0x45, 0x35, 0x06
_OFF_NR, _OFF_ARCH = 0, 4


def _arg(i: int) -> int:
    return 16 + 8 * i  # the low 32 bits of args[i] (little-endian: both arches here)


class _Program:
    """A tiny BPF assembler: instructions with symbolic jump targets."""

    def __init__(self) -> None:
        self.code: list[tuple[int, object, object, int]] = []
        self.labels: dict[str, int] = {}

    def load(self, offset: int) -> None:
        self.code.append((_LD_W_ABS, 0, 0, offset))

    def jump(self, op: int, k: int, yes: str | int, no: str | int = 0) -> None:
        self.code.append((op, yes, no, k))

    def ret(self, value: int) -> None:
        self.code.append((_RET_K, 0, 0, value))

    def label(self, name: str) -> None:
        self.labels[name] = len(self.code)

    def assemble(self) -> bytes:
        out = bytearray()
        for i, (op, yes, no, k) in enumerate(self.code):
            jt = self.labels[yes] - i - 1 if isinstance(yes, str) else yes
            jf = self.labels[no] - i - 1 if isinstance(no, str) else no
            if not (0 <= int(jt) < 256 and 0 <= int(jf) < 256):
                raise ValueError("BPF jump out of range")
            out += struct.pack("=HBBI", op, int(jt), int(jf), k & 0xFFFFFFFF)
        return bytes(out)


def seccomp_program(machine: str, pid: int, *, processes: bool = False) -> bytes | None:
    """The BPF filter for ``machine`` (``os.uname().machine``), allowing signals to ``pid``.

    ``processes``: ``clone`` of a new process is allowed (``fork`` and ``vfork`` are not);
    `no_new_processes` adds the filter that refuses it, before any code of the cell runs
    (a standby child forks its shrunk sibling in between, `_sibling`)."""
    if machine not in _AUDIT_ARCH:
        return None
    column = 0 if machine == "x86_64" else 1
    nr = {name: numbers[column] for name, numbers in _NR.items() if numbers[column] is not None}
    p = _Program()
    p.load(_OFF_ARCH)
    p.jump(_JEQ_K, _AUDIT_ARCH[machine], 1, 0)
    p.ret(_RET_KILL)  # another ABI (i386 int 0x80): nothing legitimate does that here
    p.load(_OFF_NR)
    if machine == "x86_64":
        p.jump(_JGE_K, 0x40000000, "other", 0)  # the x32 ABI
    for name, code in _ALWAYS_REFUSED.items():
        if name in nr:
            p.jump(_JEQ_K, nr[name], f"e{code}", 0)
    p.jump(_JEQ_K, nr["clone3"], "enosys", 0)  # glibc falls back to clone, which we can read
    if not processes:
        p.jump(_JEQ_K, nr["clone"], "clone", 0)
    p.jump(_JEQ_K, nr["kill"], "kill", 0)
    for name in ("tkill", "tgkill", "rt_sigqueueinfo", "rt_tgsigqueueinfo"):
        p.jump(_JEQ_K, nr[name], "self", 0)
    p.jump(_JEQ_K, nr["sendto"], "sendto", 0)
    p.ret(_RET_ALLOW)
    p.label("clone")
    p.load(_arg(0))
    p.jump(_JSET_K, _CLONE_THREAD, "allow", f"e{_E_PROC}")
    p.label("kill")
    p.load(_arg(0))
    p.jump(_JEQ_K, 0, "allow", 0)  # its own process group: the child made one of its own
    p.label("self")
    p.load(_arg(0))
    p.jump(_JEQ_K, pid, "allow", f"e{_E_SIGNAL}")
    p.label("sendto")
    p.load(_arg(4))  # dest_addr: NULL on a connected socket
    p.jump(_JEQ_K, 0, 0, f"e{_E_NET}")
    p.load(_arg(4) + 4)
    p.jump(_JEQ_K, 0, "allow", f"e{_E_NET}")
    p.label("allow")
    p.ret(_RET_ALLOW)
    p.label("enosys")
    p.ret(_RET_ERRNO | errno.ENOSYS)
    p.label("other")
    p.ret(_RET_ERRNO | _E_OTHER)
    for code in ERRNO_BLOCKED:
        p.label(f"e{code}")
        p.ret(_RET_ERRNO | code)
    return p.assemble()


class _SockFprog(ctypes.Structure):
    _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.c_void_p)]


_PR_SET_NO_NEW_PRIVS, _PR_SET_SECCOMP, _SECCOMP_MODE_FILTER = 38, 22, 2


def _libc() -> ctypes.CDLL:
    return ctypes.CDLL(None, use_errno=True)


def processes_program(machine: str) -> bytes | None:
    """The filter `no_new_processes` stacks on `seccomp_program`'s: no new process."""
    if machine not in _AUDIT_ARCH:
        return None
    column = 0 if machine == "x86_64" else 1
    p = _Program()
    p.load(_OFF_ARCH)
    p.jump(_JEQ_K, _AUDIT_ARCH[machine], 1, 0)
    p.ret(_RET_KILL)
    p.load(_OFF_NR)
    p.jump(_JEQ_K, _NR["clone3"][column], "enosys", 0)
    p.jump(_JEQ_K, _NR["clone"][column], "clone", 0)
    p.ret(_RET_ALLOW)
    p.label("clone")
    p.load(_arg(0))
    p.jump(_JSET_K, _CLONE_THREAD, "allow", "refuse")
    p.label("allow")
    p.ret(_RET_ALLOW)
    p.label("refuse")
    p.ret(_RET_ERRNO | _E_PROC)
    p.label("enosys")
    p.ret(_RET_ERRNO | errno.ENOSYS)
    return p.assemble()


def _install_program(libc: ctypes.CDLL, program: bytes) -> str | None:
    buffer = ctypes.create_string_buffer(program, len(program))
    fprog = _SockFprog(len(program) // 8, ctypes.addressof(buffer))
    if libc.prctl(_PR_SET_SECCOMP, _SECCOMP_MODE_FILTER, ctypes.byref(fprog), 0, 0) != 0:
        return f"seccomp refused: {os.strerror(ctypes.get_errno())}"
    return None


def _install_seccomp(libc: ctypes.CDLL, processes: bool = False) -> str | None:
    """Install the filter; return None, or why it is not active."""
    program = seccomp_program(os.uname().machine, os.getpid(), processes=processes)
    if program is None:
        return f"no seccomp filter for {os.uname().machine}"
    return _install_program(libc, program)


def no_new_processes() -> str | None:
    """Stack the filter that refuses a new process (filters only add refusals: seccomp
    applies the strictest answer of all). Returns None, or why it failed (the caller
    must then not run the cell). Never raises."""
    try:
        program = processes_program(os.uname().machine)
        if program is None:
            return f"no seccomp filter for {os.uname().machine}"
        return _install_program(_libc(), program)
    except Exception as exc:  # noqa: BLE001
        return f"seccomp failed: {type(exc).__name__}: {exc}"


def read_only_files() -> str | None:
    """Stack a Landlock layer that refuses every file write, creation, removal and rename
    (``/dev/null`` aside), even in the private directory. Returns None, or why it is not
    active. Never raises."""
    try:
        return _install_landlock(_libc(), None)
    except Exception as exc:  # noqa: BLE001
        return f"Landlock failed: {type(exc).__name__}: {exc}"


# ---- Landlock ------------------------------------------------------------------------------

_SYS_CREATE_RULESET, _SYS_ADD_RULE, _SYS_RESTRICT_SELF = 444, 445, 446  # all arches
_LL_WRITE_FILE, _LL_TRUNCATE = 1 << 1, 1 << 14
_LL_FS_V1 = sum(1 << b for b in (1, 4, 5, 6, 7, 8, 9, 10, 11, 12))  # write, remove, make_*
_LL_REFER = 1 << 13


class _PathBeneath(ctypes.Structure):
    _pack_ = 1
    _fields_ = [("allowed_access", ctypes.c_uint64), ("parent_fd", ctypes.c_int32)]


def _install_landlock(libc: ctypes.CDLL, private_dir: str | None) -> str | None:
    """Restrict writes to ``private_dir`` (None: no folder); return None, or why it is not
    active."""
    syscall = libc.syscall
    syscall.restype = ctypes.c_long
    abi = syscall(_SYS_CREATE_RULESET, None, ctypes.c_size_t(0), ctypes.c_uint32(1))
    if abi < 1:
        return f"no Landlock in this kernel ({os.strerror(ctypes.get_errno())})"
    fs = _LL_FS_V1 | (_LL_REFER if abi >= 2 else 0) | (_LL_TRUNCATE if abi >= 3 else 0)
    fields = [fs]
    if abi >= 4:
        fields.append(0b11)  # TCP bind and connect, with no rule allowing any port
    if abi >= 6:
        fields.append(0b10)  # signals out of the domain (abstract unix sockets stay allowed)
    attr = struct.pack(f"={len(fields)}Q", *fields)
    ruleset = syscall(_SYS_CREATE_RULESET, ctypes.c_char_p(attr), ctypes.c_size_t(len(attr)),
                      ctypes.c_uint32(0))
    if ruleset < 0:
        return f"Landlock ruleset refused: {os.strerror(ctypes.get_errno())}"
    try:
        rules = [(private_dir, fs)] if private_dir is not None else []
        rules += [(p, _LL_WRITE_FILE | (fs & _LL_TRUNCATE))
                                       for p in (os.devnull, "/dev/zero", "/dev/full")]
        for path, access in rules:
            try:
                fd = os.open(path, os.O_PATH | os.O_CLOEXEC)
            except OSError:
                continue
            try:
                rule = _PathBeneath(access, fd)
                if syscall(_SYS_ADD_RULE, ruleset, 1, ctypes.byref(rule), 0) != 0:
                    return f"Landlock rule refused: {os.strerror(ctypes.get_errno())}"
            finally:
                os.close(fd)
        if syscall(_SYS_RESTRICT_SELF, ruleset, 0) != 0:
            return f"Landlock refused: {os.strerror(ctypes.get_errno())}"
    finally:
        os.close(ruleset)
    return None


# ---- shared mappings and inherited fds ------------------------------------------------------

_MAPS = re.compile(r"^([0-9a-f]+)-([0-9a-f]+) (\S{4}) [0-9a-f]+ \S+ \d+\s*(.*)$")
_PROT_RW, _MAP_PRIVATE, _MAP_FIXED, _MAP_ANON = 0x3, 0x02, 0x10, 0x20
# Device memory (GPU drivers) cannot be copied; CUDA is refused before any fork anyway.
_SKIP_DEVICES = ("/dev/nvidia", "/dev/dri", "/dev/kfd", "/dev/infiniband")


def privatise_shared_mappings(libc: ctypes.CDLL | None = None) -> tuple[str, ...]:
    """Replace every writable shared mapping by a private copy at the same address.

    Returns the mappings that could not be replaced (described), which the caller treats
    as a reason to stop: writes through them would reach the kernel or a file.
    """
    libc = libc or _libc()
    libc.mmap.restype = ctypes.c_void_p
    libc.mmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int, ctypes.c_int,
                          ctypes.c_int, ctypes.c_long]
    with open("/proc/self/maps") as fh:
        lines = fh.read().splitlines()
    left = []
    for line in lines:
        match = _MAPS.match(line)
        if not match or match[3][1] != "w" or match[3][3] != "s":
            continue
        start, end, path = int(match[1], 16), int(match[2], 16), match[4]
        if path.startswith(_SKIP_DEVICES):
            left.append(f"{path} at {start:#x}")
            continue
        copy = ctypes.string_at(start, end - start) if "r" in match[3] else b""
        got = libc.mmap(start, end - start, _PROT_RW, _MAP_PRIVATE | _MAP_FIXED | _MAP_ANON, -1, 0)
        if got != start:
            left.append(f"{path or 'anonymous'} at {start:#x}")
            continue
        if copy:
            ctypes.memmove(start, copy, len(copy))
    return tuple(left)


_COPY_LIMIT = 64 << 20


def swap_writable_fds(redirect: Callable[[str], str], keep: set[int]) -> tuple[str, ...]:
    """Swap regular files open for writing for overlay copies; return the real paths swapped.

    ``redirect(path)`` copies ``path`` into the overlay (as a write would) and returns the
    copy's path. Files larger than 64 MiB become a sparse copy of the same size (their old
    content reads as zeros in the child) rather than a slow copy.
    """
    swapped = []
    for name in os.listdir("/proc/self/fd"):
        fd = int(name)
        if fd in keep:
            continue
        try:
            with open(f"/proc/self/fdinfo/{fd}") as fh:
                info = dict(line.split(":", 1) for line in fh.read().splitlines() if ":" in line)
            flags = int(info["flags"].strip(), 8)
            if flags & os.O_ACCMODE == os.O_RDONLY:
                continue
            path = os.readlink(f"/proc/self/fd/{fd}")
            if not path.startswith("/") or path.endswith(" (deleted)") or path in (
                    os.devnull, "/dev/zero", "/dev/full"):
                continue
            info = os.fstat(fd)
            if not stat.S_ISREG(info.st_mode):
                continue
            copy = redirect(path) if info.st_size <= _COPY_LIMIT else _sparse_copy(
                redirect, path, info.st_size)
            position = os.lseek(fd, 0, os.SEEK_CUR)
            keep_flags = flags & ~(os.O_CREAT | os.O_TRUNC | os.O_EXCL)
            new = os.open(copy, keep_flags & (os.O_ACCMODE | os.O_APPEND | os.O_SYNC))
            os.lseek(new, position, os.SEEK_SET)
            os.dup2(new, fd, inheritable=os.get_inheritable(fd))
            os.close(new)
            swapped.append(path)
        except (OSError, KeyError, ValueError):
            continue
    return tuple(swapped)


def _sparse_copy(redirect: Callable[..., str], path: str, size: int) -> str:
    copy = redirect(path, content=False)
    os.truncate(copy, size)
    return copy


# ---- putting it together -------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Confinement:
    """Which kernel layers are active in the child, and why any is not."""

    seccomp: bool
    landlock: bool
    notes: tuple[str, ...] = ()


def confine(private_dir: str, *, processes: bool = False) -> Confinement:
    """Turn the kernel layers on in this (child) process; irreversible. Never raises.

    ``processes``: a new process stays allowed until `no_new_processes` (see
    `seccomp_program`)."""
    notes = []
    try:
        libc = _libc()
        if libc.prctl(_PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0:
            return Confinement(False, False, (f"no_new_privs refused: "
                                              f"{os.strerror(ctypes.get_errno())}",))
        landlock = _install_landlock(libc, private_dir)
        seccomp = _install_seccomp(libc, processes)
    except Exception as exc:  # noqa: BLE001 - the Python layer stays in charge
        return Confinement(False, False, (f"kernel layers failed: {type(exc).__name__}: {exc}",))
    notes += [n for n in (landlock, seccomp) if n]
    return Confinement(seccomp is None, landlock is None, tuple(notes))


def blocked_errno(exc: BaseException | None) -> str | None:
    """What the kernel layer refused, if ``exc`` (or its cause/context) is such a refusal."""
    seen = 0
    while exc is not None and seen < 10:
        code = getattr(exc, "errno", None)
        if isinstance(code, int) and code in ERRNO_BLOCKED:
            return ERRNO_BLOCKED[code]
        exc = exc.__cause__ or exc.__context__
        seen += 1
    return None
