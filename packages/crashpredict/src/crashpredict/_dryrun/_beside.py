"""The dry run beside the real cell: fork when the cell starts, answer while it runs.

`dry_run_beside` forks the kernel (the child holds the state before the cell) and returns
at once, so the real cell starts without waiting. The child runs the cell jailed, as every
dry run, fast-forwarded from the start when the cell has loops (`_fastforward`: a crash
after ten minutes of training is reached in the first seconds). It waits
`_fork.BESIDE_DELAY_S` (1 s) first, so a short cell ends it before it has taken any CPU,
then runs its first 2 s of CPU at normal priority and the rest at the lowest
(``SCHED_IDLE``: only the CPU the real cell leaves idle); the OOM killer takes it first. A thread of the caller's reads the child's report and calls ``on_result`` with the
`DryRun` as soon as it is in, while the real cell may still be running. `Beside.cancel`
(the real cell ended) kills the child at once; nothing of it reaches the kernel.
"""

from __future__ import annotations

import math
import random
import shutil
import tempfile
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from . import _fork
from ._child import message_of
from ._fork import DryRun, DryRunError

__all__ = ["BESIDE_BUDGET_S", "Beside", "dry_run_beside"]

#: The longest a dry run beside a cell may take; the cell's end stops it sooner.
BESIDE_BUDGET_S = 600.0


@dataclass(slots=True, eq=False)
class Beside:
    """A dry run running beside the real cell."""

    started: float
    result: DryRun | None = None
    fast_forwarded: bool = False
    _stop: threading.Event = field(default_factory=threading.Event)
    _done: threading.Event = field(default_factory=threading.Event)
    _thread: threading.Thread | None = None

    @property
    def running(self) -> bool:
        return not self._done.is_set()

    def cancel(self) -> None:
        """End the child now (the real cell ended first); never waits for it."""
        self._stop.set()

    def wait(self, timeout: float | None = None) -> DryRun | None:
        """The result, once in (None after ``timeout`` seconds)."""
        self._done.wait(timeout)
        return self.result


def _finished(result: DryRun) -> Beside:
    beside = Beside(started=time.perf_counter(), result=result)
    beside._done.set()
    return beside


def dry_run_beside(cell_source: str, namespace: Mapping[str, Any], *,
                   on_result: Callable[[DryRun], object] | None = None,
                   budget_s: float = BESIDE_BUDGET_S, filename: str = "<cell>",
                   fast_forward: bool = True) -> Beside:
    """Start a dry run of ``cell_source`` on a fork of this process and return at once.

    ``on_result(DryRun)`` is called from a thread of this process when the child's report
    is in, unless `Beside.cancel` was called first. A refused fork (see `fork_refusal`)
    or a cell that does not compile returns a finished `Beside` whose ``result`` says so;
    ``on_result`` is not called for those.

    Raises:
        DryRunError: a non-positive budget or a namespace that is no mapping.
    """
    if not isinstance(budget_s, (int, float)) or not 0 < budget_s < math.inf:
        raise DryRunError(f"dry run budget must be a positive number of seconds, got {budget_s!r}")
    if not isinstance(namespace, Mapping):
        raise DryRunError(f"dry run namespace must be a mapping, got {type(namespace).__name__}")
    if not isinstance(namespace, dict):
        namespace = dict(namespace)
    refusal = _fork.fork_refusal()
    if refusal is not None:
        return _finished(DryRun(outcome="inconclusive", reason=refusal))
    try:
        code = _fork._compile(cell_source, filename)
    except SyntaxError as exc:
        return _finished(DryRun(outcome="crashed", exception=type(exc).__name__,
                                message=message_of(exc), line=exc.lineno, library="python",
                                traceback=(f"{filename}:{exc.lineno}",)))
    tree = _fork._loop_tree(cell_source, code, namespace) if fast_forward else None
    private_dir = tempfile.mkdtemp(prefix="crashpredict-dryrun-")
    try:
        child = _fork._fork_child(
            float(budget_s), background=True, code=code, namespace=namespace, shrink=None,
            reads=None, private_dir=private_dir, filename=filename,
            rng_state=random.getstate(), fast_forward=tree)
    except OSError as exc:  # no more processes, no pipes: the cell runs unchecked
        shutil.rmtree(private_dir, ignore_errors=True)
        return _finished(DryRun(outcome="inconclusive", reason=f"could not fork: {exc}"))
    beside = Beside(started=child.started, fast_forwarded=tree is not None)

    def wait() -> None:
        try:
            data, startup, timed_out, code_ = _fork._wait_child(child, beside._stop)
            if beside._stop.is_set() and not data:
                result = DryRun(outcome="inconclusive", startup_s=startup,
                                elapsed_s=time.perf_counter() - child.started,
                                reason="the cell ended before the dry run answered")
            else:
                fields = _fork._result(data, timed_out, code_, float(budget_s))
                fields.pop("over_budget", None)
                if fields.pop("jail", None) and not _fork._JAIL_REFUSED:
                    _fork._JAIL_REFUSED.append(fields.get("reason", "the jail was refused"))
                fields["startup_s"] = startup
                fields["elapsed_s"] = time.perf_counter() - child.started
                result = DryRun.from_dict(fields)
        except BaseException as exc:  # noqa: BLE001 - a thread of the user's kernel
            result = DryRun(outcome="inconclusive",
                            reason=f"the dry run failed: {type(exc).__name__}: {message_of(exc)}")
        finally:
            shutil.rmtree(private_dir, ignore_errors=True)
        beside.result = result
        beside._done.set()
        if on_result is not None and not beside._stop.is_set():
            try:
                on_result(result)
            except BaseException:  # noqa: BLE001 - never raise in the user's kernel
                pass

    beside._thread = threading.Thread(target=wait, name="crashpredict-dryrun", daemon=True)
    beside._thread.start()
    return beside
