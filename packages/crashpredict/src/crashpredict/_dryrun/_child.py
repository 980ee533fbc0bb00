"""The forked child of a dry run: silence it, run the cell under an alarm, report as JSON.

Nothing here runs in the user's kernel: `run_child` is entered right after ``os.fork`` in
the child, and its caller ends the process with ``os._exit`` whatever happens, so the child
never returns into the kernel's code, never runs its atexit handlers and never touches the
ZeroMQ sockets it shares with the parent.
"""

from __future__ import annotations

import builtins
import errno
import gc
import inspect
import json
import math
import os
import random
import re
import signal
import sys
import tempfile
import threading
import time
import traceback
from collections.abc import Callable
from typing import Any

from .._syntax import clone
from . import _confine, _fastforward, _jail, _prefault, _probes, _sandbox, _sibling
from ._kinds import cut_doubtful
from ._overlay import Overlay
from ._shrink import shrink_namespace

__all__ = ["MAX_CELL_BYTES", "jailed", "message_of", "report_failure", "run_child", "run_standby"]

_MAX_MESSAGE = 1000
_MAX_FRAMES = 10


#: What the kernel held when the child was forked (see `_hold_kernel_objects`).
_HELD: list[Any] = []


def _hold_kernel_objects(namespace: dict[str, Any]) -> None:
    """Keep every object the kernel's namespace held at the fork alive for the child's life.

    A cell that rebinds a name (``df = df.drop(...)``), and shrinking, which replaces a
    table by its head, would otherwise free the kernel's objects in the child: tens of
    millions of reference counts written into pages shared with the kernel, each copied
    first (2 s for a 30M-row text column, more than a dry run's budget, in C code that no
    alarm interrupts). The real run pays for its own frees; the child is ended with
    ``os._exit``, so nothing held here is ever freed.

    The cyclic GC never collects what the kernel held either: see `freeze_kernel_objects`.
    """
    _HELD.append(dict(namespace))


def freeze_kernel_objects() -> None:
    """The first step of a forked child: the cyclic GC leaves the kernel's objects alone.

    The kernel may hold garbage it has not collected yet, and some of it cannot be freed
    in a fork: a Keras fit that failed leaves its tf.data iterator in a cycle, and freeing
    that waits for the iterator's threads, which did not survive the fork (the child hung,
    or died of a segfault). Frozen (``gc.freeze``), what the kernel held is never collected
    here; what the child makes still is. A full collection would also have written into
    every object's header, copying the kernel's pages.

    ``gc.get_objects`` and ``gc.get_referrers`` skip frozen objects, and notebooks use them
    (to find their tensors): in the child they see the frozen objects too.
    """
    gc.freeze()
    for name in ("get_objects", "get_referrers"):
        found = getattr(gc, name, None)
        if found is not None and not getattr(found, "_sees_frozen", False):
            setattr(gc, name, _seeing_frozen(found))


def _seeing_frozen(found: Callable[..., Any]) -> Callable[..., Any]:
    """``found`` with the frozen objects back in the generations while it runs (no
    collection in between), frozen again after: everything then tracked is frozen."""

    def seeing(*args: Any, **kwargs: Any) -> Any:
        enabled = gc.isenabled()
        gc.disable()
        gc.unfreeze()
        try:
            return found(*args, **kwargs)
        finally:
            gc.freeze()
            if enabled:
                gc.enable()
    seeing._sees_frozen = True  # type: ignore[attr-defined]
    seeing.__name__ = seeing.__qualname__ = found.__name__
    seeing.__doc__ = found.__doc__
    return seeing


class _BudgetExhausted(BaseException):
    """Raised by the child's alarm; a BaseException so that ``except Exception`` misses it."""


def _noop(*_args: Any, **_kwargs: Any) -> None:
    return None


def _silence() -> None:
    """Send all output of the child to /dev/null and cut it off from the kernel's sockets."""
    null = os.open(os.devnull, os.O_WRONLY)
    os.dup2(null, 1)
    os.dup2(null, 2)
    os.close(null)
    old = (sys.stdout, sys.stderr)
    sys.stdout = sys.stderr = open(os.devnull, "w")  # noqa: SIM115 - lives until os._exit
    sys.displayhook = _noop
    if "faulthandler" in sys.modules:  # it writes to a saved copy of the kernel's stderr
        sys.modules["faulthandler"].disable()
    # Handlers (logging, tqdm) may hold ipykernel's OutStream, whose locks another thread
    # of the parent may have held at fork time: never let the child enter it.
    for stream in old:
        for attr in ("write", "flush"):
            try:
                setattr(stream, attr, (lambda s="": len(s)) if attr == "write" else _noop)
            except (AttributeError, TypeError):
                pass
    # The kernel's ZeroMQ sockets are shared with the parent: a message sent from the child
    # would reach the front end as if the kernel had sent it.
    session = getattr(sys.modules.get("jupyter_client.session"), "Session", None)
    if session is not None:
        session.send = _noop
    socket = getattr(sys.modules.get("zmq"), "Socket", None)
    if socket is not None:
        for attr in ("send", "send_multipart", "send_string", "send_json", "send_pyobj"):
            try:
                setattr(socket, attr, _noop)
            except (AttributeError, TypeError):
                pass
    ipython = sys.modules.get("IPython")
    shell = ipython.get_ipython() if ipython is not None else None
    publisher = getattr(shell, "display_pub", None)
    if publisher is not None:
        publisher.publish = _noop
        publisher.clear_output = _noop


