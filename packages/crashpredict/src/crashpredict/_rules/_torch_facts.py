"""torch propagation: creators, layers, functional ops and tensor methods on ``meta``.

Tensors built in the cell are abstract tensors backed by meta tensors (``torch.randn(...,
device='meta')`` draws nothing); layers built in the cell are built on meta; a user's
built-in module tree is run through a meta copy (``_meta``), a user module through its
straight-chain forward (``_forward``). Only torch's tensor maths is run (`TORCH_MATH`).
Devices are tracked beside the meta tensors and compared before a layer or op runs.
"""

from __future__ import annotations

import ast
import sys
import types
from typing import Any

from ._facts import describe, np_module, short
from ._finding import Finding
from ._forward import follow_forward
from ._meta import (
    TORCH_MATH,
    MetaFailure,
    abstract_tensor,
    builtin_module_class,
    device_of,
    make_module,
    meta_failure_finding,
    meta_module,
    meta_tensor,
    module_device,
    run_function,
    run_module,
    submodules,
    torch_function_ok,
    wrap_output,
)
from ._values import (
    Abstract,
    is_abstract,
    is_known,
    is_ndarray,
    is_tensor,
    is_torch_module,
    meta_attr,
    type_root,
)
from ._walk._types import MODULE_MODES, CallSite

__all__ = ['torch_call', 'tensor_devices', 'loader_batches']


_TORCH_CREATORS = frozenset({"randn", "rand", "randint", "randperm", "zeros", "ones", "empty",
                             "full", "arange", "linspace", "eye", "normal"})
_TORCH_FROM_ARRAY = frozenset({"from_numpy", "tensor", "as_tensor", "FloatTensor",
                               "LongTensor", "Tensor", "DoubleTensor"})


def _torch_default_device() -> str:
    torch = sys.modules.get("torch")
    try:
        return str(torch.get_default_device())
    except Exception:
        return "cpu"


def _torch_creator(site: CallSite, name: str) -> Any:
    torch = sys.modules["torch"]
    if not all(is_known(v) for v in [*site.args, *site.kwargs.values()]):
        return None
    kwargs = dict(site.kwargs)
    device = kwargs.pop("device", None)
    if any(is_tensor(v) for v in [*site.args, *kwargs.values()]):
        return None
    try:
        meta = getattr(torch, name)(*site.args, **kwargs, device="meta")
    except Exception:
        return None
    where = str(torch.device(device)) if device is not None else _torch_default_device()
    return abstract_tensor(meta, where, site.text(site.node))


def _from_array(site: CallSite, name: str) -> Any:
    torch, np = sys.modules["torch"], np_module()
    x = site.args[0] if site.args else None
    if np is None or not (is_abstract(x, "ndarray") and x.shape is not None or
                          is_known(x) and is_ndarray(x)):  # (a live one: no trial needed)
        return None
    try:
        if name in ("FloatTensor", "Tensor"):
            dtype = torch.float32
        elif name == "LongTensor":
            dtype = torch.int64
        elif name == "DoubleTensor":
            dtype = torch.float64
        else:
            dtype = site.kwargs.get("dtype") or torch.from_numpy(
                np.zeros(0, dtype=x.dtype)).dtype
        meta = torch.empty(x.shape, dtype=dtype, device="meta")
    except Exception:
        return None
    device = site.kwargs.get("device")
    return abstract_tensor(meta, str(torch.device(device)) if device is not None else "cpu",
                           site.text(site.node))


def _tensor_inputs(values: list[Any]) -> list[Any] | None:
    out = []
    for value in values:
        meta = meta_tensor(value)
        if meta is not None:
            out.append(meta)
        elif type(value) in (int, float, bool, type(None), str):
            out.append(value)
        elif type(value) in (list, tuple) and len(value) <= 64:
            inner = _tensor_inputs(list(value))
            if inner is None:
                return None
            out.append(type(value)(inner))
        elif is_known(value) and type(value).__name__ in ("dtype", "device", "Size") and \
                type_root(value) == "torch":
            out.append(value)
        else:
            return None
    return out


