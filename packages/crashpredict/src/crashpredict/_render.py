"""Text renderings of verdicts and notebook results (the CLI's and the extension's)."""

from __future__ import annotations

import json
import re

from ._model import CheckResult, Verdict, WalkResult, cell_label

__all__ = ["verdict_text", "warning_text", "warning_html", "check_text", "walk_text", "as_json",
           "cell_name", "dry_run_notes"]


def verdict_text(verdict: Verdict, *, evidence: bool = True) -> str:
    """A few lines: the verdict, its diagnosis and the evidence.

    What the dry run saw is always named (a segfault, a hang, ``os._exit``, a blocked side
    effect), even when the verdict stands on the rules alone.
    """
    if not verdict.crash:
        head = "no crash predicted" if verdict.crash is False else "could not predict"
        lines = [f"{head} (confidence {verdict.confidence:.2f}, engine {verdict.engine})"]
        if verdict.explanation and (verdict.crash is None or verdict.engine != "rules"):
            lines.append(f"  {verdict.explanation}")
        lines += [f"  {e}" for e in dry_run_notes(verdict)
                  if e.removeprefix("dry run: ") not in verdict.explanation]
        return "\n".join(lines)
    where = f"line {verdict.line}" if verdict.line else "the cell"
    explanation = " ".join(verdict.explanation.split())  # a library's message may span lines
    lines = [
        f"crash predicted at {where}: {verdict.exception} "
        f"(confidence {verdict.confidence:.2f}, engine {verdict.engine})",
        f"  {explanation}",
        f"  crash type: {crash_type_words(verdict.crash_type, verdict.library)}; "
        f"library: {verdict.library}",
    ]
    if evidence:
        facts = [e for e in verdict.evidence if not e.startswith("rule") and not _is_dry_note(e)]
        frames = [e for e in facts if _FRAME.match(e)]
        lines += [f"  evidence: {e}" for e in facts if not _FRAME.match(e)]
        if frames:
            shown = frames if len(frames) <= 4 else [frames[0], "...", *frames[-2:]]
            lines.append(f"  traceback (dry run): {' > '.join(shown)}")
    lines += [f"  {e}" for e in dry_run_notes(verdict)]
    return "\n".join(lines)


# a frame of the dry run's short traceback: "<cell>:2", "sklearn.utils.validation:3016 in f"
_FRAME = re.compile(r"^[\w.<>-]+:\d+( in [\w<>.]+)?$")


#: the libraries whose arrays are tensors; JunoBench files every shape crash under
#: "tensor shape mismatch", scikit-learn's and NumPy's too
_TENSOR_LIBRARIES = ("torch", "tensorflow", "keras", "jax")


def crash_type_words(crash_type: str | None, library: str | None) -> str | None:
    """The crash type as the text shows it: JunoBench's "tensor shape mismatch" is an
    "array shape mismatch" for a library without tensors (scikit-learn, NumPy, pandas);
    the verdict (and its JSON) keeps JunoBench's label, which benchmarks score.

    Example:
        >>> crash_type_words("tensor shape mismatch", "sklearn")
        'array shape mismatch'
    """
    if crash_type == "tensor shape mismatch" and (library or "").lower() not in _TENSOR_LIBRARIES:
        return "array shape mismatch"
    return crash_type


def _is_dry_note(text: str) -> bool:
    return text.startswith(("dry run:", "blocked:"))


def dry_run_notes(verdict: Verdict) -> list[str]:
    """The dry run's own notes in a verdict's evidence (why it was inconclusive, what it
    blocked), one short line each."""
    return [_short(e) for e in verdict.evidence if _is_dry_note(e)]


def _short(text: str, limit: int = 300) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def warning_text(verdict: Verdict) -> str:
    """The extension's short warning (two lines)."""
    where = f" at line {verdict.line}" if verdict.line else ""
    return (f"crashpredict: this cell will likely raise {verdict.exception}{where}\n"
            f"  {verdict.explanation}")


def warning_html(verdict: Verdict) -> str:
    """The extension's warning as a small HTML block (shown above the cell's own output)."""
    from html import escape
    where = f" at line {verdict.line}" if verdict.line else ""
    return ('<div class="crashpredict-warning" style="border-left:4px solid #d97706;'
            'background:#fff4e0;color:#3d2a00;padding:4px 10px;margin:2px 0;'
            'font-family:var(--jp-ui-font-family,sans-serif);font-size:13px">'
            f'<b>crashpredict</b>: this cell will likely raise '
            f'<code>{escape(verdict.exception or "an exception")}</code>{escape(where)}'
            f'<br>{escape(verdict.explanation)}</div>')


