"""Notebook input and output: reading, cell keys and hashes, atomic writes."""

from __future__ import annotations

import copy
import hashlib
import json
import os
import re
import socket
import tempfile
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import nbformat
from nbformat import NotebookNode

from ._files import NOTEBOOK_LIMIT, read_bounded, refuse_non_regular
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
    "cell_label",
    "unicode_problem",
    "clean_stale_temporaries",
]

NotebookLike = NotebookNode | Mapping[str, Any] | str | os.PathLike[str]


def source_of(cell: Mapping[str, Any]) -> str:
    """The source of a cell as one string (nbformat allows a list of lines on disk)."""
    source = cell.get("source", "")
    return "".join(source) if isinstance(source, list) else str(source)


def _source_problem(source: Any) -> str | None:
    """Why a cell's ``source`` is not text or a list of text lines; None when it is."""
    if isinstance(source, str):
        return None
    if not isinstance(source, list):
        return f"'source' is neither text nor a list of lines ({type(source).__name__})"
    for line, item in enumerate(source, 1):
        if not isinstance(item, str):
            return f"'source' line {line} is not text ({type(item).__name__})"
    return None


def _from_dict(data: Any, where: str) -> NotebookNode:
    if not isinstance(data, Mapping):
        raise NotebookError(f"{where}: not a Jupyter notebook (not a JSON object)")
    major = data.get("nbformat")
    if major is not None and (not isinstance(major, int) or isinstance(major, bool)):
        # Jupyter refuses these too ("Unsupported nbformat version 4" for the string "4")
        raise NotebookError(f"{where}: not a Jupyter notebook ('nbformat' is {major!r}, "
                            "not a version number)")
    try:
        nb = nbformat.from_dict(copy.deepcopy(dict(data)))
        if isinstance(nb.get("nbformat"), int) and nb["nbformat"] < 4:
            nb = nbformat.convert(nb, 4)
    except RecursionError:
        raise NotebookError(f"{where}: not a Jupyter notebook (nested too deeply)") from None
    except Exception as exc:  # nbformat raises a zoo of types on odd input
        raise NotebookError(f"{where}: not a readable notebook ({exc})") from None
    if not isinstance(nb.get("cells"), list):
        raise NotebookError(f"{where}: not a Jupyter notebook (no 'cells' list)")
    for index, cell in enumerate(nb.cells):
        if not isinstance(cell, Mapping) or cell.get("cell_type") not in ("code", "markdown", "raw"):
            raise NotebookError(f"{where}: cell {index + 1} has no valid cell_type")
        problem = _source_problem(cell.get("source", ""))
        if problem:
            raise NotebookError(f"{where}: {cell_label(nb.cells, index)}: {problem}")
        cell["source"] = source_of(cell)
        cell.setdefault("metadata", NotebookNode())
        if cell["cell_type"] == "code":
            cell.setdefault("outputs", [])
            cell.setdefault("execution_count", None)
    nb.setdefault("metadata", NotebookNode())
    return nb


def cell_label(cells: Sequence[Mapping[str, Any]], index: int) -> str:
    """``cell N (id ID)``: the 1-based position among all cells, as the notebook shows it.

    The id part is left out when the cell has none.
    """
    cid = cells[index].get("id") if 0 <= index < len(cells) else None
    return f"cell {index + 1} (id {cid})" if isinstance(cid, str) and cid else f"cell {index + 1}"


# A lone surrogate can only reach a parsed notebook as a JSON escape (raw surrogate bytes are
# not UTF-8 and fail to decode): look for the escapes in the text before walking the cells.
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F][0-9a-fA-F]{2}")


def _bad_string(value: Any, depth: int = 0) -> str | None:
    """The first string inside ``value`` that UTF-8 cannot encode (a lone surrogate)."""
    if isinstance(value, str):
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            return value
        return None
    if depth > 200:
        return None
    items = value.values() if isinstance(value, Mapping) else value if isinstance(value, list) else ()
    for item in items:
        found = _bad_string(item, depth + 1)
        if found is not None:
            return found
    return None


def _surrogate_detail(text: str) -> str:
    for line_no, line in enumerate(text.split("\n"), 1):
        try:
            line.encode("utf-8")
        except UnicodeEncodeError as exc:
            return f"line {line_no}: lone surrogate {line[exc.start]!r} (not valid Unicode)"
    return "a lone surrogate (not valid Unicode)"


def unicode_problem(nb: Mapping[str, Any]) -> str | None:
    """Where ``nb`` holds text UTF-8 cannot encode: ``cell N (id ID): source line L: ...``."""
    cells = nb.get("cells") if isinstance(nb.get("cells"), list) else []
    for index, cell in enumerate(cells):
        if not isinstance(cell, Mapping):
            continue
        for part in ("source", "outputs", "metadata", "attachments", "id"):
            bad = _bad_string(cell.get(part))
            if bad is not None:
                return f"{cell_label(cells, index)}: {part} {_surrogate_detail(bad)}"
    for part, value in nb.items():
        if part != "cells" and _bad_string(value) is not None:
            return f"notebook {part}: {_surrogate_detail(_bad_string(value) or '')}"
    return None


