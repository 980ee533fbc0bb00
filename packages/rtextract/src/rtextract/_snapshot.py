"""snapshot(): describe what a cell touches in a namespace, within one time budget.

An access chain (``model.layers[0]``) is followed only where that runs no user code:
instance-dict values, plain class attributes, ``__getattr__`` of the trusted libraries
(pandas columns, torch submodules, module attributes), a short list of cheap library
properties, and subscripts of builtin containers and of pandas/numpy/torch objects.
"""

from __future__ import annotations

import ast
import sys
import types
from collections.abc import Mapping
from typing import Any

from rtextract._builder import GRACE_MS, Deadline, dict_of, top_module
from rtextract._describe import DEFAULT_BUDGET_MS, DEFAULT_MAX_ITEMS, backstop, describe_within
from rtextract._model import CATEGORIES, Facts, Snapshot, check_categories
from rtextract._select import access_text, select
from rtextract._bound import UserCodeTimeout, bounded_call, can_bound
from rtextract._trust import _MISSING as _MISSING_ATTR
from rtextract._trust import class_attr, lookup_runs_user_code, static_lookup, user_content
from rtextract._views import NO_VIEW, plain_view

__all__ = ["DEFAULT_SNAPSHOT_BUDGET_MS", "MAX_OBJECTS", "resolve", "snapshot"]

DEFAULT_SNAPSHOT_BUDGET_MS = 200.0
MAX_OBJECTS = 40
_STEP_MS = 100.0  # one chain step that may meet user code in the data is stopped after this

_TRUSTED = frozenset({"numpy", "pandas", "torch", "tensorflow", "keras", "tf_keras", "sklearn",
                      "PIL", "matplotlib", "builtins", "collections"})
# library properties that only read metadata; `.values`, `.T` and the like are left out
# because they can copy or compute over the whole object, and pandas accessors (`.str`,
# `.dt`) because creating one caches it on the user's object
_CHEAP_PROPERTIES = frozenset({
    "shape", "dtype", "dtypes", "columns", "index", "ndim", "size", "nbytes", "itemsize",
    "name", "names", "levels", "codes", "categories", "layers", "weights",
    "trainable_weights", "input", "output", "inputs", "outputs", "input_shape", "output_shape",
    "weight", "bias", "grad", "data", "device", "is_cuda", "figure", "axes", "classes_",
    "element_spec", "optimizer", "loss", "metrics", "dataset", "batch_size", "sampler",
    "kernel", "built", "trainable", "mode", "width", "height", "flat", "iloc", "loc",
})


_METHOD_TYPES = (types.FunctionType, types.BuiltinFunctionType, types.MethodDescriptorType,
                 types.WrapperDescriptorType, types.ClassMethodDescriptorType, classmethod,
                 staticmethod)


class _Unresolved(Exception):
    """An access step that would run user code, or that failed (the message says which)."""


def snapshot(namespace: Mapping[str, object], cell_source: str, *, categories: str = CATEGORIES,
             budget_ms: float = DEFAULT_SNAPSHOT_BUDGET_MS) -> Snapshot:
    """Describe the objects ``cell_source`` reads from ``namespace``.

    Args:
        namespace: the user namespace (a kernel's ``user_ns``, ``globals()``).
        cell_source: the code of the cell about to run.
        categories: which fact categories to keep ("S", "R", "V" or a combination).
        budget_ms: total time for the snapshot; each object gets at most 30 ms of it.

    Returns:
        A Snapshot with ``objects`` keyed by access text (``df``, then ``df['col']``) in
        the order the cell first reads them.

    Raises:
        SnapshotFormatError: when ``categories`` holds letters other than S, R and V.
    """
    keep = check_categories(categories)
    deadline = Deadline(budget_ms)
    objects: list[tuple[str, Facts]] = []
    notes: list[str] = []
    backstop(lambda: _describe_accesses(namespace, cell_source, keep, deadline, objects, notes),
             deadline, notes.append)
    return Snapshot(objects=tuple(objects), categories=keep, notes=tuple(dict.fromkeys(notes)))