def _frames(tb: Any, filename: str) -> tuple[list[str], int | None, list[str]]:
    """Short frame texts from the cell's first frame on (not the dry run's own), the cell
    line, and frame modules."""
    texts: list[str] = []
    modules: list[str] = []
    line = None
    started = False
    for frame, lineno in traceback.walk_tb(tb):
        code = frame.f_code
        if code.co_filename == filename:
            started, line = True, lineno
            texts.append(f"{filename}:{lineno}")
        elif started:
            module = str(frame.f_globals.get("__name__", "?"))
            if module.startswith("crashpredict."):
                continue  # the dry run's own wrappers (a capped fit, a sandboxed call)
            where = os.path.basename(code.co_filename) if module == "__main__" else module
            texts.append(f"{where}:{lineno} in {code.co_name}")
        if started:
            modules.append(str(frame.f_globals.get("__name__", "")))
    if len(texts) > _MAX_FRAMES:
        texts = texts[:3] + ["..."] + texts[-(_MAX_FRAMES - 4):]
    return texts, line, modules


_LIBRARY_OF_ROOT = {
    "pandas": "pandas", "numpy": "numpy", "sklearn": "sklearn", "torch": "torch",
    "torchvision": "torch", "tensorflow": "tensorflow", "keras": "tensorflow",
    "tf_keras": "tensorflow", "matplotlib": "matplotlib", "seaborn": "seaborn",
}


def _library(exc: BaseException, modules: list[str]) -> str | None:
    if isinstance(exc, NameError) and not isinstance(exc, UnboundLocalError):
        return "NBspecific"  # a name missing in a notebook is an execution-order problem
    for module in reversed(modules):  # the innermost library frame raised it
        library = _LIBRARY_OF_ROOT.get(module.partition(".")[0])
        if library:
            return library
    if isinstance(exc, AttributeError) and getattr(exc, "obj", None) is not None:
        return _LIBRARY_OF_ROOT.get(type(exc.obj).__module__.partition(".")[0])
    return None


def message_of(exc: BaseException) -> str:
    """``str(exc)`` cut to a bounded length; never raises."""
    try:
        text = str(exc)
    except Exception:
        text = f"<unprintable {type(exc).__name__}>"
    return text[:_MAX_MESSAGE]


def _execute(code: Any, namespace: dict[str, Any], policy: Any, filename: str,
             deadline: float, budget_s: float, judge: Any = None) -> dict[str, Any]:
    """Run the compiled cell under the alarm; return the result dict sent to the parent."""
    remaining = deadline - time.perf_counter()
    if remaining <= 0:
        return {"outcome": "inconclusive", "reason": f"the {budget_s:g} s budget ran out "
                "before the cell started"}

    def on_alarm(_signum: int, _frame: Any) -> None:
        raise _BudgetExhausted

    signal.signal(signal.SIGALRM, on_alarm)  # the forking thread is the child's main thread
    signal.setitimer(signal.ITIMER_REAL, remaining)
    caught: BaseException | None = None
    try:
        try:
            value = eval(code, namespace)  # noqa: S307 - the point of a dry run
            if inspect.iscoroutine(value):  # top-level await, as IPython allows
                import asyncio
                asyncio.new_event_loop().run_until_complete(value)
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
    except BaseException as exc:  # noqa: BLE001 - every outcome is reported, nothing raised
        caught = exc
    if policy.blocked is not None:
        return {"outcome": "inconclusive", "blocked": policy.blocked,
                "reason": f"a side effect was blocked: {policy.blocked}"}
    if caught is None:
        return {"outcome": "completed"}
    kernel_refusal = (_confine.blocked_errno(caught) or _landlock_refusal(caught, policy)
                      or _jail_difference(caught))
    if kernel_refusal is not None:
        return {"outcome": "inconclusive", "blocked": kernel_refusal,
                "reason": f"a side effect was blocked by the kernel layer: {kernel_refusal}"}
    frames, line, modules = _frames(caught.__traceback__, filename)
    if isinstance(caught, _BudgetExhausted):
        where = f" (at line {line})" if line else ""
        return {"outcome": "inconclusive", "line": line, "over_budget": True,
                "reason": f"the cell was still running after the {budget_s:g} s budget{where}"}
    crashed = {"outcome": "crashed", "exception": type(caught).__name__,
               "message": message_of(caught), "line": line, "traceback": frames,
               "library": _library(caught, modules)}
    if judge is not None:
        crashed.update(judge(caught, line))
    return crashed


#: errno values that the jail itself can cause where the real run would not fail.
_JAIL_ERRNOS = {
    errno.ESRCH: "a process outside the dry run (its PID namespace shows no other process)",
    errno.EROFS: "a write to a file system the dry run shows read-only",
    errno.ENOSPC: "more data written than the dry run's in-memory overlay holds",
}


def _jail_difference(exc: BaseException | None) -> str | None:
    """What the jail refused, when ``exc`` (or its cause/context) is such an error."""
    seen = 0
    while exc is not None and seen < 10:
        code = getattr(exc, "errno", None)
        if code in _JAIL_ERRNOS:
            return _JAIL_ERRNOS[code]
        if type(exc).__name__ in ("NoSuchProcess", "AccessDenied") and \
                type(exc).__module__.startswith("psutil"):
            return _JAIL_ERRNOS[errno.ESRCH]
        exc = exc.__cause__ or exc.__context__
        seen += 1
    return None