def read_notebook(path: str | os.PathLike[str]) -> NotebookNode:
    """Read a notebook file; raises ``NotebookError`` naming the file when it is not one.

    A UTF-8 byte-order mark is accepted. Refused, naming the file (and the cell): missing or
    unreadable files, anything but a regular file (a FIFO or a device is never read), files
    over ``NOTEBOOK_LIMIT`` bytes, bytes that are not UTF-8, text that is not JSON or nests
    deeper than Python's recursion limit allows, an ``nbformat`` that is not a number, a
    ``source`` that is not text, and strings holding lone surrogates (valid JSON escapes that
    are not Unicode text, which no tool can write back).
    """
    where = os.fspath(path)
    raw = read_bounded(path, limit=NOTEBOOK_LIMIT, what="notebook", error=NotebookError)
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise NotebookError(f"{where}: cannot read (not UTF-8 text: byte {exc.start} is "
                            f"{raw[exc.start]:#04x})") from None
    try:
        data = json.loads(text)
    except RecursionError:
        raise NotebookError(f"{where}: not a Jupyter notebook (JSON nested too deeply)") from None
    except ValueError as exc:
        raise NotebookError(f"{where}: not a Jupyter notebook (not JSON: {exc})") from None
    if _SURROGATE_ESCAPE.search(text) and isinstance(data, Mapping):
        problem = unicode_problem(data)
        if problem:
            raise NotebookError(f"{where}: {problem}")
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
                    and _source_problem(c.get("source", "")) is None for c in value["cells"])):
        return value
    return _from_dict(value, name)


# Temporary files carry the host and the writer's pid, so that the next write into the same
# folder can tell one left by a killed writer (SIGKILL runs no clean-up) from one in use.
_TEMP = re.compile(r"^\..+\.nbpatch-([0-9a-f]{8})-(\d+)-[^.]+\.tmp$")


def _host_tag() -> str:
    return hashlib.sha256(socket.gethostname().encode("utf-8", "replace")).hexdigest()[:8]


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # EPERM: it exists, under another user
        return True
    return True


def clean_stale_temporaries(folder: str | os.PathLike[str]) -> tuple[Path, ...]:
    """Remove the temporary files that killed ``write_notebook`` calls left in ``folder``.

    Only files named by this host's writers whose process is gone are removed; returns them.
    """
    host, removed = _host_tag(), []
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return ()
    for entry in entries:
        match = _TEMP.match(entry.name)
        if not match or match.group(1) != host or int(match.group(2)) == os.getpid():
            continue
        if _alive(int(match.group(2))):
            continue
        try:
            if entry.is_file(follow_symlinks=False):
                os.unlink(entry.path)
                removed.append(Path(entry.path))
        except OSError:
            pass
    return tuple(removed)


def _writable_target(target: Path, force: bool) -> None:
    if target.is_dir():
        raise NotebookError(f"{target}: is a folder, not a notebook file")
    refuse_non_regular(target, NotebookError)  # a rename would replace a FIFO or /dev/null
    if not target.parent.is_dir():
        raise NotebookError(f"{target}: cannot write (folder {target.parent} does not exist)")
    if target.exists() and not force:
        mode = target.stat().st_mode
        if not mode & 0o222 or not os.access(target, os.W_OK):
            raise NotebookError(f"{target}: is read-only; not overwritten (force=True, or "
                                "--force on the command line, replaces it)")


def write_notebook(nb: Mapping[str, Any], path: str | os.PathLike[str], *,
                   force: bool = False) -> None:
    """Write a notebook atomically: a temporary file beside ``path``, then ``os.replace``.

    The original file is never left half-written: on any error (an exception, Ctrl-C, or
    SIGTERM under the CLI) it is untouched and the temporary file removed; one left by a
    SIGKILLed writer is removed by the next write into the same folder. The notebook goes
    through nbformat, so its metadata round-trips, and the new file keeps the old one's
    mode. A read-only target is refused unless ``force``.

    Raises:
        NotebookError: ``nb`` is not a valid notebook or holds text UTF-8 cannot encode;
            the target is a folder, a FIFO or a device (never replaced), read-only, or in a
            missing or unwritable folder.

    Example:
        >>> write_notebook(nbformat.v4.new_notebook(), "out.ipynb")  # doctest: +SKIP
    """
    target = Path(path)
    node = nb if isinstance(nb, NotebookNode) else nbformat.from_dict(copy.deepcopy(dict(nb)))
    try:
        text = nbformat.writes(node, version=4)
        data = (text if text.endswith("\n") else text + "\n").encode("utf-8")
    except UnicodeEncodeError:
        raise NotebookError(f"{target}: cannot write: {unicode_problem(node)}") from None
    except RecursionError:
        raise NotebookError(f"{target}: cannot serialise notebook (nested too deeply)") from None
    except Exception as exc:
        raise NotebookError(f"{target}: cannot serialise notebook ({exc})") from None
    _writable_target(target, force)
    clean_stale_temporaries(target.parent)
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.nbpatch-{_host_tag()}-{os.getpid()}-",
                                   suffix=".tmp", dir=target.parent)
    except OSError as exc:
        raise NotebookError(f"{target}: cannot write into {target.parent} "
                            f"({exc.strerror or exc})") from None
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        if target.exists():
            os.chmod(tmp, target.stat().st_mode & 0o7777)
        os.replace(tmp, target)
    except OSError as exc:
        Path(tmp).unlink(missing_ok=True)
        raise NotebookError(f"{target}: cannot write ({exc.strerror or exc})") from None
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
    text = f"{cell.get('cell_type')}\0{source_of(cell)}"
    digest = hashlib.sha256(text.encode("utf-8", "surrogatepass"))
    return digest.hexdigest()[:16]


def notebook_hash(nb: Mapping[str, Any]) -> str:
    """A short hash of a whole notebook's cell types and sources, in order."""
    digest = hashlib.sha256()
    for cell in nb.get("cells", ()):
        digest.update(cell_hash(cell).encode())
    return digest.hexdigest()[:16]
