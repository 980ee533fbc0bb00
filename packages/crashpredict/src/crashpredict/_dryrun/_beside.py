"""The dry run beside the real cell: a child ready before the cell, answering while it runs.

`prepare_standby` forks the kernel when it goes idle (the extension calls it as a cell
ends): the child builds its jail and sandbox at once and waits for the next cell. When the
cell starts, `Standby.start` hands it the source (if the namespace is still the one it
was forked from, `Standby.fresh`); the child runs it fast-forwarded when it has loops
(`_fastforward`) while the rules run (strict mode waits `_fork.HEAD_START_S` more at
most, so a quick crash is refused before the real cell starts). If it has not answered
by then, it runs on beside the cell, paced by `_Pacer`: on the CPUs the cell leaves
idle; beside a cell that keeps every CPU busy, not at all for the cell's first
`_fork.BUSY_HOLD_S`, then one tick in `_fork.BUSY_PERIOD`. The OOM killer takes it first.

`dry_run_beside` is the cold path (no standby ready, or a stale one): it forks when the
cell starts, with no head start.

A thread of the caller's reads the child's report and calls ``on_result`` with the
`DryRun` as soon as it is in, while the real cell may still be running. `Beside.cancel`
(the real cell ended) kills the child at once. While the child lives, each page of the
kernel's memory that the real cell writes first is copied (copy-on-write); the thread
watches the kernel's page faults and, when those copies would cost the cell more than
`COW_SHARE` of its time (and `COW_FLOOR_S`), ends the child: the dry run steps aside
rather than slow the cell. Nothing of the child reaches the kernel.
"""

from __future__ import annotations

import atexit
import math
import os
import queue
import random
import re
import resource
import select
import shutil
import signal
import tempfile
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from . import _fork, _prefault
from ._child import UNBOUND_AT_START, message_of
from ._fork import DryRun, DryRunError

__all__ = ["BESIDE_BUDGET_S", "COW_SHARE", "Beside", "Standby", "dry_run_beside",
           "prepare_standby"]

#: The longest a dry run beside a cell may take; the cell's end stops it sooner.
BESIDE_BUDGET_S = 600.0
#: The share of the real cell's time that copy-on-write may cost before the child ends...
COW_SHARE = 0.03
#: ...once it costs more than this in all.
COW_FLOOR_S = 0.010
#: ...or this, for a cell that loops or fits (likely long): its copies come first (the
#: pages it writes are copied once) and a long cell pays them back; a Keras fit and a row
#: loop over a big frame stepped aside after 0.3-0.6 s at the smaller floor.
COW_FLOOR_LONG_S = 0.100
#: A child that answered while its cell runs is held stopped at most this long, then
#: killed (a long cell pays its exit, a few milliseconds of a CPU, in its stride).
HOLD_MOST_S = 2.0
#: What one copied page costs the kernel (a write fault and a 4 KiB copy), measured.
_COPY_S = 2.5e-6
_PAGE = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096
#: How often the idle kernel looks whether the child's copies are done, or its cell came.
_COPY_POLL_S = 0.010


class _Worker:
    """One long-lived daemon thread running the tasks given to it, in order. Starting a
    thread per cell would cost the cell a switch of the GIL (up to 5 ms) each time;
    handing a task to a running thread costs microseconds."""

    def __init__(self, name: str) -> None:
        self._name = name
        self._tasks: queue.SimpleQueue[Callable[[], object]] = queue.SimpleQueue()
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()

    def submit(self, task: Callable[[], object]) -> None:
        with self._lock:
            if self._thread is None or not self._thread.is_alive():
                self._thread = threading.Thread(target=self._run, name=self._name, daemon=True)
                self._thread.start()
        self._tasks.put(task)

    def _run(self) -> None:
        while True:
            task = self._tasks.get()
            try:
                task()
            except BaseException:  # noqa: BLE001 - a thread of the user's kernel
                pass


#: Reads the report of the dry run beside the running cell (one cell at a time)...
_READER = _Worker("crashpredict-dryrun")
#: ...and everything else: reaping children, forking the standby when the kernel is idle.
CHORES = _Worker("crashpredict-chores")


class _Later:
    """Clean-up that waits until the kernel is idle: reaping a child that was killed and
    removing its private folder. Done at once, beside a cell that has just started, it
    would take the GIL for many short steps (each a switch that costs the cell up to the
    interpreter's switch interval); the child itself is killed at once. `run` does it
    (`prepare_standby` first, called when the kernel is idle); `flush` hands it to
    `CHORES` (the ``settle`` methods, the extension's unloading, the interpreter's exit)."""

    #: more pending than this: handed to `CHORES` at once (zombies and folders stay few)
    MOST = 16

    def __init__(self) -> None:
        self._tasks: list[Callable[[], object]] = []
        self._lock = threading.Lock()

    def add(self, task: Callable[[], object]) -> None:
        with self._lock:
            self._tasks.append(task)
            many = len(self._tasks) > self.MOST
        if many:
            self.flush()

    def _take(self) -> list[Callable[[], object]]:
        with self._lock:
            tasks, self._tasks = self._tasks, []
        return tasks

    def run(self) -> None:
        """Do the pending clean-up in this thread, now."""
        for task in self._take():
            try:
                task()
            except BaseException:  # noqa: BLE001 - a thread of the user's kernel
                pass

    def flush(self) -> None:
        """Hand the pending clean-up to `CHORES`."""
        for task in self._take():
            CHORES.submit(task)


