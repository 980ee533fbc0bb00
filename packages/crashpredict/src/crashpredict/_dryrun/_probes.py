"""Read-only probes that libraries run as programs, answered without a process in the child.

Libraries ask the system about itself by running small programs: ``ctypes.util.
find_library`` runs ``ldconfig -p``, ``platform.processor()`` runs ``uname -p``,
matplotlib's font manager runs ``fc-list``. The dry run's child may start no process (the
audit hook and seccomp refuse it), and giving up on such a cell would make every first
``import matplotlib.pyplot`` inconclusive. So:

- ``find_library`` is answered in the child from glibc's loader cache (``/etc/ld.so.cache``,
  parsed here) and ``LD_LIBRARY_PATH``; ``platform.processor()`` from ``os.uname()``;
- any other program on `ALLOWED` (read-only tools, by name, with any arguments) is run by
  the **parent**, outside the sandbox, at most once per distinct command line per process
  (`run_probe` caches it), and its output is handed to the child's ``subprocess.Popen``
  as if the child had run it. The program is found by its name alone on `TRUSTED_PATH`
  (never a path or a ``PATH`` the child chose: a program the cell wrote is never run), with
  the parent's environment, and its output is cut at `MAX_PROBE_OUTPUT`. The child asks
  through its report pipe (a ``Q`` frame) and reads the answer, length-prefixed JSON, from
  an answer pipe the parent writes without blocking: no file passes between them.

Everything else a cell runs stays blocked.
"""

from __future__ import annotations

import base64
import json
import os
import platform
import shlex
import shutil
import struct
import subprocess
import sys
import threading
from collections.abc import Callable
from typing import Any

__all__ = ["ALLOWED", "answer_probes", "find_library_without_exec", "ld_cache_sonames",
           "run_probe", "serve_request"]

#: Programs the parent runs for the child: they only read the system's state.
ALLOWED = frozenset({"fc-list", "fc-match", "uname", "nproc", "lscpu", "getconf", "ldconfig",
                     "arch"})
_LDCONFIG_READS = {("-p",), ("--print-cache",)}
_SHELL_SIGNS = set(";|&<>$`(){}*?\n")
_PROBE_TIMEOUT_S = 5.0
#: Where the parent looks for a probe program, whatever the child's PATH says.
TRUSTED_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
#: Bytes of a probe's stdout (and of its stderr) handed to the child.
MAX_PROBE_OUTPUT = 1 << 20
_ANSWERS: dict[tuple[str, ...], dict[str, Any]] = {}


def probe_argv(args: Any, executable: Any, shell: bool) -> tuple[str, ...] | None:
    """The command line of a ``Popen`` call when it is an allowed probe, else None."""
    try:
        if isinstance(args, (str, bytes)):
            text = os.fsdecode(args)
            if shell and set(text) & _SHELL_SIGNS:
                return None
            argv = shlex.split(text) if shell else [text]
        else:
            argv = [os.fsdecode(a) for a in args]
    except (TypeError, ValueError):
        return None
    if not argv:
        return None
    if executable is not None:
        argv[0] = os.fsdecode(executable)
    name = os.path.basename(argv[0])
    if name not in ALLOWED:
        return None
    if name == "ldconfig" and tuple(argv[1:]) not in _LDCONFIG_READS:
        return None
    return tuple(argv)


def run_probe(argv: tuple[str, ...]) -> dict[str, Any]:
    """Run an allowed probe in this (the parent) process, once per command line."""
    if probe_argv(list(argv), None, False) is None:
        return {"refused": True}
    if argv not in _ANSWERS:
        program = shutil.which(os.path.basename(argv[0]), path=TRUSTED_PATH)
        if program is None:
            _ANSWERS[argv] = {"missing": True}
            return _ANSWERS[argv]
        try:
            done = subprocess.run([program, *argv[1:]], capture_output=True,
                                  stdin=subprocess.DEVNULL, timeout=_PROBE_TIMEOUT_S,
                                  env={**os.environ, "LC_ALL": "C"}, cwd="/")
            _ANSWERS[argv] = {"rc": done.returncode,
                              "out": base64.b64encode(done.stdout[:MAX_PROBE_OUTPUT]).decode(),
                              "err": base64.b64encode(done.stderr[:MAX_PROBE_OUTPUT]).decode()}
        except FileNotFoundError:
            _ANSWERS[argv] = {"missing": True}
        except (OSError, subprocess.SubprocessError) as exc:
            return {"failed": f"{type(exc).__name__}: {exc}"}
    return _ANSWERS[argv]


def serve_request(request: bytes) -> bytes:
    """Parent side: the answer frame (8-byte length, JSON) to one ``Q`` frame of the child."""
    try:
        argv = tuple(str(a) for a in json.loads(request)["argv"])
        answer = run_probe(argv) if argv else {"refused": True}
    except (ValueError, KeyError, TypeError, RecursionError):
        answer = {"refused": True}
    body = json.dumps(answer).encode()
    return struct.pack(">Q", len(body)) + body


