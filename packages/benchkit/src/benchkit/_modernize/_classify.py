"""Classify a round: timeout, error (which cell, which exception), score deviation, reproduced."""

from __future__ import annotations

from ._model import Classification, ModernizeSettings, NotebookRun

__all__ = ["classify", "score_deviates", "cell_label"]


def cell_label(index: int, execution_count: int | None = None) -> str:
    """``cell 59 [17]``: the 1-based position counting every cell (as crashpredict and
    nbpatch name cells) and the execution count JupyterLab shows, from a 0-based index."""
    return f"cell {index + 1}" + (f" [{execution_count}]" if execution_count is not None else "")


def score_deviates(score: float, target: float, tolerance: float) -> bool:
    """True when ``score`` is off ``target`` by more than ``tolerance`` relative to the target
    (absolute when the target is 0)."""
    scale = abs(target) if target else 1.0
    return abs(score - target) > tolerance * scale


def classify(run: NotebookRun, settings: ModernizeSettings) -> Classification:
    """The problem this run shows, if any; ``reproduced`` when none.

    Without ``target_score`` a clean run is reproduced; with it, the score expression must
    evaluate to a number within ``tolerance`` of the target.
    """
    failed = run.failed
    # a run stops at its first error, so a cell's execution count is its code cell number
    count = run.cells.index(failed) + 1 if failed is not None else None
    if run.timed_out:
        where = f" in {cell_label(failed.index, count)}" if failed is not None else ""
        return Classification(kind="timeout", cell=failed.index if failed else None,
                              execution_count=count,
                              message=f"stopped after {settings.timeout:g} s{where}")
    if failed is not None:
        return Classification(kind="error", cell=failed.index, execution_count=count,
                              ename=failed.ename, evalue=failed.evalue, lines=failed.lines,
                              message=f"{cell_label(failed.index, count)}: {failed.ename}: "
                                      f"{_first_line(failed.evalue)}")
    if settings.target_score is None:
        return Classification(kind="reproduced", message="ran to the end", score=run.score)
    target = settings.target_score
    if run.score is None:
        return Classification(kind="score", target=target,
                              message=f"score {settings.score!r} not available: {run.score_error}")
    if score_deviates(run.score, target, settings.tolerance):
        change = abs(run.score - target) / (abs(target) or 1.0)
        return Classification(kind="score", score=run.score, target=target,
                              message=f"score {run.score:.6g} is {change:.1%} off the target "
                                      f"{target:.6g} (tolerance {settings.tolerance:.1%})")
    return Classification(kind="reproduced", score=run.score, target=target,
                          message=f"score {run.score:.6g} within {settings.tolerance:.1%} of "
                                  f"{target:.6g}")


def _first_line(text: str | None) -> str:
    lines = (text or "").strip().splitlines()
    return lines[0] if lines else ""
