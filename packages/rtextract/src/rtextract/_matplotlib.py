"""Adapter for matplotlib figures and axes: size, subplot grid, titles and artist counts.

Axis limits are not read: ``get_xlim`` would apply pending autoscaling, changing the axes.
"""

from __future__ import annotations

import sys
from typing import Any

from rtextract._builder import Builder, dict_of, type_name
from rtextract._trust import library_attr, user_classes

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
    b.step("figure", _figure_facts, fig, b, bounded=True, user_code=_user_code(fig))


def _user_code(obj: Any) -> str | None:
    found = user_classes(type(obj))
    return f"user class {type_name(found[0])}" if found else None


def _figure_facts(fig: Any, b: Builder) -> None:
    b.add("size_inches", [round(float(v), 3) for v in library_attr(fig, "get_size_inches")()],
          "S")
    b.add("dpi", float(library_attr(fig, "dpi")), "R")
    axes = list(library_attr(fig, "axes"))
    b.add("n_axes", len(axes), "S")
    geometries = [_geometry(ax) for ax in axes]
    grids = sorted({tuple(g[:2]) for g in geometries if g})
    if grids:
        b.add("grid", list(grids[0]) if len(grids) == 1 else [list(g) for g in grids], "S",
              "subplot rows, columns")
    title = dict_of(fig).get("_suptitle")
    if title is not None:
        b.add("suptitle", library_attr(title, "get_text")(), "V")
    for i, ax in enumerate(axes[: b.max_items]):
        b.child(f"axes[{i}]", ax)


def _geometry(ax: Any) -> list[int] | None:
    if user_classes(type(ax)):  # a user Axes: its subplot spec is its own business
        return None
    getter = getattr(ax, "get_subplotspec", None)
    spec = getter() if getter else None
    if spec is None:
        return None
    rows, cols, start, _ = spec.get_geometry()
    return [rows, cols, start]


def _axes(ax: Any, b: Builder) -> None:
    b.kind = "matplotlib.Axes"
    b.step("axes", _axes_facts, ax, b, bounded=True, user_code=_user_code(ax))


def _axes_facts(ax: Any, b: Builder) -> None:
    geometry = _geometry(ax)
    if geometry:
        b.add("subplot", geometry, "S", "rows, columns, index")
    for key, method in (("title", "get_title"), ("xlabel", "get_xlabel"),
                        ("ylabel", "get_ylabel")):
        b.add(key, library_attr(ax, method)(), "V")
    for key, attr in (("n_lines", "lines"), ("n_collections", "collections"),
                      ("n_images", "images"), ("n_patches", "patches")):
        b.add(key, len(library_attr(ax, attr)), "S")
    b.add("has_legend", library_attr(ax, "get_legend")() is not None, "V")
