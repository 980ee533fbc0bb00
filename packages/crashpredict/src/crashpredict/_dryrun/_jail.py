"""Kernel isolation of a dry run: namespaces, a copy-on-write root, private descriptors.

One declared set of kernel operations, applied in one place and one order (bubblewrap's
and nsjail's way), closing whole classes of side effects rather than listing names:

1. `unshare_namespaces`: new user, mount, network, IPC and PID namespaces. The user
   namespace maps the caller's own uid/gid only and gives no power outside it (no device
   nodes, no raw disks, even for a root kernel); the network namespace has no interface
   (abstract Unix sockets are per namespace too); the PID namespace starts with the next
   child, which is pid 1 there and sees no other process: ``kill``, ``prlimit``,
   ``setpriority``, ``sched_setaffinity``, ``ptrace`` of the kernel's pid find nothing.
2. `build_root` (in that child): a new root in which every directory of the file system is
   an overlayfs over the real one with a private tmpfs as its upper layer, so every write
   by any code (Python, C, a subprocess) lands in memory that vanishes with the namespace;
   a fresh ``/proc`` (this PID namespace only), ``/sys`` read-only, a ``/dev`` holding only
   ``null``, ``zero``, ``full``, ``random``, ``urandom`` and an overlaid ``shm`` (no terminal).
   ``pivot_root`` then detaches the old root: no path reaches the real file system.
3. `snapshot_fds` (before the root changes) and `replace_fds` (after): every inherited
   descriptor is closed or replaced by a private copy. Regular files and folders are
   reopened through the new root at the same offset and flags (a new open file
   description: the kernel's offsets and ``flock`` locks are not shared); deleted files and
   memfds become private copies; pipes, sockets, eventfds, epoll and every other kind
   (the kernel's ZeroMQ sockets among them) become ``/dev/null``.
4. `drop_capabilities`: the capabilities the new user namespace gave are dropped (a root
   kernel keeps its power over files, `ROOT_FILE_CAPS`, which reaches only the overlay).

`suspended_fork_hooks` keeps ``os.register_at_fork`` hooks from running around the
dry run's fork: in the parent (user code in the kernel) and in the child before any of
this exists; the child runs the saved child hooks itself once it is confined.

Where the kernel lacks a piece (no user namespaces, overlayfs refused), `JailError` says
which, and the dry run refuses rather than runs unconfined.
"""

from __future__ import annotations

import contextlib
import ctypes
import errno
import gc
import os
import stat
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

__all__ = ["FdSnapshot", "JailError", "build_root", "drop_capabilities", "fork_hooks_found",
           "replace_fds", "run_saved_child_hooks", "snapshot_fds", "suspended_fork_hooks",
           "unshare_namespaces"]

_CLONE_NEWNS, _CLONE_NEWUTS, _CLONE_NEWIPC = 0x00020000, 0x04000000, 0x08000000
_CLONE_NEWUSER, _CLONE_NEWPID, _CLONE_NEWNET = 0x10000000, 0x20000000, 0x40000000
_MS_RDONLY, _MS_NOSUID, _MS_NODEV, _MS_NOEXEC = 1, 2, 4, 8
_MS_REMOUNT, _MS_BIND, _MS_REC, _MS_PRIVATE = 32, 4096, 16384, 1 << 18
_MNT_DETACH = 2
_SYS_PIVOT_ROOT = {"x86_64": 155, "aarch64": 41}
_SYS_CAPSET = {"x86_64": 126, "aarch64": 91}
_PR_SET_PDEATHSIG, _PR_SET_DUMPABLE, _PR_CAPBSET_DROP = 1, 4, 24
_PR_CAP_AMBIENT, _PR_CAP_AMBIENT_CLEAR_ALL = 47, 4
#: The tmpfs that holds every upper layer: a share of memory, not the disk.
TMPFS_SIZE = "25%"
#: Inherited files up to this size are copied whole when they cannot be reopened by path
#: (deleted files, memfds) or are open for writing; larger ones become sparse copies.
COPY_LIMIT = 64 << 20
#: Device nodes the jail's /dev offers (bind mounts of the real ones).
DEV_NODES = ("null", "zero", "full", "random", "urandom")
_SPECIAL = ("/proc", "/sys", "/dev")