def _describe_accesses(namespace: Mapping[str, object], cell_source: str, keep: str,
                       deadline: Deadline, objects: list[tuple[str, Facts]],
                       notes: list[str]) -> None:
    budget_ms = deadline.budget_ms
    steps = Deadline(budget_ms + GRACE_MS, budget_ms)  # chain steps stop a little later
    seen: set[str] = set()
    for access in select(cell_source):
        if len(objects) >= MAX_OBJECTS:
            notes.append(f"only the first {MAX_OBJECTS} objects described")
            break
        try:
            present = access.name in namespace
        except Exception:
            present = False
        if not present:
            continue
        for text, obj in _targets(namespace, access.name, access.path, notes, steps):
            if text in seen:
                continue
            seen.add(text)
            if deadline.expired():
                notes.append(f"snapshot budget of {budget_ms:g} ms spent before {text}")
                objects.append((text, _skipped(obj)))
                continue
            per_object = Deadline(min(DEFAULT_BUDGET_MS, deadline.remaining_ms()))
            facts = describe_within(obj, per_object, DEFAULT_MAX_ITEMS, 0)
            objects.append((text, facts if keep == CATEGORIES else facts.filter(keep)))


def _skipped(obj: Any) -> Facts:
    from rtextract._builder import type_name

    return Facts(kind="object", type_name=type_name(type(obj)),
                 notes=("not described: snapshot time budget spent",))


def _targets(namespace: Mapping[str, object], name: str, path: tuple[Any, ...],
             notes: list[str], deadline: Deadline) -> list[tuple[str, Any]]:
    base = namespace[name]
    targets = [(name, base)]
    if path:
        obj, done = resolve(base, path, notes, name, deadline)
        if done:
            targets.append((access_text(name, path[:done]), obj))
    return targets


def resolve(obj: Any, path: tuple[Any, ...], notes: list[str], name: str = "obj",
            deadline: Deadline | None = None) -> tuple[Any, int]:
    """Follow ``path`` from ``obj`` as far as is safe; return the object and steps taken.

    Each step runs only library code, but that code may meet user code in the object's
    data (a user ExtensionArray), so it runs under a real time bound that ends at
    ``deadline`` (default: the per-object budget and `GRACE_MS`); where no bound can be
    armed, a step on data that holds user code (`user_content`) is not taken.
    """
    if deadline is None:
        deadline = Deadline(DEFAULT_BUDGET_MS + GRACE_MS, DEFAULT_BUDGET_MS)
    for done, step in enumerate(path):
        try:
            obj = _bounded_step(obj, step, deadline)
        except _Unresolved as exc:
            notes.append(f"{access_text(name, path[: done + 1])}: {exc}")
            return obj, done
        except Exception as exc:  # a KeyError here is itself a useful fact for the reader
            notes.append(f"{access_text(name, path[: done + 1])}: {type(exc).__name__}: "
                         f"{_short(exc)}")
            return obj, done
    return obj, len(path)


def _bounded_step(obj: Any, step: Any, deadline: Deadline) -> Any:
    if can_bound():
        # a step reads metadata or one column: it never needs more than an object's
        # budget, and the objects are described after it
        limit = Deadline(min(deadline.remaining_ms(), _STEP_MS), _STEP_MS)
        try:
            return bounded_call(lambda: _step(obj, step), limit)
        except UserCodeTimeout as exc:
            raise _Unresolved(f"not evaluated: {exc}") from None
    why = user_content(obj, scan=True)
    if why is not None:
        raise _Unresolved(f"not evaluated: it could run user code ({why}) and no time "
                          "bound is possible outside the main thread")
    return _step(obj, step)


def _short(exc: BaseException) -> str:
    try:
        return str(exc).splitlines()[0][:120] if str(exc) else ""
    except Exception:
        return ""


def _owner(tp: type, name: str) -> type | None:
    for klass in type.__getattribute__(tp, "__mro__"):
        if name in type.__getattribute__(klass, "__dict__"):
            return klass
    return None


def _trusted(klass: type | None) -> bool:
    return klass is not None and top_module(klass) in _TRUSTED


def _step(obj: Any, step: Any) -> Any:
    """One access step; a user subclass of a data type is stepped through its plain view,
    except for the attributes the subclass itself adds (instance values, its own methods)."""
    view = _plain(obj)
    if type(step) is int or str(step).startswith("["):
        return _item(view, step)
    if view is not obj:
        own = _subclass_attribute(obj, step)
        if own is not _NOT_OWN:
            return own
    return _attr(view, step)


