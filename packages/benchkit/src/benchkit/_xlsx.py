"""Read the first sheet of an .xlsx workbook as rows of dicts, with the standard library.

JunoBench ships its labels as ``benchmark_desc.xlsx``. An .xlsx file is a zip of XML
parts; reading cell values from the first sheet needs nothing more than zipfile and
ElementTree, so benchkit does not depend on openpyxl for it.
"""

from __future__ import annotations

import io
import re
import zipfile
from pathlib import Path
from xml.etree import ElementTree as ET

from nbdeps import read_bounded

from benchkit.errors import CaseError

#: bytes an .xlsx file may have (JunoBench's is about 30 KiB)
XLSX_LIMIT = 16 << 20
#: bytes one XML part of it may unpack to: a zip bomb is refused before it is inflated
XLSX_PART_LIMIT = 64 << 20
_MAX_COLUMNS = 16_384  # Excel's last column, XFD: a reference beyond it is not a real cell

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


def _part(zf: zipfile.ZipFile, name: str) -> ET.Element:
    """The XML part ``name``, parsed; its size is checked before it is inflated (the zip's
    directory gives it, and zipfile never inflates a member past that size)."""
    size = zf.getinfo(name).file_size
    if size > XLSX_PART_LIMIT:
        raise CaseError(f"part {name} unpacks to {size / 2**20:.0f} MiB, over the "
                        f"{XLSX_PART_LIMIT >> 20} MiB limit (a zip bomb?)")
    return ET.fromstring(zf.read(name))


def _first_sheet_path(zf: zipfile.ZipFile) -> str:
    workbook = _part(zf, "xl/workbook.xml")
    sheet = workbook.find("m:sheets/m:sheet", _NS)
    if sheet is None:
        raise CaseError("workbook has no sheet")
    rel_id = sheet.get(f"{{{_NS['r']}}}id")
    rels = _part(zf, "xl/_rels/workbook.xml.rels")
    for rel in rels.findall("rel:Relationship", _NS):
        if rel.get("Id") == rel_id:
            target = rel.get("Target", "")
            return target.lstrip("/") if target.startswith("/") else f"xl/{target}"
    return "xl/worksheets/sheet1.xml"


def read_xlsx_rows(path: str | Path) -> list[dict[str, str]]:
    """The first sheet's rows as dicts keyed by the header row.

    Raises:
        CaseError: the file is not a regular file, is over `XLSX_LIMIT` bytes, or is not a
            readable workbook (a part that unpacks past `XLSX_PART_LIMIT`, a cell beyond
            Excel's last column); the message names the file.
    """
    path = Path(path)
    data = read_bounded(path, limit=XLSX_LIMIT, what="workbook", error=CaseError)
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as zf:
            shared = []
            if "xl/sharedStrings.xml" in zf.namelist():
                root = _part(zf, "xl/sharedStrings.xml")
                shared = [_text(si) for si in root.findall("m:si", _NS)]
            sheet = _part(zf, _first_sheet_path(zf))
        return _rows(sheet, shared)
    except CaseError as exc:
        raise CaseError(f"{path}: not a readable .xlsx workbook: {exc}") from None
    except (OSError, KeyError, EOFError, ValueError, NotImplementedError, RecursionError,
            zipfile.BadZipFile, ET.ParseError) as exc:  # what zipfile and expat raise
        raise CaseError(f"{path}: not a readable .xlsx workbook: {exc}") from None


def _rows(sheet: ET.Element, shared: list[str]) -> list[dict[str, str]]:
    # rows stay sparse ({column: value}): the work is proportional to the cells the sheet
    # holds, never to its width (a lone cell at column XFD would make rows 16,384 wide)
    grid: list[dict[int, str]] = []
    for row in sheet.iter(f"{{{_NS['m']}}}row"):
        values: dict[int, str] = {}
        for position, cell in enumerate(row.findall("m:c", _NS)):
            ref = _REF.match(cell.get("r", ""))
            column = _column_number(ref.group(1)) if ref else position
            if column >= _MAX_COLUMNS:
                raise CaseError(f"cell {cell.get('r')} is beyond Excel's last column (XFD)")
            kind = cell.get("t")
            if kind == "inlineStr":
                value = _text(cell)
            else:
                v = cell.find("m:v", _NS)
                value = v.text or "" if v is not None else ""
                if kind == "s" and value.isdigit() and int(value) < len(shared):
                    value = shared[int(value)]
            values[column] = value
        grid.append(values)
    if not grid:
        return []
    header = {i: h.strip() for i, h in grid[0].items() if h.strip()}
    return [
        {header[i]: value for i, value in sorted(values.items()) if i in header}
        for values in grid[1:]
        if any(value.strip() for value in values.values())
    ]