LATER = _Later()


PREFIX = _fork.PREFIX
_LEFT = re.compile(re.escape(PREFIX) + r"(\d+)-\w+")


def sweep(folder: str) -> int:
    """Remove the private folders in ``folder`` whose kernel is gone: a kernel that was
    killed (SIGKILL: a forced shutdown, the OOM killer) runs no exit handler, and its
    children die with it. Only this user's folders named by `PREFIX` with a pid that no
    process has; returns how many were removed."""
    removed = 0
    try:
        entries = os.scandir(folder)
    except OSError:
        return 0
    uid = os.getuid()
    with entries:
        for entry in entries:
            found = _LEFT.fullmatch(entry.name)
            if found is None:
                continue
            try:
                if not entry.is_dir(follow_symlinks=False) or \
                        entry.stat(follow_symlinks=False).st_uid != uid:
                    continue
                os.kill(int(found.group(1)), 0)
                continue  # its kernel still runs
            except ProcessLookupError:
                pass
            except (OSError, OverflowError, ValueError):
                continue
            shutil.rmtree(entry.path, ignore_errors=True)
            removed += 1
    return removed


class _Open:
    """Each standby's private folder, and its child once forked, until both are gone. A
    kernel that shuts down (or restarts) with a standby waiting for the next cell, or a
    child still running beside the last one, ends those children and removes their
    folders as it exits; before, each session left an empty folder in the temporary
    directory. Once closed, no folder is made: a thread still preparing a standby as the
    interpreter exits forks none."""

    def __init__(self) -> None:
        self._dirs: dict[str, int] = {}  # folder: the child's pid (0: not forked yet)
        self._closed = False
        self._swept = False
        self._lock = threading.Lock()

    def make(self) -> str | None:
        """A new private folder, or None once the interpreter is exiting. The first one a
        process makes first removes the folders left by kernels that were killed (see
        `sweep`)."""
        with self._lock:
            if self._closed:
                return None
            if not self._swept:
                self._swept = True
                sweep(tempfile.gettempdir())
            private_dir = tempfile.mkdtemp(prefix=f"{PREFIX}{os.getpid()}-")
            self._dirs[private_dir] = 0
            return private_dir

    def forked(self, private_dir: str, pid: int) -> bool:
        """Record the folder's child; False (the child ended, the folder removed) once the
        interpreter is exiting."""
        with self._lock:
            if not self._closed:
                self._dirs[private_dir] = pid
                return True
        _fork.kill_now(pid)
        shutil.rmtree(private_dir, ignore_errors=True)
        return False

    def remove(self, private_dir: str) -> None:
        """Remove the folder (its child's processes are gone or going)."""
        with self._lock:
            self._dirs.pop(private_dir, None)
        shutil.rmtree(private_dir, ignore_errors=True)

    def close(self) -> None:
        """At the interpreter's exit: the pending clean-up, then every child still open."""
        LATER.run()
        with self._lock:
            self._closed = True
            left, self._dirs = self._dirs, {}
        for private_dir, pid in left.items():
            if pid:
                _fork.kill_now(pid)
            shutil.rmtree(private_dir, ignore_errors=True)


OPEN = _Open()
atexit.register(OPEN.close)


def _settle(gone: threading.Event, timeout: float | None) -> bool:
    """Wait for ``gone``, handing the pending clean-up to `CHORES` meanwhile (the reader
    thread may add the child's own a moment after its result is in)."""
    end = math.inf if timeout is None else time.perf_counter() + timeout
    while True:
        LATER.flush()
        if gone.wait(min(0.05, max(0.0, end - time.perf_counter()))):
            return True
        if time.perf_counter() >= end:
            return False


class _Stop:
    """An event that also wakes the waiting thread's ``select`` (through a pipe)."""

    def __init__(self) -> None:
        self._event = threading.Event()
        self._lock = threading.Lock()
        self._read, self._write = os.pipe()
        os.set_blocking(self._write, False)

    def set(self) -> None:
        self._event.set()
        with self._lock:
            if self._write >= 0:
                try:
                    os.write(self._write, b"x")
                except OSError:
                    pass

    def is_set(self) -> bool:
        return self._event.is_set()

    def wait(self, timeout: float | None = None) -> bool:
        return self._event.wait(timeout)

    def fileno(self) -> int:
        return self._read

    def close(self) -> None:
        with self._lock:
            for fd in (self._read, self._write):
                try:
                    os.close(fd)
                except OSError:
                    pass
            self._read = self._write = -1


