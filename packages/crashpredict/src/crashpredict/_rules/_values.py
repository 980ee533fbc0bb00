"""Side-effect-free access to live objects: static attribute lookup and type recognition.

Nothing here imports a heavy library: a live pandas/torch object is recognised by the
module of its type, and the library is used only when it is already in ``sys.modules``.
"""

from __future__ import annotations

import collections
import inspect
import sys
import types
from typing import Any

import rtextract

__all__ = [
    "UNKNOWN", "DELETED", "MISSING", "Partial", "SizedUnknown", "Changed", "Abstract",
    "is_known",
    "is_hostile", "unsafe_reason", "attr_or", "size_of_array", "safe_message", "safe_repr",
    "text_value", "label_text",
    "library_of", "shape_of", "is_abstract", "array_kind",
    "type_root",
    "is_frame", "is_series", "is_ndarray", "is_tensor", "is_estimator", "is_torch_module",
    "is_keras_model", "static_lookup", "meta_attr", "safe_getattr", "describe_value", "short_type",
    "nan_where",
]


class _Marker:
    __slots__ = ("name",)

    def __init__(self, name: str) -> None:
        self.name = name

    def __repr__(self) -> str:
        return self.name


class SizedUnknown(_Marker):
    """An unknown value whose length is certain (``train_test_split``'s list of splits).

    It is not known (``is_known`` is False), so no rule reads it; only unpacking checks
    the number of targets against ``length``.
    """

    __slots__ = ("length",)

    def __init__(self, length: int) -> None:
        super().__init__(f"UNKNOWN(len={length})")
        self.length = length


class Changed(_Marker):
    """A live object that a method call earlier in the cell may have changed
    (``model.fit(...)``): what it holds is unknown, but it is the same object, so its class
    is certain. Like UNKNOWN it is not `is_known`; only the rules that read a class alone
    (``Rules.changed_attribute``) read it, through ``obj``'s type, never its state.
    """

    __slots__ = ("obj",)

    def __init__(self, obj: object) -> None:
        super().__init__("UNKNOWN(changed)")
        self.obj = obj


class Abstract(_Marker):
    """A value known only by its facts: what a library call returns, without running it.

    ``kind`` is ``"ndarray"``, ``"tensor"``, ``"module"`` (a built-in torch module held on
    the meta device), ``"axes"`` (one matplotlib Axes) or ``"object"``. Facts are exact or
    absent: ``shape`` (every axis known) or None, ``dtype`` (numpy or torch), ``device`` (a
    torch device string). ``sample`` holds real rows of the value (the first rows), so a
    fact seen in it, such as a NaN, a string or a non-integer float, holds for the whole;
    ``nan``/``inf`` say the whole certainly holds one. ``meta`` is the torch meta tensor or
    meta module standing in for it. Like UNKNOWN it is not `is_known`: a rule reads it only
    when it asks for these facts.
    """

    __slots__ = ("kind", "shape", "dtype", "device", "sample", "nan", "inf", "meta",
                 "origin")

    def __init__(self, kind: str, *, shape: tuple[int, ...] | None = None, dtype: Any = None,
                 device: str | None = None, sample: Any = None, nan: bool = False,
                 inf: bool = False, meta: Any = None, origin: str = "") -> None:
        super().__init__(f"Abstract({kind}, shape={shape}, dtype={dtype})")
        self.kind = kind
        self.shape = tuple(int(d) for d in shape) if shape is not None else None
        self.dtype = dtype
        self.device = device
        self.sample = sample
        self.nan = nan
        self.inf = inf
        self.meta = meta
        self.origin = origin

    @property
    def ndim(self) -> int | None:
        return len(self.shape) if self.shape is not None else None


def is_abstract(value: object, kind: str | None = None) -> bool:
    """An `Abstract` value (of ``kind`` when given)."""
    return isinstance(value, Abstract) and (kind is None or value.kind == kind)


