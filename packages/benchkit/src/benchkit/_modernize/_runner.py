"""Run a notebook in a fresh real kernel under one wall-clock limit for the whole notebook.

The runner itself is nbpatch's (``nbpatch.run_notebook``, the one runner of the project):
a kernel in a session of its own, killed with its whole process group on expiry, execution
stopped at the first error as "Run All" does, the score evaluated in the same kernel after
a clean run. This module turns its result into the modernize loop's ``NotebookRun``.
"""

from __future__ import annotations

import os
import re

import nbpatch
from nbformat import NotebookNode
from nbpatch import traceback_lines

from ._model import CellRun, NotebookRun

__all__ = ["run_notebook", "traceback_lines", "KernelStartError"]


class KernelStartError(RuntimeError):
    """The kernel could not be started (no such kernel, or it died while starting)."""


def _summary(traceback: tuple[str, ...], limit: int = 1500) -> str:
    text = "\n".join(traceback)
    return text if len(text) <= limit else "...\n" + text[-limit:]


_ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")
# ``File /…/site-packages/pandas/core/groupby/groupby.py:2452, in GroupBy.mean(self, …)``
_FRAME = re.compile(r"File [^\n]*?[/\\](?:site|dist)-packages[/\\]([\w/\\.]+?)\.py:\d+, in "
                    r"([\w.<>]+)\(")


def frames(traceback: tuple[str, ...]) -> tuple[str, ...]:
    """The installed libraries' frames of a traceback, outermost first, as
    ``module:qualname`` (``pandas.core.groupby.groupby:GroupBy.mean``)."""
    found = []
    for part in traceback:
        for match in _FRAME.finditer(_ANSI.sub("", part)):
            module = re.sub(r"[/\\]", ".", match.group(1)).removesuffix(".__init__")
            found.append(f"{module}:{match.group(2)}")
    return tuple(dict.fromkeys(found))


def _cell(cell: nbpatch.CellRun) -> CellRun:
    if cell.status == "timeout":  # the loop's timeout rows carry no exception
        return CellRun(index=cell.index, status="timeout", elapsed_s=cell.elapsed_s)
    return CellRun(index=cell.index, status=cell.status, ename=cell.ename,
                   evalue=cell.evalue[:2000] if cell.evalue is not None else None,
                   traceback=_summary(cell.traceback), lines=cell.lines,
                   elapsed_s=cell.elapsed_s, frames=frames(tuple(cell.traceback))[:40])


def run_notebook(nb: NotebookNode, *, cwd: str | os.PathLike[str], timeout: float,
                 total_timeout: float | None = None, score: str | None = None,
                 kernel_name: str = "python3",
                 startup_timeout: float = 60.0) -> tuple[NotebookRun, NotebookNode]:
    """Run ``nb``'s code cells in a fresh kernel, at most ``timeout`` seconds a cell and
    ``total_timeout`` (``None``: no limit) in all.

    Returns the run (per cell: ok / error / timeout / not-run, and the score) and the
    notebook with this run's outputs. Raises ``KernelStartError`` when no kernel starts.
    """
    try:
        run = nbpatch.run_notebook(nb, cwd=cwd, timeout=timeout, total_timeout=total_timeout,
                                   score=score, kernel_name=kernel_name,
                                   startup_timeout=startup_timeout)
    except nbpatch.RunError as exc:
        raise KernelStartError(str(exc)) from None
    cells = tuple(_cell(c) for c in run.cells)
    clean = not run.timed_out and all(c.status == "ok" for c in cells)
    return NotebookRun(cells=cells, timed_out=run.timed_out, elapsed_s=run.elapsed_s,
                       score=run.score if clean else None,
                       score_error=run.score_error if clean else None), run.notebook
