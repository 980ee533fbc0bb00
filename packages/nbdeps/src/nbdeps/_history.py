"""Execution history from execution counts: run order and kernel sessions.

A saved notebook keeps only each cell's last execution count. Counts that repeat mean the
kernel restarted (every session counts from 1). The cells are split into sessions as
chains of increasing counts: at a repeated count, the cell lower in the notebook is taken
to belong to the later session (people mostly re-run from the top after a restart), and
every other cell joins the session whose previous cell sits nearest above it. Sessions are
ordered by the lowest cell they reach, so the live session (the kernel state now) is the
one that reaches furthest down the notebook. Without repeated counts there is one session.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from ._model import Cell, Notebook

__all__ = ["History", "history"]


@dataclass(frozen=True, slots=True, kw_only=True)
class History:
    """The executed code cells of a notebook grouped into kernel sessions."""

    sessions: tuple[tuple[Cell, ...], ...]  # each sorted by execution count; last = live

    @property
    def live(self) -> tuple[Cell, ...]:
        """The cells of the live (last) session, in execution order."""
        return self.sessions[-1] if self.sessions else ()

    @property
    def executed(self) -> tuple[Cell, ...]:
        """Every executed cell, oldest session first."""
        return tuple(c for s in self.sessions for c in s)

    def session_of(self, index: int) -> int | None:
        """The session number of cell `index`, or None when it never ran."""
        for number, session in enumerate(self.sessions):
            if any(c.index == index for c in session):
                return number
        return None


def history(nb: Notebook) -> History:
    """Split the executed code cells of `nb` into kernel sessions (see module docstring)."""
    executed = [c for c in nb.cells if c.kind == "code" and c.execution_count is not None]
    if not executed:
        return History(sessions=())
    counts = Counter(c.execution_count for c in executed)
    if max(counts.values()) == 1:
        return History(sessions=(tuple(sorted(executed, key=lambda c: c.execution_count)),))
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
    ordered = sorted(chains, key=lambda ch: max(c.index for c in ch))
    return History(sessions=tuple(tuple(ch) for ch in ordered))