#: How C++ libraries say a file or folder could not be made, with no errno (CatBoost:
#: "Can't create train working dir: catboost_info"); the path, when named, is last.
_CANNOT_CREATE = re.compile(
    r"(?:can't|cannot|can not|unable to|could not|failed to) (?:create|make|open \S+ for "
    r"writing)\b[^:\n]*(?::\s*(?P<path>[^\s:]+)\s*$)?", re.IGNORECASE)


def _landlock_refusal(exc: BaseException, policy: Any) -> str | None:
    """A permission error that Landlock caused (the real run could write there), or None."""
    if not getattr(policy, "landlock", False):
        return None
    seen = 0
    while exc is not None and seen < 10:
        text = message_of(exc)
        said = _CANNOT_CREATE.search(text)
        if isinstance(exc, PermissionError) or getattr(exc, "errno", None) == 13 or \
                "errno = 13" in text or "Permission denied" in text or said:
            path = getattr(exc, "filename", None)
            if not isinstance(path, str) and said and said.group("path"):
                path = said.group("path").strip("'\"`")
            if not isinstance(path, str):
                return "a file write from C code outside the dry run's overlay"
            # access(2) is not restricted by Landlock: it says what the real run may do.
            # Landlock refuses only writes, creations and removals, so a path the user may
            # write (or create) that failed with EACCES was refused by it.
            if os.path.lexists(path):
                writable = os.access(path, os.W_OK)
            else:
                writable = os.access(os.path.dirname(os.path.abspath(path)) or ".", os.W_OK)
            return f"a file write from C code to {path!r}" if writable else None
        exc = exc.__cause__ or exc.__context__
        seen += 1
    return None


def jailed(write_fd: int, answer_fd: int, private_dir: str, body: Any,
           keep: tuple[int, ...] = (), light_mirrors: bool = False) -> None:
    """Right after the fork: put the child in its jail (`_jail`), then call ``body()``.

    The child leads a process group of its own (the parent kills the group), snapshots
    its inherited descriptors, enters new namespaces and forks: the grandchild is pid 1
    of the new PID namespace and builds the copy-on-write root, then forks the process
    that replaces the descriptors, drops its capabilities and runs ``body``. The two
    above it only wait and end as it ended (``light_mirrors``: in a fresh interpreter that
    holds none of the kernel's memory, see `_mirror`). A kernel without the namespaces gets
    an inconclusive report naming what was refused (``jail``), and nothing runs.
    """
    try:
        os.setpgid(0, 0)
    except OSError:
        pass
    if any(name in sys.modules for name in _OPENMP_USERS):
        _one_openmp_thread()  # before the jail: its root hides the libraries' paths
    kept = {write_fd, answer_fd, *keep}
    try:
        snaps = _jail.snapshot_fds(kept)
        copies = _jail.copy_unreachable(snaps)
        _jail.unshare_namespaces()
        pid = os.fork()
    except OSError as exc:
        return _report(write_fd, _jail_refused(exc))
    if pid:
        _mirror(pid, decode=True, light=light_mirrors)
    _jail.die_with_parent()
    try:
        # pid 1 of the namespace builds the root (its /proc), then runs the cell in a child
        # of its own: pid 1 ignores the signals a cell sends itself, pid 2 does not.
        _jail.build_root(private_dir)
        pid = os.fork()
    except OSError as exc:
        return _report(write_fd, _jail_refused(exc))
    if pid:
        _mirror(pid, light=light_mirrors)
    _jail.die_with_parent()
    try:
        _jail.replace_fds(snaps, copies)
        _jail.drop_capabilities(_jail.ROOT_FILE_CAPS if os.geteuid() == 0 else ())
    except OSError as exc:
        return _report(write_fd, _jail_refused(exc))
    body()


#: The script a mirror runs once it has replaced its image (`_mirror`).
_WAITER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "_waiter.py")


def _mirror(pid: int, *, decode: bool = False, light: bool = False) -> None:
    """Hold no descriptor, wait for ``pid`` and end as it ended (exit code or signal).

    pid 1 cannot die of a signal it sends itself, so it ends with 128 + the signal, and
    the process above it (``decode``) turns that back into the signal.

    ``light``: the wait runs in a fresh interpreter (``exec`` of ``sys.executable`` on
    `_WAITER`, 20 ms of another CPU and 9 MB). A mirror that kept the kernel's image would
    hold every page of the kernel's memory as long as the cell's process lives, so each
    page the kernel writes afterwards would be copied for it, even one the cell's process
    has copied for itself (a standby copies them while the kernel is idle, `run_standby`).
    Where the exec fails, the wait runs here.
    """
    os.closerange(0, 1 << 16)  # the pipes stay with the cell's process: EOF comes from it
    _jail.undumpable()  # the cell's process may not read or write this one's memory
    exe = sys.executable or ""  # a Python (not an embedding program), the waiter beside us
    if light and os.path.isabs(exe) and "python" in os.path.basename(exe) and \
            os.path.isfile(_WAITER):
        try:  # no environment: -I ignores PYTHON* anyway, nothing else is needed
            os.execve(exe, [exe, "-I", "-S", _WAITER, str(pid), "1" if decode else "0"], {})
        except (OSError, ValueError):
            pass
    try:
        _, status = os.waitpid(pid, 0)
    except ChildProcessError:
        _EXIT_NOW(1)
    code = os.waitstatus_to_exitcode(status)
    sig = -code if code < 0 else (code - 128 if decode and 128 < code < 128 + 65 else 0)
    if sig and os.getpid() != 1:
        try:
            signal.signal(sig, signal.SIG_DFL)  # SIGKILL's cannot be set, nor need be
        except (OSError, ValueError):
            pass
        os.kill(os.getpid(), sig)
    _EXIT_NOW(128 + sig if sig else code & 0xFF)


