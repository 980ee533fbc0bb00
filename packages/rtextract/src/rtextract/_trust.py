"""Which code rtextract trusts to run: the policy that says what is the user's code.

The policy, decided per method by the class that defines it (the first class in the type's
MRO whose ``__dict__`` holds the name):

- **trusted**: a C-level slot or method (``object.__repr__``, ``list.__len__``, a method
  descriptor of any extension type), or Python code of a class defined in one of
  `TRUSTED_ROOTS` (the standard library's value types, numpy, pandas, torch, sklearn,
  keras/tensorflow, ...), by the top-level package of the class's ``__module__``;
- **user code**: anything else: a Python function, property or descriptor of a class
  defined in ``__main__``, in the user's own modules or in an unknown package.

rtextract and its callers never call user code directly: such an object is described
with ``object.__repr__``-like text, its type name and what can be read without running it
(`safe_repr`, `user_method`). Library code that may still reach user code inside its own
machinery (a pandas reduction over a user ``ExtensionArray`` or over cells holding user
objects, a Keras property of a user layer) runs through `rtextract._bound.bounded_call`:
in the main thread a real-time timer stops it at the deadline; where no such timer can be
armed it does not run at all.

Only C-level type slots are read here (``type.__getattribute__``), so even a metaclass
that runs code on every attribute lookup is not triggered.
"""

from __future__ import annotations

import sys
import types
from typing import Any

__all__ = ["TRUSTED_ROOTS", "UserOverride", "class_attr", "library_attr",
           "lookup_runs_user_code", "pandas_parts",
           "safe_repr", "static_lookup", "top_root", "trusted_class", "user_arrays",
           "user_classes", "user_content", "user_method"]

#: Top-level packages whose Python code rtextract trusts: it runs no user code of its own.
TRUSTED_ROOTS = frozenset({
    "builtins", "numpy", "pandas", "torch", "torchvision", "sklearn", "keras", "tensorflow",
    "tf_keras", "PIL", "matplotlib", "seaborn", "scipy", "pyarrow", "xgboost", "lightgbm",
    "catboost", "imblearn",
    # the standard library's value, container and typing machinery
    "collections", "_collections", "_collections_abc", "abc", "_abc", "types", "functools",
    "typing", "enum", "pathlib", "datetime", "_datetime", "decimal", "_decimal",
    "_pydecimal", "fractions", "numbers", "re", "io", "_io", "uuid", "ipaddress", "array",
    "mmap", "weakref", "_weakrefset", "operator", "itertools",
})

_HEAPTYPE = 1 << 9  # Py_TPFLAGS_HEAPTYPE: a class made at run time (a class statement)
#: C-level callables and descriptors: calling or resolving them runs no Python code.
_C_LEVEL = (types.WrapperDescriptorType, types.MethodDescriptorType, types.BuiltinFunctionType,
            types.ClassMethodDescriptorType, types.MethodWrapperType,
            types.GetSetDescriptorType, types.MemberDescriptorType)


def _read(tp: Any, attr: str) -> Any:
    return type.__getattribute__(tp, attr)


def top_root(klass: type) -> str:
    """Top-level package of the module that defines ``klass`` ("" when unreadable)."""
    try:
        module = _read(klass, "__module__")
    except Exception:
        return ""
    return module.partition(".")[0] if type(module) is str else ""


def _mro(tp: type) -> tuple[type, ...]:
    try:
        mro = _read(tp, "__mro__")
    except Exception:
        return (tp,)
    return mro if type(mro) is tuple else (tp,)


def trusted_class(klass: type) -> bool:
    """All of ``klass``'s own code is trusted: a static C type, or a class of a trusted root."""
    try:
        flags = _read(klass, "__flags__")
    except Exception:
        return False
    return not flags & _HEAPTYPE or top_root(klass) in TRUSTED_ROOTS


