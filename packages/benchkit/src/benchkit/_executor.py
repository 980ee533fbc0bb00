"""Where per-case work runs: a local pool of worker processes, or a Dask cluster.

Both take the same picklable task (a plain dict) and the same top-level function, and
yield results as they complete, so a run gives the same records either way. Each task
starts its own kernel, so ``jobs`` bounds the number of live kernels (and their memory).
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from typing import Any, Protocol

from benchkit.errors import BenchkitError

Task = dict[str, Any]


class Executor(Protocol):
    """Runs ``fn(task)`` for every task and yields ``(task, result)`` as each completes.

    ``fn`` must not raise for a failing case (it returns a record saying so); an exception
    escaping it is turned into ``on_error(task, exc)``'s result.
    """

    def run(
        self,
        fn: Callable[[Task], Any],
        tasks: Iterable[Task],
        on_error: Callable[[Task, BaseException], Any],
    ) -> Iterator[tuple[Task, Any]]: ...


class LocalExecutor:
    """A pool of ``jobs`` worker processes (spawned: no forked kernel clients or threads)."""

    def __init__(self, jobs: int = 1) -> None:
        if jobs < 1:
            raise BenchkitError(f"-j must be at least 1, not {jobs}")
        self.jobs = jobs

    def run(self, fn, tasks, on_error):
        """Yield ``(task, result)`` as each completes. A worker that dies (a segfault in a
        library, the OOM killer) breaks the pool and every task running in it: those are
        run again, each alone in a fresh pool, so the one that kills its worker gets
        ``on_error`` (``WorkerDied``: which signal) and the others their results; the
        tasks not started yet go on in a new pool."""
        queue = iter(list(tasks))
        while True:
            broken = yield from self._pool(fn, queue, on_error, self.jobs)
            for task in broken:  # alone, one by one: a death now is this task's own
                alone = yield from self._pool(fn, iter([task]), on_error, 1)
                for lost in alone:
                    yield lost, on_error(lost, WorkerDied(_death_of(lost)))
            if not broken:
                return

    def _pool(self, fn, queue, on_error, jobs):
        """Run tasks from ``queue`` in one pool; return the tasks it lost when it broke."""
        first = next(queue, None)
        if first is None:
            return []
        context = multiprocessing.get_context("spawn")
        pending = [first]
        with ProcessPoolExecutor(max_workers=jobs, mp_context=context,
                                 initializer=_watch_parent, initargs=(os.getpid(),)) as pool:
            # submit lazily, at most 2 per worker, so an interrupt leaves little queued
            running: dict[Future, Task] = {}

            def fill() -> bool:
                while len(running) < 2 * jobs:
                    task = pending.pop() if pending else next(queue, None)
                    if task is None:
                        return True
                    try:
                        running[pool.submit(fn, task)] = task
                    except BrokenProcessPool:
                        pending.append(task)
                        return False
                return True

            fill()
            while running:
                finished, _ = wait(running, return_when=FIRST_COMPLETED)
                lost: list[Task] = []
                for future in finished:
                    task = running.pop(future)
                    try:
                        yield task, future.result()
                    except BrokenProcessPool:
                        lost.append(task)
                    except Exception as exc:  # fn raised
                        yield task, on_error(task, exc)
                if lost:  # the pool is broken: everything still in it is lost too
                    lost += list(running.values()) + pending
                    for future in running:
                        future.cancel()
                    running.clear()
                    return lost
                if not fill():
                    return list(running.values()) + pending
        return []


class WorkerDied(BrokenProcessPool):
    """The worker process running this task died (the task ran alone, so it was its own)."""


def _death_of(task: Task) -> str:
    return ("the worker process running it died (a crash in a library it loaded, such as "
            "a segfault, or the out-of-memory killer); the other tasks ran")


# ---------------------------------------------------------------- workers die with their parent

#: seconds between a worker's checks that its parent is still there
PARENT_POLL_S = 0.25
_PR_SET_PDEATHSIG = 1  # from <linux/prctl.h>


def _watch_parent(parent_pid: int) -> None:
    """Worker initializer: end this worker, and the kernel it runs, when the parent dies.

    A parent killed with SIGKILL runs no cleanup, so the workers must notice by
    themselves, or they live on, keep the resource tracker alive, and even take the next
    queued task and start a new kernel. On Linux the kernel tells us at once
    (``PR_SET_PDEATHSIG``); everywhere a daemon thread also polls the parent pid.
    Either way the worker kills its child processes (kernels run in their own session,
    so their whole process group) and exits.
    """
    if sys.platform.startswith("linux"):
        try:
            import ctypes

            libc = ctypes.CDLL(None, use_errno=True)
            signal.signal(signal.SIGTERM, lambda signum, frame: _die_with_children())
            libc.prctl(_PR_SET_PDEATHSIG, signal.SIGTERM, 0, 0, 0)
        except (OSError, AttributeError, ValueError):  # no libc prctl: the thread still watches
            pass
    if os.getppid() != parent_pid:  # died before we got here
        _die_with_children()

    def watch() -> None:
        while os.getppid() == parent_pid:
            time.sleep(PARENT_POLL_S)
        _die_with_children()

    threading.Thread(target=watch, name="benchkit-parent-watch", daemon=True).start()


def _die_with_children() -> None:
    """Kill this worker's children (twice: one may have been starting) and exit now.

    Also what a worker does on SIGTERM (the pool terminating a broken worker): its kernel
    goes with it.
    """
    for _ in range(2):
        for pid in child_pids(os.getpid()):
            _kill_tree(pid)
        time.sleep(0.05)
    os._exit(1)


def _kill_tree(pid: int) -> None:
    # a kernel is a session leader (jupyter_client starts it with a new session): its
    # group holds what it started; never kill a group that is not the child's own
    try:
        if hasattr(os, "killpg") and os.getpgid(pid) == pid:
            os.killpg(pid, signal.SIGKILL)
        else:
            os.kill(pid, signal.SIGKILL)
    except (OSError, AttributeError):
        pass


def child_pids(pid: int) -> list[int]:
    """Direct children of process ``pid`` (from /proc on Linux, else psutil if present)."""
    proc = "/proc"
    if os.path.isdir(proc):
        children = []
        for entry in os.listdir(proc):
            if not entry.isdigit():
                continue
            try:
                with open(f"{proc}/{entry}/stat", "rb") as fh:
                    stat = fh.read()
            except OSError:
                continue
            # "pid (comm) state ppid ...": comm may hold spaces and parentheses
            fields = stat[stat.rfind(b")") + 2:].split()
            if len(fields) > 1 and int(fields[1]) == pid:
                children.append(int(entry))
        return children
    try:
        import psutil
    except ImportError:
        return []
    try:
        return [c.pid for c in psutil.Process(pid).children()]
    except psutil.Error:
        return []


class DaskExecutor:
    """Tasks submitted to a Dask distributed scheduler (``tcp://host:port``) or a Client."""

    def __init__(self, scheduler: Any, *, connect_timeout: float = 20.0) -> None:
        try:
            from distributed import Client
        except ImportError:  # the extra is optional
            raise BenchkitError(
                "--scheduler needs Dask distributed: pip install 'benchkit[dask]'"
            ) from None
        if isinstance(scheduler, Client):
            self.client, self._owned = scheduler, False
        else:
            try:
                self.client, self._owned = Client(scheduler, timeout=f"{connect_timeout}s"), True
            except OSError as exc:
                raise BenchkitError(f"cannot reach the Dask scheduler at {scheduler}: {exc}") from None

    def run(self, fn, tasks, on_error):
        from distributed import as_completed

        tasks = list(tasks)
        futures = {self.client.submit(fn, task, pure=False): i for i, task in enumerate(tasks)}
        try:
            for future in as_completed(futures):
                task = tasks[futures[future]]
                try:
                    yield task, future.result()
                except Exception as exc:
                    yield task, on_error(task, exc)
        finally:
            if self._owned:
                self.client.close()


def make_executor(jobs: int = 1, scheduler: Any = None) -> Executor:
    return DaskExecutor(scheduler) if scheduler is not None else LocalExecutor(jobs)