class JailError(OSError):
    """A namespace or mount the jail needs was refused by the kernel."""


def _libc() -> ctypes.CDLL:
    return ctypes.CDLL(None, use_errno=True)


def _check(result: int, what: str) -> None:
    if result != 0:
        code = ctypes.get_errno()
        raise JailError(code, f"{what}: {os.strerror(code)}")


def _mount(libc: ctypes.CDLL, source: str | None, target: str, fstype: str | None,
           flags: int, data: str | None = None) -> int:
    enc = (lambda s: s.encode() if s is not None else None)
    return libc.mount(enc(source), enc(target), enc(fstype), ctypes.c_ulong(flags), enc(data))


# ---- 1. namespaces --------------------------------------------------------------------------

def unshare_namespaces() -> None:
    """Enter new user, mount, network, IPC, UTS and PID namespaces (single-threaded caller).

    The PID namespace applies to the caller's next child. Raises `JailError`.
    """
    uid, gid = os.getuid(), os.getgid()
    libc = _libc()
    _check(libc.unshare(_CLONE_NEWUSER | _CLONE_NEWNS | _CLONE_NEWNET | _CLONE_NEWIPC
                        | _CLONE_NEWUTS | _CLONE_NEWPID), "user namespaces (unshare)")
    for name, text in (("setgroups", "deny"), ("uid_map", f"{uid} {uid} 1"),
                       ("gid_map", f"{gid} {gid} 1")):
        try:
            with open(f"/proc/self/{name}", "w") as fh:
                fh.write(text)
        except OSError as exc:
            if name != "setgroups":  # older kernels have no setgroups file
                raise JailError(exc.errno or errno.EPERM, f"user namespace {name}: {exc}") from exc


def undumpable() -> None:
    """No process of the same user may ptrace this one or open its /proc/PID/mem."""
    _libc().prctl(_PR_SET_DUMPABLE, 0, 0, 0, 0)


def die_with_parent() -> None:
    """The calling process gets SIGKILL when its parent dies."""
    _libc().prctl(_PR_SET_PDEATHSIG, 9, 0, 0, 0)


# ---- 2. the copy-on-write root ---------------------------------------------------------------

def _unescape(path: str) -> str:
    return path.replace("\\040", " ").replace("\\011", "\t").replace("\\012", "\n") \
        .replace("\\134", "\\")


def _mount_points() -> list[str]:
    with open("/proc/self/mountinfo") as fh:
        return [_unescape(line.split()[4]) for line in fh if len(line.split()) > 4]


