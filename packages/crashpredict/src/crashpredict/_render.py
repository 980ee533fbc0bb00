"""Text renderings of verdicts and notebook results (the CLI's and the extension's)."""

from __future__ import annotations

import json

from ._model import CheckResult, Verdict, WalkResult

__all__ = ["verdict_text", "warning_text", "check_text", "walk_text", "as_json"]


def verdict_text(verdict: Verdict, *, evidence: bool = True) -> str:
    """A few lines: the verdict, its diagnosis and the evidence."""
    if not verdict.crash:
        head = "no crash predicted" if verdict.crash is False else "could not predict"
        lines = [f"{head} (confidence {verdict.confidence:.2f}, engine {verdict.engine})"]
        if verdict.crash is None and verdict.explanation:
            lines.append(f"  {verdict.explanation}")
        return "\n".join(lines)
    where = f"line {verdict.line}" if verdict.line else "the cell"
    lines = [
        f"crash predicted at {where}: {verdict.exception} "
        f"(confidence {verdict.confidence:.2f}, engine {verdict.engine})",
        f"  {verdict.explanation}",
        f"  crash type: {verdict.crash_type}; library: {verdict.library}",
    ]
    if evidence:
        lines += [f"  evidence: {e}" for e in verdict.evidence if not e.startswith("rule")]
    return "\n".join(lines)


def warning_text(verdict: Verdict) -> str:
    """The extension's short warning (two lines)."""
    where = f" at line {verdict.line}" if verdict.line else ""
    return (f"crashpredict: this cell will likely raise {verdict.exception}{where}\n"
            f"  {verdict.explanation}")


def check_text(result: CheckResult) -> str:
    """The `crashpredict check` text report."""
    code = [ln for ln in result.target_source.splitlines() if ln.strip() and not
            ln.lstrip().startswith("#")]
    first = code[0] if code else ""
    head = (f"{result.path}: cell {result.target_index}"
            f"{f' (id {result.target_id})' if result.target_id else ''}, "
            f"after replaying {len(result.replayed)} cell(s)")
    return "\n".join([head, f"  > {first[:100]}", verdict_text(result.verdict)])


def walk_text(result: WalkResult) -> str:
    """The `crashpredict walk` table: predicted against actual per cell."""
    lines = [f"{result.path}: predicted vs actual", "cell  predicted            actual"]
    agree = 0
    for s in result.steps:
        pred = f"crash {s.verdict.exception}" if s.verdict.crash else "ok"
        act = "ok" if s.actual.ok else f"crash {s.actual.ename}"
        agree += s.agrees
        mark = "" if s.agrees else "   <- differs"
        lines.append(f"{s.index:>4}  {pred:<20} {act}{mark}")
    lines.append(f"agreement: {agree}/{len(result.steps)}")
    return "\n".join(lines)


def as_json(result: CheckResult | WalkResult) -> str:
    """The JSON form of a notebook result."""
    return json.dumps(result.to_dict(), indent=2, sort_keys=True)
