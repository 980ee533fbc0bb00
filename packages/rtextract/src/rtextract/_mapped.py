"""Memory whose reading would kill the process: arrays over a file truncated after mapping.

A numpy ``memmap`` (or any array whose base chain ends in an ``mmap.mmap``, or a torch
tensor made from one) keeps its mapping when the file shrinks; the first read of a page
past the new end of the file raises SIGBUS, and the kernel process dies. So before values
are read, `unreadable_memory` checks that the file still covers every byte the object
spans. No signal handler is installed: the check reads ``/proc/self/maps`` (the mapping
that holds the memory, its file and offset) and the file's size, or, without ``/proc``,
a memmap's own ``filename`` and ``offset``. Memory that is mapped but cannot be checked
counts as unreadable; memory the process allocated itself is never checked.
"""

from __future__ import annotations

import mmap
import os
import sys
from typing import Any

from rtextract._trust import pandas_parts, top_root, trusted_class

__all__ = ["unreadable_memory"]

_MAPS = "/proc/self/maps"


def unreadable_memory(obj: Any) -> str | None:
    """Why reading the values of ``obj`` could crash the process, or None when it cannot.

    ``obj`` may be a numpy array (a memmap or a view of one included), a pandas DataFrame,
    Series or Index, or a torch tensor; anything else gives None. The reason names the
    file, its size and the size the object needs. Never raises, runs no user code.
    """
    try:
        return _unreadable(obj)
    except Exception as exc:  # a check that fails on mapped memory is a failed check
        return f"memory-mapped data could not be checked ({type(exc).__name__})"


def _unreadable(obj: Any) -> str | None:
    tp = type(obj)
    np = sys.modules.get("numpy")
    if np is not None and issubclass(tp, np.ndarray):
        return _array(obj, np)
    if top_root(tp) == "pandas" and trusted_class(tp):
        for part in pandas_parts(obj, axes=True):
            why = _pandas_part(part, np)
            if why is not None:
                return why
        return None
    torch = sys.modules.get("torch")
    if torch is not None and issubclass(tp, torch.Tensor):
        return _tensor(obj, torch)
    return None


def _pandas_part(part: Any, np: Any) -> str | None:
    if np is None:
        return None
    if issubclass(type(part), np.ndarray):
        return _array(part, np)
    if not trusted_class(type(part)):
        return None  # a user extension array: never read (see user_content)
    for key in ("_ndarray", "_data", "_mask", "_left", "_right", "_sparse_values"):
        try:
            inner = getattr(part, key, None)  # pandas' own class: a slot or attribute
        except Exception:
            continue
        if type(inner) is np.ndarray:
            why = _array(inner, np)
            if why is not None:
                return why
    return None


# ----- numpy ----------------------------------------------------------------------------------
def _array(arr: Any, np: Any) -> str | None:
    end, memmap = _base_chain(arr, np)
    mapped = memmap is not None or issubclass(type(end), mmap.mmap)
    if end is None and memmap is None or type(end) in (bytes, bytearray):
        return None  # memory numpy (or Python) allocated itself
    torch = sys.modules.get("torch")
    if memmap is None and torch is not None and issubclass(type(end), torch.Tensor):
        return _tensor(end, torch)  # tensor.numpy(): the tensor's storage
    lo, hi = _bounds(np.ndarray.view(arr, np.ndarray))
    if hi <= lo:
        return None
    found = _mapping(lo, hi)
    if found is _NO_PROC:
        if memmap is not None:
            return _memmap_fallback(memmap, hi, np)
        return "memory-mapped data whose file cannot be checked here; values not read" \
            if mapped else None
    return _verdict(found)


def _base_chain(arr: Any, np: Any) -> tuple[Any, Any]:
    """(the object at the end of the ``base`` chain, the first memmap in it)."""
    memmap = None
    current = arr
    for _ in range(256):
        if memmap is None and issubclass(type(current), np.memmap):
            memmap = current
        base = np.ndarray.base.__get__(current)  # the C getter, whatever the subclass
        if base is None or not issubclass(type(base), np.ndarray):
            return base, memmap
        current = base
    return current, memmap


