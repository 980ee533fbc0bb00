"""The mutable builder adapters fill, the time budget, and safe value conversion.

Everything here touches objects only through their type, a static attribute lookup
(`rtextract._trust.static_lookup`) and the exact builtin types, so it runs no user code.
"""

from __future__ import annotations

import datetime as _dt
import math
import sys
import time
import types
from collections.abc import Callable
from typing import Any

from rtextract._model import Fact, Facts
from rtextract._bound import NoTimeBound, UserCodeTimeout, bounded_call
from rtextract._typeinfo import _type_str, dict_of, short_name, top_module, type_name  # noqa: F401
from rtextract._trust import _MISSING as _MISSING_ATTR
from rtextract._trust import class_attr, static_lookup, user_arrays

__all__ = [
    "GRACE_MS",
    "MAX_DEPTH",
    "MAX_STR",
    "Builder",
    "Deadline",
    "brief",
    "dict_of",
    "fmt_count",
    "head_index",
    "jsonable",
    "short_name",
    "static_attr",
    "top_module",
    "type_name",
]

MAX_STR = 80  # characters kept of any string value
MAX_DEPTH = 2  # children of children are described; their children are not
#: Steps on at most this many plain (numeric, boolean, text) values run whatever the budget.
SMALL_ELEMENTS = 1_000
#: A step that may reach user code is stopped this long after the object's budget (a
#: healthy step that started in time is rarely cut; a hostile one is stopped soon after).
GRACE_MS = 500.0


class Deadline:
    """A point in time after which adapters stop starting new steps.

    ``budget_ms`` names the budget in messages; it is the time left at creation unless
    ``named_ms`` gives the budget this deadline belongs to.
    """

    __slots__ = ("end", "budget_ms")

    def __init__(self, budget_ms: float, named_ms: float | None = None) -> None:
        self.budget_ms = max(0.0, float(budget_ms if named_ms is None else named_ms))
        self.end = time.perf_counter() + max(0.0, float(budget_ms)) / 1000.0

    def expired(self) -> bool:
        return time.perf_counter() >= self.end

    def remaining_ms(self) -> float:
        return max(0.0, (self.end - time.perf_counter()) * 1000.0)


def static_attr(obj: Any, name: str, default: Any = None) -> Any:
    """Look ``name`` up without running properties, descriptors or ``__getattr__``.

    Instance-dict values and plain class attributes come back as they are; anything that
    would need code to run (a property, a slot-less descriptor) gives ``default``.
    """
    try:
        value = static_lookup(obj, name)
    except Exception:
        return default
    kind = type(value)
    if kind is property or class_attr(kind, "__get__") is not _MISSING_ATTR and not (
            _is_plain_callable(value)):
        # member descriptors (__slots__) are C-level reads, safe to resolve
        if kind is types.MemberDescriptorType:
            try:
                return value.__get__(obj, type(obj))
            except Exception:
                return default
        return default
    return value


def _is_plain_callable(value: Any) -> bool:
    return type(value) in (types.FunctionType, types.BuiltinFunctionType)


def fmt_count(n: int) -> str:
    return f"{n:,}"


def head_index(shape: tuple[int, ...], limit: int) -> tuple[tuple[slice, ...], int]:
    """Index taking a leading block of at most ``limit`` elements from an array of ``shape``.

    Returns the tuple of slices and the number of elements it selects; the block is the
    first rows (and, when one row is already too big, the first columns of the first row).
    """
    index: list[slice] = []
    taken = 1
    for axis, n in enumerate(shape):
        inner = math.prod(shape[axis + 1 :])
        if n * inner <= limit:
            index.append(slice(None))
            index.extend(slice(None) for _ in shape[axis + 1 :])
            taken *= n * inner
            break
        rows = limit // inner if inner else n
        if rows >= 1:
            index.append(slice(0, rows))
            index.extend(slice(None) for _ in shape[axis + 1 :])
            taken *= rows * inner
            break
        index.append(slice(0, 1))
    return tuple(index), taken


def _clip(text: str, limit: int = MAX_STR) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


# standard-library value types whose str() is their value; matched by the module that
# defines the exact type, so user subclasses (defined elsewhere) never reach str()
_SAFE_STR_MODULES = frozenset({"decimal", "_decimal", "_pydecimal", "fractions", "uuid",
                               "pathlib", "ipaddress"})


