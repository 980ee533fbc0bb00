"""Read the first sheet of an .xlsx workbook as rows of dicts, with the standard library.

JunoBench ships its labels as ``benchmark_desc.xlsx``. An .xlsx file is a zip of XML
parts; reading cell values from the first sheet needs nothing more than zipfile and
ElementTree, so benchkit does not depend on openpyxl for it.
"""

from __future__ import annotations

import re
import zipfile
from pathlib import Path
from xml.etree import ElementTree as ET

from benchkit.errors import CaseError

_NS = {
    "m": "http://schemas.openxmlformats.org/spreadsheetml/2006/main",
    "r": "http://schemas.openxmlformats.org/officeDocument/2006/relationships",
    "rel": "http://schemas.openxmlformats.org/package/2006/relationships",
}
_REF = re.compile(r"([A-Z]+)(\d+)")


def _column_number(letters: str) -> int:
    n = 0
    for ch in letters:
        n = n * 26 + (ord(ch) - 64)
    return n - 1


def _text(node: ET.Element) -> str:
    # a shared string or inline string may be split into rich-text runs
    return "".join(t.text or "" for t in node.iter(f"{{{_NS['m']}}}t"))


def _first_sheet_path(zf: zipfile.ZipFile) -> str:
    workbook = ET.fromstring(zf.read("xl/workbook.xml"))
    sheet = workbook.find("m:sheets/m:sheet", _NS)
    if sheet is None:
        raise CaseError("workbook has no sheet")
    rel_id = sheet.get(f"{{{_NS['r']}}}id")
    rels = ET.fromstring(zf.read("xl/_rels/workbook.xml.rels"))
    for rel in rels.findall("rel:Relationship", _NS):
        if rel.get("Id") == rel_id:
            target = rel.get("Target", "")
            return target.lstrip("/") if target.startswith("/") else f"xl/{target}"
    return "xl/worksheets/sheet1.xml"


def read_xlsx_rows(path: str | Path) -> list[dict[str, str]]:
    """The first sheet's rows as dicts keyed by the header row.

    Raises:
        CaseError: the file is not a readable workbook.
    """
    path = Path(path)
    try:
        with zipfile.ZipFile(path) as zf:
            shared = []
            if "xl/sharedStrings.xml" in zf.namelist():
                root = ET.fromstring(zf.read("xl/sharedStrings.xml"))
                shared = [_text(si) for si in root.findall("m:si", _NS)]
            sheet = ET.fromstring(zf.read(_first_sheet_path(zf)))
    except (OSError, KeyError, zipfile.BadZipFile, ET.ParseError) as exc:
        raise CaseError(f"{path}: not a readable .xlsx workbook: {exc}") from None
    grid: list[list[str]] = []
    for row in sheet.iter(f"{{{_NS['m']}}}row"):
        values: dict[int, str] = {}
        for position, cell in enumerate(row.findall("m:c", _NS)):
            ref = _REF.match(cell.get("r", ""))
            column = _column_number(ref.group(1)) if ref else position
            kind = cell.get("t")
            if kind == "inlineStr":
                value = _text(cell)
            else:
                v = cell.find("m:v", _NS)
                value = v.text or "" if v is not None else ""
                if kind == "s" and value.isdigit() and int(value) < len(shared):
                    value = shared[int(value)]
            values[column] = value
        width = max(values, default=-1) + 1
        grid.append([values.get(i, "") for i in range(width)])
    if not grid:
        return []
    header = [h.strip() for h in grid[0]]
    return [
        {header[i]: row[i] for i in range(min(len(header), len(row))) if header[i]}
        for row in grid[1:]
        if any(cell.strip() for cell in row)
    ]
