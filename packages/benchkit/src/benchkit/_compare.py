"""Side by side: several detect runs and published baselines given as per-case predictions."""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from nbdeps import read_bounded

from benchkit._metrics import detection_metrics
from benchkit._model import Record
from benchkit._store import read_records, results_path
from benchkit.errors import ResultsError

_CASE = ("case", "nb_name", "name")
_VERSION = ("version", "variant")
_PREDICTED = ("predicted_crash", "predicted", "prediction", "detection", "crash")
_TRUE = {"1", "true", "yes", "y", "crash", "t"}
_FALSE = {"0", "false", "no", "n", "no crash", "f", ""}
#: bytes a baseline CSV may have
BASELINE_LIMIT = 16 << 20


@dataclass(frozen=True, slots=True, kw_only=True)
class Run:
    """One column of a comparison: a name and its detect records."""

    name: str
    records: tuple[Record, ...]


def load_run(path: str | Path) -> Run:
    """A detect run from its results folder or results.jsonl."""
    records = tuple(r for r in read_records(path) if r.task == "detect")
    if not records:
        raise ResultsError(f"{results_path(path)}: holds no detect results")
    p = results_path(path)
    return Run(name=p.parent.name if p.name == "results.jsonl" else p.stem, records=records)


def _column(header: Sequence[str], names: Sequence[str], path: Path) -> str:
    lowered = {h.strip().lower(): h for h in header}
    for name in names:
        if name in lowered:
            return lowered[name]
    raise ResultsError(f"{path}: no column {' / '.join(names)} (columns: {', '.join(header)})")


def load_baseline(path: str | Path, labels: dict[str, dict[str, str]] | None = None) -> Run:
    """A published baseline: a CSV of case, version, predicted crash.

    Labels for the breakdowns come from ``labels`` (case -> labels), usually taken from
    the runs it is compared with.

    Raises:
        ResultsError: the file is not a regular file, over `BASELINE_LIMIT` bytes, not
            UTF-8 or not CSV, or lacks a column or a valid value; the message names the
            file (and the line).
    """
    path = Path(path)
    data = read_bounded(path, limit=BASELINE_LIMIT, what="baseline", error=ResultsError)
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise ResultsError(f"{path}: cannot read baseline: not UTF-8 text (byte {exc.start})") from None
    reader = csv.DictReader(io.StringIO(text, newline=""))
    try:
        header = reader.fieldnames or []
        case_col = _column(header, _CASE, path)
        version_col = _column(header, _VERSION, path)
        pred_col = _column(header, _PREDICTED, path)
        rows = list(reader)
    except csv.Error as exc:
        raise ResultsError(f"{path}:{reader.reader.line_num}: cannot read baseline: {exc}") from None
    records = []
    for number, row in enumerate(rows, 2):
        value = (row.get(pred_col) or "").strip().lower()
        if value not in _TRUE | _FALSE:
            raise ResultsError(f"{path}:{number}: predicted crash must be true/false, not {value!r}")
        version = (row.get(version_col) or "").strip().lower()
        if version not in ("reproduced", "fixed"):
            raise ResultsError(f"{path}:{number}: version must be reproduced or fixed, not {version!r}")
        case = (row.get(case_col) or "").strip().removesuffix(".ipynb")
        records.append(
            Record(
                task="detect", case=case, version=version, status="ok",
                expected_crash=version == "reproduced",
                labels=dict((labels or {}).get(case, {})),
                verdict={"crash": value in _TRUE},
                engines=("baseline",),
            )
        )
    if not records:
        raise ResultsError(f"{path}: baseline has no rows")
    return Run(name=path.stem, records=tuple(records))


def compare(runs: Sequence[Run]) -> dict[str, Any]:
    """Metrics per run, and the (case, version) keys where the runs' predictions differ."""
    predictions: dict[tuple[str, str], dict[str, bool | None]] = {}
    for run in runs:
        for r in run.records:
            predictions.setdefault(r.key, {})[run.name] = (
                r.predicted_crash if r.status == "ok" else None
            )
    names = [run.name for run in runs]
    differences = []
    for (case, version), by_run in sorted(predictions.items()):
        values = [by_run.get(name) for name in names]
        if len(set(values)) > 1:
            differences.append({
                "case": case, "version": version,
                "expected_crash": version == "reproduced",
                "predictions": dict(zip(names, values)),
            })
    return {
        "runs": {run.name: detection_metrics(run.records) for run in runs},
        "differences": differences,
    }