def _jail_refused(exc: OSError) -> dict[str, Any]:
    why = exc.strerror if isinstance(exc.strerror, str) and exc.strerror else message_of(exc)
    return {"outcome": "inconclusive", "jail": why,
            "reason": f"the kernel refused the dry run's isolation ({why}): it does not run "
            "unconfined"}


_EXIT_NOW = os._exit


def run_child(write_fd: int, code: Any, namespace: dict[str, Any], *, deadline: float,
              budget_s: float, shrink: int | None, private_dir: str, filename: str,
              rng_state: Any, reads: tuple[str, ...] | None = None,
              answer_fd: int = -1, fast_forward: Any = None) -> None:
    """The body of the forked child (in its jail, see `jailed`); its caller ends the
    process with os._exit."""
    _write_all(write_fd, b"R")
    _hold_kernel_objects(namespace)
    shrunk: list[tuple[str, ...]] = [()]

    def shrink_now() -> dict[str, Any] | None:
        if shrink is not None:
            shrunk[0] = shrink_namespace(namespace, shrink, only=reads,
                                         salient=reads is not None)
            if reads is not None and not shrunk[0]:  # a retry that could change nothing
                return {"outcome": "inconclusive", "reason": "nothing the cell reads could be cut"}
        return None
    prepared = _prepare(write_fd, private_dir, answer_fd, rng_state, shrink_now)
    if isinstance(prepared, dict):
        return _report(write_fd, prepared)
    _report(write_fd, _run_prepared(prepared, code, namespace, deadline=deadline,
                                    budget_s=budget_s, filename=filename,
                                    fast_forward=fast_forward, shrunk=shrunk[0],
                                    write_fd=write_fd))


#: The longest cell source a standby child takes (a larger one is no cell to dry-run).
MAX_CELL_BYTES = 1 << 20


#: Names IPython itself unbinds as each cell starts, before the extension sees the cell
#: (the warnings module's registry of a cell that warned: ``pre_execute``): a standby's
#: freshness ignores them (`_beside._fingerprint`), and it drops them as its cell arrives.
UNBOUND_AT_START = ("__warningregistry__",)


def run_standby(write_fd: int, cell_fd: int, namespace: dict[str, Any], *, budget_s: float,
                private_dir: str, filename: str, rng_state: Any, answer_fd: int = -1,
                fast_forward: bool = True, copy_fd: int = -1) -> None:
    """The body of a standby child (in its jail): make everything ready, say so (``A``),
    then wait for the cell (8-byte length, then its UTF-8 source) on ``cell_fd`` and run it
    as `run_child` would, from the moment it arrives. End of file: the kernel discarded this
    child (its state went stale) or is gone; nothing runs. ``copy_fd``: meanwhile, copy the
    pages this process shares with the kernel, until the cell arrives, and write there what
    was copied (`_prefault.copy_for_kernel`)."""
    _hold_kernel_objects(namespace)
    prepared = _prepare(write_fd, private_dir, answer_fd, rng_state, standby=True)
    if isinstance(prepared, dict):
        return _report(write_fd, prepared)
    _write_all(write_fd, b"A")
    _fastforward.find_library_modules()  # while the kernel is idle, not once the cell runs
    if copy_fd >= 0:
        try:
            _write_all(copy_fd, _prefault.copy_for_kernel(cell_fd))
        except (OSError, ValueError):  # the kernel stopped listening: it has its cell
            pass
        finally:
            os.close(copy_fd)
    source = _read_cell(cell_fd)
    if source is None:
        return None
    arrived = time.perf_counter()
    _write_all(write_fd, b"R")
    for name in UNBOUND_AT_START:  # as IPython unbinds them in the kernel at the cell's start
        namespace.pop(name, None)
    try:
        code = _fastforward.compile_cell(source, filename)
    except SyntaxError:
        return _report(write_fd, {"outcome": "inconclusive",
                                  "reason": "the cell does not compile (the real run says so)"})
    cut_after_s = min(_fastforward.CUT_AFTER_S, budget_s / 6)
    sibling = None
    if "seccomp" in prepared[2]:
        # the one process this child makes: the cell on the first rows, beside this run
        sibling = _sibling.fork(prepared, source, code, namespace, write_fd=write_fd,
                                answer_fd=answer_fd, cell_fd=cell_fd, filename=filename,
                                rng_state=rng_state, cut_after_s=cut_after_s,
                                child=(_run_prepared, _report, _after_confined))
        refused = _confine.no_new_processes()
        if refused is not None:
            if sibling is not None:
                sibling.close()
            return _report(write_fd, {"outcome": "inconclusive",
                                      "reason": f"new processes could not be refused: {refused}"})
    _after_confined(rng_state)
    if sibling is not None:
        sibling.start(write_fd)
    tree = _fastforward.loop_tree(source, code, namespace) if fast_forward else None
    # a cell that loops or fits, or works through the rows of big data (likely long): the
    # rules first, with their trials (the kernel's had 5 ms at most: the cell must not wait
    # for them); here they take milliseconds where the whole run may take seconds. Another
    # cell's whole run answers as soon, within the kernel's head start
    found = _sibling.rules_on_the_whole(source, namespace, prepared[1], RULES_TRIALS_S) \
        if tree is not None or sibling is not None else None
    if found is not None:
        _report(write_fd, found)
        if sibling is not None:
            sibling.close()
        os.kill(os.getpid(), signal.SIGSTOP)
        return None
    # beside the cell there is one run: short loops run whole in it (`CUT_AFTER_S`); the
    # replay's dry run cuts at once and runs the whole cell next when the budget allows
    result = _run_prepared(prepared, code, namespace, deadline=arrived + budget_s,
                           budget_s=budget_s, filename=filename, fast_forward=tree, shrunk=(),
                           write_fd=write_fd, cut_after_s=cut_after_s, sweep=True)
    if sibling is not None and cut_doubtful(result):
        # a crash the cut may have caused says nothing: the run on the first rows may
        sibling.settle_doubt(arrived + budget_s - time.perf_counter())
    _report(write_fd, result)
    if sibling is not None:
        sibling.close()
    # reported: wait, stopped, for the kernel to end this process when it is idle (ending
    # now would unmap the kernel's memory beside the running cell: 10 ms of a CPU or more)
    os.kill(os.getpid(), signal.SIGSTOP)


