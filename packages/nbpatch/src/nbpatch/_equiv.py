"""``equivalent``: run two versions of a notebook in fresh kernels and say what differs."""

from __future__ import annotations

import json
import math
import os
import statistics
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from ._align import align
from ._kernel import Run, run_notebook
from ._normalize import facts_match, output_texts, texts_match
from ._notebook import NotebookLike, as_notebook, cell_keys
from ._stats import one_sample_t_test

__all__ = ["Difference", "ScoreCheck", "Equivalence", "equivalent"]

DifferenceKind = Literal["output", "error", "removed", "added", "variable", "score"]
ALPHA = 0.05


@dataclass(frozen=True, slots=True, kw_only=True)
class Difference:
    """One thing that differs between the original (a) and the modified (b) version.

    ``cell`` is the cell key (id or ``#position``) in b, or in a for a removed cell;
    ``index_a``/``index_b`` are positions in each notebook (``None`` where absent).
    """

    kind: DifferenceKind
    message: str
    cell: str | None = None
    index_a: int | None = None
    index_b: int | None = None
    variable: str | None = None
    expected: str | None = None
    actual: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class ScoreCheck:
    """The score of both versions and the verdict on it (MLEModernizer's definition).

    One run: reproduced when ``relative_change <= tolerance``. Several runs: a one-sample
    t-test of b's scores against the mean of a's; reproduced when ``p_value >= 0.05``.
    """

    expression: str
    original: tuple[float, ...]
    modified: tuple[float, ...]
    tolerance: float
    relative_change: float
    p_value: float | None
    reproduced: bool
    error: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class Equivalence:
    """The verdict: ``equivalent`` when nothing differs; ``differences`` cell by cell."""

    equivalent: bool
    differences: tuple[Difference, ...]
    score: ScoreCheck | None
    runs: int

    def to_dict(self) -> dict[str, object]:
        """JSON-ready form (used by the CLI's ``--json``)."""
        from dataclasses import asdict

        data = asdict(self)
        if data["score"] is not None and math.isinf(data["score"]["relative_change"]):
            data["score"]["relative_change"] = None  # strict JSON has no Infinity
        return data


def _clip(texts: Sequence[str], limit: int = 400) -> str:
    text = "\n".join(texts)
    return text if len(text) <= limit else text[:limit] + " ..."


def _error_of(cell) -> str | None:
    errors = [o for o in cell.outputs if o.get("output_type") == "error"]
    return f"{errors[0].get('ename')}: {errors[0].get('evalue')}" if errors else None


def _cell_differences(run_a: Run, run_b: Run, keys_a: Sequence[str], keys_b: Sequence[str],
                      float_tolerance: float) -> list[Difference]:
    code_a = [k for k, c in enumerate(run_a.cells) if c.cell_type == "code"]
    code_b = [k for k, c in enumerate(run_b.cells) if c.cell_type == "code"]
    pairs = align([run_a.cells[k] for k in code_a], [run_b.cells[k] for k in code_b])
    found: list[Difference] = []
    for i, j in pairs:
        ia, ib = code_a[i], code_b[j]
        ta, tb = output_texts(run_a.cells[ia].outputs), output_texts(run_b.cells[ib].outputs)
        if len(ta) == len(tb) and all(texts_match(x, y, float_tolerance) for x, y in zip(ta, tb)):
            continue
        err_a, err_b = _error_of(run_a.cells[ia]), _error_of(run_b.cells[ib])
        if err_a != err_b:
            message = (f"raises {err_b}" if err_b and not err_a else
                       f"no longer raises {err_a}" if err_a and not err_b else
                       f"raises {err_b} instead of {err_a}")
            kind: DifferenceKind = "error"
        else:
            kind, message = "output", "outputs differ"
        found.append(Difference(kind=kind, message=message, cell=keys_b[ib], index_a=ia,
                                index_b=ib, expected=_clip(ta), actual=_clip(tb)))
    matched_a, matched_b = {i for i, _ in pairs}, {j for _, j in pairs}
    for i, ia in enumerate(code_a):
        texts = output_texts(run_a.cells[ia].outputs)
        if i not in matched_a and texts:
            found.append(Difference(kind="removed", message="cell removed; its output is gone",
                                    cell=keys_a[ia], index_a=ia, expected=_clip(texts)))
    for j, ib in enumerate(code_b):
        texts = output_texts(run_b.cells[ib].outputs)
        if j not in matched_b and texts:
            found.append(Difference(kind="added", message="new cell with output",
                                    cell=keys_b[ib], index_b=ib, actual=_clip(texts)))
    return sorted(found, key=lambda d: (d.index_b if d.index_b is not None else d.index_a or 0))


def _variable_differences(run_a: Run, run_b: Run, names: Sequence[str],
                          float_tolerance: float) -> list[Difference]:
    found = []
    for name in names:
        fa, fb = run_a.variables.get(name, {}), run_b.variables.get(name, {})
        if facts_match(fa, fb, float_tolerance):
            continue
        message = ("missing in the modified version" if fb.get("missing") else
                   "missing in the original" if fa.get("missing") else "values differ")
        found.append(Difference(kind="variable", message=message, variable=name,
                                expected=_clip([json.dumps(fa, sort_keys=True)]),
                                actual=_clip([json.dumps(fb, sort_keys=True)])))
    return found


