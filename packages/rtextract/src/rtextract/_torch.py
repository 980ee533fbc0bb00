"""Adapter for PyTorch: tensors, nn.Module (architecture), losses, Dataset, DataLoader,
optimizers and LR schedulers.

Tensor values are summarised on a leading view of at most ``SAMPLE_ELEMENTS`` elements,
under ``torch.no_grad()``, on the tensor's own device (a CUDA tensor is never copied to the
CPU whole). DataLoaders and Datasets are never iterated; a Dataset's first item is read
only for TensorDataset (indexing tensors runs no user code).
"""

from __future__ import annotations

import math
import sys
from typing import Any

from rtextract._builder import (
    Builder,
    Deadline,
    brief,
    dict_of,
    head_index,
    jsonable,
    short_name,
    type_name,
)
from rtextract._mapped import unreadable_memory
from rtextract._views import NO_VIEW, bounded_call, library_class, plain_view

__all__ = ["SAMPLE_ELEMENTS", "describe"]

SAMPLE_ELEMENTS = 100_000
UNIQUE_ELEMENTS = 20_000
_NO_NUMPY: Any = None  # torch dtypes numpy cannot view, filled on first use
_LAYER_FIELDS = (
    "in_features", "out_features", "in_channels", "out_channels", "kernel_size", "stride",
    "padding", "num_embeddings", "embedding_dim", "num_features", "normalized_shape",
    "input_size", "hidden_size", "num_layers", "batch_first", "bidirectional", "p",
    "d_model", "nhead", "num_heads", "embed_dim", "output_size", "start_dim", "end_dim",
)
_INPUT_FIELDS = ("in_features", "in_channels", "num_embeddings", "input_size", "num_features",
                 "embed_dim", "d_model")
_OUTPUT_FIELDS = ("out_features", "out_channels", "embedding_dim", "hidden_size", "num_features",
                  "embed_dim", "d_model")


def describe(obj: Any, b: Builder) -> bool:
    torch = sys.modules["torch"]
    tp = type(obj)
    if issubclass(tp, torch.Tensor):
        _tensor(obj, b, torch)
    elif issubclass(tp, torch.nn.Module):
        _module(obj, b, torch)
    elif _is(tp, "torch.utils.data", "DataLoader"):
        _loader(obj, b, torch)
    elif _is(tp, "torch.utils.data", "Dataset"):
        _dataset(obj, b, torch)
    elif _is(tp, "torch.optim", "Optimizer"):
        _optimizer(obj, b)
    elif _is(tp, "torch.optim.lr_scheduler", "LRScheduler"):
        _scheduler(obj, b)
    elif issubclass(tp, torch.Size):
        b.kind = "torch.Size"
        b.add("value", list(obj), "S")
    elif issubclass(tp, (torch.device, torch.dtype)):
        b.kind = f"torch.{tp.__name__}"
        b.add("value", str(obj), "R")
    else:
        return False
    return True


def _is(tp: type, module: str, name: str) -> bool:
    base = getattr(sys.modules.get(module), name, None)
    return isinstance(base, type) and issubclass(tp, base)


def _tensor(t: Any, b: Builder, torch: Any) -> None:
    b.kind = "torch.Tensor"
    b.add("shape", list(t.shape), "S")
    b.add("dtype", str(t.dtype).removeprefix("torch."), "R")
    b.add("device", str(t.device), "R")
    requires_grad, grad_fn = _autograd_state(t, b.obj, torch)
    b.add("requires_grad", requires_grad, "R")
    b.add("numel", int(t.numel()), "S")
    if type(t).__name__ == "Parameter":
        b.add("parameter", True, "R")
    if grad_fn is not None:
        b.add("grad_fn", type(grad_fn).__name__, "R")
    if t.layout != torch.strided or t.is_meta or t.is_quantized or t.numel() == 0:
        if t.layout != torch.strided:
            b.add("layout", str(t.layout), "R")
        return
    why = unreadable_memory(t)  # a tensor over a truncated memmap: reading kills the kernel
    if why is not None:
        b.note(why)
        return
    b.step("values", _tensor_values, t, b, torch)