def tensor_devices(values: list[Any]) -> set[str]:
    found = set()
    for value in values:
        for item in (value if type(value) in (list, tuple) else [value]):
            device = device_of(item)
            if device is not None:
                found.add(device)
    return found


#: A mode the cell set on a module inside or around the one called (`_mode_in_cell`).
_RELATED = object()


def _mode_in_cell(module: Any, walker: Any) -> Any:
    """The training mode the cell last put ``module`` in (``model.eval()``): True or False;
    None when it set none; `_RELATED` when it later set that of a module inside it or
    around it (what each layer's mode is then is not followed: no layer runs)."""
    records = walker.scratch.get(MODULE_MODES) if is_known(module) else None
    for recorded, mode in reversed(records or ()):
        if recorded is module:
            return mode
        if any(sub is module for sub in submodules(recorded)) or any(
                sub is recorded for sub in submodules(module)):
            return _RELATED
    return None


def _module_call(site: CallSite, module: Any) -> Any:
    walker = site.walker
    if site.kwargs or not site.args:
        return None
    mode = _mode_in_cell(module, walker)
    if mode is _RELATED:
        return None
    args = list(site.args)
    if any(is_ndarray(a) for a in args):
        return None  # the torch rules say what a numpy array does to a layer
    metas = _tensor_inputs(args)
    if metas is None or not any(is_abstract(a) or is_tensor(a) for a in args):
        return None
    cache = walker.scratch.setdefault("meta_modules", {})
    devices = tensor_devices(args)
    evidence = tuple(f"{site.text(n)}: {describe(v)}" for n, v in zip(site.node.args, args))
    call_text = short(site.text(site.node))
    meta = meta_module(module, cache)
    if meta is None:
        if is_torch_module(module) and not builtin_module_class(type(module)) and \
                len(args) == 1 and mode is None:
            return follow_forward(module, args[0], site, cache)
        return None
    if mode is not None:
        meta.train(mode)  # the walk's own copy: as the cell left the module
    where = module_device(module)
    if where is not None and devices and devices != {where}:
        walker.report(Finding(
            exception="RuntimeError", crash_type="type error", library="torch",
            confidence=0.93, rule="torch-device", evidence=evidence,
            explanation=f"Expected all tensors to be on the same device: the input of "
                        f"`{call_text}` is on {', '.join(sorted(devices))}, the module's "
                        f"weights on {where}"), site.node)
        return None
    try:
        out = run_module(meta, metas, type(meta).__name__)
    except MetaFailure as failure:
        walker.report(meta_failure_finding(failure, call_text, evidence), site.node)
        return None
    device = next(iter(devices)) if len(devices) == 1 else where
    return wrap_output(out, device)


def _torch_function(site: CallSite, func: Any, receiver: Any) -> Any:
    """A torch function or tensor method with an abstract tensor among its inputs."""
    values = [*site.args, *site.kwargs.values()]
    if receiver is not None:
        values = [receiver, *values]
    flat = [v for a in values for v in (a if type(a) in (list, tuple) else [a])]
    if not any(is_abstract(v, "tensor") for v in flat) or site.starred:
        return None
    devices = tensor_devices(values)
    if len(devices) > 1:
        site.walker.report(Finding(
            exception="RuntimeError", crash_type="type error", library="torch",
            confidence=0.93, rule="torch-device",
            explanation=f"Expected all tensors to be on the same device, but found at least "
                        f"two devices, {' and '.join(sorted(devices))}: "
                        f"`{short(site.text(site.node))}`"), site.node)
        return None
    args = _tensor_inputs(list(site.args))
    kwargs = _tensor_inputs(list(site.kwargs.values()))
    if args is None or kwargs is None:
        return None
    if receiver is not None:
        meta = meta_tensor(receiver)
        target = getattr(meta, site.method or "", None)
        if target is None or not torch_function_ok(target):
            return None
    else:
        target = func
        if not torch_function_ok(func):
            return None
    try:
        out = run_function(target, args, dict(zip(site.kwargs, kwargs)),
                           f"`{short(site.text(site.node))}`")
    except MetaFailure as failure:
        evidence = tuple(f"{site.text(n)}: {describe(v)}" for n, v in zip(
            site.node.args, site.args) if is_abstract(v) or is_tensor(v))
        site.walker.report(meta_failure_finding(failure, short(site.text(site.node)),
                                                evidence), site.node)
        return None
    return wrap_output(out, next(iter(devices)) if devices else "cpu")