def shape_of(value: object) -> tuple[int, ...] | None:
    """The exact shape of a live ndarray/tensor or of an Abstract one; None otherwise."""
    if isinstance(value, Abstract):
        return value.shape if value.kind in ("ndarray", "tensor") else None
    if is_ndarray(value) or is_tensor(value):
        return tuple(int(d) for d in value.shape)
    return None


def array_kind(value: object) -> str | None:
    """``"ndarray"`` or ``"tensor"`` for live or Abstract arrays, else None."""
    if isinstance(value, Abstract):
        return value.kind if value.kind in ("ndarray", "tensor") else None
    if is_ndarray(value):
        return "ndarray"
    if is_tensor(value):
        return "tensor"
    return None


#: A value the walker cannot know without running code.
UNKNOWN: Any = _Marker("UNKNOWN")
#: A name that ``del`` removed earlier in the cell.
DELETED: Any = _Marker("DELETED")
#: Returned by lookups that found nothing.
MISSING: Any = _Marker("MISSING")


class Partial:
    """A live container whose listed keys were reassigned earlier in the cell.

    Reading another key still reads the live object; reading a reassigned key gives the
    assigned value when it is known exactly (``values``); anything else is unknown.
    """

    __slots__ = ("obj", "dirty", "values")

    def __init__(self, obj: object, dirty: frozenset, values: dict | None = None) -> None:
        self.obj = obj
        self.dirty = dirty
        self.values = values or {}


def is_known(value: object) -> bool:
    """True when ``value`` is a real object, not one of the walker's markers."""
    # type(), not isinstance(): isinstance may read a hostile object's __class__
    return not issubclass(type(value), (_Marker, Partial))


def is_hostile(value: object) -> bool:
    """An object whose attribute lookup runs user code (a ``__getattribute__`` or
    ``__class__`` of user code on its class or, for a class, its metaclass): the walker
    treats it as unknown. The trust policy is rtextract's (`rtextract.user_method`): C
    slots and the libraries' own code are trusted, Python code defined elsewhere is not.
    """
    return rtextract.lookup_runs_user_code(value)


def unsafe_reason(value: object, bounded: bool) -> str | None:
    """Why the walker must not read ``value``, or None.

    Its memory is a file mapping the file no longer covers (any read kills the kernel
    with SIGBUS); or, when the walk runs without a time bound (outside the main thread),
    its data holds user code that library calls on it would run: a user ExtensionArray,
    cells of user objects (`rtextract.user_content`).
    """
    if not _array_like(value):
        return None
    why = rtextract.unreadable_memory(value)
    if why is None and not bounded:
        why = rtextract.user_content(value, scan=True)
    return why


def _array_like(value: object) -> bool:
    root = _root(type(value))
    return root in ("numpy", "pandas", "torch") and not rtextract.user_classes(type(value))


def _root(tp: type) -> str:
    module = type.__getattribute__(tp, "__module__")
    return module.partition(".")[0] if type(module) is str else ""


def attr_or(obj: object, name: str, default: Any = None) -> Any:
    """``getattr(obj, name, default)`` through `safe_getattr`: a property or ``__getattr__``
    of a user object gives ``default`` instead of running."""
    value = safe_getattr(obj, name)
    return default if value is UNKNOWN or value is MISSING else value


def size_of_array(value: object, default: int) -> int:
    """The element count of a live frame, series, ndarray or tensor; ``default`` else."""
    if is_tensor(value):
        return int(value.numel())
    if is_frame(value) or is_series(value) or is_ndarray(value):
        return int(value.size)
    return default


def text_value(value: object) -> bool:
    """A str, or a str subclass of a trusted library (numpy's ``str_``): never a user's
    subclass, whose ``__float__``/``__repr__`` would be its own code. No ``isinstance``:
    it may read a user ``__class__``."""
    tp = type(value)
    return tp is str or issubclass(tp, str) and not rtextract.user_classes(tp)