class _CopyWatch:
    """The kernel's copy-on-write cost since the real cell started, from its page faults.

    Faults that are not copies (first touches of new memory) are told apart by the growth
    of the kernel's anonymous memory, summed tick by tick; copies never exceed the
    anonymous memory the kernel had when the child was forked. A cell that frees and
    makes memory within a tick (pandas' temporaries of a large frame, one after another)
    takes first-touch faults that no growth shows: so once the faults reach half the floor
    the watch reads how many pages the kernel still shares (`_shared_pages`, a few
    milliseconds; a cell whose faults pass the floor within a tick, one writing what it
    shares at full speed, steps aside at once, as before), and before it trips it reads
    them again: each copy ends the sharing of one page, so the pages no longer shared bound
    the copies since the first reading (measured: 79% of a torch inference loop's faults
    were no copies). What it finds discounts the faults that follow, until the next
    reading (`_RECHECK_S` apart at least), which comes as soon as the faults alone would
    have it trip.

    ``raised()`` (asked only when the copies pass the floor): whether the cell has raised
    already and the kernel is showing its error. Its copies then delay only the showing
    of an error that is certain (IPython's first traceback through pandas' or
    matplotlib's sources takes 0.1-2 s and writes some 16 MB while a child shares them):
    the floor becomes `COW_FLOOR_LONG_S`, and the child's answer, on its way, can still
    come before the error shows.
    """

    def __init__(self, shared_pages: int, floor_s: float = COW_FLOOR_S,
                 raised: Callable[[], bool] | None = None) -> None:
        self.began = time.perf_counter()
        self.floor_s = floor_s
        self.raised = raised
        self.faults = _minor_faults()
        self.anon = _anon_pages()
        self.grown = 0
        self.shared = shared_pages
        self.copied = 0
        self.tripped = False
        #: the pages the kernel shared at the first reading, and the faults counted then
        #: (each taken as a copy); None until the faults reach half the floor, False where
        #: they cannot be read
        self._base: tuple[int, int] | None | bool = None
        #: the last reading: the faults counted and the copies they bound, and the share of
        #: the faults since then that counts (1.0 until a reading says less)
        self._read = (0, 0)
        self._ratio = 1.0
        self._next_read = 0.0
        self.readings = 0

    def __call__(self) -> bool:
        anon = _anon_pages()
        self.grown += max(0, anon - self.anon)
        self.anon = anon
        counted = max(0, _minor_faults() - self.faults - self.grown)
        now = time.perf_counter()
        share = COW_SHARE * (now - self.began)
        floor = self.floor_s
        copies = self._estimate(counted)
        at, bound = self._read
        # the first reading is taken on the way up; a cell whose faults pass the floor
        # within a tick (an array of 480 MB updated in place) steps aside at once, as the
        # faults say: a reading then would only make it wait a tick (+30 ms on 20 ms)
        if self._base is None and floor / 2 < copies * _COPY_S <= max(floor, share):
            self._base = self._reading(counted, now) or False
            self._next_read = now  # the first reading that bounds the copies need not wait
        # were every fault since the last reading a copy, the watch would trip: read again
        if (bound + counted - at) * _COPY_S > max(floor, share) and self._base:
            if now >= self._next_read:
                copies = self._confirm(counted, now)
            elif max(floor, share) < copies * _COPY_S <= 2 * max(floor, share):
                copies = round(max(floor, share) / _COPY_S)  # until the next reading
        self.copied = min(self.shared, copies)
        cost = self.copied * _COPY_S
        if cost > max(floor, share) and floor < COW_FLOOR_LONG_S and self._raised():
            floor = COW_FLOOR_LONG_S
        self.tripped = cost > max(floor, share)
        return self.tripped

    def _estimate(self, counted: int) -> int:
        at, bound = self._read
        return bound + round(max(0, counted - at) * self._ratio)

    def _reading(self, counted: int, now: float) -> tuple[int, int] | None:
        """The pages shared now and the faults counted, or None (no ``smaps_rollup``: the
        faults alone count, as before)."""
        began = time.perf_counter()
        shared = _shared_pages()
        took = time.perf_counter() - began
        self.readings += 1
        self._next_read = now + max(_RECHECK_S, _READ_SHARE * took)
        return None if shared is None else (shared, counted)

    def _confirm(self, counted: int, now: float) -> int:
        """The copies bound by a new reading; the share of the faults since the last one
        that were copies counts for those that follow."""
        assert isinstance(self._base, tuple)
        base_shared, base_counted = self._base
        reading = self._reading(counted, now)
        if reading is None:
            return self._estimate(counted)
        bound = base_counted + max(0, base_shared - reading[0])
        if bound >= counted:  # every fault may have been a copy
            self._read, self._ratio = (counted, counted), 1.0
            return counted
        at, before = self._read
        since = counted - at
        self._ratio = min(1.0, max(_RATIO_LEAST, (bound - before) / since if since > 0 else 1.0))
        self._read = (counted, bound)
        return bound

    def _raised(self) -> bool:
        if self.raised is None:
            return False
        try:
            return bool(self.raised())
        except Exception:  # noqa: BLE001 - the pacer's thread: nothing may stop it here
            return False


