"""The per-case work, run in a worker: replay one version in a fresh kernel, then verify
the target's real outcome or ask crashpredict for a verdict on it.

``run_task`` takes and returns plain dicts so the same function runs in a local process
pool or on a Dask worker. It never raises for a failing case: a kernel that dies, a cell
that hangs, a notebook that cannot be read all become a record with a status and reason.
"""

from __future__ import annotations

import builtins
import os
import re
import time
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from crashpredict import private_copy

from benchkit._cases import Case, Labels, replay_plan
from benchkit._model import Record
from benchkit.errors import CaseError


def case_to_task(case: Case, version: str, **settings: Any) -> dict[str, Any]:
    return {
        "case": {
            "name": case.name,
            "folder": str(case.folder),
            "reproduced": str(case.reproduced),
            "fixed": str(case.fixed) if case.fixed else None,
            "original": str(case.original) if case.original else None,
            "labels": case.labels.to_dict(),
        },
        "version": version,
        **settings,
    }


def task_case(task: dict[str, Any]) -> Case:
    c = task["case"]
    return Case(
        name=c["name"],
        folder=Path(c["folder"]),
        reproduced=Path(c["reproduced"]),
        fixed=Path(c["fixed"]) if c.get("fixed") else None,
        original=Path(c["original"]) if c.get("original") else None,
        labels=Labels(**c["labels"]),
    )


@contextmanager
def work_folder(case: Case):
    """A private copy of the case folder, so notebooks that write files change nothing.

    crashpredict's `private_copy`, the one mechanism `crashpredict check` replays in too:
    large folders (real Kaggle inputs) are linked entry by entry instead of copied, and the
    replay kernel's guard keeps writes through those links off the originals.
    """
    with private_copy(case.folder, prefix=f"benchkit-{case.name}-", name=case.name) as work:
        yield work


def _failure_status(exc: BaseException) -> str:
    text = f"{type(exc).__name__} {exc}".lower()
    if "timeout" in text or "timed out" in text:
        return "timeout"
    if "dead" in text or "died" in text or "restart" in text:
        return "kernel-died"
    return "error"


def run_task(task: dict[str, Any]) -> dict[str, Any]:
    """Replay one version of one case and verify or predict its target; returns a record."""
    started = time.perf_counter()
    case = task_case(task)
    version = task["version"]
    base = {
        "task": task["kind"],
        "case": case.name,
        "version": version,
        "expected_crash": version == "reproduced",
        "labels": case.labels.to_dict(),
        "engines": tuple(task.get("engines") or ()),
    }
    try:
        plan = replay_plan(case, version)
    except CaseError as exc:
        return Record(**base, status="malformed", reason=_relative(str(exc), case.folder)).to_dict()
    base.update(cell_position=plan.target_index + 1,
                cell_id=plan.target_id)
    try:
        with work_folder(case) as cwd:
            fields = _in_kernel(task, plan, cwd)
    except Exception as exc:  # the kernel died, hung, or could not start
        fields = {"status": _failure_status(exc), "reason": f"{type(exc).__name__}: {exc}"}
    fields["elapsed_s"] = round(time.perf_counter() - started, 3)
    if task["kind"] == "verify" and fields["status"] == "ok":
        actual = fields.get("actual_ename")
        fields["passed"] = verify_passed(version, case.labels.ename, actual)
        if not fields["passed"]:
            fields["reason"] = verify_reason(version, case.labels.ename, actual,
                                             fields.get("error_line"), plan.cell_name(plan.target_index))
    elif task["kind"] == "verify":
        fields["passed"] = False
    return Record(**base, **fields).to_dict()


def _relative(message: str, folder: Path) -> str:
    """A case error without the case folder's absolute path (the row names the case)."""
    return message.replace(f"{folder}{os.sep}", "")


def same_exception(labelled: str, actual: str | None) -> bool:
    """JunoBench labels exception names lower-cased (``keyerror``); compare leniently."""
    if actual is None:
        return False
    short = lambda name: name.rsplit(".", 1)[-1].strip().lower()  # noqa: E731
    return not labelled or short(labelled) == short(actual)


def verify_passed(version: str, labelled_ename: str, actual_ename: str | None) -> bool:
    """The reproduced target must raise the labelled exception; the fixed one nothing."""
    if version == "reproduced":
        return same_exception(labelled_ename, actual_ename)
    return actual_ename is None