def safe_message(exc: BaseException) -> str:
    """The first line of an exception's message, without running user code: an exception
    class of the user's (its ``__str__``) gives its type name only."""
    tp = type(exc)
    if rtextract.user_method(tp, "__str__") or rtextract.user_method(tp, "__repr__") or \
            any(not _plain_arg(a) for a in BaseException.args.__get__(exc)):
        return short_type(exc)
    text = str(exc).strip()  # the exception type's own __str__: C or a library's
    return text.splitlines()[0] if text else ""


def _plain_arg(value: object) -> bool:
    return type(value) in (str, int, float, bool, type(None), bytes) or (
        type(value) is tuple and all(_plain_arg(v) for v in value))


_LIBRARY_OF_ROOT = {
    "pandas": "pandas", "numpy": "numpy", "sklearn": "sklearn", "torch": "torch",
    "torchvision": "torch", "keras": "tensorflow", "tensorflow": "tensorflow",
    "tf_keras": "tensorflow", "matplotlib": "matplotlib", "seaborn": "seaborn",
}


_META_SAFE = (types.FunctionType, types.BuiltinFunctionType, types.MethodType, type,
              types.ModuleType, types.MethodDescriptorType, types.WrapperDescriptorType,
              types.MethodWrapperType, types.ClassMethodDescriptorType)


def meta_attr(obj: object, name: str, default: Any = None) -> Any:
    """``getattr(obj, name, default)`` for metadata (``__name__``, ``__module__``...) that
    never runs user code: a ``__getattr__`` or property of a user object is not called."""
    if isinstance(obj, _META_SAFE):
        return getattr(obj, name, default)
    try:
        raw = inspect.getattr_static(obj, name)
    except AttributeError:
        return default
    return default if hasattr(type(raw), "__get__") else raw


def type_root(obj: object) -> str:
    """The top-level package of the object's type (of the module itself for modules)."""
    if isinstance(obj, types.ModuleType):
        return obj.__name__.partition(".")[0]
    module = type(obj).__module__ or ""
    if isinstance(obj, type) or callable(obj):
        module = meta_attr(obj, "__module__") or module
    return str(module).partition(".")[0]


def library_of(obj: object) -> str:
    """JunoBench's library group of a live object ('python' for anything else)."""
    return _LIBRARY_OF_ROOT.get(type_root(obj), "python")


def _mro_modules(obj: object) -> tuple[str, ...]:
    return tuple(getattr(c, "__module__", "") or "" for c in type(obj).__mro__)


def _is_instance_of(obj: object, module: str, name: str,
                    roots: tuple[str, ...] | None = None) -> bool:
    """``obj`` is an instance of ``module.name``, of a class a library defines (``roots``):
    a user's subclass may override what the rules read (``columns``, ``shape``), so it is
    not recognised and no rule reads it."""
    mod = sys.modules.get(module)
    cls = getattr(mod, name, None) if mod is not None else None
    if not isinstance(cls, type) or not issubclass(type(obj), cls):
        return False
    if roots is None:
        return True
    owner = type.__getattribute__(type(obj), "__module__")
    return isinstance(owner, str) and owner.partition(".")[0] in roots


_ESTIMATOR_ROOTS = ("sklearn", "xgboost", "lightgbm", "catboost", "imblearn")


def is_frame(obj: object) -> bool:
    """A live pandas DataFrame (pandas' own class, not a user's subclass)."""
    return _is_instance_of(obj, "pandas", "DataFrame", ("pandas",))


def is_series(obj: object) -> bool:
    """A live pandas Series (pandas' own class, not a user's subclass)."""
    return _is_instance_of(obj, "pandas", "Series", ("pandas",))


def is_ndarray(obj: object) -> bool:
    """A plain numpy array (not a matrix or masked array)."""
    if not _is_instance_of(obj, "numpy", "ndarray"):
        return False
    return type(obj).__name__ == "ndarray"


