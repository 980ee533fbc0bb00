"""The value a rule returns when it is certain a line will raise."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Finding"]


@dataclass(frozen=True, slots=True, kw_only=True)
class Finding:
    """One certain crash found by a rule; the walker adds the line."""

    exception: str
    crash_type: str
    library: str
    explanation: str
    evidence: tuple[str, ...] = ()
    confidence: float = 0.95
    rule: str = ""