class _Pacer:
    """When the child may use a CPU beside the real cell (the reader's tick; also the copy
    watch's verdict). Each tick it reads the kernel's CPU time and how long the kernel's
    main thread (the cell's) waited for a CPU:

    - when the cell keeps every CPU busy but a fraction (`_BUSY_SLACK`), the child is held
      stopped (``SIGSTOP`` to its process group) for the cell's first `_fork.BUSY_HOLD_S`,
      then runs one tick in `_fork.BUSY_PERIOD`;
    - otherwise it runs on the CPU the cell leaves idle, and stops for `_BACKOFF_TICKS`
      whenever the cell's thread waited for a CPU more than `_WAIT_SHARE` of a tick while
      it ran (a machine busy with other work has no idle CPU to give).

    It is held from the end of its head start until the first tick has measured the cell,
    so a cell shorter than a tick never shares a CPU with it."""

    def __init__(self, pid: int, copies: _CopyWatch | None, began: float,
                 cores: int | None = None, on_run: Callable[[], object] | None = None) -> None:
        self.pid, self.copies, self.began = pid, copies, began
        self.on_run = on_run  # the first time it may run (a held child's gate opens)
        self.cores = cores if cores is not None else _cores()
        self.held = False
        self.ticks = self.backoff = 0
        self._main = threading.main_thread().native_id
        self._cpu, self._at, self._wait = _kernel_cpu(), time.perf_counter(), _waited(self._main)

    def _signal(self, sig: int) -> None:
        try:  # the group of a child not yet reaped: its pid cannot have been reused
            os.killpg(self.pid, sig)
        except (ProcessLookupError, PermissionError):
            pass

    def _run(self, run: bool) -> None:
        if run:
            if self.held:
                self._signal(signal.SIGCONT)
                self.held = False
            if self.on_run is not None:
                first, self.on_run = self.on_run, None
                first()
        elif not self.held:
            self._signal(signal.SIGSTOP)
            self.held = True

    def hold(self) -> None:
        """The head start is over and the cell starts: stop the child until the first tick.
        On the cold path the child waits at its gate before it builds its jail, opened the
        first time it may run: its set-up is paced as its run is (forks of the kernel's
        image and some 50 ms of Python, on a CPU that a cell on every core needs; it waits
        `_fork.BUSY_HOLD_S` there, a cell that leaves a CPU idle lets it go at the first
        tick)."""
        self._cpu, self._at, self._wait = _kernel_cpu(), time.perf_counter(), _waited(self._main)
        self._run(False)

    def decide(self, now: float, cpu: float, wait: float) -> bool:
        """Whether the child runs this tick, from the kernel's CPU time ``cpu`` and its main
        thread's time spent waiting for a CPU ``wait`` at ``now`` (seconds)."""
        span = now - self._at
        if span < _MIN_SPAN_S:  # too short to read a rate from: as it was
            return not self.held
        rate, waited = (cpu - self._cpu) / span, (wait - self._wait) / span
        self._cpu, self._at, self._wait = cpu, now, wait
        # a child that ran this tick took at most half a CPU from a busy cell: the cell's
        # rate stays above the threshold, and below it for a cell that left a CPU idle
        if rate >= self.cores - _BUSY_SLACK:  # the cell keeps every CPU busy
            if now - self.began < _fork.BUSY_HOLD_S:
                return False
            self.ticks += 1
            return self.ticks % _fork.BUSY_PERIOD == 0
        if not self.held and waited > _WAIT_SHARE:
            self.backoff = _BACKOFF_TICKS  # it took the cell's CPU: no idle one to use
        if self.backoff:
            self.backoff -= 1
            return False
        return True

    def __call__(self) -> bool:
        self._run(self.decide(time.perf_counter(), _kernel_cpu(), _waited(self._main)))
        return self.copies() if self.copies is not None else False


#: A rate read over less time than this says nothing (CPU time comes in clock ticks).
_MIN_SPAN_S = 0.005
#: The cell's thread may wait for a CPU this share of a tick while the child runs...
_WAIT_SHARE = 0.10
#: ...or the child stops for this many ticks.
_BACKOFF_TICKS = 2


def _waited(tid: int | None) -> float:
    """Seconds thread ``tid`` of this process has spent runnable, waiting for a CPU."""
    try:
        with open(f"/proc/self/task/{tid}/schedstat", "rb") as fh:
            return int(fh.read().split()[1]) / 1e9
    except (OSError, IndexError, ValueError):
        return 0.0


#: The kernel counts as keeping every CPU busy when its threads use all CPUs but this many.
_BUSY_SLACK = 0.8


def _cores() -> int:
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


