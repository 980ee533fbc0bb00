"""Text renderings of patches and verdicts (the CLI's text output)."""

from __future__ import annotations

from ._equiv import Equivalence
from ._model import (
    DeleteCell,
    InsertCell,
    MoveCell,
    Patch,
    ReplaceNotebook,
    ReplaceSource,
    SetMetadata,
    SetOutputs,
)
from ._notebook import source_of

__all__ = ["render_patch", "render_equivalence"]


def _where(after: str | None) -> str:
    return "at the start" if after is None else f"after {after}"


def render_patch(patch: Patch) -> str:
    """One line per operation, source hunks as ``-``/``+`` lines."""
    if not patch.ops:
        return "no changes"
    lines: list[str] = []
    for op in patch.ops:
        match op:
            case ReplaceSource():
                lines.append(f"edit {op.cell}:")
                for hunk in op.hunks:
                    lines.append(f"  @@ line {hunk.at + 1}")
                    lines += [f"  -{line.rstrip(chr(10))}" for line in hunk.delete]
                    lines += [f"  +{line.rstrip(chr(10))}" for line in hunk.insert]
            case InsertCell():
                first = source_of(op.content).split("\n", 1)[0][:60]
                lines.append(f"insert {op.content['cell_type']} cell {op.cell} "
                             f"{_where(op.after)}: {first!r}")
            case DeleteCell():
                lines.append(f"delete {op.cell}")
            case MoveCell():
                lines.append(f"move {op.cell} {_where(op.after)}")
            case SetMetadata():
                lines.append(f"set metadata of {op.cell or 'the notebook'}")
            case SetOutputs():
                lines.append(f"set {len(op.outputs)} outputs of {op.cell}")
            case ReplaceNotebook():
                lines.append("replace the whole notebook")
    return "\n".join(lines)


def render_equivalence(verdict: Equivalence) -> str:
    """The verdict, then one block per difference (cell, what, expected, actual)."""
    head = "equivalent" if verdict.equivalent else f"different ({len(verdict.differences)})"
    lines = [head]
    if verdict.score is not None:
        s = verdict.score
        test = f", p = {s.p_value:.3g}" if s.p_value is not None else ""
        lines.append(f"score {s.expression}: original {list(s.original)} modified "
                     f"{list(s.modified)} change {s.relative_change:.3g}{test} -> "
                     f"{'reproduced' if s.reproduced else 'not reproduced'}")
    for d in verdict.differences:
        where = f"cell {d.cell}" if d.cell else f"variable {d.variable}" if d.variable else d.kind
        lines.append(f"{where}: {d.kind}: {d.message}")
        if d.expected is not None:
            lines.append("  original: " + d.expected.replace("\n", "\n            "))
        if d.actual is not None:
            lines.append("  modified: " + d.actual.replace("\n", "\n            "))
    return "\n".join(lines)
