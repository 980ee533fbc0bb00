"""Findings: names that are undefined now or on a fresh run, stale and non-idempotent
cells, repeated destructive operations, and execution-count anomalies.

Codes are stable; docs/nbdeps.md has the table. Each check is a function from the
prepared `_Context` to findings, so the list of checks reads as the list of codes.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field

from ._graph import cell_infos
from ._history import History, history
from ._load import NotebookSource, load_notebook
from ._model import Cell, CellInfo, Finding, Notebook, Severity
from ._names import is_always_defined

__all__ = ["CODES", "TOP_TO_BOTTOM_CODES", "check"]

# code -> (severity, short name, what it means); the docs table is generated from this
CODES: dict[str, tuple[Severity, str, str]] = {
    "ND001": ("error", "syntax-error", "the cell does not parse, even after IPython's transformation"),
    "ND101": ("error", "undefined-name", "a name no cell of the notebook binds: NameError on a fresh run (deleted cell or hidden state)"),
    "ND102": ("warning", "maybe-star-name", "a name no cell binds, possibly from `import *` or `%run`"),
    "ND103": ("info", "definer-reran", "the definer last ran after this reader (it usually ran before too: benign); the output may be stale"),
    "ND104": ("error", "defined-only-in-unrun", "used in the live session, but defined only in cells that never ran: NameError now"),
    "ND105": ("warning", "defined-in-old-session", "used in the live session, but defined only by cells run in an earlier kernel session"),
    "ND106": ("warning", "deleted-before-use", "a cell that ran earlier in the live session deleted the name"),
    "ND201": ("warning", "defined-below", "the only definers sit below the reader: works through history, fails on Restart & Run All"),
    "ND202": ("warning", "deleted-above", "a cell above deletes the name: Restart & Run All raises NameError"),
    "ND301": ("info", "stale-output", "an input was redefined after the cell last ran: its outputs are stale"),
    "ND302": ("info", "stale-downstream", "reads a name from a stale cell"),
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
) -> tuple[Finding, ...]:
    """Report the dependency and execution-history hazards of a notebook.

    Args:
        src: anything `load_notebook` reads.
        select: keep only findings whose code starts with one of these (e.g. "ND1").
        ignore: drop findings whose code starts with one of these.

    Returns:
        Findings sorted by cell, line and code.

    Raises:
        NotebookError: unreadable input.

    Example:
        >>> [f.code for f in check([("print(X)", 1)])]
        ['ND101']
    """
    nb = load_notebook(src)
    ctx = _Context.of(nb)
    findings: list[Finding] = []
    for rule in _RULES:
        findings.extend(rule(ctx))
    keep = tuple(select or ())
    drop = tuple(ignore or ())
    findings = [
        f for f in findings
        if (not keep or f.code.startswith(keep)) and not (drop and f.code.startswith(drop))
    ]
    findings.sort(key=lambda f: (f.cell_index if f.cell_index is not None else -1, f.line or 0, f.code))
    return tuple(findings)


@dataclass(slots=True)
class _Context:
    nb: Notebook
    infos: dict[int, CellInfo]
    code: list[Cell]
    hist: History
    binders: dict[str, list[int]] = field(default_factory=dict)  # name -> cells binding it
    unknown_cells: list[int] = field(default_factory=list)  # `import *`, `%run`

    @classmethod
    def of(cls, nb: Notebook) -> _Context:
        infos = cell_infos(nb)
        ctx = cls(nb=nb, infos=infos, code=list(nb.code_cells), hist=history(nb))
        binders: dict[str, list[int]] = defaultdict(list)
        for cell in ctx.code:
            for name in infos[cell.index].defines:
                binders[name].append(cell.index)
            if infos[cell.index].has_unknown_definitions:
                ctx.unknown_cells.append(cell.index)
        ctx.binders = dict(binders)
        return ctx

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
        )


def _where(cell: Cell) -> str:
    count = "never ran" if cell.execution_count is None else f"[{cell.execution_count}]"
    return f"cell {cell.index} {count}"


def _syntax(ctx: _Context) -> Iterator[Finding]:
    for cell in ctx.code:
        issue = ctx.infos[cell.index].syntax_error
        if issue is None:
            continue
        hint = " (Python 2 code?)" if "Missing parentheses" in issue.message or "print" in issue.message else ""
        yield ctx.finding("ND001", cell, f"does not parse: {issue.message}{hint}; the cell is left out of the analysis",
                          line=issue.line, column=issue.column)


def _undefined_everywhere(ctx: _Context) -> Iterator[Finding]:
    """ND101/ND102: names that no cell binds (or only the reader, after reading)."""
    for cell in ctx.code:
        for ref in ctx.infos[cell.index].uses:
            if is_always_defined(ref.name):
                continue
            others = [i for i in ctx.binders.get(ref.name, ()) if i != cell.index]
            if others:
                continue
            own = cell.index in ctx.binders.get(ref.name, ())
            if ctx.unknown_cells:
                src = ctx.cell(ctx.unknown_cells[0])
                yield ctx.finding("ND102", cell, f"`{ref.name}` is bound in no cell; it may come from "
                                  f"`import *` / `%run` in {_where(src)}", (ref.name,), ref.line, ref.column)
                continue
            reason = ("read before this cell binds it, and no other cell binds it" if own
                      else "defined in no cell of the notebook (deleted cell or hidden state)")
            yield ctx.finding("ND101", cell, f"`{ref.name}` is {reason}: NameError on a fresh run",
                              (ref.name,), ref.line, ref.column)


def _undefined_in_called_functions(ctx: _Context) -> Iterator[Finding]:
    """ND101 for a function defined in one cell and called from another, when a global it
    reads is bound in no cell: the NameError comes from the calling cell."""
    deferred: dict[str, list[tuple[int, tuple]]] = defaultdict(list)
    for cell in ctx.code:
        for function, refs in ctx.infos[cell.index].deferred_reads:
            deferred[function].append((cell.index, refs))
    if not deferred or ctx.unknown_cells:
        return
    for cell in ctx.code:
        for use in ctx.infos[cell.index].uses:
            for definer, refs in deferred.get(use.name, ()):
                if definer == cell.index:
                    continue
                missing = tuple(r.name for r in refs
                                if not is_always_defined(r.name) and r.name not in ctx.binders)
                if missing:
                    yield ctx.finding("ND101", cell, f"`{use.name}` (defined in {_where(ctx.cell(definer))}) reads "
                                      f"{_names(missing)} defined in no cell: NameError when called here",
                                      missing, use.line, use.column)


def _notebook_order(ctx: _Context) -> Iterator[Finding]:
    """ND201/ND202: what Restart & Run All meets, top to bottom."""
    state: set[str] = set()
    deleted_by: dict[str, int] = {}
    star_above = False
    for cell in ctx.code:
        info = ctx.infos[cell.index]
        below: dict[int, list] = defaultdict(list)
        for ref in info.uses:
            name = ref.name
            if name in state or is_always_defined(name) or star_above:
                continue
            others = [i for i in ctx.binders.get(name, ()) if i != cell.index]
            if not others:
                continue  # ND101 / ND102
            lower = [i for i in others if i > cell.index]
            if name in deleted_by and not lower:
                d = ctx.cell(deleted_by[name])
                yield ctx.finding("ND202", cell, f"`{name}` is deleted by {_where(d)} above: Restart & Run All "
                                  "raises NameError here", (name,), ref.line, ref.column)
            elif lower:
                below[min(lower)].append(ref)
        for definer, refs in below.items():
            d = ctx.cell(definer)
            names = tuple(r.name for r in refs)
            yield ctx.finding("ND201", cell, f"{_names(names)} defined only below, in {_where(d)}: works through "
                              "execution history, fails on Restart & Run All", names, refs[0].line, refs[0].column)
        state |= info.defines
        for name in info.deletes - info.defines:
            state.discard(name)
            deleted_by[name] = cell.index
        star_above = star_above or info.has_unknown_definitions


def _names(names: Sequence[str]) -> str:
    listed = ", ".join(f"`{n}`" for n in names)
    return f"{listed} is" if len(names) == 1 else f"{listed} are"


def _live_history(ctx: _Context) -> Iterator[Finding]:
    """ND103-ND106, ND301, ND302: the live kernel session, in execution order."""
    live = ctx.hist.live
    if not live:
        return
    count = {c.index: c.execution_count for c in live}
    earlier = {c.index for s in ctx.hist.sessions[:-1] for c in s} - set(count)
    state: dict[str, int] = {}  # name -> cell that last bound it in this session
    deleted_by: dict[str, int] = {}
    unknown_ran = False
    stale: set[int] = set()
    for cell in live:
        info = ctx.infos[cell.index]
        grouped: dict[tuple[str, int | None], list] = defaultdict(list)
        for ref in info.uses:
            name = ref.name
            if is_always_defined(name):
                continue
            if name in state:
                if state[name] in stale:
                    grouped[("ND302", state[name])].append(ref)
                continue
            others = [i for i in ctx.binders.get(name, ()) if i != cell.index]
            if not others or unknown_ran:
                continue
            later = [i for i in others if i in count and count[i] > cell.execution_count]
            if later:
                grouped[("ND103", min(later, key=count.get))].append(ref)
            elif name in deleted_by:
                grouped[("ND106", deleted_by[name])].append(ref)
            elif all(ctx.cell(i).execution_count is None for i in others):
                grouped[("ND104", None)].append(ref)
            elif any(i in earlier for i in others):
                grouped[("ND105", next(i for i in others if i in earlier))].append(ref)
        yield from _history_findings(ctx, cell, grouped)
        if any(code in ("ND103", "ND302") for code, _ in grouped):
            stale.add(cell.index)
        redefined = _redefined_after(ctx, cell, count)
        if redefined:
            stale.add(cell.index)
            yield redefined
        for name in info.defines:
            state[name] = cell.index
        for name in info.deletes - info.defines:
            state.pop(name, None)
            deleted_by[name] = cell.index
        unknown_ran = unknown_ran or info.has_unknown_definitions


def _history_findings(ctx: _Context, cell: Cell, grouped: dict) -> Iterator[Finding]:
    for (code, other), refs in grouped.items():
        names = tuple(r.name for r in refs)
        where = _where(ctx.cell(other)) if other is not None else ""
        message = {
            "ND103": f"{_names(names)} defined by {where}, which last ran after this cell; it probably "
                     "ran before too (usual), but this cell's output may be stale",
            "ND104": f"{_names(names)} defined only in cells that never ran: in the live kernel this "
                     "raises NameError",
            "ND105": f"{_names(names)} defined only by {where}, which ran in an earlier kernel session: "
                     "the live kernel may not have it",
            "ND106": f"{_names(names)} deleted by {where}, which ran before this cell",
            "ND302": f"reads {', '.join(f'`{n}`' for n in names)} from {where}, whose outputs are stale",
        }[code]
        yield ctx.finding(code, cell, message, names, refs[0].line, refs[0].column)


def _redefined_after(ctx: _Context, cell: Cell, count: dict[int, int]) -> Finding | None:
    """ND301: an input of `cell` had a definer before it ran, and was rebound after it
    ran by a cell above it, so a fresh top-to-bottom run gives different outputs."""
    info = ctx.infos[cell.index]
    for ref in info.uses:
        binders = [i for i in ctx.binders.get(ref.name, ()) if i != cell.index and i in count]
        before = [i for i in binders if count[i] < cell.execution_count]
        after = [i for i in binders if count[i] > cell.execution_count and i < cell.index]
        if before and after:
            d = ctx.cell(after[0])
            return ctx.finding("ND301", cell, f"`{ref.name}` was redefined by {_where(d)} after this cell "
                               "ran: its outputs are stale", (ref.name,), ref.line, ref.column)
    return None


def _non_idempotent(ctx: _Context) -> Iterator[Finding]:
    for cell in ctx.code:
        for hazard in ctx.infos[cell.index].non_idempotent:
            yield ctx.finding("ND401", cell, f"not idempotent: {hazard.reason}", hazard.names,
                              hazard.line, hazard.column)


def _repeated_destructive(ctx: _Context) -> Iterator[Finding]:
    """ND402: the same destructive operation applied twice to the same object.

    An object is followed through `x = f(x)` rebindings (its lineage), and a fresh
    binding `x = load()` starts a new one; the live session is checked first, then
    notebook order (which is what Restart & Run All does).
    """
    reported: set[tuple[int, str]] = set()
    for cells, label in ((ctx.hist.live, "the live session"), (tuple(ctx.code), "Restart & Run All")):
        lineage: dict[str, int] = {}
        applied: dict[tuple[str, str, int | None], int] = {}
        for cell in cells:
            info = ctx.infos[cell.index]
            for hazard in info.non_idempotent:
                if not hazard.destructive:
                    continue
                name = hazard.names[0]
                key = (name, hazard.signature, lineage.get(name))
                first = applied.setdefault(key, cell.index)
                if first != cell.index and (cell.index, hazard.signature) not in reported:
                    reported.add((cell.index, hazard.signature))
                    yield ctx.finding(
                        "ND402", cell,
                        f"`{hazard.signature}` already ran on this `{name}` in {_where(ctx.cell(first))} "
                        f"and `{name}` was not rebuilt since: in {label} this fails",
                        (name,), hazard.line, hazard.column)
            for name in info.defines - info.rebinds_from_self:
                lineage[name] = cell.index


def _count_anomalies(ctx: _Context) -> Iterator[Finding]:
    """ND501-ND504: unexecuted cells in between, skipped and repeated counts, disorder."""
    executed = [c for c in ctx.code if c.execution_count is not None]
    if executed:
        first, last = executed[0].index, executed[-1].index
        for cell in ctx.code:
            if first < cell.index < last and cell.execution_count is None and cell.source.strip():
                yield ctx.finding("ND501", cell, "never ran, but cells above and below it did")
    if len(ctx.hist.sessions) > 1:
        yield ctx.finding("ND503", None, f"execution counts repeat: {len(ctx.hist.sessions)} kernel sessions; "
                          "only the last is the live state")
    live = ctx.hist.live
    for prev, cell in zip(live, live[1:]):
        if cell.execution_count - prev.execution_count > 1:
            gap = range(prev.execution_count + 1, cell.execution_count)
            shown = f"{gap[0]}" if len(gap) == 1 else f"{gap[0]}-{gap[-1]}"
            yield ctx.finding("ND502", cell, f"execution count {shown} missing before this cell: a cell that ran "
                              "was deleted, re-run or its output cleared")
    disorder = next((c for p, c in zip(live, live[1:]) if c.index < p.index), None)
    if disorder is not None:
        yield ctx.finding("ND504", disorder, "ran after cells below it: the notebook ran out of order")


def _unknown_definitions(ctx: _Context) -> Iterator[Finding]:
    for index in ctx.unknown_cells:
        info = ctx.infos[index]
        sources = [f"from {m} import *" for m in info.star_imports] + list(info.hidden_sources)
        yield ctx.finding("ND601", ctx.cell(index), f"`{'`, `'.join(sources)}` defines names nbdeps cannot list")


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
