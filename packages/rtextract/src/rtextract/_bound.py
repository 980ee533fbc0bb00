"""A real time bound for the user code rtextract (and its callers) still reach.

`bounded_call` runs a callable under ``SIGALRM`` in the main thread, restoring the
previous handler and timer exactly; where no such timer can be armed (another thread, a
platform without ``setitimer``, a SIGALRM handler installed from C) it does not run the
callable at all (`NoTimeBound`). The trust policy that decides what needs it is
`rtextract._trust`.
"""

from __future__ import annotations

import signal
import sys
import threading
import time
from collections.abc import Callable
from typing import Any

__all__ = ["IMPORT_PATIENCE_S", "NoTimeBound", "UserCodeTimeout", "bounded_call", "can_bound"]

_REPEAT_S = 0.02
#: How long past the deadline a stop waits for an import in progress to finish: stopping
#: an import leaves its modules half-initialised in ``sys.modules`` (``torch._dynamo``
#: without ``decorators``, ``sympy`` without ``core``) for the rest of the session.
IMPORT_PATIENCE_S = 30.0


class UserCodeTimeout(Exception):
    """`bounded_call` stopped the call at its deadline, or the deadline had passed."""


class NoTimeBound(UserCodeTimeout):
    """`bounded_call` did not run the call: no real-time timer can be armed here."""


class _Stop(BaseException):
    """Raised by the timer inside the bounded call.

    A BaseException, like KeyboardInterrupt, so the ``except Exception`` of user or
    library code cannot swallow it; the repeating timer raises it again if a bare
    ``except`` does.
    """

    def __init__(self, token: object) -> None:
        super().__init__("time budget spent")
        self.token = token


def can_bound() -> bool:
    """Whether `bounded_call` can arm its timer here (the main thread of a POSIX process
    whose SIGALRM handler, if any, was installed from Python)."""
    return (hasattr(signal, "setitimer") and threading.current_thread() is threading.main_thread()
            and signal.getsignal(signal.SIGALRM) is not None)


def bounded_call(fn: Callable[[], Any], deadline: Any) -> Any:
    """Call ``fn``, stopping it at ``deadline`` (an object with ``remaining_ms()`` and
    ``budget_ms``, such as rtextract's Deadline).

    In the main thread a real-time timer interrupts ``fn`` at the deadline, even inside
    ``time.sleep``, and again every 20 ms while it goes on (but not inside an import,
    for up to `IMPORT_PATIENCE_S` more: that would break the module); the previous SIGALRM handler
    is restored afterwards, and a timer someone else had running gets back what is left
    of it (when it would have fired first, ``fn`` is stopped at its time, and it fires
    right after). Calls nest.

    Raises:
        NoTimeBound: no timer can be armed here (another thread...): ``fn`` did not run.
        UserCodeTimeout: the deadline had passed, or ``fn`` was stopped at it.
    """
    remaining = deadline.remaining_ms() / 1000.0
    if remaining <= 0:
        raise UserCodeTimeout("time budget spent")
    if not can_bound():
        raise NoTimeBound("no time bound possible outside the main thread")
    token = object()
    armed = [True]
    reporting = [0]
    patience = time.perf_counter() + remaining + IMPORT_PATIENCE_S

    def expire(signum: int, frame: Any) -> None:
        if not armed[0]:  # a signal that arrives after fn returned is ignored
            return
        if reporting[0]:  # the unraisable hook runs: stopped a tick after it ends
            return
        if _importing(frame) and time.perf_counter() < patience:
            return  # stopped inside an import, modules stay half-initialised: wait for it
        raise _Stop(token)

    outer_left, outer_every = signal.setitimer(signal.ITIMER_REAL, 0)
    started = time.perf_counter()
    try:
        previous = signal.signal(signal.SIGALRM, expire)
    except (ValueError, OSError, TypeError):
        _restore_timer(outer_left, outer_every, started)
        raise NoTimeBound("no time bound possible here") from None
    first = remaining if outer_left <= 0 else min(remaining, outer_left)
    hook = sys.unraisablehook

    def unraisable(info: Any) -> None:
        # a stop that landed in a finalizer (``__del__``) cannot propagate: dropped, the
        # repeating timer stops ``fn`` a tick later; any other is reported with the ticks
        # ignored, so none breaks the hook (it would print "Exception ignored in
        # sys.unraisablehook" into the user's cell)
        if isinstance(info.exc_value, _Stop) and info.exc_value.token is token:
            return
        reporting[0] += 1
        try:
            hook(info)
        finally:
            reporting[0] -= 1

    sys.unraisablehook = unraisable
    try:
        signal.setitimer(signal.ITIMER_REAL, first, _REPEAT_S)
        try:
            return fn()
        finally:
            armed[0] = False
    except _Stop as stop:
        if stop.token is not token:
            raise
        raise UserCodeTimeout(f"stopped after the time budget ({deadline.budget_ms:g} ms)") \
            from None
    finally:  # runs even when the timer fired inside the inner finally
        signal.setitimer(signal.ITIMER_REAL, 0)
        if sys.unraisablehook is unraisable:  # fn may have set its own: left alone
            sys.unraisablehook = hook
        signal.signal(signal.SIGALRM, previous)
        _restore_timer(outer_left, outer_every, started)


def _importing(frame: Any) -> bool:
    """An import is running on this stack (a frame of ``importlib._bootstrap``)."""
    for _ in range(2000):
        if frame is None:
            return False
        name = frame.f_code.co_filename  # frozen, or a file with -X frozen_modules=off
        if name.startswith("<frozen importlib") or name.endswith(_BOOTSTRAP):
            return True
        frame = frame.f_back
    return False


_BOOTSTRAP = ("importlib/_bootstrap.py", "importlib/_bootstrap_external.py")


def _restore_timer(left: float, every: float, started: float) -> None:
    if left > 0:  # someone else's timer was running: give it back what is left
        remaining = left - (time.perf_counter() - started)
        signal.setitimer(signal.ITIMER_REAL, max(0.001, remaining), every)