def _kernel_cpu() -> float:
    """CPU seconds used by every thread of this process."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def _minor_faults() -> int:
    return resource.getrusage(resource.RUSAGE_SELF).ru_minflt


#: The copy watch reads the pages shared no more often than this...
_RECHECK_S = 0.1
#: ...nor than this many times the time a reading takes (a kernel of many GB).
_READ_SHARE = 50
#: Between two readings, the faults count at least this share (a cell that made no copies
#: may start to: the next reading tells).
_RATIO_LEAST = 0.25


def _shared_pages() -> int | None:
    """The kernel's written pages that a process it forked still shares
    (``Shared_Dirty`` of ``/proc/self/smaps_rollup``); None where it cannot be read."""
    try:
        with open("/proc/self/smaps_rollup", "rb") as fh:
            for line in fh:
                if line.startswith(b"Shared_Dirty:"):
                    return int(line.split()[1]) * 1024 // _PAGE
    except (OSError, IndexError, ValueError):
        pass
    return None


def _anon_pages() -> int:
    """Resident pages that are not file-backed or shared memory (from /proc/self/statm)."""
    try:
        with open("/proc/self/statm", "rb") as fh:
            fields = fh.read().split()
        return max(0, int(fields[1]) - int(fields[2]))
    except (OSError, IndexError, ValueError):
        return 0


@dataclass(slots=True, eq=False)
class Beside:
    """A dry run running beside the real cell."""

    started: float
    result: DryRun | None = None
    fast_forwarded: bool = False
    #: the child answered within the head start, before the real cell started
    head_start: bool = False
    _witness: bool = False
    _stepped: bool = False
    _ended: threading.Event = field(default_factory=threading.Event)  # the cell's end
    _stop: Any = field(default_factory=threading.Event)
    _done: threading.Event = field(default_factory=threading.Event)
    _gone: threading.Event = field(default_factory=threading.Event)

    @property
    def running(self) -> bool:
        return not self._done.is_set()

    def cancel(self, witness: bool = False) -> None:
        """End the child now (the real cell ended first); never waits for it. ``witness``
        (the cell has ended): a child that has not answered is stopped, and killed when
        the kernel is idle, after `_prefault.learn` has read from it which pages the cell
        wrote."""
        self._witness = witness
        if witness:
            self._ended.set()
        self._stop.set()

    def step_back(self) -> None:
        """No dry run for this cell after all (the rules answered, or it ran quickly last
        time): the child stops now, as the cell starts, and waits stopped for the cell's
        end (`cancel` with ``witness``) to be killed when the kernel is idle; sooner when
        the pages the cell writes would make its copies cost (the copy watch). Killed now,
        its exit would unmap the kernel's memory on a CPU the cell may need."""
        self._stepped = True
        self._stop.set()

    def wait(self, timeout: float | None = None) -> DryRun | None:
        """The result, once in (None after ``timeout`` seconds)."""
        self._done.wait(timeout)
        return self.result

    def settle(self, timeout: float | None = None) -> bool:
        """End the child (`cancel`, if not yet) and wait until its processes are gone
        (killed and reaped)."""
        self._ended.set()
        self._stop.set()
        return _settle(self._gone, timeout)


def _finished(result: DryRun) -> Beside:
    beside = Beside(started=time.perf_counter(), result=result)
    beside._done.set()
    beside._gone.set()
    return beside


def _fingerprint(namespace: Mapping[str, Any]) -> tuple[tuple[str, int, type], ...]:
    """Which object each name is bound to (a rebinding between cells makes a standby stale:
    a widget's callback, a background thread, a silent execution); not the names IPython
    unbinds as each cell starts (`UNBOUND_AT_START`: a cell that warned would leave every
    standby after it stale)."""
    try:
        return tuple((k, id(v), type(v)) for k, v in list(namespace.items())
                     if k not in UNBOUND_AT_START)
    except Exception:  # a mapping that cannot be listed: never fresh
        return (("", id(object()), object),)


