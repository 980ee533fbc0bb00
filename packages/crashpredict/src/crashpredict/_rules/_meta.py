"""PyTorch propagation on the ``meta`` device: shapes and dtypes through layers and ops.

A built-in ``torch.nn`` layer (or a tree of them) is copied to the meta device, sharing no
storage with the user's module (its parameters are replaced through ``deepcopy``'s memo, so
no weight is copied and the user's module is never touched), and run on meta tensors of the
input's shape and dtype: torch's own shape checks run, no data is computed, no random number
is drawn. A user's ``nn.Module`` is never called; ``_forward`` follows its ``forward`` by
reading the source when it is a straight chain of built-in layers and tensor ops.
"""

from __future__ import annotations

import copy
import sys
import threading
import types
import warnings
import weakref
from typing import Any

from ._finding import Finding
from ._values import Abstract, is_abstract, is_tensor, is_torch_module, meta_attr, safe_message

__all__ = ["meta_tensor", "abstract_tensor", "meta_module", "module_device", "run_module",
           "run_function", "builtin_module_class", "make_module", "wrap_output",
           "MetaFailure", "meta_failure_finding", "torch_math", "TORCH_MATH", "meta_warm",
           "warm_meta", "submodules"]

_WEIGHTED = ("Linear", "Conv1d", "Conv2d", "Conv3d", "ConvTranspose1d", "ConvTranspose2d",
             "ConvTranspose3d", "LSTM", "GRU", "RNN", "Bilinear")
# Errors that only say the meta device lacks a kernel: never a prediction.
_META_WORDS = ("meta", "data-dependent", "not implemented", "NotImplemented", "fake",
               "Cannot copy out", "item()", "symbolic")


#: torch's meta device imports what it runs on (``torch._dynamo``) the first time it
#: computes a layer: 1-5 s, once per process. The rules run layers and ops on it only once
#: that is done, never as a cell waits for it: by the notebook's own code (constructing an
#: optimizer imports it) or by `warm_meta` (the full rules, before they walk). Never from a
#: thread of a notebook's kernel: a dry run's fork would copy that import's locks held, and
#: a child that imports the same module waits on them forever.
_WARM = threading.Event()
_WARMING = threading.Lock()


def meta_warm() -> bool:
    """Whether torch's meta device runs a layer without importing what it runs on."""
    if _WARM.is_set():
        return True
    dynamo = sys.modules.get("torch._dynamo")
    if dynamo is not None and not getattr(getattr(dynamo, "__spec__", None), "_initializing",
                                          True):
        _WARM.set()  # imported whole (not half, by a thread importing it now)
    return _WARM.is_set()


def warm_meta() -> bool:
    """Run a layer on torch's meta device once, so that its imports are done; whether it is
    warm. Returns at once while another thread does it; never raises."""
    torch = _torch()
    if _WARM.is_set() or torch is None or not _WARMING.acquire(blocking=False):
        return _WARM.is_set()
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            x = torch.empty(2, 3, device="meta")
            torch.nn.functional.linear(x, torch.empty(4, 3, device="meta"),
                                       torch.empty(4, device="meta"))
    except Exception:  # noqa: BLE001 - whatever torch does (an interrupt still interrupts)
        pass
    finally:
        _WARM.set()  # tried: a second try would not be quicker
        _WARMING.release()
    return True


class MetaFailure(Exception):
    """A meta run raised what the real run raises: carries the original exception."""

    def __init__(self, exc: BaseException, what: str) -> None:
        super().__init__(safe_message(exc))
        self.exc = exc
        self.what = what


def _torch() -> Any:
    return sys.modules.get("torch")


def submodules(module: Any) -> list[Any]:
    """``module.modules()`` read from the ``_modules`` dicts: ``Module.modules`` (even
    called unbound) asks ``self.named_modules``, which a user subclass may override."""
    found: list[Any] = []
    seen: set[int] = set()
    stack = [module]
    while stack and len(found) < 10_000:
        sub = stack.pop()
        if id(sub) in seen:
            continue
        seen.add(id(sub))
        found.append(sub)
        children = _state(sub).get("_modules")
        if type(children) is dict:
            stack.extend(c for c in reversed(list(children.values())) if c is not None)
    return found