def user_classes(tp: type) -> tuple[type, ...]:
    """The classes in ``tp``'s MRO whose code is not trusted (empty for library types)."""
    return tuple(k for k in _mro(tp) if not trusted_class(k))


def user_method(tp: type, name: str) -> bool:
    """True when ``tp.name`` resolves to user code (see the module docstring).

    False for a C slot, trusted library code, or a name no class in the MRO defines.

    Example:
        >>> class Loud:
        ...     def __repr__(self):
        ...         return "!"
        >>> user_method(Loud, "__repr__"), user_method(Loud, "__eq__")
        (True, False)
    """
    for klass in _mro(tp):
        try:
            namespace = _read(klass, "__dict__")
        except Exception:
            return True
        if name not in namespace:
            continue
        if trusted_class(klass):
            return False
        return not isinstance(namespace[name], _C_LEVEL)
    return False


_MISSING: Any = object()


def class_attr(klass: type, name: str) -> Any:
    """``name`` from the first class dict of ``klass``'s MRO that holds it, or `_MISSING`."""
    for k in _mro(klass):
        namespace = _read(k, "__dict__")
        if name in namespace:
            return namespace[name]
    return _MISSING


def static_lookup(obj: Any, name: str) -> Any:
    """``inspect.getattr_static(obj, name)``, reading only C-level slots.

    ``inspect.getattr_static`` reads ``entry.__dict__`` through each class's metaclass,
    so a metaclass ``__getattribute__`` runs; here every read is ``type.__getattribute__``
    or the instance dict. Properties, descriptors and ``__getattr__`` are not called.

    Raises:
        AttributeError: no class dict and no instance dict holds ``name``.
    """
    from rtextract._typeinfo import dict_of

    tp = type(obj)
    found = class_attr(tp, name)
    if issubclass(tp, type):  # a class: its own MRO first, then its metaclass's
        own = class_attr(obj, name)
        if own is not _MISSING:
            return own
    else:
        if found is not _MISSING and _data_descriptor(found):
            return found
        state = dict_of(obj)
        if name in state:
            return state[name]
    if found is _MISSING:
        raise AttributeError(name)
    return found


def _data_descriptor(value: Any) -> bool:
    kind = type(value)
    return class_attr(kind, "__get__") is not _MISSING and (
        class_attr(kind, "__set__") is not _MISSING
        or class_attr(kind, "__delete__") is not _MISSING)


class UserOverride(Exception):
    """`library_attr` refused an attribute that the object's user class defines."""


def library_attr(obj: Any, name: str) -> Any:
    """``getattr(obj, name)`` when the library (not a user class) defines ``name``.

    Raises:
        UserOverride: the object's class (or a user class in its MRO) defines ``name``
            itself, as a method, property or ``__getattr__`` fallback: it is not called.
    """
    tp = type(obj)
    if user_method(tp, name) or not any(name in _read(k, "__dict__") for k in _mro(tp)) and (
            user_method(tp, "__getattr__")):
        from rtextract._typeinfo import short_name

        raise UserOverride(f"not read: {short_name(tp)}.{name} is the user's code")
    return getattr(obj, name)


def lookup_runs_user_code(obj: Any) -> bool:
    """Reading any attribute of ``obj`` (``isinstance`` included) would run user code.

    That is a ``__getattribute__`` or ``__class__`` of user code on its type or, since
    callers read ``type(obj).__name__``, on its type's metaclass.
    """
    tp = type(obj)
    try:
        if _lookup_hook(tp):
            return True
        meta = type(tp)
        return meta is not type and _lookup_hook(meta)
    except Exception:
        return True


_LOOKUP_HOOKS = ("__getattribute__", "__class__")


def _lookup_hook(tp: type) -> bool:
    """`user_method` of both lookup hooks in one pass over the MRO (called very often)."""
    pending = list(_LOOKUP_HOOKS)
    for klass in _mro(tp):
        namespace = _read(klass, "__dict__")
        for name in tuple(pending):
            if name in namespace:
                pending.remove(name)
                if not trusted_class(klass) and not isinstance(namespace[name], _C_LEVEL):
                    return True
        if not pending:
            return False
    return False