@dataclass(slots=True)
class _Builder:
    libc: ctypes.CDLL
    layers: str
    mounts: list[str]
    count: int = 0
    notes: list[str] | None = None

    def has_mounts_below(self, path: str) -> bool:
        prefix = path.rstrip("/") + "/"
        return any(m.startswith(prefix) for m in self.mounts)

    def overlay(self, lower: str, target: str) -> None:
        self.count += 1
        upper, work = f"{self.layers}/u{self.count}", f"{self.layers}/w{self.count}"
        os.mkdir(upper)
        os.mkdir(work)
        escaped = lower.replace("\\", "\\\\").replace(",", "\\,").replace(":", "\\:")
        options = f"lowerdir={escaped},upperdir={upper},workdir={work}"
        # userxattr: overlayfs in a user namespace keeps its metadata in user.* xattrs;
        # without them removing a lower folder fails (EIO) and renaming one fails (EXDEV)
        for extra in (",userxattr", ""):
            if _mount(self.libc, "overlay", target, "overlay", _MS_NOSUID,
                      options + extra) == 0:
                return
        code = ctypes.get_errno()
        # A file system overlayfs cannot stack on: visible, read-only.
        if _mount(self.libc, lower, target, None, _MS_BIND | _MS_REC) == 0:
            if _mount(self.libc, None, target, None,
                      _MS_REMOUNT | _MS_BIND | _MS_RDONLY | _MS_NOSUID) == 0:
                self._note(f"{lower}: read-only (overlayfs refused: {os.strerror(code)})")
                self._read_only_below(target)
                return
            _mount(self.libc, None, target, None, _MS_REMOUNT | _MS_BIND | _MS_RDONLY)
            self.libc.umount2(target.encode(), _MNT_DETACH)
        self._note(f"{lower}: hidden (overlayfs refused: {os.strerror(code)})")

    def _read_only_below(self, target: str) -> None:
        prefix = target.rstrip("/") + "/"
        for point in _mount_points():
            if point.startswith(prefix):
                _mount(self.libc, None, point, None, _MS_REMOUNT | _MS_BIND | _MS_RDONLY)

    def _note(self, text: str) -> None:
        if self.notes is not None:
            self.notes.append(text)

    def tree(self, src: str, dst: str) -> None:
        """Mirror ``src`` (a folder with mounts below it) into ``dst`` on the tmpfs root."""
        with os.scandir(src) as entries:
            items = list(entries)
        for entry in items:
            path, target = entry.path, os.path.join(dst, entry.name)
            if src == "/" and path in _SPECIAL:
                continue
            try:
                if entry.is_symlink():
                    os.symlink(os.readlink(path), target)
                elif entry.is_dir(follow_symlinks=False):
                    os.mkdir(target, 0o755)
                    if self.has_mounts_below(path):
                        self.tree(path, target)
                    else:
                        self.overlay(path, target)
                elif entry.is_file(follow_symlinks=False):
                    self.file(path, target)
            except OSError as exc:
                self._note(f"{path}: {exc.strerror or exc}")

    def file(self, path: str, target: str) -> None:
        size = os.lstat(path).st_size
        if size <= 1 << 20:
            with open(path, "rb") as fh, open(target, "wb") as out:
                out.write(fh.read(size))
            return
        with open(target, "wb"):
            pass
        if _mount(self.libc, path, target, None, _MS_BIND) == 0:
            _mount(self.libc, None, target, None, _MS_REMOUNT | _MS_BIND | _MS_RDONLY)

    def gpu_devices(self, target: str) -> None:
        import glob

        for pattern in GPU_DEVICES:
            for node in glob.glob(f"/dev/{pattern}"):
                if not os.path.exists(node) or os.path.isdir(node):
                    continue
                copy = target + node[len("/dev"):]
                os.makedirs(os.path.dirname(copy), exist_ok=True)
                with open(copy, "w"):
                    pass
                if _mount(self.libc, node, copy, None, _MS_BIND) != 0:
                    os.unlink(copy)

    def dev(self, target: str) -> None:
        os.mkdir(target, 0o755)
        _check(_mount(self.libc, "tmpfs", target, "tmpfs", _MS_NOSUID | _MS_NOEXEC,
                      "mode=755,size=1m"), "tmpfs for /dev")
        for name in DEV_NODES:
            node = f"{target}/{name}"
            if not os.path.exists(f"/dev/{name}"):
                continue
            with open(node, "w"):
                pass
            if _mount(self.libc, f"/dev/{name}", node, None, _MS_BIND) != 0:
                os.unlink(node)
        for name, link in (("fd", "/proc/self/fd"), ("stdin", "/proc/self/fd/0"),
                           ("stdout", "/proc/self/fd/1"), ("stderr", "/proc/self/fd/2")):
            os.symlink(link, f"{target}/{name}")
        os.mkdir(f"{target}/shm", 0o1777)
        if os.path.isdir("/dev/shm") and not self.has_mounts_below("/dev/shm"):
            self.overlay("/dev/shm", f"{target}/shm")
        else:
            _mount(self.libc, "tmpfs", f"{target}/shm", "tmpfs", _MS_NOSUID | _MS_NODEV,
                   "mode=1777")


#: Device nodes of GPUs, passed to the replay kernel (never to a dry run's child).
GPU_DEVICES = ("nvidia*", "nvidia-caps/*", "dri/*", "kfd")