def _abstract_tensor_method(site: CallSite, x: Abstract) -> Any:
    torch = sys.modules.get("torch")
    method = site.method
    if method in ("cpu", "cuda", "to") and not site.starred:
        target = "cpu" if method == "cpu" else ("cuda" if method == "cuda" else None)
        meta = x.meta
        for value in [*site.args, *site.kwargs.values()]:
            if isinstance(value, str) or type(value).__name__ == "device":
                try:
                    target = str(torch.device(value))
                except Exception:
                    return None
            elif type(value).__name__ == "dtype" and type_root(value) == "torch":
                meta = meta.to(value)
            elif is_known(value) and type(value) is bool:
                continue
            else:
                return None
        if target == "cuda":
            target = "cuda:0"
        return abstract_tensor(meta, target or x.device)
    if method == "numpy":
        if site.walker.grad_certain and getattr(x.meta, "requires_grad", False) is True:
            _numpy_of_grad(site)
            return None
        np = np_module()
        try:
            dtype = torch.empty(0, dtype=x.dtype).numpy().dtype
        except Exception:
            return None
        return Abstract("ndarray", shape=x.shape, dtype=dtype if np is not None else None)
    if method in ("item", "tolist", "backward", "data_ptr"):
        return None
    return _torch_function(site, None, x)


def _numpy_of_grad(site: CallSite) -> None:
    """``t.numpy()`` where ``t`` requires grad: autograd was on where it was computed from
    weights or tensors that require grad (no ``torch.no_grad()``, no ``detach()``)."""
    receiver = site.node.func.value if isinstance(site.node.func, ast.Attribute) else None
    text = short(site.text(receiver)) if receiver is not None else "the tensor"
    site.walker.report(Finding(
        exception="RuntimeError", crash_type="invalid argument", library="torch",
        confidence=0.95, rule="torch-numpy-grad",
        evidence=(f"{text}: requires grad (computed with autograd on, from weights or "
                  f"tensors that require grad)",),
        explanation=f"Can't call numpy() on Tensor that requires grad: `{text}` is part of "
                    f"autograd's graph. Use `{text}.detach().numpy()`, or compute it under "
                    f"`with torch.no_grad():`"), site.node)


