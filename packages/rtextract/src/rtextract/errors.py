"""Errors raised by rtextract.

Describing objects never raises; these errors are for misuse and unreadable input only
(a snapshot JSON that does not parse, a CLI file that cannot be read).
"""

from __future__ import annotations

__all__ = ["RtextractError", "SnapshotFormatError"]


class RtextractError(Exception):
    """Base class of every error rtextract raises on purpose."""


class SnapshotFormatError(RtextractError, ValueError):
    """A snapshot or facts document is not in the format ``to_json``/``to_dict`` write."""
