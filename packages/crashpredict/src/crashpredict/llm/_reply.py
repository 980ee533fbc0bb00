"""Tolerant parsing of model replies into `Answer` values.

Servers in JSON mode return one object; others wrap it in a code fence, put prose around
it, or return nothing usable. Parsing never raises: an unusable reply gives None and the
engine turns it into an "unknown" vote that keeps the raw text.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from crashpredict._model import CRASH_TYPES, LIBRARIES

__all__ = ["FIELD_LIMITS", "MAX_LINE", "TRUNCATED", "Answer", "clip", "parse_reply"]

#: Characters kept of each free-text field of a parsed reply; a longer value is cut and
#: ends with `TRUNCATED`. A model (or a hostile server) can send megabytes in a valid
#: answer; the verdict is printed, stored in caches and benchkit results, so it stays small.
FIELD_LIMITS = {"reasoning": 4000, "explanation": 1000, "exception": 100}
#: The largest ``line`` accepted; a larger one (or one written with more digits) is no line.
MAX_LINE = 1_000_000
#: Appended to a cut field, with the number of characters left out.
TRUNCATED = " … [truncated: {:,} more characters]"
_MAX_EMBEDDED = 200  # "{" positions tried in prose around the answer (keeps parsing linear)

_FENCE = re.compile(r"```[A-Za-z0-9_+-]*[ \t]*\n?(.*?)```", re.DOTALL)
_THINK = re.compile(r"<think>.*?</think>", re.DOTALL | re.IGNORECASE)
_EXC_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*")
_TRUE = {"true", "yes", "y", "1", "crash", "crashes"}
_FALSE = {"false", "no", "n", "0", "none", "no crash"}
_CRASH_TYPE_ALIASES = {
    "name error": "variable not found", "nameerror": "variable not found",
    "attributeerror": "attribute error", "keyerror": "key error", "indexerror": "index error",
    "typeerror": "type error", "valueerror": "value error", "notfittederror": "NotFitted",
    "not fitted": "NotFitted", "modulenotfounderror": "module not found",
    "importerror": "module not found", "filenotfounderror": "file not found",
    "syntaxerror": "syntax error", "memoryerror": "out of memory", "shape mismatch":
    "tensor shape mismatch",
}


@dataclass(frozen=True, slots=True, kw_only=True)
class Answer:
    """One parsed reply: the model's detection and diagnosis, normalised to our vocabulary."""

    detection: bool
    exception: str | None = None
    line: int | None = None
    crash_type: str | None = None
    library: str | None = None
    explanation: str = ""
    reasoning: str = ""


def _objects(text: str) -> list[dict[str, Any]]:
    """Every JSON object found in ``text``: whole text, fenced blocks, then embedded ones."""
    found: list[dict[str, Any]] = []
    candidates = [text] + [m.group(1) for m in _FENCE.finditer(text)]
    decoder = json.JSONDecoder()
    for candidate in candidates:
        candidate = candidate.strip()
        try:
            value = json.loads(candidate)
        except ValueError:
            value = None
        if isinstance(value, dict):
            found.append(value)
            continue
        # Prose around the objects: decode from each "{" outside an object already found.
        position = tries = 0
        while (start := candidate.find("{", position)) != -1 and tries < _MAX_EMBEDDED:
            tries += 1
            try:
                value, end = decoder.raw_decode(candidate, start)
            except ValueError:
                position = start + 1
                continue
            found.append(value)
            position = end
    return found


def clip(text: str, limit: int) -> str:
    """``text`` cut to ``limit`` characters plus the `TRUNCATED` marker when longer."""
    if len(text) <= limit:
        return text
    return text[:limit] + TRUNCATED.format(len(text) - limit)


def _bool(value: Any) -> bool | None:
    if isinstance(value, bool):
        return value
    if isinstance(value, (int, float)) and value in (0, 1):
        return bool(value)
    if isinstance(value, str):
        text = value.strip().lower()
        if text in _TRUE:
            return True
        if text in _FALSE:
            return False
    return None


def _exception(value: Any) -> str | None:
    """``"pandas.errors.KeyError: 'x'"`` -> ``"KeyError"``; None when it names no class."""
    if not isinstance(value, str):
        return None
    limit = FIELD_LIMITS["exception"]
    match = _EXC_NAME.match(value[: 4 * limit].strip())
    if not match or match.group(0).lower() in {"null", "none", "n/a", "na"}:
        return None
    name = match.group(0).rsplit(".", 1)[-1]
    return name if len(name) <= limit else name[: limit - 1] + "…"


def _line(value: Any) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value if 1 <= value <= MAX_LINE else None
    if isinstance(value, float) and value.is_integer():
        return int(value) if 1 <= value <= MAX_LINE else None
    # at most 7 digits: int() of a 5,000-digit string raises, and no cell is that long
    if isinstance(value, str) and (m := re.search(r"(?<!\d)\d{1,7}(?!\d)", value[:1000])):
        return int(m.group(0)) if 1 <= int(m.group(0)) <= MAX_LINE else None
    return None


def _vocab(value: Any, vocabulary: tuple[str, ...], aliases: dict[str, str]) -> str | None:
    if not isinstance(value, str) or not value.strip() or len(value) > 200:
        return None  # every vocabulary word is short: a longer value names none of them
    text = value.strip()
    by_lower = {v.lower(): v for v in vocabulary}
    key = text.lower()
    return by_lower.get(key) or aliases.get(key) or aliases.get(key.replace(" ", "")) or None


def _answer(data: dict[str, Any]) -> Answer | None:
    lowered = {str(k).strip().lower(): v for k, v in data.items()}
    detection = None
    for key in ("detection", "crash", "will_crash", "crashes", "prediction"):
        if key in lowered and (detection := _bool(lowered[key])) is not None:
            break
    if detection is None:
        return None
    def text(key: str) -> str:
        value = lowered.get(key) or ""
        return clip((value if isinstance(value, str) else str(value)).strip(), FIELD_LIMITS[key])

    if not detection:
        return Answer(detection=False, explanation=text("explanation"), reasoning=text("reasoning"))
    exception = _exception(lowered.get("exception") or lowered.get("exception_type"))
    crash_type = _vocab(lowered.get("crash_type"), CRASH_TYPES, _CRASH_TYPE_ALIASES)
    if crash_type is None and exception is not None:
        crash_type = _CRASH_TYPE_ALIASES.get(exception.lower())
    return Answer(
        detection=True, exception=exception, line=_line(lowered.get("line")),
        crash_type=crash_type or "unknown",
        library=_vocab(lowered.get("library"), LIBRARIES, {}),
        explanation=text("explanation"), reasoning=text("reasoning"),
    )


def parse_reply(text: str) -> Answer | None:
    """Parse a model reply into an `Answer`, or None when it holds no usable JSON object.

    Accepts a bare object, an object in a code fence, prose around the object and a
    reasoning model's ``<think>`` preamble; booleans may be strings ("yes", "true"); the
    exception is reduced to its class name and the crash type to JunoBench's vocabulary.
    Every field is bounded (`FIELD_LIMITS`, `MAX_LINE`): a longer reasoning or
    explanation is cut and marked with `TRUNCATED`, an absurd line number is dropped.
    """
    text = _THINK.sub("", text or "")
    for data in _objects(text):
        if (answer := _answer(data)) is not None:
            return answer
    return None
