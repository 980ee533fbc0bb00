"""Findings: names that are undefined now or on a fresh run, stale and non-idempotent
cells, repeated destructive operations, and execution-count anomalies.

Codes are stable; docs/nbdeps.md has the table. Each check is a function from the
prepared `_Context` to findings, so the list of checks reads as the list of codes.
"""

from __future__ import annotations

import os
import re
from collections import defaultdict
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field

from ._branches import unreached
from ._cellinfo import analyze_cell, cell_infos, is_python2
from ._history import History, history
from ._load import NotebookSource, load_notebook
from ._model import Cell, CellInfo, Finding, NameRef, Notebook, Severity
from ._historydb import read_history
from ._names import defined_by_kernel

__all__ = ["CODES", "TOP_TO_BOTTOM_CODES", "check", "runs_top_to_bottom"]

# code -> (severity, short name, what it means); the docs table is generated from this
CODES: dict[str, tuple[Severity, str, str]] = {
    "ND001": ("error", "syntax-error", "the cell does not parse, even after IPython's transformation"),
    "ND002": ("info", "python-2-notebook", "the kernel was Python 2: cells that are not Python 3 are read as far as they parse"),
    "ND101": ("error", "undefined-name", "a name no cell of the notebook binds: NameError on a fresh run (deleted cell or hidden state)"),
    "ND102": ("warning", "maybe-star-name", "a name no cell binds, possibly from `import *` or `%run`"),
    "ND103": ("info", "definer-reran", "the definer last ran after this reader (it usually ran before too: benign); the output may be stale"),
    "ND104": ("error", "defined-only-in-unrun", "used in the live session, but defined only in cells that never ran: NameError now"),
    "ND105": ("warning", "defined-in-old-session", "used in the live session, but defined only by cells run in an earlier kernel session"),
    "ND106": ("warning", "deleted-before-use", "a cell that ran earlier in the live session deleted the name"),
    "ND201": ("warning", "defined-below", "the only definers sit below the reader: Restart & Run All raises NameError there"),
    "ND202": ("warning", "deleted-above", "a cell above deletes the name: Restart & Run All raises NameError"),
    "ND301": ("info", "stale-output", "an input was redefined or changed in place by a cell above after the cell last ran: its outputs are stale"),
    "ND302": ("info", "stale-downstream", "reads a name from a stale cell (reported on cells saved with an output)"),
    "ND401": ("info", "non-idempotent", "running the cell again fails or changes its own input"),
    "ND402": ("error", "repeated-destructive", "a destructive operation already applied to the same object runs again: it fails"),
    "ND501": ("info", "unexecuted-between", "a code cell that never ran sits between executed cells"),
    "ND502": ("info", "skipped-counts", "execution counts skip numbers: cells that ran were deleted or re-run"),
    "ND503": ("info", "several-sessions", "execution counts repeat: the notebook holds several kernel sessions"),
    "ND504": ("info", "out-of-order", "cells ran out of notebook order"),
    "ND601": ("info", "unknown-definitions", "`import *`, `%run` or `%store -r` define names nbdeps cannot list"),
}
# Findings that mean Restart & Run All fails.
TOP_TO_BOTTOM_CODES = frozenset({"ND001", "ND101", "ND201", "ND202", "ND402"})


def check(
    src: NotebookSource,
    *,
    select: Iterable[str] | None = None,
    ignore: Iterable[str] | None = None,
    history: str | os.PathLike[str] | History | None = None,
) -> tuple[Finding, ...]:
    """Report the dependency and execution-history hazards of a notebook.

    Args:
        src: anything `load_notebook` reads.
        select: keep only findings whose code starts with one of these (e.g. "ND1").
        ignore: drop findings whose code starts with one of these.
        history: IPython's history database (`history.sqlite`) of the kernel that ran
            the notebook: its recorded order of executions replaces the one inferred
            from execution counts.

    Returns:
        Findings sorted by cell, line and code.

    Raises:
        NotebookError: unreadable input.

    Example:
        >>> [f.code for f in check([("print(X)", 1)])]
        ['ND101']
    """
    nb = load_notebook(src)
    if history is not None and not isinstance(history, History):
        history = read_history(history, nb)
    ctx = _Context.of(nb, history)
    findings: list[Finding] = []
    for rule in _RULES:
        findings.extend(rule(ctx))
    keep = tuple(select or ())
    drop = tuple(ignore or ())
    findings = [
        f for f in _without_repeats(findings, ctx)
        if (not keep or f.code.startswith(keep)) and not (drop and f.code.startswith(drop))
    ]
    findings.sort(key=lambda f: (f.cell_index if f.cell_index is not None else -1, f.line or 0, f.code))
    return tuple(findings)