def jsonable(value: Any, depth: int = 0, max_items: int = 50, max_str: int = MAX_STR) -> Any:
    """Convert ``value`` into bounded JSON data without calling code of unknown types.

    NaN becomes the string "nan" and infinities "inf"/"-inf", so ``json.dumps(...,
    allow_nan=False)`` always works; unknown objects become ``"<module.Type>"``.
    """
    tp = type(value)
    if value is None or tp is bool or tp is str and len(value) <= max_str:
        return value
    if tp is int:
        return value if value.bit_length() <= 63 else f"<int of {value.bit_length()} bits>"
    if tp is float:
        return _float(value)
    if tp is str:
        return _clip(value, max_str)
    if issubclass(tp, (bool, int, float, str)):
        return _builtin_subclass(value)
    if tp in (list, tuple) or tp.__name__ == "Size" and top_module(tp) == "torch":
        if depth >= 6:
            return "<nested too deep>"
        items = [jsonable(v, depth + 1, max_items, max_str) for v in tuple.__getitem__(tuple(value), slice(0, max_items))]
        if len(value) > max_items:
            items.append(f"… {len(value) - max_items:,} more")
        return items
    if tp is dict:
        if depth >= 6:
            return "<nested too deep>"
        out: dict[str, Any] = {}
        for i, (k, v) in enumerate(dict.items(value)):
            if i >= max_items:
                out["…"] = f"{len(value) - max_items:,} more"
                break
            out[_key(k)] = jsonable(v, depth + 1, max_items, max_str)
        return out
    if tp is bytes or tp is bytearray:
        return _clip(repr(bytes(value[:MAX_STR])))
    return _foreign_scalar(value, tp)


def _float(value: float) -> Any:
    if math.isnan(value):
        return "nan"
    if math.isinf(value):
        return "inf" if value > 0 else "-inf"
    return value


def _builtin_subclass(value: Any) -> Any:
    # an enum member or another subclass: read the builtin value through the base type
    tp = type(value)
    if issubclass(tp, bool):
        return bool(int.__index__(value))
    if issubclass(tp, int):
        return jsonable(int.__index__(value))
    if issubclass(tp, float):
        return _float(float.__float__(value))
    return _clip(str.__str__(value))


def _key(key: Any) -> str:
    value = jsonable(key)
    return value if isinstance(value, str) else _dumps_key(value)


def _dumps_key(value: Any) -> str:
    import json

    return json.dumps(value, sort_keys=True, ensure_ascii=False)


def _foreign_scalar(value: Any, tp: type) -> Any:
    top = top_module(tp)
    try:
        if top == "numpy" and hasattr(tp, "item") and hasattr(tp, "dtype"):
            kind = value.dtype.kind
            if value.dtype.hasobject:  # a record holding Python objects: str() prints them
                return f"<{type_name(tp)}>"
            if kind in "Mm":
                return _clip(str(value))
            if kind in "SUV":
                return _clip(str(value))
            return jsonable(value.item())
        if top == "pandas":
            name = tp.__name__
            if name in ("NaTType", "NAType"):
                return "NaT" if name == "NaTType" else "NA"
            if name in ("Timestamp", "Timedelta", "Period", "Interval"):
                return _clip(str(value))
        if tp in (_dt.datetime, _dt.date, _dt.time):
            return value.isoformat()
        if tp is _dt.timedelta or tp is complex or _type_str(tp, "__module__") in _SAFE_STR_MODULES:
            return _clip(str(value))
        if top in ("torch", "tensorflow") and tp.__name__ in ("dtype", "DType", "device"):
            return str(value)
    except Exception:
        pass
    return f"<{type_name(tp)}>"


def brief(value: Any) -> Any:
    """A one-line structural summary of a value held by another object (an attribute).

    Only trusted types are asked for their shape; anything else gives its type name.
    """
    tp = type(value)
    if value is None or tp in (bool, int, float) or tp is str and len(value) <= 40:
        return jsonable(value)
    if tp in (str, bytes, list, tuple, dict, set, frozenset):
        return f"{tp.__name__} of length {len(value):,}"
    top = top_module(tp)
    try:
        if top in ("numpy", "torch", "pandas", "tensorflow", "keras"):
            shape = getattr(value, "shape", None) if top != "pandas" or tp.__name__ in (
                "DataFrame", "Series", "Index") else None
            if shape is not None and not callable(shape):
                dims = [d if type(d) is int else jsonable(d) for d in tuple(shape)]
                # the dtype of a user ExtensionArray is its own code
                dtype = getattr(value, "dtype", None) if tp.__name__ != "DataFrame" and (
                    top != "pandas" or user_arrays(value) is None) else None
                text = f"{tp.__name__} shape {dims}"
                return text + (f" {dtype}" if dtype is not None else "")
    except Exception:
        pass
    return f"<{type_name(tp)}>"


