"""Cases in the JunoBench layout: discovery, labels, targets and replay plans.

A case is a folder ``<case>/`` holding ``<case>_reproduced.ipynb`` (crashes on its target:
the code cell with an error output), ``<case>_fixed.ipynb`` (the target is the cell with the
same id, else the same code-cell position), optional ``<case>_original.ipynb``, and the
input data the notebooks read by relative path. Labels come from a ``case.json`` per case,
or from JunoBench's ``benchmark_desc.xlsx`` / a CSV with the same columns at the root.
"""

from __future__ import annotations

import csv
import io
import json
import os
import stat
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType

import nbformat
from nbdeps import NOTEBOOK_LIMIT, file_kind, read_bounded

from benchkit._xlsx import read_xlsx_rows
from benchkit.errors import CaseError

VERSIONS = ("reproduced", "fixed")
#: bytes a label file (case.json, a labels CSV) may have; JunoBench's sheet has ~100 rows
LABELS_LIMIT = 16 << 20

# JunoBench's spreadsheet columns, and the names used in case.json, mapped to ours.
_LABEL_COLUMNS = {
    "ename": ("ename",),
    "evalue": ("evalue",),
    "root_cause": ("root_cause", "label_root_cause"),
    "crash_type": ("crash_type", "label_refined_exp_type", "label_exp_type"),
    "pipeline_stage": ("pipeline_stage", "label_ML_pipeline", "label_ml_pipeline"),
    "library_group": ("library_group", "library", "lib", "label_library"),
    "target_cell_id": ("target_cell_id",),
}
_NAME_COLUMNS = ("nb_name", "name", "case")


@dataclass(frozen=True, slots=True, kw_only=True)
class Labels:
    """What JunoBench says about a case. Missing labels are empty strings."""

    ename: str = ""
    evalue: str = ""
    root_cause: str = ""
    crash_type: str = ""
    pipeline_stage: str = ""
    library_group: str = ""
    target_cell_id: str = ""

    @classmethod
    def from_mapping(cls, row: Mapping[str, object], *, case_name: str) -> Labels:
        values: dict[str, str] = {}
        for ours, theirs in _LABEL_COLUMNS.items():
            for column in theirs:
                value = row.get(column)
                if value not in (None, ""):
                    values[ours] = str(value).strip()
                    break
        if not values.get("library_group"):
            values["library_group"] = library_group_of(case_name)
        return cls(**values)

    def to_dict(self) -> dict[str, str]:
        return {name: getattr(self, name) for name in _LABEL_COLUMNS}


def library_group_of(case_name: str) -> str:
    """JunoBench names cases ``<library>_<n>``: the prefix is the library group."""
    head, sep, tail = case_name.rpartition("_")
    return head if sep and tail.isdigit() else ""


@dataclass(frozen=True, slots=True, kw_only=True)
class Case:
    """One crash/fix pair on disk."""

    name: str
    folder: Path
    reproduced: Path
    fixed: Path | None
    original: Path | None = None
    labels: Labels = field(default_factory=Labels)

    def notebook(self, version: str) -> Path:
        path = self.reproduced if version == "reproduced" else self.fixed
        if path is None:
            raise CaseError(f"{self.folder}: case {self.name} has no {version} notebook")
        return path

    @property
    def versions(self) -> tuple[str, ...]:
        return VERSIONS if self.fixed is not None else ("reproduced",)


@dataclass(frozen=True, slots=True, kw_only=True)
class ReplayPlan:
    """What to run for one version: the executed cells before the target, then the target."""

    notebook: Path
    prefix: tuple[tuple[int, str], ...]  # (cell index in the notebook, source), in run order
    target_index: int
    target_id: str | None
    target_source: str
    cell_ids: tuple[str | None, ...] = ()  # the id of every cell of the notebook, by index
    #: the saved execution count of every cell, by index (None: never ran, not code)
    execution_counts: tuple[int | None, ...] = ()

    def cell_name(self, index: int) -> str:
        """The cell at notebook ``index`` as every tool names it: ``cell N [n] (id ID)``."""
        return cell_name(index, self.cell_ids[index] if index < len(self.cell_ids) else None,
                         self.execution_counts[index]
                         if index < len(self.execution_counts) else None)