def _tensors(module: Any, store: str) -> list[Any]:
    """Each parameter (``"_parameters"``) or buffer (``"_buffers"``) of a module tree once."""
    found: list[Any] = []
    seen: set[int] = set()
    for sub in submodules(module):
        values = _state(sub).get(store)
        for tensor in (values.values() if type(values) is dict else ()):
            if tensor is not None and id(tensor) not in seen:
                seen.add(id(tensor))
                found.append(tensor)
    return found


def _state(obj: Any) -> dict:
    try:
        state = object.__getattribute__(obj, "__dict__")
    except Exception:
        return {}
    return state if type(state) is dict else {}


#: Instance values a built-in layer may hold and ``copy.deepcopy`` copies without user code.
_PLAIN_STATE = (int, float, bool, str, type(None), tuple, list, dict, set, frozenset)


def _plain_state(module: Any) -> bool:
    """Every value in the module tree's instance dicts is a tensor, a layer, a hook dict or
    plain data: deep-copying it runs no ``__deepcopy__`` of a user object."""
    torch = _torch()
    for sub in submodules(module):
        for value in _state(sub).values():
            if not _plain_value(value, torch, 0):
                return False
    return True


def _plain_value(value: Any, torch: Any, depth: int) -> bool:
    tp = type(value)
    if tp in (torch.Tensor, torch.nn.Parameter) or is_torch_module(value):
        return True  # replaced through the memo, or walked as a submodule
    if tp is weakref.ref:
        return True  # deepcopy keeps the reference; nothing runs
    if tp in (types.FunctionType, types.BuiltinFunctionType):
        # kept as they are by deepcopy, but a meta run calls them (an activation)
        module = value.__module__  # a slot of these final types: C code
        return type(module) is str and module.partition(".")[0] in ("torch", "math",
                                                                     "builtins", "_operator")
    if type(value).__name__ in ("dtype", "device", "OrderedDict", "Size") and \
            type(value).__module__.partition(".")[0] in ("torch", "collections"):
        return depth < 4 and (tp.__name__ != "OrderedDict" or all(
            _plain_value(v, torch, depth + 1) for v in value.values()))
    if tp not in _PLAIN_STATE or depth > 4:
        return False
    if tp is dict:
        return len(value) <= 1000 and all(_plain_value(k, torch, depth + 1) and _plain_value(
            v, torch, depth + 1) for k, v in value.items())
    if tp in (tuple, list, set, frozenset):
        return len(value) <= 1000 and all(_plain_value(v, torch, depth + 1) for v in value)
    return True


def meta_tensor(value: Any) -> Any:
    """A meta tensor of a live tensor's shape, strides, dtype and ``requires_grad`` (so
    ``view`` after ``permute`` and ``numpy()`` with autograd on fail as they will), or an
    Abstract tensor's; else None."""
    if is_abstract(value, "tensor"):
        return value.meta
    torch = _torch()
    if torch is not None and is_tensor(value):
        try:
            shape = tuple(value.shape)
            try:  # a strided (dense) tensor; a sparse or nested one has no strides
                meta = torch.empty_strided(shape, tuple(value.stride()), dtype=value.dtype,
                                           device="meta")
            except Exception:
                meta = torch.empty(shape, dtype=value.dtype, device="meta")
            if value.requires_grad is True:
                meta.requires_grad_(True)
            return meta
        except Exception:
            return None
    return None


def device_of(value: Any) -> str | None:
    """The device a live or Abstract tensor is on."""
    if is_abstract(value, "tensor"):
        return value.device
    if is_tensor(value):
        try:
            return str(value.device)
        except Exception:
            return None
    return None


def abstract_tensor(meta: Any, device: str | None, origin: str = "") -> Abstract:
    """An Abstract tensor standing for a meta tensor on ``device``."""
    return Abstract("tensor", shape=tuple(meta.shape), dtype=meta.dtype, device=device,
                    meta=meta, origin=origin)


