"""Errors raised by crashpredict for misuse and unreadable input.

Predictions are never errors: a predicted crash is a `Verdict` value.
"""

from __future__ import annotations

__all__ = [
    "CrashPredictError",
    "NotebookReadError",
    "CellNotFoundError",
    "UnknownEngineError",
    "EngineOptionError",
    "KernelError",
    "ReplayError",
]


class CrashPredictError(Exception):
    """Base class of every error crashpredict raises."""


class NotebookReadError(CrashPredictError, ValueError):
    """The notebook file cannot be read or is not a notebook."""


class CellNotFoundError(CrashPredictError, LookupError):
    """``--cell`` names no code cell of the notebook."""


class UnknownEngineError(CrashPredictError, ValueError):
    """An engine name that is not registered."""


class EngineOptionError(CrashPredictError, ValueError):
    """An engine option (e.g. ``--dryrun-budget``) with a value the engine cannot use."""


class KernelError(CrashPredictError, RuntimeError):
    """The Jupyter kernel could not be started or stopped answering."""


class ReplayError(CrashPredictError, RuntimeError):
    """A replayed cell failed, so the kernel state the target needs does not exist."""