def _autograd_state(t: Any, original: Any, torch: Any) -> tuple[bool, Any]:
    """requires_grad and grad_fn; of the user's tensor when ``t`` is a plain view of it.

    The view is made without autograd, so its own flags are not the original's; those are
    read through the base class's C getters with subclass ``__torch_function__`` off.
    """
    if original is t:
        return bool(t.requires_grad), t.grad_fn
    base = torch._C.TensorBase
    with torch._C.DisableTorchFunctionSubclass():
        return bool(base.requires_grad.__get__(original)), base.grad_fn.__get__(original)


def _tensor_values(t: Any, b: Builder, torch: Any) -> None:
    global _NO_NUMPY
    if _NO_NUMPY is None:
        _NO_NUMPY = _no_numpy_dtypes(torch)
    index, taken = head_index(tuple(t.shape), SAMPLE_ELEMENTS)
    note = None if taken == t.numel() else f"in first {taken:,} of {t.numel():,} elements"
    with torch.no_grad():
        sample = t.detach()[index] if t.dim() else t.detach()
        np = sys.modules.get("numpy")
        if np is not None and sample.device.type == "cpu" and sample.dtype not in _NO_NUMPY:
            # numpy: single-threaded, so a busy machine does not stall it the way torch's
            # thread pool does on a 100,000-element sample; on a copy of the sample, since
            # .numpy() of the user's own storage marks it not resizable for good (the
            # tensor's resize_ would fail afterwards)
            from rtextract._numpy import summarise_values

            summarise_values(np, sample.clone().numpy(), b, note)
            return
        flat = sample.reshape(-1)
        if t.is_floating_point() or t.is_complex():
            nan = int(torch.isnan(flat).sum().item())
            b.add("nan_count", nan, "V", note)
            b.add("inf_count", int(torch.isinf(flat).sum().item()), "V", note)
            if t.is_floating_point() and nan < flat.numel():
                finite = flat[~torch.isnan(flat)]
                b.add("min", finite.min().item(), "V", note)
                b.add("max", finite.max().item(), "V", note)
        elif t.dtype != torch.bool:
            b.add("min", flat.min().item(), "V", note)
            b.add("max", flat.max().item(), "V", note)
        if not t.is_floating_point() and not t.is_complex() and b.deadline.remaining_ms() > 2:
            # torch.unique sorts: a shorter head keeps it cheap
            head = flat[:UNIQUE_ELEMENTS]
            unote = note if head.numel() == flat.numel() else f"in first {UNIQUE_ELEMENTS:,} elements"
            unique = torch.unique(head)
            b.add("n_unique", int(unique.numel()), "V", unote)
            if unique.numel() <= 20:
                b.add("unique_values", unique.tolist(), "V", unote)
        b.add("examples", [jsonable(v) for v in flat[:3].tolist()], "V")


def _no_numpy_dtypes(torch: Any) -> tuple[Any, ...]:
    names = ("bfloat16", "complex32", "float8_e4m3fn", "float8_e5m2")
    return tuple(getattr(torch, n) for n in names if hasattr(torch, n))


def _module(m: Any, b: Builder, torch: Any) -> None:
    loss_base = getattr(sys.modules.get("torch.nn.modules.loss"), "_Loss", None)
    is_loss = isinstance(loss_base, type) and issubclass(type(m), loss_base)
    b.kind = "torch.loss" if is_loss else "torch.nn.Module"
    b.add("class", type(m).__name__, "R")
    state = dict_of(m)
    if type(state.get("training")) is bool:
        b.add("training", state["training"], "V")
    if is_loss:
        for key in ("reduction", "ignore_index", "label_smoothing"):
            if key in state:
                b.add(key, state[key], "R")
        buffers = state.get("_buffers")
        b.add("has_weight", type(buffers) is dict and buffers.get("weight") is not None, "R")
    b.step("parameters", _parameters, m, b)
    if state.get("_modules"):
        b.step("layers", _layers, m, b)
    else:  # a single layer: its own configuration
        config = _layer_row("", m)
        del config["name"], config["type"]
        if config:
            b.add("config", config, "R")
    children = state.get("_modules")
    for name, child in list(children.items() if type(children) is dict else ())[: b.max_items]:
        if child is not None:
            b.child(name, child)