def cell_name(index: int, cell_id: str | None = None,
              execution_count: int | None = None) -> str:
    """``cell N [n] (id ID)``: N is the 1-based position counting every cell (markdown
    too), as the notebook lists it, ``[n]`` the execution count JupyterLab shows (left out
    for a cell that never ran); the id part is left out when the notebook has no ids."""
    count = f" [{execution_count}]" if execution_count is not None else ""
    return f"cell {index + 1}{count}" + (f" (id {cell_id})" if cell_id else "")


def load_cases(root: str | Path, *, names: Iterable[str] | None = None) -> tuple[Case, ...]:
    """Find the cases under ``root`` (one folder per case), with their labels.

    Raises:
        CaseError: ``root`` is not a folder, or holds no case.
    """
    root = Path(root)
    if not root.is_dir():
        raise CaseError(f"{root}: not a folder of cases")
    table = _label_table(root)
    wanted = set(names) if names is not None else None
    cases = []
    for folder in sorted(p for p in root.iterdir() if p.is_dir()):
        name = folder.name
        reproduced = _notebook_file(folder / f"{name}_reproduced.ipynb")
        if reproduced is None or (wanted is not None and name not in wanted):
            continue
        row = _case_json(folder) or table.get(name) or {}
        cases.append(
            Case(
                name=name,
                folder=folder,
                reproduced=reproduced,
                fixed=_notebook_file(folder / f"{name}_fixed.ipynb"),
                original=_notebook_file(folder / f"{name}_original.ipynb"),
                labels=Labels.from_mapping(row, case_name=name),
            )
        )
    if not cases:
        raise CaseError(f"{root}: no case folders (expected <case>/<case>_reproduced.ipynb)")
    return tuple(cases)


def _notebook_file(path: Path) -> Path | None:
    """``path`` when it is a regular file, None when nothing is there; anything else (a FIFO,
    a device, a folder) is refused rather than silently taken for a missing notebook."""
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise CaseError(f"{path}: cannot read ({exc.strerror or exc})") from None
    if not stat.S_ISREG(mode):
        raise CaseError(f"{path}: is {file_kind(mode)}, not a regular file")
    return path


def _label_text(path: Path) -> str:
    data = read_bounded(path, limit=LABELS_LIMIT, what="label file", error=CaseError)
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise CaseError(f"{path}: unreadable labels: not UTF-8 text (byte {exc.start})") from None


def _case_json(folder: Path) -> Mapping[str, object] | None:
    path = folder / "case.json"
    if not path.exists() and not path.is_symlink():
        return None
    text = _label_text(path)
    try:
        data = json.loads(text)
    except RecursionError:
        raise CaseError(f"{path}: unreadable labels: JSON nested too deeply") from None
    except ValueError as exc:
        raise CaseError(f"{path}: unreadable labels: {exc}") from None
    if not isinstance(data, dict):
        raise CaseError(f"{path}: labels must be a JSON object, not a {type(data).__name__}")
    return data


def _label_rows(path: Path) -> list[dict[str, str]]:
    """The rows of a labels CSV as dicts keyed by its header.

    Raises:
        CaseError: the file is not a regular file, over `LABELS_LIMIT` bytes, not UTF-8,
            or not CSV; the message names the file (and the line).
    """
    reader = csv.DictReader(io.StringIO(_label_text(path), newline=""))
    try:
        return list(reader)
    except csv.Error as exc:
        raise CaseError(f"{path}:{reader.reader.line_num}: unreadable labels: {exc}") from None


def _label_table(root: Path) -> Mapping[str, Mapping[str, object]]:
    """Labels keyed by case name from benchmark_desc.xlsx or a CSV at the root."""
    rows: list[Mapping[str, object]] = []
    for path in sorted(root.glob("*.xlsx")):
        rows.extend(read_xlsx_rows(path))
    for path in sorted(root.glob("*.csv")):
        rows.extend(_label_rows(path))
    table: dict[str, Mapping[str, object]] = {}
    for row in rows:
        for column in _NAME_COLUMNS:
            name = str(row.get(column) or "").strip()
            if name:
                table[name.removesuffix(".ipynb")] = row
                break
    return MappingProxyType(table)