def build_root(private_dir: str, *, cwd: str | None = None,
               writable: Sequence[str] = (), gpu: bool = False) -> tuple[str, ...]:
    """Make a copy-on-write view of the whole file system the root of this mount namespace.

    Call after `unshare_namespaces`, in the PID namespace's first process (``/proc`` is
    mounted for it). ``writable`` folders are bind-mounted as they are (the replay kernel's
    socket folder); everything else is an overlay whose writes stay in memory. ``gpu``
    passes the GPU device nodes (`GPU_DEVICES`) through to ``/dev``.
    Returns notes on what could not be overlaid. Raises `JailError`.
    """
    libc = _libc()
    cwd = cwd if cwd is not None else _cwd()
    _check(_mount(libc, None, "/", None, _MS_REC | _MS_PRIVATE), "a private mount namespace")
    base = os.path.join(private_dir, "jail")
    os.makedirs(base, exist_ok=True)
    _check(_mount(libc, "tmpfs", base, "tmpfs", _MS_NOSUID | _MS_NODEV,
                  f"size={TMPFS_SIZE},mode=700"), "tmpfs for the overlay layers")
    root, layers = f"{base}/root", f"{base}/layers"
    os.mkdir(root, 0o755)
    os.mkdir(layers, 0o700)
    _check(_mount(libc, root, root, None, _MS_BIND), "the new root")
    notes: list[str] = []
    builder = _Builder(libc, layers, [m for m in _mount_points() if not
                                      m.startswith(base.rstrip("/") + "/") and m != base],
                       notes=notes)
    overlay_probe = f"{layers}/probe"
    os.mkdir(overlay_probe)
    builder.overlay("/usr" if os.path.isdir("/usr") else "/etc", overlay_probe)
    if notes:
        raise JailError(errno.EPERM, f"overlayfs: {notes[0]}")
    libc.umount2(overlay_probe.encode(), _MNT_DETACH)
    builder.tree("/", root)
    os.mkdir(f"{root}/proc", 0o555)
    _check(_mount(libc, "proc", f"{root}/proc", "proc", _MS_NOSUID | _MS_NODEV | _MS_NOEXEC),
           "a /proc of the PID namespace")
    os.mkdir(f"{root}/sys", 0o555)
    if _mount(libc, "sysfs", f"{root}/sys", "sysfs",
              _MS_RDONLY | _MS_NOSUID | _MS_NODEV | _MS_NOEXEC) != 0:
        notes.append(f"/sys: hidden ({os.strerror(ctypes.get_errno())})")
    builder.dev(f"{root}/dev")
    if gpu:
        builder.gpu_devices(f"{root}/dev")
    for folder in writable:
        target = root + os.path.abspath(folder)
        os.makedirs(target, exist_ok=True)
        _check(_mount(libc, folder, target, None, _MS_BIND), f"bind {folder}")
    old = f"{root}/.oldroot"
    os.mkdir(old, 0o700)
    syscall = libc.syscall
    syscall.restype = ctypes.c_long
    number = _SYS_PIVOT_ROOT.get(os.uname().machine)
    if number is None:
        raise JailError(errno.ENOSYS, f"pivot_root on {os.uname().machine}")
    _check(syscall(number, root.encode(), old.encode()), "pivot_root")
    os.chdir("/")
    _check(libc.umount2(b"/.oldroot", _MNT_DETACH), "detaching the old root")
    os.rmdir("/.oldroot")
    try:
        os.chdir(cwd)
    except OSError:
        os.chdir("/")
    return tuple(notes)


def _cwd() -> str:
    try:
        return os.getcwd()
    except OSError:
        return "/"


# ---- 3. inherited descriptors -----------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class FdSnapshot:
    """What an inherited descriptor was, taken before the root changed."""

    fd: int
    kind: str  # "file" | "dir" | "copy" | "null"
    path: str = ""
    flags: int = 0
    offset: int = 0
    size: int = 0


_SAFE_DEVICES = frozenset(f"/dev/{n}" for n in DEV_NODES)