class Standby:
    """A child forked from the idle kernel, jailed and ready, waiting for the next cell."""

    def __init__(self, child: Any, private_dir: str, namespace: Mapping[str, Any],
                 budget_s: float, fast_forward: bool) -> None:
        self._child = child
        self._private_dir = private_dir
        self._fingerprint = _fingerprint(namespace)
        self._budget_s = budget_s
        self._fast_forward = fast_forward
        self._prefix = bytearray()
        self._shared = _anon_pages()
        self._used = False
        self._gone = threading.Event()
        self._busy = threading.Event()  # set when the child gets its cell or is discarded
        self._copy_lock = threading.Lock()
        #: bytes of the kernel's memory copied ahead for this child (`copy_ahead`), in
        #: how many seconds, whether the copies were cut short (the cell came first), and
        #: whether ``copied`` says how much (a child whose cell came first says so after
        #: the kernel has stopped listening)
        self.copied = 0
        self.copy_s = 0.0
        self.copy_cut = False
        self.copy_counted = True

    @property
    def shared_bytes(self) -> int:
        """The kernel's anonymous memory when the child was forked (what it may share)."""
        return self._shared * _PAGE

    def copy_ahead(self) -> int:
        """While the kernel is idle, have the pages it shares with this child copied, so the
        next cell writes none of them beside the child. The child copies them, on another
        CPU (`_prefault.copy_for_kernel`); this waits for its record, then takes the
        kernel's own faults ahead (`_prefault.reclaim`). A child forked without
        ``copy_ahead``, or one that cannot copy, leaves it to the kernel
        (`_prefault.copy_shared`). Stops as soon as the child gets its cell or is
        discarded. Call from a thread; returns the bytes copied."""
        fd = self._take_copy_fd()
        if self._used:  # the cell came before any copy
            self.copy_cut = True
            if fd >= 0:
                os.close(fd)
            return 0
        began = time.perf_counter()
        state = _prefault.COPY_NONE
        if fd >= 0:
            try:
                record = self._copy_record(fd)
            finally:
                os.close(fd)
            if record is None:  # the cell came first, or the child is gone
                state = _prefault.COPY_CUT
                self.copy_counted = False
            else:
                copied, _, state = record
                self.copied += copied
                if state == _prefault.COPY_DONE:
                    _prefault.reclaim(self._busy)
        if state == _prefault.COPY_NONE:
            self.copied += _prefault.copy_shared(self._busy)
        self.copy_s += time.perf_counter() - began
        self.copy_cut = self._busy.is_set() or state == _prefault.COPY_CUT
        return self.copied

    def _take_copy_fd(self) -> int:
        """The child's copy pipe, now this caller's to close (-1: none, or taken)."""
        with self._copy_lock:
            fd, self._child.copy_fd = self._child.copy_fd, -1
        return fd

    def _close_copy_fd(self) -> None:
        fd = self._take_copy_fd()  # still here: `copy_ahead` never took it
        if fd >= 0:
            os.close(fd)

    def _copy_record(self, fd: int) -> tuple[int, float, int] | None:
        """The child's record of its copies, once written; None when the child gets its
        cell or is discarded first, or ends without one."""
        data = b""
        while not self._busy.is_set():
            try:
                if not select.select([fd], [], [], _COPY_POLL_S)[0]:
                    continue
                chunk = os.read(fd, _prefault.RECORD_BYTES - len(data))
            except OSError:
                return None
            if not chunk:
                return None
            data += chunk
            if len(data) == _prefault.RECORD_BYTES:
                return _prefault.read_copy_record(data)
        return None

    def fresh(self, namespace: Mapping[str, Any]) -> bool:
        """Whether ``namespace`` binds every name to the object it did at the fork."""
        return not self._used and _fingerprint(namespace) == self._fingerprint

    def armed(self) -> bool:
        """Whether the child is ready (jail and sandbox built): it runs a cell at once."""
        if self._prefix[:1] == b"A":
            return True
        try:
            while select.select([self._child.read_fd], [], [], 0)[0]:
                chunk = os.read(self._child.read_fd, 1 << 16)
                if not chunk:
                    break
                self._prefix += chunk
                if len(self._prefix) > _fork.MAX_REPORT_BYTES:
                    break
        except OSError:
            return False
        return self._prefix[:1] == b"A"

    def start(self, source: str, *, on_result: Callable[[DryRun], object] | None = None,
              watch_copies: bool = True, head_start_s: float = 0.0,
              likely_long: bool = False,
              meanwhile: Callable[[], object] | None = None,
              raised: Callable[[], bool] | None = None) -> Beside:
        """Hand the child its cell; wait up to ``head_start_s`` for its answer, in this
        thread. An answer in that time comes back in a finished `Beside` (``head_start``
        True; ``on_result`` is not called); ``meanwhile()`` runs in this thread once the
        child has the cell, before that wait (the rules). Otherwise return: the child's
        report reaches ``on_result`` from a thread (unless `Beside.cancel` was called
        first). A cell the child cannot take returns a finished `Beside` (``on_result`` is
        not called). ``likely_long`` (the cell loops or fits): the copy watch lets its
        copies reach `COW_FLOOR_LONG_S` before it steps aside; so does ``raised()`` (see
        `_CopyWatch`) once the cell has raised."""
        if self._used:
            raise DryRunError("a standby child runs one cell")
        self._used = True
        self._busy.set()  # the copies made ahead stop: the cell runs now
        self._close_copy_fd()
        if not _fork.send_cell(self._child, source, self._budget_s):
            self.discard()
            if meanwhile is not None:
                meanwhile()
            return _finished(DryRun(outcome="inconclusive",
                                    reason="the cell is too large to hand to a dry run"))
        until = time.perf_counter() + head_start_s  # counted from the cell's hand-over
        if meanwhile is not None:
            meanwhile()
        return _watch(self._child, self._private_dir, bytes(self._prefix), self._budget_s,
                      self._shared if watch_copies else None, on_result,
                      cow_floor_s=COW_FLOOR_LONG_S if likely_long else COW_FLOOR_S,
                      raised=raised, fast_forwarded=self._fast_forward,
                      head_until=until if head_start_s > 0 else None)

    def settle(self, timeout: float | None = None) -> bool:
        """Wait until a discarded child's processes are gone."""
        return _settle(self._gone, timeout)

    def discard(self, wait: bool = False) -> None:
        """End the child without a cell (it was stale, or the extension was turned off);
        ``wait``: until its processes are gone, else in a thread."""
        self._used = True
        self._busy.set()
        self._close_copy_fd()
        child, private_dir = self._child, self._private_dir

        def end() -> None:
            for fd in (child.cell_fd, child.read_fd, child.answer_fd):
                if fd >= 0:
                    try:
                        os.close(fd)
                    except OSError:
                        pass
            child.cell_fd = -1
            _fork.close_gate(child)
            try:
                _fork._kill_and_reap(child.pid)
            finally:
                OPEN.remove(private_dir)
                self._gone.set()

        if wait:
            end()
        else:  # killed now, reaped when the kernel is idle
            _fork.kill_now(child.pid)
            LATER.add(end)