def wrap_output(out: Any, device: str | None, depth: int = 0) -> Any:
    """Meta outputs back to Abstract values (tensors, tuples of them, sizes, ints)."""
    torch = _torch()
    if torch is not None and isinstance(out, torch.Tensor):
        return abstract_tensor(out, device) if out.device.type == "meta" else None
    if isinstance(out, (int, float, bool)) and not isinstance(out, type):
        return out
    if type(out).__name__ == "Size" or (type(out) is tuple and all(type(d) is int
                                                                     for d in out)):
        return tuple(int(d) for d in out)
    if type(out) is tuple and depth < 3:  # not a namedtuple: its fields would be lost
        items = [wrap_output(o, device, depth + 1) for o in out]
        return None if any(i is None for i in items) else tuple(items)
    return None


def builtin_module_class(cls: Any) -> bool:
    """A class defined by torch.nn itself (not a user subclass)."""
    if not isinstance(cls, type):
        return False
    module = type.__getattribute__(cls, "__module__")  # no metaclass code
    return type(module) is str and module.startswith("torch.nn.modules")


def _no_hooks(module: Any) -> bool:
    hooks = sys.modules.get("torch.nn.modules.module")
    for name in ("_global_forward_hooks", "_global_forward_pre_hooks",
                 "_global_module_registration_hooks"):
        if getattr(hooks, name, None):
            return False
    for sub in submodules(module):
        state = _state(sub)
        if state.get("_forward_hooks") or state.get("_forward_pre_hooks") or state.get(
                "_forward_hooks_with_kwargs"):
            return False
    return True


def _builtin_tree(module: Any) -> bool:
    try:
        return all(builtin_module_class(type(sub)) for sub in submodules(module)) and \
            _no_hooks(module) and _plain_state(module)
    except Exception:
        return False


def meta_module(value: Any, cache: dict) -> Any:
    """A meta copy of a built-in module tree (never the user's module itself); else None."""
    if is_abstract(value, "module"):
        return value.meta
    if not is_torch_module(value) or not _builtin_tree(value):
        return None
    key = id(value)
    if key in cache and cache[key][0] is value:
        return cache[key][1]
    torch = _torch()
    memo: dict = {}
    try:
        for tensor in [*_tensors(value, "_parameters"), *_tensors(value, "_buffers")]:
            fake = torch.empty(tuple(tensor.shape), dtype=tensor.dtype, device="meta")
            if isinstance(tensor, torch.nn.Parameter):
                fake = torch.nn.Parameter(fake, requires_grad=tensor.requires_grad)
            memo[id(tensor)] = fake
        copied = copy.deepcopy(value, memo)
    except Exception:
        return None
    cache[key] = (value, copied)
    return copied


def module_device(value: Any) -> str | None:
    """The device of a module's first parameter (None when it has none)."""
    if is_abstract(value, "module"):
        return value.device
    try:
        for param in _tensors(value, "_parameters"):
            return str(param.device)
    except Exception:
        return None
    return None


def _weight(module: Any) -> Any:
    params = module.__dict__.get("_parameters") or {}
    for name in ("weight", "weight_ih_l0"):
        if params.get(name) is not None:
            return params[name]
    return None


def _meta_only(exc: BaseException) -> bool:
    text = safe_message(exc)
    return isinstance(exc, NotImplementedError) or any(w in text for w in _META_WORDS)


def _check_leaf(module: Any, x: Any, name: str) -> None:
    """dtype and feature checks torch makes on real data but not on meta tensors."""
    torch = _torch()
    kind = type(module).__name__
    weight = _weight(module)
    if kind not in _WEIGHTED or weight is None or not isinstance(x, torch.Tensor):
        return
    if kind == "Linear" and x.ndim >= 1 and x.shape[-1] != module.in_features:
        rows = 1
        for d in x.shape[:-1]:
            rows *= int(d)
        raise MetaFailure(RuntimeError(
            f"mat1 and mat2 shapes cannot be multiplied ({rows}x{x.shape[-1]} and "
            f"{module.in_features}x{module.out_features})"), name)
    if x.dtype != weight.dtype:
        raise MetaFailure(RuntimeError(
            f"{kind} got input of dtype {x.dtype} but its weights are {weight.dtype} "
            f"(mat1 and mat2 must have the same dtype)"), name)


