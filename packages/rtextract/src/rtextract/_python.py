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

from rtextract._builder import (
    MAX_STR,
    Builder,
    dict_of,
    jsonable,
    short_name,
    static_attr,
    type_name,
)
from rtextract._trust import safe_repr, top_root, trusted_class

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
    if type(name) is str:  # an enum member
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
    # items, never dict[key]: a lookup hashes the key, which may be a user object
    items = [kv for _, kv in zip(range(b.max_items), dict.items(obj))]
    keys = [k for k, _ in items]
    b.add("keys", keys, "R", None if length <= len(keys) else f"first {len(keys)} of {length:,}")
    types_ = {}
    for key, value in items:
        types_[jsonable(key) if isinstance(jsonable(key), str) else str(jsonable(key))] = type_name(
            type(value))
    b.add("value_types", types_, "R")
    if issubclass(tp, collections.defaultdict):
        factory = collections.defaultdict.default_factory.__get__(obj)  # the C getter
        b.add("default_factory", type_name(factory) if issubclass(type(factory), type) else
              short_name(type(factory)), "R")
    for key, value in items[:_EXAMPLES]:
        if not issubclass(type(value), _PRIMITIVES):
            b.child(f"[{jsonable(key)!r}]" if type(key) is str else f"[{jsonable(key)}]", value)


def _range(obj: range, b: Builder) -> None:
    b.kind = "python.range"
    b.add("length", range.__len__(obj), "S")
    b.add("start_stop_step", [obj.start, obj.stop, obj.step], "V")


def _function(obj: Any, b: Builder) -> None:
    b.kind = "python.function"
    b.add("name", _qualname(obj), "R")
    module = _plain_function(obj).__dict__.get("__module__") if _plain_function(obj) else None
    if module is None and isinstance(obj, (types.FunctionType, types.BuiltinFunctionType)):
        module = obj.__module__  # a slot of these final types: C code
    b.add("module", module if type(module) is str else None, "R")
    b.step("signature", _signature, obj, b)


def _signature(obj: Any, b: Builder) -> None:
    text = signature_text(obj)
    if text is not None:
        b.add("signature", text, "R")


def _plain_function(obj: Any) -> types.FunctionType | None:
    """The Python function behind ``obj`` (itself, or a bound method's), if it is one."""
    if type(obj) is types.MethodType:
        obj = obj.__func__  # a member of the method object: C code
    return obj if type(obj) is types.FunctionType else None


def signature_text(obj: Any) -> str | None:
    """``str(inspect.signature(obj))`` without running user code, or None.

    ``inspect.signature`` follows ``__wrapped__`` and ``__signature__`` (which may lead to
    any object), and ``str`` of it calls ``repr`` of every default value: so only plain
    functions, methods of them and builtins are read, and defaults and annotations are
    written with `safe_repr`.
    """
    function = _plain_function(obj)
    if function is None and type(obj) not in (types.BuiltinFunctionType, types.BuiltinMethodType):
        return None
    if function is not None and not plain_wrappers(function):
        return None
    try:
        sig = inspect.signature(obj)
    except (ValueError, TypeError):  # many C functions publish no signature: not an error
        return None
    return _format_signature(sig)


def plain_wrappers(function: types.FunctionType) -> bool:
    """No ``__wrapped__`` / ``__signature__`` in the function's dict but plain ones, so
    ``inspect.signature`` of it reaches no object whose attribute lookup is user code."""
    for _ in range(20):
        attrs = function.__dict__
        signature = attrs.get("__signature__")
        if signature is not None:  # a Signature object stops inspect.signature here
            return type(signature) is inspect.Signature
        wrapped = attrs.get("__wrapped__")
        if wrapped is None:
            return True
        if type(wrapped) is not types.FunctionType:
            return False
        function = wrapped
    return False


def _format_signature(sig: inspect.Signature) -> str:
    parts: list[str] = []
    star = slash = False
    for param in sig.parameters.values():
        kind = param.kind
        if kind == param.POSITIONAL_ONLY:
            slash = True
        elif slash:
            parts.append("/")
            slash = False
        if kind == param.KEYWORD_ONLY and not star:
            parts.append("*")
            star = True
        name = param.name
        if kind == param.VAR_POSITIONAL:
            name, star = f"*{name}", True
        elif kind == param.VAR_KEYWORD:
            name = f"**{name}"
        if param.annotation is not param.empty:
            name += f": {_annotation(param.annotation)}"
        if param.default is not param.empty:
            name += f"{' = ' if param.annotation is not param.empty else '='}" \
                    f"{safe_repr(param.default, 40)}"
        parts.append(name)
    if slash:
        parts.append("/")
    text = f"({', '.join(parts)})"
    if sig.return_annotation is not sig.empty:
        text += f" -> {_annotation(sig.return_annotation)}"
    return text


def _qualname(obj: Any) -> Any:
    # functions, generators and builtins are final types: their getters are C code; a
    # bound method forwards the lookup to its __func__, which may be any callable
    function = _plain_function(obj)
    if type(obj) is types.MethodType and function is None:
        return None
    target = function if function is not None else obj
    name = getattr(target, "__qualname__", None) or getattr(target, "__name__", None)
    return name if type(name) is str else None


def _annotation(value: Any) -> str:
    """The annotation as ``inspect`` writes it, where that runs no user code."""
    if issubclass(type(value), type) and trusted_class(type(value)):
        return type_name(value)
    if type(value) is str:
        return repr(value)
    if _typing_form(value, 0):  # list[int], Optional[str]: typing's repr over plain types
        return repr(value).replace("typing.", "")
    return safe_repr(value, 40)


def _typing_form(value: Any, depth: int) -> bool:
    if value is None or value is Ellipsis or type(value) is str:
        return True
    if issubclass(type(value), type):
        return trusted_class(type(value))
    if depth > 4 or top_root(type(value)) not in ("typing", "types") or not trusted_class(
            type(value)):
        return False
    args = getattr(value, "__args__", ())
    return type(args) is tuple and all(_typing_form(a, depth + 1) for a in args)


def _class(obj: type, b: Builder) -> None:
    b.kind = "python.class"
    b.add("name", type_name(obj), "R")
    bases = type.__getattribute__(obj, "__bases__")
    b.add("bases", [type_name(k) for k in bases], "R")
    namespace = type.__getattribute__(obj, "__dict__")
    init = namespace.get("__init__") if type(namespace) is types.MappingProxyType else None
    if type(init) is types.FunctionType:
        b.step("signature", _signature, init, b)


def _module(obj: types.ModuleType, b: Builder) -> None:
    b.kind = "python.module"
    namespace = dict_of(obj)
    b.add("name", namespace.get("__name__"), "R")
    version = namespace.get("__version__")
    if type(version) is str:
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