def verify_reason(version: str, labelled_ename: str, actual_ename: str | None,
                  line: int | None, cell: str) -> str:
    """Why a target is not as labelled, e.g. ``expected ValueError, got IndexError at line 3
    of cell 4 (id ab12)``, ``expected a crash, ran clean``, ``expected clean, got KeyError...``."""
    where = f" at line {line} of {cell}" if line else f" in {cell}"
    if version == "reproduced":
        expected = f"expected {_class_name(labelled_ename)}" if labelled_ename else "expected a crash"
    else:
        expected = "expected clean"
    if actual_ename is None:
        return f"{expected}, {cell} ran clean"
    return f"{expected}, got {actual_ename}{where}"


def _class_name(label: str) -> str:
    """JunoBench's ``valueerror`` as ``ValueError`` when it names a built-in exception."""
    return _BUILTIN_EXCEPTIONS.get(label.strip().lower(), label.strip())


_BUILTIN_EXCEPTIONS = {name.lower(): name for name, value in vars(builtins).items()
                       if isinstance(value, type) and issubclass(value, BaseException)}
_ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")
# IPython 8 names the frame of an executed cell "Cell In[7], line 3"; older versions only
# mark the line with an arrow ("----> 3 df['a']")
_CELL_FRAME = re.compile(r"Cell In\[\d*\], line (\d+)")
_ARROW = re.compile(r"^-+> ?(\d+)", re.M)


def error_line(traceback: tuple[str, ...] | list[str]) -> int | None:
    """The line of the executed cell in an IPython traceback (its outermost cell frame)."""
    text = _ANSI.sub("", "\n".join(traceback or ()))
    match = _CELL_FRAME.search(text) or _ARROW.search(text)
    return int(match.group(1)) if match else None


def _in_kernel(task: dict[str, Any], plan, cwd: Path) -> dict[str, Any]:
    from crashpredict import KernelSession

    timeout = float(task.get("timeout") or 600)
    with KernelSession(cwd, timeout=timeout) as kernel:
        for done, (index, source) in enumerate(plan.prefix):
            run = kernel.run(source)
            if not run.ok:
                line = error_line(run.traceback)
                return {
                    "status": _RUN_STATUS.get(run.status, "replay-failed"),
                    "reason": f"replay failed at {plan.cell_name(index)}"
                              f"{f', line {line}' if line else ''}: {run.ename}: {_short(run.evalue)}",
                    "replayed_cells": done,
                }
        fields: dict[str, Any] = {"status": "ok", "replayed_cells": len(plan.prefix)}
        if task["kind"] == "detect":
            engines = tuple(task.get("engines") or ("rules",))
            t0 = time.perf_counter()
            verdict = kernel.predict(plan.target_source, engines, options=task.get("options"))
            fields["latency_s"] = round(time.perf_counter() - t0, 4)
            fields["verdict"] = verdict.to_dict()
        else:
            run = kernel.run(plan.target_source)
            if run.status in _RUN_STATUS:
                fields["status"] = _RUN_STATUS[run.status]
                fields["reason"] = f"target {plan.cell_name(plan.target_index)}: {run.ename}: {_short(run.evalue)}"
            fields["actual_ename"] = None if run.ok else run.ename
            fields["actual_evalue"] = None if run.ok else _short(run.evalue)
            fields["error_line"] = None if run.ok else error_line(run.traceback)
        return fields


# how crashpredict's CellRun says a run could not finish, in our statuses
_RUN_STATUS = {"timeout": "timeout", "died": "kernel-died"}


def _short(text: str | None, limit: int = 300) -> str:
    text = (text or "").strip()
    return text if len(text) <= limit else text[: limit - 1] + "…"


def error_record(task: dict[str, Any], exc: BaseException) -> dict[str, Any]:
    """The record for a task whose worker itself failed (process killed, pickling...)."""
    version = task["version"]
    return Record(
        task=task["kind"],
        case=task["case"]["name"],
        version=version,
        status="kernel-died" if isinstance(exc, BrokenProcessPool) else _failure_status(exc),
        reason=f"worker failed: {type(exc).__name__}: {exc}",
        expected_crash=version == "reproduced",
        labels=dict(task["case"]["labels"]),
        engines=tuple(task.get("engines") or ()),
    ).to_dict()
