"""Where per-case work runs: a local pool of worker processes, or a Dask cluster.

Both take the same picklable task (a plain dict) and the same top-level function, and
yield results as they complete, so a run gives the same records either way. Each task
starts its own kernel, so ``jobs`` bounds the number of live kernels (and their memory).
"""

from __future__ import annotations

import multiprocessing
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
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
        tasks = list(tasks)
        if not tasks:
            return
        context = multiprocessing.get_context("spawn")
        with ProcessPoolExecutor(max_workers=min(self.jobs, len(tasks)), mp_context=context) as pool:
            # submit lazily, at most 2 per worker, so an interrupt leaves little queued
            queue = iter(tasks)
            running: dict[Future, Task] = {}

            def fill() -> None:
                while len(running) < 2 * self.jobs:
                    task = next(queue, None)
                    if task is None:
                        return
                    running[pool.submit(fn, task)] = task

            fill()
            while running:
                finished, _ = wait(running, return_when=FIRST_COMPLETED)
                for future in finished:
                    task = running.pop(future)
                    try:
                        yield task, future.result()
                    except Exception as exc:  # a worker died (BrokenProcessPool) or fn raised
                        yield task, on_error(task, exc)
                fill()


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
