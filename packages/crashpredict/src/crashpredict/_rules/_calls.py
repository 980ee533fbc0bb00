"""Rule on calls: bind the call's arguments against the callee's real signature."""

from __future__ import annotations

import ast
import inspect
import types
from typing import Any

from rtextract import plain_wrappers

from ._finding import Finding
from ._values import is_known, library_of, safe_repr
from ._walk._types import CallSite, CellFunction

__all__ = ["bad_arguments", "signature_of"]

_P = inspect.Parameter


def signature_of(func: Any) -> inspect.Signature | None:
    """The callee's signature, or None when it cannot be known without running code."""
    if isinstance(func, CellFunction):
        return _signature_from_ast(func.node.args)
    if isinstance(func, type) and type(func) not in (type, __import__("abc").ABCMeta):
        return None
    if isinstance(func, type) and "__call__" in type(func).__dict__:
        return None
    if not callable(func):
        return None
    if not isinstance(func, (types.FunctionType, types.MethodType, types.BuiltinFunctionType,
                             types.BuiltinMethodType, type)):
        return None  # callable instances: __call__ often forwards *args, **kwargs
    if not _plain_signature(func):
        return None
    try:
        return inspect.signature(func)
    except (TypeError, ValueError):
        return None


def _plain_signature(func: Any) -> bool:
    """``inspect.signature`` reads only functions and class dicts here: no ``__wrapped__``
    or ``__signature__`` leads it to an object whose attribute lookup is user code."""
    if type(func) is types.MethodType:
        func = func.__func__  # a member of the method object: C code
    if type(func) in (types.BuiltinFunctionType, types.BuiltinMethodType):
        return True
    if type(func) is types.FunctionType:
        return plain_wrappers(func)
    if isinstance(func, type):
        for klass in type.__getattribute__(func, "__mro__"):
            namespace = type.__getattribute__(klass, "__dict__")
            if "__signature__" in namespace or "__wrapped__" in namespace:
                return False
            for name in ("__init__", "__new__"):
                entry = namespace.get(name)
                entry = entry.__func__ if type(entry) in (staticmethod, classmethod) else entry
                if type(entry) is types.FunctionType and not plain_wrappers(entry):
                    return False
        return True
    return False


def _parameter_text(param: inspect.Parameter) -> str:
    """``str(param)`` without ``repr`` of a default value that may be a user object."""
    name = param.name
    if param.kind == param.VAR_POSITIONAL:
        name = f"*{name}"
    elif param.kind == param.VAR_KEYWORD:
        name = f"**{name}"
    if param.default is not param.empty:
        name += f"={safe_repr(param.default, 40)}"
    return name


def _signature_from_ast(args: ast.arguments) -> inspect.Signature:
    params: list[inspect.Parameter] = []
    positional = [*args.posonlyargs, *args.args]
    first_default = len(positional) - len(args.defaults)
    for i, arg in enumerate(positional):
        kind = _P.POSITIONAL_ONLY if i < len(args.posonlyargs) else _P.POSITIONAL_OR_KEYWORD
        default = None if i >= first_default else _P.empty
        params.append(_P(arg.arg, kind, default=default))
    if args.vararg:
        params.append(_P(args.vararg.arg, _P.VAR_POSITIONAL))
    for arg, default in zip(args.kwonlyargs, args.kw_defaults):
        params.append(_P(arg.arg, _P.KEYWORD_ONLY,
                         default=_P.empty if default is None else None))
    if args.kwarg:
        params.append(_P(args.kwarg.arg, _P.VAR_KEYWORD))
    return inspect.Signature(params)


def bad_arguments(site: CallSite) -> Finding | None:
    """A call whose arguments cannot bind to the callee's parameters (TypeError)."""
    if site.starred or not is_known(site.func):
        return None
    sig = signature_of(site.func)
    if sig is None:
        return None
    try:
        sig.bind(*site.args, **site.kwargs)
    except TypeError as exc:  # Signature.bind's own message: names the parameters
        name = site.text(site.node.func)
        library = "python" if isinstance(site.func, CellFunction) else library_of(site.func)
        if library == "python" and isinstance(site.func, types.MethodType):
            library = library_of(site.func.__self__)
        params = ", ".join(_parameter_text(p) for p in list(sig.parameters.values())[:6])
        return Finding(
            exception="TypeError", crash_type="invalid argument", library=library,
            explanation=f"{name}() {exc}: its signature is ({params}"
                        f"{', ...' if len(sig.parameters) > 6 else ''})",
            evidence=(f"{len(site.args)} positional argument(s), keywords "
                      f"{sorted(site.kwargs)}",),
            confidence=0.95, rule="call-signature")
    return None
