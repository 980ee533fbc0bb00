"""Adapter for builtin Python objects: numbers, strings, containers, functions, classes,
modules, generators.

Containers are read through the exact builtin methods (``list.__len__(obj)``), so a
subclass that overrides ``__len__`` or ``__iter__`` is not run.
"""

from __future__ import annotations

import collections
import inspect
import types
from typing import Any

from rtextract._builder import MAX_STR, Builder, dict_of, jsonable, static_attr, type_name

__all__ = ["describe"]

_PRIMITIVES = (type(None), bool, int, float, complex, str, bytes)
_EXAMPLES = 3


def describe(obj: Any, b: Builder) -> bool:
    tp = type(obj)
    for base, handler in _HANDLERS:
        if issubclass(tp, base):
            handler(obj, b)
            return True
    return False


def _number(obj: Any, b: Builder) -> None:
    tp = type(obj)
    base = bool if issubclass(tp, bool) else int if issubclass(tp, int) else (
        float if issubclass(tp, float) else complex)
    b.kind = f"python.{base.__name__}"
    if issubclass(tp, int) and not issubclass(tp, bool) and int.bit_length(obj) > 63:
        b.add("digits", len(str(int.bit_length(obj))), "S", "approximate: from the bit length")
        b.add("bit_length", int.bit_length(obj), "S")
        return
    b.add("value", str(complex.__repr__(obj)) if base is complex else obj, "V")
    name = dict_of(obj).get("_name_")
    if isinstance(name, str):  # an enum member
        b.add("enum", f"{tp.__name__}.{name}", "R")


def _text(obj: Any, b: Builder) -> None:
    tp = type(obj)
    base = str if issubclass(tp, str) else bytes if issubclass(tp, bytes) else bytearray
    b.kind = f"python.{base.__name__}"
    length = base.__len__(obj)
    b.add("length", length, "S")
    prefix = base.__getitem__(obj, slice(0, MAX_STR))
    b.add("prefix" if length > MAX_STR else "value",
          prefix if base is str else repr(bytes(prefix)), "V")


def _sequence(obj: Any, b: Builder) -> None:
    tp = type(obj)
    base = next(t for t in (list, tuple, collections.deque) if issubclass(tp, t))
    b.kind = f"python.{base.__name__}"
    length = base.__len__(obj)
    b.add("length", length, "S")
    head = [item for _, item in zip(range(b.max_items), base.__iter__(obj))]
    if length <= 10 and all(issubclass(type(v), _PRIMITIVES) for v in head):
        b.add("value", head, "V")  # a shape, a small config tuple: the whole value helps
    _elements(head, length, b)
    fields = static_attr(obj, "_fields") if base is tuple else None
    if type(fields) is tuple:  # a namedtuple
        b.add("fields", list(fields), "R")
    if head and not issubclass(type(head[0]), _PRIMITIVES):
        b.child("[0]", head[0])


def _set(obj: Any, b: Builder) -> None:
    tp = type(obj)
    base = set if issubclass(tp, set) else frozenset
    b.kind = f"python.{base.__name__}"
    length = base.__len__(obj)
    b.add("length", length, "S")
    items = list(base.__iter__(obj)) if length <= 1000 else []
    # set order changes with string hashing between runs: sort to stay deterministic
    items.sort(key=lambda v: (type_name(type(v)), _sort_key(v)))
    _elements(items[: b.max_items], length, b)


def _sort_key(value: Any) -> str:
    rendered = jsonable(value)
    return rendered if isinstance(rendered, str) else repr(rendered)


def _elements(head: list[Any], length: int, b: Builder) -> None:
    counts: dict[str, int] = {}
    for item in head:
        name = type_name(type(item))
        counts[name] = counts.get(name, 0) + 1
    note = None if length <= len(head) else f"of the first {len(head)} of {length:,} elements"
    b.add("element_types", dict(sorted(counts.items())), "R", note)
    examples = [v for v in head if issubclass(type(v), _PRIMITIVES)][:_EXAMPLES]
    if examples:
        b.add("examples", examples, "V")


