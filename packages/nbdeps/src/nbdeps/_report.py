"""Findings as text lines, JSON and SARIF 2.1.0 (for code-scanning dashboards)."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence

from ._checks import CODES
from ._model import Finding

__all__ = ["to_sarif", "to_text", "findings_json"]

_SARIF_LEVEL = {"error": "error", "warning": "warning", "info": "note"}
_SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"


def to_text(findings: Sequence[Finding], path: str = "<notebook>") -> str:
    """One line per finding: `path:cell N:line:col: CODE severity message`."""
    lines = []
    for f in findings:
        where = path if f.cell_index is None else f"{path}:cell {f.cell_index}"
        if f.line is not None:
            where += f":{f.line}:{(f.column or 0) + 1}"
        lines.append(f"{where}: {f.code} {f.severity}: {f.message}")
    return "\n".join(lines) + ("\n" if lines else "")


def findings_json(results: Mapping[str, Sequence[Finding]]) -> str:
    """`{"path": [finding, ...], ...}` as a JSON document."""
    return json.dumps({path: [f.to_dict() for f in fs] for path, fs in results.items()}, indent=2)


def to_sarif(results: Mapping[str, Sequence[Finding]], *, version: str = "0.1.0") -> dict:
    """A SARIF 2.1.0 log (as a dict) with one run holding the findings of every notebook.

    Cells have no place in SARIF's text regions, so each result points at the notebook
    file and names the cell as a logical location; cell, line and column are also in
    the result's `properties`.
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
        for f in findings:
            location: dict = {"physicalLocation": {"artifactLocation": {"uri": _uri(path)}}}
            if f.cell_index is not None:
                location["logicalLocations"] = [{"name": f"cell {f.cell_index}", "kind": "module"}]
            sarif_results.append({
                "ruleId": f.code,
                "ruleIndex": index[f.code],
                "level": _SARIF_LEVEL[f.severity],
                "message": {"text": f.message},
                "locations": [location],
                "properties": {
                    "cellIndex": f.cell_index,
                    "cellId": f.cell_id,
                    "cellLine": f.line,
                    "cellColumn": f.column,
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


def _uri(path: str) -> str:
    return path.replace("\\", "/")