# ----- what library code would meet inside an object's data --------------------------------
#: Exact element types of object arrays whose hashing, comparison and printing are C code.
_PLAIN_ELEMENTS = frozenset({str, int, float, bool, type(None), bytes, complex})
_SCAN_LIMIT = 100_000


def user_content(obj: Any, *, scan: bool = False) -> str | None:
    """Why library code run over ``obj``'s data could call user code, or None.

    For numpy arrays and pandas frames, series and indexes: an ``ExtensionArray`` class of
    user code ("extension array Money"), or cells of dtype object, whose hashing, comparing
    and printing is the elements' own code ("object values"). With ``scan`` an object array
    of at most 100,000 elements is scanned for the exact type of each element (plain str,
    int, float, bool, None, bytes values are not user code). Never runs user code itself.
    """
    try:
        return _content(obj, scan, 0)
    except Exception:
        return "contents not readable"


def _content(obj: Any, scan: bool, depth: int) -> str | None:
    from rtextract._typeinfo import type_name

    tp = type(obj)
    if user_classes(tp):
        return f"user class {type_name(tp)}"
    np = sys.modules.get("numpy")
    if np is not None and issubclass(tp, np.ndarray):
        return _array_content(np.ndarray.view(obj, np.ndarray), scan, np)
    if top_root(tp) != "pandas" or depth > 3:
        return None
    for part in pandas_parts(obj, axes=True):
        why = _part_content(part, scan, depth, np)
        if why is not None:
            return why
    return None


def pandas_parts(obj: Any, axes: bool = False) -> list[Any]:
    """The arrays holding a pandas object's data: a frame's or series' block values, an
    index's ``_data``, a pandas array itself (read from slots and instance dicts); with
    ``axes``, also the data of a frame's or series' index and columns."""
    from rtextract._typeinfo import dict_of

    pd = sys.modules.get("pandas")
    tp = type(obj)
    if pd is None:
        return []
    state = dict_of(obj)
    if issubclass(tp, pd.core.generic.NDFrame):  # DataFrame, Series
        mgr = state.get("_mgr")
        if mgr is None:
            return []
        parts = _manager_arrays(mgr)
        if axes and trusted_class(type(mgr)):
            for axis in _slot(mgr, "axes") or ():
                parts.extend(pandas_parts(axis))
        return parts
    if issubclass(tp, pd.Index):  # a RangeIndex holds no array
        return [state["_data"]] if "_data" in state else []
    if issubclass(tp, pd.api.extensions.ExtensionArray):
        return [obj]  # a pandas array: Categorical, DatetimeArray, IntegerArray...
    return []


def user_arrays(obj: Any) -> str | None:
    """An ``ExtensionArray`` of user code holding part of a pandas object's data (its
    index and columns included), or None: pandas calls its methods for nearly anything,
    from ``df.dtypes`` to slicing."""
    try:
        for part in pandas_parts(obj, axes=True):
            tp = type(part)
            np = sys.modules.get("numpy")
            if np is not None and issubclass(tp, np.ndarray):
                continue
            if not trusted_class(tp) or user_classes(tp):
                from rtextract._typeinfo import type_name

                return f"extension array {type_name(tp)}"
    except Exception:
        return "contents not readable"
    return None


def _manager_arrays(mgr: Any) -> list[Any]:
    from rtextract._typeinfo import dict_of

    if not trusted_class(type(mgr)):
        return [mgr]
    blocks = dict_of(mgr).get("blocks")
    if type(blocks) is not tuple:
        blocks = getattr(mgr, "blocks", ())  # a Cython slot on some pandas versions
    arrays = []
    for block in tuple(blocks)[:10_000]:
        values = _slot(block, "values")
        if values is not None:
            arrays.append(values)
    return arrays