def _without_repeats(findings: list[Finding], ctx: _Context) -> list[Finding]:
    """One finding per hazard: an ND402 (`del x` run again) on a cell that an ND202 (`x`
    deleted above) already lists says the same thing twice, and so does an ND104 (`x` is
    defined only in cells that never ran) on a cell whose ND201 names the same never-run
    definer below."""
    below = {(f.cell_index, n) for f in findings if f.code == "ND201" and "(never run)" in f.message
             for n in f.names}
    return [f for f in findings
            if not (f.code == "ND402" and any((f.cell_index, n) in ctx.deleted_reads for n in f.names))
            and not (f.code == "ND104" and all((f.cell_index, n) in below for n in f.names))]


def runs_top_to_bottom(src: NotebookSource) -> bool:
    """True when Restart & Run All would find every name bound before it is read.

    False when a cell does not parse, reads a name bound only below it or in no cell,
    reads a name deleted above it, or repeats a destructive operation (a second
    `df.drop(columns="x", inplace=True)` on the same frame).
    """
    ctx = _Context.of(load_notebook(src))
    rules = (_syntax, _undefined_everywhere, _undefined_in_called_functions, _notebook_order,
             lambda c: _repeated_destructive(c, live=False))
    return not any(f.code in TOP_TO_BOTTOM_CODES for rule in rules for f in rule(ctx))


@dataclass(slots=True)
class _Context:
    nb: Notebook
    infos: dict[int, CellInfo]
    code: list[Cell]
    hist: History
    binders: dict[str, list[int]] = field(default_factory=dict)  # name -> cells binding it
    unknown_cells: list[int] = field(default_factory=list)  # `import *`, `%run`
    ran: set[int] = field(default_factory=set)  # cells known or inferred to have run
    python2: bool = False  # the kernel was Python 2 (metadata, or cells that ran as Python 2)
    unparsed: list[int] = field(default_factory=list)  # cells that do not parse
    deleted_reads: set[tuple[int, str]] = field(default_factory=set)  # (cell, name) an ND202 covers

    @classmethod
    def of(cls, nb: Notebook, hist: History | None = None) -> _Context:
        infos = cell_infos(nb)
        hist = hist if hist is not None else history(nb)
        for cell in hist.executed:
            if cell.index < 0:  # a run of code no cell holds now (edited or deleted cell)
                infos[cell.index] = analyze_cell(cell.source)
        python2 = is_python2(nb, infos)  # cell_infos left the reads of cells that do not parse out
        unparsed = [c.index for c in nb.code_cells if infos[c.index].syntax_error is not None]
        ctx = cls(nb=nb, infos=infos, code=list(nb.code_cells), hist=hist, ran=set(hist.ran),
                  python2=python2, unparsed=unparsed)
        binders: dict[str, list[int]] = defaultdict(list)
        for cell in ctx.code:
            for name in infos[cell.index].defines:
                binders[name].append(cell.index)
            if infos[cell.index].has_unknown_definitions:
                ctx.unknown_cells.append(cell.index)
        ctx.binders = dict(binders)
        ctx.ran |= ctx._proven_by_outputs()
        return ctx

    def _proven_by_outputs(self) -> set[int]:
        """Cells without a count whose definitions a later cell read and displayed an
        output without error: they must have run (their output was cleared)."""
        proven: set[int] = set()
        for cell in self.code:
            if cell.index not in self.ran or not cell.ran_fine:
                continue
            for name in self.infos[cell.index].used_names:
                definers = [i for i in self.binders.get(name, ()) if i != cell.index]
                if definers and not any(i in self.ran for i in definers):
                    proven.update(i for i in definers if self.cell(i).execution_count is None)
        return proven

    def always(self, name: str) -> bool:
        return defined_by_kernel(name, self.nb.predefined, self.python2)

    def cell(self, index: int) -> Cell:
        return self.nb.cells[index]

    def finding(self, code: str, cell: Cell | None, message: str, names: Sequence[str] = (),
                line: int | None = None, column: int | None = None) -> Finding:
        return Finding(
            code=code,
            severity=CODES[code][0],
            cell_index=None if cell is None else cell.index,
            cell_id=None if cell is None else cell.id,
            line=line,
            column=column,
            names=tuple(names),
            message=message,
            execution_count=None if cell is None else cell.execution_count,
        )


