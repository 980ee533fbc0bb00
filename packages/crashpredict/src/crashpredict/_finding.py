"""The value a rule returns when it is certain a line will raise."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Finding", "crash_type_of"]


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


_BY_CLASS = {
    "KeyError": "key error",
    "IndexError": "index error",
    "AttributeError": "attribute error",
    "NameError": "variable not found",
    "UnboundLocalError": "variable not found",
    "TypeError": "type error",
    "ValueError": "value error",
    "FileNotFoundError": "file not found",
    "ModuleNotFoundError": "module not found",
    "ImportError": "module not found",
    "MemoryError": "out of memory",
    "NotFittedError": "NotFitted",
    "SyntaxError": "syntax error",
    "IndentationError": "syntax error",
    "ZeroDivisionError": "data value violation",
    "IntCastingNaNError": "value error",
}


def crash_type_of(exception: str, message: str = "") -> str:
    """Map an exception class name (and its message) to JunoBench's crash type."""
    text = message.lower()
    if "broadcast" in text:
        return "unsupported broadcast"
    if "feature names" in text:
        return "feature name mismatch"
    if any(w in text for w in ("shape", "size of tensor", "cannot reshape", "dimension",
                               "must match exactly", "cannot be multiplied", "not aligned",
                               "equal size")):
        return "tensor shape mismatch"
    if exception == "RuntimeError":
        return "unknown"
    return _BY_CLASS.get(exception, "unknown")