def is_tensor(obj: object) -> bool:
    """A live torch tensor (torch's classes, such as Parameter; not a user's subclass)."""
    return _is_instance_of(obj, "torch", "Tensor", ("torch",))


def is_estimator(obj: object) -> bool:
    """A scikit-learn estimator instance (not the class) of a library's class: a user's
    estimator class is never recognised, so none of its methods or properties run."""
    return not isinstance(obj, type) and _is_instance_of(obj, "sklearn.base", "BaseEstimator",
                                                         _ESTIMATOR_ROOTS)


def is_torch_module(obj: object) -> bool:
    """A live ``torch.nn.Module`` instance."""
    return not isinstance(obj, type) and _is_instance_of(obj, "torch.nn", "Module")


def is_keras_model(obj: object) -> bool:
    """A live Keras model (Keras 3 or tf.keras)."""
    if isinstance(obj, type):
        return False
    return any(m.startswith(("keras", "tf_keras")) for m in _mro_modules(obj)) and any(
        c.__name__ in ("Model", "Functional", "Sequential") for c in type(obj).__mro__
    )


# Properties that are known to be cheap and free of side effects, read with getattr.
_SAFE_PROPERTIES = {
    "pandas": frozenset({
        "columns", "index", "shape", "dtypes", "dtype", "values", "T", "ndim", "size",
        "empty", "loc", "iloc", "at", "iat", "name", "axes", "names", "nlevels", "str",
        "dt", "cat", "is_unique", "array", "plot",
    }),
    "numpy": frozenset({"shape", "dtype", "ndim", "size", "T", "itemsize", "nbytes", "real",
                        "imag", "flat"}),
    "torch": frozenset({"shape", "dtype", "device", "ndim", "T", "is_cuda", "data",
                        "weight", "bias", "in_features", "out_features", "in_channels",
                        "out_channels", "requires_grad"}),
    "keras": frozenset({"input_shape", "output_shape", "inputs", "outputs", "layers",
                        "built", "loss", "units", "name"}),
}


#: Builtin types whose C-level ``__getattribute__`` is the generic lookup (it shows in their
#: ``__dict__`` as a slot wrapper, but runs no user code and adds no dynamic attributes).
_PLAIN_LOOKUP_TYPES = (list, tuple, dict, set, frozenset, str, bytes, int, float, complex,
                       bool, range, type(None))


def _getattr_hook(tp: type) -> bool:
    """True when the type customises attribute lookup beyond object's."""
    if tp in _PLAIN_LOOKUP_TYPES:
        return False
    for klass in tp.__mro__[:-1]:
        if "__getattr__" in klass.__dict__ or "__getattribute__" in klass.__dict__:
            return True
    return False


#: What numpy 2's module ``__getattr__`` hands out besides its submodules (read from its
#: source: the lazily imported ones, and the names it warns about before it answers).
_NUMPY_LAZY = frozenset({"linalg", "fft", "dtypes", "random", "polynomial", "ma", "ctypeslib",
                         "exceptions", "testing", "matlib", "f2py", "typing", "rec", "char",
                         "array_api", "core", "strings", "distutils", "chararray"})


def _numpy_lacks(module: types.ModuleType, name: str) -> bool:
    """numpy 2's module ``__getattr__`` (it lists its submodules in
    ``__numpy_submodules__``) raises AttributeError for any name that is none of its lazy
    submodules or aliases: ``np.trapz`` (removed in 2.4) as ``np.float_`` (2.0)."""
    if module.__name__ != "numpy" or type(module) is not types.ModuleType:
        return False
    lazy = module.__dict__.get("__numpy_submodules__")
    if not isinstance(lazy, (set, frozenset)) or name in lazy or name in _NUMPY_LAZY or \
            name.startswith("_"):
        return False
    if f"numpy.{name}" in sys.modules:
        return False
    try:
        import importlib.util

        return importlib.util.find_spec(f"numpy.{name}") is None
    except (ImportError, ValueError, AttributeError):
        return False


