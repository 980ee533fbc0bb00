"""Notebook-level jobs: replay the executed cells in a kernel, then predict a target."""

from __future__ import annotations

import ast
import dataclasses
import re
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ._drift import DRIFT_ERRORS, repair_hint
from ._dryrun import DryRun, combine_with_rules
from ._engines import check_engines
from ._kernel import KernelSession
from ._model import (CERTAIN, CheckResult, ReplayFailure, Verdict, WalkResult,
                     WalkStep, cell_label)
from ._options import DEFAULT_DRYRUN_BUDGET_S
from ._workdir import WorkCopy, private_copy
from .errors import CellNotFoundError, KernelError, NotebookReadError, ReplayError

__all__ = ["check_notebook", "walk_notebook", "read_code_cells", "plan_check", "plan_note",
           "CodeCell", "DEFAULT_ENGINES"]

Progress = Callable[[str], None] | None
#: What `crashpredict check` and `walk` ask by default: the rules, then the dry run.
DEFAULT_ENGINES = ("rules", "dryrun")


@dataclass(frozen=True, slots=True, kw_only=True)
class CodeCell:
    """A code cell as the checker needs it."""

    index: int  # 0-based position in the notebook's cell list (all cell types)
    id: str | None
    source: str
    execution_count: int | None
    has_error: bool

    @property
    def position(self) -> int:
        """1-based position counting every cell, as the notebook shows it."""
        return self.index + 1

    @property
    def name(self) -> str:
        """How reports name the cell: ``cell 4 [2] (id 4fd7e1d7)``, its position and the
        execution count JupyterLab shows (`cell_label`)."""
        return cell_label(self.position, self.execution_count, self.id)


def _load(path: Path) -> dict[str, Any]:
    """The notebook's JSON as a version-4 dict; a UTF-8 BOM is accepted, ids never invented."""
    import json
    import warnings
    from nbdeps import NOTEBOOK_LIMIT, read_bounded

    try:  # a regular file of bounded size: /dev/zero or a FIFO never hold the call
        text = read_bounded(path, limit=NOTEBOOK_LIMIT, what="notebook",
                            error=NotebookReadError).decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise NotebookReadError(f"{path}: not UTF-8 text (byte {exc.start})") from exc
    try:
        data = json.loads(text)
    except RecursionError as exc:
        raise NotebookReadError(f"{path}: not a readable notebook (JSON nested too deeply)") \
            from exc
    except ValueError as exc:
        raise NotebookReadError(f"{path}: not a readable notebook (invalid JSON: {exc})") from exc
    if not isinstance(data, dict) or not isinstance(data.get("cells", data.get("worksheets")),
                                                    list):
        raise NotebookReadError(f"{path}: not a readable notebook (no list of cells)")
    version = data.get("nbformat", 4)
    if isinstance(version, bool) or not isinstance(version, int):
        raise NotebookReadError(f"{path}: not a readable notebook ('nbformat' is "
                                f"{type(version).__name__} {str(version)[:20]!r}, not a number)")
    for index, cell in enumerate(data.get("cells") or ()):
        source = cell.get("source") if isinstance(cell, dict) else None
        if isinstance(source, list):
            bad = next((n for n, v in enumerate(source, 1) if not isinstance(v, str)), None)
            if bad is not None:
                raise NotebookReadError(f"{path}: cell {index + 1}: 'source' line {bad} is not "
                                        f"text ({type(source[bad - 1]).__name__})")
        elif source is not None and not isinstance(source, str):
            raise NotebookReadError(f"{path}: cell {index + 1}: 'source' is not text "
                                    f"({type(source).__name__})")
    if version < 4:
        import nbformat
        with warnings.catch_warnings():  # nbformat's upgrade warnings are not the user's concern
            warnings.simplefilter("ignore")
            try:
                data = nbformat.convert(nbformat.from_dict(data), 4)
            except Exception as exc:
                raise NotebookReadError(f"{path}: not a readable notebook "
                                        f"({type(exc).__name__}: {exc})") from exc
    return data


