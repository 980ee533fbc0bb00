"""The patch model: cell operations keyed by cell id (or ``#position``), and the Patch.

A cell key is the cell's ``id`` when every cell of the base notebook has a unique id, else
``#<index>`` (its position in the base notebook). Cells a patch inserts are keyed by their
own id, or ``+<index>`` (their position in the target notebook) when they have none.

A Patch records, for every base cell it touches or anchors to, a short hash of that cell
(type and source), so that applying it to a changed notebook is refused as a conflict.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, TypeAlias

__all__ = [
    "Hunk",
    "ReplaceSource",
    "InsertCell",
    "DeleteCell",
    "MoveCell",
    "SetMetadata",
    "SetOutputs",
    "ReplaceNotebook",
    "Op",
    "Patch",
    "FORMAT_VERSION",
]

FORMAT_VERSION = 1
NOTEBOOK_KEY = "*"


def _frozen(mapping: Mapping[str, Any]) -> Mapping[str, Any]:
    # A private deep copy behind a read-only view: callers cannot change a patch after the fact.
    return MappingProxyType(copy.deepcopy(dict(mapping)))


def _plain(value: Any) -> Any:
    """Deep-copy ``value`` into plain dicts and lists (JSON-ready)."""
    if isinstance(value, Mapping):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value


@dataclass(frozen=True, slots=True, kw_only=True)
class Hunk:
    """A line-level edit: at line ``at`` of the base source, ``delete`` lines become ``insert``.

    Lines keep their line endings, so joining them rebuilds the source exactly.
    """

    at: int
    delete: tuple[str, ...] = ()
    insert: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True, kw_only=True)
class ReplaceSource:
    """Edit the source of an existing cell, line by line."""

    cell: str
    hunks: tuple[Hunk, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class InsertCell:
    """Insert a new cell right after the cell keyed ``after`` (``None``: at the start)."""

    cell: str
    after: str | None
    content: Mapping[str, Any]

    def __post_init__(self) -> None:
        object.__setattr__(self, "content", _frozen(self.content))


@dataclass(frozen=True, slots=True, kw_only=True)
class DeleteCell:
    """Delete an existing cell."""

    cell: str


@dataclass(frozen=True, slots=True, kw_only=True)
class MoveCell:
    """Move an existing cell right after the cell keyed ``after`` (``None``: to the start).

    A cell cannot move after itself: ``PatchError`` (also on apply, when two keys name the
    same cell).
    """

    cell: str
    after: str | None

    def __post_init__(self) -> None:
        if self.after is not None and self.after == self.cell:
            from .errors import PatchError

            raise PatchError(f"move: cell {self.cell} cannot move after itself")


@dataclass(frozen=True, slots=True, kw_only=True)
class SetMetadata:
    """Replace the metadata of a cell, or of the notebook when ``cell`` is ``None``."""

    cell: str | None
    metadata: Mapping[str, Any]

    def __post_init__(self) -> None:
        object.__setattr__(self, "metadata", _frozen(self.metadata))


@dataclass(frozen=True, slots=True, kw_only=True)
class SetOutputs:
    """Replace the outputs and execution count of a code cell."""

    cell: str
    outputs: tuple[Mapping[str, Any], ...]
    execution_count: int | None

    def __post_init__(self) -> None:
        object.__setattr__(self, "outputs", tuple(_frozen(o) for o in self.outputs))


@dataclass(frozen=True, slots=True, kw_only=True)
class ReplaceNotebook:
    """Replace the whole notebook (used when two notebooks cannot be aligned cell by cell)."""

    notebook: Mapping[str, Any]

    def __post_init__(self) -> None:
        object.__setattr__(self, "notebook", _frozen(self.notebook))


Op: TypeAlias = (
    ReplaceSource | InsertCell | DeleteCell | MoveCell | SetMetadata | SetOutputs | ReplaceNotebook
)

_OP_NAMES: dict[type, str] = {
    ReplaceSource: "replace_source",
    InsertCell: "insert",
    DeleteCell: "delete",
    MoveCell: "move",
    SetMetadata: "set_metadata",
    SetOutputs: "set_outputs",
    ReplaceNotebook: "replace_notebook",
}


def op_to_dict(op: Op) -> dict[str, Any]:
    """The JSON form of one operation (see ``PATCH_SCHEMA``)."""
    out: dict[str, Any] = {"op": _OP_NAMES[type(op)]}
    match op:
        case ReplaceSource():
            out["cell"] = op.cell
            out["hunks"] = [
                {"at": h.at, "delete": list(h.delete), "insert": list(h.insert)} for h in op.hunks
            ]
        case InsertCell():
            out.update(cell=op.cell, after=op.after, content=_plain(op.content))
        case DeleteCell():
            out["cell"] = op.cell
        case MoveCell():
            out.update(cell=op.cell, after=op.after)
        case SetMetadata():
            out.update(cell=op.cell, metadata=_plain(op.metadata))
        case SetOutputs():
            out.update(
                cell=op.cell,
                outputs=[_plain(o) for o in op.outputs],
                execution_count=op.execution_count,
            )
        case ReplaceNotebook():
            out["notebook"] = _plain(op.notebook)
    return out


def op_from_dict(data: Mapping[str, Any]) -> Op:
    """Build one operation from its JSON form (already validated against the schema)."""
    kind = data["op"]
    if kind == "replace_source":
        hunks = tuple(
            Hunk(at=h["at"], delete=tuple(h["delete"]), insert=tuple(h["insert"]))
            for h in data["hunks"]
        )
        return ReplaceSource(cell=data["cell"], hunks=hunks)
    if kind == "insert":
        return InsertCell(cell=data["cell"], after=data["after"], content=data["content"])
    if kind == "delete":
        return DeleteCell(cell=data["cell"])
    if kind == "move":
        return MoveCell(cell=data["cell"], after=data["after"])
    if kind == "set_metadata":
        return SetMetadata(cell=data["cell"], metadata=data["metadata"])
    if kind == "set_outputs":
        return SetOutputs(
            cell=data["cell"],
            outputs=tuple(data["outputs"]),
            execution_count=data["execution_count"],
        )
    return ReplaceNotebook(notebook=data["notebook"])


@dataclass(frozen=True, slots=True, kw_only=True)
class Patch:
    """A list of cell operations and the base they apply to.

    ``base`` maps each base-notebook cell key the patch touches or anchors to onto a short
    hash of that cell (``"*"`` for the whole notebook of a ``ReplaceNotebook``). ``apply``
    checks every entry before it changes anything.
    """

    base: Mapping[str, str]
    ops: tuple[Op, ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "base", MappingProxyType(dict(self.base)))
        object.__setattr__(self, "ops", tuple(self.ops))

    def __bool__(self) -> bool:
        return bool(self.ops)

    def to_dict(self) -> dict[str, Any]:
        """The JSON-ready form of the patch (valid against ``PATCH_SCHEMA``)."""
        return {
            "nbpatch": FORMAT_VERSION,
            "base": dict(self.base),
            "ops": [op_to_dict(op) for op in self.ops],
        }

    def to_json(self, *, indent: int | None = 1) -> str:
        """Serialise the patch to JSON text (keys sorted, stable across runs)."""
        return json.dumps(self.to_dict(), indent=indent, sort_keys=True, ensure_ascii=False)

    @classmethod
    def from_dict(cls, data: Any, *, source: str = "patch") -> Patch:
        """Build a patch from its JSON form; raises ``PatchError`` naming the bad part."""
        from ._schema import validate_patch  # local: keeps jsonschema off the import path

        from .errors import PatchError

        try:
            validate_patch(data, source=source)
        except RecursionError:
            raise PatchError(f"{source}: patch nested too deeply") from None
        ops = []
        for number, op in enumerate(data["ops"], 1):
            try:
                ops.append(op_from_dict(op))
            except PatchError as exc:
                raise PatchError(f"{source}: op {number}: {exc}") from None
        return cls(base=data["base"], ops=tuple(ops))

    @classmethod
    def from_json(cls, text: str | bytes, *, source: str = "patch") -> Patch:
        """Parse a patch from JSON text; raises ``PatchError`` when it is not a valid patch.

        Example:
            >>> Patch.from_json('{"nbpatch": 1, "base": {}, "ops": []}').ops
            ()
        """
        from .errors import PatchError

        try:
            data = json.loads(text)
        except RecursionError:
            raise PatchError(f"{source}: not a patch (JSON nested too deeply)") from None
        except (ValueError, UnicodeDecodeError) as exc:
            raise PatchError(f"{source}: not JSON ({exc})") from None
        return cls.from_dict(data, source=source)