_NOT_OWN = object()


def _subclass_attribute(obj: Any, name: str) -> Any:
    """``obj.name`` when the subclass (not the library) provides it and no code must run."""
    state = dict_of(obj)
    if name in state:
        return state[name]
    tp = type(obj)
    owner = _owner(tp, name)
    if owner is None or _trusted(owner):
        return _NOT_OWN
    static = type.__getattribute__(owner, "__dict__")[name]
    if class_attr(type(static), "__get__") is _MISSING_ATTR:
        return static
    if issubclass(type(static), _METHOD_TYPES):
        return static.__get__(obj, tp)  # binding a method runs no user code
    raise _Unresolved("not evaluated: property of a user subclass")


def _plain(obj: Any) -> Any:
    """A user subclass of a data type as the library's own type (see rtextract._views)."""
    view, _ = plain_view(obj)
    if view is NO_VIEW:
        raise _Unresolved("not evaluated: subclass whose data needs its own code")
    tp = type(view)
    if not _trusted(_owner(tp, "__getattribute__") or object) or (
            view is obj and lookup_runs_user_code(obj)):
        raise _Unresolved("not evaluated: custom __getattribute__")
    return view


def _attr(obj: Any, name: str) -> Any:
    if issubclass(type(obj), (types.ModuleType, type)):
        try:
            return static_lookup(obj, name)
        except AttributeError:
            raise _Unresolved("no such attribute") from None
    tp = type(obj)
    column = _frame_column(obj, name)
    if column is not _NO_COLUMN:
        return column
    try:
        static = static_lookup(obj, name)
    except AttributeError:
        if _trusted(_owner(tp, "__getattr__")):
            return getattr(obj, name)  # pandas columns, torch submodules and parameters
        raise _Unresolved("not evaluated: dynamic attribute of a user type") from None
    if class_attr(type(static), "__get__") is _MISSING_ATTR:
        return static
    if issubclass(type(static), _METHOD_TYPES):
        return getattr(obj, name)  # binding a method runs no user code
    if type(static).__name__ == "member_descriptor":
        return static.__get__(obj, tp)
    if _trusted(_owner(tp, name)) and name in _CHEAP_PROPERTIES:
        return getattr(obj, name)
    raise _Unresolved("not evaluated: property")


def _item(obj: Any, step: Any) -> Any:
    key = step if type(step) is int else ast.literal_eval(step[1:-1])
    tp = type(obj)
    if top_module(tp) in ("pandas", "numpy", "torch"):
        from rtextract._mapped import unreadable_memory

        why = unreadable_memory(obj)  # an item of a truncated memmap would kill the kernel
        if why is not None:
            raise _Unresolved(f"not evaluated: {why}")
    if issubclass(tp, (list, tuple)) and type(key) is int:
        base = list if issubclass(tp, list) else tuple
        return base.__getitem__(obj, key)
    if issubclass(tp, dict):
        if dict.__contains__(obj, key):
            return dict.__getitem__(obj, key)
        raise KeyError(key)
    column = _frame_column(obj, key)
    if column is not _NO_COLUMN:
        return column
    if top_module(tp) == "pandas" and type(obj).__name__ == "DataFrame":
        raise KeyError(key)
    if top_module(tp) in ("pandas", "numpy", "torch") and _trusted(_owner(tp, "__getitem__")):
        return obj[key]
    raise _Unresolved("not evaluated: subscript of a user type")


_NO_COLUMN = object()


def _frame_column(obj: Any, key: Any) -> Any:
    """A DataFrame column read positionally: ``df[key]`` would fill the frame's item cache."""
    pd = sys.modules.get("pandas")
    if pd is None or not issubclass(type(obj), pd.DataFrame):
        return _NO_COLUMN
    try:
        if key not in obj.columns:
            return _NO_COLUMN
    except TypeError:  # unhashable key
        return _NO_COLUMN
    loc = obj.columns.get_loc(key)
    return obj.iloc[:, loc] if type(loc) is int else obj.loc[:, key]
