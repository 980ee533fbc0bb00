"""The modernization loop for one notebook: run, classify, repair, repeat.

Each round runs the current notebook in a fresh kernel under the whole-notebook limit,
classifies the outcome and, unless it is reproduced or the round limit is reached, repairs
it: the codemod catalog first, the LLM (with the prompt for the problem class) when no
codemod applies. The input notebook is only read; everything goes below ``out_dir``.

When the old notebook saved its outputs, they are the specification (``_saved``): a run
that ends cleanly but prints other values than the old notebook saved is a score
deviation, named by its cell and the two values, and repaired from the knowledge base of
changed defaults (``_defaults``); a candidate repair of an error is kept only when the
notebook gets past the failing cell printing what that cell saved.
"""

from __future__ import annotations

import copy
import dataclasses
import os
import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import nbpatch
from nbformat import NotebookNode

from benchkit.errors import BenchkitError, CaseError

from ._classify import cell_label, classify
from ._codemods import CODEMODS
from ._defaults import entries_in, for_frames, label, spell_out, unfaithful_calls
from ._model import (Classification, CodemodApplied, ModernizeResult, ModernizeSettings,
                     NotebookRun, Round)
from ._repair import codemod_notebook, llm_repair
from ._resolve import Candidate, candidates as resolver_candidates
from ._runner import KernelStartError, run_notebook
from ._saved import Deviation, SavedOutputs, deviations, saved_outputs, unsteady_cells, without
from ._trajectory import Trajectory, copy_inputs

__all__ = ["modernize"]

Progress = Callable[[str], None]


def _read(path: Path) -> NotebookNode:
    if not path.exists() and not path.is_symlink():  # a FIFO or a device: nbpatch refuses it
        raise CaseError(f"{path}: no such notebook")
    try:
        nb = nbpatch.read_notebook(path)
    except nbpatch.NotebookError as exc:
        raise CaseError(str(exc)) from None
    for k, cell in enumerate(nb.cells):
        cell_id = cell.get("id")
        if cell_id is not None and not isinstance(cell_id, str):
            raise CaseError(f"{path}: {cell_label(k)} has an id that is not a string "
                            f"({type(cell_id).__name__}); the notebook cannot be written back")
    return nb


def _check_settings(settings: ModernizeSettings) -> None:
    if settings.max_iter < 1:
        raise BenchkitError(f"--max-iter must be at least 1, not {settings.max_iter}")
    if settings.timeout <= 0:
        raise BenchkitError(f"--timeout must be positive, not {settings.timeout:g}")
    if settings.total_timeout is not None and settings.total_timeout <= 0:
        raise BenchkitError(f"--total-timeout must be positive, not {settings.total_timeout:g}")
    if settings.tolerance < 0:
        raise BenchkitError(f"--tolerance must be >= 0, not {settings.tolerance:g}")
    if settings.output_tolerance < 0:
        raise BenchkitError(f"--output-tolerance must be >= 0, not {settings.output_tolerance:g}")
    if settings.target_score is not None and not settings.score:
        raise BenchkitError("--target-score needs --score EXPR (what to evaluate in the kernel)")


def _client(settings: ModernizeSettings, client: Any) -> Any:
    if client is not None or settings.llm is None:
        return client
    from crashpredict.llm import ChatClient

    return ChatClient(settings.llm)


