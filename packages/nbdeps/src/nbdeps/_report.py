"""Findings as text lines, JSON and SARIF 2.1.0 (for code-scanning dashboards)."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from ._checks import CODES
from ._files import NOTEBOOK_LIMIT, read_bounded
from ._model import Finding
from .errors import NbdepsError

__all__ = ["to_sarif", "to_text", "findings_json"]

_SARIF_LEVEL = {"error": "error", "warning": "warning", "info": "note"}
_SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"


def cell_label(f: Finding) -> str:
    """`cell N [K] (id ID)`: N is the 1-based position of the cell among all the notebook's
    cells, K its saved execution count (JupyterLab's ``[K]``, only when it ran), the id
    part only when the cell has one."""
    count = f" [{f.execution_count}]" if f.execution_count is not None else ""
    return f"cell {f.cell_position}{count}" + (f" (id {f.cell_id})" if f.cell_id else "")


def to_text(findings: Sequence[Finding], path: str = "<notebook>") -> str:
    """One line per finding: `path:cell N (id ID):line:col: CODE severity: message`, with
    N the 1-based cell position, line and column 1-based within the cell."""
    lines = []
    for f in findings:
        where = path if f.cell_index is None else f"{path}:{cell_label(f)}"
        if f.line is not None:
            where += f":{f.line}:{(f.column or 0) + 1}"
        lines.append(f"{where}: {f.code} {f.severity}: {f.message}")
    return "\n".join(lines) + ("\n" if lines else "")


def findings_json(results: Mapping[str, Sequence[Finding]]) -> str:
    """`{"path": [finding, ...], ...}` as a JSON document."""
    return json.dumps({path: [f.to_dict() for f in fs] for path, fs in results.items()}, indent=2)


def to_sarif(results: Mapping[str, Sequence[Finding]], *, version: str = "0.1.0") -> dict:
    """A SARIF 2.1.0 log (as a dict) with one run holding the findings of every notebook.

    Each result points at the notebook file and names the cell as a logical location
    (`cell N (id ID)`). When the file stores each source line on its own JSON line (as
    Jupyter writes it), the region's `startLine` is the file line holding the finding's
    cell line (no column: JSON escapes shift it); the cell-relative place is in the
    result's `properties` (`cellPosition`, `cellLine`, `cellColumn`, all 1-based as in
    SARIF; `cellIndex` is the 0-based position).
    """
    codes = sorted(CODES)
    rules = [
        {
            "id": code,
            "name": CODES[code][1],
            "shortDescription": {"text": CODES[code][2]},
            "defaultConfiguration": {"level": _SARIF_LEVEL[CODES[code][0]]},
        }
        for code in codes
    ]
    index = {code: i for i, code in enumerate(codes)}
    sarif_results = []
    for path, findings in results.items():
        file_lines = _cell_lines(path) if findings else {}
        for f in findings:
            physical: dict = {"artifactLocation": {"uri": _uri(path)}}
            location: dict = {"physicalLocation": physical}
            if f.cell_index is not None:
                location["logicalLocations"] = [{"name": f"cell {f.cell_position}",
                                                 "fullyQualifiedName": cell_label(f), "kind": "module"}]
                start, multiline = file_lines.get(f.cell_index, (None, False))
                if start is not None:
                    offset = (f.line or 1) if multiline else 0
                    physical["region"] = {"startLine": start + offset}
            sarif_results.append({
                "ruleId": f.code,
                "ruleIndex": index[f.code],
                "level": _SARIF_LEVEL[f.severity],
                "message": {"text": f.message},
                "locations": [location],
                "properties": {
                    "cellPosition": f.cell_position,
                    "executionCount": f.execution_count,
                    "cellId": f.cell_id,
                    "cellLine": f.line,
                    "cellColumn": None if f.column is None else f.column + 1,
                    "names": list(f.names),
                },
            })
    return {
        "$schema": _SARIF_SCHEMA,
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {"name": "nbdeps", "version": version, "rules": rules}},
            "results": sarif_results,
            "columnKind": "unicodeCodePoints",
        }],
    }


_SOURCE_KEY = re.compile(r'^\s*"source": (\[)?', re.M)


def _cell_lines(path: str) -> dict[int, tuple[int, bool]]:
    """cell index -> (1-based file line of its `"source"` key, one JSON line per source
    line?) when the file lays cells out as Jupyter writes them; else empty."""
    try:
        text = read_bounded(path, limit=NOTEBOOK_LIMIT, what="notebook").decode("utf-8-sig")
        cells = json.loads(text).get("cells")
    except (NbdepsError, ValueError, AttributeError, RecursionError):
        return {}
    keys = list(_SOURCE_KEY.finditer(text))
    if not isinstance(cells, list) or len(keys) != len(cells):
        return {}
    lines: dict[int, tuple[int, bool]] = {}
    for index, (cell, key) in enumerate(zip(cells, keys)):
        source = cell.get("source") if isinstance(cell, dict) else None
        line = text.count("\n", 0, key.start()) + 1
        multiline = (bool(key.group(1)) and isinstance(source, list)
                     and text[key.end():key.end() + 2].lstrip(" \t")[:1] in ("\n", "\r"))
        lines[index] = (line, multiline)
    return lines


def _uri(path: str) -> str:
    return path.replace("\\", "/")
