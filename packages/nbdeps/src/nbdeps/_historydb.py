"""Exact execution history from IPython's history database (`history.sqlite`).

IPython records every execution of a kernel session: table `sessions` (one row per
kernel session) and `history(session, line, source, source_raw)` where `line` is the
execution count. The database is shared by every notebook run on the machine, so the
sessions of this notebook are picked by matching sources to cells: the live session is
the latest one in which most executions are cells of this notebook and some ran with the
count a cell was saved with; earlier sessions count when most of their executions are
cells of this notebook. An execution whose source no
cell holds now (a cell edited or deleted since) is kept, with a negative index, because
the names it bound are in the kernel.
"""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

from ._history import History
from ._model import Cell, Notebook
from .errors import NotebookError

__all__ = ["read_history"]


def read_history(path: str | os.PathLike[str], nb: Notebook) -> History:
    """The sessions of `nb` recorded in the IPython history database at `path`.

    Raises:
        NotebookError: the file is missing or not an IPython history database.
    """
    rows = _rows(Path(path))
    sessions: dict[int, list[tuple[int, str]]] = {}
    for session, line, source in rows:
        sessions.setdefault(session, []).append((line, source))
    code = [c for c in nb.cells if c.kind == "code"]
    by_source: dict[str, list[Cell]] = {}
    for cell in code:
        by_source.setdefault(_key(cell.source), []).append(cell)
    scores = {s: sum(1 for line, src in runs if any(c.execution_count == line for c in by_source.get(_key(src), ())))
              for s, runs in sessions.items()}
    if not scores or max(scores.values()) == 0:
        return History(sessions=(), exact=True)
    # the live session is the latest one that ran this notebook's cells with the counts
    # they were saved with (other notebooks' sessions share the database)
    ours = [s for s in sessions if scores[s] and _mostly_ours(sessions[s], by_source)]
    live = max(ours) if ours else max(scores, key=lambda s: (scores[s], s))
    chosen = [s for s in sorted(sessions) if s < live and _mostly_ours(sessions[s], by_source)] + [live]
    ghosts = 0
    result = []
    for session in chosen:
        runs = []
        for line, source in sorted(sessions[session]):
            cells = by_source.get(_key(source))
            if cells:
                # cells with the same source: the one saved with this count, else one that
                # ran (has a count), else the first
                match = min(cells, key=lambda c: (c.execution_count != line, c.execution_count is None))
                runs.append(match)
            elif source.strip():
                ghosts += 1
                runs.append(Cell(index=-ghosts, id=None, kind="code", source=source, execution_count=line))
        result.append(tuple(runs))
    return History(sessions=tuple(result), exact=True)


def _rows(path: Path) -> list[tuple[int, int, str]]:
    if not path.is_file():
        raise NotebookError(f"{path}: no such history database")
    try:
        con = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
        try:
            rows = con.execute("SELECT session, line, source_raw FROM history ORDER BY session, line").fetchall()
        finally:
            con.close()
    except sqlite3.Error as exc:
        raise NotebookError(f"{path}: not an IPython history database ({exc})") from None
    # rows another program wrote (text where IPython writes numbers) are left out
    return [(s, n, src) for s, n, src in rows
            if isinstance(s, int) and isinstance(n, int) and isinstance(src, str)]


def _mostly_ours(runs: list[tuple[int, str]], by_source: dict[str, list[Cell]]) -> bool:
    ours = sum(1 for _, src in runs if _key(src) in by_source)
    return ours * 2 >= len(runs) and ours > 0


def _key(source: str) -> str:
    return source.strip()