#: The rules' trials in a standby child, before its run (`_sibling.rules_on_the_whole`).
RULES_TRIALS_S = 0.5


def _read_cell(fd: int) -> str | None:
    """The cell sent by the parent, or None at end of file or on a malformed frame."""
    def exactly(size: int) -> bytes | None:
        data = bytearray()
        while len(data) < size:
            try:
                chunk = os.read(fd, min(size - len(data), 1 << 16))
            except InterruptedError:
                continue
            except OSError:
                return None
            if not chunk:
                return None
            data += chunk
        return bytes(data)

    header = exactly(8)
    size = int.from_bytes(header, "big") if header is not None else MAX_CELL_BYTES + 1
    body = exactly(size) if size <= MAX_CELL_BYTES else None
    try:
        return body.decode("utf-8") if body is not None else None
    except UnicodeDecodeError:
        return None


def _prepare(write_fd: int, private_dir: str, answer_fd: int, rng_state: Any,
             before_sandbox: Any = None, *,
             standby: bool = False) -> tuple[Overlay, Any, list[str]] | dict[str, Any]:
    """Everything before the cell's own code: silence, thread pools, ``before_sandbox()``
    (shrinking the data; a dict it returns is the result), the sandbox, the saved fork
    hooks, the RNG state. Returns `_enter_sandbox`'s triple, or the inconclusive result to
    report. ``standby``: a new process stays allowed (the shrunk sibling) and the hooks
    and the RNG state wait for `_after_confined`, once the cell is in and processes are
    refused."""
    _silence()
    random.setstate(rng_state)  # random reseeds itself in a forked child; undo that
    _fork_safe_threads()
    sys.dont_write_bytecode = True  # importing a new module must not write __pycache__
    tempfile.tempdir = private_dir
    os.environ["TMPDIR"] = private_dir
    refused = before_sandbox() if before_sandbox is not None else None
    if refused is not None:
        return refused
    sandbox = _enter_sandbox(write_fd, private_dir, answer_fd, processes=standby)
    if isinstance(sandbox, dict):
        return sandbox
    if not standby:
        _after_confined(rng_state)
    return sandbox


def _after_confined(rng_state: Any) -> None:
    _jail.run_saved_child_hooks()  # the fork skipped them; here they run confined
    random.setstate(rng_state)