def _repair(nb: NotebookNode, cls: Classification, run: NotebookRun, settings: ModernizeSettings,
            client: Any, traj: Trajectory, number: int,
            resolve: Callable[[NotebookNode, Classification], Any] | None = None,
            keeps: Callable[[Classification, NotebookNode], bool] | None = None
            ) -> tuple[NotebookNode | None, dict[str, Any]]:
    """The next notebook (``None``: nothing left to try) and the Round fields of the repair:
    the codemods and the drift knowledge base, then the error's resolvers or, for a
    deviation from the saved outputs, the changed defaults (each candidate verified by a
    run), then the LLM. ``keeps`` may refuse the codemods' notebook (it prints other values
    than the old notebook saved)."""
    if settings.codemods:
        rules = None if settings.knowledge_base else list(CODEMODS)
        patch, new, applied = codemod_notebook(nb, cls, rules=rules)
        if patch is not None and (keeps is None or keeps(cls, new)):
            return new, {"repair": "codemod", "codemods": applied,
                         "patch_file": traj.patch(number, patch)}
    if resolve is not None:
        found = resolve(nb, cls)
        if found is not None:
            new, label = found
            patch = nbpatch.diff(nb, new)
            return new, {"repair": "resolver",
                         "codemods": (CodemodApplied(rule=f"resolve: {label}", cell=cls.cell),),
                         "patch_file": traj.patch(number, patch)}
    if client is None:
        return None, {}
    prices = getattr(settings.llm, "prices", None) or getattr(client.settings, "prices", None)
    outcome = llm_repair(nb, cls, run, client, prices, timeout=settings.timeout,
                         tolerance=settings.tolerance, retries=settings.reply_retries)
    if outcome.transcript:
        traj.transcript(number, outcome.transcript)
    fields: dict[str, Any] = {
        "prompt_kind": cls.kind, "llm_attempts": outcome.attempts, "llm_error": outcome.error,
        "prompt_tokens": outcome.prompt_tokens, "completion_tokens": outcome.completion_tokens,
        "cost_usd": outcome.cost_usd}
    if outcome.patch is None:
        return None, fields
    return outcome.notebook, {**fields, "repair": "llm",
                              "patch_file": traj.patch(number, outcome.patch)}


def _prefix(original: NotebookNode, final: NotebookNode, stop: int | None
            ) -> tuple[NotebookNode, NotebookNode] | None:
    """The parts of both notebooks that the original ran through (``stop``: first failing)."""
    if stop is None:
        return original, final
    if not any(c.get("cell_type") == "code" for c in original.cells[:stop]):
        return None
    a = copy.deepcopy(original)
    a.cells = a.cells[:stop]
    stop_id = original.cells[stop].get("id")
    ids = [c.get("id") for c in final.cells]
    end = ids.index(stop_id) if stop_id and stop_id in ids else stop
    b = copy.deepcopy(final)
    b.cells = b.cells[:end]
    return a, b


def _equivalence(original: NotebookNode, final: NotebookNode, first: NotebookRun,
                 settings: ModernizeSettings, cwd: Path) -> tuple[str, tuple[str, ...]]:
    if not settings.check_equivalence:
        return "not-compared", ()
    failed = first.failed
    parts = _prefix(original, final, failed.index if failed else None)
    if parts is None:
        return "not-compared", ("the original fails in its first code cell",)
    score = settings.score if failed is None else None
    try:
        verdict = nbpatch.equivalent(parts[0], parts[1], score=score, tolerance=settings.tolerance,
                                     timeout=settings.timeout, cwd=cwd,
                                     kernel_name=settings.kernel_name)
    except nbpatch.NbpatchError as exc:
        return "not-compared", (str(exc),)
    notes = tuple(f"{d.kind}: {d.message}" + (f" ({d.cell_label})" if d.cell_label else "")
                  for d in verdict.differences)
    return ("equivalent" if verdict.equivalent else "different"), notes


def _source(cell: Any) -> str:
    source = cell.get("source", "")
    return "".join(source) if isinstance(source, list) else str(source)


def _sources(nb: NotebookNode) -> tuple[str, ...]:
    return tuple(_source(c) for c in nb.cells)


def _first_line(text: str | None) -> str:
    lines = (text or "").strip().splitlines()
    return lines[0] if lines else ""


def moves_past(cls: Classification, run: NotebookRun) -> bool:
    """True when ``run`` got past the cell where ``cls``'s error was raised: it ran
    through, or failed in a later cell. Another error in the same cell is not progress
    (a similarly named function that fails otherwise only moved the error)."""
    failed = run.failed
    if run.timed_out:
        return False
    if failed is None or cls.cell is None:
        return failed is None
    return failed.index > cls.cell


