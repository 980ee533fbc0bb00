"""Graph renderings: networkx, JSON, DOT, Mermaid (text) and SVG, PNG, HTML (pictures).

The pictures are drawn here in pure Python (SVG) or with matplotlib (PNG), so no
Graphviz binary is needed.
"""

from __future__ import annotations

import html
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ._layout import BACKWARD, BACKWARD_LEGEND, COLOURS, LEGEND, Layout, layout, printable
from ._model import DepGraph, Finding
from ._report import cell_label
from .errors import MissingExtraError

__all__ = ["to_dot", "to_html", "to_json", "to_mermaid", "to_networkx", "to_png", "to_svg"]


def graph_dict(graph: DepGraph) -> dict[str, Any]:
    """The graph as JSON-ready data: cells with their facts, and labelled edges."""
    cells = []
    for cell in graph.cells:
        info = graph.infos[cell.index]
        cells.append({
            "index": cell.index,
            "position": cell.position,
            "id": cell.id,
            "execution_count": cell.execution_count,
            "first_line": cell.first_line,
            "defines": sorted(info.defines),
            "uses": [{"name": u.name, "line": u.line, "column": u.column} for u in info.uses],
            "deletes": sorted(info.deletes),
            "mutates": [{"name": m.name, "line": m.line, "kind": m.kind, "detail": m.detail} for m in info.mutates],
            "non_idempotent": [{"names": list(h.names), "line": h.line, "reason": h.reason} for h in info.non_idempotent],
            "star_imports": list(info.star_imports),
            "syntax_error": None if info.syntax_error is None else info.syntax_error.message,
        })
    return {
        "notebook": graph.notebook.name,
        "order": graph.order,
        "sequence": list(graph.sequence),
        "cells": cells,
        "edges": [{"source": e.source, "target": e.target, "names": list(e.names)} for e in graph.edges],
        "backward_edges": [{"source": e.source, "target": e.target, "names": list(e.names)}
                           for e in graph.backward_edges],
    }


def to_json(graph: DepGraph, *, indent: int | None = 2) -> str:
    """The graph as a JSON document (see `graph_dict` for the shape)."""
    return json.dumps(graph_dict(graph), indent=indent)


def to_networkx(graph: DepGraph):
    """A `networkx.DiGraph`: nodes are cell indices with the cell's facts, edges carry `names`."""
    import networkx as nx

    g = nx.DiGraph(order=graph.order, notebook=graph.notebook.name)
    for data in graph_dict(graph)["cells"]:
        g.add_node(data["index"], **data)
    for edge in graph.edges:
        g.add_edge(edge.source, edge.target, names=edge.names, label=", ".join(edge.names), kind="forward")
    for edge in graph.backward_edges:
        if not g.has_edge(edge.source, edge.target):
            g.add_edge(edge.source, edge.target, names=edge.names, label=", ".join(edge.names), kind="backward")
    return g


def to_dot(graph: DepGraph, findings: Sequence[Finding] = ()) -> str:
    """Graphviz DOT text: one box per cell (coloured by finding), edges labelled with names."""
    lay = layout(graph, findings)
    lines = ["digraph nbdeps {", f"  label={_dot(lay.title)};", "  rankdir=TB;",
             '  node [shape=box, style="rounded,filled", fontname="Helvetica"];']
    for box in lay.boxes:
        fill, stroke = COLOURS[box.style]
        lines.append(f"  c{box.index} [label={_dot(box.title + chr(10) + box.text)}, "
                     f'fillcolor="{fill}", color="{stroke}"];')
    for arc in lay.arcs:
        style = f', style=dashed, color="{BACKWARD}", fontcolor="{BACKWARD}", constraint=false' if arc.backward else ""
        lines.append(f"  c{arc.source} -> c{arc.target} [label={_dot(arc.label)}{style}];")
    lines.append("}")
    return "\n".join(lines) + "\n"