def static_lookup(obj: object, name: str) -> bool | None:
    """Does ``obj.name`` exist? True, False (certain AttributeError) or None (can't tell).

    Uses the instance dict and the type's MRO only: no property, ``__getattr__`` or
    descriptor code runs.
    """
    if isinstance(obj, types.ModuleType):
        if name in obj.__dict__:
            return True
        for table in ("__former_attrs__", "__expired_attributes__"):
            # numpy's module __getattr__ raises AttributeError for these removed names
            removed = obj.__dict__.get(table)
            if isinstance(removed, (dict, set, frozenset)) and name in removed:
                return False
        if _numpy_lacks(obj, name):
            return False
        if type(obj) is not types.ModuleType or "__getattr__" in obj.__dict__:
            return None
        if f"{obj.__name__}.{name}" in sys.modules:
            return True
        return False
    try:
        inspect.getattr_static(obj, name)
        return True
    except AttributeError:
        pass
    if name.startswith("__") and name.endswith("__"):
        return None
    tp = type(obj)
    if is_frame(obj) or is_series(obj):
        labels = obj.columns if is_frame(obj) else obj.index
        try:
            return name in labels
        except Exception:
            return None
    if is_torch_module(obj):
        for store in ("_parameters", "_buffers", "_modules"):
            if name in (obj.__dict__.get(store) or {}):
                return True
        return False
    if isinstance(obj, type):
        meta = type(obj)
        return None if _getattr_hook(meta) else False
    if _getattr_hook(tp):
        return None
    return False


def safe_getattr(obj: object, name: str) -> Any:
    """Read ``obj.name`` without running user code; UNKNOWN when that is not possible."""
    if isinstance(obj, types.ModuleType):
        if name in obj.__dict__:
            return obj.__dict__[name]
        return sys.modules.get(f"{obj.__name__}.{name}", UNKNOWN)
    try:
        raw = inspect.getattr_static(obj, name)
    except AttributeError:
        raw = MISSING
    root = type_root(obj)
    if raw is MISSING:
        if is_frame(obj) and static_lookup(obj, name):
            return _call_quiet(lambda: obj[name])
        if is_torch_module(obj):
            for store in ("_parameters", "_buffers", "_modules"):
                found = (obj.__dict__.get(store) or {}).get(name, MISSING)
                if found is not MISSING:
                    return found
        return UNKNOWN
    if root in _SAFE_PROPERTIES and name in _SAFE_PROPERTIES[root]:
        return _call_quiet(lambda: getattr(obj, name))
    if root in ("keras", "tensorflow", "tf_keras") and name in _SAFE_PROPERTIES["keras"]:
        return _call_quiet(lambda: getattr(obj, name))
    instance_dict = _instance_dict(obj)
    if name in instance_dict and raw is instance_dict[name]:
        return raw
    if isinstance(raw, (types.FunctionType, classmethod, staticmethod, types.BuiltinFunctionType,
                        types.MethodDescriptorType, types.WrapperDescriptorType,
                        types.ClassMethodDescriptorType)):
        return _call_quiet(lambda: raw.__get__(None if isinstance(obj, type) else obj,
                                               obj if isinstance(obj, type) else type(obj)))
    if type(raw) is _TUPLE_FIELD and isinstance(obj, tuple):  # a namedtuple's field (C)
        return _call_quiet(lambda: raw.__get__(obj, type(obj)))
    if not hasattr(type(raw), "__get__"):
        return raw
    return UNKNOWN


#: The descriptor of a namedtuple's field: it reads the tuple's item in C.
_TUPLE_FIELD = type(inspect.getattr_static(collections.namedtuple("_Pair", "a"), "a"))


