"""Frozen result types: cells, per-cell facts, findings and the dependency graph."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from types import MappingProxyType
from typing import Literal, Mapping

__all__ = [
    "Cell",
    "CellInfo",
    "DepGraph",
    "Edge",
    "Finding",
    "Hazard",
    "Mutation",
    "NameRef",
    "Notebook",
    "Severity",
    "SyntaxIssue",
]

Severity = Literal["error", "warning", "info"]
Order = Literal["notebook", "history"]

_FROZEN = dict(frozen=True, slots=True, kw_only=True)


@dataclass(**_FROZEN)
class Cell:
    """One notebook cell (markdown and raw cells included, with `kind` saying which)."""

    index: int
    id: str | None
    kind: str  # "code" | "markdown" | "raw"
    source: str
    execution_count: int | None = None
    has_error_output: bool = False
    has_output: bool = False  # a saved output that is not an error
    outputs_known: bool = False  # the file saved the cell's outputs (maybe none), as Jupyter does
    error_name: str | None = None  # the exception of the saved error output (`ename`), if any

    @property
    def ran_fine(self) -> bool:
        """The cell's last run raised nothing: it has a count and saved outputs without an
        error (an error would show). False when that is unknown."""
        return self.outputs_known and bool(self.execution_count) and not self.has_error_output

    @property
    def position(self) -> int:
        """The 1-based position of the cell in the notebook, counting every cell."""
        return self.index + 1

    @property
    def label(self) -> str:
        """How every nbdeps message names the cell: `cell N (id ID)`, N 1-based."""
        return f"cell {self.index + 1}" + (f" (id {self.id})" if self.id else "")

    @property
    def first_line(self) -> str:
        """The first line of code (else the first non-blank line), stripped."""
        lines = [line.strip() for line in self.source.splitlines() if line.strip()]
        code = [line for line in lines if not line.startswith("#")]
        return (code or lines or [""])[0]


@dataclass(**_FROZEN)
class Notebook:
    """A loaded notebook: every cell in notebook order plus where it came from."""

    cells: tuple[Cell, ...]
    path: str | None = None
    nbformat: int = 4
    python_version: str | None = None  # from language_info / kernelspec, when saved
    predefined: frozenset[str] = frozenset()  # names the kernel defines itself (`spark` on PySpark)

    @property
    def is_python2(self) -> bool:
        """True when the notebook's kernel says Python 2."""
        return bool(self.python_version) and self.python_version.split(".")[0] == "2"

    @property
    def code_cells(self) -> tuple[Cell, ...]:
        """The code cells, in notebook order."""
        return tuple(c for c in self.cells if c.kind == "code")

    @property
    def name(self) -> str:
        """The file name, or "<notebook>" for one built in memory."""
        return self.path or "<notebook>"


@dataclass(**_FROZEN)
class NameRef:
    """A read of `name` at `line` (1-based within the cell) and `column` (0-based)."""

    name: str
    line: int
    column: int


@dataclass(**_FROZEN)
class Mutation:
    """An in-place change of the object bound to `name` (the name is read, not rebound)."""

    name: str
    line: int
    column: int
    kind: str  # "subscript-assign" | "attribute-assign" | "method-call" | "inplace" | ...
    detail: str


@dataclass(**_FROZEN)
class Hazard:
    """A reason why running the cell a second time fails or changes its own input.

    `destructive` hazards fail on the second run (a dropped column is gone, a removed
    item is missing); `signature` is the normalised operation, used to spot the same
    operation run twice on the same object.
    """

    line: int
    column: int
    names: tuple[str, ...]
    reason: str
    destructive: bool = False
    signature: str = ""


@dataclass(**_FROZEN)
class SyntaxIssue:
    """Why a cell does not parse, even after IPython's input transformation."""

    message: str
    line: int
    column: int


@dataclass(**_FROZEN)
class Branches:
    """The global reads of a function made only under branch tests nbdeps can decide.

    `reads` maps a name to its guards: the name is read when any guard holds, a guard being
    a conjunction of `(parameter, operator, constant, wanted)` tests (see `_branches`).
    """

    params: tuple[str, ...]  # positional parameters, in order
    defaults: tuple[tuple[str, object], ...]  # parameter -> constant default
    reads: tuple[tuple[str, tuple[tuple[tuple[str, str, object, bool], ...], ...]], ...]


@dataclass(**_FROZEN)
class CallSite:
    """A cell-level call of `function`: how many positional arguments, which keywords,
    and the constant ones (`known`, keyed by position or keyword); `starred` when the call
    passes `*args`/`**kwargs` or the function is referenced without being called."""

    function: str
    positional: int
    given: tuple[str, ...]
    known: tuple[tuple[int | str, object], ...]
    starred: bool = False