def _text(value: Any) -> str:
    if isinstance(value, list):
        return "".join(v for v in value if isinstance(v, str))
    return value if isinstance(value, str) else ""


def read_code_cells(path: Path | str) -> tuple[CodeCell, ...]:
    """The code cells of a notebook file.

    Raises:
        NotebookReadError: the file is missing, not JSON, not a notebook, or a cell holds
            text that is not valid Unicode (a lone surrogate); the message names the file,
            and the cell and line where one is at fault.
    """
    path = Path(path)
    data = _load(path)
    cells = []
    for index, cell in enumerate(data.get("cells") or ()):
        if not isinstance(cell, dict) or cell.get("cell_type") != "code":
            continue
        source = _text(cell.get("source", ""))
        count = cell.get("execution_count")
        outputs = cell.get("outputs")
        code = CodeCell(
            index=index, id=cell.get("id") if isinstance(cell.get("id"), str) else None,
            source=source, execution_count=count if isinstance(count, int) else None,
            has_error=any(isinstance(o, dict) and o.get("output_type") == "error"
                          for o in (outputs if isinstance(outputs, list) else ())))
        _check_text(path, code)
        cells.append(code)
    return tuple(cells)


def _check_text(path: Path, cell: CodeCell) -> None:
    try:
        cell.source.encode("utf-8")
    except UnicodeEncodeError as exc:
        line = cell.source.count("\n", 0, exc.start) + 1
        raise NotebookReadError(
            f"{path}: {cell.name}, line {line}: holds a lone surrogate "
            f"(U+{ord(cell.source[exc.start]):04X}), which is not valid text") from exc


def _find(cells: Sequence[CodeCell], cell: str | int, path: Path) -> CodeCell:
    """The code cell named by an id or a 1-based position (counting every cell)."""
    for c in cells:
        if c.id is not None and str(cell) == c.id:
            return c
    try:
        position = int(cell)
    except (TypeError, ValueError):
        position = None
    for c in cells:
        if position is not None and c.position == position:
            return c
    if position is not None and position >= 1:
        counted = next((c for c in cells if c.execution_count == position), None)
        hint = (f"; the cell JupyterLab shows as [{position}] is {counted.name}, "
                f"--cell {counted.position}" if counted is not None else "")
        raise CellNotFoundError(f"{path}: cell {position} is not a code cell (cells are "
                                f"counted from 1, markdown cells included{hint})")
    raise CellNotFoundError(f"{path}: no code cell with id or position {cell!r} (positions "
                            f"count every cell from 1)")


def plan_check(cells: Sequence[CodeCell], *, cell: str | int | None, order: str,
               path: Path) -> tuple[CodeCell, tuple[CodeCell, ...]]:
    """Choose the target cell and the cells to replay before it.

    The default target is the first cell with an error output, else the first code cell
    after the last one that ran. In a notebook that was never run (no execution counts),
    the code cells above the target are replayed in notebook order (see `plan_note`).

    Raises:
        CellNotFoundError: ``cell`` names no code cell, or there is no default target.
    """
    if order not in ("history", "notebook"):
        raise ValueError(f"order must be 'history' or 'notebook', not {order!r}")
    executed = [c for c in cells if c.execution_count is not None]
    if cell is not None:
        target = _find(cells, cell, path)
    else:
        target = _default_target(cells, executed, path)
    if not executed:  # never run: the cells above, top to bottom
        before = [c for c in cells if c.index < target.index]
    elif order == "history":
        before = [c for c in executed if c is not target and (
            target.execution_count is None or (c.execution_count or 0) < target.execution_count)]
        before.sort(key=lambda c: c.execution_count or 0)
    else:
        before = [c for c in executed if c.index < target.index]
    return target, tuple(before)


