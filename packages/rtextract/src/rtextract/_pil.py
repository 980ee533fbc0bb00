"""Adapter for PIL images: size and mode, read from attributes (the pixels are never loaded)."""

from __future__ import annotations

import sys
from typing import Any

from rtextract._builder import Builder, dict_of, jsonable

__all__ = ["describe"]


def describe(obj: Any, b: Builder) -> bool:
    image = sys.modules.get("PIL.Image")
    if image is None or not issubclass(type(obj), image.Image):
        return False
    b.kind = "PIL.Image"
    state = dict_of(obj)
    size = state.get("_size", None)
    size = size if size is not None else obj.size
    b.add("size", list(size), "S", "width, height")
    b.add("mode", state.get("_mode", None) or obj.mode, "R")
    bands = image.getmodebands(state.get("_mode") or obj.mode)
    b.add("n_channels", bands, "S")
    fmt = state.get("format") or type(obj).__dict__.get("format")
    if isinstance(fmt, str):
        b.add("format", fmt, "R")
    info = state.get("info")
    if isinstance(info, dict) and info:
        b.add("info_keys", sorted(str(k) for k in info)[: b.max_items], "R")
    if isinstance(state.get("filename"), str) and state["filename"]:
        b.add("filename", jsonable(state["filename"]), "R")
    return True
