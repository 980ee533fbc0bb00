"""A dry run's verdict, alone and merged with the rule engine's.

`dryrun_verdict` turns a `DryRun` into a `Verdict` (engine "dryrun"); `combine_with_rules`
merges it with the rule engine's verdict. A crash seen is certain; a clean run weighs
less on shrunk data, and never clears a crash that may sit in the rows it did not see
(`SHRUNK_CAN_CLEAR`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from .._model import Verdict, crash_type_of
from ._fork import DEFAULT_BUDGET_S, RETRY_ROWS, DryRun, dry_run
from ._kinds import SHRUNK_CAN_CLEAR, fills_from_neighbours, shrinking_cannot_cause, takes_a_part

__all__ = [
    "CLEAN_OVERRIDES_BELOW", "CLEAN_SHRUNK_OVERRIDES_BELOW", "SHRUNK_CAN_CLEAR",
    "SHRUNK_CLEAN_CONFIDENCE", "combine_with_rules", "shrinking_cannot_cause", "dryrun_engine", "dryrun_verdict",
]

#: A clean dry run overrides a rule crash verdict whose confidence is below this...
CLEAN_OVERRIDES_BELOW = 0.9
#: ...or below this when the dry run ran on shrunk data (a weaker witness), and only for
#: crash kinds that do not depend on the rows (`SHRUNK_CAN_CLEAR`).
CLEAN_SHRUNK_OVERRIDES_BELOW = 0.6
#: Crash kinds about the values of rows: on a cut, of the rows kept for their values too.
_OF_VALUES = frozenset({"value error", "data value violation"})
#: Confidence of "no crash" from a run on shrunk data: low, since the rows past the head
#: (a NaN, an unseen label, a length mismatch) were never seen.
SHRUNK_CLEAN_CONFIDENCE = 0.6
def dryrun_verdict(result: DryRun, cell_source: str = "") -> Verdict:
    """Turn a dry run into a `Verdict` (engine "dryrun").

    A crash is certain (confidence 1.0; 0.9 on shrunk data), a clean run is 0.95 (0.8 on
    shrunk data) for "no crash", and an inconclusive run is ``crash=None`` with the reason.
    """
    shrunk = f" on data cut to its first rows ({', '.join(result.shrunk_names)})" \
        if result.shrunk else ""
    if result.fast_forwarded and result.cuts:
        shrunk += f"{' and' if shrunk else ''} with its loops cut short"
    extra = _evidence_of(result)
    crash_type = crash_type_of(result.exception, result.message, result.library)
    if result.outcome == "crashed" and result.cut_before_crash and not (
            result.last_iteration or result.kept_iteration or result.swept_iteration or
            result.shapes_kept or result.stacks_kept or result.items_kept or
            result.grads_kept or result.keys_kept or result.key_types_kept or
            result.duplicates_kept or
            result.inputs_kept or
            result.rejoined) and (
            result.cut_may_cause or not result.cut_only_library
            and not shrinking_cannot_cause(crash_type, result.message)):
        why = "reads what a loop that was cut short makes" if result.cut_may_cause else \
            "is of a kind the cut itself can cause"
        cut = "a loop was cut short"
        if result.cut_only_library:
            cut = "a fit was cut to fewer epochs, trees or rounds"
            why = "reads what counts them (or asserts, or misses a checkpoint)"
        return Verdict(crash=None, confidence=0.0,
                       explanation=f"dry run inconclusive: {result.exception} ({crash_type}) "
                                   f"was raised after {cut}, and the failing statement {why}",
                       evidence=(f"fast-forwarded dry run raised {result.exception}: "
                                 f"{result.message[:300]}", *extra), engine="dryrun")
    if result.outcome == "crashed" and result.shrunk and (
            not shrinking_cannot_cause(crash_type, result.message)
            or fills_from_neighbours(cell_source, result.line, result.message)):
        return Verdict(crash=None, confidence=0.0,
                       explanation=f"dry run inconclusive: {result.exception} ({crash_type}) "
                                   f"was raised only on data cut to its first rows, which can "
                                   f"itself cause an error of that kind",
                       evidence=(f"dry run on shrunk data raised {result.exception}: "
                                 f"{result.message[:300]}", *extra), engine="dryrun")
    if result.outcome == "crashed" and result.shrunk and crash_type in _OF_VALUES and \
            takes_a_part(cell_source, result.shrunk_names, RETRY_ROWS):
        return Verdict(crash=None, confidence=0.0,
                       explanation=f"dry run inconclusive: {result.exception} ({crash_type}) "
                                   f"was raised on data cut to its first rows (and rows "
                                   f"kept for their values), and the cell takes rows by "
                                   f"position or at random: those rows of the whole data "
                                   f"may hold no such value",
                       evidence=(f"dry run on shrunk data raised {result.exception}: "
                                 f"{result.message[:300]}", *extra), engine="dryrun")
    if result.outcome == "crashed":
        lines = cell_source.splitlines()
        quoted = lines[result.line - 1].strip() if result.line and result.line <= len(lines) else ""
        evidence = (f"dry run raised {result.exception} at line {result.line}: {quoted}",) \
            if quoted else ()
        weaker = result.shrunk or result.cut_before_crash
        if result.found_by_rules:
            return Verdict(
                crash=True, confidence=result.rules_confidence or 0.9,
                exception=result.exception, line=result.line,
                library=result.library, crash_type=crash_type,
                explanation=f"{result.message} (found by the rules, trying it on the live "
                            f"values in a dry run)",
                evidence=evidence, engine="rules+dryrun")
        return Verdict(
            crash=True, confidence=0.9 if weaker else 1.0, exception=result.exception,
            line=result.line, library=result.library,
            crash_type=crash_type,
            explanation=f"{result.message} (raised in a dry run{shrunk})",
            evidence=evidence + result.traceback + extra, engine="dryrun")
    if result.outcome == "completed":
        caveat = ("; a crash that needs the rows past the head (a NaN, an unseen label, a "
                  "length mismatch) is not ruled out") if result.shrunk else ""
        if result.fast_forwarded and result.cuts:
            caveat += "; a crash that needs the iterations that were cut is not ruled out"
        return Verdict(crash=False,
                       confidence=SHRUNK_CLEAN_CONFIDENCE if _weak(result) else 0.95,
                       explanation=f"the cell ran to completion in a dry run{shrunk} "
                                   f"({result.elapsed_s:.2f} s){caveat}",
                       evidence=extra, engine="dryrun")
    evidence = ((f"blocked: {result.blocked}",) if result.blocked else ()) + extra
    return Verdict(crash=None, confidence=0.0, explanation=f"dry run inconclusive: {result.reason}",
                   evidence=evidence, engine="dryrun")


def _weak(result: DryRun) -> bool:
    """A clean run that saw only part of the data or of the iterations."""
    return result.shrunk or bool(result.fast_forwarded and result.cuts)


def _evidence_of(result: DryRun) -> tuple[str, ...]:
    lines = []
    if result.retry_reason and result.shrunk:
        lines.append(f"retried on the first rows of {', '.join(result.shrunk_names)}: the run "
                     f"on full data stopped ({result.retry_reason})")
    elif result.retry_reason and result.fast_forwarded:
        lines.append(f"retried fast-forwarded: the full run stopped ({result.retry_reason})")
    lines += [f"cut short: {c}" for c in result.cuts]
    if result.last_iteration and result.outcome == "crashed":
        lines.append("raised in the last iteration of a loop cut short (run after the cut: an "
                     "index one past the end, a last batch smaller than the others), in a "
                     "statement that reads nothing the cut changed")
    if result.kept_iteration and result.outcome == "crashed":
        lines.append("raised in an iteration that the cut loop's current run kept (its "
                     "earlier runs were cut), on that iteration's own values")
    if result.swept_iteration and result.outcome == "crashed":
        lines.append("raised in an iteration that the cut loop skipped, run after the rest of "
                     "the cell (the skipped ones newest first), on that iteration's own values")
    if result.rejoined and result.outcome == "crashed":
        lines.append("raised by the rest of the cell, run again once the skipped iterations "
                     "of its last loop cut short had run: a join of what the loop collected, "
                     "each from its own item, that fails on a value or a key wherever it "
                     "stands, or that a library's input checks refuse; the whole run's join "
                     "holds the same ones")
    if result.shapes_kept and result.outcome == "crashed":
        lines.append("a shape error after a loop cut short, of arrays that loop only "
                     "updates in place: their shapes are the whole run's")
    if result.stacks_kept and result.outcome == "crashed":
        lines.append("arrays of shapes that do not fit together (or series with a label "
                     "twice, joined side by side), stacked after a loop cut short that "
                     "collected them, each from its own item: the whole run's list holds "
                     "the same ones")
    if result.items_kept and result.outcome == "crashed":
        lines.append("raised after a loop cut short by one of the first items of a list it "
                     "appended to, before its first cut (the whole run's own first items): "
                     "given those alone, the failing call fails alike")
    if result.duplicates_kept and result.outcome == "crashed":
        lines.append("a reshape that refuses a key twice, of the frames a loop cut short "
                     "collected, each from its own item: the whole run's frame holds the "
                     "same rows, those two among them")
    if result.keys_kept and result.outcome == "crashed":
        lines.append("a merge that refuses the keys of a dataset, after a loop cut short "
                     "that does not make that dataset: its keys are checked whatever the "
                     "other holds")
    if result.key_types_kept and result.outcome == "crashed":
        lines.append("a merge of keys of one type with keys of another, after a loop cut "
                     "short that collected one record per group of a groupby, keyed by the "
                     "group's key: the whole run's keys are of the same type")
    if result.inputs_kept and result.outcome == "crashed":
        lines.append("raised after a loop cut short by a statement that reads nothing the "
                     "loop binds, changes or hands on (nor what shares memory with it, or is "
                     "made from it), and draws no random numbers: its values are the whole "
                     "run's")
    if result.grads_kept and result.outcome == "crashed":
        lines.append("tensors that require grad, collected by a loop cut short and given "
                     "after it to what takes none: made by the same layers, under the same "
                     "grad mode, the whole run's do too")
    lines += [f"would have: {w}" for w in result.writes]
    return tuple(lines)


def dryrun_engine(cell_source: str, namespace: Mapping[str, Any], *,
                  budget_s: float = DEFAULT_BUDGET_S, shrink: int | None = None) -> Verdict:
    """The ``dryrun`` engine for the registry: `dry_run` then `dryrun_verdict`."""
    return dryrun_verdict(dry_run(cell_source, namespace, budget_s=budget_s, shrink=shrink),
                          cell_source)


def combine_with_rules(rule_verdict: Verdict, dry: DryRun, cell_source: str = "") -> Verdict:
    """Merge the rule engine's verdict with a dry run of ``cell_source`` (the cell, which the
    dry run's verdict reads: a crash on shrunk data where the cell takes rows by position or
    fills them from their neighbours proves nothing).

    - The dry run crashed: its verdict wins (a seen crash is certain); engine is
      "rules+dryrun" when the rules predicted the same exception (their explanation, which
      names the values, is kept, the library's message joins the evidence), else "dryrun".
    - It completed cleanly: a rule crash verdict below `CLEAN_OVERRIDES_BELOW`
      (`CLEAN_SHRUNK_OVERRIDES_BELOW` on shrunk data) is overridden (engine "dryrun");
      one at or above stays (engine "rules"); a rule "no crash" is confirmed
      (engine "rules+dryrun").
    - It was inconclusive: the rule verdict stands, with the reason added to its evidence.
    """
    dry_verdict = dryrun_verdict(dry, cell_source)
    note = f"dry run: {dry_verdict.explanation}"
    if dry.outcome == "crashed" and dry_verdict.crash:  # a crash on shrunk data may not count
        agree = rule_verdict.crash is True and rule_verdict.exception == dry.exception
        if not agree:
            return dry_verdict
        crash_type = dry_verdict.crash_type
        if crash_type in (None, "unknown", "type error", "value error"):
            crash_type = rule_verdict.crash_type or crash_type
        # the rules' explanation names the user's values ("unseen at fit time: ['region']");
        # the library's own message goes to the evidence, where it confirms it
        return dataclasses.replace(
            dry_verdict, library=dry_verdict.library or rule_verdict.library,
            crash_type=crash_type, engine="rules+dryrun",
            explanation=f"{rule_verdict.explanation} (confirmed by a dry run)",
            evidence=(note, *dry_verdict.evidence, *rule_verdict.evidence))
    if dry.outcome == "completed":
        if rule_verdict.crash is False:
            return dataclasses.replace(
                rule_verdict, confidence=max(rule_verdict.confidence, dry_verdict.confidence),
                engine="rules+dryrun", evidence=rule_verdict.evidence + (note,))
        threshold = CLEAN_SHRUNK_OVERRIDES_BELOW if _weak(dry) else CLEAN_OVERRIDES_BELOW
        if _weak(dry) and rule_verdict.crash is True and \
                (rule_verdict.crash_type or "unknown") not in SHRUNK_CAN_CLEAR:
            threshold = 0.0  # the crash may sit in rows the shrunk run never saw
        if rule_verdict.crash is True and rule_verdict.confidence >= threshold:
            return dataclasses.replace(rule_verdict, engine="rules",
                                       evidence=rule_verdict.evidence + (note,))
        overridden = (f"overrode rules: {rule_verdict.summary}",) if rule_verdict.crash else ()
        return dataclasses.replace(dry_verdict, evidence=dry_verdict.evidence + overridden)
    return dataclasses.replace(rule_verdict, evidence=rule_verdict.evidence + (note,))
