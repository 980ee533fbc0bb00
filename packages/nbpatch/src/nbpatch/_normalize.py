"""Output normalisation for equivalence: what varies between two honest runs is blanked out
(memory addresses, timestamps, durations, progress bars), and numbers compare with a tolerance."""

from __future__ import annotations

import base64
import math
import re
import sys
import zlib
from array import array
from collections.abc import Mapping, Sequence
from typing import Any

from ._kernel_side import MIME

__all__ = ["normalize_text", "output_texts", "output_fingerprints", "texts_match", "facts_match",
           "fingerprint_difference", "ABS_SCALE"]

# the absolute floor of float comparisons, as a fraction of the relative tolerance: with the
# default 1e-6, values within 1e-9 of each other match (numbers near zero have no scale)
ABS_SCALE = 1e-3

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


def output_fingerprints(outputs: Sequence[Mapping[str, Any]]) -> tuple[Any, ...]:
    """The value fingerprints the kernel attached to a cell's rich outputs (see ``run``)."""
    return tuple(o["data"][MIME] for o in outputs
                 if o.get("output_type") in ("execute_result", "display_data")
                 and MIME in o.get("data", {}))


def _numbers_close(x: str, y: str, tolerance: float) -> bool:
    if x == y:
        return True
    if not any(c in x + y for c in ".eE"):  # two integers: counts, sizes, labels
        return False
    return _close(float(x), float(y), tolerance)


def texts_match(x: str, y: str, tolerance: float) -> bool:
    """Equal text, except that non-integer numbers may differ by ``tolerance`` (relative)."""
    if x == y:
        return True
    parts_x, parts_y = _NUMBER.split(x), _NUMBER.split(y)
    nums_x, nums_y = _NUMBER.findall(x), _NUMBER.findall(y)
    if parts_x != parts_y or len(nums_x) != len(nums_y):
        return False
    return all(_numbers_close(a, b, tolerance) for a, b in zip(nums_x, nums_y))


def _close(x: float, y: float, tolerance: float) -> bool:
    return math.isclose(x, y, rel_tol=tolerance, abs_tol=tolerance * ABS_SCALE)


def _decoded(code: Mapping[str, Any]) -> array:
    values = array("d")
    values.frombytes(zlib.decompress(base64.b64decode(code["z"])))
    if sys.byteorder == "big":  # the kernel sent little-endian float64
        values.byteswap()
    return values


def _place(k: int, shape: Sequence[int] | None, rows: bool) -> str:
    if rows:
        return f"row {k}"
    if shape and len(shape) > 1 and math.prod(shape) > 0:
        index = []
        for size in reversed(shape):
            k, rest = divmod(k, size)
            index.append(rest)
        return f"value [{', '.join(map(str, reversed(index)))}]"
    return f"value {k}"


def _floats_difference(a: Mapping[str, Any], b: Mapping[str, Any], tolerance: float,
                       shape: Sequence[int] | None, rows: bool) -> str | None:
    if a.get("n") != b.get("n"):
        return f"{a.get('n')} values vs {b.get('n')}"
    if a.get("nonfinite") != b.get("nonfinite"):
        return "NaN / infinity at other places"
    if "z" in a and "z" in b:
        for k, (x, y) in enumerate(zip(_decoded(a), _decoded(b))):
            if not _close(x, y, tolerance):
                return f"{_place(k, shape, rows)}: {x!r} vs {y!r}"
        return None
    if "sums" in a and "sums" in b and a.get("block_starts") == b.get("block_starts"):
        for start, sa, sb, ca, cb in zip(a["block_starts"], a["sums"], b["sums"],
                                         a["scales"], b["scales"]):
            if abs(sa - sb) > tolerance * max(ca, cb) + tolerance * ABS_SCALE:
                return (f"the block of values starting at {_place(start, None, rows)}: sum "
                        f"{sa!r} vs {sb!r}")
        return None
    return "float values differ"


_ORDER = ("missing", "error", "type", "shape", "dtype", "dtypes", "columns", "name", "len",
          "keys", "index")


_EXACT = frozenset(("type", "shape", "dtype", "dtypes", "columns", "name", "names", "len",
                    "n", "sha256", "missing", "error"))


def fingerprint_difference(x: Any, y: Any, tolerance: float, where: str = "",
                           rows: bool = False) -> str | None:
    """Where two probe facts / value fingerprints differ (``None``: they match).

    Exact parts (types, shapes, dtypes, labels, digests of integer, string and object
    values) must be equal; floats match within ``tolerance`` (relative, with an absolute
    floor of ``tolerance * ABS_SCALE``), elementwise or by block sums (see ``_kernel_side``).
    The answer names the place: ``column 'b': row 500: 0.25 vs 0.5``.
    """
    at = f"{where}: " if where else ""
    if isinstance(x, Mapping) and isinstance(y, Mapping):
        for key in sorted(x.keys() | y.keys(), key=lambda k: (_ORDER + (k,)).index(k)):
            if key not in x or key not in y:
                return f"{at}{key} only in the {'original' if key in x else 'modified'}"
            if key in _EXACT:
                if x[key] == y[key]:
                    continue
                if key == "sha256":
                    return f"{at}values differ"
                return f"{at}{key} {_short(x[key])} vs {_short(y[key])}"
            if key == "floats":
                found = _floats_difference(x[key], y[key], tolerance, x.get("shape"), rows)
                found = found and at + found
            elif key == "data" and isinstance(x[key], list) and isinstance(y[key], list):
                found = _columns_difference(x, y, tolerance, where)
            elif key == "items" and isinstance(x.get("keys"), list):
                found = next((d for k, a, b in zip(x["keys"], x[key], y[key])
                              if (d := fingerprint_difference(a, b, tolerance, f"{where}[{k}]"))),
                             None)
            else:
                inner = f"{where} {key}".strip() if key == "index" else where
                found = fingerprint_difference(x[key], y[key], tolerance, inner, rows)
            if found:
                return found
        return None
    if isinstance(x, list) and isinstance(y, list):
        if len(x) != len(y):
            return f"{at}{len(x)} items vs {len(y)}"
        return next((d for k, (a, b) in enumerate(zip(x, y))
                     if (d := fingerprint_difference(a, b, tolerance, f"{where}[{k}]"))), None)
    return None if facts_match(x, y, tolerance) else f"{at}{_short(x)} vs {_short(y)}"


def _columns_difference(x: Mapping[str, Any], y: Mapping[str, Any], tolerance: float,
                        where: str) -> str | None:
    for label, a, b in zip(x.get("columns", ()), x["data"], y["data"]):
        found = fingerprint_difference(a, b, tolerance, f"{where} column {label}".strip(),
                                       rows=True)
        if found:
            return found
    return None


def _short(value: Any, limit: int = 80) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[:limit] + "..."


def facts_match(x: Any, y: Any, tolerance: float) -> bool:
    """Deep comparison of probe facts: floats within ``tolerance``, reprs normalised."""
    if isinstance(x, bool) or isinstance(y, bool):
        return type(x) is type(y) and x == y
    if isinstance(x, float) or isinstance(y, float):
        if isinstance(x, (int, float)) and isinstance(y, (int, float)):
            return _close(x, y, tolerance)
        return False
    if isinstance(x, Mapping) and isinstance(y, Mapping) or isinstance(x, list):
        return fingerprint_difference(x, y, tolerance) is None
    if isinstance(x, str) and isinstance(y, str):
        return texts_match(normalize_text(x), normalize_text(y), tolerance)
    return x == y