def _dot(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def to_mermaid(graph: DepGraph, findings: Sequence[Finding] = ()) -> str:
    """Mermaid flowchart text, for Markdown renderers that draw Mermaid (GitHub, GitLab)."""
    lay = layout(graph, findings)
    lines = ["flowchart TD"]
    for box in lay.boxes:
        lines.append(f'  c{box.index}["{_mermaid(box.title)}<br/>{_mermaid(box.text)}"]:::{box.style}')
    backward = []
    for arc in lay.arcs:
        arrow = "-.->" if arc.backward else "-->"
        if arc.backward:
            backward.append(len(backward) + sum(1 for a in lay.arcs if not a.backward))
        lines.append(f'  c{arc.source} {arrow}|"{_mermaid(arc.label)}"| c{arc.target}')
    for style, (fill, stroke) in COLOURS.items():
        lines.append(f"  classDef {style} fill:{fill},stroke:{stroke}")
    if backward:
        lines.append(f"  linkStyle {','.join(map(str, backward))} stroke:{BACKWARD},color:{BACKWARD}")
    return "\n".join(lines) + "\n"


def _mermaid(text: str) -> str:
    return html.escape(text, quote=True).replace("|", "&#124;").replace("[", "&#91;").replace("]", "&#93;")


def to_svg(graph: DepGraph, findings: Sequence[Finding] = ()) -> str:
    """A self-contained SVG picture: cells top to bottom, edges as labelled arcs, a legend."""
    return _svg(layout(graph, findings))


def _svg(lay: Layout) -> str:
    e = html.escape
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{lay.width:.0f}" height="{lay.height:.0f}" '
        f'viewBox="0 0 {lay.width:.0f} {lay.height:.0f}" font-family="Helvetica, Arial, sans-serif">',
        "<defs><marker id=\"arrow\" viewBox=\"0 0 10 10\" refX=\"9\" refY=\"5\" markerWidth=\"7\" "
        "markerHeight=\"7\" orient=\"auto-start-reverse\"><path d=\"M0,0 L10,5 L0,10 z\" fill=\"#5b6b80\"/></marker>"
        "<marker id=\"arrow-back\" viewBox=\"0 0 10 10\" refX=\"9\" refY=\"5\" markerWidth=\"7\" "
        f"markerHeight=\"7\" orient=\"auto-start-reverse\"><path d=\"M0,0 L10,5 L0,10 z\" fill=\"{BACKWARD}\"/></marker></defs>",
        '<rect width="100%" height="100%" fill="white"/>',
        f'<text x="20" y="30" font-size="16" font-weight="bold">{e(lay.title)}</text>',
        '<text x="20" y="50" font-size="11" fill="#555">arcs: a name bound (or changed) in the upper cell '
        "is read by the lower one; dashed \u2191 arcs: read from a cell below, the only place it is bound</text>",
    ]
    for arc in lay.arcs:
        cx = arc.x + arc.bulge
        colour, extra, marker = ((BACKWARD, ' stroke-dasharray="6 4"', "arrow-back") if arc.backward
                                 else ("#5b6b80", "", "arrow"))
        out.append(
            f'<path d="M{arc.x:.1f},{arc.y1:.1f} C{cx:.1f},{arc.y1:.1f} {cx:.1f},{arc.y2:.1f} {arc.x + 2:.1f},{arc.y2:.1f}" '
            f'fill="none" stroke="{colour}" stroke-width="1.3"{extra} marker-end="url(#{marker})" opacity="0.85"/>'
        )
        out.append(f'<text x="{arc.label_x:.1f}" y="{arc.label_y:.1f}" font-size="11" '
                   f'fill="{BACKWARD if arc.backward else "#1f3a5f"}" '
                   f'stroke="white" stroke-width="3" paint-order="stroke">{e(arc.label)}</text>')
    for box in lay.boxes:
        fill, stroke = COLOURS[box.style]
        out.append(f"<g><title>{e(box.tooltip)}</title>"
                   f'<rect x="{box.x}" y="{box.y}" width="{box.w}" height="{box.h}" rx="5" fill="{fill}" '
                   f'stroke="{stroke}" stroke-width="1.5"/>'
                   f'<text x="{box.x + 8}" y="{box.y + 15}" font-size="11" fill="#444">{e(box.title)}</text>'
                   f'<text x="{box.x + 8}" y="{box.y + 32}" font-size="13" font-family="Menlo, Consolas, monospace">'
                   f"{e(box.text)}</text></g>")
    y = lay.height - 22 * (len(LEGEND) + 1) - 10
    for style, text in LEGEND:
        fill, stroke = COLOURS[style]
        out.append(f'<rect x="20" y="{y}" width="16" height="14" fill="{fill}" stroke="{stroke}"/>'
                   f'<text x="44" y="{y + 12}" font-size="12">{e(text)}</text>')
        y += 22
    out.append(f'<path d="M18,{y + 7} L38,{y + 7}" stroke="{BACKWARD}" stroke-width="1.5" stroke-dasharray="4 3"/>'
               f'<text x="44" y="{y + 12}" font-size="12">{e(BACKWARD_LEGEND)}</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


def to_html(graph: DepGraph, findings: Sequence[Finding] = ()) -> str:
    """One self-contained HTML page: the SVG picture and a table of the findings."""
    e = html.escape
    rows = "\n".join(
        f"<tr class=\"{f.severity}\"><td>{f.code}</td><td>{f.severity}</td>"
        f"<td>{'' if f.cell_index is None else e(cell_label(f))}</td><td>{f.line or ''}</td>"
        f"<td>{e(', '.join(f.names))}</td><td>{e(printable(f.message))}</td></tr>"
        for f in findings
    ) or '<tr><td colspan="6">no findings</td></tr>'
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>nbdeps: {e(printable(graph.notebook.name))}</title>
<style>
body {{ font-family: Helvetica, Arial, sans-serif; margin: 24px; color: #222; }}
table {{ border-collapse: collapse; margin: 16px 0; }}
td, th {{ border: 1px solid #ccc; padding: 4px 8px; text-align: left; vertical-align: top; }}
tr.error td {{ background: #fde0dc; }} tr.warning td {{ background: #fff3cd; }}
tr.info td {{ background: #f4f7fb; }}
.graph {{ overflow: auto; border: 1px solid #ddd; }}
</style></head><body>
<h1>nbdeps: {e(printable(graph.notebook.name))}</h1>
<h2>Findings ({len(findings)})</h2>
<table><tr><th>code</th><th>severity</th><th>cell</th><th>line</th><th>names</th><th>message</th></tr>
{rows}
</table>
<h2>Dependency graph ({graph.order} order)</h2>
<div class="graph">
{to_svg(graph, findings)}</div>
</body></html>
"""


def to_png(graph: DepGraph, path: str | Path, findings: Sequence[Finding] = ()) -> Path:
    """Draw the same picture as `to_svg` into a PNG file with matplotlib.

    Raises:
        MissingExtraError: matplotlib is not installed (`pip install nbdeps[png]`).
    """
    try:
        import matplotlib

        matplotlib.use("Agg", force=False)
        from matplotlib.figure import Figure
        from matplotlib.patches import FancyBboxPatch, PathPatch
        from matplotlib.path import Path as MPath
    except ImportError:
        raise MissingExtraError("PNG output needs matplotlib: pip install nbdeps[png]") from None
    lay = layout(graph, findings)
    dpi = 100 if lay.height < 30000 else max(20, int(100 * 30000 / lay.height))
    fig = Figure(figsize=(lay.width / 100, lay.height / 100), dpi=dpi)
    ax = fig.add_axes((0, 0, 1, 1))
    ax.set_xlim(0, lay.width)
    ax.set_ylim(lay.height, 0)
    ax.axis("off")
    ax.text(20, 30, lay.title, fontsize=12, fontweight="bold", va="baseline")
    for arc in lay.arcs:
        cx = arc.x + arc.bulge
        colour = BACKWARD if arc.backward else "#5b6b80"
        verts = [(arc.x, arc.y1), (cx, arc.y1), (cx, arc.y2), (arc.x + 2, arc.y2)]
        ax.add_patch(PathPatch(MPath(verts, [MPath.MOVETO, MPath.CURVE4, MPath.CURVE4, MPath.CURVE4]),
                               fill=False, edgecolor=colour, linewidth=1.1, alpha=0.85,
                               linestyle="--" if arc.backward else "-"))
        ax.annotate("", xy=(arc.x + 1, arc.y2), xytext=(arc.x + 12, arc.y2),
                    arrowprops=dict(arrowstyle="-|>", color=colour, lw=1.1))
        ax.text(arc.label_x, arc.label_y - 4, arc.label, fontsize=8, color=BACKWARD if arc.backward else "#1f3a5f",
                va="center", bbox=dict(facecolor="white", edgecolor="none", pad=0.5))
    for box in lay.boxes:
        fill, stroke = COLOURS[box.style]
        ax.add_patch(FancyBboxPatch((box.x, box.y), box.w, box.h, boxstyle="round,pad=0,rounding_size=5",
                                    facecolor=fill, edgecolor=stroke, linewidth=1.3))
        ax.text(box.x + 8, box.y + 14, box.title, fontsize=8, color="#444", va="baseline")
        ax.text(box.x + 8, box.y + 31, box.text, fontsize=9, family="monospace", va="baseline")
    y = lay.height - 22 * (len(LEGEND) + 1) - 10
    for style, text in LEGEND:
        fill, stroke = COLOURS[style]
        ax.add_patch(FancyBboxPatch((20, y), 16, 14, boxstyle="square,pad=0", facecolor=fill, edgecolor=stroke))
        ax.text(44, y + 12, text, fontsize=9, va="baseline")
        y += 22
    ax.plot([18, 38], [y + 7, y + 7], color=BACKWARD, linestyle="--", linewidth=1.3)
    ax.text(44, y + 12, BACKWARD_LEGEND, fontsize=9, va="baseline")
    out = Path(path)
    fig.savefig(out, format="png", dpi=dpi, facecolor="white")
    return out
