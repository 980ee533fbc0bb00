"""describe(): pick the adapter for an object's type and run it within a time budget.

An adapter is chosen by walking the type's MRO and reading each class's ``__module__``;
a library adapter is used only when that library is already in ``sys.modules``, so
rtextract never imports a heavy library itself.
"""

from __future__ import annotations

import importlib
import sys
import warnings
from typing import Any

from rtextract._builder import Builder, Deadline, _message, top_module
from rtextract._model import Facts

__all__ = ["DEFAULT_BUDGET_MS", "DEFAULT_MAX_ITEMS", "describe", "describe_within"]

DEFAULT_BUDGET_MS = 30.0
DEFAULT_MAX_ITEMS = 20

# top-level package of a class's module -> (library that must be loaded, adapter module)
_ADAPTERS: dict[str, tuple[str, str]] = {
    "numpy": ("numpy", "_numpy"),
    "pandas": ("pandas", "_pandas"),
    "sklearn": ("sklearn", "_sklearn"),
    "torch": ("torch", "_torch"),
    "keras": ("keras", "_keras"),
    "tensorflow": ("tensorflow", "_keras"),
    "tf_keras": ("tf_keras", "_keras"),
    "PIL": ("PIL", "_pil"),
    "matplotlib": ("matplotlib", "_matplotlib"),
    "builtins": ("builtins", "_python"),
    "collections": ("collections", "_python"),
}


def describe(obj: Any, *, budget_ms: float = DEFAULT_BUDGET_MS,
             max_items: int = DEFAULT_MAX_ITEMS) -> Facts:
    """Describe a live object as bounded, JSON-able runtime facts.

    Args:
        obj: any object; it is never modified, iterated or asked to compute lazily.
        budget_ms: time after which no new step starts (a running C call is not cut).
        max_items: cap on listed columns, layers, keys, children and examples.

    Returns:
        Facts with ``kind``, ``type_name``, tagged ``items`` (S/R/V), ``notes`` on
        sampling, time-outs and errors, and ``children`` (pipeline steps, layers).

    Never raises: an error inside an adapter becomes a note and the facts found so far.

    Example:
        >>> describe([1, 2, 3]).get("length")
        3
    """
    return describe_within(obj, Deadline(budget_ms), max_items, 0)


def describe_within(obj: Any, deadline: Deadline, max_items: int, depth: int) -> Facts:
    """describe() sharing a deadline with a caller (snapshot, a parent's children)."""
    builder = Builder(obj, deadline=deadline, max_items=max_items, depth=depth,
                      describe_child=describe_within)
    try:
        with warnings.catch_warnings():
            # libraries warn about deprecated attributes; the user's output stays clean
            warnings.simplefilter("ignore")
            _run_adapters(_view(obj, builder), builder)
    except Exception as exc:  # a last guard: describe() never raises
        builder.note(f"describe failed: {type(exc).__name__}")
    return builder.build()


def _view(obj: Any, builder: Builder) -> Any:
    """The object the adapters read: a plain library view of a user subclass's data."""
    from rtextract._views import plain_view

    view, note = plain_view(obj)
    if note is not None:
        builder.note(note)
    return view


def _run_adapters(obj: Any, builder: Builder) -> None:
    from rtextract._views import NO_VIEW

    if obj is NO_VIEW:  # a data subclass that cannot be read safely: generic facts only
        from rtextract import _generic

        _generic.describe(builder.obj, builder)
        return
    tried: set[str] = set()
    for klass in _mro(type(obj)):
        entry = _ADAPTERS.get(top_module(klass))
        if entry is None or entry[1] in tried or entry[0] not in sys.modules:
            continue
        tried.add(entry[1])
        adapter = importlib.import_module(f"rtextract.{entry[1]}")
        # the adapter's cheap headline facts run even on a spent budget; its costly
        # steps go through builder.step, which checks the deadline
        try:
            if adapter.describe(obj, builder):
                return
        except Exception as exc:
            builder.note(f"{entry[1][1:]} adapter: {type(exc).__name__}: {_message(exc)}")
            if builder.kind != "object":
                return
    from rtextract import _generic

    _generic.describe(obj, builder)


def _mro(tp: type) -> tuple[type, ...]:
    try:
        mro = type.__getattribute__(tp, "__mro__")
    except Exception:
        return (tp,)
    return tuple(k for k in mro if k is not object) if type(mro) is tuple else (tp,)