def _run_prepared(sandbox: tuple[Overlay, Any, list[str]], code: Any,
                  namespace: dict[str, Any], *, deadline: float, budget_s: float,
                  filename: str, fast_forward: Any, shrunk: tuple[str, ...],
                  write_fd: int, cut_after_s: float = 0.0, sweep: bool = False
                  ) -> dict[str, Any]:
    """Run the cell in the prepared child; the result to report. ``sweep`` (beside the
    cell): when the run, fast-forwarded, ends clean or with a crash the cut may have
    caused, the iterations its cut skipped run next, newest first (`_swept`)."""
    overlay, policy, layers = sandbox
    cutter: _fastforward.Cutter | None = None
    if fast_forward is not None:
        code, cutter = _fast_forwarded(fast_forward, code, namespace, filename, cut_after_s)

    def judge(exc: BaseException, line: int | None) -> dict[str, Any]:
        if cutter is None:
            return {}
        if exc is cutter.scheduled_failure:  # a cut fit's schedule at a skipped epoch,
            # called as the real fit calls it (only the library's epochs were cut)
            return {"cut_before_crash": True, "cut_only_library": True,
                    "cut_may_cause": False}
        # a library's cut (fewer epochs, trees) cannot cause what its input checks raise
        library = bool(cutter.library_cuts) and not _fastforward.raised_by_input_checks(exc)
        if cutter.crashed_in_last_iteration(exc, line, namespace, filename):  # an index past
            # the end, a size the smaller last batch breaks
            return {"cut_before_crash": True, "cut_may_cause": False, "last_iteration": True}
        if cutter.crashed_in_kept_iteration(exc, line, namespace, filename):  # the own values
            # of an iteration the loop's run kept (its earlier runs were cut)
            return {"cut_before_crash": True, "cut_may_cause": False, "kept_iteration": True}
        if library and not cutter.cut:  # fewer iterations, every loop whole
            return {"cut_before_crash": True, "cut_only_library": True,
                    "cut_may_cause": cutter.judge_library(exc, line, namespace)}
        if cutter.shapes_kept(exc, line, filename, namespace):  # weights updated in place:
            # shapes as the real run has them, however many iterations ran
            return {"cut_before_crash": True, "cut_may_cause": False, "shapes_kept": True}
        if cutter.rows_kept(exc, line, filename, namespace):  # a value of the frames the
            # cut loop collected, each the real run's own, converted value by value
            return {"cut_before_crash": True, "cut_may_cause": False}
        if cutter.duplicates_kept(exc, line, filename, namespace):  # a reshape of the
            # frames the cut loop collected, each the real run's own, on a key twice
            return {"cut_before_crash": True, "cut_may_cause": False, "duplicates_kept": True}
        if cutter.stacks_kept(exc, line, filename, namespace):  # arrays of the list the
            # cut loop collected, each the real run's own, whose shapes do not fit together
            return {"cut_before_crash": True, "cut_may_cause": False, "stacks_kept": True}
        if cutter.prefix_kept(exc, line, filename, namespace):  # an item of the list's
            # first ones, appended before the first cut (the real run's own), fails it
            return {"cut_before_crash": True, "cut_may_cause": False, "items_kept": True}
        if cutter.keys_kept(exc, line, filename, namespace):  # a merge that refuses the
            # keys of a right dataset no cut loop makes: whatever the left holds
            return {"cut_before_crash": True, "cut_may_cause": False, "keys_kept": True}
        if cutter.key_types_kept(exc, line, filename, namespace):  # a merge of the group
            # keys a cut loop collected, of one type, with a table's keys of another
            return {"cut_before_crash": True, "cut_may_cause": False, "key_types_kept": True}
        if cutter.grads_kept(exc, line, filename, namespace):  # tensors a cut loop collected
            # that require grad: so do the real run's, made by the same layers
            return {"cut_before_crash": True, "cut_may_cause": False, "grads_kept": True}
        if cutter.inputs_kept(exc, line, filename, namespace):  # a statement after the cut
            # loops that reads nothing they may change: its values are the real run's
            return {"cut_before_crash": True, "cut_may_cause": False, "inputs_kept": True}
        return {"cut_before_crash": bool(cutter.cut) or library,
                "cut_may_cause": cutter.judge(exc, line, filename)}
    _watch_thread_pools(write_fd, deadline)
    if cutter is not None:  # the cut's clock is the cell's own: the child's set-up (the
        # libraries' caps scan every module of a loaded boosting library, tens of ms in a
        # big kernel) would otherwise cut a short loop that the real run finishes at once
        cutter.began = time.perf_counter()
    result = _execute(code, namespace, policy, filename, deadline, budget_s, judge)
    if sweep and cutter is not None and cutter.tails and (
            result["outcome"] == "completed" or cut_doubtful(result)):
        result = _swept(cutter, namespace, policy, filename, deadline, budget_s) or result
    if cutter is not None:
        scale = cutter.scale()
        result.update(fast_forwarded=True, cuts=cutter.evidence(),
                      scale=scale if math.isfinite(scale) else 1e9,
                      extra_s=min(cutter.library_extra_s, 1e9))
    result.update(shrunk_names=list(shrunk), shrunk=bool(shrunk), writes=list(overlay.report()),
                  layers=layers)
    return result


def _swept(cutter: _fastforward.Cutter, namespace: dict[str, Any], policy: Any,
           filename: str, deadline: float, budget_s: float) -> dict[str, Any] | None:
    """Run the iterations the cut loops skipped, newest first, loop after loop
    (`_fastforward.Cutter.sweep_codes`); the crash of one that fails on its own values
    (`crashed_in_swept_iteration`), else None (the run's own result stands). A blocked
    side effect or the budget's end stops it."""
    def judge(loop_id: int, where: dict[str, Any]) -> Any:
        def judged(exc: BaseException, line: int | None) -> dict[str, Any]:
            if cutter.crashed_in_swept_iteration(exc, line, where, filename, loop_id):
                return {"cut_before_crash": True, "cut_may_cause": False,
                        "swept_iteration": True}
            return {"cut_before_crash": True, "cut_may_cause": True}
        return judged

    for loop_id, code in cutter.sweep_codes(filename):  # (each loop's names restored as
        # its turn comes)
        scratch = cutter.quick_namespace(loop_id, namespace)
        if scratch is not None:  # first the library fits cut, in a copy (`quick_namespace`)
            now = time.perf_counter()
            found = _quickly(cutter, scratch, lambda: _execute(
                code, scratch, policy, filename, min(deadline, now + QUICK_SHARE * (
                    deadline - now)), budget_s, judge(loop_id, scratch)))
            if found.get("swept_iteration") or policy.blocked is not None:
                return found if found.get("swept_iteration") else None
        found = _execute(code, namespace, policy, filename, deadline, budget_s,
                         judge(loop_id, namespace))
        if found.get("swept_iteration"):
            return found
        if found["outcome"] == "inconclusive":
            return None
        after = cutter.after_sweep_code(loop_id, filename)
        if after is not None:  # the cell's last loop: the rest of the cell, again
            return _continued(cutter, loop_id, after, namespace, policy, filename, deadline,
                              budget_s)
    return None


def _continued(cutter: _fastforward.Cutter, loop_id: int, code: Any,
               namespace: dict[str, Any], policy: Any, filename: str, deadline: float,
               budget_s: float) -> dict[str, Any] | None:
    """Run ``code``, the cell's statements after its last swept loop, again, on what the
    loop's skipped iterations added (`Cutter.after_sweep_code`); the crash of a join of
    what the loop collected that fails on a value or a key wherever it stands, else None."""
    def judged(exc: BaseException, line: int | None) -> dict[str, Any]:
        for kind in ("rows_kept", "duplicates_kept", "stacks_kept"):
            if getattr(cutter, kind)(exc, line, filename, namespace):
                return {"cut_before_crash": True, "cut_may_cause": False, "rejoined": True,
                        kind: True}
        if cutter.inputs_joined(exc, line, filename, namespace):  # a fit's input checks
            # refuse a join of what the loop collected, with every row the real run's holds
            return {"cut_before_crash": True, "cut_may_cause": False, "rejoined": True}
        return {"cut_before_crash": True, "cut_may_cause": True}

    cutter.continuing = loop_id
    try:
        found = _execute(code, namespace, policy, filename, deadline, budget_s, judged)
    finally:
        cutter.continuing = None
    return found if found.get("rejoined") else None


