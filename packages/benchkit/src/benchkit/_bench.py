"""verify and detect over a folder of cases: plan the tasks, run them, keep the records."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from benchkit._cases import load_cases
from benchkit._executor import make_executor
from benchkit._model import Record
from benchkit._run import case_to_task, error_record, run_task
from benchkit._store import ResultStore

Progress = Callable[[int, int, Record], None]


def _run(
    kind: str,
    root: str | Path,
    out_dir: str | Path,
    *,
    jobs: int,
    timeout: float,
    force: bool,
    scheduler: Any,
    cases: Iterable[str] | None,
    progress: Progress | None,
    extra: dict[str, Any],
) -> tuple[Record, ...]:
    found = load_cases(root, names=cases)
    store = ResultStore(out_dir, task=kind, force=force)
    tasks = [
        case_to_task(case, version, kind=kind, timeout=timeout, **extra)
        for case in found
        for version in case.versions
        if not store.done((case.name, version))
    ]
    executor = make_executor(jobs, scheduler)
    for done, (_task, result) in enumerate(executor.run(run_task, tasks, error_record), 1):
        record = Record.from_dict(result)
        store.add(record)
        if progress is not None:
            progress(done, len(tasks), record)
    return store.records()


def verify(root: str | Path, out_dir: str | Path, *, jobs: int = 1, timeout: float = 600,
           force: bool = False, scheduler: Any = None, cases: Iterable[str] | None = None,
           progress: Progress | None = None) -> tuple[Record, ...]:
    """Check every case: the reproduced target raises its labelled exception after the
    earlier cells ran clean, and the fixed version runs clean.

    Results go to ``out_dir/results.jsonl`` case by case; finished cases are skipped on a
    re-run unless ``force``. Returns every verify record in the results file.
    """
    return _run("verify", root, out_dir, jobs=jobs, timeout=timeout, force=force,
                scheduler=scheduler, cases=cases, progress=progress, extra={})


def detect(root: str | Path, out_dir: str | Path, *, engines: Sequence[str] = ("rules", "dryrun"),
           options: Mapping[str, Mapping[str, Any]] | None = None,
           jobs: int = 1, timeout: float = 600, force: bool = False, scheduler: Any = None,
           cases: Iterable[str] | None = None, progress: Progress | None = None) -> tuple[Record, ...]:
    """Replay each version's executed cells and ask crashpredict about the target.

    ``options`` are crashpredict's per-engine options (``{"dryrun": {"budget_s": 5},
    "llm": {"settings": LLMSettings(...)}}``); with an LLM cache directory in the
    settings, a re-run with ``force`` asks the model nothing twice.

    Returns every detect record in the results file; ``detection_metrics`` turns them
    into accuracy, precision, recall, F1 and the breakdowns.

    Raises:
        crashpredict.UnknownEngineError: an engine name is not known.
    """
    from crashpredict import check_engines

    engines = check_engines(engines)
    return _run("detect", root, out_dir, jobs=jobs, timeout=timeout, force=force,
                scheduler=scheduler, cases=cases, progress=progress,
                extra={"engines": list(engines), "options": dict(options or {})})
