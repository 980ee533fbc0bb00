"""``diff``: the patch that turns one notebook into another."""

from __future__ import annotations

import difflib
from collections.abc import Mapping, Sequence
from typing import Any

from ._align import align, longest_increasing
from ._model import (
    DeleteCell,
    Hunk,
    InsertCell,
    MoveCell,
    Op,
    Patch,
    ReplaceSource,
    SetMetadata,
    SetOutputs,
)
from ._notebook import NotebookLike, cell_hash, cell_keys, source_of, view_notebook

__all__ = ["diff", "diff_cells", "line_hunks"]


def line_hunks(old: str, new: str) -> tuple[Hunk, ...]:
    """Line-level edits turning source ``old`` into ``new`` (lines keep their endings)."""
    a = old.splitlines(keepends=True)
    b = new.splitlines(keepends=True)
    matcher = difflib.SequenceMatcher(None, a, b, autojunk=False)
    return tuple(
        Hunk(at=i1, delete=tuple(a[i1:i2]), insert=tuple(b[j1:j2]))
        for tag, i1, i2, j1, j2 in matcher.get_opcodes()
        if tag != "equal"
    )


def _new_key(cell: Mapping[str, Any], j: int, taken: set[str]) -> str:
    cid = cell.get("id")
    key = cid if isinstance(cid, str) and cid and cid not in taken else f"+{j}"
    taken.add(key)
    return key


def _content_ops(key: str, old: Mapping[str, Any], new: Mapping[str, Any], *,
                 outputs: bool, metadata: bool) -> list[Op]:
    ops: list[Op] = []
    old_src, new_src = source_of(old), source_of(new)
    if old_src != new_src:
        ops.append(ReplaceSource(cell=key, hunks=line_hunks(old_src, new_src)))
    if metadata and dict(old.get("metadata", {})) != dict(new.get("metadata", {})):
        ops.append(SetMetadata(cell=key, metadata=new.get("metadata", {})))
    if outputs and new.get("cell_type") == "code" and (
        list(old.get("outputs", [])) != list(new.get("outputs", []))
        or old.get("execution_count") != new.get("execution_count")
    ):
        ops.append(SetOutputs(cell=key, outputs=tuple(new.get("outputs", [])),
                              execution_count=new.get("execution_count")))
    return ops


def diff_cells(a: Sequence[Mapping[str, Any]], a_keys: Sequence[str],
               b: Sequence[Mapping[str, Any]], *, compare_outputs: bool = False,
               compare_metadata: bool = False,
               pairs: Sequence[tuple[int, int]] | None = None) -> tuple[dict[str, str], list[Op]]:
    """The base hashes and operations turning cells ``a`` (keyed ``a_keys``) into ``b``.

    ``pairs`` overrides the alignment (``align(a, b)`` by default).
    """
    pairs = list(align(a, b) if pairs is None else pairs)
    of_b = {j: i for i, j in pairs}
    kept = {i for i, _ in pairs}
    stay = {j for _, j in longest_increasing(pairs)}
    base: dict[str, str] = {}
    taken = set(a_keys)
    result_keys = [a_keys[of_b[j]] if j in of_b else _new_key(c, j, taken) for j, c in enumerate(b)]
    content: list[Op] = []
    for j, i in sorted(of_b.items()):
        ops = _content_ops(a_keys[i], a[i], b[j], outputs=compare_outputs,
                           metadata=compare_metadata)
        if ops:
            base[a_keys[i]] = cell_hash(a[i])
        content.extend(ops)
    deletes: list[Op] = []
    for i, cell in enumerate(a):
        if i not in kept:
            base[a_keys[i]] = cell_hash(cell)
            deletes.append(DeleteCell(cell=a_keys[i]))
    placing: list[Op] = []
    for j, cell in enumerate(b):
        if j in stay:
            continue
        after = result_keys[j - 1] if j else None
        if j - 1 in of_b:  # anchored to a base cell: the patch depends on it
            base[after] = cell_hash(a[of_b[j - 1]])
        if j in of_b:
            base[result_keys[j]] = cell_hash(a[of_b[j]])
            placing.append(MoveCell(cell=result_keys[j], after=after))
        else:
            placing.append(InsertCell(cell=result_keys[j], after=after, content=cell))
    return base, [*content, *deletes, *placing]


def diff(a: NotebookLike, b: NotebookLike, *, compare_outputs: bool = False,
         compare_metadata: bool = False) -> Patch:
    """The patch turning notebook ``a`` into notebook ``b``.

    Cells are aligned by id, then by content similarity, then by position, so inserted,
    deleted, moved and edited cells come out as such; source edits are line hunks.
    Outputs, execution counts and metadata are ignored unless asked for.

    Args:
        a, b: notebooks as ``NotebookNode``, dicts or file paths.
        compare_outputs: also emit ``SetOutputs`` for code cells whose outputs or
            execution count differ.
        compare_metadata: also emit ``SetMetadata`` for cells and the notebook.

    Returns:
        A ``Patch``; ``apply(a, diff(a, b))`` equals ``b`` on the compared parts.

    Raises:
        NotebookError: when ``a`` or ``b`` is not a notebook.

    Example:
        >>> patch = diff("old.ipynb", "new.ipynb")  # doctest: +SKIP
        >>> print(patch.to_json())                  # doctest: +SKIP
    """
    nb_a = view_notebook(a, name="first notebook")
    nb_b = view_notebook(b, name="second notebook")
    base, ops = diff_cells(nb_a["cells"], cell_keys(nb_a["cells"]), nb_b["cells"],
                           compare_outputs=compare_outputs, compare_metadata=compare_metadata)
    if compare_metadata and dict(nb_a["metadata"]) != dict(nb_b["metadata"]):
        ops.append(SetMetadata(cell=None, metadata=nb_b["metadata"]))
    return Patch(base=base, ops=tuple(ops))
