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
from collections.abc import Callable
from typing import Any

__all__ = ["Blocked", "Policy", "install"]

_WRITE_FLAGS = os.O_WRONLY | os.O_RDWR | os.O_APPEND | os.O_CREAT | os.O_TRUNC
# Paths a write to which changes nothing anyone else sees.
_HARMLESS_PATHS = frozenset({os.devnull, "/dev/zero", "/dev/full"})

# event -> (verb used in the message, indexes of the path arguments)
_PATH_EVENTS: dict[str, tuple[str, tuple[int, ...]]] = {
    "os.remove": ("os.remove", (0,)), "os.rmdir": ("os.rmdir", (0,)),
    "os.mkdir": ("os.mkdir", (0,)), "os.rename": ("os.rename", (0, 1)),
    "os.link": ("os.link", (0, 1)), "os.symlink": ("os.symlink", (0, 1)),
    "os.truncate": ("os.truncate", (0,)), "os.chmod": ("os.chmod", (0,)),
    "os.chown": ("os.chown", (0,)), "os.utime": ("os.utime", (0,)),
    "os.chflags": ("os.chflags", (0,)), "os.lchflags": ("os.lchflags", (0,)),
    "os.lchmod": ("os.lchmod", (0,)), "os.mkfifo": ("os.mkfifo", (0,)),
    "os.mknod": ("os.mknod", (0,)), "os.setxattr": ("os.setxattr", (0,)),
    "os.removexattr": ("os.removexattr", (0,)),
    "shutil.copyfile": ("shutil.copyfile", (1,)), "shutil.copymode": ("shutil.copymode", (1,)),
    "shutil.copystat": ("shutil.copystat", (1,)), "shutil.copytree": ("shutil.copytree", (1,)),
    "shutil.rmtree": ("shutil.rmtree", (0,)), "shutil.move": ("shutil.move", (0, 1)),
    "shutil.chown": ("shutil.chown", (0,)),
    "shutil.make_archive": ("shutil.make_archive", (0,)),
    "shutil.unpack_archive": ("shutil.unpack_archive", (1,)),
}
# Events blocked whatever their arguments: they reach other processes or the network.
_ALWAYS = {
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
}


class Blocked(BaseException):
    """A side effect the dry run refused; it ends the dry run as inconclusive."""


class Policy:
    """The audit-hook policy: what is allowed, and the first event that was blocked."""

    def __init__(self, private_dir: str) -> None:
        self.private_dir = os.path.realpath(private_dir)
        self.blocked: str | None = None

    def block(self, what: str) -> None:
        """Record ``what`` (first one wins) and raise `Blocked`."""
        if self.blocked is None:
            self.blocked = what
        raise Blocked(what)

    def _private(self, path: Any) -> bool:
        try:
            text = os.fsdecode(os.fspath(path))
        except TypeError:
            return False
        if text in _HARMLESS_PATHS:
            return True
        full = os.path.realpath(text)
        return full == self.private_dir or full.startswith(self.private_dir + os.sep)

    def hook(self, event: str, args: tuple[Any, ...]) -> None:
        """The audit hook: raise `Blocked` for a side effect outside the child."""
        if event == "open":
            self._open(args)
        elif event in _PATH_EVENTS:
            verb, where = _PATH_EVENTS[event]
            paths = [args[i] for i in where if i < len(args)]
            if not all(self._private(p) for p in paths):
                self.block(f"{verb}({', '.join(_show(p) for p in paths)})")
        elif event in _ALWAYS:
            self.block(_describe_always(event, args))
        elif event in ("os.kill", "os.killpg") and not (args and args[0] == os.getpid()):
            self.block(f"{event}({', '.join(map(repr, args))})")
        elif event == "sqlite3.connect" and args and args[0] not in (":memory:", "", b""):
            if not self._private(args[0]):
                self.block(f"sqlite3.connect({_show(args[0])})")

    def _open(self, args: tuple[Any, ...]) -> None:
        path, mode, flags = (tuple(args) + (None, None, 0))[:3]
        if isinstance(path, int) or path is None:
            return  # an fd already open: its creation was checked (or predates the fork)
        writing = bool((flags or 0) & _WRITE_FLAGS) or bool(
            isinstance(mode, str) and set(mode) & set("wax+"))
        if writing and not self._private(path):
            shown = f"open({_show(path)}, {mode!r})" if mode else f"os.open({_show(path)})"
            self.block(shown)


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


# ---- guards for writers that bypass the audit hooks (C-level file writes) ----------------

def _guard(owner: Any, attr: str, message: Callable[..., str | None], policy: Policy) -> None:
    original = getattr(owner, attr, None) if owner is not None else None
    if original is None or getattr(original, "_crashpredict_guard", False):
        return

    def guarded(*args: Any, **kwargs: Any) -> Any:
        what = message(*args, **kwargs)
        if what is not None:
            policy.block(what)
        return original(*args, **kwargs)

    guarded._crashpredict_guard = True  # type: ignore[attr-defined]
    try:
        setattr(owner, attr, guarded)
    except (AttributeError, TypeError):  # a C type that refuses new attributes
        pass


def _first_path(args: tuple[Any, ...], kwargs: dict[str, Any], index: int, *names: str) -> Any:
    for name in names:
        if name in kwargs:
            return kwargs[name]
    return args[index] if len(args) > index else None


def _install_guards(policy: Policy) -> None:
    """Guard the Python entry points of libraries that write files from C code."""

    def writes(label: str, index: int, *names: str) -> Callable[..., str | None]:
        def message(*args: Any, **kwargs: Any) -> str | None:
            target = _first_path(args, kwargs, index, *names)
            # A file object (BytesIO, an open file) was audited when it was opened.
            if not isinstance(target, (str, bytes, os.PathLike)) or policy._private(target):
                return None
            return f"{label} would write {os.fsdecode(os.fspath(target))}"
        return message

    mods = sys.modules
    if "torch" in mods:
        _guard(mods["torch"], "save", writes("torch.save", 1, "f"), policy)
    for name in ("keras", "tf_keras"):
        model = getattr(mods.get(name), "Model", None)
        if model is not None:  # index 1: args[0] is the model itself
            _guard(model, "save", writes("model.save", 1, "filepath"), policy)
            _guard(model, "save_weights", writes("model.save_weights", 1, "filepath"), policy)
    tf = mods.get("tensorflow")
    if tf is not None:
        _guard(getattr(tf, "saved_model", None), "save",
               writes("tf.saved_model.save", 1, "export_dir"), policy)
        _guard(getattr(tf, "io", None), "write_file", writes("tf.io.write_file", 0, "filename"),
               policy)
    h5py = mods.get("h5py")
    if h5py is not None:
        def h5_message(self: Any, name: Any = None, mode: str = "r", *a: Any, **k: Any) -> str | None:
            if (k.get("mode", mode) or "r") == "r":
                return None
            return writes("h5py.File", 0)(name)
        _guard(h5py.File, "__init__", h5_message, policy)
    pandas = mods.get("pandas")
    if pandas is not None:
        for attr in ("to_parquet", "to_feather", "to_hdf", "to_orc", "to_stata"):
            _guard(pandas.DataFrame, attr,
                   writes(f"DataFrame.{attr}", 1, "path", "path_or_buf", "fname"), policy)
    if "cv2" in mods:
        _guard(mods["cv2"], "imwrite", writes("cv2.imwrite", 0, "filename"), policy)


def install(private_dir: str) -> Policy:
    """Install the policy in this (child) process and return it; it cannot be undone."""
    policy = Policy(private_dir)
    _install_guards(policy)
    sys.addaudithook(policy.hook)
    return policy
