"""Frozen result values: the verdict on one cell and the results of kernel runs."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from typing import Any

__all__ = [
    "Verdict", "CellRun", "ReplayResult", "ReplayFailure", "CheckResult", "WalkStep", "WalkResult",
    "CRASH_TYPES", "LIBRARIES", "CERTAIN", "crash_type_of",
]

#: JunoBench's crash-type vocabulary; every verdict's ``crash_type`` is one of these.
CRASH_TYPES = (
    "variable not found", "attribute error", "key error", "index error", "invalid argument",
    "tensor shape mismatch", "unsupported broadcast", "feature name mismatch", "NotFitted",
    "type error", "value error", "module not found", "syntax error", "file not found",
    "out of memory", "data value violation", "unknown",
)
#: JunoBench's library groups.
LIBRARIES = (
    "NBspecific", "pandas", "numpy", "sklearn", "torch", "tensorflow", "matplotlib",
    "seaborn", "python",
)

#: A verdict at least this confident, with a known answer, is certain: later engines (the
#: LLM) are not asked and cannot overturn it. The rule engine fires at 0.93-0.97 and says
#: "no rule fired" at 0.6, so only its evidence-backed crash predictions are certain.
CERTAIN = 0.9

_CRASH_TYPE_BY_CLASS = {
    "NameError": "variable not found", "UnboundLocalError": "variable not found",
    "AttributeError": "attribute error", "KeyError": "key error", "IndexError": "index error",
    "TypeError": "type error", "ValueError": "value error", "IntCastingNaNError": "value error",
    "JSONDecodeError": "value error", "DataError": "type error",  # (pandas': no numbers)
    "ImportError": "module not found", "ModuleNotFoundError": "module not found",
    "SyntaxError": "syntax error", "IndentationError": "syntax error", "TabError": "syntax error",
    "FileNotFoundError": "file not found", "MemoryError": "out of memory",
    "OutOfMemoryError": "out of memory", "ResourceExhaustedError": "out of memory",
    "NotFittedError": "NotFitted", "ZeroDivisionError": "data value violation",
}
_SHAPE_WORDS = ("shape", "size of tensor", "size mismatch", "size-incompatible", "cannot reshape", "dimension",
                "must match exactly", "must match the size", "cannot be multiplied",
                "not aligned", "equal size")
_SHAPE_LIBRARIES = (None, "numpy", "torch", "tensorflow", "sklearn", "pandas")


def crash_type_of(exception: str | None, message: str = "", library: str | None = None) -> str:
    """Map an exception class name (and its message and library) to a `CRASH_TYPES` entry.

    The one vocabulary every engine uses: the message decides first (broadcast, feature
    names, shapes), then the exception class.

    Example:
        >>> crash_type_of("ValueError", "operands could not be broadcast together")
        'unsupported broadcast'
    """
    text = message.lower()
    if "feature names" in text or "feature_names mismatch" in text:
        return "feature name mismatch"
    if "broadcast" in text:
        return "unsupported broadcast"
    if exception in ("RuntimeError", "ValueError", "InvalidArgumentError", "IndexError") and \
            library in _SHAPE_LIBRARIES and any(w in text for w in _SHAPE_WORDS):
        return "tensor shape mismatch"
    if exception in ("OSError", "RuntimeError", "FileNotFoundError") and (
            "no such file or directory" in text or "non-existent directory" in text or
            ("directory" in text and "does not exist" in text)):
        return "file not found"  # pandas' and torch's words for a missing folder
    if exception == "TypeError" and ("unexpected keyword argument" in text or
                                     "multiple values for argument" in text or
                                     "positional argument" in text):
        return "invalid argument"
    return _CRASH_TYPE_BY_CLASS.get(exception or "", "unknown")


@dataclass(frozen=True, slots=True, kw_only=True)
class Verdict:
    """A prediction for one cell: crash or not, and the diagnosis when it crashes.

    ``crash`` is ``None`` when the engine could not decide (e.g. it failed).
    ``line`` is 1-based within the cell.
    """

    crash: bool | None
    confidence: float
    exception: str | None = None
    line: int | None = None
    library: str | None = None
    crash_type: str | None = None
    explanation: str = ""
    evidence: tuple[str, ...] = ()
    engine: str = "rules"

    def to_dict(self) -> dict[str, Any]:
        """Return a JSON-ready dict (evidence as a list)."""
        data = asdict(self)
        data["evidence"] = list(self.evidence)
        return data

    def to_json(self) -> str:
        """Return the verdict as a JSON object string."""
        return json.dumps(self.to_dict(), sort_keys=True)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Verdict:
        """Build a verdict from `to_dict` output; unknown keys are ignored."""
        return cls(
            crash=data.get("crash"),
            confidence=float(data.get("confidence", 0.0)),
            exception=data.get("exception"),
            line=data.get("line"),
            library=data.get("library"),
            crash_type=data.get("crash_type"),
            explanation=str(data.get("explanation", "")),
            evidence=tuple(data.get("evidence", ())),
            engine=str(data.get("engine", "rules")),
        )

    @property
    def summary(self) -> str:
        """One line: the verdict and its diagnosis."""
        if self.crash is None:
            return f"unknown ({self.explanation})" if self.explanation else "unknown"
        if not self.crash:
            return "no crash predicted"
        where = f" at line {self.line}" if self.line else ""
        return f"crash predicted{where}: {self.exception}: {self.explanation}"


@dataclass(frozen=True, slots=True, kw_only=True)
class CellRun:
    """The outcome of running one cell in a kernel.

    ``status`` is "ok", "error" (the cell raised), "timeout" (interrupted after the
    session's timeout) or "died" (the kernel process ended).
    """

    ok: bool
    status: str = ""
    ename: str | None = None
    evalue: str | None = None
    traceback: tuple[str, ...] = ()
    stdout: str = ""

    def __post_init__(self) -> None:
        if not self.status:  # the common cases need not spell it out
            object.__setattr__(self, "status", "ok" if self.ok else "error")


@dataclass(frozen=True, slots=True, kw_only=True)
class ReplayResult:
    """The outcome of replaying a sequence of cells; it stops at the first failure."""

    ok: bool
    ran: int
    failed_index: int | None = None
    failure: CellRun | None = None

    @property
    def reason(self) -> str:
        """Why the replay failed ('' when it did not)."""
        if self.ok or self.failure is None:
            return ""
        return f"{self.failure.ename}: {self.failure.evalue}"


def cell_label(position: int, execution_count: int | None = None,
               cell_id: str | None = None) -> str:
    """How every report names a cell: ``cell 59 [17] (id 4fd7e1d7)``.

    ``position`` is 1-based, counting every cell (markdown included) as the notebook lists
    them; ``[17]`` is the execution count JupyterLab shows beside the cell (left out when
    the cell never ran).
    """
    count = f" [{execution_count}]" if execution_count is not None else ""
    return f"cell {position}{count}" + (f" (id {cell_id})" if cell_id else "")


@dataclass(frozen=True, slots=True, kw_only=True)
class ReplayFailure:
    """A replayed cell that failed; the replay went on past it, as a user running the
    cells one by one would.

    ``position`` is 1-based counting every cell; ``unbound`` are the names the cell would
    have bound that nothing bound after the replay; ``repair`` is the suggested command
    when the failure is API drift (`crashpredict._drift.repair_hint`), else ''; ``note``
    says when the failure may be the replay's own (no network in the jail).
    """

    position: int
    cell_id: str | None
    execution_count: int | None
    status: str  # "error" or "timeout"
    ename: str | None
    evalue: str
    line: int | None = None
    unbound: tuple[str, ...] = ()
    repair: str = ""
    #: why the failure may be the replay's, not the notebook's (the jail has no network)
    note: str = ""

    @property
    def label(self) -> str:
        """``cell 9 [7] (id ...)``."""
        return cell_label(self.position, self.execution_count, self.cell_id)

    @property
    def summary(self) -> str:
        """``cell 9 [7] failed at line 2: AttributeError: ...``."""
        where = f" at line {self.line}" if self.line else ""
        what = "timed out" if self.status == "timeout" else "failed"
        return f"{self.label} {what}{where}: {self.ename}: {self.evalue}"

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict (``position`` 1-based; ``execution_count`` its own field)."""
        return {"position": self.position, "cell_id": self.cell_id,
                "execution_count": self.execution_count, "status": self.status,
                "ename": self.ename, "evalue": self.evalue, "line": self.line,
                "unbound": list(self.unbound), "repair": self.repair, "note": self.note}


@dataclass(frozen=True, slots=True, kw_only=True)
class CheckResult:
    """The verdict on a notebook's target cell, with which cells were replayed."""

    path: str
    target_index: int  # 0-based position among all cells; people see ``target_index + 1``
    target_id: str | None
    target_source: str
    replayed: tuple[int, ...]  # 0-based positions, in the order they were replayed
    verdict: Verdict
    #: how the replayed cells were chosen when that is not the obvious (e.g. never run)
    plan_note: str = ""
    #: where the replay ran: "a private copy of ..." or "in place in ..."
    workdir: str = ""
    #: the target's execution count in the saved notebook (None: it never ran)
    target_execution_count: int | None = None
    #: replayed cells that failed (the replay went on past each)
    replay_failures: tuple[ReplayFailure, ...] = ()
    #: how the failures limit the verdict, one sentence ('' when none failed)
    limits: str = ""
    #: the repair command when the predicted crash is API drift (`crashpredict._drift`)
    repair: str = ""

    def to_dict(self) -> dict[str, Any]:
        """Return a JSON-ready dict.

        Cells are named as the notebook shows them, never by a 0-based index: a position
        counting every cell from 1 (``cell_position``, ``replayed_positions``, a failure's
        ``position``), the id, and the execution count as a field of its own.
        """
        return {
            "path": self.path, "cell_position": self.target_index + 1,
            "cell_id": self.target_id, "execution_count": self.target_execution_count,
            "replayed_positions": [i + 1 for i in self.replayed],
            "plan_note": self.plan_note, "workdir": self.workdir,
            "replay_failures": [f.to_dict() for f in self.replay_failures],
            "limits": self.limits, "repair": self.repair,
            "verdict": self.verdict.to_dict(),
        }


@dataclass(frozen=True, slots=True, kw_only=True)
class WalkStep:
    """One cell of a walk: the prediction made before it ran, and what happened."""

    index: int  # 0-based position among all cells
    cell_id: str | None
    verdict: Verdict
    actual: CellRun
    #: the cell's execution count in the saved notebook (None: it never ran)
    execution_count: int | None = None
    #: the repair command when the cell failed with API drift (`crashpredict._drift`)
    repair: str = ""
    #: why the failure may be the walk's own, not the notebook's (no network in the jail)
    note: str = ""

    @property
    def checked(self) -> bool:
        """False when no prediction was made (its dry run was blocked, an engine failed)."""
        return self.verdict.crash is not None

    @property
    def agrees(self) -> bool:
        """True when the prediction matched the outcome (False when it was not checked)."""
        return self.checked and bool(self.verdict.crash) == (not self.actual.ok)


@dataclass(frozen=True, slots=True, kw_only=True)
class WalkResult:
    """Predicted against actual for every cell a walk ran."""

    path: str
    steps: tuple[WalkStep, ...] = field(default=())
    #: where the walk ran: "a private copy of ..." or "in place in ..."
    workdir: str = ""
    #: how the walked cells were chosen when that is not the obvious (e.g. never run)
    plan_note: str = ""

    def to_dict(self) -> dict[str, Any]:
        """Return a JSON-ready dict (cells named by 1-based position counting every cell,
        id and execution count, as `CheckResult.to_dict`; ``checked`` false when no
        prediction was made)."""
        return {
            "path": self.path,
            "workdir": self.workdir, "plan_note": self.plan_note,
            "steps": [
                {"cell_position": s.index + 1, "cell_id": s.cell_id,
                 "execution_count": s.execution_count, "checked": s.checked,
                 "verdict": s.verdict.to_dict(),
                 "actual": {"ok": s.actual.ok, "ename": s.actual.ename,
                            "evalue": s.actual.evalue},
                 "repair": s.repair, "note": s.note}
                for s in self.steps
            ],
        }