def _instance_dict(obj: object) -> dict:
    """The instance ``__dict__``, never through a ``__dict__`` property of the user's."""
    for klass in type.__getattribute__(type(obj), "__mro__"):
        entry = type.__getattribute__(klass, "__dict__").get("__dict__")
        if entry is not None:
            if type(entry) not in (types.GetSetDescriptorType, types.MemberDescriptorType):
                return {}
            break
    try:
        value = object.__getattribute__(obj, "__dict__")
    except Exception:
        return {}
    return value if type(value) is dict else {}


def _call_quiet(fn: Any) -> Any:
    try:
        return fn()
    except Exception:
        return UNKNOWN


def short_type(obj: object) -> str:
    """The type's name as an error message would print it."""
    return type(obj).__name__


def describe_value(obj: object) -> str:
    """A short evidence line for a live object (type, shape, a few labels)."""
    parts = [short_type(obj)]
    shape = getattr(obj, "shape", None) if is_frame(obj) or is_series(obj) or is_ndarray(
        obj) or is_tensor(obj) else None
    if shape is not None:
        parts.append(f"shape={tuple(shape)}")
    if is_frame(obj):
        cols = [label_text(c) for c in list(obj.columns[:8])]
        more = "" if obj.shape[1] <= 8 else f", ... +{obj.shape[1] - 8}"
        parts.append(f"columns=[{', '.join(cols)}{more}]")
    elif type(obj) in (list, tuple, dict, set) and len(obj) <= 12 and all(
            type(v) in (int, float, bool, str, type(None)) for v in obj):
        parts.append(repr(obj)[:160])
    return " ".join(parts)


def label_text(label: object) -> str:
    """``str(label)`` of a column or index label, where that runs no user code."""
    if type(label) in (str, int, float, bool, type(None)):
        return str(label)
    return safe_repr(label)


def safe_repr(value: object, limit: int = 80) -> str:
    """``repr(value)`` where that runs no user code (`rtextract.safe_repr`)."""
    return rtextract.safe_repr(value, limit)


#: elements a NaN count scans at most (a larger value is not counted: no place is named)
_NAN_SCAN = 5_000_000


def nan_where(value: object, limit: int = 3) -> str:
    """Where a live frame, series or float array holds NaN, for an explanation: ``NaN in
    column 'price' (1 of 2 rows)``, ``NaN in columns 'age' (3 of 200 rows), 'fare' (1 of
    200 rows)``, ``NaN in 4 of 10 values of 'age'``, ``NaN in array columns 0, 3``; '' when
    none is found or the value is too large to count."""
    try:
        if size_of_array(value, _NAN_SCAN + 1) > _NAN_SCAN:
            return ""
        if is_frame(value):
            counts = value.select_dtypes("number").isna().sum()
            found = [(label_text(c), int(n)) for c, n in counts.items() if int(n)]
            if not found:
                return ""
            rows = len(value)
            parts = [f"{c!r} ({n} of {rows} rows)" for c, n in found[:limit]]
            more = f", ... {len(found) - limit} more" if len(found) > limit else ""
            return f"NaN in column{'s' if len(found) > 1 else ''} {', '.join(parts)}{more}"
        if is_series(value):
            n = int(value.isna().sum())
            name = value.name
            what = f" of {label_text(name)!r}" if type(name) in (str, int) else ""
            return f"NaN in {n} of {len(value)} values{what}" if n else ""
        if is_ndarray(value) and value.dtype.kind == "f":
            import numpy as np  # numpy is loaded: value is an ndarray
            if value.ndim == 2:
                columns = [int(k) for k in np.flatnonzero(np.isnan(value).any(axis=0))]
                more = f", ... {len(columns) - limit} more" if len(columns) > limit else ""
                return (f"NaN in array column{'s' if len(columns) > 1 else ''} "
                        f"{', '.join(map(str, columns[:limit]))}{more}") if columns else ""
            n = int(np.isnan(value).sum())
            return f"NaN in {n} of {value.size} values" if n else ""
    except Exception:  # an odd dtype or a version that answers differently: name nothing
        return ""
    return ""
