"""Prompt assembly in CRANE-LLM's style: a pure function from code and facts to messages.

The user message holds the executed cells in execution order (comments and blank lines
removed, as CRANE does; outputs are never included), the runtime block, optionally the
rule engine's findings, the target cell with its line numbers (so the model's ``line``
refers to the cell as written), and the instruction asking for one JSON object.
"""

from __future__ import annotations

import io
import tokenize
from collections.abc import Sequence

from crashpredict._model import CRASH_TYPES, LIBRARIES

__all__ = ["SYSTEM_PROMPT", "build_messages", "strip_comments"]

SYSTEM_PROMPT = (
    "You are an expert Python engineer who reviews Jupyter notebooks for data science and "
    "machine learning. You predict whether running the next cell of a notebook will raise an "
    "exception, from the cells already executed and facts about the live objects in the "
    "kernel. You answer with one JSON object."
)

_FIELDS = (
    ("reasoning", "string: think step by step about what the target cell does with the "
                  "objects it uses, before deciding"),
    ("detection", "boolean: true when running the target cell raises an exception"),
    ("exception", "string: the exception class, e.g. \"KeyError\" (null when detection is false)"),
    ("line", "integer: the line of the target cell that raises, as numbered above "
             "(null when detection is false)"),
    ("crash_type", "string: one of " + ", ".join(f'"{t}"' for t in CRASH_TYPES)
                   + " (null when detection is false)"),
    ("library", "string: the library whose call fails, one of "
                + ", ".join(f'"{lib}"' for lib in LIBRARIES) + " (null when detection is false)"),
    ("explanation", "string: one sentence saying why it crashes, naming the values involved "
                    "(empty when detection is false)"),
)


def _comment_spans(source: str) -> dict[int, int] | None:
    """Map line number -> column where a comment starts, or None when tokenizing fails."""
    spans: dict[int, int] = {}
    if "#" not in source:  # no comment possible: skip the tokenizer (most cells)
        return spans
    try:
        for token in tokenize.generate_tokens(io.StringIO(source).readline):
            if token.type == tokenize.COMMENT:
                spans[token.start[0]] = token.start[1]
    except (tokenize.TokenError, SyntaxError):
        return None
    return spans


def _stripped_lines(source: str) -> list[tuple[int, str]]:
    """Return (1-based line number, text) for the non-blank lines once comments are removed.

    Comments are found with the tokenizer, so a ``#`` inside a string stays; a cell that
    does not tokenize (an IPython escape such as ``!pip``, a syntax error) only loses its
    whole-line comments.
    """
    spans = _comment_spans(source)
    kept: list[tuple[int, str]] = []
    for number, line in enumerate(source.splitlines(), start=1):
        if spans is None:
            text = "" if line.lstrip().startswith("#") else line
        else:
            text = line[:spans[number]] if number in spans else line
        text = text.rstrip()
        if text.strip():
            kept.append((number, text))
    return kept


def strip_comments(source: str) -> str:
    """Return ``source`` without comments and blank lines (CRANE's code normalisation)."""
    return "\n".join(text for _, text in _stripped_lines(source))


def _numbered(source: str) -> str:
    lines = _stripped_lines(source)
    if not lines:
        return "(empty cell)"
    width = len(str(lines[-1][0]))
    return "\n".join(f"{number:>{width}} | {text}" for number, text in lines)


def _executed_block(executed_sources: Sequence[str]) -> str:
    parts = []
    for index, source in enumerate(executed_sources, start=1):
        code = strip_comments(source)
        if code:
            parts.append(f"# [executed cell {index}]\n{code}")
    return "\n\n".join(parts) if parts else "(none: the target is the first cell to run)"


def build_messages(target_source: str, executed_sources: Sequence[str], *,
                   runtime: str | None = None,
                   rule_findings: Sequence[str] | None = None) -> tuple[dict[str, str], ...]:
    """Assemble the system and user messages for one target cell.

    Args:
        target_source: the cell whose crash is predicted.
        executed_sources: the cells the kernel ran before it, in execution order.
        runtime: the rendered runtime block; None leaves the section out (the code-only
            variant), "" says that no facts were collected.
        rule_findings: the rule engine's findings; None leaves the section out.

    Returns:
        ``({"role": "system", ...}, {"role": "user", ...})``; the same inputs always give
        the same messages (the cache key depends on it).
    """
    sections = [
        "Below are the code cells a Jupyter notebook has executed, in execution order "
        "(comments removed), then the next cell to run: the target cell. Predict whether "
        "running the target cell will raise an exception.",
        "### Executed cells\n" + _executed_block(executed_sources),
    ]
    if runtime is not None:
        sections.append(
            "### Runtime information\nFacts about the objects the target cell uses, read from "
            "the live kernel before it runs (S = structure, R = representation and types, "
            "V = values):\n"
            + (runtime.strip() or "(no facts collected)")
        )
    if rule_findings is not None:
        findings = "\n".join(f"- {f}" for f in rule_findings) or "- (no rule fired)"
        sections.append("### Findings of a static rule checker (may be incomplete)\n" + findings)
    sections.append("### Target cell (line numbers on the left)\n" + _numbered(target_source))
    fields = "\n".join(f'- "{name}": {desc}' for name, desc in _FIELDS)
    sections.append(
        "### Answer\nAnswer with one JSON object and nothing else, with these keys:\n" + fields
    )
    return (
        {"role": "system", "content": SYSTEM_PROMPT},
        {"role": "user", "content": "\n\n".join(sections) + "\n"},
    )