def snapshot_fds(keep: set[int]) -> list[FdSnapshot]:
    """Every open descriptor but ``keep``, as `replace_fds` will need it."""
    out = []
    for name in os.listdir("/proc/self/fd"):
        fd = int(name)
        if fd in keep:
            continue
        try:
            info = os.fstat(fd)
        except OSError:
            continue
        flags = _fd_flags(fd)
        try:
            path = os.readlink(f"/proc/self/fd/{fd}")
        except OSError:
            path = ""
        if stat.S_ISREG(info.st_mode):
            offset = _offset(fd)
            same = False
            if path.startswith("/") and not path.endswith(" (deleted)"):
                try:
                    now = os.stat(path)
                    same = (now.st_dev, now.st_ino) == (info.st_dev, info.st_ino)
                except OSError:
                    pass
            writable = flags & os.O_ACCMODE != os.O_RDONLY
            kind = "file" if same and not (writable and info.st_size > COPY_LIMIT) else "copy"
            out.append(FdSnapshot(fd, kind, path, flags, offset, info.st_size))
        elif stat.S_ISDIR(info.st_mode) and path.startswith("/"):
            out.append(FdSnapshot(fd, "dir", path, flags))
        elif stat.S_ISCHR(info.st_mode) and path in _SAFE_DEVICES:
            out.append(FdSnapshot(fd, "file", path, flags))
        else:
            out.append(FdSnapshot(fd, "null", path, flags))
    return out


def _fd_flags(fd: int) -> int:
    try:
        with open(f"/proc/self/fdinfo/{fd}") as fh:
            for line in fh:
                if line.startswith("flags:"):
                    return int(line.split(":", 1)[1].strip(), 8)
    except (OSError, ValueError):
        pass
    return os.O_RDONLY


def _offset(fd: int) -> int:
    try:
        return os.lseek(fd, 0, os.SEEK_CUR)
    except OSError:
        return 0


_KEEP_FLAGS = os.O_ACCMODE | os.O_APPEND | os.O_NONBLOCK | os.O_SYNC


def _private_copy(fd: int, snap: FdSnapshot) -> int:
    """A memfd holding the file's content (sparse past `COPY_LIMIT`), at the same offset."""
    new = os.memfd_create(f"dryrun-fd{fd}", 0)
    if snap.size <= COPY_LIMIT:
        done = 0
        while done < snap.size:
            chunk = os.pread(fd, min(1 << 20, snap.size - done), done)
            if not chunk:
                break
            os.write(new, chunk)
            done += len(chunk)
    os.ftruncate(new, snap.size)
    os.lseek(new, snap.offset, os.SEEK_SET)
    return new


def copy_unreachable(snaps: list[FdSnapshot]) -> dict[int, int]:
    """Private copies of the descriptors that cannot be reopened by path; call before the
    root changes (they are read through the inherited description, with pread)."""
    copies = {}
    for snap in snaps:
        if snap.kind == "copy":
            try:
                copies[snap.fd] = _private_copy(snap.fd, snap)
            except OSError:
                pass
    return copies


def replace_fds(snaps: list[FdSnapshot], copies: dict[int, int]) -> None:
    """Replace each snapshotted descriptor by a private one (see the module docstring)."""
    null = os.open("/dev/null", os.O_RDWR)
    try:
        for snap in snaps:
            new = copies.pop(snap.fd, None)
            if new is None and snap.kind in ("file", "dir"):
                flags = snap.flags & _KEEP_FLAGS
                if snap.kind == "dir":
                    flags = os.O_RDONLY | os.O_DIRECTORY
                try:
                    new = os.open(snap.path, flags | os.O_CLOEXEC)
                    if snap.kind == "file" and snap.offset:
                        os.lseek(new, snap.offset, os.SEEK_SET)
                except OSError:
                    new = None
            try:
                os.dup2(new if new is not None else null, snap.fd,
                        inheritable=os.get_inheritable(snap.fd))
            except OSError:
                pass
            if new is not None:
                os.close(new)
    finally:
        os.close(null)
        for fd in copies.values():
            os.close(fd)


# ---- 4. capabilities --------------------------------------------------------------------------

