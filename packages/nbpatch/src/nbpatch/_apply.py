"""``apply``: a patch applied to a notebook, all or nothing."""

from __future__ import annotations

import copy
import functools
import hashlib
from collections.abc import Mapping
from typing import Any

import nbformat
from nbformat import NotebookNode

from ._model import (
    NOTEBOOK_KEY,
    DeleteCell,
    Hunk,
    InsertCell,
    MoveCell,
    Patch,
    ReplaceNotebook,
    ReplaceSource,
    SetMetadata,
    SetOutputs,
)
from ._notebook import (
    NotebookLike,
    as_notebook,
    cell_hash,
    cell_label,
    notebook_hash,
    source_of,
    uses_ids,
)
from .errors import PatchConflict, PatchError

__all__ = ["apply"]


def _key_map(cells: list[NotebookNode]) -> dict[str, NotebookNode]:
    # Both keyings resolve: a patch made on an id-less copy still applies after ids appear,
    # and the base hashes catch a position that now holds another cell.
    keys: dict[str, NotebookNode] = {f"#{i}": c for i, c in enumerate(cells)}
    if uses_ids(cells):
        keys.update({c["id"]: c for c in cells})
    return keys


class _Labels:
    """Human names of patch keys: ``cell N (id ID)`` as the base notebook shows the cell."""

    def __init__(self, cells: list[NotebookNode]) -> None:
        self._by_cell = {id(c): cell_label(cells, i) for i, c in enumerate(cells)}

    def __call__(self, key: str | None, keys: dict[str, NotebookNode]) -> str:
        cell = keys.get(key) if key is not None else None
        if cell is not None and id(cell) in self._by_cell:
            return self._by_cell[id(cell)]
        if cell is not None:
            return f"new cell {key}"
        if key and key.startswith("#") and key[1:].isdigit():
            return f"cell {int(key[1:]) + 1} (patch key {key})"
        return f"cell {key}"


def _check_base(nb: NotebookNode, patch: Patch, keys: dict[str, NotebookNode],
                label: _Labels) -> None:
    for key, expected in patch.base.items():
        if key == NOTEBOOK_KEY:
            if notebook_hash(nb) != expected:
                raise PatchConflict("notebook: changed since the patch was made", cell=key)
            continue
        cell = keys.get(key)
        if cell is None:
            raise PatchConflict(f"{label(key, keys)}: not in the notebook the patch is applied "
                                "to", cell=key)
        if cell_hash(cell) != expected:
            raise PatchConflict(
                f"{label(key, keys)}: changed since the patch was made (patch is for another "
                "base)", cell=key,
            )


def _edit_source(key: str, name: str, source: str, hunks: tuple[Hunk, ...]) -> str:
    lines = source.splitlines(keepends=True)
    for hunk in sorted(hunks, key=lambda h: h.at, reverse=True):
        end = hunk.at + len(hunk.delete)
        if end > len(lines) or tuple(lines[hunk.at:end]) != hunk.delete:
            raise PatchConflict(f"{name}: line {hunk.at + 1} does not match the patch",
                                cell=key)
        lines[hunk.at:end] = hunk.insert
    return "".join(lines)


def _fresh_id(seed: str, taken: set[str]) -> str:
    n = 0
    while True:
        cid = hashlib.sha256(f"{seed}:{n}".encode()).hexdigest()[:8]
        if cid not in taken:
            return cid
        n += 1


def _new_cell(op: InsertCell, nb: NotebookNode, taken_ids: set[str]) -> NotebookNode:
    cell = nbformat.from_dict(copy.deepcopy(dict(op.content)))
    cell["source"] = source_of(cell)
    cell.setdefault("metadata", NotebookNode())
    if cell["cell_type"] == "code":
        cell.setdefault("outputs", [])
        cell.setdefault("execution_count", None)
    wants_ids = (nb.get("nbformat"), nb.get("nbformat_minor", 0)) >= (4, 5)
    cid = cell.get("id")
    if (cid and cid in taken_ids) or (not cid and wants_ids):
        cell["id"] = _fresh_id(f"{op.cell}\0{cell['source']}", taken_ids)
    elif cid and not wants_ids:
        cell.pop("id")
    if cell.get("id"):
        taken_ids.add(cell["id"])
    return cell


def _position(cells: list[NotebookNode], anchor: NotebookNode | None) -> int:
    if anchor is None:
        return 0
    return next(k for k, c in enumerate(cells) if c is anchor) + 1