def _default_target(cells: Sequence[CodeCell], executed: Sequence[CodeCell],
                    path: Path) -> CodeCell:
    if not cells:
        raise CellNotFoundError(f"{path}: the notebook has no code cell")
    errors = [c for c in cells if c.has_error]
    if errors:
        return errors[0]
    if not executed:
        raise CellNotFoundError(
            f"{path}: the notebook was never run (no execution counts) and has no error "
            f"output to check; choose the cell with --cell (a position counting every cell "
            f"from 1, or a cell id); the code cells above it are replayed top to bottom")
    last = max(executed, key=lambda c: c.execution_count or 0)
    after = [c for c in cells if c.index > last.index]
    if not after:
        raise CellNotFoundError(
            f"{path}: every code cell has run and none shows an error, so there is no cell "
            f"to check by default; choose one with --cell (a position counting every cell "
            f"from 1, or a cell id)")
    return after[0]


def plan_note(cells: Sequence[CodeCell], before: Sequence[CodeCell]) -> str:
    """A sentence when the replay plan is not the recorded history, else ''."""
    if any(c.execution_count is not None for c in cells):
        return ""
    return (f"the notebook was never run (no execution counts): replayed the "
            f"{len(before)} code cell(s) above the target in notebook order")


def _replay(kernel: KernelSession, cells: Sequence[CodeCell], progress: Progress,
            path: Path) -> tuple[ReplayFailure, ...]:
    """Run ``cells`` in order, going on past a cell that fails or times out, as a user
    running them one by one would (what it left unbound stays so); the failures.

    Raises:
        ReplayError: the kernel died (nothing after it can run in the same state).
    """
    failures = []
    for n, c in enumerate(cells, 1):
        if progress:
            progress(f"replaying {c.name} ({n}/{len(cells)})")
        run = kernel.run(c.source)
        if run.ok:
            continue
        line = _error_line(run.traceback)
        if run.status == "died":
            raise ReplayError(f"{path}: replay failed at {c.name}"
                              f"{f', line {line}' if line else ''}: the kernel died "
                              f"({run.evalue}); the cells after it cannot run in its state")
        failure = ReplayFailure(position=c.position, cell_id=c.id,
                                execution_count=c.execution_count, status=run.status,
                                ename=run.ename, evalue=_first_line(run.evalue), line=line,
                                repair=repair_hint(str(path), run.ename, run.evalue,
                                                   run.traceback),
                                note=_network_note(kernel, run.ename, run.evalue))
        if progress:
            progress(f"{failure.summary}; the replay goes on")
        failures.append(failure)
    return tuple(failures)


def _with_unbound(kernel: KernelSession, failures: Sequence[ReplayFailure],
                  cells: Sequence[CodeCell]) -> tuple[ReplayFailure, ...]:
    """``failures`` with the names each failed cell would have bound that are unbound now."""
    by_position = {c.position: c for c in cells}
    wanted = {f.position: sorted(_defines(by_position[f.position].source)) for f in failures}
    names = sorted({n for v in wanted.values() for n in v})
    if not names:
        return tuple(failures)
    try:
        result = kernel._expression(
            f"[n for n in {names!r} if n not in get_ipython().user_ns]")
        unbound = set(ast.literal_eval(result["data"]["text/plain"]))
    except (KernelError, KeyError, TypeError, ValueError, SyntaxError):
        return tuple(failures)
    return tuple(dataclasses.replace(f, unbound=tuple(n for n in wanted[f.position]
                                                      if n in unbound)) for f in failures)


def _defines(source: str) -> frozenset[str]:
    try:
        import nbdeps
        return frozenset(nbdeps.analyze_cell(source).defines)
    except Exception:  # nbdeps cannot read it (not Python): no names to report
        return frozenset()


def _reads(source: str) -> frozenset[str]:
    try:
        import nbdeps
        return frozenset(r.name for r in nbdeps.analyze_cell(source).uses)
    except Exception:
        return frozenset()