def _slot(obj: Any, name: str) -> Any:
    if not trusted_class(type(obj)):
        return None
    try:
        return getattr(obj, name)  # a pandas block: a C slot or a plain attribute
    except Exception:
        return None


def _part_content(part: Any, scan: bool, depth: int, np: Any) -> str | None:
    from rtextract._typeinfo import type_name

    tp = type(part)
    if np is not None and issubclass(tp, np.ndarray):
        return _array_content(np.ndarray.view(part, np.ndarray), scan, np)
    if not trusted_class(tp) or user_classes(tp):
        return f"extension array {type_name(tp)}"
    # a pandas array: its storage is a C slot or a plain attribute of pandas' own class
    for key in ("_ndarray", "_data", "_left", "_right", "_sparse_values"):
        inner = _slot(part, key)
        if np is not None and type(inner) is np.ndarray:
            why = _array_content(inner, scan, np)
            if why is not None:
                return why
    dtype = _slot(part, "_dtype")
    categories = _slot(dtype, "_categories") if dtype is not None else None
    if categories is not None:  # a Categorical: its categories are an Index
        return _content(categories, scan, depth + 1)
    return None


def _array_content(arr: Any, scan: bool, np: Any) -> str | None:
    if not arr.dtype.hasobject:
        return None
    if scan and arr.dtype.kind == "O" and arr.size <= _SCAN_LIMIT:
        kinds = {id(k): k for k in map(type, arr.reshape(-1))}
        if all(k in _PLAIN_ELEMENTS for k in kinds.values()):
            return None
    return "object values"


# ----- text without user code ------------------------------------------------------------
_ATOMS = (str, int, float, bool, type(None), bytes, complex)


def safe_repr(value: Any, limit: int = 80) -> str:
    """``repr(value)`` where that runs no user code, else ``<module.Type object>``.

    Exact builtin scalars use their own repr; builtin subclasses the base type's; small
    lists, tuples, dicts and sets are rendered item by item the same way; numpy scalars and
    dtypes by numpy. Anything else (a user object, a DataFrame, whose repr would print
    every cell) gets its type's name. The text is cut at ``limit`` characters.
    """
    try:
        text = _repr(value, 0)
    except Exception:
        text = _placeholder(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _repr(value: Any, depth: int) -> str:
    tp = type(value)
    if tp in _ATOMS:
        return repr(value)
    for base in (bool, int, float, str, bytes, complex):
        if issubclass(tp, base):  # an enum member, a str subclass: the base type's repr
            return base.__repr__(value)
    if tp in (list, tuple, set, frozenset, dict) and depth < 3:
        return _container_repr(value, tp, depth)
    if top_root(tp) == "numpy" and trusted_class(tp):
        np = sys.modules["numpy"]
        if issubclass(tp, np.dtype) or issubclass(tp, np.generic) and not (
                value.dtype.hasobject):
            return repr(value)
    return _placeholder(value)


def _container_repr(value: Any, tp: type, depth: int) -> str:
    n = tp.__len__(value)
    items = []
    source = dict.items(value) if tp is dict else tp.__iter__(value)
    for i, item in enumerate(source):
        if i >= 8:
            items.append(f"... {n - 8} more")
            break
        if tp is dict:
            items.append(f"{_repr(item[0], depth + 1)}: {_repr(item[1], depth + 1)}")
        else:
            items.append(_repr(item, depth + 1))
    body = ", ".join(items)
    if tp is list:
        return f"[{body}]"
    if tp is tuple:
        return f"({body},)" if n == 1 else f"({body})"
    if tp is dict:
        return "{" + body + "}"
    return ("{" + body + "}" if n else "set()") if tp is set else f"frozenset({{{body}}})"


def _placeholder(value: Any) -> str:
    from rtextract._typeinfo import type_name

    return f"<{type_name(type(value))} object>"