def _where(cell: Cell) -> str:
    count = "(never run)" if cell.execution_count is None else f"[{cell.execution_count}]"
    return f"{cell.label} {count}"


def _cells(cells: Sequence[Cell]) -> str:
    shown = ", ".join(str(c.position) for c in cells[:8]) + (", ..." if len(cells) > 8 else "")
    return f"cell {shown}" if len(cells) == 1 else f"cells {shown}"


def _syntax(ctx: _Context) -> Iterator[Finding]:
    broken = [ctx.cell(i) for i in ctx.unparsed]
    if ctx.python2:
        if broken:
            kernel = (f"a Python {ctx.nb.python_version} notebook" if ctx.nb.is_python2 else
                      "a Python 2 notebook (no version saved; its Python 2 cells ran without error)")
            yield ctx.finding("ND002", None, f"{kernel}: {len(broken)} "
                              f"cell(s) ({_cells(broken)}) are not Python 3; nbdeps reads the statements "
                              "of theirs that parse")
        return
    for cell in broken:
        issue = ctx.infos[cell.index].syntax_error
        hint = " (Python 2 code?)" if "Missing parentheses" in issue.message or "print" in issue.message else ""
        # Python compiles a cell whole: the consequence first, then what nbdeps made of it
        yield ctx.finding("ND001", cell, f"does not parse: {issue.message}{hint}; running it raises "
                          "SyntaxError before any of its lines runs (nbdeps reads the statements "
                          "of it that parse)", line=issue.line, column=issue.column)


def _undefined_everywhere(ctx: _Context) -> Iterator[Finding]:
    """ND101/ND102: names that no cell binds (or only the reader, after reading); one
    finding per name, on the first cell that reads it, listing every such cell."""
    readers: dict[str, list[tuple[Cell, NameRef, bool]]] = defaultdict(list)
    for cell in ctx.code:
        for ref in ctx.infos[cell.index].uses:
            if ctx.always(ref.name):
                continue
            binders = ctx.binders.get(ref.name, ())
            if any(i != cell.index for i in binders):
                continue
            readers[ref.name].append((cell, ref, cell.index in binders))
    for name, reads in readers.items():
        cell, ref, own = reads[0]
        # "`x`, read in cells 4, 6, is ...": the reason may end in a parenthesis of its own
        more = f", read in {_cells([c for c, _, _ in reads])}," if len(reads) > 1 else ""
        if ctx.unknown_cells:
            yield from _maybe_from_unknown(ctx, name, [(c, r) for c, r, _ in reads])
            continue
        may_bind = _may_bind(ctx, name)
        if own and len(reads) == 1:
            reason = "read before this cell binds it, and no other cell binds it"
        elif may_bind:
            verb = "does" if len(may_bind) == 1 else "do"
            reason = (f"bound in no statement nbdeps can read ({_cells(may_bind)} {verb} not parse "
                      "and may bind it, else a deleted cell or hidden state)")
        else:
            reason = "defined in no cell of the notebook (deleted cell or hidden state)"
        yield ctx.finding("ND101", cell, f"`{name}`{more} is {reason}: NameError on a fresh run",
                          (name,), ref.line, ref.column)


