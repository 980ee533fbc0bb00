"""Names and instance dicts of types and objects, read without running any user code.

Leaf helpers shared by `rtextract._builder` and `rtextract._trust` (which must not import
each other): only C-level lookups (``type.__getattribute__``, ``object.__getattribute__``).
"""

from __future__ import annotations

import types
from typing import Any

__all__ = ["dict_of", "short_name", "top_module", "type_name"]


def type_name(tp: type) -> str:
    """Fully qualified name of a type, read from the type's own dict (no metaclass code)."""
    module = _type_str(tp, "__module__")
    qual = _type_str(tp, "__qualname__") or _type_str(tp, "__name__") or "?"
    return qual if module in ("", "builtins") else f"{module}.{qual}"


def _type_str(tp: type, attr: str) -> str:
    try:
        value = type.__getattribute__(tp, attr)
    except Exception:
        return ""
    return value if isinstance(value, str) else ""


def top_module(tp: type) -> str:
    """Top-level package of the module that defines ``tp`` ("pandas", "builtins", ...)."""
    return _type_str(tp, "__module__").partition(".")[0]


def dict_of(obj: Any) -> dict[str, Any]:
    """The instance ``__dict__`` (empty when there is none), read without user code.

    A class that defines ``__dict__`` itself (a property) gets an empty dict: reading it
    would run that code.
    """
    try:
        for klass in type.__getattribute__(type(obj), "__mro__"):
            entry = type.__getattribute__(klass, "__dict__").get("__dict__")
            if entry is not None:
                if type(entry) not in _C_DICT:
                    return {}
                break
        value = object.__getattribute__(obj, "__dict__")
    except Exception:
        return {}
    return value if type(value) is dict else {}


_C_DICT = (type(type.__dict__["__dict__"]), type(types.ModuleType.__dict__["__dict__"]))


def short_name(tp: type) -> str:
    """A type's ``__name__``, read from the type itself (no metaclass code)."""
    return _type_str(tp, "__name__") or "?"