def _resolve(keys: dict[str, NotebookNode], key: str | None, op: object,
             label: _Labels) -> NotebookNode | None:
    if key is None:
        return None
    if key not in keys:
        raise PatchConflict(f"{label(key, keys)}: not in the notebook ({type(op).__name__})",
                            cell=key)
    return keys[key]


def _move(nb: NotebookNode, op: MoveCell, number: int, keys: dict[str, NotebookNode],
          label: _Labels) -> None:
    cell = _resolve(keys, op.cell, op, label)
    anchor = _resolve(keys, op.after, op, label)
    if anchor is cell:
        raise PatchError(f"patch op {number} (move): {label(op.cell, keys)} cannot move after "
                         f"itself ({op.after!r} names the same cell)")
    del nb.cells[_position(nb.cells, cell) - 1]
    nb.cells.insert(_position(nb.cells, anchor), cell)


def _apply_ops(nb: NotebookNode, patch: Patch) -> NotebookNode:
    keys = _key_map(nb.cells)
    label = _Labels(nb.cells)
    _check_base(nb, patch, keys, label)
    resolve = functools.partial(_resolve, keys, label=label)
    for number, op in enumerate(patch.ops, 1):
        match op:
            case ReplaceSource():
                cell = resolve(op.cell, op)
                cell["source"] = _edit_source(op.cell, label(op.cell, keys), source_of(cell),
                                              op.hunks)
            case SetMetadata(cell=None):
                nb["metadata"] = nbformat.from_dict(copy.deepcopy(dict(op.metadata)))
            case SetMetadata():
                cell = resolve(op.cell, op)
                cell["metadata"] = nbformat.from_dict(copy.deepcopy(dict(op.metadata)))
            case SetOutputs():
                cell = resolve(op.cell, op)
                if cell["cell_type"] != "code":
                    raise PatchConflict(f"{label(op.cell, keys)}: outputs for a non-code cell",
                                        cell=op.cell)
                cell["outputs"] = [nbformat.from_dict(copy.deepcopy(dict(o))) for o in op.outputs]
                cell["execution_count"] = op.execution_count
            case DeleteCell():
                cell = resolve(op.cell, op)
                del nb.cells[_position(nb.cells, cell) - 1]
                for key in [k for k, c in keys.items() if c is cell]:
                    del keys[key]
            case MoveCell():
                _move(nb, op, number, keys, label)
            case InsertCell():
                if op.cell in keys:
                    raise PatchConflict(f"{label(op.cell, keys)}: already in the notebook "
                                        f"(insert {op.cell})", cell=op.cell)
                anchor = resolve(op.after, op)
                taken = {c.get("id") for c in nb.cells if c.get("id")}
                cell = _new_cell(op, nb, taken)
                nb.cells.insert(_position(nb.cells, anchor), cell)
                keys[op.cell] = cell
            case ReplaceNotebook():
                raise PatchError("patch: replace_notebook must be the only operation")
    return nb


def apply(nb: NotebookLike, patch: Patch) -> NotebookNode:
    """Apply ``patch`` to a copy of ``nb`` and return the new notebook.

    Every base cell the patch touches or anchors to is checked first (present, same type
    and source); the input is never modified and no half-applied result is ever returned.

    Args:
        nb: the notebook (``NotebookNode``, dict or file path).
        patch: a ``Patch`` from ``diff``, ``read_reply`` or ``Patch.from_json``.

    Returns:
        The patched notebook, a new ``NotebookNode``.

    Raises:
        PatchConflict: the patch was made for another base; the message names the cell.
        NotebookError: ``nb`` is not a notebook.

    Example:
        >>> new = apply(old_nb, diff(old_nb, new_nb))  # doctest: +SKIP
    """
    work = as_notebook(nb)
    replace = [op for op in patch.ops if isinstance(op, ReplaceNotebook)]
    if replace:
        if len(patch.ops) != 1:
            raise PatchError("patch: replace_notebook must be the only operation")
        expected = patch.base.get(NOTEBOOK_KEY)
        if expected is not None and notebook_hash(work) != expected:
            raise PatchConflict("notebook: changed since the patch was made", cell=NOTEBOOK_KEY)
        return as_notebook(replace[0].notebook, name="replacement notebook")
    return _apply_ops(work, patch)


def replacement(base: NotebookLike, new: Mapping[str, Any]) -> Patch:
    """A whole-notebook replacement patch of ``base`` by ``new``, guarded by ``base``'s hash."""
    nb = as_notebook(base)
    return Patch(base={NOTEBOOK_KEY: notebook_hash(nb)},
                 ops=(ReplaceNotebook(notebook=as_notebook(new, name="replacement")),))