def _maybe_from_unknown(ctx: _Context, name: str, reads: list[tuple[Cell, NameRef]]) -> Iterator[Finding]:
    """ND102 for a name no cell binds in a notebook with `import *` / `%run` that nbdeps
    cannot read. A read above every such source fails on Restart & Run All whatever the
    source binds; below, a reader that ran without error proves the source binds the name
    (nothing is reported), one whose saved output is a NameError shows it does not, and
    without either the source may bind it."""
    src = ctx.cell(ctx.unknown_cells[0])
    early = [(c, r) for c, r in reads if c.index < src.index]
    proven = any(c.ran_fine and c.index in ctx.ran for c, _ in reads)
    if early:
        cell, ref = early[0]
        more = f" (read in {_cells([c for c, _ in early])})" if len(early) > 1 else ""
        source = "it can only come from" if not proven else "it comes (a cell that read it ran without error) from"
        yield ctx.finding("ND102", cell, f"`{name}` is bound in no cell{more}; {source} `import *` / `%run` in "
                          f"{_where(src)}, which is below: Restart & Run All raises NameError here",
                          (name,), ref.line, ref.column)
        return
    if proven:
        return
    more = f" (read in {_cells([c for c, _ in reads])})" if len(reads) > 1 else ""
    failed = [(c, r) for c, r in reads if c.error_name == "NameError"]
    if failed:
        cell, ref = failed[0]
        yield ctx.finding("ND102", cell, f"`{name}` is bound in no cell{more}, and this cell's saved output is a "
                          f"NameError; `import *` / `%run` in {_where(src)} may not bind it", (name,),
                          ref.line, ref.column)
        return
    cell, ref = reads[0]
    yield ctx.finding("ND102", cell, f"`{name}` is bound in no cell{more}; it may come from `import *` / "
                      f"`%run` in {_where(src)}, which nbdeps cannot read", (name,), ref.line, ref.column)


def _may_bind(ctx: _Context, name: str) -> list[Cell]:
    """The cells that do not parse and hold `name` as a word: the only ones that could
    bind it in a form nbdeps cannot read."""
    word = re.compile(rf"(?<![\w.]){re.escape(name)}\b")
    return [ctx.cell(i) for i in ctx.unparsed if word.search(ctx.cell(i).source)]


def _undefined_in_called_functions(ctx: _Context) -> Iterator[Finding]:
    """ND101 for a function defined in one cell and called from another, when a global it
    reads is bound in no cell: the NameError comes from the calling cell."""
    deferred: dict[str, list[tuple[int, tuple]]] = defaultdict(list)
    for cell in ctx.code:
        for function, refs in ctx.infos[cell.index].deferred_reads:
            deferred[function].append((cell.index, refs))
    branches = {(cell.index, name): b for cell in ctx.code for name, b in ctx.infos[cell.index].branches}
    if not deferred:
        return
    # one finding per (function, definer, names), on the first cell that calls it
    calls: dict[tuple[str, int, tuple[str, ...]], list[tuple[Cell, NameRef]]] = defaultdict(list)
    for cell in ctx.code:
        for use in ctx.infos[cell.index].uses:
            for definer, refs in deferred.get(use.name, ()):
                if definer == cell.index:
                    continue
                skipped = _unreached_here(ctx.infos[cell.index], use.name, branches.get((definer, use.name)))
                missing = tuple(dict.fromkeys(r.name for r in refs if r.name not in skipped
                                              and not ctx.always(r.name) and r.name not in ctx.binders))
                if missing:
                    calls[(use.name, definer, missing)].append((cell, use))
    for (function, definer, missing), sites in calls.items():
        cell, use = sites[0]
        more = f" (also called in {_cells([c for c, _ in sites[1:]])})" if len(sites) > 1 else ""
        reads = f"`{function}`, defined in {_where(ctx.cell(definer))}, reads {_listed(missing)}"
        if ctx.unknown_cells:
            src = ctx.cell(ctx.unknown_cells[0])
            if any(c.ran_fine and c.index in ctx.ran for c, _ in sites):
                continue  # a call ran without error: `import *` / `%run` binds the names
            early = [(c, u) for c, u in sites if c.index < src.index]
            if early:
                cell, use = early[0]
                yield ctx.finding("ND102", cell, f"{reads}, which no cell binds{more}; `import *` / `%run` in "
                                  f"{_where(src)} is below: NameError when it is called here",
                                  missing, use.line, use.column)
            else:
                yield ctx.finding("ND102", cell, f"{reads}, which no cell binds{more}; it may come from "
                                  f"`import *` / `%run` in {_where(src)}, which nbdeps cannot read",
                                  missing, use.line, use.column)
            continue
        yield ctx.finding("ND101", cell, f"{reads}, which no cell defines: NameError when it is called "
                          f"here{more}", missing, use.line, use.column)