def cell_name(index: int, cell_id: str | None, execution_count: int | None = None) -> str:
    """``cell 4 [2] (id 4fd7e1d7)``: the 1-based position counting every cell, the
    execution count JupyterLab shows (when the cell ran), and the id."""
    return cell_label(index + 1, execution_count, cell_id)


def check_text(result: CheckResult) -> str:
    """The `crashpredict check` text report."""
    quoted = quoted_line(result.target_source, result.verdict.line if result.verdict.crash
                         else None)
    failed = result.replay_failures
    lines = [f"{result.path}: "
             f"{cell_name(result.target_index, result.target_id, result.target_execution_count)}, "
             f"after replaying {len(result.replayed)} cell(s)"
             + (f", {len(failed)} of which failed" if failed else "")]
    if result.plan_note:
        lines.append(f"  ({result.plan_note})")
    if result.workdir:
        lines.append(f"  replayed {result.workdir if result.workdir.startswith('in place') else 'in ' + result.workdir}")
    for f in failed:
        unbound = (f"; left unbound: {', '.join(f.unbound)}" if f.unbound else "")
        lines.append(f"  replay: {_short(f.summary, 200)}{unbound} (the replay went on)")
        lines += [f"    {text}" for text in (f.note, f.repair) if text]
    if result.limits:
        lines.append(f"  limits: {result.limits}")
    lines.append(f"  > {quoted}")
    lines.append(verdict_text(result.verdict))
    if result.repair:
        lines.append(f"  repair: {result.repair}")
    return "\n".join(lines)


def quoted_line(source: str, line: int | None) -> str:
    """The line a report quotes: the crashing ``line`` (``line 3: y = df.append(df)``) when
    known, else the cell's first line of code (comments and blank lines skipped)."""
    lines = source.splitlines()
    if line is not None and 1 <= line <= len(lines) and lines[line - 1].strip():
        return f"line {line}: {lines[line - 1].strip()[:100]}"
    code = [ln for ln in lines if ln.strip() and not ln.lstrip().startswith("#")]
    return code[0][:100] if code else ""


def walk_text(result: WalkResult) -> str:
    """The `crashpredict walk` table: predicted against actual per cell.

    ``cell`` is the position counting every cell from 1 and ``[n]`` the execution count
    JupyterLab shows; a cell whose dry run was blocked reads "not checked", never "ok",
    and is left out of the agreement.
    """
    lines = [f"{result.path}: predicted vs actual"]
    if result.plan_note:
        lines.append(f"  ({result.plan_note})")
    if result.workdir:
        lines.append(f"  ran {result.workdir if result.workdir.startswith('in place') else 'in ' + result.workdir}")
    lines.append("cell [n]    predicted            actual")
    notes = []
    for s in result.steps:
        name = cell_name(s.index, s.cell_id, s.execution_count)
        if s.verdict.crash:
            pred = f"crash {s.verdict.exception}"
        elif s.verdict.crash is None:
            pred = "not checked"
            notes.append(f"  {name}: {s.verdict.explanation or 'no prediction'}")
        elif any("inconclusive" in n for n in dry_run_notes(s.verdict)):
            pred = "ok (rules only)"  # the dry run did not answer; its reason is noted below
        else:
            pred = "ok"
        act = "ok" if s.actual.ok else f"crash {s.actual.ename}"
        mark = "" if s.agrees or not s.checked else "   <- differs"
        count = f"[{s.execution_count}]" if s.execution_count is not None else ""
        lines.append(f"{s.index + 1:>4} {count:<6} {pred:<20} {act}{mark}")
        if s.checked:
            notes += [f"  {name}: {n}" for n in dry_run_notes(s.verdict) if "inconclusive" in n]
        notes += [f"  {name}: {text}" for text in (s.note, s.repair) if text]
    checked = [s for s in result.steps if s.checked]
    unchecked = len(result.steps) - len(checked)
    tail = f" ({unchecked} not checked)" if unchecked else ""
    lines.append(f"agreement: {sum(s.agrees for s in checked)}/{len(checked)} checked cells{tail}")
    return "\n".join(lines + notes)


def as_json(result: CheckResult | WalkResult) -> str:
    """The JSON form of a notebook result."""
    return json.dumps(result.to_dict(), indent=2, sort_keys=True)