def _limits(failures: Sequence[ReplayFailure], target: CodeCell, verdict: Verdict) -> str:
    """One sentence: how the failed replayed cells limit the verdict on ``target``, naming
    the cells where it starts (a cell that failed only for a name an earlier failure left
    unbound is named after it)."""
    if not failures:
        return ""
    reads = _reads(target.source)
    missing = [(n, f) for f in failures for n in f.unbound if n in reads]
    if not missing:
        return ("the target reads none of the names the failed cell(s) left unbound; "
                "whatever else they would have done (objects changed in place, files "
                "written) is missing from the state the verdict is about")
    names = ", ".join(dict.fromkeys(n for n, _ in missing))
    roots = dict.fromkeys(_root(f, failures).label for _, f in missing)
    after = [f.label for f in dict.fromkeys(f for _, f in missing) if f.label not in roots]
    cells = " and ".join(roots) + (f" (then {', '.join(after)}, which needed its names)"
                                   if after else "")
    named = _UNBOUND_NAME.search(verdict.explanation) if verdict.crash and \
        verdict.exception == "NameError" else None
    follows = (f" The predicted NameError follows from "
               f"{'that failure' if len(roots) == 1 else 'those failures'}, not from the "
               f"target." if named and named.group(1) in {n for n, _ in missing} else "")
    return (f"the target reads {names}, left unbound because {cells} failed in the replay: "
            f"the verdict is about the notebook in that state, as running the cells one by "
            f"one today leaves it, not as it was when the notebook was saved.{follows}")


_UNBOUND_NAME = re.compile(r"name '(\w+)' is not defined")


def _root(failure: ReplayFailure, failures: Sequence[ReplayFailure]) -> ReplayFailure:
    """The earlier failure ``failure`` follows from (its NameError names what that one left
    unbound), followed back to where it starts; ``failure`` itself when none."""
    seen = {failure.position}
    while failure.ename in ("NameError", "UnboundLocalError"):
        match = _UNBOUND_NAME.search(failure.evalue)
        cause = next((f for f in reversed(failures) if f.position not in seen
                      and match and match.group(1) in f.unbound), None) if match else None
        if cause is None:
            break
        seen.add(cause.position)
        failure = cause
    return failure


#: errors of a cell that reached for the network, which the jailed replay kernel has not
_NETWORK = re.compile(r"name resolution|Network is unreachable|Name or service not known|"
                      r"getaddrinfo failed|Failed to establish a new connection|"
                      r"Max retries exceeded|Connection refused", re.I)


def _network_note(kernel: KernelSession, ename: str | None, evalue: str | None) -> str:
    if not kernel.jailed or not _NETWORK.search(f"{ename}: {evalue or ''}"):
        return ""
    return ("the replay kernel has no network, so a download fails here even where it works "
            "for you; --in-place replays unconfined in the notebook's folder")


_ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")
_CELL_FRAME = re.compile(r"Cell In\[\d*\], line (\d+)")


def _error_line(traceback: Sequence[str]) -> int | None:
    """The line of the executed cell in an IPython traceback (its outermost cell frame)."""
    match = _CELL_FRAME.search(_ANSI.sub("", "\n".join(traceback or ())))
    return int(match.group(1)) if match else None


def _first_line(text: str | None) -> str:
    return (text or "").strip().splitlines()[0] if (text or "").strip() else ""


@contextmanager
def _replay_folder(path: Path, in_place: bool) -> Iterator[tuple[Path | WorkCopy, str]]:
    """Where the kernel runs: a private copy of the notebook's folder, or the folder itself."""
    folder = path.resolve().parent
    if in_place:
        yield folder, (f"in place in {folder} (--in-place: an unconfined kernel; files the "
                       f"cells write are kept)")
        return
    with private_copy(folder) as work:
        yield work, work.describe()


def _after(cwd: Path | WorkCopy, where: str) -> str:
    """``where``, plus a warning when a library wrote through a link to an original."""
    changed = cwd.changed_originals() if isinstance(cwd, WorkCopy) else ()
    if not changed:
        return where
    return (f"{where}; WARNING: the replay changed these originals through their links, "
            f"outside Python's file functions (a library writing in C): {', '.join(changed[:5])}")


def _dry_run_unanswered(verdict: Verdict, names: Sequence[str]) -> bool:
    """The dry run was asked but did not decide, and no later engine will."""
    decided = _dry_run_reason(verdict) is None and "dryrun" in verdict.engine.split("+") or (
        verdict.crash is True and verdict.confidence >= CERTAIN)
    return "dryrun" in names and "llm" not in names and not decided


