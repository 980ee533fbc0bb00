"""The ``dryrun`` engine: run the target cell on a copy-on-write fork of the kernel.

`dry_run` forks the current process (the kernel), and the child (`_child`) silences
its output, installs the side-effect policy of `_sandbox`, optionally shrinks the data
(`_shrink`) and executes the cell in its copy of the namespace under a wall-clock budget. The child
sends back one JSON object through a pipe and leaves with ``os._exit``; the parent never
waits longer than the budget plus `KILL_MARGIN_S`, then kills the child's process group
and reaps it. The parent's objects, files and RNG states are never touched.

`_verdict` turns the result into a `Verdict` and merges it with the rule engine's.
"""

from __future__ import annotations

import ast
import dataclasses
import fcntl
import json
import math
import os
import random
import select
import shutil
import signal
import sys
import tempfile
import threading
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any


from .._options import DEFAULT_DRYRUN_BUDGET_S
from ..errors import CrashPredictError
from . import _jail
from ._child import (MAX_CELL_BYTES, freeze_kernel_objects, jailed, message_of, report_failure,
                     run_child, run_standby)
from ._fastforward import compile_cell as _compile
from ._fastforward import loop_tree as _loop_tree
from ._fastforward import names_read as _names_read
from ._kill import kill_now
from ._kinds import cut_doubtful as _cut_doubtful
from ._probes import serve_request

__all__ = [
    "DEFAULT_BUDGET_S", "DryRun", "DryRunError", "KILL_MARGIN_S", "OUTCOMES", "RETRY_ROWS",
    "dry_run", "fork_refusal",
]

OUTCOMES = ("crashed", "completed", "inconclusive")
#: Default wall-clock budget of one dry run, in seconds (the CLI's --dryrun-budget default).
DEFAULT_BUDGET_S = DEFAULT_DRYRUN_BUDGET_S
#: How long past the budget the parent waits for the child's own report before killing it.
KILL_MARGIN_S = 0.5
#: a child's private folder is named ``<PREFIX><the kernel's pid>-<random>`` (a folder whose
#: kernel was killed is removed by the next kernel that makes one: `_beside.sweep`)
PREFIX = "crashpredict-dryrun-"
#: The rows kept when a run over budget is retried on shrunk data.
RETRY_ROWS = 500