def _parameters(m: Any, b: Builder) -> None:
    total = trainable = 0
    devices: set[str] = set()
    dtypes: set[str] = set()
    for p in _walk_parameters(m):
        n = p.numel()
        total += n
        trainable += n if p.requires_grad else 0
        devices.add(str(p.device))
        dtypes.add(str(p.dtype).removeprefix("torch."))
    b.add("n_parameters", total, "S")
    b.add("n_trainable", trainable, "S")
    if devices:
        b.add("device", sorted(devices)[0] if len(devices) == 1 else sorted(devices), "R")
        b.add("dtype", sorted(dtypes)[0] if len(dtypes) == 1 else sorted(dtypes), "R")


def _layers(m: Any, b: Builder) -> None:
    # leaf modules carry the architecture; containers (Sequential, blocks) only group them
    leaves = [(name or short_name(type(m)), sub) for name, sub in _walk_modules(m)
              if not dict_of(sub).get("_modules")]
    b.add("n_layers", len(leaves), "S")
    rows = [_layer_row(name, sub) for name, sub in leaves[: b.max_items]]
    b.add("layers", rows, "R", None if len(leaves) <= b.max_items else
          f"first {b.max_items} of {len(leaves)} leaf modules")
    for row in (_layer_row(n, s) for n, s in leaves):
        found = next((row[f] for f in _INPUT_FIELDS if f in row), None)
        if found is not None:
            b.add("input_features", found, "S", f"{row['type']} {row['name']}")
            break
    for name, sub in reversed(leaves):
        row = _layer_row(name, sub)
        found = next((row[f] for f in _OUTPUT_FIELDS if f in row), None)
        if found is not None:
            b.add("output_features", found, "S", f"{row['type']} {row['name']}")
            break


def _walk_modules(m: Any, prefix: str = "", seen: set[int] | None = None) -> list[tuple[str, Any]]:
    """``named_modules()`` read from the ``_modules`` dicts: a user module may override the
    method (or ``__getattr__``), and calling it would run the user's code."""
    seen = set() if seen is None else seen
    if id(m) in seen or len(seen) > 10_000:
        return []
    seen.add(id(m))
    found = [(prefix, m)]
    children = dict_of(m).get("_modules")
    for name, child in (children.items() if type(children) is dict else ()):
        if child is not None:
            found += _walk_modules(child, f"{prefix}.{name}" if prefix else str(name), seen)
    return found


def _walk_parameters(m: Any) -> list[Any]:
    """``parameters()`` (each shared parameter once) from the ``_parameters`` dicts."""
    seen: set[int] = set()
    found = []
    for _, sub in _walk_modules(m):
        params = dict_of(sub).get("_parameters")
        for p in (params.values() if type(params) is dict else ()):
            if p is not None and id(p) not in seen:
                seen.add(id(p))
                found.append(_plain_tensor(p))
    return found


def _plain_tensor(t: Any) -> Any:
    view, _ = plain_view(t)
    if view is NO_VIEW:
        raise TypeError(f"parameter of type {type_name(type(t))} cannot be read safely")
    return view


def _layer_row(name: str, sub: Any) -> dict[str, Any]:
    state = dict_of(sub)
    row: dict[str, Any] = {"name": name, "type": short_name(type(sub))}
    for field in _LAYER_FIELDS:
        value = state.get(field)
        if value is not None and type(value) in (int, float, bool, str, tuple, list):
            row[field] = jsonable(value)
    return row