def same_cell_other_error(cls: Classification, run: NotebookRun) -> bool:
    """True when ``run`` fails in ``cls``'s cell with another error (a candidate that may
    be one half of a repair: a second drift on the same lines)."""
    failed = run.failed
    return (not run.timed_out and failed is not None and failed.index == cls.cell
            and failed.status == "error"
            and (failed.ename, _first_line(failed.evalue)) != (cls.ename, _first_line(cls.evalue)))


_ADDRESS = re.compile(r" at 0x[0-9a-fA-F]+")


def _outputs(cell: Any) -> list[str]:
    """A cell's outputs as text (streams, plain-text results, errors); pictures are left
    out, their bytes may differ from run to run."""
    out = []
    for o in cell.get("outputs", ()):
        kind = o.get("output_type")
        if kind == "stream":
            out.append(f"{o.get('name')}:{o.get('text', '')}")
        elif kind in ("execute_result", "display_data"):
            text = o.get("data", {}).get("text/plain")
            if text is not None and kind == "execute_result":
                out.append("".join(text) if isinstance(text, list) else str(text))
        elif kind == "error":
            out.append(f"error:{o.get('ename')}")
    return [_ADDRESS.sub(" at 0x…", t) for t in out]


def same_outputs_before(a: NotebookNode, b: NotebookNode, stop: int) -> bool:
    """True when the code cells before ``stop`` gave the same text outputs in both runs."""
    for x, y in zip(a.cells[:stop], b.cells[:stop]):
        if x.get("cell_type") == "code" and _outputs(x) != _outputs(y):
            return False
    return True


def _deviation_class(found: tuple[Deviation, ...], cls: Classification) -> Classification:
    """The round's class when a clean run prints other values than the old notebook saved."""
    first = found[0]
    more = f" (and {len(found) - 1} more cell(s))" if len(found) > 1 else ""
    return Classification(kind="score", cell=first.cell, execution_count=first.execution_count,
                          message=f"output deviation: {first.message}{more}",
                          score=cls.score, target=cls.target, expected=first.old,
                          actual=first.new, deviations=tuple(d.message for d in found))


MAX_DEFAULT_TRIES = 4   # old defaults spelled out for one error
MAX_CHAINED = 2         # candidates that moved the error within the cell, tried further
MAX_DEVIATIONS_TRIED = 3


def _groups(entries: list[Any]) -> list[list[Any]]:
    """Each entry alone, then all together (one alternative per callable and keyword:
    the first, then the second when there is one)."""
    groups = [[e] for e in entries]
    if len(entries) > 1:
        seen: dict[tuple[Any, ...], list[Any]] = {}
        for e in entries:
            seen.setdefault((e.callables, e.methods, e.keyword), []).append(e)
        for k in range(max(len(v) for v in seen.values())):
            groups.append([v[min(k, len(v) - 1)] for v in seen.values()])
    return groups


def _sum_cost(rounds: list[Round]) -> float:
    return sum(r.cost_usd or 0.0 for r in rounds)