def prepare_standby(namespace: Mapping[str, Any], *, budget_s: float = BESIDE_BUDGET_S,
                    filename: str = "<cell>", fast_forward: bool = True,
                    reap: bool = True, copy_ahead: bool = False,
                    held: bool = False) -> Standby | DryRun:
    """Fork a standby child of this process for the next cell and return at once.

    The last cell's witness is read (`_prefault.learn`) and killed first; ``reap``: the
    children killed meanwhile are reaped after the fork (else by the caller, `LATER.run`,
    when it is idle). ``copy_ahead``: the
    child copies the pages it shares with the kernel while it waits (`Standby.copy_ahead`).
    ``held``: once it has given back the kernel's free heap (`_fork._fork_child`) the
    child waits, idle, at its gate, before the kernel copies the pages the last cell wrote
    (a cell is starting: its pacer opens the gate, `_fork.open_gate`).

    Returns the `Standby`, or an inconclusive `DryRun` saying why none can run (a refused
    fork, see `fork_refusal`; no processes or pipes left).

    Raises:
        DryRunError: a non-positive budget or a namespace that is no dict.
    """
    if not isinstance(budget_s, (int, float)) or not 0 < budget_s < math.inf:
        raise DryRunError(f"dry run budget must be a positive number of seconds, got {budget_s!r}")
    if not isinstance(namespace, dict):
        raise DryRunError(f"dry run namespace must be a dict, got {type(namespace).__name__}")
    refusal = _fork.fork_refusal()
    if refusal is not None:
        return DryRun(outcome="inconclusive", reason=refusal)
    hot = _prefault.learn()  # which pages the last cell wrote (its child still shares the rest)
    private_dir = OPEN.make()
    if private_dir is None:
        return DryRun(outcome="inconclusive", reason="the kernel is exiting")
    try:
        child = _fork._fork_child(
            float(budget_s), standby=True, namespace=namespace,
            private_dir=private_dir, filename=filename, rng_state=random.getstate(),
            fast_forward=fast_forward, copy_ahead=copy_ahead and _prefault.usable(), held=held)
    except OSError as exc:  # no more processes, no pipes: the cell runs unchecked
        OPEN.remove(private_dir)
        return DryRun(outcome="inconclusive", reason=f"could not fork: {exc}")
    if not OPEN.forked(private_dir, child.pid):
        return DryRun(outcome="inconclusive", reason="the kernel is exiting")
    _prefault.populate(hot)  # copied now, while the kernel is idle, not in the next cell
    if reap:
        LATER.run()
    return Standby(child, private_dir, namespace, float(budget_s), fast_forward)


def dry_run_beside(cell_source: str, namespace: Mapping[str, Any], *,
                   on_result: Callable[[DryRun], object] | None = None,
                   budget_s: float = BESIDE_BUDGET_S, filename: str = "<cell>",
                   fast_forward: bool = True, watch_copies: bool = True,
                   likely_long: bool = False,
                   raised: Callable[[], bool] | None = None) -> Beside:
    """Start a dry run of ``cell_source`` on a fork of this process and return at once.

    ``on_result(DryRun)`` is called from a thread of this process when the child's report
    is in, unless `Beside.cancel` was called first. A refused fork (see `fork_refusal`)
    returns a finished `Beside` whose ``result`` says so; ``on_result`` is not called for
    those. A cell that does not compile is left to the real run (inconclusive).
    ``likely_long``, ``raised``: as for `Standby.start` (the copy watch's larger floor).

    Raises:
        DryRunError: a non-positive budget or a namespace that is no mapping.
    """
    if not isinstance(namespace, Mapping):
        raise DryRunError(f"dry run namespace must be a mapping, got {type(namespace).__name__}")
    if not isinstance(namespace, dict):
        namespace = dict(namespace)
    standby = prepare_standby(namespace, budget_s=budget_s, filename=filename,
                              fast_forward=fast_forward, reap=False,  # not beside the cell
                              held=True)  # paced from the start (`_Pacer.hold`)
    if isinstance(standby, DryRun):
        return _finished(standby)
    return standby.start(cell_source, on_result=on_result, watch_copies=watch_copies,
                         likely_long=likely_long, raised=raised)