# ---- the child's side ----------------------------------------------------------------------

def _read_exactly(fd: int, size: int) -> bytes:
    data = bytearray()
    while len(data) < size:
        chunk = os.read(fd, size - len(data))
        if not chunk:
            break
        data += chunk
    return bytes(data)


def _asker(write: Callable[[bytes], None], answer_fd: int) -> Callable[..., Any]:
    def ask(argv: tuple[str, ...]) -> dict[str, Any]:
        body = json.dumps({"argv": list(argv)}).encode()
        write(b"Q" + struct.pack(">Q", len(body)) + body)
        head = _read_exactly(answer_fd, 8)
        if len(head) != 8:
            return {"failed": "the parent did not answer"}
        try:
            return json.loads(_read_exactly(answer_fd, struct.unpack(">Q", head)[0]))
        except ValueError:
            return {"failed": "the parent's answer was cut"}
    return ask


def _feed(fd: int, data: bytes) -> None:
    """Write ``data`` to a pipe in a thread (it may exceed the pipe's buffer)."""
    own = os.dup(fd)

    def run() -> None:
        try:
            view = memoryview(data)
            while view:
                view = view[os.write(own, view):]
        except OSError:
            pass
        finally:
            os.close(own)

    threading.Thread(target=run, daemon=True).start()


def _answer_popen(ask: Callable[..., Any]) -> None:
    popen = subprocess.Popen
    original = popen._execute_child  # type: ignore[attr-defined]

    def execute_child(self: Any, args: Any, executable: Any, *rest: Any) -> Any:
        shell = rest[7]
        argv = probe_argv(args, executable, shell)
        if argv is None:
            return original(self, args, executable, *rest)  # audited: blocked
        answer = ask(argv)
        if "missing" in answer:
            raise FileNotFoundError(2, "No such file or directory", argv[0])
        if "rc" not in answer:
            return original(self, args, executable, *rest)
        p2cread, p2cwrite, c2pread, c2pwrite, errread, errwrite = rest[8:14]
        out, err = base64.b64decode(answer["out"]), base64.b64decode(answer["err"])
        if errwrite != -1 and errwrite == c2pwrite:
            out, err = out + err, b""
        for fd, data in ((c2pwrite, out), (errwrite, err)):
            if fd != -1 and data:
                _feed(fd, data)
        self.pid = -1
        self.returncode = answer["rc"]
        self._close_pipe_fds(p2cread, p2cwrite, c2pread, c2pwrite, errread, errwrite)
        return None

    popen._execute_child = execute_child  # type: ignore[attr-defined]


_LDCACHE_MAGIC = b"glibc-ld.so.cache1.1"
_LD_ARCH_FLAGS = {"x86_64": 0x0303, "aarch64": 0x0A03}


def ld_cache_sonames(path: str = "/etc/ld.so.cache") -> dict[str, str]:
    """``{soname: library path}`` from glibc's loader cache, read without running ldconfig."""
    try:
        with open(path, "rb") as fh:
            data = fh.read()
    except OSError:
        return {}
    start = data.find(_LDCACHE_MAGIC)
    if start < 0:
        return {}
    found: dict[str, str] = {}
    try:
        nlibs, = struct.unpack_from("=I", data, start + 20)
        want = _LD_ARCH_FLAGS.get(os.uname().machine)
        for i in range(nlibs):
            flags, key, value, _, _ = struct.unpack_from("=iIIIQ", data, start + 48 + 24 * i)
            if want is not None and flags & 0xFFFF != want:
                continue
            name = data[key:data.index(b"\0", key)].decode(errors="replace")
            found.setdefault(name, data[value:data.index(b"\0", value)].decode(errors="replace"))
    except (struct.error, ValueError):
        pass
    return found


def find_library_without_exec(name: str) -> str | None:
    """`ctypes.util.find_library` as ldconfig would answer it, without running a program."""
    prefix = f"lib{name}."
    for soname in ld_cache_sonames():
        if soname.startswith(prefix + "so"):
            return soname
    for folder in filter(None, os.environ.get("LD_LIBRARY_PATH", "").split(":")):
        try:
            names = sorted(os.listdir(folder))
        except OSError:
            continue
        for entry in names:
            if entry.startswith(prefix + "so"):
                return entry
    return None


def answer_probes(write: Callable[[bytes], None], answer_fd: int) -> None:
    """In the child: answer library probes without starting a process there."""
    util = sys.modules.get("ctypes.util")
    if util is None:
        import ctypes.util as util
    util.find_library = find_library_without_exec
    processor = getattr(platform, "_Processor", None)
    if processor is not None:
        machine = os.uname().machine
        processor.get = classmethod(lambda cls: machine)
    _answer_popen(_asker(write, answer_fd))
