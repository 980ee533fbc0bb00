"""Notebook-level jobs: replay the executed cells in a kernel, then predict a target."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ._engines import check_engines
from ._kernel import KernelSession
from ._model import CheckResult, WalkResult, WalkStep
from .errors import CellNotFoundError, NotebookReadError, ReplayError

__all__ = ["check_notebook", "walk_notebook", "read_code_cells", "plan_check", "CodeCell"]

Progress = Callable[[str], None] | None


@dataclass(frozen=True, slots=True, kw_only=True)
class CodeCell:
    """A code cell as the checker needs it."""

    index: int  # position in the notebook's cell list
    id: str | None
    source: str
    execution_count: int | None
    has_error: bool


def read_code_cells(path: Path | str) -> tuple[CodeCell, ...]:
    """The code cells of a notebook file; raises NotebookReadError naming the file."""
    import nbformat
    path = Path(path)
    try:
        nb = nbformat.read(str(path), as_version=4)
    except FileNotFoundError as exc:
        raise NotebookReadError(f"{path}: no such file") from exc
    except Exception as exc:
        raise NotebookReadError(f"{path}: not a readable notebook ({type(exc).__name__}: "
                                f"{exc})") from exc
    cells = []
    for index, cell in enumerate(nb.get("cells", [])):
        if cell.get("cell_type") != "code":
            continue
        source = cell.get("source", "")
        if isinstance(source, list):
            source = "".join(source)
        cells.append(CodeCell(
            index=index, id=cell.get("id"), source=source,
            execution_count=cell.get("execution_count"),
            has_error=any(o.get("output_type") == "error" for o in cell.get("outputs", []))))
    return tuple(cells)


def _find(cells: Sequence[CodeCell], cell: str | int, path: Path) -> CodeCell:
    for c in cells:
        if c.id is not None and str(cell) == c.id:
            return c
    try:
        index = int(cell)
    except (TypeError, ValueError):
        index = None
    for c in cells:
        if index is not None and c.index == index:
            return c
    raise CellNotFoundError(f"{path}: no code cell with id or index {cell!r}")


def plan_check(cells: Sequence[CodeCell], *, cell: str | int | None, order: str,
               path: Path) -> tuple[CodeCell, tuple[CodeCell, ...]]:
    """Choose the target cell and the cells to replay before it."""
    if order not in ("history", "notebook"):
        raise ValueError(f"order must be 'history' or 'notebook', not {order!r}")
    executed = [c for c in cells if c.execution_count is not None]
    if cell is not None:
        target = _find(cells, cell, path)
    else:
        errors = [c for c in cells if c.has_error]
        if errors:
            target = errors[0]
        else:
            last = max(executed, key=lambda c: c.execution_count or 0, default=None)
            after = [c for c in cells if last is None or c.index > last.index]
            if not after:
                raise CellNotFoundError(f"{path}: every code cell has run; choose a target "
                                        f"with --cell")
            target = after[0]
    if order == "history":
        before = [c for c in executed if c is not target and (
            target.execution_count is None or (c.execution_count or 0) < target.execution_count)]
        before.sort(key=lambda c: c.execution_count or 0)
    else:
        before = [c for c in executed if c.index < target.index]
    return target, tuple(before)


def _replay(kernel: KernelSession, cells: Sequence[CodeCell], progress: Progress) -> None:
    for n, c in enumerate(cells, 1):
        if progress:
            progress(f"replaying cell {c.index} ({n}/{len(cells)})")
        run = kernel.run(c.source)
        if not run.ok:
            raise ReplayError(f"replay failed at cell {c.index}: {run.ename}: "
                              f"{_first_line(run.evalue)}")


def _first_line(text: str | None) -> str:
    return (text or "").strip().splitlines()[0] if (text or "").strip() else ""


def check_notebook(path: Path | str, *, cell: str | int | None = None,
                   order: str = "history", engines: Sequence[str] = ("rules",),
                   timeout: float = 600, progress: Progress = None,
                   options: Mapping[str, Mapping[str, Any]] | None = None) -> CheckResult:
    """Replay a notebook's executed cells in a real kernel, then predict its target cell.

    Args:
        path: the notebook; the kernel runs in its folder.
        cell: the target's cell id or index; default: the cell with an error output,
            else the first code cell after the replayed ones.
        order: "history" (execution-count order) or "notebook" (cell order).
        engines: engine names.
        timeout: seconds allowed per cell.
        progress: called with a short message before each step.
        options: per-engine options (see `crashpredict.predict`).

    Raises:
        NotebookReadError, CellNotFoundError, UnknownEngineError, KernelError, ReplayError.
    """
    path = Path(path)
    names = check_engines(engines)
    target, before = plan_check(read_code_cells(path), cell=cell, order=order, path=path)
    with KernelSession(path.resolve().parent, timeout=timeout) as kernel:
        _replay(kernel, before, progress)
        if progress:
            progress(f"predicting cell {target.index}")
        verdict = kernel.predict(target.source, names, options=options)
    return CheckResult(path=str(path), target_index=target.index, target_id=target.id,
                       target_source=target.source, replayed=tuple(c.index for c in before),
                       verdict=verdict)


def walk_notebook(path: Path | str, *, order: str = "notebook",
                  engines: Sequence[str] = ("rules",), timeout: float = 600,
                  progress: Progress = None,
                  options: Mapping[str, Mapping[str, Any]] | None = None) -> WalkResult:
    """Predict each code cell, then run it, and record predicted against actual.

    ``order="notebook"`` walks every code cell top to bottom; ``"history"`` walks the
    executed cells in execution-count order. A failing cell does not stop the walk.
    """
    path = Path(path)
    names = check_engines(engines)
    cells = read_code_cells(path)
    if order == "history":
        walk = sorted((c for c in cells if c.execution_count is not None),
                      key=lambda c: c.execution_count or 0)
    elif order == "notebook":
        walk = list(cells)
    else:
        raise ValueError(f"order must be 'history' or 'notebook', not {order!r}")
    steps: list[WalkStep] = []
    with KernelSession(path.resolve().parent, timeout=timeout) as kernel:
        for n, c in enumerate(walk, 1):
            if progress:
                progress(f"cell {c.index} ({n}/{len(walk)})")
            verdict = kernel.predict(c.source, names, options=options)
            actual = kernel.run(c.source)
            steps.append(WalkStep(index=c.index, cell_id=c.id, verdict=verdict, actual=actual))
    return WalkResult(path=str(path), steps=tuple(steps))


