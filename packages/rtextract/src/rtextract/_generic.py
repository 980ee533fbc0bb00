"""Fallback adapter: any object, described without running its code.

Only the type, the instance ``__dict__`` / ``__slots__`` values and plain class attributes
are read; ``len()``/``repr()``/properties/``__getattr__`` of unknown types are never called.
"""

from __future__ import annotations

from typing import Any

from rtextract._builder import Builder, brief, dict_of, static_attr, top_module, type_name

__all__ = ["describe"]


def describe(obj: Any, b: Builder) -> bool:
    tp = type(obj)
    b.add("type", type_name(tp), "R")
    b.add("module", top_module(tp) or None, "R")
    b.step("shape", _shape, obj, b)
    b.step("attributes", _attributes, obj, b)
    if _defines(tp, "__next__"):
        b.note("iterators are never advanced")
    if _defines(tp, "__len__"):
        b.note("length not read: __len__ of an unknown type could run arbitrary code")
    return True


def _shape(obj: Any, b: Builder) -> None:
    shape = static_attr(obj, "shape")
    if type(shape) is tuple and all(type(d) is int for d in shape):
        b.add("shape", list(shape), "S")
    dtype = static_attr(obj, "dtype")
    if type(dtype) is str:
        b.add("dtype", dtype, "R")


def _attributes(obj: Any, b: Builder) -> None:
    values: dict[str, Any] = {}
    for name, value in dict_of(obj).items():
        if type(name) is str and not name.startswith("_"):
            values[name] = value
    for name in _slot_names(type(obj)):
        if name not in values and not name.startswith("_"):
            value = static_attr(obj, name, _ABSENT)
            if value is not _ABSENT:
                values[name] = value
    if not values:
        return
    shown = dict(list(values.items())[: b.max_items])
    note = None if len(values) <= len(shown) else f"first {len(shown)} of {len(values)} attributes"
    b.add("attributes", {k: brief(v) for k, v in shown.items()}, "R", note)


_ABSENT = object()


def _slot_names(tp: type) -> list[str]:
    names: list[str] = []
    for klass in type.__getattribute__(tp, "__mro__"):
        slots = type.__getattribute__(klass, "__dict__").get("__slots__", ())
        if type(slots) is str:
            slots = (slots,)
        if type(slots) in (tuple, list):
            names.extend(s for s in slots if type(s) is str)
    return names


def _defines(tp: type, name: str) -> bool:
    return any(name in type.__getattribute__(k, "__dict__")
               for k in type.__getattribute__(tp, "__mro__") if k is not object)