def _notebook_order(ctx: _Context) -> Iterator[Finding]:
    """ND201/ND202: what Restart & Run All meets, top to bottom. One finding per hazard (a
    name defined only below, a name deleted above), on the first cell it breaks, listing
    the other cells it breaks."""
    state: set[str] = set()
    deleted_by: dict[str, int] = {}
    star_above = False
    functions: dict[str, tuple] = {}
    # (code, name, definer or deleter) -> the cells it breaks, with the read and the function
    # called there that reads the name (None for a read of the cell itself)
    hazards: dict[tuple[str, str, int], list[tuple[Cell, NameRef, str | None]]] = defaultdict(list)
    for cell in ctx.code:
        info = ctx.infos[cell.index]
        reads = [(ref, None) for ref in info.uses] + _called_reads(info, functions)
        for ref, via in reads:
            name = ref.name
            if name in state or ctx.always(name) or star_above:
                continue
            others = [i for i in ctx.binders.get(name, ()) if i != cell.index]
            if not others:
                continue  # ND101 / ND102
            lower = [i for i in others if i > cell.index]
            if name in deleted_by and not lower:
                hazards[("ND202", name, deleted_by[name])].append((cell, ref, via))
            elif lower:
                hazards[("ND201", name, min(lower))].append((cell, ref, via))
        state |= info.defines
        for name in info.deletes - info.defines:
            state.discard(name)
            deleted_by[name] = cell.index
        _track_functions(info, functions)
        star_above = star_above or info.has_unknown_definitions
    yield from _order_findings(ctx, hazards)


def _order_findings(ctx: _Context, hazards: dict) -> Iterator[Finding]:
    """ND201/ND202 findings from the hazards, names sharing first cell and definer joined."""
    joined: dict[tuple[str, int, int], list[tuple[str, list]]] = defaultdict(list)
    for (code, name, other), sites in hazards.items():
        joined[(code, sites[0][0].index, other)].append((name, sites))
    for (code, first, other), entries in joined.items():
        cell, ref, _ = entries[0][1][0]
        names = tuple(name for name, _ in entries)
        d = ctx.cell(other)
        vias = sorted({via for _, sites in entries for c, _, via in sites if via and c.index == first})
        read = f" (read by {_listed(vias)}, called here)" if vias else ""
        later = sorted({c.index for _, sites in entries for c, _, _ in sites} - {first})
        more = f"; it also breaks {_cells([ctx.cell(i) for i in later])}" if later else ""
        if code == "ND202":
            ctx.deleted_reads.update((c.index, n) for n, sites in entries for c, _, _ in sites)
            yield ctx.finding("ND202", cell, f"{_listed(names)}{read} {_verb(names, 'is', 'are')} deleted by "
                              f"{_where(d)} above: Restart & Run All raises NameError here{more}",
                              names, ref.line, ref.column)
            continue
        if cell.index in ctx.ran and other in ctx.ran:
            tail = ("this worked in the session only because that cell ran first; Restart & Run All "
                    "raises NameError here")
        else:
            tail = "running the notebook top to bottom (Restart & Run All) raises NameError here"
        yield ctx.finding("ND201", cell, f"{_listed(names)}{read} {_verb(names, 'is', 'are')} defined only "
                          f"below, in {_where(d)}: {tail}{more}", names, ref.line, ref.column)


def _track_functions(info: CellInfo, functions: dict[str, tuple]) -> None:
    """Keep, per function name, the globals its latest definition reads when called (and
    the branches those reads depend on)."""
    for name in info.defines | info.deletes:
        functions.pop(name, None)
    branches = dict(info.branches)
    for name, refs in info.deferred_reads:
        functions[name] = (refs, branches.get(name))


