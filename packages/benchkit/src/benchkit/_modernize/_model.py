"""Result types of the modernization loop: a run, its classification, a round, a notebook."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from typing import Any, Literal

Kind = Literal["reproduced", "error", "timeout", "score"]
CellStatus = Literal["ok", "error", "timeout", "not-run"]


@dataclass(frozen=True, slots=True, kw_only=True)
class CellRun:
    """What one code cell did in a round: ran clean, raised, or was cut off by the limit."""

    index: int
    status: CellStatus
    ename: str | None = None
    evalue: str | None = None
    traceback: str = ""  # the last frames, ANSI colours stripped, clipped
    lines: tuple[int, ...] = ()  # lines of this cell the traceback points to
    elapsed_s: float = 0.0
    #: the library frames of the traceback, outermost first: ``pandas.core.groupby.
    #: groupby:GroupBy.mean`` (module, then the function's qualified name)
    frames: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True, kw_only=True)
class NotebookRun:
    """One execution of a notebook in a fresh kernel, stopped at the first error."""

    cells: tuple[CellRun, ...]
    timed_out: bool
    elapsed_s: float
    score: float | None = None
    score_error: str | None = None

    @property
    def failed(self) -> CellRun | None:
        """The cell that raised or hit the limit, if any."""
        return next((c for c in self.cells if c.status in ("error", "timeout")), None)


@dataclass(frozen=True, slots=True, kw_only=True)
class Classification:
    """The round's verdict: reproduced, error (which cell, which exception), timeout, score."""

    kind: Kind
    message: str
    cell: int | None = None  # 0-based index among all cells (text shows `cell_label`)
    execution_count: int | None = None  # the failing cell's count in this round's run
    ename: str | None = None
    evalue: str | None = None
    lines: tuple[int, ...] = ()
    score: float | None = None
    target: float | None = None
    #: a deviation from the saved outputs (kind ``score``): the value the old notebook
    #: printed and the one printed now, and every deviating cell in words
    expected: str | None = None
    actual: str | None = None
    deviations: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True, kw_only=True)
class CodemodApplied:
    """One codemod rule that changed one cell."""

    rule: str
    cell: int


@dataclass(frozen=True, slots=True, kw_only=True)
class Round:
    """One round of the loop: the run, its classification, and the repair made after it.

    ``repair`` is ``"codemod"`` (the catalog or the knowledge base: ``codemods`` says which
    rules, ``kb:<entry>`` for the knowledge base), ``"resolver"`` (``codemods`` holds one
    ``resolve: ...`` item), ``"llm"`` or ``None`` (reproduced, round limit, nothing to
    try); ``patch_file`` holds its nbpatch JSON; ``notebook`` the path of the notebook
    as run this round (with outputs), relative to the notebook's output folder.
    """

    number: int
    classification: Classification
    run: NotebookRun
    notebook: str
    repair: str | None = None
    patch_file: str | None = None
    codemods: tuple[CodemodApplied, ...] = ()
    llm_attempts: int = 0
    llm_error: str | None = None
    prompt_kind: str | None = None
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cost_usd: float | None = 0.0  # None: the model has no price in the table
    elapsed_s: float = 0.0