def _score_check(expression: str, runs_a: Sequence[Run], runs_b: Sequence[Run],
                 tolerance: float) -> ScoreCheck:
    errors = [r.score_error for r in (*runs_a, *runs_b) if r.score_error]
    sa = tuple(r.score for r in runs_a if r.score is not None)
    sb = tuple(r.score for r in runs_b if r.score is not None)
    if errors or not sa or not sb:
        return ScoreCheck(expression=expression, original=sa, modified=sb, tolerance=tolerance,
                          relative_change=math.inf, p_value=None, reproduced=False,
                          error=errors[0] if errors else "no score")
    mean_a, mean_b = statistics.fmean(sa), statistics.fmean(sb)
    change = abs(mean_b - mean_a) / abs(mean_a) if mean_a else abs(mean_b - mean_a)
    if len(sb) >= 2:
        _t, p = one_sample_t_test(sb, mean_a)
        return ScoreCheck(expression=expression, original=sa, modified=sb, tolerance=tolerance,
                          relative_change=change, p_value=p, reproduced=p >= ALPHA)
    return ScoreCheck(expression=expression, original=sa, modified=sb, tolerance=tolerance,
                      relative_change=change, p_value=None, reproduced=change <= tolerance)


def _default_cwd(value: NotebookLike) -> str | None:
    if isinstance(value, (str, os.PathLike)):
        return os.fspath(Path(value).resolve().parent)
    return None


def equivalent(a: NotebookLike, b: NotebookLike, *, variables: Sequence[str] = (),
               score: str | None = None, tolerance: float = 0.1, runs: int = 1,
               timeout: float = 600.0, cwd: str | os.PathLike[str] | None = None,
               float_tolerance: float = 1e-6, kernel_name: str = "python3") -> Equivalence:
    """Run ``a`` (original) and ``b`` (modified) in fresh real kernels and compare them.

    Compared: each aligned code cell's outputs (stdout, results, errors; normalised for
    addresses, timestamps, durations and progress bars; non-integer numbers within
    ``float_tolerance``), the final values of ``variables`` (by facts: type, shape, dtype,
    sums, or the value itself where cheap), and the ``score``.

    Args:
        a, b: the two versions (``NotebookNode``, dict or path).
        variables: names whose final values must agree.
        score: a variable name or an expression evaluated in each kernel after the run.
        tolerance: the relative tolerance τ on the score (one run).
        runs: runs per version; with 2 or more the score verdict is a one-sample t-test
            of b's scores against the mean of a's (p >= 0.05 means reproduced).
        timeout: seconds allowed per cell.
        cwd: working directory of both kernels (default: the notebook's folder or ``.``).
        float_tolerance: relative tolerance on printed floats and float facts.
        kernel_name: the Jupyter kernel to start.

    Returns:
        An ``Equivalence``; ``equivalent`` is true when no ``Difference`` was found.

    Raises:
        NotebookError: a notebook is unreadable. EquivalenceError: a kernel cannot run it.
        ValueError: ``runs < 1`` or a negative tolerance.

    Example:
        >>> verdict = equivalent("old.ipynb", "new.ipynb", score="accuracy")  # doctest: +SKIP
        >>> verdict.equivalent, verdict.score.relative_change                  # doctest: +SKIP
    """
    if runs < 1 or tolerance < 0 or float_tolerance < 0:
        raise ValueError("equivalent: runs must be >= 1 and tolerances >= 0")
    nb_a, nb_b = as_notebook(a, name="original"), as_notebook(b, name="modified")
    options = dict(variables=tuple(variables), score=score, timeout=timeout,
                   kernel_name=kernel_name)
    runs_a = [run_notebook(nb_a, cwd=cwd or _default_cwd(a), **options) for _ in range(runs)]
    runs_b = [run_notebook(nb_b, cwd=cwd or _default_cwd(b), **options) for _ in range(runs)]
    found = _cell_differences(runs_a[0], runs_b[0], cell_keys(nb_a.cells), cell_keys(nb_b.cells),
                              float_tolerance)
    found += _variable_differences(runs_a[0], runs_b[0], variables, float_tolerance)
    check = _score_check(score, runs_a, runs_b, tolerance) if score else None
    if check is not None and not check.reproduced:
        detail = check.error or (
            f"p = {check.p_value:.3g} < {ALPHA}" if check.p_value is not None
            else f"relative change {check.relative_change:.3g} > tolerance {tolerance:g}")
        found.append(Difference(kind="score", message=f"score not reproduced: {detail}",
                                expected=_clip([repr(s) for s in check.original]),
                                actual=_clip([repr(s) for s in check.modified])))
    return Equivalence(equivalent=not found, differences=tuple(found), score=check, runs=runs)