def _unreached_here(info: CellInfo, function: str, branches) -> frozenset[str]:
    """The reads of `function` that no call of it in this cell reaches (decided branches)."""
    if branches is None:
        return frozenset()
    return unreached(branches, tuple(c for c in info.calls if c.function == function))


def _called_reads(info: CellInfo, functions: dict[str, tuple]) -> list[tuple[NameRef, str]]:
    """The globals read by functions (defined in other cells) that this cell calls, placed
    at the call (that is when they must be bound), each with the function read through.
    Reads on branches that the cell's calls decide against are left out."""
    reads = []
    for use in info.uses:
        refs, branches = functions.get(use.name, ((), None))
        skipped = _unreached_here(info, use.name, branches)
        for ref in refs:
            if ref.name not in info.defines and ref.name != use.name and ref.name not in skipped:
                reads.append((NameRef(name=ref.name, line=use.line, column=use.column), use.name))
    return reads


def _listed(names: Sequence[str]) -> str:
    quoted = [f"`{n}`" for n in names]
    return quoted[0] if len(quoted) == 1 else ", ".join(quoted[:-1]) + " and " + quoted[-1]


def _verb(names: Sequence[str], one: str, many: str) -> str:
    return one if len(names) == 1 else many


def _names(names: Sequence[str]) -> str:
    return f"{_listed(names)} {_verb(names, 'is', 'are')}"


def _live_history(ctx: _Context) -> Iterator[Finding]:
    """ND103-ND106, ND301, ND302: the live kernel session, in execution order. Only the
    last run of a cell is judged: its outputs are the ones saved."""
    live = ctx.hist.live
    if not live:
        return
    session = _Session(last={c.index: k for k, c in enumerate(live)})
    session.earlier = {c.index for s in ctx.hist.sessions[:-1] for c in s} - set(session.last)
    for step, cell in enumerate(live):
        info = ctx.infos[cell.index]
        # judged: the last run of a cell saved with a count (an uncounted cell taken as
        # run had its output cleared: what its last run met is unknown)
        if cell.index >= 0 and session.last[cell.index] == step and ctx.cell(cell.index).execution_count is not None:
            grouped = session.reads(ctx, cell, step)
            yield from _history_findings(ctx, cell, grouped)
            if any(code in ("ND103", "ND302") for code, _ in grouped):
                session.stale.add(cell.index)
            redefined = _redefined_after(ctx, cell, session.last)
            if redefined:
                session.stale.add(cell.index)
                yield redefined
        session.ran(cell.index, info)


@dataclass(slots=True)
class _Session:
    """The live session replayed run by run: what is bound, deleted, stale so far."""

    last: dict[int, int]  # cell -> step of its last run
    earlier: set[int] = field(default_factory=set)  # cells that ran only in older sessions
    state: dict[str, int] = field(default_factory=dict)  # name -> cell that last bound it
    deleted_by: dict[str, int] = field(default_factory=dict)
    stale: set[int] = field(default_factory=set)
    functions: dict[str, tuple] = field(default_factory=dict)
    unknown_ran: bool = False

    def ran(self, index: int, info: CellInfo) -> None:
        for name in info.defines:
            self.state[name] = index
        for name in info.deletes - info.defines:
            self.state.pop(name, None)
            self.deleted_by[name] = index
        _track_functions(info, self.functions)
        self.unknown_ran = self.unknown_ran or info.has_unknown_definitions

    def reads(self, ctx: _Context, cell: Cell, step: int) -> dict[tuple[str, int | None], list[NameRef]]:
        """The cell's reads at this run, grouped by (code, cell to name in the message)."""
        info = ctx.infos[cell.index]
        grouped: dict[tuple[str, int | None], list[NameRef]] = defaultdict(list)
        for ref in (*info.uses, *(r for r, _ in _called_reads(info, self.functions))):
            name = ref.name
            if ctx.always(name):
                continue
            if name in self.state:
                if self.state[name] in self.stale:
                    grouped[("ND302", self.state[name])].append(ref)
                continue
            others = [i for i in ctx.binders.get(name, ()) if i != cell.index]
            if not others or self.unknown_ran:
                continue
            later = [i for i in others if i in self.last and self.last[i] > step]
            if later:
                grouped[("ND103", min(later, key=self.last.get))].append(ref)
            elif cell.ran_fine:
                continue  # saved outputs without an error: its reads were bound when it ran
            elif name in self.deleted_by:
                grouped[("ND106", self.deleted_by[name])].append(ref)
            elif not any(i in ctx.ran for i in others):
                grouped[("ND104", None)].append(ref)
            elif any(i in self.earlier for i in others) and not any(i in ctx.hist.ran_unordered for i in others):
                grouped[("ND105", next(i for i in others if i in self.earlier))].append(ref)
        return grouped


