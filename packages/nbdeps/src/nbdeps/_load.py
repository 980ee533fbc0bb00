"""Reading notebooks from files, nbformat nodes, dicts or lists of cell sources."""

from __future__ import annotations

import json
import os
import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from ._files import NOTEBOOK_LIMIT, read_bounded
from ._model import Cell, Notebook
from .errors import NotebookError

__all__ = ["load_notebook"]

NotebookSource = (
    str | os.PathLike[str] | Mapping[str, Any] | Notebook | Sequence[str | tuple[str, int | None]]
)


def load_notebook(src: NotebookSource) -> Notebook:
    """Read a notebook into a frozen `Notebook` (every cell, markdown included).

    Args:
        src: a path to an .ipynb file; an nbformat `NotebookNode` or the equivalent dict
            (v4, or v3 which is upgraded); a sequence of code-cell sources; or a sequence of
            `(source, execution_count | None)` pairs. A `Notebook` is returned as is.

    Returns:
        The notebook, with cell sources joined into strings.

    Raises:
        NotebookError: the input is not a readable Python notebook; the message names the
            file and what is wrong. A path must name a regular file (never a FIFO or a
            device, which are refused unopened or unread) of at most `NOTEBOOK_LIMIT` bytes.

    Example:
        >>> nb = load_notebook([("x = 1", 1), ("print(x)", 2)])
        >>> [c.execution_count for c in nb.cells]
        [1, 2]
    """
    if isinstance(src, Notebook):
        return src
    if isinstance(src, (str, os.PathLike)):
        return _from_path(Path(src))
    if isinstance(src, Mapping):
        return _from_dict(src, "<notebook>")
    if isinstance(src, Sequence) and not isinstance(src, (bytes, bytearray)):
        return _from_sequence(src)
    raise NotebookError(f"<notebook>: cannot read a notebook from a {type(src).__name__}")


def _from_path(path: Path) -> Notebook:
    name = str(path)
    raw = read_bounded(path, limit=NOTEBOOK_LIMIT, what="notebook", error=NotebookError)
    if not raw.strip():
        raise NotebookError(f"{name}: empty file, not a notebook")
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise NotebookError(
            f"{name}: not UTF-8 text (binary data at byte {exc.start}), not a notebook"
        ) from None
    head = text.lstrip()[:200].lower()
    if head.startswith("<"):
        kind = "an HTML page" if ("html" in head or "<!doctype" in head) else "XML/HTML markup"
        raise NotebookError(f"{name}: {kind}, not a notebook (was it saved from a browser?)")
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise NotebookError(
            f"{name}: not JSON ({exc.msg} at line {exc.lineno} column {exc.colno})"
        ) from None
    except RecursionError:
        raise NotebookError(f"{name}: JSON nested too deeply to be a notebook") from None
    if not isinstance(data, dict):
        raise NotebookError(
            f"{name}: JSON {type(data).__name__}, not a notebook (expected an object)"
        )
    return _from_dict(data, name)


def _from_dict(data: Mapping[str, Any], name: str) -> Notebook:
    major = data.get("nbformat")
    if "cells" not in data and "worksheets" not in data:
        raise NotebookError(f"{name}: JSON without 'cells', not a notebook")
    if major is not None and (not isinstance(major, int) or isinstance(major, bool)):
        # Jupyter refuses these too ("Unsupported nbformat version 4" for the string "4")
        raise NotebookError(f"{name}: 'nbformat' is {major!r}, not a version number")
    if "worksheets" in data or (isinstance(major, int) and major < 4):
        data = _upgrade(data, name)
    elif isinstance(major, int) and major > 4:
        raise NotebookError(f"{name}: nbformat {major} is newer than nbdeps can read (4)")
    version = _check_language(data, name)
    predefined = _predefined(data.get("metadata"))
    cells = data.get("cells")
    if not isinstance(cells, list):
        raise NotebookError(f"{name}: 'cells' is a {type(cells).__name__}, not a list")
    return Notebook(
        cells=tuple(_cell(raw, i, name) for i, raw in enumerate(cells)),
        path=None if name == "<notebook>" else name,
        nbformat=4,
        python_version=version,
        predefined=predefined,
    )


def _upgrade(data: Mapping[str, Any], name: str) -> Mapping[str, Any]:
    # Only old notebooks take the nbformat round trip; v4 is read directly, because
    # nbformat's schema validation costs more than the whole analysis of a notebook
    # and rejects files that Jupyter itself opens.
    import nbformat

    try:
        node = nbformat.from_dict(dict(data))
        return nbformat.convert(node, 4)
    except Exception as exc:  # nbformat raises many kinds on malformed v3 input
        raise NotebookError(f"{name}: cannot upgrade this nbformat 3 notebook ({exc})") from None


# "python", "python3", "ipython3", "python2", or nothing said
_PYTHON = re.compile(r"(i?python\d?)?")


