"""The errors nbpatch raises: one base class, a few subclasses that also subclass a builtin.

Findings (what differs between two notebooks) are values; these exceptions are for misuse
and unusable input, and their message says what was wrong and where.
"""

from __future__ import annotations

__all__ = [
    "NbpatchError",
    "NotebookError",
    "PatchError",
    "PatchConflict",
    "ReplyError",
    "RunError",
    "EquivalenceError",
]


class NbpatchError(Exception):
    """Base class of every error nbpatch raises on purpose."""


class NotebookError(NbpatchError, ValueError):
    """The input is not a readable Jupyter notebook."""


class PatchError(NbpatchError, ValueError):
    """A patch document does not match the patch schema."""


class PatchConflict(NbpatchError, ValueError):
    """A patch was made for another base: a cell it touches is missing or changed.

    ``cell`` is the key (cell id or ``#position``) of the first cell that conflicts.
    """

    def __init__(self, message: str, *, cell: str | None = None) -> None:
        super().__init__(message)
        self.cell = cell


class ReplyError(NbpatchError, ValueError):
    """An LLM or tool reply cannot be turned into a patch (no code, bad cell headers...)."""


class RunError(NbpatchError, RuntimeError):
    """A notebook could not be run: no kernel started (``run_notebook``)."""


class EquivalenceError(RunError):
    """A version could not be run to compare it; the message says which (``equivalent``)."""