def _history_findings(ctx: _Context, cell: Cell, grouped: dict) -> Iterator[Finding]:
    for (code, other), refs in grouped.items():
        saved = ctx.cell(cell.index)
        if code == "ND302" and saved.outputs_known and not saved.has_output:
            continue  # saved without any output: none is stale
        names = tuple(r.name for r in refs)
        where = _where(ctx.cell(other)) if other is not None and other >= 0 else "code no cell holds now"
        message = {
            "ND103": f"{_names(names)} defined by {where}, which last ran after this cell; it probably "
                     "ran before too (usual), but this cell's output may be stale",
            "ND104": f"{_names(names)} defined only in cells that never ran: in the live kernel this "
                     "raises NameError",
            "ND105": f"{_names(names)} defined only by {where}, which ran in an earlier kernel session: "
                     "the live kernel may not have it",
            "ND106": f"{_names(names)} deleted by {where}, which ran before this cell",
            "ND302": f"reads {_listed(names)} from {where}, which last ran on stale inputs: this cell's "
                     "outputs may be stale too",
        }[code]
        yield ctx.finding(code, cell, message, names, refs[0].line, refs[0].column)


def _redefined_after(ctx: _Context, cell: Cell, last: dict[int, int]) -> Finding | None:
    """ND301: an input of `cell` had a definer before it ran, and was rebound, or changed
    in place, after it ran by a cell above it: a fresh top-to-bottom run gives different
    outputs."""
    info = ctx.infos[cell.index]
    mine = last[cell.index]
    for ref in info.uses:
        binders = [i for i in ctx.binders.get(ref.name, ()) if i != cell.index and i in last]
        before = [i for i in binders if last[i] < mine]
        # a fresh run gives the reader the value of the nearest binder above it: a
        # redefinition further up that ran late is overwritten by it
        above = [i for i in ctx.binders.get(ref.name, ()) if i < cell.index]
        nearest = max(above, default=-1)
        after = [i for i in binders if last[i] > mine and i < cell.index and i == nearest]
        if before and after:
            d = ctx.cell(after[0])
            return ctx.finding("ND301", cell, f"`{ref.name}` was redefined by {_where(d)} after this cell "
                               "ran: its outputs are stale", (ref.name,), ref.line, ref.column)
        if before and cell.has_output:
            changed = [i for i in last if nearest < i < cell.index and last[i] > mine
                       and ref.name in ctx.infos[i].mutated_names - ctx.infos[i].defines]
            if changed:
                d = ctx.cell(changed[0])
                return ctx.finding("ND301", cell, f"`{ref.name}` was changed in place by {_where(d)} after "
                                   "this cell ran: its displayed output is stale", (ref.name,), ref.line,
                                   ref.column)
    return None


def _non_idempotent(ctx: _Context) -> Iterator[Finding]:
    for cell in ctx.code:
        for hazard in ctx.infos[cell.index].non_idempotent:
            yield ctx.finding("ND401", cell, f"not idempotent: {hazard.reason}", hazard.names,
                              hazard.line, hazard.column)