def _read(path: Path) -> nbformat.NotebookNode:
    data = read_bounded(path, limit=NOTEBOOK_LIMIT, what="notebook", error=CaseError)
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise CaseError(f"{path}: not a readable notebook: not UTF-8 text (byte {exc.start})") from None
    try:
        nb = nbformat.reads(text, as_version=4)
    except RecursionError:
        raise CaseError(f"{path}: not a readable notebook: JSON nested too deeply") from None
    except Exception as exc:  # nbformat raises many kinds; all mean "not a notebook"
        raise CaseError(f"{path}: not a readable notebook: {type(exc).__name__}: {exc}") from None
    if not isinstance(nb.get("cells"), list):
        raise CaseError(f"{path}: not a notebook (no cells)")
    return nb


def _has_error(cell: Mapping) -> bool:
    return any(out.get("output_type") == "error" for out in cell.get("outputs", ()))


def _source(cell: Mapping) -> str:
    src = cell.get("source", "")
    return "".join(src) if isinstance(src, list) else str(src)


def replay_plan(case: Case, version: str) -> ReplayPlan:
    """The cells to replay for ``version`` of ``case`` and its target cell.

    The reproduced target is the code cell with an error output (the labelled target id
    wins when given). The fixed target is the cell with the reproduced target's id, else the
    code cell at the same code-cell position. The prefix is every other code cell that has
    an execution count below the target's (cells without a count never ran), in
    execution-count order.

    Raises:
        CaseError: a notebook is unreadable or the target cannot be found.
    """
    reproduced = _read(case.reproduced)
    r_index, r_id = _reproduced_target(case, reproduced)
    if version == "reproduced":
        nb, t_index, t_id = reproduced, r_index, r_id
    else:
        nb = _read(case.notebook(version))
        t_index = _matching_cell(nb, reproduced, r_index, r_id, case.notebook(version))
        t_id = nb.cells[t_index].get("id")
    target = nb.cells[t_index]
    limit = target.get("execution_count")
    executed = [
        (cell["execution_count"], i, _source(cell))
        for i, cell in enumerate(nb.cells)
        if cell.get("cell_type") == "code"
        and i != t_index
        and isinstance(cell.get("execution_count"), int)
        and (not isinstance(limit, int) or cell["execution_count"] < limit)
    ]
    executed.sort()
    return ReplayPlan(
        notebook=case.notebook(version),
        prefix=tuple((i, src) for _, i, src in executed),
        target_index=t_index,
        target_id=t_id,
        target_source=_source(target),
        cell_ids=tuple(cell.get("id") for cell in nb.cells),
        execution_counts=tuple(c.get("execution_count") if type(c.get("execution_count")) is int
                               else None for c in nb.cells),
    )


def _reproduced_target(case: Case, nb: nbformat.NotebookNode) -> tuple[int, str | None]:
    wanted = case.labels.target_cell_id
    if wanted:
        for i, cell in enumerate(nb.cells):
            if cell.get("id") == wanted:
                return i, wanted
    for i, cell in enumerate(nb.cells):
        if cell.get("cell_type") == "code" and _has_error(cell):
            return i, cell.get("id")
    raise CaseError(f"{case.reproduced}: no target cell (no code cell has an error output)")


def _matching_cell(nb, reproduced, r_index: int, r_id: str | None, path: Path) -> int:
    if r_id:
        for i, cell in enumerate(nb.cells):
            if cell.get("id") == r_id:
                return i
    position = sum(1 for c in reproduced.cells[:r_index] if c.get("cell_type") == "code")
    code = [i for i, c in enumerate(nb.cells) if c.get("cell_type") == "code"]
    if position < len(code):
        return code[position]
    raise CaseError(f"{path}: no cell matches the reproduced target {cell_name(r_index, r_id)} "
                    f"(neither its id nor a code cell number {position + 1})")