def torch_call(site: CallSite) -> Any:
    torch = sys.modules.get("torch")
    if torch is None:
        return None
    func, receiver, method = site.func, site.receiver, site.method
    if is_abstract(receiver, "tensor"):
        return _abstract_tensor_method(site, receiver)
    if method and is_known(receiver) and is_tensor(receiver) and isinstance(
            site.node.func, ast.Attribute) and not any(is_abstract(a) for a in site.args):
        # a method no trial ran (``std``; any on a large tensor): on a meta tensor of the
        # live one's shape, strides, dtype and requires_grad
        meta, device = meta_tensor(receiver), device_of(receiver)
        if meta is None or device is None:
            return None
        return _abstract_tensor_method(site, abstract_tensor(
            meta, device, short(site.text(site.node.func.value))))
    if is_abstract(receiver, "module") or (is_known(receiver) and is_torch_module(receiver)):
        if method in ("train", "eval", "float", "cpu"):
            return receiver if is_abstract(receiver) or method in ("train", "eval") else None
        if method == "to" and len(site.args) == 1 and not site.kwargs:
            try:
                target = str(torch.device(site.args[0]))
            except Exception:
                return None
            if target == module_device(receiver) or module_device(receiver) is None:
                return receiver
            return None
        if method == "forward":
            return _module_call(site, receiver)
        return None
    if is_abstract(func, "module") or (is_known(func) and is_torch_module(func)):
        return _module_call(site, func)
    if not is_known(func):
        return None
    if builtin_module_class(func) and not site.starred:
        args = [meta_module(a, site.walker.scratch.setdefault("meta_modules", {}))
                if is_abstract(a, "module") or is_torch_module(a) else a for a in site.args]
        if any(a is None for a in args) or not all(is_known(a) or is_abstract(a, "module")
                                                   for a in site.args):
            return None
        if not all(is_known(v) for v in site.kwargs.values()) or "device" in site.kwargs:
            return None  # an explicit device would allocate real weights there
        module = make_module(func, args, dict(site.kwargs))
        if module is None:
            return None
        return Abstract("module", meta=module, device=_torch_default_device(),
                        origin=site.text(site.node))
    name = meta_attr(func, "__name__")
    root = str(meta_attr(func, "__module__") or "")
    owner = meta_attr(func, "__self__")
    owner_name = owner.__name__ if isinstance(owner, types.ModuleType) else ""
    # tensor maths only: never torch.utils, torch.hub, torch.save, torchvision's writers
    if root not in TORCH_MATH and owner_name not in TORCH_MATH:
        return None
    if name in _TORCH_CREATORS and (site.method is None or isinstance(receiver,
                                                                      types.ModuleType)):
        return _torch_creator(site, name)
    if name in _TORCH_FROM_ARRAY:
        return _from_array(site, name)
    if is_known(receiver) and is_tensor(receiver) and method:
        return _torch_function(site, None, receiver) if any(
            is_abstract(a, "tensor") for a in site.args) else None
    return _torch_function(site, func, None)


def loader_batches(value: Any) -> tuple[Any, int, Any] | None:
    """(first batch, number of batches, last batch) of a DataLoader over a TensorDataset;
    the last batch is None when it has the first one's size.

    Only the plain case: torch's own DataLoader and TensorDataset classes, the default
    collate function and batch sampler, a fixed batch size. The first batch stacks
    ``min(batch_size, n)`` rows of each tensor, the last the rows left over (``n %
    batch_size``, in any order of the sampler) unless ``drop_last``; nothing is iterated.
    """
    data = sys.modules.get("torch.utils.data")
    collate = sys.modules.get("torch.utils.data._utils.collate")
    if data is None or collate is None or type(value) is not getattr(data, "DataLoader", None):
        return None
    attrs = vars(value)
    dataset = attrs.get("dataset")
    batch_size = attrs.get("batch_size")
    if type(dataset) is not getattr(data, "TensorDataset", None) or type(batch_size) is not \
            int or batch_size < 1 or attrs.get("collate_fn") is not getattr(
                collate, "default_collate", None):
        return None
    if type(attrs.get("batch_sampler")) is not getattr(data, "BatchSampler", None) or type(
            attrs.get("sampler")) not in (getattr(data, "SequentialSampler", None),
                                          getattr(data, "RandomSampler", None)):
        return None
    tensors = vars(dataset).get("tensors")
    if type(tensors) is not tuple or not tensors or not all(is_tensor(t) for t in tensors):
        return None
    rows = int(tensors[0].shape[0])
    drop_last = bool(attrs.get("drop_last"))
    count = rows // batch_size if drop_last else -(-rows // batch_size)
    if count < 1:
        return None, 0, None
    torch = sys.modules["torch"]

    def batch_of(size: int) -> list[Any]:
        return [abstract_tensor(torch.empty((size, *t.shape[1:]), dtype=t.dtype,
                                            device="meta"), str(t.device)) for t in tensors]

    left = rows % batch_size
    last = batch_of(left) if left and not drop_last and count > 1 else None
    return batch_of(min(batch_size, rows)), count, last