def run_module(module: Any, args: list[Any], name: str) -> Any:
    """Run a meta module on meta inputs, layer by layer through Sequential.

    Raises MetaFailure when torch rejects the input; returns the meta output, or None when
    the meta device cannot tell.
    """
    if not meta_warm():
        return None
    kind = type(module).__name__
    if kind == "Sequential" and len(args) == 1:
        x = args[0]
        for child_name, child in module._modules.items():
            x = run_module(child, [x], f"{name}[{child_name}]")
            if x is None:
                return None
        return x
    if args:
        _check_leaf(module, args[0], name)
    try:  # in this thread's autograd mode: the walk's, the cell's (`CellWalker.grad_certain`)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return module(*args)
    except Exception as exc:
        if _meta_only(exc):
            return None
        raise MetaFailure(exc, name) from None


def run_function(func: Any, args: list[Any], kwargs: dict[str, Any], name: str) -> Any:
    """Run a torch function or tensor method on meta tensors (MetaFailure when rejected);
    None before torch's meta device is ready (`meta_warm`)."""
    if not meta_warm():
        return None
    try:  # in this thread's autograd mode, as `run_module`
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return func(*args, **kwargs)
    except Exception as exc:
        if _meta_only(exc) or not isinstance(exc, (RuntimeError, ValueError, IndexError,
                                                   TypeError)):
            return None
        raise MetaFailure(exc, name) from None


def make_module(cls: type, args: list[Any], kwargs: dict[str, Any]) -> Any:
    """Construct a built-in torch.nn layer on the meta device (no weights, no RNG draws)."""
    torch = _torch()
    try:
        with torch.random.fork_rng(devices=[]), torch.device("meta"), \
                warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return cls(*args, **kwargs)
    except Exception:
        return None


def meta_failure_finding(failure: MetaFailure, call_text: str, evidence: tuple[str, ...]) \
        -> Finding:
    """The finding for an input torch rejects."""
    exc = failure.exc
    name = type(exc).__name__
    message = safe_message(exc) or name
    shape_words = ("shape", "size", "dimension", "match", "multiplied", "channels", "Expected",
                   "elements", "Kernel")
    crash = "type error" if "dtype" in message or "scalar type" in message else (
        "tensor shape mismatch" if any(w in message for w in shape_words) else "value error")
    return Finding(exception=name, crash_type=crash, library="torch", confidence=0.94,
                   rule="torch-meta", evidence=evidence,
                   explanation=f"`{call_text}` raises {name} in {failure.what}: {message}")


#: Modules of torch's tensor maths (never torch.utils, torch.hub, torch.save...).
TORCH_MATH = frozenset({"torch", "torch.functional", "torch.nn.functional", "torch._C._nn",
                        "torch._C._VariableFunctions", "torch.special", "torch.linalg",
                        "torch.fft", "torch._C._linalg", "torch._C._special", "torch._C._fft"})


def torch_math(func: Any) -> bool:
    """A function of torch's tensor maths, by its module or the module it is bound to."""
    owner = meta_attr(func, "__self__")
    owner_name = getattr(owner, "__name__", "") if isinstance(owner, type(sys)) else ""
    return (str(meta_attr(func, "__module__") or "") in TORCH_MATH or owner_name in
            TORCH_MATH) and torch_function_ok(func)


def torch_function_ok(func: Any) -> bool:
    """A torch function or tensor method that only computes (no in-place, no I/O)."""
    name = meta_attr(func, "__name__") or ""
    module = str(meta_attr(func, "__module__") or "")
    if not name or name.endswith("_") or name.startswith("_") or name in _IMPURE:
        return False
    return module.startswith("torch") or module == "" or type(func).__name__ in (
        "builtin_function_or_method", "method_descriptor")


_IMPURE = frozenset({"save", "load", "manual_seed", "seed", "set_default_dtype",
                     "set_default_device", "set_grad_enabled", "compile", "backward",
                     "register_hook", "share_memory", "pin_memory", "record_stream",
                     "set_printoptions", "use_deterministic_algorithms", "item", "tolist",
                     "numpy", "data_ptr", "storage", "untyped_storage", "print", "to_dense",
                     "nonzero", "unique", "masked_select", "bincount", "histc", "multinomial",
                     "bernoulli", "normal", "rand_like", "randn_like", "randint_like",
                     "argwhere", "unique_consecutive", "repeat_interleave"})
