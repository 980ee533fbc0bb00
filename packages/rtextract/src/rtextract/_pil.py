"""Adapter for PIL images: size and mode, read from attributes (the pixels are never loaded)."""

from __future__ import annotations

import sys
from typing import Any

from rtextract._builder import Builder, dict_of, jsonable
from rtextract._trust import library_attr

__all__ = ["describe"]


def describe(obj: Any, b: Builder) -> bool:
    image = sys.modules.get("PIL.Image")
    if image is None or not issubclass(type(obj), image.Image):
        return False
    b.kind = "PIL.Image"
    state = dict_of(obj)
    size = state.get("_size", None)
    size = size if size is not None else library_attr(obj, "size")
    b.add("size", jsonable(list(size) if type(size) in (tuple, list) else size), "S",
          "width, height")
    mode = state.get("_mode", None) or library_attr(obj, "mode")
    b.add("mode", jsonable(mode), "R")
    if type(mode) is str:
        b.add("n_channels", image.getmodebands(mode), "S")
    fmt = state.get("format") or type.__getattribute__(type(obj), "__dict__").get("format")
    if type(fmt) is str:
        b.add("format", fmt, "R")
    info = state.get("info")
    if type(info) is dict and info:
        b.add("info_keys", sorted(str(jsonable(k)) for k in info)[: b.max_items], "R")
    if type(state.get("filename")) is str and state["filename"]:
        b.add("filename", jsonable(state["filename"]), "R")
    return True
