"""Text renderings of patches and verdicts (the CLI's text output)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

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
from ._notebook import cell_keys, cell_label, source_of

__all__ = ["render_patch", "render_equivalence", "cell_namer"]


def cell_namer(base: Mapping[str, Any] | None = None, new: Mapping[str, Any] | None = None
               ) -> Callable[[str], str]:
    """Patch keys to the names a reader finds in the notebooks: ``cell N (id ID)``.

    Base keys (an id or ``#position``) are named by their place in ``base``; keys of
    inserted cells (their id or ``+position``) by their place in ``new``. Without the
    notebooks a key is shown as ``cell KEY``.
    """
    names: dict[str, str] = {}
    for nb, plus in ((new, "+"), (base, "#")):
        cells = list(nb.get("cells", ())) if nb is not None else []
        for index, cell in enumerate(cells):
            names[f"{plus}{index}"] = cell_label(cells, index)
            if isinstance(cell.get("id"), str) and cell["id"]:
                names[cell["id"]] = cell_label(cells, index)
        if cells and plus == "#":
            names.update({k: cell_label(cells, i) for i, k in enumerate(cell_keys(cells))})
    return lambda key: names.get(key, f"cell {key}")


def render_patch(patch: Patch, base: Mapping[str, Any] | None = None,
                 new: Mapping[str, Any] | None = None) -> str:
    """One line per operation, source hunks as ``-``/``+`` lines.

    Cells are named ``cell N (id ID)`` (N counts every cell from 1, as the notebook shows
    it) from ``base`` and, for inserted cells, ``new``; see ``cell_namer``.
    """
    if not patch.ops:
        return "no changes"
    name = cell_namer(base, new)

    def _where(after: str | None) -> str:
        return "at the start" if after is None else f"after {name(after)}"

    lines: list[str] = []
    for op in patch.ops:
        match op:
            case ReplaceSource():
                lines.append(f"edit {name(op.cell)}:")
                for hunk in op.hunks:
                    lines.append(f"  @@ line {hunk.at + 1}")
                    lines += [f"  -{line.rstrip(chr(10))}" for line in hunk.delete]
                    lines += [f"  +{line.rstrip(chr(10))}" for line in hunk.insert]
            case InsertCell():
                first = source_of(op.content).split("\n", 1)[0][:60]
                lines.append(f"insert {op.content['cell_type']} {name(op.cell)} "
                             f"{_where(op.after)}: {first!r}")
            case DeleteCell():
                lines.append(f"delete {name(op.cell)}")
            case MoveCell():
                lines.append(f"move {name(op.cell)} {_where(op.after)}")
            case SetMetadata():
                lines.append(f"set metadata of {name(op.cell) if op.cell else 'the notebook'}")
            case SetOutputs():
                lines.append(f"set {len(op.outputs)} outputs of {name(op.cell)}")
            case ReplaceNotebook():
                lines.append("replace the whole notebook")
    return "\n".join(lines)


def render_equivalence(verdict: Equivalence) -> str:
    """The verdict, where each version crashed, then one block per difference (cell, what,
    expected, actual).

    Two versions that both crash are never called plain "equivalent": the head says they
    both crash, and whether the errors match.
    """
    head = "equivalent" if verdict.equivalent else f"different ({len(verdict.differences)})"
    if verdict.both_crash:
        same = "the same error" if verdict.errors_match else "different errors"
        head = (f"both crash, with {same}: neither runs to the end"
                + ("; nothing else differs" if verdict.equivalent
                   else f"; different ({len(verdict.differences)})"))
    lines = [head]
    for role, crash in (("original", verdict.original_crash),
                        ("modified", verdict.modified_crash)):
        if crash is not None:
            what = "times out" if crash.status == "timeout" else "crashes"
            lines.append(f"{role} {what} at {crash.label}: {crash.error}")
        elif verdict.original_crash is not None or verdict.modified_crash is not None:
            lines.append(f"{role} runs to the end")
    if verdict.score is not None:
        s = verdict.score
        test = f", p = {s.p_value:.3g}" if s.p_value is not None else ""
        lines.append(f"score {s.expression}: original {list(s.original)} modified "
                     f"{list(s.modified)} change {s.relative_change:.3g}{test} -> "
                     f"{'reproduced' if s.reproduced else 'not reproduced'}")
    for d in verdict.differences:
        where = d.cell_label or (f"variable {d.variable}" if d.variable else d.kind)
        lines.append(f"{where}: {d.kind}: {d.message}")
        if d.expected is not None:
            lines.append("  original: " + d.expected.replace("\n", "\n            "))
        if d.actual is not None:
            lines.append("  modified: " + d.actual.replace("\n", "\n            "))
    return "\n".join(lines)