_UNDECIDED = "dry run inconclusive: "


def _dry_run_reason(verdict: Verdict) -> str | None:
    """Why the dry run did not decide, as the verdict carries it (`_dryrun._verdict`: its
    explanation when the dry run alone spoke, else a ``dry run: ...`` evidence line)."""
    if verdict.explanation.startswith(_UNDECIDED):
        return verdict.explanation[len(_UNDECIDED):]
    for line in verdict.evidence:
        if line.startswith("dry run: " + _UNDECIDED):
            return line[len("dry run: " + _UNDECIDED):]
    return None


#: Reasons of an undecided dry run that a live kernel fixes: a library's thread pool that
#: died in the fork (TensorFlow's), the budget (and a crash seen only by the retry over
#: budget, on rows it kept or after loops it cut short). Any other reason (a side effect
#: refused, the jail refused, the fork refused, the fork's process died) never sends the
#: cell to the replay kernel.
_LIVE_KERNEL_FIXES = ("thread pool did not survive the fork", " s budget",
                      "was raised only on data cut to its first rows",
                      "was raised after a loop was cut short")
#: Reasons that say the cell tried something the dry run refused.
_REFUSED_EFFECT = re.compile(r"^a side effect was blocked(?: by the kernel layer)?: (.+)$", re.S)


def _live_kernel_fixes(reason: str) -> bool:
    return _REFUSED_EFFECT.match(reason) is None and any(k in reason for k in _LIVE_KERNEL_FIXES)


def _refused(verdict: Verdict, effect: str, where: str) -> Verdict:
    """The verdict of a cell that tried ``effect``, which is never run for real: unknown,
    unless the rules predicted a crash (theirs stands), with the effect named."""
    note = (f"blocked: {effect} ({where}; crashpredict never runs such a cell for real, "
            f"so it cannot say what the cell does next)")
    if verdict.crash is True:
        return dataclasses.replace(verdict, evidence=(*verdict.evidence, note))
    prior = (f"{verdict.engine}: {verdict.explanation}",) \
        if verdict.explanation and not verdict.explanation.startswith(_UNDECIDED) else ()
    return dataclasses.replace(
        verdict, crash=None, confidence=0.0, exception=None, line=None, crash_type=None,
        explanation=f"inconclusive: the cell tries a side effect that is refused ({effect})",
        evidence=(note, *(e for e in verdict.evidence if e != f"blocked: {effect}"), *prior))


_CELL_LINE = re.compile(r"Cell In\[\d+\], line (\d+)")
_ANSI = re.compile(r"\x1b\[[0-9;]*m")
_LIBRARY_FRAME = re.compile(r"site-packages/(\w+)/")


def _answer_undecided(kernel: KernelSession, source: str, verdict: Verdict,
                      options: Mapping[str, Mapping[str, Any]] | None,
                      progress: Progress, name: str) -> Verdict:
    """What `check_notebook` makes of a verdict the dry run did not decide.

    A cell that tried a refused side effect is reported as such and never run; one the
    fork could not finish for a reason a live kernel fixes runs in the jailed replay
    kernel (`_run_in_replay_kernel`); any other verdict stands.
    """
    reason = _dry_run_reason(verdict) or ""
    refused = _REFUSED_EFFECT.match(reason)
    if refused:
        return _refused(verdict, refused.group(1).strip(), "refused in the dry run")
    if not kernel.jailed or not _live_kernel_fixes(reason):
        return verdict
    if progress:
        progress(f"the fork could not answer: running {name} in the jailed replay kernel "
                 f"(discarded afterwards)")
    return _run_in_replay_kernel(kernel, source, verdict, options)


