"""Errors raised by nbdeps: one base class, subclasses that also subclass a builtin.

Findings about a notebook (an undefined name, a stale cell) are values, never raised;
exceptions are only for input nbdeps cannot read and for misuse.
"""

from __future__ import annotations

__all__ = ["CellIndexError", "MissingExtraError", "NbdepsError", "NotebookError"]


class NbdepsError(Exception):
    """Base class of every error nbdeps raises on purpose."""


class NotebookError(NbdepsError, ValueError):
    """The input is not a readable Python notebook; the message names the file and why."""


class MissingExtraError(NbdepsError, ImportError):
    """An optional dependency is missing; the message names the `pip install` line."""


class CellIndexError(NbdepsError, IndexError):
    """A cell index that names no code cell of the notebook."""
