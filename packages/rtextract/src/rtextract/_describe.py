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
from rtextract._bound import UserCodeTimeout, bounded_call, can_bound
from rtextract._trust import lookup_runs_user_code

__all__ = ["BACKSTOP_MS", "DEFAULT_BUDGET_MS", "DEFAULT_MAX_ITEMS", "backstop", "describe",
           "describe_within"]

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
            if depth == 0:
                backstop(lambda: _describe(obj, builder), deadline, builder.note)
            else:
                _describe(obj, builder)
    except Exception as exc:  # a last guard: describe() never raises
        builder.note(f"describe failed: {type(exc).__name__}")
    return builder.build()


#: The hard stop of a whole description, past its budget: steps are checked against the
#: budget and steps that may reach user code are bounded, so this only stops what slipped
#: through both (in the main thread; elsewhere nothing can stop it).
BACKSTOP_MS = 1000.0


def backstop(fn: Any, deadline: Deadline, note: Any) -> None:
    """Run ``fn`` under `bounded_call` until `BACKSTOP_MS` past ``deadline``; a stop or a
    missing timer is noted (without a timer ``fn`` runs unbounded: its steps are guarded)."""
    limit = Deadline(deadline.remaining_ms() + BACKSTOP_MS, deadline.budget_ms + BACKSTOP_MS)
    if not can_bound():
        fn()
        return
    try:
        bounded_call(fn, limit)
    except UserCodeTimeout as exc:
        note(f"description stopped: {exc}; facts found so far are kept")


def _describe(obj: Any, builder: Builder) -> None:
    view = _view(obj, builder)  # a data subclass's plain view is read whatever it overrides
    if view is obj and lookup_runs_user_code(obj):  # even type(obj).__name__ runs its code
        from rtextract import _generic

        builder.note("attribute lookup of this object runs user code: only its type and "
                     "instance dict are read")
        _generic.describe(obj, builder)
        return
    _run_adapters(view, builder)


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