@dataclass(slots=True, kw_only=True)
class _Loop:
    """The rounds of one notebook (a builder: ``rounds`` grows as they happen)."""

    path: Path
    settings: ModernizeSettings
    client: Any
    traj: Trajectory
    work: Path
    progress: Progress | None
    rounds: list[Round] = field(default_factory=list)
    # the run of a resolver's candidate that was kept: the next round reuses it
    verified: tuple[tuple[str, ...], NotebookRun, NotebookNode] | None = None
    executed: NotebookNode | None = None
    saved: SavedOutputs | None = None  # the old notebook's outputs (empty: none saved)
    # every deviation seen, by cell position and old value: its words
    found: dict[tuple[int, str], str] = field(default_factory=dict)
    last_deviations: tuple[Deviation, ...] = ()
    # candidate notebooks (all sources) already run and refused, so no round runs them again
    refused: set[tuple[str, ...]] = field(default_factory=set)
    current_run: NotebookRun | None = None
    current_nb: NotebookNode | None = None
    steadiness_checked: bool = False  # a deviating run was run again (see ``compare``)
    # repairs kept that may not do what the old code did, in words
    notes: list[str] = field(default_factory=list)

    def run(self, nb: NotebookNode) -> tuple[NotebookNode, NotebookNode, str]:
        """Round after round until a stop; returns (last notebook, its run, why it stopped)."""
        limit = self.settings.max_iter
        for number in range(1, limit + 1):
            round_, executed, next_nb = self.one(number, nb)
            kind = round_.classification.kind
            if kind == "reproduced":
                return nb, executed, "reproduced"
            if number == limit:
                return nb, executed, f"round limit ({limit}) reached"
            if next_nb is None:
                why = round_.llm_error or (
                    "no codemod applies and no LLM is configured" if self.client is None
                    else "no codemod applies and the LLM gave no usable patch")
                return nb, executed, f"no repair left: {why}"
            nb = next_nb
        raise AssertionError("unreachable: max_iter >= 1")

    def one(self, number: int, nb: NotebookNode
            ) -> tuple[Round, NotebookNode, NotebookNode | None]:
        """Run, classify, and (unless done) repair; the round is logged as it ends."""
        s = self.settings
        began = time.monotonic()
        if self.verified is not None and self.verified[0] == _sources(nb):
            run, executed = self.verified[1], self.verified[2]
        else:
            run, executed = self.execute(nb)
        self.verified, self.executed, self.current_run = None, executed, run
        self.current_nb = nb
        cls = self.compare(classify(run, s), run, executed, nb)
        nb_file = self.traj.notebook(number, executed)
        next_nb, fields = None, {}
        if cls.kind != "reproduced" and number < s.max_iter:
            resolve = None
            if s.resolvers and cls.kind == "error":
                resolve = self.resolve
            elif s.resolvers and cls.kind == "score" and cls.deviations:
                resolve = self.restore
            next_nb, fields = _repair(nb, cls, run, s, self.client, self.traj, number, resolve,
                                      self.keeps if self.saved else None)
        round_ = Round(number=number, classification=cls, run=run, notebook=nb_file,
                       elapsed_s=time.monotonic() - began, **fields)
        self.traj.add(round_)
        self.rounds.append(round_)
        if self.progress is not None:
            done = f" -> {round_.repair}" if round_.repair else ""
            kind = "runs" if cls.kind == "reproduced" else cls.kind  # as the tables word it
            self.progress(f"{self.path.name} round {number}: {kind} ({cls.message}){done}")
        return round_, executed, next_nb

    def compare(self, cls: Classification, run: NotebookRun, executed: NotebookNode,
                nb: NotebookNode) -> Classification:
        """``cls`` with the run's deviations from the saved outputs (the cells before an
        error); a clean run that deviates is a score deviation. The first time a run
        deviates, the notebook is run once more: cells that print other values from one
        run to the next are not compared any more."""
        if not self.saved:
            return cls
        failed = run.failed
        found = deviations(self.saved, executed, self.settings.output_tolerance,
                           stop=failed.index if failed is not None else None)
        if found and not self.steadiness_checked:
            self.steadiness_checked = True
            _again, second = self.execute(nb)
            unsteady = unsteady_cells(executed, second, self.settings.output_tolerance)
            if unsteady:
                self.saved = without(self.saved, nb, unsteady,
                                     "it prints other values from one run to the next")
                found = tuple(d for d in found if d.cell not in unsteady)
        self.last_deviations = found
        for d in found:
            self.found.setdefault((d.cell, d.old), d.message)
        if not found or cls.kind not in ("reproduced", "error"):
            return cls
        if cls.kind == "error":
            return dataclasses.replace(cls, deviations=tuple(d.message for d in found))
        return _deviation_class(found, cls)

    def deviating(self, executed: NotebookNode, run: NotebookRun, end: int) -> set[int] | None:
        """The cells up to ``end`` that print other values than they saved (``None``: the
        run failed at or before ``end``)."""
        failed = run.failed
        if run.timed_out or (failed is not None and failed.index <= end):
            return None
        if not self.saved:
            return set()
        found = deviations(self.saved, executed, self.settings.output_tolerance, stop=end + 1)
        return {d.cell for d in found}

    def newly_deviating(self, run: NotebookRun, executed: NotebookNode, upto: int,
                        changed: set[int]) -> list[Deviation]:
        """The cells a candidate answers for that print other values than they saved,
        where the round's run did not: every cell up to ``upto`` (the failing one), and
        a cell it ``changed`` after that when no cell before it deviates (else the value
        may come from a drift upstream, not from this change)."""
        if not self.saved:
            return []
        failed = run.failed
        found = deviations(self.saved, executed, self.settings.output_tolerance,
                           stop=failed.index if failed is not None else None)
        before = {d.cell for d in self.last_deviations}
        out = []
        for k, d in enumerate(found):
            if d.cell in before:
                continue
            if d.cell <= upto or (d.cell in changed and k == 0):
                out.append(d)
        return out

    def execute(self, nb: NotebookNode) -> tuple[NotebookRun, NotebookNode]:
        s = self.settings
        try:
            return run_notebook(nb, cwd=self.work, timeout=s.timeout,
                                total_timeout=s.total_timeout, score=s.score,
                                kernel_name=s.kernel_name, startup_timeout=s.startup_timeout)
        except KernelStartError as exc:
            raise BenchkitError(f"{self.path}: {exc}") from None

    def trial(self, nb: NotebookNode, changes: dict[int, str]
              ) -> tuple[NotebookNode, NotebookRun, NotebookNode] | None:
        """``nb`` with ``changes`` (cell -> source), run; ``None`` when that notebook was
        already run and refused."""
        new = copy.deepcopy(nb)
        for k, source in changes.items():
            new.cells[k]["source"] = source
        key = _sources(new)
        if key in self.refused:
            return None
        self.refused.add(key)
        run, executed = self.execute(new)
        return new, run, executed

    def progressed(self, cls: Classification, run: NotebookRun, executed: NotebookNode,
                   first: int, changed: set[int] | None = None) -> bool:
        """True when a candidate that changed cells from ``first`` on (``changed``) gets
        past the failing cell, the cells before ``first`` print what they printed, and no
        cell up to the failing one, nor one it changed, deviates from the saved outputs
        where it did not before."""
        if not moves_past(cls, run) or self.executed is None:
            return False
        if not same_outputs_before(self.executed, executed, first):
            return False
        upto = cls.cell if cls.cell is not None else -1
        return not self.newly_deviating(run, executed, upto, changed or set())

    def error_candidates(self, nb: NotebookNode, cls: Classification) -> list[Candidate]:
        """The resolvers' candidates for the error, then old defaults spelled out: first
        those of the functions the traceback went through, then those of the calls in the
        failing cell and the cells before it (nearest first)."""
        code = {i: _source(c) for i, c in enumerate(nb.cells) if c.get("cell_type") == "code"}
        found = list(resolver_candidates(code, cls))
        if cls.cell is None or cls.cell not in code:
            return found
        failed = next((c for c in self.rounds_run_cells() if c.index == cls.cell), None)
        frames = failed.frames if failed is not None else ()
        before = sorted((k for k in code if k <= cls.cell), reverse=True)
        ranked = [e for e in for_frames(frames)]
        ranked += [e for e, _cells in entries_in(code, before) if e not in ranked]
        for entry in ranked[:MAX_DEFAULT_TRIES]:
            # a method's receiver type is unknown: only its nearest call, where it failed
            # or in the nearest cell before that calls it
            cells = before if entry.callables else next(
                ([k] for k in before if spell_out(code, [entry], [k])), [])
            changes = spell_out(code, [entry], cells)
            if changes:
                k = max(changes)
                found.append(Candidate(cell=k, source=changes[k], label=label([entry]),
                                       others=tuple((c, v) for c, v in changes.items() if c != k)))
        return found

    def rounds_run_cells(self) -> tuple[Any, ...]:
        return self.current_run.cells if self.current_run is not None else ()

    def resolve(self, nb: NotebookNode, cls: Classification) -> tuple[NotebookNode, str] | None:
        """The first candidate whose run gets past the failing cell (see ``progressed``);
        its run is kept for the next round. A candidate that fails in the same cell with
        another error is no repair alone: the candidates for that second error are tried
        on top of it, and the pair is kept if it gets past the cell."""
        chained = 0
        for candidate in self.error_candidates(nb, cls):
            changes = candidate.sources()
            tried = self.trial(nb, changes)
            if tried is None:
                continue
            new, run, executed = tried
            if self.progressed(cls, run, executed, min(changes), set(changes)):
                self.verified = (_sources(new), run, executed)
                self.note_drop(nb, cls, candidate.label)
                return new, candidate.label
            if chained < MAX_CHAINED and same_cell_other_error(cls, run):
                chained += 1
                found = self.second(new, run, cls, candidate.label, min(changes))
                if found is not None:
                    return found
        return None

    def keeps(self, cls: Classification, new: NotebookNode) -> bool:
        """True when the codemods' notebook ``new`` may be kept: its run does not fail
        before the cell that failed, and no cell up to there, nor one they changed, prints
        other values than it saved where it did not before (a codemod's match is evidence,
        so another error in the failing cell is allowed: a second drift on the same
        lines). Its run is the next round's."""
        run, executed = self.execute(new)
        self.verified = (_sources(new), run, executed)
        failed = run.failed
        end = cls.cell if cls.cell is not None else len(new.cells) - 1
        old = self.current_nb.cells if self.current_nb is not None else new.cells
        changed = {k for k, (a, b) in enumerate(zip(old, new.cells)) if _source(a) != _source(b)}
        if failed is not None and failed.index < end:
            new_deviations = []
        else:
            new_deviations = self.newly_deviating(run, executed, end, changed)
            if not new_deviations:
                return True
        self.notes += [f"{cell_label(cls.cell, cls.execution_count)}: the repair of "
                       f"{cls.ename} by the codemods was not kept: {d.message}"
                       for d in new_deviations]
        self.verified = None
        self.refused.add(_sources(new))
        return False

    def note_drop(self, nb: NotebookNode, cls: Classification, what: str) -> None:
        """A dropped keyword kept with no saved output of its cell to check it against."""
        if "dropped" in what and (not self.saved or self.saved.of(nb, cls.cell) is None):
            self.notes.append(f"{cell_label(cls.cell, cls.execution_count)}: {what}; the cell "
                              "saved no output to show that it still does what it did")

    def second(self, nb: NotebookNode, run: NotebookRun, cls: Classification, first_label: str,
               first: int) -> tuple[NotebookNode, str] | None:
        """A second drift on the failing cell's lines: ``nb`` (the first candidate applied)
        repaired for the error ``run`` shows, kept when the pair gets past the cell."""
        second_cls = classify(run, self.settings)
        code = {i: _source(c) for i, c in enumerate(nb.cells) if c.get("cell_type") == "code"}
        for candidate in resolver_candidates(code, second_cls)[:MAX_CHAINED]:
            changes = candidate.sources()
            tried = self.trial(nb, changes)
            if tried is None:
                continue
            new, run2, executed = tried
            if self.progressed(cls, run2, executed, min(first, *changes), set(changes)):
                self.verified = (_sources(new), run2, executed)
                self.note_drop(nb, cls, f"{first_label}, then {candidate.label}")
                return new, f"{first_label}, then {candidate.label}"
        return None

    def restore(self, nb: NotebookNode, cls: Classification) -> tuple[NotebookNode, str] | None:
        """The first spelling-out of old defaults that brings the saved values back: the
        deviating cell prints what it saved, and no cell before it newly deviates. Each
        entry alone (nearest call first), then all of them together."""
        code = {i: _source(c) for i, c in enumerate(nb.cells) if c.get("cell_type") == "code"}
        before = {d.cell for d in self.last_deviations}
        for target in sorted(before)[:MAX_DEVIATIONS_TRIED]:
            upto = sorted((k for k in code if k <= target), reverse=True)
            ranked = [e for e, _cells in entries_in(code, upto)]
            for group in _groups(ranked):
                # the old default was in force in every cell (a method's, where it is checked)
                changes = spell_out(code, group, sorted(code), method_cells=upto)
                tried = self.trial(nb, changes) if changes else None
                if tried is None:
                    continue
                new, run, executed = tried
                now = self.deviating(executed, run, target)
                if now is not None and target not in now and now <= before:
                    self.verified = (_sources(new), run, executed)
                    return new, label(group)
        return None


