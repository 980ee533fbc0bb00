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
from ._normalize import (
    fingerprint_difference,
    output_fingerprints,
    output_texts,
    texts_match,
)
from ._notebook import NotebookLike, as_notebook, cell_keys
from ._run import Run, run_notebook
from ._stats import one_sample_t_test
from .errors import EquivalenceError, RunError

__all__ = ["Difference", "ScoreCheck", "Crash", "Equivalence", "equivalent"]

DifferenceKind = Literal["output", "error", "removed", "added", "variable", "score"]
ALPHA = 0.05


@dataclass(frozen=True, slots=True, kw_only=True)
class Difference:
    """One thing that differs between the original (a) and the modified (b) version.

    ``cell`` is the cell key (id or ``#position``) in b, or in a for a removed cell;
    ``index_a``/``index_b`` are 0-based positions in each notebook (``None`` where absent;
    the JSON form has the 1-based ``position_a``/``position_b`` instead);
    ``cell_position`` (1-based, every cell counted, as the notebook shows it),
    ``execution_count`` (the cell's count in that run, as JupyterLab shows it) and
    ``cell_id`` name the same cell for a reader: ``cell 3 [2] (id fit)``.
    """

    kind: DifferenceKind
    message: str
    cell: str | None = None
    index_a: int | None = None
    index_b: int | None = None
    variable: str | None = None
    expected: str | None = None
    actual: str | None = None
    cell_position: int | None = None
    cell_id: str | None = None
    execution_count: int | None = None

    @property
    def cell_label(self) -> str | None:
        """``cell N [n] (id ID)``, or ``None`` for a variable or score difference."""
        if self.cell_position is None:
            return None
        return _label(self.cell_position, self.execution_count, self.cell_id)


def _label(position: int, count: int | None, cell_id: str | None) -> str:
    return (f"cell {position}" + (f" [{count}]" if count is not None else "")
            + (f" (id {cell_id})" if cell_id else ""))


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
class Crash:
    """Where a version stopped: the cell that raised, hit the time limit or killed the kernel.

    ``cell_position`` is 1-based and counts every cell, as the notebook shows it.
    """

    cell_position: int
    cell_id: str | None
    status: str  # "error" or "timeout"
    ename: str | None
    evalue: str
    execution_count: int | None = None

    @property
    def label(self) -> str:
        """``cell 3 [2] (id fit)``."""
        return _label(self.cell_position, self.execution_count, self.cell_id)

    @property
    def error(self) -> str:
        """``KeyError: 'x'`` (the message's first line)."""
        return f"{self.ename}: {self.evalue}" if self.evalue else str(self.ename)


@dataclass(frozen=True, slots=True, kw_only=True)
class Equivalence:
    """The verdict: ``equivalent`` when nothing differs; ``differences`` cell by cell.

    ``original_crash`` and ``modified_crash`` say where each version stopped (``None``: it
    ran to the end). Two versions that crash the same way at the same cell are equivalent
    (nothing differs), yet neither runs: `both_crash` says so, and the text never reads
    plain "equivalent" then.
    """

    equivalent: bool
    differences: tuple[Difference, ...]
    score: ScoreCheck | None
    runs: int
    original_crash: Crash | None = None
    modified_crash: Crash | None = None

    @property
    def both_crash(self) -> bool:
        """True when neither version ran to the end."""
        return self.original_crash is not None and self.modified_crash is not None

    @property
    def errors_match(self) -> bool | None:
        """Whether both versions raised the same error (class and message); ``None`` unless
        both crash."""
        if not self.both_crash:
            return None
        a, b = self.original_crash, self.modified_crash
        return (a.status, a.ename, a.evalue) == (b.status, b.ename, b.evalue)

    def to_dict(self) -> dict[str, object]:
        """JSON-ready form (used by the CLI's ``--json``)."""
        from dataclasses import asdict

        data = asdict(self)
        data["both_crash"], data["errors_match"] = self.both_crash, self.errors_match
        for d in data["differences"]:  # JSON names cells 1-based only
            for side in ("a", "b"):
                index = d.pop(f"index_{side}")
                d[f"position_{side}"] = None if index is None else index + 1
        if data["score"] is not None and math.isinf(data["score"]["relative_change"]):
            data["score"]["relative_change"] = None  # strict JSON has no Infinity
        return data


def _clip(texts: Sequence[str], limit: int = 400) -> str:
    text = "\n".join(texts)
    return text if len(text) <= limit else text[:limit] + " ..."


def _error_of(cell) -> str | None:
    errors = [o for o in cell.outputs if o.get("output_type") == "error"]
    return f"{errors[0].get('ename')}: {errors[0].get('evalue')}" if errors else None


def _where(run: Run, keys: Sequence[str], index: int) -> dict[str, object]:
    cell = run.notebook.cells[index]
    cid = cell.get("id")
    count = cell.get("execution_count")
    return {"cell": keys[index] if keys else None, "cell_position": index + 1,
            "cell_id": cid if isinstance(cid, str) and cid else None,
            "execution_count": count if type(count) is int else None}