def _dataset(ds: Any, b: Builder, torch: Any) -> None:
    b.kind = "torch.Dataset"
    b.add("class", short_name(type(ds)), "R")
    iterable = _is(type(ds), "torch.utils.data", "IterableDataset")
    b.add("iterable", iterable, "R")
    state = dict_of(ds)
    if iterable:
        b.note("iterable-style dataset: never iterated")
        return
    b.step("length", _dataset_length, ds, b)
    own = library_class(type(ds))  # a user subclass may override __getitem__
    if own and _is(type(ds), "torch.utils.data", "TensorDataset"):
        tensors = state.get("tensors", ())
        plain = type(tensors) is tuple and all(library_class(type(t)) and isinstance(
            t, torch.Tensor) for t in tensors)
        if plain:  # torch's own tensors: indexing them runs no user code
            b.add("tensor_shapes", [list(t.shape) for t in tensors], "S")
            if tensors and len(tensors[0]) and unreadable_memory(tensors[0]) is None:
                item = ds[0]
                b.add("first_item", [{"shape": list(x.shape),
                                      "dtype": str(x.dtype).removeprefix("torch.")}
                                     for x in item], "S")
        else:
            b.note("tensors of a user tensor type: first item not read")
    elif own and _is(type(ds), "torch.utils.data", "Subset"):
        b.child("dataset", state.get("dataset"))
    else:
        b.note("first item not read: __getitem__ of this dataset is user code")
    attrs = {k: brief(v) for k, v in state.items() if not k.startswith("_") and k != "tensors"}
    if attrs:
        b.add("attributes", dict(list(attrs.items())[: b.max_items]), "R")


def _dataset_length(ds: Any, b: Builder) -> int | None:
    # a map-style Dataset's __len__ is called (documented): it is how DataLoader sizes itself
    n = _plain_length(ds, b.deadline)
    if n is not None:
        b.add("length", n, "S")
    return n


def _loader(dl: Any, b: Builder, torch: Any) -> None:
    b.kind = "torch.DataLoader"
    state = dict_of(dl)
    bs = state.get("batch_size")
    b.add("batch_size", bs, "S")
    b.add("drop_last", bool(state.get("drop_last")), "R")
    b.add("num_workers", state.get("num_workers"), "R")
    sampler = state.get("sampler")
    b.add("sampler", short_name(type(sampler)) if sampler is not None else None, "R")
    b.add("shuffle", short_name(type(sampler)) == "RandomSampler" and library_class(
        type(sampler)), "R")
    dataset = state.get("dataset")
    if dataset is not None:
        iterable = _is(type(dataset), "torch.utils.data", "IterableDataset")
        n = None if iterable else b.step("dataset length", _plain_length, dataset, b.deadline)
        if n is not None:
            b.add("n_samples", n, "S")
            if type(bs) is int and bs > 0:
                batches = n // bs if state.get("drop_last") else math.ceil(n / bs)
                b.add("n_batches", batches, "S", "computed from the dataset length; never iterated")
        b.child("dataset", dataset)


def _plain_length(ds: Any, deadline: Deadline) -> int | None:
    """``len(ds)``: the dataset's own ``__len__``, under the time budget (see bounded_call)."""
    if not any("__len__" in type.__getattribute__(k, "__dict__")
               for k in type.__getattribute__(type(ds), "__mro__") if k is not object):
        return None
    n = bounded_call(lambda: len(ds), deadline)
    return n if type(n) is int else None


def _optimizer(opt: Any, b: Builder) -> None:
    b.kind = "torch.optim.Optimizer"
    b.add("class", short_name(type(opt)), "R")
    groups = dict_of(opt).get("param_groups", [])
    if type(groups) is not list or not all(type(g) is dict for g in groups):
        b.note("param_groups is not a list of dicts: not read")
        return
    b.add("n_param_groups", len(groups), "S")
    b.add("n_params", sum(_count(g.get("params", ())) for g in groups), "S")
    b.add("lr", [jsonable(g.get("lr")) for g in groups], "V")
    if groups:
        hyper = {str(k): jsonable(v) for k, v in groups[0].items() if k != "params"}
        b.add("hyperparameters", dict(sorted(hyper.items())), "V", "of the first parameter group")
    state = dict_of(opt).get("state", {})
    b.add("n_states", dict.__len__(state) if issubclass(type(state), dict) else None, "S")


def _count(params: Any) -> int:
    return len(params) if type(params) in (list, tuple) else 0


def _scheduler(sched: Any, b: Builder) -> None:
    b.kind = "torch.optim.LRScheduler"
    state = dict_of(sched)
    b.add("class", short_name(type(sched)), "R")
    for key in ("last_epoch", "base_lrs", "_last_lr"):
        if key in state:
            b.add(key.lstrip("_"), jsonable(state[key]), "V")
    optimizer = state.get("optimizer")
    if optimizer is not None:
        b.add("optimizer", type_name(type(optimizer)), "R")