def _spec_fields(loop: _Loop, nb: NotebookNode, last: Classification) -> dict[str, Any]:
    """The result's fields about the saved outputs: how many cells saved some, whether the
    final run prints them, the deviations seen and those left."""
    saved = loop.saved
    code = {i: _source(c) for i, c in enumerate(nb.cells) if c.get("cell_type") == "code"}
    unfaithful = (*loop.notes, *(f"{cell_label(k)}: {note}" for k, note in unfaithful_calls(code)))
    skipped = {"saved_skipped": saved.skipped} if saved is not None else {}
    if not saved:
        return {"unfaithful": unfaithful, **skipped}
    return {"unfaithful": unfaithful, **skipped, "saved_cells": len(saved.by_index),
            "outputs_match": last.kind == "reproduced" and not loop.last_deviations,
            "deviations_found": tuple(loop.found.values()),
            "deviations_left": tuple(d.message for d in loop.last_deviations)}


def modernize(notebook: str | os.PathLike[str], out_dir: str | os.PathLike[str], *,
              settings: ModernizeSettings | None = None, client: Any = None,
              progress: Progress | None = None) -> ModernizeResult:
    """Make one notebook run under today's libraries: run, classify, patch, repeat.

    Args:
        notebook: the ``.ipynb`` to modernize; it is read, never written.
        out_dir: where this notebook's trajectory, final notebook and report go; the
            kernel runs in ``out_dir/work`` (a copy of the notebook's folder).
        settings: a ``ModernizeSettings`` (default: 16 rounds, 600 s, codemods only).
        client: a ``crashpredict.llm.ChatClient`` (default: one built from
            ``settings.llm``; none when that is ``None``).
        progress: called with one line per round.

    Returns:
        A ``ModernizeResult``; also written to ``out_dir/report.json``.

    Raises:
        CaseError: the notebook is missing or unreadable. BenchkitError: bad settings or
            no kernel could be started.

    Example:
        >>> r = modernize("old.ipynb", "out/old")  # doctest: +SKIP
        >>> r.reproduced, len(r.rounds), r.codemods  # doctest: +SKIP
    """
    settings = settings or ModernizeSettings()
    _check_settings(settings)
    path, out = Path(notebook), Path(out_dir)
    original = _read(path)
    if out.resolve() in path.resolve().parents:
        raise BenchkitError(f"{path}: the output folder {out} must not contain the notebook")
    start = time.monotonic()
    client = _client(settings, client)
    out.mkdir(parents=True, exist_ok=True)
    work = copy_inputs(path, out)
    traj = Trajectory(out)
    loop = _Loop(path=path, settings=settings, client=client, traj=traj, work=work,
                 progress=progress, saved=saved_outputs(original))
    nb, executed, stop_reason = loop.run(original)
    rounds = loop.rounds
    final_path = out / path.name
    nbpatch.write_notebook(executed, final_path)
    last = rounds[-1].classification
    changed = [c.get("source") for c in nb.cells] != [c.get("source") for c in original.cells]
    equivalence, notes = ("identical", ())
    if changed:
        equivalence, notes = _equivalence(original, nb, rounds[0].run, settings, work)
    first_failure = rounds[0].run.failed
    compared_before = (first_failure.index + 1 if first_failure is not None
                       and equivalence in ("equivalent", "different") else None)
    result = ModernizeResult(
        notebook=str(path), out_dir=str(out), final_notebook=str(final_path),
        reproduced=last.kind == "reproduced", final_kind=last.kind, stop_reason=stop_reason,
        rounds=tuple(rounds), similarity=nbpatch.similarity(original, nb) if changed else 1.0,
        equivalence=equivalence, differences=notes, compared_before=compared_before,
        codemods=tuple(dict.fromkeys(a.rule for r in rounds for a in r.codemods)),
        prompt_tokens=sum(r.prompt_tokens for r in rounds),
        completion_tokens=sum(r.completion_tokens for r in rounds),
        cost_usd=_sum_cost(rounds), elapsed_s=time.monotonic() - start,
        **_spec_fields(loop, nb, last))
    traj.finish(result)
    return result