def _run_in_replay_kernel(kernel: KernelSession, source: str, verdict: Verdict,
                          options: Mapping[str, Mapping[str, Any]] | None) -> Verdict:
    """Run the target in the jailed replay kernel, the dry run's witness of last resort.

    Only a jailed kernel runs it (`KernelSession.run_watched`: no write reaches the disk,
    no network, no process outside the jail), and only for a reason a live kernel fixes
    (TensorFlow's thread pool after fork, the budget), within the dry run's budget; its
    outcome counts as the dry run's. The kernel is disposable: `check_notebook` shuts it
    down next. A cell that tried something whose outcome the jail changes (the network,
    a signal to a process outside it) is reported as refused, whatever it did there.
    """
    if not kernel.jailed:
        raise ValueError("the target runs only in a jailed replay kernel")
    budget = float((options or {}).get("dryrun", {}).get("budget_s") or DEFAULT_DRYRUN_BUDGET_S)
    kept, kernel.timeout = kernel.timeout, budget
    started = time.perf_counter()
    where = "in the jailed replay kernel (the fork could not run it)"
    try:
        run, tried = kernel.run_watched(source)
    except KernelError as exc:
        return dataclasses.replace(verdict, evidence=(*verdict.evidence, f"not run {where}: {exc}"))
    finally:
        kernel.timeout = kept
    elapsed = time.perf_counter() - started
    if tried:
        return _refused(verdict, tried, f"tried {where}, where the jail changes its outcome")
    if run.status in ("timeout", "died"):
        note = f"ran {where}: {run.evalue}"
        return dataclasses.replace(verdict, evidence=(*verdict.evidence, note))
    if run.ok:
        dry = DryRun(outcome="completed", elapsed_s=elapsed)
    else:
        text = _ANSI.sub("", "\n".join(run.traceback))
        line = _CELL_LINE.search(text)
        libraries = _LIBRARY_FRAME.findall(text)
        dry = DryRun(outcome="crashed", exception=run.ename, message=run.evalue or "",
                     line=int(line.group(1)) if line else None,
                     library=_library_group(libraries[-1]) if libraries else None,
                     elapsed_s=elapsed)
    combined = combine_with_rules(verdict, dry)
    return dataclasses.replace(combined, evidence=(*combined.evidence, f"ran {where}"))


def _library_group(package: str) -> str:
    """JunoBench's library group of a top-level package name."""
    return {"sklearn": "sklearn", "keras": "tensorflow", "tensorflow": "tensorflow",
            "torch": "torch", "pandas": "pandas", "numpy": "numpy",
            "matplotlib": "matplotlib", "seaborn": "seaborn"}.get(package, package)


def check_notebook(path: Path | str, *, cell: str | int | None = None,
                   order: str = "history", engines: Sequence[str] = DEFAULT_ENGINES,
                   timeout: float = 600, progress: Progress = None,
                   options: Mapping[str, Mapping[str, Any]] | None = None,
                   in_place: bool = False) -> CheckResult:
    """Replay a notebook's executed cells in a real kernel, then predict its target cell.

    Args:
        path: the notebook.
        cell: the target's cell id or 1-based position (counting every cell); default:
            the cell with an error output, else the first code cell after the last one
            that ran.
        order: "history" (execution-count order) or "notebook" (cell order). A notebook
            that was never run replays the code cells above the target, top to bottom.
        engines: engine names (default: rules, then the dry run).
        timeout: seconds allowed per cell.
        progress: called with a short message before each step.
        options: per-engine options (see `crashpredict.predict`).
        in_place: run the kernel in the notebook's own folder, where whatever the cells
            write stays; by default it runs in a private copy (`private_copy`), removed
            afterwards.

    Raises:
        NotebookReadError, CellNotFoundError, UnknownEngineError, KernelError, ReplayError.
    """
    path = Path(path)
    names = check_engines(engines)
    cells = read_code_cells(path)
    target, before = plan_check(cells, cell=cell, order=order, path=path)
    note = plan_note(cells, before)
    if progress and note:
        progress(note)
    with _replay_folder(path, in_place) as (cwd, where):
        if progress:
            progress(f"replaying in {where}")
        with KernelSession(cwd, timeout=timeout, jail=not in_place) as kernel:
            failures = _replay(kernel, before, progress, path)
            failures = _with_unbound(kernel, failures, before)
            if progress:
                progress(f"predicting {target.name}")
            verdict = kernel.predict(target.source, names, options=options)
            if _dry_run_unanswered(verdict, names):
                verdict = _answer_undecided(kernel, target.source, verdict, options, progress,
                                            target.name)
        where = _after(cwd, where)
    return CheckResult(path=str(path), target_index=target.index, target_id=target.id,
                       target_execution_count=target.execution_count,
                       target_source=target.source, replayed=tuple(c.index for c in before),
                       verdict=verdict, plan_note=note, workdir=where,
                       replay_failures=failures, limits=_limits(failures, target, verdict),
                       repair=_target_repair(path, verdict))