def _crash(run: Run) -> Crash | None:
    """Where ``run`` stopped, or ``None`` when it ran to the end."""
    failed = run.failed
    if failed is None:
        return None
    where = _where(run, (), failed.index)
    lines = (failed.evalue or "").strip().splitlines()
    return Crash(cell_position=failed.index + 1, cell_id=where["cell_id"],
                 execution_count=where["execution_count"], status=failed.status,
                 ename=failed.ename, evalue=lines[0] if lines else "")


def _pair_difference(cell_a, cell_b, float_tolerance: float) -> tuple[str, str] | None:
    """(kind, message) when two aligned cells' outputs differ, else ``None``."""
    ta, tb = output_texts(cell_a.outputs), output_texts(cell_b.outputs)
    fa, fb = output_fingerprints(cell_a.outputs), output_fingerprints(cell_b.outputs)
    texts_same = len(ta) == len(tb) and all(texts_match(x, y, float_tolerance)
                                            for x, y in zip(ta, tb))
    values = (f"{len(fa)} displayed values vs {len(fb)}" if len(fa) != len(fb) else
              next((d for x, y in zip(fa, fb)
                    if (d := fingerprint_difference(x, y, float_tolerance))), None))
    if texts_same and values is None:
        return None
    err_a, err_b = _error_of(cell_a), _error_of(cell_b)
    if err_a != err_b:
        return "error", (f"raises {err_b}" if err_b and not err_a else
                         f"no longer raises {err_a}" if err_a and not err_b else
                         f"raises {err_b} instead of {err_a}")
    if texts_same:
        return "output", f"displayed values differ: {values}"
    return "output", "outputs differ" + (f" (displayed values: {values})" if values else "")


def _cell_differences(run_a: Run, run_b: Run, keys_a: Sequence[str], keys_b: Sequence[str],
                      float_tolerance: float) -> list[Difference]:
    cells_a, cells_b = run_a.notebook.cells, run_b.notebook.cells
    code_a = [k for k, c in enumerate(cells_a) if c.cell_type == "code"]
    code_b = [k for k, c in enumerate(cells_b) if c.cell_type == "code"]
    pairs = align([cells_a[k] for k in code_a], [cells_b[k] for k in code_b])
    found: list[Difference] = []
    for i, j in pairs:
        ia, ib = code_a[i], code_b[j]
        verdict = _pair_difference(cells_a[ia], cells_b[ib], float_tolerance)
        if verdict is None:
            continue
        kind, message = verdict
        found.append(Difference(kind=kind, message=message, index_a=ia, index_b=ib,
                                expected=_clip(output_texts(cells_a[ia].outputs)),
                                actual=_clip(output_texts(cells_b[ib].outputs)),
                                **_where(run_b, keys_b, ib)))
    matched_a, matched_b = {i for i, _ in pairs}, {j for _, j in pairs}
    for i, ia in enumerate(code_a):
        texts = output_texts(cells_a[ia].outputs)
        if i not in matched_a and texts:
            found.append(Difference(kind="removed", message="cell removed; its output is gone",
                                    index_a=ia, expected=_clip(texts),
                                    **_where(run_a, keys_a, ia)))
    for j, ib in enumerate(code_b):
        texts = output_texts(cells_b[ib].outputs)
        if j not in matched_b and texts:
            found.append(Difference(kind="added", message="new cell with output", index_b=ib,
                                    actual=_clip(texts), **_where(run_b, keys_b, ib)))
    return sorted(found, key=lambda d: (d.index_b if d.index_b is not None else d.index_a or 0))


def _variable_differences(run_a: Run, run_b: Run, names: Sequence[str],
                          float_tolerance: float) -> list[Difference]:
    found = []
    for name in names:
        fa, fb = run_a.variables.get(name, {}), run_b.variables.get(name, {})
        where = fingerprint_difference(fa, fb, float_tolerance)
        if where is None:
            continue
        message = ("missing in the modified version" if fb.get("missing") else
                   "missing in the original" if fa.get("missing") else
                   f"values differ: {where}")
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


def _runs(nb, role: str, given: NotebookLike, count: int, **options) -> list[Run]:
    name = os.fspath(given) if isinstance(given, (str, os.PathLike)) else f"the {role}"
    try:
        return [run_notebook(nb, **options) for _ in range(count)]
    except RunError as exc:
        raise EquivalenceError(f"{name}: {exc}") from None


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
    ``float_tolerance``) and the full values behind each displayed DataFrame, Series,
    array, tensor or container (fingerprints computed in the kernel), the final values of
    ``variables`` (the same fingerprints), and the ``score``. Exact values (integers,
    strings, objects, labels, dtypes, shapes) must be equal; floats agree within
    ``float_tolerance`` (relative).

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
                   kernel_name=kernel_name, fingerprints=True)
    runs_a = _runs(nb_a, "original", a, runs, cwd=cwd or _default_cwd(a), **options)
    runs_b = _runs(nb_b, "modified", b, runs, cwd=cwd or _default_cwd(b), **options)
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
    return Equivalence(equivalent=not found, differences=tuple(found), score=check, runs=runs,
                       original_crash=_crash(runs_a[0]), modified_crash=_crash(runs_b[0]))
