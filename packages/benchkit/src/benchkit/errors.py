"""benchkit's errors: misuse and unreadable input. Per-case failures are results, not errors."""

from __future__ import annotations


class BenchkitError(Exception):
    """Base of benchkit's errors; its message names the file and what is wrong."""


class CaseError(BenchkitError, ValueError):
    """A case folder, notebook or label file that cannot be used."""


class ResultsError(BenchkitError, ValueError):
    """A results file that cannot be read or belongs to another kind of run."""