def _repeated_destructive(ctx: _Context, live: bool = True) -> Iterator[Finding]:
    """ND402: the same destructive operation applied twice to the same object.

    An object is followed through `x = f(x)` rebindings (its lineage), and a fresh
    binding `x = load()` starts a new one, as does an operation that undoes it
    (`reset_index` after `set_index`); the live session is checked first, then
    notebook order (which is what Restart & Run All does).
    """
    reported: set[tuple[int, str]] = set()
    passes = ((ctx.hist.live, "the live session"),) if live else ()
    for cells, label in (*passes, (tuple(ctx.code), "Restart & Run All")):
        lineage: dict[str, int] = {}
        applied: dict[tuple[str, str, int | None], int] = {}
        for step, cell in enumerate(cells):
            info = ctx.infos[cell.index]
            # in the live session, judge only runs whose outcome is unknown: a saved run
            # without error did not fail, an uncounted one had its output cleared
            judged = cell.index >= 0 and not (label == "the live session" and (
                ctx.cell(cell.index).ran_fine or ctx.cell(cell.index).execution_count is None))
            for hazard in info.non_idempotent:
                if not hazard.destructive or cell.index < 0:
                    continue
                name = hazard.names[0]
                key = (name, hazard.signature, lineage.get(name))
                first = applied.setdefault(key, cell.index)
                if first != cell.index and judged and (cell.index, hazard.signature) not in reported:
                    reported.add((cell.index, hazard.signature))
                    yield ctx.finding(
                        "ND402", cell,
                        f"`{hazard.signature}` already ran on this `{name}` in {_where(ctx.cell(first))} "
                        f"and `{name}` was not rebuilt since: in {label} this fails",
                        (name,), hazard.line, hazard.column)
            for name, method in info.undoes:
                for key in [k for k in applied if k[0] == name and _calls(k[1], name, method)]:
                    del applied[key]
            for name in info.defines - info.rebinds_from_self:
                lineage[name] = step


def _calls(signature: str, name: str, method: str) -> bool:
    return signature.startswith(f"{name}.{method}(")


def _count_anomalies(ctx: _Context) -> Iterator[Finding]:
    """ND501-ND504: unexecuted cells in between, skipped and repeated counts, disorder."""
    executed = [c for c in ctx.code if c.index in ctx.ran]
    if executed:
        first, last = executed[0].index, executed[-1].index
        for cell in ctx.code:
            if first < cell.index < last and cell.index not in ctx.ran and cell.source.strip():
                yield ctx.finding("ND501", cell, "never ran, but cells above and below it did")
    if len(ctx.hist.sessions) > 1:
        yield ctx.finding("ND503", None, f"execution counts repeat: {len(ctx.hist.sessions)} kernel sessions; "
                          "only the last is the live state")
    live = [c for c in ctx.hist.live if c.index >= 0]
    if not ctx.hist.exact:
        for prev, cell in zip(live, live[1:]):
            if cell.execution_count - prev.execution_count > 1:
                gap = range(prev.execution_count + 1, cell.execution_count)
                if len(gap) == 1:
                    text = f"execution count {gap[0]} is missing before this cell: a cell that ran was deleted, " \
                           "re-run or its output cleared"
                else:
                    text = f"execution counts {gap[0]}-{gap[-1]} are missing before this cell: cells that ran " \
                           "were deleted, re-run or their output cleared"
                yield ctx.finding("ND502", cell, text)
    disorder = next((c for p, c in zip(live, live[1:]) if c.index < p.index), None)
    if disorder is not None:
        yield ctx.finding("ND504", disorder, "ran after cells below it: the notebook ran out of order")


def _unknown_definitions(ctx: _Context) -> Iterator[Finding]:
    for index in ctx.unknown_cells:
        info = ctx.infos[index]
        sources = [f"from {m} import *" for m in info.star_imports] + list(info.hidden_sources)
        verb = "defines" if len(sources) == 1 else "define"
        yield ctx.finding("ND601", ctx.cell(index), f"`{'`, `'.join(sources)}` {verb} names nbdeps cannot list")


_RULES = (
    _syntax,
    _undefined_everywhere,
    _undefined_in_called_functions,
    _notebook_order,
    _live_history,
    _non_idempotent,
    _repeated_destructive,
    _count_anomalies,
    _unknown_definitions,
)
