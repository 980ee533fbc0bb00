"""Execution history from execution counts: run order and kernel sessions.

A saved notebook keeps only each cell's last execution count, so the history is
inferred:

* a count of 0 (Colab saves it for cells without output) says the cell ran, not when;
* cells without a count sitting in a gap of the counts of exactly their number (their
  output was cleared) are taken to have run with the missing counts;
* repeated counts: a cell and its copy (same source) share the count they were copied
  with; two different cells with the same count may mean a kernel restart (every session
  counts from 1), but one such pair is as often a copied cell edited afterwards, so a
  restart is inferred only from two or more repeated counts. The cells are then split into
  sessions as chains of increasing counts: at a repeated count the cell lower in the
  notebook is taken to belong to the later session (people mostly re-run from the top
  after a restart), and every other cell joins the session whose previous cell sits
  nearest above it. Sessions are ordered by the lowest cell they reach, so the live
  session (the kernel state now) is the one that reaches furthest down the notebook.

With IPython's history database (`_historydb`), the sessions are read instead: exact,
with every run of a cell in order (a cell may then appear more than once).
"""

from __future__ import annotations

import dataclasses
from collections import defaultdict
from dataclasses import dataclass

from ._model import Cell, Notebook

__all__ = ["History", "history"]


@dataclass(frozen=True, slots=True, kw_only=True)
class History:
    """The executed code cells of a notebook grouped into kernel sessions."""

    sessions: tuple[tuple[Cell, ...], ...]  # each in execution order; last = live
    exact: bool = False  # read from IPython's history database: every run, in order
    ran_unordered: frozenset[int] = frozenset()  # ran, but when is unknown (count 0)
    inferred: frozenset[int] = frozenset()  # no saved count, taken as run (count gap)

    @property
    def live(self) -> tuple[Cell, ...]:
        """The runs of the live (last) session, in execution order."""
        return self.sessions[-1] if self.sessions else ()

    @property
    def executed(self) -> tuple[Cell, ...]:
        """Every executed cell, oldest session first."""
        return tuple(c for s in self.sessions for c in s)

    @property
    def ran(self) -> frozenset[int]:
        """The indices of every cell known or inferred to have run."""
        return frozenset(c.index for c in self.executed) | self.ran_unordered

    def session_of(self, index: int) -> int | None:
        """The session number of cell `index`, or None when it never ran."""
        for number, session in enumerate(self.sessions):
            if any(c.index == index for c in session):
                return number
        return None


def history(nb: Notebook) -> History:
    """Split the executed code cells of `nb` into kernel sessions (see module docstring)."""
    code = [c for c in nb.cells if c.kind == "code"]
    zero = frozenset(c.index for c in code if c.execution_count == 0)
    filled = _fill_gaps(code)
    executed = [filled.get(c.index, c) for c in code
                if (c.execution_count or 0) > 0 or c.index in filled]
    inferred = frozenset(filled)
    if not executed:
        return History(sessions=(), ran_unordered=zero)
    by_count: dict[int, list[Cell]] = defaultdict(list)
    for cell in executed:
        by_count[cell.execution_count].append(cell)
    repeated = [v for v, cells in by_count.items() if len({c.source for c in cells}) > 1]
    if len(repeated) < 2:
        ordered = tuple(sorted(executed, key=lambda c: (c.execution_count, c.index)))
        return History(sessions=(ordered,), ran_unordered=zero, inferred=inferred)
    chains: list[list[Cell]] = []
    for cell in sorted(executed, key=lambda c: (c.execution_count, c.index)):
        open_chains = [ch for ch in chains if ch[-1].execution_count < cell.execution_count]
        if not open_chains:
            chains.append([cell])
            continue
        # continue the chain whose last cell sits nearest above (else nearest below)
        above = [ch for ch in open_chains if ch[-1].index < cell.index]
        pool = above or open_chains
        best = min(pool, key=lambda ch: abs(cell.index - ch[-1].index))
        best.append(cell)
    ordered_chains = sorted(chains, key=lambda ch: max(c.index for c in ch))
    return History(sessions=tuple(tuple(ch) for ch in ordered_chains), ran_unordered=zero,
                   inferred=inferred)


def _fill_gaps(code: list[Cell]) -> dict[int, Cell]:
    """Uncounted cells between two counted ones whose counts leave a gap of exactly their
    number, with the missing counts given to them in notebook order."""
    counts = [c.execution_count for c in code if (c.execution_count or 0) > 0]
    if not counts:
        return {}
    taken = set(counts)
    filled: dict[int, Cell] = {}
    previous: Cell | None = None
    waiting: list[Cell] = []
    for cell in code:
        count = cell.execution_count
        if count is None:
            if previous is not None and cell.source.strip():
                waiting.append(cell)
            continue
        if count == 0:  # ran at an unknown time: the gap is no longer exact
            previous, waiting = None, []
            continue
        if previous is not None and waiting:
            gap = range(previous.execution_count + 1, count)
            if len(gap) == len(waiting) and not taken.intersection(gap):
                for value, uncounted in zip(gap, waiting):
                    filled[uncounted.index] = dataclasses.replace(uncounted, execution_count=value)
        previous, waiting = cell, []
    return filled