class Builder:
    """Collects facts for one object; adapters call ``add``, ``step`` and ``child``."""

    def __init__(self, obj: Any, *, deadline: Deadline, max_items: int, depth: int,
                 describe_child: Callable[..., Facts]) -> None:
        self.obj = obj
        self.kind = "object"
        self.type_name = type_name(type(obj))
        self.deadline = deadline
        self.max_items = max(1, int(max_items))
        self.depth = depth
        self._describe_child = describe_child
        self._items: list[Fact] = []
        self._keys: set[str] = set()
        self._notes: list[str] = []
        self._skipped: list[str] = []
        self._children: list[tuple[str, Facts]] = []

    def add(self, key: str, value: Any, category: str, note: str | None = None, *,
            max_str: int = MAX_STR, max_items: int | None = None) -> None:
        """Record a fact; the first value recorded for a key wins.

        Lists and dicts in ``value`` are cut at ``max_items`` (default: the builder's),
        strings at ``max_str`` characters.
        """
        if key in self._keys:
            return
        self._keys.add(key)
        limit = self.max_items if max_items is None else max_items
        self._items.append(Fact(key, jsonable(value, max_items=limit, max_str=max_str), category, note))

    def has(self, key: str) -> bool:
        """Whether a fact named ``key`` was recorded."""
        return key in self._keys

    def note(self, text: str) -> None:
        if text not in self._notes:
            self._notes.append(_clip(text, 300))

    def step(self, label: str, fn: Callable[..., Any], *args: Any, bounded: bool = False,
             user_code: str | None = None) -> Any:
        """Run one adapter step unless the budget is spent; turn its errors into notes.

        A ``bounded`` step (library code on at most `SMALL_ELEMENTS` plain values) runs even
        when the budget is spent: its cost is bounded by its input, and the facts of a small
        object must not depend on how busy the machine was (an LLM prompt built from them is
        cached by its text).

        ``user_code`` says why the step's library code may reach user code (an extension
        array of the user's, cells holding objects): the step then runs under a real time
        bound, `GRACE_MS` past the budget (see `rtextract._trust.bounded_call`), and not at
        all where no such bound can be armed.
        """
        if self.deadline.expired() and not bounded:
            self._skipped.append(label)
            return None
        try:
            if user_code is None:
                return fn(*args)
            return bounded_call(lambda: fn(*args), Deadline(self.deadline.remaining_ms() + GRACE_MS,
                                                            self.deadline.budget_ms))
        except NoTimeBound:
            why = f"it could run user code ({user_code})" if user_code else "it runs user code"
            self.note(f"{label}: not computed: {why} and no time bound is possible outside "
                      "the main thread")
        except UserCodeTimeout as exc:
            self.note(f"{label}: {exc}" + (f" (it may run user code: {user_code})"
                                           if user_code else ""))
        except RecursionError:
            self.note(f"{label}: recursion too deep")
        except Exception as exc:  # any library or user error becomes a note, never raised
            self.note(f"{label}: {type(exc).__name__}: {_message(exc)}")
        return None

    def child(self, name: str, obj: Any) -> None:
        """Describe ``obj`` as a named child (pipeline step, layer), within the same budget."""
        if self.depth >= MAX_DEPTH or self.deadline.expired():
            return
        if len(self._children) >= self.max_items:
            self.note(f"children: only the first {self.max_items} described")
            return
        facts = self._describe_child(obj, self.deadline, self.max_items, self.depth + 1)
        self._children.append((str(name), facts))

    def build(self) -> Facts:
        notes = list(self._notes)
        if self._skipped:
            notes.append(f"time budget of {self.deadline.budget_ms:g} ms spent; skipped: "
                         + ", ".join(self._skipped[:10]))
        return Facts(
            kind=self.kind,
            type_name=self.type_name,
            items=tuple(self._items),
            notes=tuple(notes),
            children=tuple(self._children),
        )


def _message(exc: BaseException) -> str:
    try:
        text = str(exc)
    except Exception:
        text = "<unprintable message>"
    return _clip(text.splitlines()[0] if text else "", 160)


def loaded(name: str) -> Any:
    """The module ``name`` if it is already imported, else None (never imports it)."""
    return sys.modules.get(name)

