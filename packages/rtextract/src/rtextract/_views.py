"""Plain library views of user subclasses, and a time bound for the user code that remains.

A user subclass of ``pandas.DataFrame`` (or of a numpy array, a torch tensor) can override
``shape``, ``__len__``, ``isna``, ``iloc``, ``_constructor``, ``__getattr__`` and
``__getattribute__``: running an adapter on it runs the user's code. So an object whose
type is a *foreign subclass* (its type is not defined by the library itself, but a
library data type is in its MRO) is read through a view of its data as the library's own
type, built without any lookup on the object's type:

- pandas DataFrame / Series: the block manager from the instance ``__dict__`` wrapped by
  ``DataFrame._from_mgr`` (the same data, no copy, none of the subclass's methods);
- pandas Index: its ``_data`` array and ``_name``, through ``pandas.Index``;
- numpy arrays: ``numpy.ndarray.view(obj, numpy.ndarray)`` (masked arrays keep their mask);
- torch tensors: ``torch.Tensor.as_subclass(obj, torch.Tensor)`` with subclass
  ``__torch_function__`` disabled and autograd off (no graph node is recorded).

When no view can be built (a subclass that never called the base ``__init__``, a torch
``__torch_dispatch__`` wrapper, a numpy scalar subclass...), the object gets the generic
facts only, with a note. The time bound for the user code that remains lives in
`rtextract._bound` (`bounded_call`, re-exported here).
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any

from rtextract._builder import dict_of, top_module, type_name
from rtextract._bound import UserCodeTimeout, bounded_call
from rtextract._trust import lookup_runs_user_code

__all__ = ["LIBRARIES", "NO_VIEW", "UserCodeTimeout", "bounded_call", "foreign_base",
           "library_class", "plain_view", "safe_view"]

#: Top-level packages whose own classes rtextract trusts to run only library code.
LIBRARIES = frozenset({"numpy", "pandas", "torch", "sklearn", "keras", "tensorflow", "tf_keras",
                       "PIL", "matplotlib"})

#: Returned by `plain_view` for a foreign subclass of a data type it cannot view.
NO_VIEW: Any = object()


def _mro(tp: type) -> tuple[type, ...]:
    try:
        mro = type.__getattribute__(tp, "__mro__")
    except Exception:
        return (tp,)
    return mro if type(mro) is tuple else (tp,)


def library_class(tp: type) -> bool:
    """True when ``tp`` itself is defined by one of the trusted libraries."""
    return top_module(tp) in LIBRARIES


def foreign_base(tp: type) -> type | None:
    """The first library class in the MRO of a user subclass; None for library types."""
    if library_class(tp):
        return None
    for klass in _mro(tp)[1:]:
        if library_class(klass):
            return klass
    return None


def _data_base(tp: type) -> tuple[str, Any] | None:
    """('pandas', base) / ('numpy', ...) / ('torch', ...) when ``tp`` is a data type."""
    pd = sys.modules.get("pandas")
    if pd is not None:
        for base in (pd.DataFrame, pd.Series, pd.Index, pd.Categorical):
            if issubclass(tp, base):
                return "pandas", base
    np = sys.modules.get("numpy")
    if np is not None:
        for base in (np.ndarray, np.generic):
            if issubclass(tp, base):
                return "numpy", base
    torch = sys.modules.get("torch")
    if torch is not None and issubclass(tp, torch.Tensor):
        return "torch", torch.Tensor
    return None


def plain_view(obj: Any) -> tuple[Any, str | None]:
    """Return ``(view, note)`` for a foreign subclass of a pandas/numpy/torch data type.

    ``obj`` comes back unchanged (note None) when its type is the library's own, or is
    not a data type; ``NO_VIEW`` with a note when the data cannot be reached without
    running the subclass's code. Never raises.
    """
    tp = type(obj)
    if library_class(tp):
        return obj, None
    found = _data_base(tp)
    if found is None:
        return obj, None
    library, base = found
    name = f"{library}.{base.__name__}"
    try:
        view = _VIEWS[library](obj, base)
    except Exception as exc:
        view = None
        why = type(exc).__name__
    else:
        why = None
    if view is None:
        return NO_VIEW, (f"subclass {type_name(tp)} of {name}: data not reachable without "
                         f"running its code{f' ({why})' if why else ''}; only generic facts")
    return view, (f"subclass {type_name(tp)} read as a plain {name}; its own methods and "
                  "properties were not called")


def safe_view(obj: Any) -> Any | None:
    """What a caller may read attributes of without running the user's code, or None.

    Returns ``obj`` itself when its attribute lookup is Python's or a trusted library's;
    a plain library view (same data) of a user subclass of a pandas/numpy/torch data
    type; None when reading it would run user code: a ``__getattribute__`` or a
    ``__class__`` defined outside the trusted libraries (``isinstance`` itself calls
    them), or a data subclass whose data cannot be reached. Never raises.

    The view answers questions about the data (shape, columns, dtypes); whether an
    attribute exists must still be asked of the original type, which may add its own.

    Example:
        >>> safe_view([1, 2]) == [1, 2]
        True
    """
    try:
        if lookup_runs_user_code(obj):
            return None
        view, _ = plain_view(obj)
    except Exception:
        return None
    return None if view is NO_VIEW else view


def _pandas_view(obj: Any, base: Any) -> Any:
    pd = sys.modules["pandas"]
    state = dict_of(obj)
    if base is pd.DataFrame or base is pd.Series:
        mgr = state.get("_mgr")
        if mgr is None or not library_class(type(mgr)):
            return None
        view = base._from_mgr(mgr, axes=mgr.axes)
        if base is pd.Series:
            name = state.get("_name")
            view.name = name if _hashable(name) else None
        return view
    if base is pd.Index and not issubclass(type(obj), pd.MultiIndex):
        data = state.get("_data")
        if data is None or not library_class(type(data)):
            return None
        name = state.get("_name")
        return pd.Index(data, name=name if _hashable(name) else None, copy=False)
    return None


def _hashable(value: Any) -> bool:
    return value is None or type(value) in (str, int, float, bool, tuple)


def _numpy_view(obj: Any, base: Any) -> Any:
    np = sys.modules["numpy"]
    if base is not np.ndarray:
        return None  # a numpy scalar subclass: its value is only reachable through its code
    data = np.ndarray.view(obj, np.ndarray)
    if issubclass(type(obj), np.ma.MaskedArray):
        mask = dict_of(obj).get("_mask")
        if type(mask) is np.ndarray or mask is np.ma.nomask:
            return np.ma.MaskedArray(data, mask=mask, copy=False)
        return None
    return data


def _torch_view(obj: Any, base: Any) -> Any:
    torch = sys.modules["torch"]
    for klass in _mro(type(obj)):
        if not library_class(klass) and "__torch_dispatch__" in type.__getattribute__(klass, "__dict__"):
            return None  # a wrapper subclass: every op on its data runs its dispatch code
    with torch._C.DisableTorchFunctionSubclass(), torch.no_grad():
        return torch.Tensor.as_subclass(obj, torch.Tensor)


_VIEWS: dict[str, Callable[[Any, Any], Any]] = {
    "pandas": _pandas_view, "numpy": _numpy_view, "torch": _torch_view,
}