def _check_language(data: Mapping[str, Any], name: str) -> str | None:
    """Refuse non-Python notebooks; return the Python version the kernel had, if saved."""
    meta = data.get("metadata")
    if not isinstance(meta, Mapping):
        return None
    spec = meta.get("kernelspec") if isinstance(meta.get("kernelspec"), Mapping) else {}
    info = meta.get("language_info") if isinstance(meta.get("language_info"), Mapping) else {}
    language = spec.get("language") or info.get("name")
    kernel = spec.get("display_name") or spec.get("name") or language
    if not language:
        # A notebook jupytext built from an R or Julia script has no kernelspec, only the
        # language of the script it came from.
        jupytext = meta.get("jupytext") if isinstance(meta.get("jupytext"), Mapping) else {}
        language, kernel = jupytext.get("main_language"), None
    if isinstance(language, str) and not _PYTHON.fullmatch(language.strip().lower()):
        said = f"kernel {kernel!r}" if kernel else "jupytext's main_language"
        # "a notebook in R", not "a R notebook": no article to get wrong before the name
        raise NotebookError(f"{name}: a notebook in {language} ({said}); nbdeps reads Python notebooks only")
    return _python_version(spec, info)


# Names a kernel defines before any cell runs: Databricks and PySpark kernels.
_SPARK = frozenset({"spark", "sc", "sqlContext"})
_DATABRICKS = _SPARK | frozenset({"dbutils", "displayHTML", "table", "sql", "udf", "getArgument"})


def _predefined(meta: Any) -> frozenset[str]:
    if not isinstance(meta, Mapping):
        return frozenset()
    if any(isinstance(key, str) and "databricks" in key for key in meta):
        return _DATABRICKS
    spec = meta.get("kernelspec")
    label = " ".join(str(spec.get(k, "")) for k in ("name", "display_name")) if isinstance(spec, Mapping) else ""
    return _SPARK if "spark" in label.lower() else frozenset()


def _python_version(spec: Mapping[str, Any], info: Mapping[str, Any]) -> str | None:
    version = info.get("version")
    if isinstance(version, str) and version[:1].isdigit():
        return version
    mode = info.get("codemirror_mode")
    if isinstance(mode, Mapping) and isinstance(mode.get("version"), int):
        return str(mode["version"])
    for key in ("name", "display_name"):
        label = spec.get(key)
        if isinstance(label, str):
            digits = label.lower().replace("python", "").replace("ipython", "").strip()
            if digits[:1] in ("2", "3"):
                return digits[:1]
    return None


def _cell(raw: Any, index: int, name: str) -> Cell:
    where = f"{name}: cell {index + 1}"
    if not isinstance(raw, Mapping):
        raise NotebookError(f"{where} is a {type(raw).__name__}, not a cell object")
    kind = raw.get("cell_type")
    if not isinstance(kind, str):
        raise NotebookError(f"{where} has no 'cell_type'")
    if "source" not in raw:
        raise NotebookError(f"{where} has no 'source'")
    source = _text(raw["source"], where)
    count = raw.get("execution_count") if kind == "code" else None
    if not isinstance(count, int) or isinstance(count, bool):
        count = None
    outputs = raw.get("outputs") if kind == "code" else None
    kinds = [o.get("output_type") for o in outputs if isinstance(o, Mapping)] if isinstance(outputs, list) else []
    has_error = "error" in kinds
    errors = [o.get("ename") for o in outputs if isinstance(o, Mapping) and o.get("output_type") == "error"] \
        if has_error else []
    cell_id = raw.get("id")
    return Cell(
        index=index,
        id=cell_id if isinstance(cell_id, str) else None,
        kind=kind,
        source=source,
        execution_count=count,
        has_error_output=has_error,
        has_output=any(k != "error" for k in kinds),
        outputs_known=kind == "code" and isinstance(outputs, list),
        error_name=errors[0] if errors and isinstance(errors[0], str) else None,
    )


def _text(source: Any, where: str) -> str:
    if isinstance(source, str):
        return source
    if isinstance(source, list) and all(isinstance(s, str) for s in source):
        return "".join(source)
    if isinstance(source, list):
        line, item = next((n, s) for n, s in enumerate(source, 1) if not isinstance(s, str))
        raise NotebookError(f"{where}: 'source' line {line} is not text ({type(item).__name__})")
    raise NotebookError(f"{where}: 'source' is neither text nor a list of lines "
                        f"({type(source).__name__})")


def _from_sequence(items: Sequence[Any]) -> Notebook:
    cells = []
    for i, item in enumerate(items):
        if isinstance(item, str):
            source, count = item, None
        elif isinstance(item, Sequence) and len(item) == 2 and isinstance(item[0], str):
            source, count = item
            if count is not None and (not isinstance(count, int) or isinstance(count, bool)):
                raise NotebookError(
                    f"<notebook>: cell {i + 1}: execution count {count!r} is not an int or None"
                )
        else:
            raise NotebookError(
                f"<notebook>: cell {i + 1} is a {type(item).__name__}; expected a source string "
                "or a (source, execution_count) pair"
            )
        cells.append(Cell(index=i, id=None, kind="code", source=source, execution_count=count))
    return Notebook(cells=tuple(cells))