def _mapping(obj: Any, b: Builder) -> None:
    tp = type(obj)
    b.kind = "python.dict"
    length = dict.__len__(obj)
    b.add("length", length, "S")
    keys = [k for _, k in zip(range(b.max_items), dict.__iter__(obj))]
    b.add("keys", keys, "R", None if length <= len(keys) else f"first {len(keys)} of {length:,}")
    types_ = {}
    for key in keys:
        types_[jsonable(key) if isinstance(jsonable(key), str) else str(jsonable(key))] = type_name(
            type(dict.__getitem__(obj, key)))
    b.add("value_types", types_, "R")
    if issubclass(tp, collections.defaultdict):
        b.add("default_factory", type_name(obj.default_factory) if isinstance(
            obj.default_factory, type) else str(type(obj.default_factory).__name__), "R")
    for key in keys[:_EXAMPLES]:
        value = dict.__getitem__(obj, key)
        if not issubclass(type(value), _PRIMITIVES):
            b.child(f"[{jsonable(key)!r}]" if isinstance(key, str) else f"[{jsonable(key)}]", value)


def _range(obj: range, b: Builder) -> None:
    b.kind = "python.range"
    b.add("length", range.__len__(obj), "S")
    b.add("start_stop_step", [obj.start, obj.stop, obj.step], "V")


def _function(obj: Any, b: Builder) -> None:
    b.kind = "python.function"
    b.add("name", _qualname(obj), "R")
    module = getattr(obj, "__module__", None)
    b.add("module", module if isinstance(module, str) else None, "R")
    b.step("signature", _signature, obj, b)


def _signature(obj: Any, b: Builder) -> None:
    try:
        b.add("signature", str(inspect.signature(obj)), "R")
    except (ValueError, TypeError):  # many C functions publish no signature: not an error
        pass


def _qualname(obj: Any) -> Any:
    # functions, methods and generators are final builtin types: their getters are C code
    name = getattr(obj, "__qualname__", None) or getattr(obj, "__name__", None)
    return name if isinstance(name, str) else None


def _class(obj: type, b: Builder) -> None:
    b.kind = "python.class"
    b.add("name", type_name(obj), "R")
    bases = type.__getattribute__(obj, "__bases__")
    b.add("bases", [type_name(k) for k in bases], "R")
    namespace = type.__getattribute__(obj, "__dict__")
    init = namespace.get("__init__") if type(namespace) is types.MappingProxyType else None
    if inspect.isfunction(init):
        b.step("signature", lambda: b.add("signature", str(inspect.signature(init)), "R"))


def _module(obj: types.ModuleType, b: Builder) -> None:
    b.kind = "python.module"
    namespace = dict_of(obj)
    b.add("name", namespace.get("__name__"), "R")
    version = namespace.get("__version__")
    if isinstance(version, str):
        b.add("version", version, "R")


def _generator(obj: Any, b: Builder) -> None:
    b.kind = "python.generator"
    b.add("name", _qualname(obj), "R")
    state = (inspect.getgeneratorstate(obj) if inspect.isgenerator(obj)
             else inspect.getcoroutinestate(obj) if inspect.iscoroutine(obj) else None)
    if state:
        b.add("state", state, "V")
    b.note("generators and iterators are never advanced")


def _none(obj: Any, b: Builder) -> None:
    b.kind = "python.None"
    b.add("value", None, "V")


_HANDLERS: tuple[tuple[Any, Any], ...] = (
    (type(None), _none),
    ((bool, int, float, complex), _number),
    ((str, bytes, bytearray), _text),
    ((list, tuple, collections.deque), _sequence),
    ((set, frozenset), _set),
    (dict, _mapping),
    (range, _range),
    ((types.FunctionType, types.BuiltinFunctionType, types.MethodType,
      types.BuiltinMethodType), _function),
    (type, _class),
    (types.ModuleType, _module),
    ((types.GeneratorType, types.CoroutineType, types.AsyncGeneratorType), _generator),
)