@dataclass(**_FROZEN)
class CellInfo:
    """What one cell reads, binds, deletes and mutates at cell level."""

    defines: frozenset[str] = frozenset()
    uses: tuple[NameRef, ...] = ()
    deletes: frozenset[str] = frozenset()
    mutates: tuple[Mutation, ...] = ()
    star_imports: tuple[str, ...] = ()
    hidden_sources: tuple[str, ...] = ()  # `%run x.py`, `%store -r`: unknown definitions
    non_idempotent: tuple[Hazard, ...] = ()
    syntax_error: SyntaxIssue | None = None
    rebinds_from_self: frozenset[str] = frozenset()  # `x = f(x)`: new object derived from x
    # (name, method) pairs: the cell undoes `name.method(...)` (`reset_index` undoes `set_index`)
    undoes: frozenset[tuple[str, str]] = frozenset()
    # reads inside functions the cell defines but does not call: (function, reads) pairs,
    # read when another cell calls the function
    deferred_reads: tuple[tuple[str, tuple[NameRef, ...]], ...] = ()
    extensions: tuple[str, ...] = ()  # `%load_ext NAME`: extensions whose magics the notebook may use
    # functions the cell defines whose reads depend on decidable branches, and the calls the
    # cell makes of functions it does not define (to decide those branches at the call)
    branches: tuple[tuple[str, Branches], ...] = ()
    calls: tuple[CallSite, ...] = ()

    @property
    def used_names(self) -> frozenset[str]:
        """The names in `uses`, as a set."""
        return frozenset(ref.name for ref in self.uses)

    @property
    def mutated_names(self) -> frozenset[str]:
        """The names whose objects the cell changes in place."""
        return frozenset(m.name for m in self.mutates)

    @property
    def has_unknown_definitions(self) -> bool:
        """True when the cell may define names nobody can list (`import *`, `%run`)."""
        return bool(self.star_imports or self.hidden_sources)


@dataclass(**_FROZEN)
class Finding:
    """One problem or note about a notebook, with a stable code (see docs/nbdeps.md)."""

    code: str
    severity: Severity
    cell_index: int | None
    cell_id: str | None
    line: int | None
    column: int | None
    names: tuple[str, ...]
    message: str
    #: the cell's saved execution count (JupyterLab's ``[n]``), None when it never ran
    execution_count: int | None = None

    @property
    def cell_position(self) -> int | None:
        """The 1-based position of the cell in the notebook (all cells counted)."""
        return None if self.cell_index is None else self.cell_index + 1

    def to_dict(self) -> dict[str, object]:
        """A JSON-ready dict: every field (names as a list), the cell named by its 1-based
        `cell_position` and its `execution_count`.

        As in the text and SARIF reports, every position is 1-based: `cell_position`,
        `line` and `column` (`Finding.column` itself is 0-based, as in Python's `ast`, and
        `Finding.cell_index` 0-based; neither is written, so no field counts from 0).
        """
        data = asdict(self)
        del data["cell_index"]
        data["names"] = list(self.names)
        data["cell_position"] = self.cell_position
        data["column"] = None if self.column is None else self.column + 1
        return data


@dataclass(**_FROZEN)
class Edge:
    """`source` cell provides `names` that `target` cell reads (source runs first)."""

    source: int
    target: int
    names: tuple[str, ...]


@dataclass(**_FROZEN)
class DepGraph:
    """The def-use graph of a notebook's code cells in one order.

    `sequence` lists the cell indices in run order: every code cell for
    order="notebook", the executed cells of the live kernel session sorted by execution
    count for order="history". `edges` only go from earlier to later in `sequence`;
    `backward_edges` are reads served only by a cell later in `sequence`.
    """

    notebook: Notebook
    order: Order
    sequence: tuple[int, ...]
    infos: Mapping[int, CellInfo]
    edges: tuple[Edge, ...]
    hazards: frozenset[int] = frozenset()  # cells that carry an error or warning finding
    # reads of a name bound only later in `sequence` (a definer below, in notebook order):
    # from that definer to the reader, i.e. against the order
    backward_edges: tuple[Edge, ...] = ()
    definitions: Mapping[str, tuple[int, ...]] = field(
        default_factory=lambda: MappingProxyType({})
    )
    uses: Mapping[str, tuple[int, ...]] = field(default_factory=lambda: MappingProxyType({}))

    @property
    def cells(self) -> tuple[Cell, ...]:
        """The code cells in `sequence`, in that order."""
        by_index = {c.index: c for c in self.notebook.cells}
        return tuple(by_index[i] for i in self.sequence)

    def predecessors(self, index: int) -> tuple[int, ...]:
        """The cells with an edge into `index`."""
        return tuple(e.source for e in self.edges if e.target == index)

    def successors(self, index: int) -> tuple[int, ...]:
        """The cells with an edge from `index`."""
        return tuple(e.target for e in self.edges if e.source == index)