#: The share of the budget left that a quick pass of a loop's skipped iterations, its
#: library fits cut, may take before the sweep proper (`_fastforward.Cutter.quick_namespace`).
QUICK_SHARE = 0.25


def _quickly(cutter: _fastforward.Cutter, scratch: dict[str, Any],
             run: Callable[[], dict[str, Any]]) -> dict[str, Any]:
    """``run`` a quick pass: the cutter reads ``scratch`` and keeps the library fits cut
    (`Cutter.quick`); what the sweep proper counts is as before it, after."""
    saved = (cutter.namespace, dict(cutter.sweep_items), dict(cutter.sweep_failures))
    cutter.namespace, cutter.quick = scratch, True
    try:
        return run()
    finally:
        cutter.quick = False
        cutter.namespace = saved[0]
        cutter.sweep_items.clear()
        cutter.sweep_items.update(saved[1])
        cutter.sweep_failures.clear()
        cutter.sweep_failures.update(saved[2])


def _enter_sandbox(write_fd: int, private_dir: str, answer_fd: int, *,
                   processes: bool = False) -> tuple[Overlay, Any, list[str]] | dict[str, Any]:
    """Install the overlay, the probes, the policy and the kernel layer, in that order.

    Returns (overlay, policy, active kernel layers), or the inconclusive result to report
    when the child cannot be made safe.
    """
    overlay = Overlay(private_dir)
    overlay.install()

    def request(frame: bytes) -> None:
        with _REPORT_LOCK:
            _write_all(write_fd, frame)

    _probes.answer_probes(request, answer_fd)
    policy = _sandbox.install(private_dir, overlay)
    left = _confine.privatise_shared_mappings()
    if left:
        return {"outcome": "inconclusive", "blocked": f"shared mapping {left[0]}",
                "reason": f"a writable shared mapping could not be made private: {left[0]}"}
    _confine.swap_writable_fds(overlay.hold, keep={0, 1, 2, write_fd, answer_fd})
    confinement = _confine.confine(private_dir, processes=processes)
    policy.landlock = confinement.landlock

    block = policy.block  # bound now: a cell that rebinds Policy.block changes nothing here

    def no_input(*_args: Any, **_kwargs: Any) -> str:
        block("input() would wait for the user")
        return ""

    builtins.input = no_input
    if "getpass" in sys.modules:
        sys.modules["getpass"].getpass = no_input
    layers = ["namespaces"] + [name for name, on in (("seccomp", confinement.seccomp),
                                    ("landlock", confinement.landlock)) if on]
    return overlay, policy, layers


def _fast_forwarded(tree: Any, code: Any, namespace: dict[str, Any], filename: str,
                    cut_after_s: float) -> tuple[Any, _fastforward.Cutter]:
    """The cell's code with its loops (and those of the functions it calls) cut short."""
    import ast

    loops: dict[int, _fastforward.LoopInfo] = {}
    rewritten = _fastforward.rewrite_cell(clone(tree), loops)
    functions = _fastforward.rewrite_functions(code, namespace, loops, tree)
    cutter = _fastforward.Cutter(loops, functions=functions, cell_tree=tree,
                                 cut_after_s=cut_after_s, namespace=namespace,
                                 filename=filename)
    namespace[_fastforward.HELPER] = cutter
    _fastforward.import_capped(tree)
    _fastforward.cap_libraries(cutter, namespace)
    new_code = compile(rewritten, filename, "exec", flags=ast.PyCF_ALLOW_TOP_LEVEL_AWAIT,
                       dont_inherit=True)
    return new_code, cutter


def _report(write_fd: int, result: dict[str, Any] | bytes) -> bool:
    """Write the one report of this process (a later one is dropped: the shrunk sibling's,
    forwarded by `_sibling`, and the whole run's may both come); whether this one went."""
    line = result if isinstance(result, bytes) else _DUMPS(result).encode() + b"\n"
    with _REPORT_LOCK:
        if _REPORTED:
            return False
        _REPORTED.append(True)
        _write_all(write_fd, line)  # the newline ends it
    return True


