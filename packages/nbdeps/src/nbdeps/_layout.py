"""One layout for every picture (SVG, PNG, HTML): cells as boxes top to bottom in the
graph's order, edges as labelled arcs on the right, colours by the worst finding."""

from __future__ import annotations

from dataclasses import dataclass
from collections.abc import Sequence

from ._model import DepGraph, Finding

__all__ = ["Arc", "Box", "Layout", "layout", "printable", "BACKWARD", "BACKWARD_LEGEND", "COLOURS", "LEGEND"]

BOX_W, BOX_H, GAP, LEFT, TOP = 460, 40, 16, 20, 64
COLOURS = {  # fill, stroke
    "error": ("#fde0dc", "#c62828"),
    "warning": ("#ffd8a8", "#e8590c"),
    "hazard": ("#fffbe0", "#c9a400"),
    "plain": ("#eef3fb", "#4a6fa5"),
    "syntax": ("#eeeeee", "#777777"),
}
BACKWARD = "#c2185b"  # arcs from a definer below (against the order): dashed, in this colour
BACKWARD_LEGEND = "\u2191 dashed arc: read from the only cell binding it, below (fails on Restart & Run All)"
LEGEND = (
    ("error", "error finding (NameError, repeated destructive op)"),
    ("warning", "warning (fails on Restart & Run All)"),
    ("hazard", "not idempotent / info"),
    ("plain", "no finding"),
)


@dataclass(frozen=True, slots=True, kw_only=True)
class Box:
    index: int
    x: float
    y: float
    w: float
    h: float
    title: str
    text: str
    style: str
    tooltip: str


@dataclass(frozen=True, slots=True, kw_only=True)
class Arc:
    source: int
    target: int
    x: float
    y1: float
    y2: float
    bulge: float
    label: str
    label_x: float = 0.0
    label_y: float = 0.0
    backward: bool = False  # from a cell below (later in the order) up to its reader


@dataclass(frozen=True, slots=True, kw_only=True)
class Layout:
    width: float
    height: float
    title: str
    boxes: tuple[Box, ...]
    arcs: tuple[Arc, ...]


def layout(graph: DepGraph, findings: Sequence[Finding] = ()) -> Layout:
    """Place the graph's cells and edges; `findings` decide the box colours."""
    worst: dict[int, str] = {}
    rank = {"error": 3, "warning": 2, "info": 1}
    for f in findings:
        if f.cell_index is not None and rank[f.severity] > rank.get(worst.get(f.cell_index, ""), 0):
            worst[f.cell_index] = f.severity
    pos = {index: k for k, index in enumerate(graph.sequence)}
    boxes = []
    for cell in graph.cells:
        info = graph.infos[cell.index]
        style = worst.get(cell.index)
        style = {"error": "error", "warning": "warning", "info": "hazard"}.get(style or "", "")
        if not style:
            style = "syntax" if info.syntax_error else ("hazard" if cell.index in graph.hazards else "plain")
        count = " " if cell.execution_count is None else str(cell.execution_count)
        reasons = [h.reason for h in info.non_idempotent] + [
            f"{f.code}: {f.message}" for f in findings if f.cell_index == cell.index
        ]
        boxes.append(Box(
            index=cell.index,
            x=LEFT,
            y=TOP + pos[cell.index] * (BOX_H + GAP),
            w=BOX_W,
            h=BOX_H,
            title=f"In [{count}]  {printable(cell.label)}",
            text=_clip(printable(cell.first_line) or "(empty)", 54),
            style=style,
            tooltip=printable("\n".join(reasons) or cell.first_line),
        ))
    arcs = []
    placed: list[tuple[float, float, float]] = []  # label x, y, width: keep labels apart
    for edge, backward in [(e, False) for e in graph.edges] + [(e, True) for e in graph.backward_edges]:
        # arcs leave a box from its upper half and enter the next from its lower half,
        # so that in- and outgoing arcs of one cell stay apart
        y1 = TOP + pos[edge.source] * (BOX_H + GAP) + BOX_H * 0.3
        y2 = TOP + pos[edge.target] * (BOX_H + GAP) + BOX_H * 0.7
        span = abs(pos[edge.target] - pos[edge.source])
        bulge = min(40 + 26 * span, 520)
        label = _clip(("\u2191 " if backward else "") + ", ".join(edge.names), 28)
        lx, ly = _free_spot(LEFT + BOX_W + bulge * 0.75 + 4, (y1 + y2) / 2 + 4, 6.6 * len(label), placed)
        arcs.append(Arc(
            source=edge.source,
            target=edge.target,
            x=LEFT + BOX_W,
            y1=y1,
            y2=y2,
            bulge=bulge,
            label=label,
            label_x=lx,
            label_y=ly,
            backward=backward,
        ))
    widest = max((a.bulge for a in arcs), default=0)
    width = LEFT + BOX_W + widest * 0.75 + 200
    height = TOP + len(boxes) * (BOX_H + GAP) + 40 + 22 * (len(LEGEND) + 1)
    below = len(graph.backward_edges)
    title = printable(f"{graph.notebook.name} - {graph.order} order ({len(boxes)} cells, "
                      f"{len(arcs) - below} edges" + (f", {below} from cells below" if below else "") + ")")
    width = max(width, 720, 40 + 10 * len(title))  # the bold title must fit
    return Layout(width=width, height=height, title=title, boxes=tuple(boxes), arcs=tuple(arcs))


def _free_spot(x: float, y: float, width: float, placed: list[tuple[float, float, float]]) -> tuple[float, float]:
    """The nearest spot below or above (x, y) where a label of `width` overlaps none placed."""
    for step in range(0, 40):
        dy = (step + 1) // 2 * 13 * (1 if step % 2 else -1)
        if not any(abs(y + dy - py) < 12 and x < px + pw and px < x + width for px, py, pw in placed):
            placed.append((x, y + dy, width))
            return x, y + dy
    placed.append((x, y, width))
    return x, y


def printable(text: str) -> str:
    """`text` with lone surrogates (not encodable in UTF-8) written as `\\udXXX`."""
    try:
        text.encode("utf-8")
        return text
    except UnicodeEncodeError:
        return text.encode("utf-8", "backslashreplace").decode("utf-8")


def _clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "\u2026"