def _bounds(plain: Any) -> tuple[int, int]:
    """[low, high) addresses of the bytes an array spans (its strides may be negative)."""
    interface = plain.__array_interface__
    lo = hi = int(interface["data"][0])
    for n, stride in zip(plain.shape, plain.strides):
        if n == 0:
            return lo, lo
        if stride < 0:
            lo += (n - 1) * stride
        else:
            hi += (n - 1) * stride
    return lo, hi + plain.itemsize


def _memmap_fallback(memmap: Any, hi: int, np: Any) -> str | None:
    """Without /proc: the memmap's own record of its file, offset and mapping."""
    from rtextract._builder import dict_of

    state = dict_of(memmap)
    filename, offset, buffer = state.get("filename"), state.get("offset"), state.get("_mmap")
    if type(filename) is not str or type(offset) is not int or not issubclass(
            type(buffer), mmap.mmap):
        return "memory-mapped data whose file cannot be checked here; values not read"
    start = int(np.frombuffer(buffer, dtype=np.uint8).__array_interface__["data"][0])
    need = offset - offset % mmap.ALLOCATIONGRANULARITY + (hi - start)
    return _verdict((filename, need, None))


# ----- torch ------------------------------------------------------------------------------------
def _tensor(t: Any, torch: Any) -> str | None:
    from rtextract._views import plain_view

    view, _ = plain_view(t)
    if not isinstance(view, torch.Tensor) or view.device.type != "cpu" or \
            view.layout != torch.strided:
        return None
    storage = view.untyped_storage()
    if storage.resizable():
        return None  # torch allocated it and never shared it: not a file mapping
    lo = int(storage.data_ptr())
    hi = lo + int(storage.nbytes())
    if hi <= lo:
        return None
    # the mapping behind a live storage does not change: looked up once per storage (a
    # tensor that was ever given to numpy is not resizable either, and /proc/self/maps
    # costs milliseconds); the file's size is read every time
    key = int(storage._cdata)
    known = _STORAGES.get(key)
    if known is None or known[:2] != (lo, hi):
        found = _mapping(lo, hi)
        if found is _NO_PROC:
            return None
        if len(_STORAGES) > 4096:
            _STORAGES.clear()
        known = _STORAGES[key] = (lo, hi, found)
    return _verdict(known[2])


_STORAGES: dict[int, tuple[int, int, Any]] = {}


# ----- the mapping that holds an address range ------------------------------------------------
_NO_PROC: Any = object()


def _mapping(lo: int, hi: int) -> Any:
    """(file, bytes of it the range needs, the mapping's span) for a file mapping; None
    for memory not backed by a file; `_NO_PROC` when the mappings cannot be read."""
    try:
        with open(_MAPS, "rb") as handle:
            table = handle.read()
    except OSError:
        return _NO_PROC
    last = hi - 1
    for line in table.splitlines():
        span, _, rest = line.partition(b" ")
        start_text, _, end_text = span.partition(b"-")
        start, end = int(start_text, 16), int(end_text, 16)
        if not start <= last < end:
            continue
        fields = rest.split(maxsplit=4)
        if len(fields) < 4 or fields[3] == b"0":
            return None  # anonymous memory: the heap, numpy's or torch's allocations
        path = fields[4].decode(errors="replace") if len(fields) > 4 else "?"
        need = int(fields[1], 16) + (hi - start)
        return path, need, span.decode()
    return None


def _file_size(span: str, path: str) -> int | None:
    try:  # the mapped file itself, even when it was renamed, replaced or deleted
        return os.stat(f"/proc/self/map_files/{span}").st_size
    except OSError:
        return _path_size(path.removesuffix(" (deleted)"))


def _path_size(path: str) -> int | None:
    try:
        return os.stat(path).st_size
    except OSError:
        return None


def _verdict(found: Any) -> str | None:
    if found is None:
        return None
    path, need, where = found  # where: the mapping's span, or the memmap's own file
    size = _file_size(where, path) if where is not None else _path_size(path)
    if size is None:
        return f"memory-mapped file {path} cannot be checked; values not read"
    if size >= need:
        return None
    return (f"memory-mapped file {path} is {size:,} bytes but the data needs {need:,}: the "
            "file was truncated after mapping; values not read (reading them would crash "
            "the process with SIGBUS)")
