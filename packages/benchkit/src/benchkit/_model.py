"""Result records: one per case and version, written as one JSON line each."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

# how a version's run ended; anything but "ok" means the run itself could not finish
STATUSES = ("ok", "replay-failed", "timeout", "kernel-died", "malformed", "error")


@dataclass(frozen=True, slots=True, kw_only=True)
class Record:
    """What happened to one version of one case in a ``verify`` or ``detect`` run.

    ``expected_crash`` is the ground truth (the reproduced version crashes, the fixed one
    does not). For verify, ``actual_ename`` is what the target really raised (None: ran
    clean) and ``passed`` says whether that is what the labels promise. For detect,
    ``verdict`` is crashpredict's Verdict as a dict and ``latency_s`` the prediction time.
    ``reason`` says, for a run that could not finish or a version not as labelled, what
    went wrong, naming cells as ``cell N (id ID)``.
    """

    task: str  # "verify" | "detect"
    case: str
    version: str
    status: str
    reason: str = ""
    expected_crash: bool
    labels: dict[str, str] = field(default_factory=dict)
    cell_position: int | None = None  # the target as the notebook shows it: 1-based, all cells
    cell_id: str | None = None  # the target's nbformat id
    replayed_cells: int = 0
    actual_ename: str | None = None
    actual_evalue: str | None = None
    error_line: int | None = None  # line of the target cell where ``actual_ename`` was raised
    passed: bool | None = None
    verdict: dict[str, Any] | None = None
    engines: tuple[str, ...] = ()
    latency_s: float | None = None
    elapsed_s: float = 0.0

    @property
    def key(self) -> tuple[str, str]:
        return (self.case, self.version)

    @property
    def predicted_crash(self) -> bool | None:
        """The verdict's answer; None when there is no usable verdict."""
        if self.verdict is None:
            return None
        crash = self.verdict.get("crash")
        return crash if isinstance(crash, bool) else None

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["engines"] = list(self.engines)
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Record:
        """A record from its JSON line; a line written before positions (a 0-based
        ``target_cell`` only) gets its 1-based ``cell_position``."""
        known = {f for f in cls.__dataclass_fields__}
        values = {k: v for k, v in data.items() if k in known}
        old = data.get("target_cell")
        if values.get("cell_position") is None and type(old) is int:
            values["cell_position"] = old + 1
        values["engines"] = tuple(values.get("engines") or ())
        return cls(**values)
