"""Ending a dry run's processes: the one signal both the fork's and the copies' code send."""

from __future__ import annotations

import os
import signal

__all__ = ["kill_now"]


def kill_now(pid: int) -> None:
    """SIGKILL the child's group and the child (not yet reaped: its pid is still its own)."""
    for kill in (os.killpg, os.kill):
        try:
            kill(pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