@dataclass(frozen=True, slots=True, kw_only=True)
class ModernizeResult:
    """The outcome for one notebook: reproduced or not, the rounds, and how far it moved.

    ``similarity`` is nbpatch's edit similarity of the final code to the original's (1.0:
    unchanged). ``equivalence`` is ``"equivalent"``, ``"different"``, ``"not-compared"``
    (the original stopped before its first code cell finished, or the check was off) or
    ``"identical"`` (nothing was changed); ``differences`` lists what differed. When the
    original failed, only the cells before its failing cell have outputs to compare:
    ``compared_before`` is that cell's 1-based position, and "equivalent" means those
    cells match, never that the notebook runs.
    """

    notebook: str
    out_dir: str
    final_notebook: str
    reproduced: bool
    final_kind: Kind
    stop_reason: str
    rounds: tuple[Round, ...]
    similarity: float
    equivalence: str
    differences: tuple[str, ...] = ()
    #: 1-based position of the cell where the original first failed: the equivalence
    #: covers only the cells before it (``None``: the whole notebook was compared)
    compared_before: int | None = None
    codemods: tuple[str, ...] = ()
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cost_usd: float = 0.0
    elapsed_s: float = 0.0
    error: str | None = None  # the notebook could not be handled at all (unreadable...)
    #: the code cells whose saved outputs are the specification (0: none saved, and a
    #: clean run is the goal); ``outputs_match``: the final run prints what they saved
    saved_cells: int = 0
    outputs_match: bool | None = None
    #: every cell that printed something else than it saved, in some round, in words
    #: (``cell 5 [4] prints 0.81 where the old notebook printed 0.95``), and those the
    #: final run still shows
    deviations_found: tuple[str, ...] = ()
    deviations_left: tuple[str, ...] = ()
    #: drifts with no faithful repair (what the old code did has no equivalent today)
    unfaithful: tuple[str, ...] = ()
    #: cells whose saved outputs could not be read (not compared), in words
    saved_skipped: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form (written as ``report.json``); cells are named by their 1-based
        position counting every cell (``cell_position``), never by a 0-based index, and a
        classification's ``execution_count`` is a field of its own (`round_to_dict`)."""
        data = asdict(self)
        data["rounds"] = [round_to_dict(r) for r in self.rounds]
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> ModernizeResult:
        """The result back from its `to_dict` form (a worker's reply, a ``report.json``)."""
        rounds = []
        for r in data.get("rounds", ()):
            run = dict(r["run"])
            run["cells"] = tuple(CellRun(**{**_index_of(c, "index"), "lines": tuple(c["lines"]),
                                            "frames": tuple(c.get("frames", ()))})
                                 for c in run["cells"])
            kind = _index_of(r["classification"], "cell")
            kind["lines"] = tuple(kind["lines"])
            kind["deviations"] = tuple(kind.get("deviations", ()))
            rounds.append(Round(**{**r, "run": NotebookRun(**run),
                                   "classification": Classification(**kind),
                                   "codemods": tuple(CodemodApplied(**_index_of(a, "cell"))
                                                     for a in r["codemods"])}))
        return cls(**{**data, "rounds": tuple(rounds),
                      "differences": tuple(data.get("differences", ())),
                      "codemods": tuple(data.get("codemods", ())),
                      **{k: tuple(data.get(k, ())) for k in (
                          "deviations_found", "deviations_left", "unfaithful",
                          "saved_skipped")}})


def round_to_dict(round_: Round) -> dict[str, Any]:
    """A round as JSON (``report.json``, ``trajectory.jsonl``): the 0-based ``index`` and
    ``cell`` fields are written as 1-based ``cell_position``, as crashpredict and nbpatch
    name cells."""
    data = asdict(round_)
    data["classification"] = _position_of(data["classification"], "cell")
    data["run"]["cells"] = [_position_of(c, "index") for c in data["run"]["cells"]]
    data["codemods"] = [_position_of(a, "cell") for a in data["codemods"]]
    return data


def _position_of(item: dict[str, Any], key: str) -> dict[str, Any]:
    out = {k: v for k, v in item.items() if k != key}
    out["cell_position"] = None if item[key] is None else item[key] + 1
    return out


def _index_of(item: Mapping[str, Any], key: str) -> dict[str, Any]:
    """`_position_of` undone (a report written before positions keeps its ``key``)."""
    out = dict(item)
    if "cell_position" in out:
        position = out.pop("cell_position")
        out[key] = None if position is None else position - 1
    return out


@dataclass(frozen=True, slots=True, kw_only=True)
class FolderResult:
    """``modernize_folder``'s outcome: one result per notebook and where the reports went."""

    results: tuple[ModernizeResult, ...]
    out_dir: str
    report_html: str
    summary: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True, kw_only=True)
class ModernizeSettings:
    """How the loop runs: the score to reach, the limits, the repairs allowed.

    ``score`` is a variable name or expression evaluated in the kernel after a clean run;
    with ``target_score`` a run whose score is off by more than ``tolerance`` (relative to
    the target) is a score deviation. ``timeout`` bounds each cell's run, in seconds, and
    ``total_timeout`` (``None``: no limit) the whole notebook's run in one round. ``llm``
    is a ``crashpredict.llm.LLMSettings`` (``None``: codemods only).
    ``codemods`` turns on the codemod catalog and (with ``knowledge_base``) the drift
    knowledge base; ``resolvers``
    the error-driven resolvers (each candidate costs one run of the notebook).
    """

    target_score: float | None = None
    score: str | None = None
    tolerance: float = 0.1
    #: relative tolerance of the numbers a cell prints against those the old notebook
    #: saved (integers and the text around the numbers must be equal)
    output_tolerance: float = 0.01
    max_iter: int = 16
    timeout: float = 600.0
    total_timeout: float | None = None
    llm: Any = None
    codemods: bool = True
    knowledge_base: bool = True
    resolvers: bool = True
    reply_retries: int = 2
    check_equivalence: bool = True
    kernel_name: str = "python3"
    startup_timeout: float = 60.0
