"""Adapter for matplotlib figures and axes: size, subplot grid, titles and artist counts.

Axis limits are not read: ``get_xlim`` would apply pending autoscaling, changing the axes.
"""

from __future__ import annotations

import sys
from typing import Any

from rtextract._builder import Builder, dict_of

__all__ = ["describe"]


def describe(obj: Any, b: Builder) -> bool:
    figure = sys.modules.get("matplotlib.figure")
    axes = sys.modules.get("matplotlib.axes")
    tp = type(obj)
    if figure is not None and issubclass(tp, figure.FigureBase):
        _figure(obj, b)
    elif axes is not None and issubclass(tp, axes.Axes):
        _axes(obj, b)
    else:
        return False
    return True


def _figure(fig: Any, b: Builder) -> None:
    b.kind = "matplotlib.Figure"
    b.add("size_inches", [round(float(v), 3) for v in fig.get_size_inches()], "S")
    b.add("dpi", float(fig.dpi), "R")
    axes = list(fig.axes)
    b.add("n_axes", len(axes), "S")
    grids = sorted({tuple(_geometry(ax)[:2]) for ax in axes if _geometry(ax)})
    if grids:
        b.add("grid", list(grids[0]) if len(grids) == 1 else [list(g) for g in grids], "S",
              "subplot rows, columns")
    title = dict_of(fig).get("_suptitle")
    if title is not None:
        b.add("suptitle", title.get_text(), "V")
    for i, ax in enumerate(axes[: b.max_items]):
        b.child(f"axes[{i}]", ax)


def _geometry(ax: Any) -> list[int] | None:
    getter = getattr(ax, "get_subplotspec", None)
    spec = getter() if getter else None
    if spec is None:
        return None
    rows, cols, start, _ = spec.get_geometry()
    return [rows, cols, start]


def _axes(ax: Any, b: Builder) -> None:
    b.kind = "matplotlib.Axes"
    geometry = _geometry(ax)
    if geometry:
        b.add("subplot", geometry, "S", "rows, columns, index")
    b.add("title", ax.get_title(), "V")
    b.add("xlabel", ax.get_xlabel(), "V")
    b.add("ylabel", ax.get_ylabel(), "V")
    b.add("n_lines", len(ax.lines), "S")
    b.add("n_collections", len(ax.collections), "S")
    b.add("n_images", len(ax.images), "S")
    b.add("n_patches", len(ax.patches), "S")
    b.add("has_legend", ax.get_legend() is not None, "V")
