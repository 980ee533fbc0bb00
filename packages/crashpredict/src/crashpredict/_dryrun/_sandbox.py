"""The side-effect policy of a dry run's child process: PEP 578 audit hooks and writer guards.

Everything here runs only in the forked child, never in the user's kernel: an audit hook
cannot be removed once added, and the guards monkeypatch library classes.

The policy blocks what would change the world outside the child: files opened for
writing (outside the child's private temp dir), files and directories created, removed,
renamed or re-permissioned, sockets connecting/binding/sending, subprocesses, ``os.system``
and ``exec*``, further forks, signals to other processes, and shutil's copy/move/remove
operations. Libraries that write files from C (HDF5, torch's zip writer, TensorFlow's file
system) raise no audit event, so their Python entry points get a guard instead.

A blocked event raises `Blocked`, a BaseException so that a cell's ``except Exception``
cannot swallow it; the first blocked event is also recorded, so the dry run reports it
even when the cell catches it anyway.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import Any

__all__ = ["Blocked", "Policy", "install", "refuse_writes"]

_WRITE_FLAGS = os.O_WRONLY | os.O_RDWR | os.O_APPEND | os.O_CREAT | os.O_TRUNC
# Paths a write to which changes nothing anyone else sees.
_HARMLESS_PATHS = frozenset({os.devnull, "/dev/zero", "/dev/full"})

# event -> (verb used in the message, indexes of the path arguments). shutil's events are
# not here: its copies, moves and removals go through the overlay's patched functions, each
# of which is audited on its own.
_PATH_EVENTS: Mapping[str, tuple[str, tuple[int, ...]]] = MappingProxyType({
    "os.remove": ("os.remove", (0,)), "os.rmdir": ("os.rmdir", (0,)),
    "os.mkdir": ("os.mkdir", (0,)), "os.rename": ("os.rename", (0, 1)),
    "os.link": ("os.link", (0, 1)), "os.symlink": ("os.symlink", (0, 1)),
    "os.truncate": ("os.truncate", (0,)), "os.chmod": ("os.chmod", (0,)),
    "os.chown": ("os.chown", (0,)), "os.utime": ("os.utime", (0,)),
    "os.chflags": ("os.chflags", (0,)), "os.lchflags": ("os.lchflags", (0,)),
    "os.lchmod": ("os.lchmod", (0,)), "os.mkfifo": ("os.mkfifo", (0,)),
    "os.mknod": ("os.mknod", (0,)), "os.setxattr": ("os.setxattr", (0,)),
    "os.removexattr": ("os.removexattr", (0,)),
})
# Events blocked whatever their arguments: they reach other processes or the network.
_ALWAYS: Mapping[str, str] = MappingProxyType({
    "subprocess.Popen": "subprocess", "os.system": "os.system", "os.exec": "os.exec",
    "os.posix_spawn": "os.posix_spawn", "os.spawn": "os.spawn", "os.fork": "os.fork",
    "os.forkpty": "os.forkpty", "pty.spawn": "pty.spawn", "os.startfile": "os.startfile",
    "socket.connect": "socket connect", "socket.bind": "socket bind",
    "socket.sendto": "socket sendto", "socket.sendmsg": "socket sendmsg",
    "socket.getaddrinfo": "DNS lookup", "socket.gethostbyname": "DNS lookup",
    "socket.gethostbyaddr": "DNS lookup", "urllib.Request": "URL request",
    "webbrowser.open": "webbrowser.open", "ftplib.connect": "FTP connection",
    "smtplib.connect": "SMTP connection", "http.client.connect": "HTTP connection",
    "signal.pthread_kill": "signal.pthread_kill",
})


class Blocked(BaseException):
    """A side effect the dry run refused; it ends the dry run as inconclusive."""


def _record(policy: Policy, what: str, _blocked: type = Blocked) -> None:
    if policy.blocked is None:
        policy.blocked = what
    raise _blocked(what)


def _private_to(private_dir: str, path: Any) -> bool:
    try:
        text = os.fsdecode(os.fspath(path))
    except TypeError:
        return False
    if text in _HARMLESS_PATHS:
        return True
    full = os.path.realpath(text)
    return full == private_dir or full.startswith(private_dir + os.sep)


def _fd_path(fd: int) -> str:
    try:
        return os.readlink(f"/proc/self/fd/{fd}")
    except OSError:
        return f"fd {fd}"


# event -> {index of a path argument: index of its dir_fd argument} (CPython's audit args)
_DIR_FD_OF: Mapping[str, Mapping[int, int]] = MappingProxyType({
    "os.remove": {0: 1}, "os.rmdir": {0: 1}, "os.mkdir": {0: 2}, "os.rename": {0: 2, 1: 3},
    "os.link": {0: 2, 1: 3}, "os.symlink": {1: 2}, "os.chmod": {0: 2}, "os.chown": {0: 3},
    "os.utime": {0: 3}, "os.mkfifo": {0: 2}, "os.mknod": {0: 3},
})


def _under_dir_fd(path: Any, dir_fd: Any) -> Any:
    """``path`` made absolute against ``dir_fd`` (shutil.rmtree's fd-based walk uses it)."""
    if not isinstance(dir_fd, int) or dir_fd < 0 or isinstance(path, int):
        return path
    try:
        text = os.fsdecode(os.fspath(path))
    except TypeError:
        return path
    if os.path.isabs(text):
        return text
    return os.path.join(_fd_path(dir_fd), text)


def _unshadowed(private_dir: str, path: Any) -> Any:
    """The path the cell named, for a file of the overlay (`_overlay`: the copy of
    ``/abs/p`` is ``<private>/overlay/abs/p``), relative to the working folder when it is
    in it: a link there to a file outside is refused by its own name (``'dangling'``)."""
    try:
        text = os.fsdecode(os.fspath(path))
    except TypeError:
        return path
    prefix = os.path.join(private_dir, "overlay")
    if not text.startswith(prefix + os.sep):
        return path
    real = text[len(prefix):]
    try:
        cwd = os.getcwd()
    except OSError:
        return real
    return os.path.relpath(real, cwd) if real.startswith(cwd.rstrip(os.sep) + os.sep) else real


def _decide(private_dir: str, event: str, args: tuple[Any, ...]) -> str | None:
    """What ``event`` would do outside the child (the text to block it with), or None."""
    if event == "open":
        path, mode, flags = (tuple(args) + (None, None, 0))[:3]
        if isinstance(path, int) or path is None:
            return None  # an fd already open: its creation was checked (or predates the fork)
        writing = bool((flags or 0) & _WRITE_FLAGS) or bool(
            isinstance(mode, str) and set(mode) & set("wax+"))
        if writing and not _private_to(private_dir, path):
            path = _unshadowed(private_dir, path)
            return f"open({_show(path)}, {mode!r})" if mode else f"os.open({_show(path)})"
        return None
    if event in _PATH_EVENTS:
        verb, where = _PATH_EVENTS[event]
        paths = [args[i] for i in where if i < len(args)]
        dir_fds = _DIR_FD_OF.get(event, {})
        resolved = [_under_dir_fd(args[i], args[dir_fds[i]] if dir_fds.get(i, 99) < len(args)
                                  else None) for i in where if i < len(args)]
        if not all(_private_to(private_dir, p) for p in resolved):
            return f"{verb}({', '.join(_show(p) for p in paths)})"
        return None
    if event in _ALWAYS:
        return _describe_always(event, args)
    if event in ("os.kill", "os.killpg") and not (args and args[0] in (os.getpid(), 0)):
        return f"{event}({', '.join(map(repr, args))})"
    if event == "sqlite3.connect" and args and args[0] not in (":memory:", "", b""):
        if not _private_to(private_dir, args[0]):
            return f"sqlite3.connect({_show(args[0])})"
    if event == "mmap.__new__" and args and isinstance(args[0], int) and args[0] >= 0:
        access = args[2] if len(args) > 2 else 0
        if access not in (1, 3) and not _private_to(private_dir, _fd_path(args[0])):
            return f"mmap of {_fd_path(args[0])!r} for writing"  # ACCESS_READ, ACCESS_COPY
    return None


class Policy:
    """The audit-hook policy: what is allowed, and the first event that was blocked.

    `install` hands the audit hook a closure over the functions as they are at install
    time, so a cell that rebinds ``Policy.hook``, ``Policy.block`` or this module's
    functions does not change what the installed hook decides.
    """

    def __init__(self, private_dir: str) -> None:
        self.private_dir = os.path.realpath(private_dir)
        self.blocked: str | None = None
        #: set by the child around the one fork of its own (`_sibling`), before any code of
        #: the cell runs; the kernel layer refuses every fork after that
        #: (`_confine.no_new_processes`), whatever a cell sets here
        self.forking = False

    def block(self, what: str, _record: Callable[[Policy, str], None] = _record) -> None:
        """Record ``what`` (first one wins) and raise `Blocked`."""
        _record(self, what)  # bound at definition: rebinding the module's _record is no way out

    def _private(self, path: Any) -> bool:
        return _private_to(self.private_dir, path)

    def hook(self, event: str, args: tuple[Any, ...]) -> None:
        """The audit hook: raise `Blocked` for a side effect outside the child."""
        what = _decide(self.private_dir, event, args)
        if what is not None:
            _record(self, what)


def _frozen_hook(policy: Policy) -> Callable[[str, tuple[Any, ...]], None]:
    decide, record, private_dir = _decide, _record, policy.private_dir

    def hook(event: str, args: tuple[Any, ...]) -> None:
        if event == "os.fork" and policy.forking:
            return
        what = decide(private_dir, event, args)
        if what is not None:
            record(policy, what)
    return hook


#: No path is under this folder: `refuse_writes` blocks a write wherever it goes.
_NOWHERE = "/nonexistent-crashpredict-nowhere"


def refuse_writes(policy: Policy) -> None:
    """Add an audit hook that blocks every file write, creation, removal and rename, even
    in the private folder: the shrunk sibling (`_sibling`) shares the child's file
    system, and whatever it wrote the whole run could read."""
    decide, record = _decide, _record

    def hook(event: str, args: tuple[Any, ...]) -> None:
        if event == "open" or event in _PATH_EVENTS:
            what = decide(_NOWHERE, event, args)
            if what is not None:
                record(policy, f"{what} (the run on the first rows writes no file)")
    sys.addaudithook(hook)


def _show(path: Any) -> str:
    try:
        return repr(os.fsdecode(os.fspath(path)))
    except TypeError:
        return repr(path)


def _describe_always(event: str, args: tuple[Any, ...]) -> str:
    name = _ALWAYS[event]
    if event == "subprocess.Popen" and len(args) > 1:
        argv = args[1]
        shown = argv if isinstance(argv, (str, bytes)) else " ".join(map(str, argv or ()))
        return f"subprocess {str(shown)[:80]!r}"
    if event == "os.system" and args:
        return f"os.system({str(args[0])[:80]!r})"
    if event.startswith("socket.") and len(args) > 1:
        return f"{name} to {args[1]!r}"[:120]
    if event == "urllib.Request" and args:
        return f"URL request {args[0]!r}"[:120]
    return name


# ---- writers and readers that bypass the audit hooks (C-level file access) ----------------
#
# torch's zip writer, HDF5, pyarrow and TensorFlow's file system open files from C: no
# audit event, no patched ``open``. Their Python entry points get the path argument
# rewritten to the overlay instead (writes to the overlay copy, reads see it), so the cell
# still works and the overlay's report names what it would have written.

def _rewrite(owner: Any, attr: str, index: int, names: tuple[str, ...],
             where: Callable[[Any, Any], Any]) -> None:
    """Wrap ``owner.attr`` so that its path argument goes through ``where(path, call)``."""
    original = getattr(owner, attr, None) if owner is not None else None
    if original is None or getattr(original, "_crashpredict_guard", False):
        return

    def rewritten(*args: Any, **kwargs: Any) -> Any:
        name = next((n for n in names if n in kwargs), None)
        target = kwargs[name] if name else args[index] if len(args) > index else None
        # A file object (BytesIO, an open file) went through the patched open already.
        if isinstance(target, (str, bytes, os.PathLike)):
            new = where(target, (args, kwargs))
            if name:
                kwargs[name] = new
            else:
                args = args[:index] + (new,) + args[index + 1:]
        return original(*args, **kwargs)

    rewritten._crashpredict_guard = True  # type: ignore[attr-defined]
    try:
        setattr(owner, attr, rewritten)
    except (AttributeError, TypeError):  # a C type that refuses new attributes
        pass


def _install_guards(overlay: Any) -> None:
    """Point the C-level writers and readers of imported libraries at the overlay."""

    def write(path: Any, _call: Any) -> Any:
        return overlay.for_write(path, content=False)

    def read(path: Any, _call: Any) -> Any:
        return overlay.for_read(path)

    def h5(path: Any, call: Any) -> Any:
        args, kwargs = call
        mode = kwargs.get("mode", args[2] if len(args) > 2 else "r") or "r"
        if mode == "r":
            return overlay.for_read(path)
        return overlay.for_write(path, content=mode in ("r+", "a"))

    mods = sys.modules
    if "torch" in mods:
        _rewrite(mods["torch"], "save", 1, ("f",), write)
        _rewrite(mods["torch"], "load", 0, ("f",), read)
    for name in ("keras", "tf_keras"):
        keras = mods.get(name)
        model = getattr(keras, "Model", None)
        if model is not None:  # index 1: args[0] is the model itself
            _rewrite(model, "save", 1, ("filepath",), write)
            _rewrite(model, "save_weights", 1, ("filepath",), write)
            _rewrite(model, "load_weights", 1, ("filepath",), read)
        _rewrite(getattr(keras, "models", None), "load_model", 0, ("filepath",), read)
    tf = mods.get("tensorflow")
    if tf is not None:
        _rewrite(getattr(tf, "saved_model", None), "save", 1, ("export_dir",), write)
        _rewrite(getattr(tf, "saved_model", None), "load", 0, ("export_dir",), read)
        _rewrite(getattr(tf, "io", None), "write_file", 0, ("filename",), write)
        _rewrite(getattr(tf, "io", None), "read_file", 0, ("filename",), read)
    h5py = mods.get("h5py")
    if h5py is not None:
        _rewrite(h5py.File, "__init__", 1, ("name",), h5)  # args[0] is the File
    pandas = mods.get("pandas")
    if pandas is not None:
        for attr in ("to_parquet", "to_feather", "to_hdf", "to_orc", "to_stata"):
            _rewrite(pandas.DataFrame, attr, 1, ("path", "path_or_buf", "fname"), write)
        for attr in ("read_parquet", "read_feather", "read_hdf", "read_orc", "read_stata"):
            _rewrite(pandas, attr, 0, ("path", "path_or_buf", "filepath_or_buffer"), read)
    if "cv2" in mods:
        _rewrite(mods["cv2"], "imwrite", 0, ("filename",), write)
        _rewrite(mods["cv2"], "imread", 0, ("filename",), read)
    # the gradient boosting libraries write and read models in C++; CatBoost also writes
    # its training logs into a folder (``train_dir``, "catboost_info" by default)
    xgboost = mods.get("xgboost")
    booster = getattr(xgboost, "Booster", None)
    if booster is not None:
        _rewrite(booster, "save_model", 1, ("fname",), write)
        _rewrite(booster, "load_model", 1, ("fname",), read)
    lightgbm = mods.get("lightgbm")
    booster = getattr(lightgbm, "Booster", None)
    if booster is not None:
        _rewrite(booster, "save_model", 1, ("filename",), write)
        _rewrite(booster, "__init__", 3, ("model_file",), read)  # args[0] is the Booster
    catboost = getattr(mods.get("catboost.core"), "CatBoost", None)
    if catboost is not None:
        _rewrite(catboost, "save_model", 1, ("fname",), write)
        _rewrite(catboost, "load_model", 1, ("fname",), read)
        _guard_catboost_train_dir(catboost, overlay)


def _guard_catboost_train_dir(model: Any, overlay: Any) -> None:
    original = getattr(model, "_train", None)
    if original is None or getattr(original, "_crashpredict_guard", False):
        return

    def _train(self: Any, pool: Any, test_pool: Any, params: Any, *args: Any, **kwargs: Any) -> Any:
        if isinstance(params, dict) and params.get("allow_writing_files", True) is not False:
            params = {**params,
                      "train_dir": overlay.for_write_dir(params.get("train_dir") or "catboost_info")}
        return original(self, pool, test_pool, params, *args, **kwargs)

    _train._crashpredict_guard = True  # type: ignore[attr-defined]
    try:
        model._train = _train
    except (AttributeError, TypeError):
        pass


def _block_direct_calls(policy: Policy) -> None:
    """Calls that raise no audit event but reach other processes: refuse them by name."""
    record = _record

    def refuse(what: str) -> Callable[..., Any]:
        def refused(*_args: Any, **_kwargs: Any) -> Any:
            record(policy, what)
        return refused

    posix = sys.modules.get("_posixsubprocess")
    if posix is None:
        import _posixsubprocess as posix
    posix.fork_exec = refuse("_posixsubprocess.fork_exec (a new process)")
    import signal

    if hasattr(signal, "pidfd_send_signal"):
        signal.pidfd_send_signal = refuse("signal.pidfd_send_signal")


def install(private_dir: str, overlay: Any = None) -> Policy:
    """Install the policy in this (child) process and return it; it cannot be undone.

    With ``overlay`` (an `_overlay.Overlay`), libraries that write from C are pointed at
    it; the audit hook then allows writes under ``private_dir`` only.
    """
    policy = Policy(private_dir)
    if overlay is not None:
        _install_guards(overlay)
    _block_direct_calls(policy)
    sys.addaudithook(_frozen_hook(policy))
    return policy
