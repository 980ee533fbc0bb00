"""Edit similarity of code: ``1 - Levenshtein distance / max length``, or rapidfuzz's ratio."""

from __future__ import annotations

import io
import tokenize
from typing import Any, Literal

from rapidfuzz import fuzz
from rapidfuzz.distance import Levenshtein

from ._align import align
from ._notebook import source_of, view_notebook

__all__ = ["similarity", "strip_code"]

Method = Literal["levenshtein", "ratio"]


def _strip_comments(code: str) -> str:
    """``code`` without comments; tokenizes so ``'#'`` inside strings survives."""
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(code).readline))
    except (tokenize.TokenError, IndentationError, SyntaxError):
        # Not Python (magics, a half-written cell): drop whole-line comments only.
        return "".join(
            line for line in code.splitlines(keepends=True) if not line.lstrip().startswith("#")
        )
    lines: list[str | None] = list(code.splitlines(keepends=True))
    for tok in reversed(tokens):
        if tok.type == tokenize.COMMENT:
            row, col = tok.start
            line = lines[row - 1] or ""
            if line[:col].strip():  # code before the comment: keep the code
                lines[row - 1] = line[:col].rstrip() + line[tok.end[1]:]
            else:  # a comment-only line goes entirely
                lines[row - 1] = None
    return "".join(line for line in lines if line is not None)

def strip_code(code: str, *, ignore_comments: bool = False, ignore_blank: bool = True) -> str:
    """The code as similarity sees it: optionally without comments and blank lines."""
    if ignore_comments:
        code = _strip_comments(code)
    if ignore_blank:
        code = "\n".join(line.rstrip() for line in code.splitlines() if line.strip())
    return code


def _score(x: str, y: str, method: Method) -> float:
    if method == "levenshtein":
        # normalized_similarity with unit weights is exactly 1 - distance / max(len).
        return float(Levenshtein.normalized_similarity(x, y))
    if method == "ratio":
        return fuzz.ratio(x, y) / 100.0
    raise ValueError(f"similarity: unknown method {method!r} (use 'levenshtein' or 'ratio')")


def _code_cells(value: Any, name: str) -> list[str]:
    nb = view_notebook(value, name=name)
    return [source_of(c) for c in nb["cells"] if c.get("cell_type") == "code"]


def _is_code(value: Any) -> bool:
    return isinstance(value, str) and not value.lstrip().startswith("{") and not value.endswith(
        ".ipynb"
    )


def similarity(a: Any, b: Any, *, per_cell: bool = False, ignore_comments: bool = False,
               ignore_blank: bool = True, method: Method = "levenshtein") -> float:
    """Edit similarity in [0, 1] of two notebooks' code, or of two pieces of code.

    ``method="levenshtein"``: ``1 - Levenshtein distance / max length`` (1.0 for two empty
    texts). ``method="ratio"``: rapidfuzz ``fuzz.ratio / 100`` (Indel based), the figure
    MLEModernizer reports.

    Args:
        a, b: two notebooks (``NotebookNode``, dict, ``Path`` or a ``*.ipynb`` path string)
            or two code strings (a cell's source).
        per_cell: align code cells and average their similarities (a cell without a partner
            counts 0); otherwise compare all code cells joined by newlines.
        ignore_comments: drop comments first.
        ignore_blank: drop blank lines and trailing spaces first (default).
        method: ``"levenshtein"`` or ``"ratio"``.

    Raises:
        ValueError: unknown ``method``. NotebookError: a notebook argument is unreadable.

    Example:
        >>> similarity("x = 1", "x = 2")
        0.8
    """
    def prep(code: str) -> str:
        return strip_code(code, ignore_comments=ignore_comments, ignore_blank=ignore_blank)

    if _is_code(a) and _is_code(b):
        return _score(prep(a), prep(b), method)
    cells_a = [prep(c) for c in ([a] if _is_code(a) else _code_cells(a, "first notebook"))]
    cells_b = [prep(c) for c in ([b] if _is_code(b) else _code_cells(b, "second notebook"))]
    if not per_cell:
        return _score("\n".join(cells_a), "\n".join(cells_b), method)
    as_cells = [{"cell_type": "code", "source": c} for c in cells_a]
    bs_cells = [{"cell_type": "code", "source": c} for c in cells_b]
    pairs = align(as_cells, bs_cells)
    total = len(cells_a) + len(cells_b) - len(pairs)
    if total == 0:
        return 1.0
    return sum(_score(cells_a[i], cells_b[j], method) for i, j in pairs) / total