class DryRunError(CrashPredictError, ValueError):
    """`dry_run` was called with arguments it cannot use (a bad budget, a non-dict namespace)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class DryRun:
    """What happened when the cell ran on a fork of the kernel.

    ``outcome`` is one of `OUTCOMES`. For "crashed": ``exception`` (class name),
    ``message``, ``line`` (1-based in the cell) and ``traceback`` (short frames,
    outermost first). For "inconclusive": ``reason``, and ``blocked`` when a side effect
    was refused. ``shrunk_names`` lists the objects cut by ``shrink`` (or by the retry over
    budget, whose first reason is ``retry_reason``); ``writes`` says what the cell would
    have written (the overlay's report); ``layers`` the kernel layers that were active;
    ``stuck_in`` names the library whose dead thread pool stopped the run (a disposable
    kernel could run such a cell for real instead); ``startup_s`` is the time from the
    fork to the child's first signal of life. A run over budget is retried
    fast-forwarded (`_fastforward`): ``fast_forwarded``, ``cuts`` (what was cut, e.g.
    "for epoch in range(50) (line 3 of the cell): ran 3 iterations of 50 in all"),
    ``cut_before_crash`` (a cut had taken effect when the cell raised),
    ``cut_may_cause`` (the crashing statement reads what a cut loop makes, or, after
    ``cut_only_library`` cuts (fewer epochs, trees or rounds, no loop cut), what counts
    the iterations: `_fastforward.Cutter.judge_library`); ``last_iteration`` (it raised in
    the last iteration of a cut loop, run after the cut, an index past the end
    that reads nothing the cut changed: `_fastforward.Cutter.crashed_in_last_iteration`);
    ``kept_iteration`` (it raised on its own values in an iteration a cut loop's current
    run kept, before any skip of that run: `_fastforward.Cutter.crashed_in_kept_iteration`);
    ``swept_iteration`` (it raised on its own values in an iteration a cut loop skipped, run
    newest first after the cell: `_fastforward.Cutter.crashed_in_swept_iteration`);
    ``shapes_kept`` (a shape error after a cut loop, in an expression of arrays the cut
    loops update only in place: `_fastforward.Cutter.shapes_kept`); ``stacks_kept`` (a
    stack after a cut loop of the arrays it collected, whose shapes do not fit together:
    `_fastforward.Cutter.stacks_kept`); ``items_kept`` (a failure after a cut loop of one of
    the first items of a list it appended to, before the first cut:
    `_fastforward.Cutter.prefix_kept`); ``grads_kept`` (tensors a cut loop collected that
    require grad, given after it to what takes none: `_fastforward.Cutter.grads_kept`);
    ``keys_kept`` (a merge after a cut loop that refuses the keys of a dataset no cut
    loop makes: `_fastforward.Cutter.keys_kept`); ``key_types_kept`` (a merge after a cut
    loop of the groupby keys it collected, of one type, with keys of another:
    `_fastforward.Cutter.key_types_kept`); ``duplicates_kept`` (a reshape after
    a cut loop, of the frames it collected, that refuses a key twice:
    `_fastforward.Cutter.duplicates_kept`); ``inputs_kept`` (a statement after a cut loop
    that reads nothing the cut loops may change: `_fastforward.Cutter.inputs_kept`);
    ``rejoined`` (the rest of the cell, run again
    after the last swept loop's skipped iterations, failed on a join of what the loop
    collected, on a value or a key wherever it stands, or in a library's input checks of
    it: `_child._continued`);
    ``found_by_rules``
    (the crash is the rule engine's, found with its trials on the live values in the
    standby child before its run or in the sibling's fork: `_sibling.rules_on_the_whole`;
    ``message`` is the rules' explanation, ``rules_confidence`` their confidence).
    """

    outcome: str
    exception: str | None = None
    message: str = ""
    line: int | None = None
    traceback: tuple[str, ...] = ()
    library: str | None = None
    blocked: str | None = None
    reason: str = ""
    shrunk: bool = False
    shrunk_names: tuple[str, ...] = ()
    elapsed_s: float = 0.0
    startup_s: float | None = None
    writes: tuple[str, ...] = ()
    layers: tuple[str, ...] = ()
    retry_reason: str = ""
    stuck_in: str | None = None
    fast_forwarded: bool = False
    cuts: tuple[str, ...] = ()
    cut_before_crash: bool = False
    cut_may_cause: bool = False
    cut_only_library: bool = False
    last_iteration: bool = False
    kept_iteration: bool = False
    swept_iteration: bool = False
    shapes_kept: bool = False
    stacks_kept: bool = False
    items_kept: bool = False
    grads_kept: bool = False
    keys_kept: bool = False
    key_types_kept: bool = False
    duplicates_kept: bool = False
    inputs_kept: bool = False
    rejoined: bool = False
    found_by_rules: bool = False
    rules_confidence: float = 0.0

    def to_dict(self) -> dict[str, Any]:
        """Return a JSON-ready dict (tuples as lists)."""
        data = dataclasses.asdict(self)
        data["traceback"] = list(self.traceback)
        for key in _TUPLES:
            data[key] = list(getattr(self, key))
        return data

    def to_json(self) -> str:
        """Return the result as a JSON object string."""
        return json.dumps(self.to_dict(), sort_keys=True)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> DryRun:
        """Build a result from `to_dict` output; unknown keys are ignored."""
        names = {f.name for f in dataclasses.fields(cls)}
        kwargs = {k: v for k, v in data.items() if k in names}
        for key in _TUPLES:
            kwargs[key] = tuple(kwargs.get(key, ()))
        return cls(**kwargs)


_TUPLES = ("traceback", "shrunk_names", "writes", "layers", "cuts")


# ---- refusing where a fork is unsafe -------------------------------------------------------

_GUI_LOOPS = ("qt", "tk", "gtk", "wx", "osx", "macosx", "pyglet", "glut")
_GUI_BACKENDS = frozenset({
    "tkagg", "tkcairo", "qtagg", "qtcairo", "qt5agg", "qt5cairo", "qt6agg", "gtk3agg",
    "gtk3cairo", "gtk4agg", "gtk4cairo", "wxagg", "wxcairo", "wx", "macosx",
})


def _tensorflow_gpus(tf: Any) -> bool:
    # list_logical_devices would start TensorFlow's runtime if it is not running yet; a
    # runtime that never started has touched no GPU, so only ask a running one.
    context = sys.modules.get("tensorflow.python.eager.context")
    ctx = getattr(context, "_context", None)
    if ctx is None or not getattr(ctx, "_initialized", False):
        return False
    return bool(tf.config.list_logical_devices("GPU"))


def _gui_loop() -> str | None:
    mpl, plt = sys.modules.get("matplotlib"), sys.modules.get("matplotlib.pyplot")
    if mpl is not None and plt is not None:
        # dict.get: rcParams["backend"] would resolve (and maybe switch) the backend.
        backend = str(dict.get(mpl.rcParams, "backend", "")).lower()
        if backend in _GUI_BACKENDS and plt.get_fignums():
            return f"matplotlib's {backend} backend has open figures"
    ipython = sys.modules.get("IPython")
    shell = ipython.get_ipython() if ipython is not None else None
    loop = getattr(getattr(shell, "kernel", None), "eventloop", None)
    if loop is not None:
        return f"the kernel runs a %gui event loop ({getattr(loop, '__name__', loop)})"
    active = str(getattr(shell, "active_eventloop", None) or "").lower()
    if active.startswith(_GUI_LOOPS):
        return f"IPython runs a %gui {active} event loop"
    return None


#: Why the kernel refused the jail (`_jail`), once seen: later dry runs do not try again.
_JAIL_REFUSED: list[str] = []

#: How long the last few forks of this process took (the calling thread waits that long,
#: and so does every other thread that touches memory meanwhile): see `fork_cost`.
_FORKS_TOOK: list[float] = []
_FORKS_KEPT = 3


def fork_cost() -> float | None:
    """Seconds a fork of this process takes now: the median of the last three (the
    page tables grow with the kernel's memory), None before the first."""
    took = sorted(_FORKS_TOOK)
    return took[len(took) // 2] if took else None


def fork_refusal() -> str | None:
    """Return why this process must not be forked for a dry run, or None when it may be.

    Refuses without os.fork (Windows), with CUDA initialised (torch, or a running
    TensorFlow runtime with GPUs) and with a GUI event loop running. Imports nothing:
    each library is asked only when it is already in ``sys.modules``.
    """
    if not hasattr(os, "fork"):
        return "os.fork is not available on this platform, so no dry run"
    if _JAIL_REFUSED:
        return _JAIL_REFUSED[0]
    torch = sys.modules.get("torch")
    try:
        if torch is not None and torch.cuda.is_initialized():
            return ("CUDA is initialised in the kernel (torch): a forked child cannot use the "
                    "kernel's CUDA context (the driver's state belongs to one process; the "
                    "child's first CUDA call would fail or hang), and it would share the GPU's "
                    "memory with the kernel")
    except Exception:  # a broken or stub torch: no CUDA to worry about
        pass
    tf = sys.modules.get("tensorflow")
    try:
        if tf is not None and _tensorflow_gpus(tf):
            return ("TensorFlow's runtime holds GPUs in the kernel: a forked child cannot use "
                    "the kernel's CUDA context (the driver's state belongs to one process)")
    except Exception:
        pass
    try:
        gui = _gui_loop()
    except Exception:
        gui = None
    return f"{gui}: forking it is unsafe" if gui else None


# ---- the parent --------------------------------------------------------------------------


def _kill_and_reap(pid: int, grace_s: float = 0.0) -> int | None:
    """SIGKILL the child's group (a zombie ignores it) and reap it; return its exit code.

    With ``grace_s``, a child that is ending anyway (its report is in) gets that long to
    end by itself first, so its own exit code is what is reported.
    """
    end = time.perf_counter() + grace_s
    while grace_s:
        try:
            done, status = os.waitpid(pid, os.WNOHANG)
        except ChildProcessError:
            return None
        if done:
            return os.waitstatus_to_exitcode(status)
        if time.perf_counter() >= end:
            break
        time.sleep(0.002)
    kill_now(pid)
    try:
        _, status = os.waitpid(pid, 0)
    except ChildProcessError:  # reaped by someone else's waitpid(-1)
        return None
    return os.waitstatus_to_exitcode(status)


# Bound at import: a cell that rebinds os._exit must not keep the child alive in the kernel.
_EXIT = os._exit


@dataclass(slots=True)
class _Child:
    """A forked child and the parent's ends of its pipes (``cell_fd``: a standby's)."""

    pid: int
    read_fd: int
    answer_fd: int
    started: float
    deadline: float
    cell_fd: int = -1
    #: a standby's pipe for the record of the pages it copied while it waited (`copy_ahead`)
    copy_fd: int = -1
    #: a held child's gate (`open_gate`): it waits there, idle, until the parent opens it
    gate_fd: int = -1


#: A standby child runs the cell this long before the real cell starts (the kernel waits
#: that long for it, at most: a quick crash is warned about, in strict mode refused,
#: before it runs; a one-line cell's answer takes 2-5 ms)...
HEAD_START_S = 0.010
#: ...but a cell that loops or fits (likely long) does not wait beyond the rules in warn
#: mode (the default): its child answers beside it, and a wait would cost every such
#: cell its 10 ms, a tenth of a 0.1 s cell...
HEAD_START_WARN_S = 0.0005
#: ...then it runs beside the cell at the kernel's priority wherever a CPU is left idle
#: by the cell. Beside a cell that keeps every CPU busy (numpy, torch, XGBoost, Keras on
#: all cores) it is held stopped for the cell's first `BUSY_HOLD_S` (a fine cell pays
#: nothing for it), then runs one tick in `BUSY_PERIOD` (about a sixth of a CPU on two:
#: a long cell's crash is still seen within seconds; a child at nice 19 got 1.5% of a CPU
#: there and answered after tens of seconds, or never).
BUSY_HOLD_S = 1.0
BUSY_PERIOD = 3
#: A standby child's pipe for the cell holds this much (a larger cell is not dry-run).
_CELL_PIPE_BYTES = 1 << 20
_F_SETPIPE_SZ, _F_GETPIPE_SZ = 1031, 1032


def _fork_child(budget_s: float, *, jail: bool = True, standby: bool = False,
                copy_ahead: bool = False, held: bool = False, **child_args: Any) -> _Child:
    """Fork the child (jailed, see `jailed`) and return at once.

    The OOM killer takes any dry run's processes first; then the child gives back the
    free memory of the kernel's heap it inherited (`_release_free_heap`). ``standby``: the
    child gets ready and waits for the cell on a third pipe (`_child.run_standby`,
    `send_cell`); its deadline counts from the cell's arrival. ``copy_ahead`` (a
    standby): while it waits, it copies the pages it shares with the kernel and says what
    it copied on a fourth pipe (``copy_fd``, see `_prefault.copy_for_kernel`). ``held``:
    after giving the heap back it waits, idle, until `open_gate` (the end of the pipe
    closed first: it leaves), so it builds nothing while a cell that is starting needs the
    CPUs, yet gives back the heap at once, before the cell reuses it.
    """
    read_fd, write_fd = os.pipe()
    answer_read, answer_write = os.pipe()
    cell_read = cell_write = copy_read = copy_write = gate_read = gate_write = -1
    if held:
        gate_read, gate_write = os.pipe()
    if standby:
        cell_read, cell_write = os.pipe()
        try:
            fcntl.fcntl(cell_write, _F_SETPIPE_SZ, _CELL_PIPE_BYTES)
        except OSError:  # a lower /proc/sys/fs/pipe-max-size: larger cells are skipped
            pass
        if copy_ahead:
            copy_read, copy_write = os.pipe()
    started = time.perf_counter()
    deadline = started + budget_s
    with _jail.suspended_fork_hooks():
        before = time.perf_counter()
        pid = os.fork()
        if pid == 0:
            freeze_kernel_objects()  # before anything in the child could start a collection
        took = time.perf_counter() - before
    if pid:
        _FORKS_TOOK.append(took)
        del _FORKS_TOOK[:-_FORKS_KEPT]
    if pid == 0:  # the child: never return into the caller's code
        try:
            os.close(read_fd)
            os.close(answer_write)
            _first_for_the_oom_killer()  # each process of the jail's chain, before the kernel
            _release_free_heap()  # before the jail's forks: none of them holds those pages
            if gate_read >= 0:
                os.close(gate_write)
                if not _wait_at_gate(gate_read):
                    return  # discarded while held (the finally below leaves)
            if standby:
                os.close(cell_write)
            if copy_read >= 0:
                os.close(copy_read)

            def body() -> None:
                if standby:
                    run_standby(write_fd, cell_read, budget_s=budget_s, answer_fd=answer_read,
                                copy_fd=copy_write, **child_args)
                else:
                    run_child(write_fd, deadline=deadline, budget_s=budget_s,
                              answer_fd=answer_read, **child_args)
            if jail:
                jailed(write_fd, answer_read, child_args["private_dir"], body,
                       keep=tuple(fd for fd in (cell_read, copy_write) if fd >= 0),
                       light_mirrors=copy_write >= 0)
            else:
                os.setpgid(0, 0)
                body()
        except BaseException as exc:  # noqa: BLE001 - whatever happens, report and leave
            try:
                report_failure(write_fd, exc)
            except BaseException:  # noqa: BLE001
                pass
        finally:
            _EXIT(0)
    os.close(write_fd)
    os.close(answer_read)
    if standby:
        os.close(cell_read)
    if copy_write >= 0:
        os.close(copy_write)
    if gate_read >= 0:
        os.close(gate_read)
    try:
        os.setpgid(pid, pid)  # also here: the child may not have run yet when we kill it
    except OSError:
        pass
    os.set_blocking(answer_write, False)  # a child that stops reading cannot block us
    return _Child(pid, read_fd, answer_write, started, deadline, cell_write, copy_read,
                  gate_write)


#: Taking a gate's descriptor is atomic: the pacer's thread opens it, a clean-up closes it.
_GATE_LOCK = threading.Lock()


def _take_gate(child: _Child) -> int:
    with _GATE_LOCK:
        fd, child.gate_fd = child.gate_fd, -1
    return fd


def open_gate(child: _Child) -> None:
    """Let a held child go on (see `_fork_child`); closing the gate unopened (`close_gate`)
    makes it leave. Does nothing for a child not held, or opened already."""
    fd = _take_gate(child)
    if fd < 0:
        return
    try:
        os.write(fd, b"g")  # an empty pipe: never blocks
    except OSError:
        pass
    finally:
        os.close(fd)


def close_gate(child: _Child) -> None:
    """Close a held child's gate without opening it (the child is discarded)."""
    fd = _take_gate(child)
    if fd >= 0:
        os.close(fd)


def _wait_at_gate(fd: int) -> bool:
    """In a held child: wait until the parent opens the gate (True) or closes it (False)."""
    while True:
        try:
            opened = os.read(fd, 1) == b"g"
        except InterruptedError:
            continue
        except OSError:
            opened = False
        os.close(fd)
        return opened


def _malloc_trim() -> Any:
    """glibc's ``malloc_trim``, resolved once in the kernel; None elsewhere (musl, macOS)."""
    try:
        import ctypes

        trim = ctypes.CDLL(None).malloc_trim
    except (ImportError, OSError, AttributeError):
        return None
    trim.argtypes, trim.restype = [ctypes.c_size_t], ctypes.c_int
    return trim


#: Called in the child only; resolved here so the child runs no import or lookup for it.
_TRIM = _malloc_trim()


def _release_free_heap() -> None:
    """In the child, right after the fork: give back the pages of the heap that hold no
    allocation (``malloc_trim``). The kernel reuses that free memory for its next
    allocations (numpy's temporaries and results, pandas' buffers); while the child shares
    a page, each first write of it by the kernel copies it. Given back by the child, those
    pages are the kernel's alone again, and its writes copy nothing. The child loses only
    free memory; the kernel is not touched."""
    if _TRIM is None:
        return
    try:
        _TRIM(0)
    except Exception:  # noqa: BLE001 - a child: nothing may stop it here
        pass


def send_cell(child: _Child, source: str, budget_s: float) -> bool:
    """Give a standby child its cell; False when it cannot take it (too large, or gone).
    The child's deadline now counts from here."""
    data = source.encode("utf-8", "surrogatepass")
    frame = len(data).to_bytes(8, "big") + data
    try:
        capacity = fcntl.fcntl(child.cell_fd, _F_GETPIPE_SZ)
    except OSError:
        capacity = 1 << 16
    if len(frame) > capacity or len(data) > MAX_CELL_BYTES:
        return False
    try:
        os.write(child.cell_fd, frame)  # an empty pipe of that capacity: never blocks
    except OSError:
        return False
    finally:
        os.close(child.cell_fd)
        child.cell_fd = -1
    now = time.perf_counter()
    child.started, child.deadline = now, now + budget_s
    return True


def _first_for_the_oom_killer() -> None:
    try:
        with open("/proc/self/oom_score_adj", "w") as fh:
            fh.write("1000")
    except OSError:
        pass


def _wait_child(child: _Child, stop: Any = None, prefix: bytes = b"", tick: Any = None,
                reap: bool = True) -> tuple[bytes, float | None, bool, int | None]:
    """Read the child's report until its deadline (answering its probe requests), then
    kill and reap it; return (data, startup, timed_out, exit code). See `_Reader`.

    ``reap`` False: a child whose report is in is left for the caller to `_kill_and_reap`
    (its result is used before the processes are gone).
    """
    reader = _Reader(child, stop, prefix, tick)
    reader.pump()
    return reader.finish(reap)


class _Reader:
    """The parent's side of one child's pipes, readable in steps (`pump`), from any thread
    but one at a time.

    ``stop`` (a `threading.Event`): when set, the wait ends at once (the real cell ended);
    one with a ``fileno()`` wakes the wait at once. ``prefix``: what was read from the
    child's pipe before (a standby's ``A``). ``tick()``, called every `_TICK_S` while the
    child runs: True ends the wait (and the child) as ``stop`` does.
    """

    def __init__(self, child: _Child, stop: Any = None, prefix: bytes = b"",
                 tick: Any = None) -> None:
        self.child, self.stop, self.tick = child, stop, tick
        self.frames = _Frames(child.deadline)
        self.startup: float | None = None
        self.timed_out = False
        #: the child said it is ready (``A``, a standby's): its jail and sandbox are built
        self.armed = prefix[:1] == b"A"
        self.done = bool(prefix) and (not self.frames.feed(prefix)
                                      or self.frames.payload.endswith(b"\n"))
        self._waker = [stop.fileno()] if hasattr(stop, "fileno") else []

    def pump(self, until: float | None = None) -> bool:
        """Read until the report is in, the child is gone or the wait must end (True), or
        until ``until`` (a `time.perf_counter` time) has come (False)."""
        child, frames = self.child, self.frames
        while not self.done:
            now = time.perf_counter()
            left = child.deadline + KILL_MARGIN_S - now
            if left <= 0 or (self.stop is not None and self.stop.is_set()) or \
                    (self.tick is not None and self.tick()):
                self.timed_out = self.done = True
                break
            wait = left if self.stop is None and self.tick is None else min(left, _TICK_S)
            if until is not None:
                wait = min(wait, until - now)
            writers = [child.answer_fd] if frames.pending else []
            ready, writable, _ = select.select([child.read_fd, *self._waker], writers, [],
                                               max(0.0, wait))
            if writable:
                try:
                    sent = os.write(child.answer_fd, frames.pending)
                    del frames.pending[:sent]
                except BlockingIOError:
                    pass
                except OSError:  # the child is gone
                    frames.pending.clear()
            if child.read_fd not in ready:
                if until is not None and time.perf_counter() >= until:
                    return False
                continue
            chunk = os.read(child.read_fd, 1 << 16)
            if not self.armed and chunk[:1] == b"A" and not self.frames.payload:
                self.armed = True
            if self.startup is None and chunk.strip(b"A"):
                self.startup = time.perf_counter() - child.started
            # EOF, over the report's size limit (not to be believed), or the whole report
            # (JSON never holds a raw newline): no need to wait for EOF
            if not chunk or not frames.feed(chunk) or frames.payload.endswith(b"\n"):
                self.done = True
        return True

    def finish(self, reap: bool = True,
               kill: bool = True) -> tuple[bytes, float | None, bool, int | None]:
        """Close the pipes, kill and reap the child (see `_wait_child`); ``kill`` False:
        a child with no report is left for the caller too."""
        child = self.child
        for name in ("read_fd", "answer_fd", "cell_fd"):
            fd = getattr(child, name)
            if fd >= 0:
                try:
                    os.close(fd)
                except OSError:
                    pass
                setattr(child, name, -1)
        payload = bytes(self.frames.payload)
        code = None
        if reap or (not payload and kill):
            code = _kill_and_reap(child.pid, 0.0 if self.timed_out or payload else 0.2)
        return payload, self.startup, self.timed_out, code


#: How often a wait with ``stop`` or ``tick`` looks at them (``stop`` with a pipe: at once).
_TICK_S = 0.02


def _fork_and_wait(budget_s: float, *, jail: bool = True,
                   **child_args: Any) -> tuple[bytes, float | None, bool, int | None]:
    """Fork, wait for the child's report until the deadline; return (data, startup, timed_out, code).

    Meanwhile, answer the child's probe requests (``Q`` frames, see `_probes`). ``jail``
    False skips the namespaces (`_jail`): only the benchmark of the jail's cost, as its
    peer, runs a child without them.
    """
    return _wait_child(_fork_child(budget_s, jail=jail, **child_args))


#: Bytes of the child's report the parent keeps; a longer one is no report.
MAX_REPORT_BYTES = 4 << 20
#: Bytes of one probe request.
MAX_REQUEST_BYTES = 64 << 10
#: Probe requests answered per dry run (each distinct program run once per process).
MAX_PROBES = 32


class _Frames:
    """The parent's reader of the child's pipe: ``R`` (ready), ``Q`` frames, then the JSON.

    Bounded: a report over `MAX_REPORT_BYTES`, a request over `MAX_REQUEST_BYTES` or
    more than `MAX_PROBES` requests end the reading (`feed` returns False) and leave no
    payload; no probe starts after the deadline (each may take `_probes` 5 s).
    """

    def __init__(self, deadline: float = math.inf) -> None:
        self.buffer, self.payload, self.pending = bytearray(), bytearray(), bytearray()
        self.served, self.deadline = 0, deadline

    def feed(self, chunk: bytes) -> bool:
        if self.payload:
            self.payload += chunk
            return self._within()
        self.buffer += chunk
        while self.buffer[:1] in (b"A", b"R"):  # armed (a standby), ready
            del self.buffer[:1]
        while self.buffer[:1] == b"Q" and len(self.buffer) >= 9:
            size = int.from_bytes(self.buffer[1:9], "big")
            if size > MAX_REQUEST_BYTES or self.served >= MAX_PROBES or \
                    time.perf_counter() >= self.deadline:
                self.buffer.clear()
                return False
            if len(self.buffer) < 9 + size:
                return True
            request = bytes(self.buffer[9:9 + size])
            del self.buffer[:9 + size]
            self.pending += serve_request(request)
            self.served += 1
        if self.buffer and self.buffer[:1] not in (b"Q", b"R", b"A"):
            self.payload += self.buffer
            self.buffer.clear()
        return self._within()

    def _within(self) -> bool:
        if len(self.payload) > MAX_REPORT_BYTES:
            self.payload.clear()
            return False
        return True


def _result(data: bytes, timed_out: bool, code: int | None, budget_s: float) -> dict[str, Any]:
    payload = data
    if payload:
        try:
            fields = _checked(json.loads(payload))
        except (ValueError, RecursionError):
            fields = None
        if fields is not None:
            return fields
    if timed_out:
        hint = ""
        context = sys.modules.get("tensorflow.python.eager.context")
        if getattr(getattr(context, "_context", None), "_initialized", False):
            hint = " (TensorFlow's thread pools do not survive a fork: its ops wait forever)"
        return {"outcome": "inconclusive", "over_budget": True,
                "reason": f"the cell was still running after the {budget_s:g} s budget and did "
                f"not answer its alarm; the dry run was killed{hint}"}
    if code is not None and code < 0:
        name = signal.Signals(-code).name if -code in signal.valid_signals() else str(-code)
        return {"outcome": "inconclusive", "reason": f"the dry run's process died from {name} "
                "(the cell may kill the kernel, or a library is not fork-safe)"}
    return {"outcome": "inconclusive",
            "reason": f"the dry run's process ended without a result (exit code {code})"}


_FIELD_TYPES: dict[str, Any] = {
    "exception": str, "message": str, "line": int, "library": str, "blocked": str,
    "reason": str, "shrunk": bool, "retry_reason": str, "stuck_in": str, "jail": str,
    "over_budget": bool, "fast_forwarded": bool, "cut_before_crash": bool,
    "cut_may_cause": bool, "cut_only_library": bool, "last_iteration": bool, "shapes_kept": bool,
    "stacks_kept": bool, "items_kept": bool, "grads_kept": bool, "keys_kept": bool,
    "key_types_kept": bool, "duplicates_kept": bool, "inputs_kept": bool, "rejoined": bool,
    "found_by_rules": bool, "kept_iteration": bool, "swept_iteration": bool,
    "rules_confidence": float,
    "scale": float,
    "extra_s": float,
}
_LIST_FIELDS = ("traceback", "shrunk_names", "writes", "layers", "cuts")


def _checked(data: Any) -> dict[str, Any] | None:
    """The child's report with every field of the expected type, or None: the child runs
    the cell, so its report is data from the cell, never trusted to be well formed."""
    if not isinstance(data, dict) or data.get("outcome") not in OUTCOMES:
        return None
    fields: dict[str, Any] = {"outcome": data["outcome"]}
    for key, kind in _FIELD_TYPES.items():
        value = data.get(key)
        if isinstance(value, kind) and (kind is not int or not isinstance(value, bool)):
            fields[key] = value[:4000] if isinstance(value, str) else value
    for key in _LIST_FIELDS:
        value = data.get(key)
        if isinstance(value, list):
            fields[key] = [str(v)[:1000] for v in value[:200] if isinstance(v, str)]
    return fields


def dry_run(cell_source: str, namespace: Mapping[str, Any], *, budget_s: float = DEFAULT_BUDGET_S,
            shrink: int | None = None, filename: str = "<cell>",
            retry_rows: int | None = RETRY_ROWS, fast_forward: bool = True) -> DryRun:
    """Run ``cell_source`` on a fork of this process and report what happened.

    The cell runs in the child's copy-on-write copy of ``namespace`` (usually the kernel's
    ``globals()``), with output silenced and side effects blocked; this process, its
    objects, files and RNG states are left as they were.

    Args:
        cell_source: the cell's code (IPython syntax: magics are transformed first).
        namespace: the globals the cell runs in (a dict is used as is, another mapping
            is copied into one).
        budget_s: wall-clock budget of the run; the call returns within about
            ``budget_s + KILL_MARGIN_S`` seconds whatever the cell does.
        shrink: when set, DataFrames, Series, arrays and tensors longer than this many rows
            are cut to their first rows in the child before the cell runs.
        filename: the name the cell's code gets in tracebacks.
        retry_rows: when the run on full data is over budget (and the fast-forwarded one
            too), it is run again (with the same budget) on the first ``retry_rows`` rows of
            the objects the cell reads; the result says so (``shrunk``, ``retry_reason``).
            None: no shrunk retry.
        fast_forward: when the cell (or a function of the notebook it calls) has loops,
            or trains a Keras model, run it first with each loop cut to its first
            iterations (`_fastforward`), then, if that ran clean but cut something, whole
            with the budget left.

    Returns:
        A `DryRun`: "crashed", "completed" or "inconclusive" (with the reason).

    Raises:
        DryRunError: a non-positive budget or shrink, or a namespace that is no mapping.

    Example:
        >>> dry_run("x = {}['k']", {}).exception
        'KeyError'
    """
    if not isinstance(budget_s, (int, float)) or not 0 < budget_s < math.inf:
        raise DryRunError(f"dry run budget must be a positive number of seconds, got {budget_s!r}")
    if shrink is not None and (isinstance(shrink, bool) or not isinstance(shrink, int) or shrink < 1):
        raise DryRunError(f"dry run shrink must be a positive number of rows, got {shrink!r}")
    if not isinstance(namespace, Mapping):
        raise DryRunError(f"dry run namespace must be a mapping, got {type(namespace).__name__}")
    if not isinstance(namespace, dict):  # exec needs a dict; the child's copy is private anyway
        namespace = dict(namespace)
    started = time.perf_counter()
    refusal = fork_refusal()
    if refusal is not None:
        return DryRun(outcome="inconclusive", reason=refusal,
                      elapsed_s=time.perf_counter() - started)
    try:
        code = _compile(cell_source, filename)
    except SyntaxError as exc:  # no need to fork: the kernel would fail the same way
        return DryRun(outcome="crashed", exception=type(exc).__name__, message=message_of(exc),
                      line=exc.lineno, traceback=(f"{filename}:{exc.lineno}",), library="python",
                      elapsed_s=time.perf_counter() - started)
    tree = _loop_tree(cell_source, code, namespace) \
        if fast_forward and shrink is None else None
    if tree is None:
        fields = _run_once(code, namespace, float(budget_s), shrink, filename, None)
        over, doubtful = fields.pop("over_budget", False), False
    else:
        fields, over, doubtful = _fast_forward_first(code, namespace, float(budget_s),
                                                     filename, tree, started)
    if (over or doubtful) and shrink is None and retry_rows:
        # over budget (fast-forwarded too, where it could be): on fewer rows; a crash the
        # loop cut may have caused: the whole loop on fewer rows (a loop over them is short)
        reads = _names_read(code, namespace)
        retry = _run_once(code, namespace, float(budget_s), retry_rows, filename, reads,
                          None if doubtful else tree)
        retry.pop("over_budget", None)
        if not doubtful and tree is not None and retry.get("shrunk") and _cut_doubtful(retry):
            # fast-forwarded on fewer rows, a crash the cut may have caused: the whole cell
            # on those rows (a loop over them is short now)
            whole = _run_once(code, namespace, float(budget_s), retry_rows, filename, reads)
            if whole.pop("over_budget", False) is False and whole.get("shrunk") and \
                    whole.get("outcome") != "inconclusive":
                retry = whole
        if retry.get("shrunk"):
            retry.update(retry_reason=fields.get("retry_reason") or fields.get("reason", ""),
                         startup_s=fields.get("startup_s"))
            fields = retry
    fields["elapsed_s"] = time.perf_counter() - started
    return DryRun.from_dict(fields)


def _fast_forward_first(code: Any, namespace: dict[str, Any], budget_s: float, filename: str,
                        tree: ast.Module, started: float) -> tuple[dict[str, Any], bool, bool]:
    """A cell with loops: fast-forwarded first (its first iterations are the real run's),
    then, when that ran clean but cut something, or raised what the cut may have caused,
    the whole cell with the budget left (when the cuts say it can finish). Returns
    (fields, over budget, doubtful)."""
    began = time.perf_counter()
    cut = _run_once(code, namespace, budget_s, None, filename, None, tree)
    over = cut.pop("over_budget", False)
    scale = cut.pop("scale", 1.0)
    extra = cut.pop("extra_s", 0.0)  # what the cut library calls would have taken more
    doubtful = _cut_doubtful(cut)
    clean_with_cuts = cut.get("outcome") == "completed" and bool(cut.get("cuts"))
    if not (clean_with_cuts or doubtful):
        return cut, over, False  # decisive: a crash that counts, or nothing was cut
    left = budget_s - (time.perf_counter() - started)
    # the fork and the sandbox's set-up take as long again; only the cell's run scales
    took = time.perf_counter() - began
    ready = min(cut.get("startup_s") or 0.0, took)
    if left < 0.5 or ready + (took - ready) * scale + extra > left:
        return cut, False, doubtful  # the whole cell cannot finish in what is left
    whole = _run_once(code, namespace, left, None, filename, None)
    whole.pop("scale", None)
    whole.pop("extra_s", None)
    if whole.pop("over_budget", False) or (whole.get("outcome") == "inconclusive"
                                           and not whole.get("blocked")):
        return cut, False, doubtful  # the fast-forwarded run's answer stands
    return whole, False, False  # a crash, a clean end, or a refused effect later on


def _run_once(code: Any, namespace: dict[str, Any], budget_s: float, shrink: int | None,
              filename: str, reads: tuple[str, ...] | None,
              tree: ast.Module | None = None) -> dict[str, Any]:
    private_dir = tempfile.mkdtemp(prefix=f"{PREFIX}{os.getpid()}-")
    try:
        data, startup, timed_out, exit_code = _fork_and_wait(
            budget_s, code=code, namespace=namespace, shrink=shrink, reads=reads,
            private_dir=private_dir, filename=filename, rng_state=random.getstate(),
            fast_forward=tree)
    finally:
        shutil.rmtree(private_dir, ignore_errors=True)
    fields = _result(data, timed_out, exit_code, budget_s)
    if fields.pop("jail", None) and not _JAIL_REFUSED:
        _JAIL_REFUSED.append(fields.get("reason", "the kernel refused the dry run's isolation"))
    fields["startup_s"] = startup
    return fields
