"""Output normalisation for equivalence: what varies between two honest runs is blanked out
(memory addresses, timestamps, durations, progress bars), and numbers compare with a tolerance."""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from typing import Any

__all__ = ["normalize_text", "output_texts", "texts_match", "facts_match"]

_ADDRESS = re.compile(r"0x[0-9a-fA-F]{4,}")
_ISO = re.compile(
    r"\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?"
)
_CLOCK = re.compile(r"\b\d{1,2}:\d{2}:\d{2}(?:[.,]\d+)?\b")
_DURATION = re.compile(
    r"(?<![\w.])\d+(?:\.\d+)?\s?(?:ms|µs|us|ns|s|sec|secs|seconds|min)(?:/(?:step|epoch|it))?\b"
)
_TQDM = re.compile(r"\d+%\|.*\|\s*\d+/\d+|\d+/\d+\s*\[\d+:\d+.*(?:it/s|s/it)")
_BAR = re.compile(r"━+|\[=*>?\.*\]")
_ETA = re.compile(r"ETA:\s*\S+")
_NUMBER = re.compile(r"[-+]?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?")


def normalize_text(text: str) -> str:
    """Text as two equivalent runs should both print it.

    Applies carriage returns as a terminal would (only the last overwrite of a line stays),
    drops tqdm progress lines, blanks Keras bars, ETAs, durations, clock times, ISO
    timestamps and memory addresses, and strips trailing spaces.
    """
    lines = []
    for raw in text.split("\n"):
        line = raw.rstrip("\r").split("\r")[-1]
        if _TQDM.search(line):
            continue
        line = _BAR.sub("<bar>", line)
        line = _ETA.sub("ETA: <time>", line)
        line = _ISO.sub("<timestamp>", line)
        line = _CLOCK.sub("<time>", line)
        line = _DURATION.sub("<duration>", line)
        line = _ADDRESS.sub("0x<address>", line)
        lines.append(line.rstrip())
    while lines and not lines[-1]:
        lines.pop()
    return "\n".join(lines)


def output_texts(outputs: Sequence[Mapping[str, Any]]) -> tuple[str, ...]:
    """The comparable text of a cell's outputs: stdout, results, displays, errors.

    stderr is left out on purpose: warnings name files and line numbers, and removing a
    deprecation warning is what a modernisation is for. Images count by type, not bytes.
    """
    texts: list[str] = []
    stdout = "".join(
        o.get("text", "") for o in outputs
        if o.get("output_type") == "stream" and o.get("name") == "stdout"
    )
    if stdout.strip():
        texts.append(normalize_text(stdout))
    for out in outputs:
        kind = out.get("output_type")
        if kind in ("execute_result", "display_data"):
            data = out.get("data", {})
            if "text/plain" in data:
                plain = data["text/plain"]
                texts.append(normalize_text("".join(plain) if isinstance(plain, list) else plain))
            texts.extend(f"<{mime}>" for mime in sorted(data) if mime.startswith("image/"))
        elif kind == "error":
            texts.append(normalize_text(f"{out.get('ename')}: {out.get('evalue')}"))
    return tuple(texts)


def _numbers_close(x: str, y: str, tolerance: float) -> bool:
    if x == y:
        return True
    if not any(c in x + y for c in ".eE"):  # two integers: counts, sizes, labels
        return False
    fx, fy = float(x), float(y)
    return math.isclose(fx, fy, rel_tol=tolerance, abs_tol=tolerance * 1e-6)


def texts_match(x: str, y: str, tolerance: float) -> bool:
    """Equal text, except that non-integer numbers may differ by ``tolerance`` (relative)."""
    if x == y:
        return True
    parts_x, parts_y = _NUMBER.split(x), _NUMBER.split(y)
    nums_x, nums_y = _NUMBER.findall(x), _NUMBER.findall(y)
    if parts_x != parts_y or len(nums_x) != len(nums_y):
        return False
    return all(_numbers_close(a, b, tolerance) for a, b in zip(nums_x, nums_y))


def facts_match(x: Any, y: Any, tolerance: float) -> bool:
    """Deep comparison of probe facts: floats within ``tolerance``, reprs normalised."""
    if isinstance(x, bool) or isinstance(y, bool):
        return type(x) is type(y) and x == y
    if isinstance(x, float) or isinstance(y, float):
        if isinstance(x, (int, float)) and isinstance(y, (int, float)):
            return math.isclose(x, y, rel_tol=tolerance, abs_tol=tolerance * 1e-6)
        return False
    if isinstance(x, dict) and isinstance(y, dict):
        return x.keys() == y.keys() and all(facts_match(x[k], y[k], tolerance) for k in x)
    if isinstance(x, list) and isinstance(y, list):
        return len(x) == len(y) and all(facts_match(a, b, tolerance) for a, b in zip(x, y))
    if isinstance(x, str) and isinstance(y, str):
        return texts_match(normalize_text(x), normalize_text(y), tolerance)
    return x == y