def _watch(child: Any, private_dir: str, prefix: bytes, budget_s: float,
           shared_pages: int | None, on_result: Callable[[DryRun], object] | None, *,
           fast_forwarded: bool, head_until: float | None = None,
           cow_floor_s: float = COW_FLOOR_S,
           raised: Callable[[], bool] | None = None) -> Beside:
    stop = _Stop()
    beside = Beside(started=child.started, fast_forwarded=fast_forwarded, _stop=stop)
    copies = _CopyWatch(shared_pages, cow_floor_s, raised) if shared_pages is not None else None
    pacer = _Pacer(child.pid, copies, time.perf_counter(),
                   on_run=lambda: _fork.open_gate(child))
    # during the head start the kernel waits for the child: it runs unpaced (a pacer would
    # read the kernel's own set-up as a busy cell and stop it); paced from the cell's start
    reader = _fork._Reader(child, stop, prefix, None if head_until is not None else pacer)

    def outcome() -> DryRun:
        data, startup, timed_out, code_ = reader.finish(
            reap=False, kill=not (witnessed() or beside._stepped))
        elapsed = time.perf_counter() - child.started
        if copies is not None and copies.tripped and not data:
            return DryRun(outcome="inconclusive", startup_s=startup, elapsed_s=elapsed,
                          reason=f"the dry run stepped aside after {elapsed:.1f} s: the cell "
                          f"writes memory it shares with the dry run (about "
                          f"{copies.copied * _PAGE / 2**20:.0f} MB copied), which would slow it")
        if stop.is_set() and not data:
            return DryRun(outcome="inconclusive", startup_s=startup, elapsed_s=elapsed,
                          reason="the cell ended before the dry run answered")
        fields = _fork._result(data, timed_out, code_, float(budget_s))
        fields.pop("over_budget", None)
        fields.pop("scale", None)
        fields.pop("extra_s", None)
        if fields.pop("jail", None) and not _fork._JAIL_REFUSED:
            _fork._JAIL_REFUSED.append(fields.get("reason", "the jail was refused"))
        fields["startup_s"] = startup
        fields["elapsed_s"] = elapsed
        return DryRun.from_dict(fields)

    def safe_outcome() -> DryRun:
        try:
            return outcome()
        except BaseException as exc:  # noqa: BLE001 - a thread of the user's kernel
            return DryRun(outcome="inconclusive",
                          reason=f"the dry run failed: {type(exc).__name__}: {message_of(exc)}")

    def reap() -> None:
        _prefault.forget(child.pid)
        _fork.close_gate(child)  # a held child whose cell ended before it ran: it leaves
        try:  # a child that died is reaped too
            _fork._kill_and_reap(child.pid)
        finally:
            stop.close()
            OPEN.remove(private_dir)
            beside._gone.set()

    def witnessed() -> bool:
        """The cell has ended and the child's copies did not trip the watch: the child
        stays, stopped, as a witness (`_prefault`) until the kernel is idle."""
        return beside._witness and beside._ended.is_set() and \
            not (copies is not None and copies.tripped)

    def hold() -> None:
        """The child answered while the cell runs: it stops (as it stopped itself) rather
        than end (its exit would take a CPU from the cell for as long as it takes to unmap
        the kernel's memory, 10 ms or more for a kernel of a GB), until the cell ends (it is
        then the witness) or the pages the cell writes would cost it more than the copy
        watch allows (it is killed then)."""
        try:
            os.killpg(child.pid, signal.SIGSTOP)
        except (ProcessLookupError, PermissionError):
            return
        until = time.perf_counter() + HOLD_MOST_S
        while not beside._ended.is_set() and time.perf_counter() < until:
            if copies is not None and copies():
                return
            beside._ended.wait(_fork._TICK_S)

    def end() -> None:
        """The report is in (or the cell ended): the processes go now (a witness is
        stopped instead), their clean-up when the kernel is idle."""
        if witnessed():
            try:
                os.killpg(child.pid, signal.SIGSTOP)
                _prefault.witness(child.pid)
            except (ProcessLookupError, PermissionError):
                pass
        else:
            _fork.kill_now(child.pid)
        LATER.add(reap)

    if head_until is not None:
        _fork.open_gate(child)  # unpaced in its head start (a held child has none)
        try:
            answered = reader.pump(head_until)
        except BaseException:  # noqa: BLE001 - an interrupt included: the cell runs
            answered = True
            reader.timed_out = reader.done = True
            stop.set()
        if answered:  # within the head start: the caller has it now, before the cell
            beside.result = safe_outcome()
            beside.head_start = True
            beside._done.set()

            def held() -> None:
                if reader.frames.payload and not reader.timed_out:
                    hold()  # it stopped itself after its report: it waits for the cell's end
                end()
            _READER.submit(held)
            return beside

    reader.tick = pacer
    pacer.hold()  # not answered in the head start: no CPU for it until the cell has run a while

    def wait() -> None:
        try:
            reader.pump()
        except BaseException:  # noqa: BLE001
            reader.timed_out = True
        result = safe_outcome()
        beside.result = result
        beside._done.set()
        if on_result is not None and not stop.is_set():
            try:
                on_result(result)
            except BaseException:  # noqa: BLE001 - never raise in the user's kernel
                pass
        if beside._stepped or (reader.frames.payload and not reader.timed_out
                               and not stop.is_set()):
            hold()  # the next cell's dry run starts after this one's cell has ended
        end()

    _READER.submit(wait)
    return beside