def _target_repair(path: Path, verdict: Verdict) -> str:
    """The repair command when the predicted crash is API drift (`repair_hint`)."""
    if not verdict.crash or verdict.exception not in DRIFT_ERRORS:
        return ""
    # the explanation carries the library's message and, from the rules, the removed-API
    # table's advice ('module 'numpy' has no attribute 'float' (np.float was removed ...)')
    return repair_hint(str(path), verdict.exception, verdict.explanation)


def _walk_verdict(verdict: Verdict, names: Sequence[str]) -> Verdict:
    """A walk's verdict: one whose dry run was blocked by a refused side effect is not a
    check, so it says so (unknown) unless the rules predicted a crash (theirs stands)."""
    if verdict.crash is True or not _dry_run_unanswered(verdict, names):
        return verdict
    refused = _REFUSED_EFFECT.match(_dry_run_reason(verdict) or "")
    if refused is None:
        return verdict
    effect = refused.group(1).strip()
    return dataclasses.replace(
        verdict, crash=None, confidence=0.0, exception=None, line=None, crash_type=None,
        explanation=f"not checked: its dry run was blocked ({effect}), and the rules alone "
                    f"cannot say it runs")


def walk_notebook(path: Path | str, *, order: str = "notebook",
                  engines: Sequence[str] = DEFAULT_ENGINES, timeout: float = 600,
                  progress: Progress = None,
                  options: Mapping[str, Mapping[str, Any]] | None = None,
                  in_place: bool = False) -> WalkResult:
    """Predict each code cell, then run it, and record predicted against actual.

    ``order="notebook"`` walks every code cell top to bottom; ``"history"`` walks the
    executed cells in execution-count order (a notebook never run is walked top to
    bottom). A failing cell does not stop the walk. ``in_place`` as in `check_notebook`.
    """
    path = Path(path)
    names = check_engines(engines)
    cells = read_code_cells(path)
    note = ""
    if order not in ("history", "notebook"):
        raise ValueError(f"order must be 'history' or 'notebook', not {order!r}")
    walk = sorted((c for c in cells if c.execution_count is not None),
                  key=lambda c: c.execution_count or 0) if order == "history" else list(cells)
    if order == "history" and not walk and cells:
        walk = list(cells)
        note = "the notebook was never run (no execution counts): walked in notebook order"
    steps: list[WalkStep] = []
    with _replay_folder(path, in_place) as (cwd, where):
        if progress:
            progress(f"running in {where}")
        with KernelSession(cwd, timeout=timeout, jail=not in_place) as kernel:
            for n, c in enumerate(walk, 1):
                if progress:
                    progress(f"{c.name} ({n}/{len(walk)})")
                verdict = _walk_verdict(kernel.predict(c.source, names, options=options),
                                        names)
                actual = kernel.run(c.source)
                repair = "" if actual.ok else repair_hint(
                    str(path), actual.ename, actual.evalue, actual.traceback)
                steps.append(WalkStep(index=c.index, cell_id=c.id, verdict=verdict,
                                      actual=actual, execution_count=c.execution_count,
                                      repair=repair, note="" if actual.ok else _network_note(
                                          kernel, actual.ename, actual.evalue)))
        where = _after(cwd, where)
    return WalkResult(path=str(path), steps=tuple(steps), workdir=where, plan_note=note)