class _CapHeader(ctypes.Structure):
    _fields_ = [("version", ctypes.c_uint32), ("pid", ctypes.c_int)]


class _CapData(ctypes.Structure):
    _fields_ = [("effective", ctypes.c_uint32), ("permitted", ctypes.c_uint32),
                ("inheritable", ctypes.c_uint32)]


#: What root may do to files, kept by a root kernel in its jail so that its writes (all
#: into the overlay) succeed or fail as they would for real: chown, dac_override,
#: dac_read_search, fowner, fsetid.
ROOT_FILE_CAPS = (0, 1, 2, 3, 4)


def drop_capabilities(keep: Sequence[int] = ()) -> None:
    """Drop the bounding set and every capability of this process (in its user namespace)
    but ``keep`` (numbers below 32); the ambient set is cleared. Raises `JailError`."""
    libc = _libc()
    for cap in range(64):
        if cap in keep:
            continue
        if libc.prctl(_PR_CAPBSET_DROP, cap, 0, 0, 0) != 0:
            if ctypes.get_errno() == errno.EINVAL:  # past the last capability
                break
            code = ctypes.get_errno()
            raise JailError(code, f"dropping capability {cap}: {os.strerror(code)}")
    libc.prctl(_PR_CAP_AMBIENT, _PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0)
    number = _SYS_CAPSET.get(os.uname().machine)
    if number is None:
        return
    header = _CapHeader(0x20080522, 0)
    data = (_CapData * 2)()
    mask = sum(1 << cap for cap in keep if cap < 32)
    data[0].effective = data[0].permitted = mask
    if libc.syscall(number, ctypes.byref(header), ctypes.byref(data)) != 0:
        code = ctypes.get_errno()
        raise JailError(code, f"capset: {os.strerror(code)}")


# ---- fork hooks ---------------------------------------------------------------------------------

def _sentinel_before() -> None:
    return None


def _sentinel_parent() -> None:
    return None


def _sentinel_child() -> None:
    return None


os.register_at_fork(before=_sentinel_before, after_in_parent=_sentinel_parent,
                    after_in_child=_sentinel_child)
_HOOK_LISTS: list[list[Callable[[], object]]] | None = None
_SAVED_CHILD: list[Callable[[], object]] = []


def _hook_lists() -> list[list[Callable[[], object]]]:
    """The interpreter's three lists of ``os.register_at_fork`` hooks (found once, by the
    sentinels registered above)."""
    global _HOOK_LISTS
    if _HOOK_LISTS is None:
        found = []
        for sentinel in (_sentinel_before, _sentinel_parent, _sentinel_child):
            for ref in gc.get_referrers(sentinel):
                if type(ref) is list and any(item is sentinel for item in ref):
                    found.append(ref)
                    break
        _HOOK_LISTS = found
    return _HOOK_LISTS


def fork_hooks_found() -> None:
    """Find the fork hook lists now (`gc.get_referrers` scans every object: tens of ms in a
    large process), not at the first fork."""
    _hook_lists()


@contextlib.contextmanager
def suspended_fork_hooks() -> Iterator[None]:
    """Around ``os.fork``: no ``register_at_fork`` hook runs, in the parent or the child.

    The child's hooks are kept for `run_saved_child_hooks` (the child's copy of this
    module holds them).
    """
    lists = _hook_lists()
    parent = os.getpid()
    saved = [lst[:] for lst in lists]
    if len(lists) == 3:
        _SAVED_CHILD[:] = [h for h in lists[2] if h is not _sentinel_child]
    for lst in lists:
        lst.clear()
    try:
        yield
    finally:
        if os.getpid() == parent:  # the child leaves them empty for its own forks
            for lst, items in zip(lists, saved):
                lst[:] = items


def run_saved_child_hooks() -> None:
    """In the confined child: run the ``after_in_child`` hooks the fork skipped (a
    library's lock re-initialisation), each guarded."""
    for hook in _SAVED_CHILD:
        try:
            hook()
        except BaseException:  # noqa: BLE001 - a user's hook must not end the dry run
            pass
