"""Notebook input and output: reading, cell keys and hashes, atomic writes."""

from __future__ import annotations

import copy
import hashlib
import json
import os
import tempfile
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import nbformat
from nbformat import NotebookNode

from .errors import NotebookError

__all__ = [
    "as_notebook",
    "view_notebook",
    "read_notebook",
    "write_notebook",
    "cell_keys",
    "cell_hash",
    "notebook_hash",
    "source_of",
]

NotebookLike = NotebookNode | Mapping[str, Any] | str | os.PathLike[str]


def source_of(cell: Mapping[str, Any]) -> str:
    """The source of a cell as one string (nbformat allows a list of lines on disk)."""
    source = cell.get("source", "")
    return "".join(source) if isinstance(source, list) else str(source)


def _from_dict(data: Any, where: str) -> NotebookNode:
    if not isinstance(data, Mapping):
        raise NotebookError(f"{where}: not a Jupyter notebook (not a JSON object)")
    try:
        nb = nbformat.from_dict(copy.deepcopy(dict(data)))
        if isinstance(nb.get("nbformat"), int) and nb["nbformat"] < 4:
            nb = nbformat.convert(nb, 4)
    except Exception as exc:  # nbformat raises a zoo of types on odd input
        raise NotebookError(f"{where}: not a readable notebook ({exc})") from None
    if not isinstance(nb.get("cells"), list):
        raise NotebookError(f"{where}: not a Jupyter notebook (no 'cells' list)")
    for index, cell in enumerate(nb.cells):
        if not isinstance(cell, Mapping) or cell.get("cell_type") not in ("code", "markdown", "raw"):
            raise NotebookError(f"{where}: cell {index} has no valid cell_type")
        cell["source"] = source_of(cell)
        cell.setdefault("metadata", NotebookNode())
        if cell["cell_type"] == "code":
            cell.setdefault("outputs", [])
            cell.setdefault("execution_count", None)
    nb.setdefault("metadata", NotebookNode())
    return nb


def read_notebook(path: str | os.PathLike[str]) -> NotebookNode:
    """Read a notebook file; raises ``NotebookError`` naming the file when it is not one."""
    where = os.fspath(path)
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise NotebookError(f"{where}: cannot read ({exc})") from None
    try:
        data = json.loads(text)
    except ValueError as exc:
        raise NotebookError(f"{where}: not a Jupyter notebook (not JSON: {exc})") from None
    return _from_dict(data, where)


def as_notebook(value: NotebookLike, *, name: str = "notebook") -> NotebookNode:
    """A private, normalised copy of a notebook given as a node, a dict or a file path."""
    if isinstance(value, (str, os.PathLike)):
        return read_notebook(value)
    return _from_dict(value, name)


def view_notebook(value: NotebookLike, *, name: str = "notebook") -> Mapping[str, Any]:
    """The notebook itself, uncopied, for read-only use (a copy only when it must convert).

    Copying a 1,000-cell notebook costs more than diffing it, and ``diff`` never writes.
    """
    if isinstance(value, (str, os.PathLike)):
        return read_notebook(value)
    if (isinstance(value, Mapping) and value.get("nbformat") == 4
            and isinstance(value.get("cells"), list) and isinstance(value.get("metadata"), Mapping)
            and all(isinstance(c, Mapping) and c.get("cell_type") in ("code", "markdown", "raw")
                    for c in value["cells"])):
        return value
    return _from_dict(value, name)


def write_notebook(nb: Mapping[str, Any], path: str | os.PathLike[str]) -> None:
    """Write a notebook atomically: a temporary file beside ``path``, then ``os.replace``.

    The original file is never left half-written: on any error it is untouched and the
    temporary file is removed. The notebook goes through nbformat, so its metadata
    round-trips. Raises ``NotebookError`` when ``nb`` is not a valid notebook.

    Example:
        >>> write_notebook(nbformat.v4.new_notebook(), "out.ipynb")  # doctest: +SKIP
    """
    target = Path(path)
    node = nb if isinstance(nb, NotebookNode) else nbformat.from_dict(copy.deepcopy(dict(nb)))
    try:
        text = nbformat.writes(node, version=4)
    except Exception as exc:
        raise NotebookError(f"{target}: cannot serialise notebook ({exc})") from None
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text if text.endswith("\n") else text + "\n")
            handle.flush()
            os.fsync(handle.fileno())
        if target.exists():
            os.chmod(tmp, target.stat().st_mode & 0o7777)
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def uses_ids(cells: Sequence[Mapping[str, Any]]) -> bool:
    """True when every cell has an id and no two share one (ids can key the cells)."""
    ids = [c.get("id") for c in cells]
    return bool(ids) and all(isinstance(i, str) and i for i in ids) and len(set(ids)) == len(ids)


def cell_keys(cells: Sequence[Mapping[str, Any]]) -> tuple[str, ...]:
    """Keys of base cells: their ids when usable, else ``#<position>``."""
    if uses_ids(cells):
        return tuple(c["id"] for c in cells)
    return tuple(f"#{i}" for i in range(len(cells)))


def cell_hash(cell: Mapping[str, Any]) -> str:
    """A short hash of what a patch depends on in a cell: its type and source."""
    digest = hashlib.sha256(f"{cell.get('cell_type')}\0{source_of(cell)}".encode())
    return digest.hexdigest()[:16]


def notebook_hash(nb: Mapping[str, Any]) -> str:
    """A short hash of a whole notebook's cell types and sources, in order."""
    digest = hashlib.sha256()
    for cell in nb.get("cells", ()):
        digest.update(cell_hash(cell).encode())
    return digest.hexdigest()[:16]