def _fork_safe_threads() -> None:
    """Keep libraries whose thread pools died in the fork from waiting on them forever."""
    torch = sys.modules.get("torch")
    if torch is not None:
        # OpenMP's worker team did not survive the fork: a parallel region started by the
        # child waits for it forever. One thread runs every op inline instead.
        try:
            torch.set_num_threads(1)
        except Exception:
            pass
    context = sys.modules.get("tensorflow.python.eager.context")
    if getattr(getattr(context, "_context", None), "_initialized", False):
        # A tf.function runs its graph on the runtime's inter-op pool, whose threads did not
        # survive the fork; run functions eagerly, op by op in this thread (Keras fit and
        # predict included). Large ops still shard onto the intra-op pool: the watchdog
        # below stops those quickly.
        try:
            sys.modules["tensorflow"].config.run_functions_eagerly(True)
        except Exception:
            pass
    lightgbm = getattr(sys.modules.get("lightgbm.basic"), "_LIB", None)
    if lightgbm is not None:
        # LightGBM sets its own thread count on each call: cap it (4.2 and later)
        try:
            import ctypes
            lightgbm.LGBM_SetMaxThreads(ctypes.c_int(1))
        except Exception:
            pass
    loader = getattr(sys.modules.get("torch.utils.data.dataloader"), "DataLoader", None)
    if loader is not None:
        _load_in_process(loader)
    joblib = sys.modules.get("joblib")
    if joblib is not None:
        # joblib's process pools (sklearn's n_jobs) would fork or spawn, which is blocked:
        # run their tasks one after another in this process; the results are the same.
        try:
            config = getattr(joblib, "parallel_config", None) or joblib.parallel_backend
            config(backend="sequential").__enter__()
        except Exception:
            pass
    try:  # the OOM killer should take the dry run, not the kernel it was forked from
        with open("/proc/self/oom_score_adj", "w") as fh:
            fh.write("1000")
    except OSError:
        pass


#: Libraries whose parallel regions use an OpenMP runtime of the process (scikit-learn's
#: histogram gradient boosting and k-means, XGBoost, LightGBM).
_OPENMP_USERS = ("sklearn", "xgboost", "lightgbm")


def _one_openmp_thread() -> None:
    """GNU OpenMP's worker team did not survive the fork either: a parallel region of
    the child would wait for it forever once the kernel had used it (a fit in an earlier
    cell). Each OpenMP runtime loaded in the process runs one thread per region."""
    import ctypes

    paths: set[str] = set()
    try:
        with open("/proc/self/maps") as fh:
            for line in fh:
                if "omp" in line and ("/libgomp" in line or "/libomp" in line or
                                      "/libiomp" in line):
                    paths.add(line.rsplit(None, 1)[-1])
    except OSError:
        return
    for path in paths:
        try:
            runtime = ctypes.CDLL(path, mode=getattr(os, "RTLD_NOLOAD", 4) | ctypes.RTLD_GLOBAL)
            runtime.omp_set_num_threads(1)
        except (OSError, AttributeError):
            continue


def _load_in_process(loader: Any) -> None:
    """DataLoader workers are processes (blocked): load batches in this process instead,
    the same batches in the same order (worker_init_fn is not called)."""
    original = loader._get_iterator

    def get_iterator(self: Any) -> Any:
        if getattr(self, "num_workers", 0):
            self.num_workers = 0
            self.timeout = 0
        return original(self)

    loader._get_iterator = get_iterator


_REPORT_LOCK = threading.Lock()
#: Holds True once this process has written its report (`_report`).
_REPORTED: list[bool] = []
_POOL_LIBRARIES = ("tensorflow", "keras", "tf_keras", "torch", "jax", "jaxlib", "xgboost",
                   "lightgbm")
#: The main thread idle (under 5% of a CPU) this long inside one of those libraries means it
#: waits for a thread pool that did not survive the fork.
STUCK_AFTER_S = 1.5


def _stuck_in(main: int) -> str | None:
    frame = sys._current_frames().get(main)
    while frame is not None:
        root = str(frame.f_globals.get("__name__", "")).partition(".")[0]
        if root in _POOL_LIBRARIES:
            return root
        frame = frame.f_back
    return None


def _runnable(tid: int | None) -> bool:
    """Whether the thread is runnable (state R: it waits for a CPU, not for a lock)."""
    try:
        with open(f"/proc/self/task/{tid}/stat") as fh:
            return fh.read().rsplit(")", 1)[1].split()[0] == "R"
    except (OSError, IndexError, TypeError):
        return False


def _watch_thread_pools(write_fd: int, deadline: float) -> None:
    """Start a thread that ends the child early when a library waits on a dead thread
    pool."""
    main = threading.main_thread().ident or threading.get_ident()
    native = threading.main_thread().native_id
    exit_now, report = os._exit, _report

    def watch() -> None:
        since_wall, since_cpu = time.perf_counter(), time.process_time()
        last = since_wall
        while time.perf_counter() < deadline:
            time.sleep(0.25)
            wall, cpu = time.perf_counter(), time.process_time()
            if wall - last > 1.0:  # the parent held the child stopped: no evidence either way
                since_wall, since_cpu = wall, cpu
            last = wall
            library = _stuck_in(main)
            if library is None or cpu - since_cpu > 0.05 * (wall - since_wall) or \
                    _runnable(native):  # starved of CPU (a busy machine), not stuck
                since_wall, since_cpu = wall, cpu
                continue
            if wall - since_wall >= STUCK_AFTER_S:
                reason = (f"the cell waited {wall - since_wall:.1f} s inside {library} with an "
                          f"idle CPU: {library}'s thread pool did not survive the fork")
                report(write_fd, {"outcome": "inconclusive", "reason": reason,
                                  "over_budget": True, "stuck_in": library})
                exit_now(0)

    threading.Thread(target=watch, name="crashpredict-watchdog", daemon=True).start()


# Bound now: the cell may rebind json.dumps or os.write in the child's modules.
_DUMPS = json.dumps


def _write_all(fd: int, data: bytes, _write: Any = os.write) -> None:
    view = memoryview(data)
    while view:
        view = view[_write(fd, view):]


def report_failure(write_fd: int, exc: BaseException) -> None:
    """Tell the parent that the child's own machinery failed (not the cell)."""
    reason = f"the dry run's child failed: {type(exc).__name__}: {message_of(exc)}"
    _write_all(write_fd, _DUMPS({"outcome": "inconclusive", "reason": reason}).encode() + b"\n")
