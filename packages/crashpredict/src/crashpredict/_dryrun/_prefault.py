"""Copy the kernel's hot pages while it is idle, not during the next cell.

Each fork of the kernel (the standby child) write-protects all its memory: the first write
to each page afterwards copies it (a fault and 4 KiB, about 2.5 us here). Every cell
writes the same few thousand pages again (the interpreter's and ipykernel's objects, the
allocators' free lists, the message buffers): 1,500 copies, several milliseconds of every
short cell, each time a new child shares them.

So the pages the last cell wrote are copied as soon as the next child is forked, while
the kernel is idle: `learn` reads them from ``/proc/self/pagemap`` while the last cell's
child still shares the rest (a page the cell wrote is the kernel's alone again; one it did
not is still shared), and `populate` has Linux copy them after the next fork
(``MADV_POPULATE_WRITE``: the fault of a write, without writing). The data is never
touched. Mappings larger than `LARGEST_MAP` (arrays, tensors) are left out, and at most
`MOST_PAGES` are copied per fork; where any of it is missing (not Linux 5.14, no
pagemap), nothing is done.

Then the rest of what the kernel shares with the new child is copied, in steps, while the
kernel stays idle: a cell that writes an array of hundreds of MB in place, a matrix product
whose result lands in memory the allocator reuses, a training step that updates weights
would otherwise copy each page it writes first, beside the child (measured: a 480 MB array
updated in place took 13x its time, a numpy matrix product 1.45x; with the copies made
ahead, 0.95x and 0.99x). The standby child makes them (`copy_for_kernel`, while it waits
for its cell, in its own address space, on another CPU): a page shared by two processes is
copied for whichever writes it first, and the other keeps the original, its own again, so
the kernel keeps its pages (huge pages stay huge) and `reclaim` then takes, in the idle
kernel, the faults its first writes would take (they copy nothing). Where the child cannot,
the kernel copies them itself (`copy_shared`, from a thread). The copies take memory (the
kernel's pages held twice), so they stop where the machine would be left with less than
`KEEP_FREE_SHARE` of its memory available (and `KEEP_FREE_BYTES`), and as soon as the next
cell starts; what is left is copied as the cell writes it.
"""

from __future__ import annotations

import ctypes
import mmap
import os
import select
import sys
import threading
import time
from typing import Any

from ._kill import kill_now

__all__ = ["copy_for_kernel", "copy_record", "copy_shared", "forget", "learn", "populate",
           "read_copy_record", "reclaim", "release", "room", "usable", "witness"]

#: Mappings larger than this are not read (arrays and tensors: a cell that rewrites one
#: pays its copies, and the copy watch steps the dry run aside).
LARGEST_MAP = 64 << 20
#: At most this many pages are copied ahead per fork (32 MiB).
MOST_PAGES = 8192
#: A learned set holding more than this share of the pages read is no set of hot pages
#: (nothing was shared any more: the child had ended): it is dropped.
MOST_SHARE = 0.5

#: The copies made ahead leave at least this share of the machine's memory available...
KEEP_FREE_SHARE = 0.25
#: ...and at least this much.
KEEP_FREE_BYTES = 1 << 30
#: They are made in steps of this size; a cell that starts stops them between two steps.
STEP_BYTES = 4 << 20
#: pagemap is read this many pages at a time (a mapping may reserve far more than it uses).
_SCAN_PAGES = 1 << 16

_MADV_POPULATE_WRITE = 23
_PAGE = mmap.PAGESIZE
_PRESENT, _EXCLUSIVE, _FILE = 1 << 63, 1 << 56, 1 << 61

_lock = threading.Lock()
_witness: list[int] = []  # the stopped child of the last cell, until it is killed
_madvise: Any = None
_usable: bool | None = None


def _available() -> bool:
    """Whether ``MADV_POPULATE_WRITE`` and ``/proc/self/pagemap`` work here (once)."""
    global _usable, _madvise
    if _usable is None:
        _usable = False
        if sys.platform.startswith("linux") and os.access("/proc/self/pagemap", os.R_OK):
            try:
                libc = ctypes.CDLL(None, use_errno=True)
                madvise = libc.madvise
                madvise.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int]
                madvise.restype = ctypes.c_int
                probe = mmap.mmap(-1, _PAGE, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS)
                view = ctypes.c_char.from_buffer(probe)
                _usable = madvise(ctypes.addressof(view), _PAGE, _MADV_POPULATE_WRITE) == 0
                del view
                probe.close()
                _madvise = madvise if _usable else None
            except (OSError, AttributeError, ValueError, TypeError, BufferError):
                _usable = False
    return _usable


def usable() -> bool:
    """Whether pages can be copied ahead here (Linux 5.14 or later, a readable pagemap)."""
    return _available()


def witness(pid: int) -> None:
    """``pid`` (stopped, not yet killed) shares the memory of the kernel from before the
    cell that just ended: `learn` can read which pages that cell wrote. One at a time: a
    witness before it is killed now (it holds the old copies of what the kernel wrote)."""
    with _lock:  # killed under the lock: `forget` (before reaping) waits for it
        for other in _witness:
            if other != pid:
                kill_now(other)
        _witness[:] = [pid]


def forget(pid: int) -> None:
    """``pid`` is about to be reaped: never signal it again (its number may be reused)."""
    with _lock:
        if pid in _witness:
            _witness.remove(pid)


def release() -> None:
    """A cell starts with no idle fork since the last (cells sent back to back): its
    witness is killed now rather than hold memory; its reaping is its owner's."""
    with _lock:
        for pid in _witness:
            kill_now(pid)
        _witness.clear()


def _stopped(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat", "rb") as fh:
            return fh.read().rsplit(b")", 1)[1].split()[0] in (b"T", b"t")
    except (OSError, IndexError):
        return False


def _maps(largest: int | None = LARGEST_MAP) -> list[tuple[int, int]]:
    """The kernel's private, writable, anonymous mappings (the heap, the stack and named
    anonymous ones included) of at most ``largest`` bytes (None: any size)."""
    out = []
    with open("/proc/self/maps", "rb") as fh:
        for line in fh:
            parts = line.split()
            if len(parts) < 5 or parts[1][:2] != b"rw" or parts[1][3:4] != b"p":
                continue
            if len(parts) > 5 and not (parts[5] in (b"[heap]", b"[stack]")
                                       or parts[5].startswith(b"[anon:")):
                continue
            low, _, high = parts[0].partition(b"-")
            start, end = int(low, 16), int(high, 16)
            if largest is None or end - start <= largest:
                out.append((start, end))
    return out


def _runs(start: int, data: bytes, exclusive: bool = True) -> list[tuple[int, int]]:
    """(address, length) runs of the pages present and the kernel's alone (``exclusive``),
    or present and shared with a child (anonymous ones: no file page)."""
    mask = _PRESENT | _EXCLUSIVE | _FILE
    want = _PRESENT | _EXCLUSIVE if exclusive else _PRESENT
    numpy = sys.modules.get("numpy")  # never imported here: only where the kernel has it
    if numpy is not None:
        entries = numpy.frombuffer(data, dtype=numpy.uint64)
        pages = numpy.flatnonzero((entries & numpy.uint64(mask)) == numpy.uint64(want))
        if not pages.size:
            return []
        breaks = numpy.flatnonzero(numpy.diff(pages) != 1)
        firsts = [int(pages[0]), *(int(i) for i in pages[breaks + 1])]
        lasts = [*(int(i) for i in pages[breaks]), int(pages[-1])]
    else:
        firsts, lasts = [], []
        for i, entry in enumerate(memoryview(data).cast("Q")):
            if entry & mask == want:
                if lasts and lasts[-1] == i - 1:
                    lasts[-1] = i
                else:
                    firsts.append(i)
                    lasts.append(i)
    return [(start + a * _PAGE, (b - a + 1) * _PAGE) for a, b in zip(firsts, lasts)]


#: The last pages learned, reused for forks after cells with no witness (a cell re-run
#: that took under a second gets no dry run beside it: its child ends as it starts), for
#: at most `REUSE_FORKS` forks: the hot pages are mostly the interpreter's and ipykernel's,
#: the same from cell to cell.
REUSE_FORKS = 32
_last: list[Any] = [None, 0]


def learn() -> list[tuple[int, int]] | None:
    """The pages the last cell wrote, while its stopped child still shares the others (or
    those learned before, see `REUSE_FORKS`); None when there is nothing to go by. Call
    before that child is reaped, with the kernel idle. The witness is killed once read (its
    owner still reaps it): it holds the old copies of every page the cell wrote, and its
    exit frees them on another CPU while the next child is forked."""
    with _lock:
        pids = list(_witness)
    learned = _learn(pids[0]) if pids and _available() else None
    with _lock:
        for pid in pids:  # still listed: not reaped yet (`forget` comes first), so ours
            if pid in _witness:
                kill_now(pid)
                _witness.remove(pid)
        if learned is not None:
            _last[:] = [learned, 0]
        elif _last[0] is not None and _last[1] < REUSE_FORKS:
            _last[1] += 1
            learned = _last[0]
    return learned


def _learn(pid: int) -> list[tuple[int, int]] | None:
    if not _stopped(pid):
        return None
    runs: list[tuple[int, int]] = []
    read = 0
    try:
        with open("/proc/self/pagemap", "rb", buffering=0) as pagemap:
            for start, end in _maps():
                pagemap.seek(start // _PAGE * 8)
                data = pagemap.read((end - start) // _PAGE * 8)
                read += len(data) // 8
                runs += _runs(start, data)
    except (OSError, ValueError, OverflowError):
        return None
    if not _stopped(pid):  # it ended meanwhile: what was read says nothing
        return None
    pages = sum(length for _, length in runs) // _PAGE
    if not pages or pages > MOST_SHARE * max(read, 1):
        return None
    kept, total = [], 0
    for address, length in sorted(runs, key=lambda run: run[1]):  # scattered pages first
        if total + length // _PAGE > MOST_PAGES:
            break
        kept.append((address, length))
        total += length // _PAGE
    return kept


def populate(runs: list[tuple[int, int]] | None) -> int:
    """Copy those pages now (a child was just forked); returns how many were copied. A
    range that is gone or changed since is skipped (the call fails, nothing happens)."""
    if not runs or not _available():
        return 0
    done = 0
    for address, length in runs:
        if _madvise(address, length, _MADV_POPULATE_WRITE) == 0:
            done += length // _PAGE
    return done


def _meminfo() -> dict[str, int]:
    out = {}
    try:
        with open("/proc/meminfo", "rb") as fh:
            for line in fh:
                name, _, rest = line.partition(b":")
                if name in (b"MemTotal", b"MemAvailable"):
                    out[name.decode()] = int(rest.split()[0]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    return out


def _cgroup_left() -> int | None:
    """What the kernel's memory cgroup still allows (v2, else v1), None when unlimited or
    unreadable."""
    try:
        with open("/proc/self/cgroup", encoding="utf-8") as fh:
            lines = fh.read().splitlines()
    except OSError:
        return None
    for line in lines:
        number, _, rest = line.partition(":")
        controllers, _, path = rest.partition(":")
        if number == "0" and controllers == "":
            files = (f"/sys/fs/cgroup{path}/memory.max", f"/sys/fs/cgroup{path}/memory.current")
        elif "memory" in controllers.split(","):
            base = f"/sys/fs/cgroup/memory{path}"
            files = (f"{base}/memory.limit_in_bytes", f"{base}/memory.usage_in_bytes")
        else:
            continue
        try:
            with open(files[0], encoding="utf-8") as fh:
                limit = fh.read().strip()
            with open(files[1], encoding="utf-8") as fh:
                used = int(fh.read().strip())
        except (OSError, ValueError):
            continue
        if limit == "max" or not limit.isdigit() or int(limit) >= 1 << 60:
            continue
        return max(0, int(limit) - used)
    return None


def room() -> int:
    """Bytes the copies made ahead may take now: the memory available (the machine's, and
    the kernel's cgroup's), less what must stay free (`KEEP_FREE_SHARE`, `KEEP_FREE_BYTES`);
    0 when it cannot be read."""
    info = _meminfo()
    if "MemAvailable" not in info or "MemTotal" not in info:
        return 0
    keep = max(KEEP_FREE_BYTES, int(info["MemTotal"] * KEEP_FREE_SHARE))
    left = info["MemAvailable"] - keep
    cgroup = _cgroup_left()
    if cgroup is not None:
        left = min(left, cgroup - max(KEEP_FREE_BYTES // 4, cgroup // 4))
    return max(0, left)


#: At most this many pages of address space are read from pagemap per copy (a runtime may
#: reserve far more address space than it uses: 256 GiB of it take seconds to read).
MOST_SCANNED = 1 << 26


def _steps(most: int, stop: Any = None, exclusive: bool = False) -> list[tuple[int, int]]:
    """The shared pages (``exclusive``: the kernel's alone), in (address, length) steps of
    at most `STEP_BYTES`, ``most`` bytes in all at most; the smaller mappings first (the
    allocators' heaps and caches, written by most cells; a large array is written by a cell
    that updates it in place). Ends early when ``stop.is_set()`` or `MOST_SCANNED` pages
    have been read."""
    steps: list[tuple[int, int]] = []
    total = scanned = 0
    with open("/proc/self/pagemap", "rb", buffering=0) as pagemap:
        for start, end in sorted(_maps(None), key=lambda m: (m[1] - m[0], m[0])):
            for low in range(start, end, _SCAN_PAGES * _PAGE):
                if scanned >= MOST_SCANNED or (stop is not None and stop.is_set()):
                    return steps
                scanned += _SCAN_PAGES
                high = min(end, low + _SCAN_PAGES * _PAGE)
                pagemap.seek(low // _PAGE * 8)
                data = pagemap.read((high - low) // _PAGE * 8)
                for address, length in _runs(low, data, exclusive=exclusive):
                    for at in range(address, address + length, STEP_BYTES):
                        size = min(STEP_BYTES, address + length - at, most - total)
                        size -= size % _PAGE
                        if size <= 0:
                            return steps
                        steps.append((at, size))
                        total += size
    return steps


def copy_shared(stop: Any, most_bytes: int | None = None) -> int:
    """Copy now every page of this process's anonymous memory that it shares with another
    (the kernel, with a standby just forked; the standby, with the kernel), in steps of
    `STEP_BYTES`, until ``stop.is_set()`` (the next cell starts), ``most_bytes`` (by default
    `room()`) are copied, or none is left; returns the bytes copied. The data is never
    touched; a range that changed meanwhile is skipped. In the kernel, call it idle, from a
    thread (each step releases the GIL). One thread: a second one copying beside it made
    the copies take 2-3 times as long here (both fault in the same address space)."""
    if not _available() or stop.is_set():
        return 0
    return _populate_steps(stop, room() if most_bytes is None else most_bytes, exclusive=False)


def _populate_steps(stop: Any, most: int, exclusive: bool) -> int:
    """``MADV_POPULATE_WRITE`` over `_steps` (``most`` bytes at most), until ``stop``."""
    try:
        steps = _steps(most, stop, exclusive=exclusive)
    except (OSError, ValueError, OverflowError):
        return 0
    done = 0
    for address, length in steps:
        if stop.is_set():
            break
        if _madvise(address, length, _MADV_POPULATE_WRITE) == 0:
            done += length
    return done


# ---- copies made by the standby child --------------------------------------------------------
#
# A page the kernel shares with one child is copied whichever of the two writes it first,
# and the other keeps the original, its own again. So the standby child copies (while it
# waits for its cell, on another CPU, in its own address space): the kernel keeps its pages
# (a huge page stays huge), and the kernel's next write to each is a fault that copies
# nothing, one per 2 MiB page of an array. Measured on a 480 MB array updated in place,
# with a child beside it: 1.71 s with no copies made, 72 ms after the kernel copied them
# (0.87 s), 88 ms after the child copied them (0.62 s). The jail's other processes hold
# none of the kernel's memory (`_child._mirror`), or the pages would stay shared.

#: A standby's record of its copies: b"C", bytes copied, microseconds, `COPY_DONE`...
RECORD_BYTES = 18
#: it copied every shared page (or as much as the memory allows)...
COPY_DONE = 0
#: the cell came first...
COPY_CUT = 1
#: it cannot copy here (no ``MADV_POPULATE_WRITE`` or pagemap): the kernel copies instead.
COPY_NONE = 2


def copy_record(copied: int, seconds: float, state: int) -> bytes:
    return (b"C" + max(0, copied).to_bytes(8, "big")
            + max(0, int(seconds * 1e6)).to_bytes(8, "big") + bytes([state]))


def read_copy_record(data: bytes) -> tuple[int, float, int] | None:
    """(bytes copied, seconds, state) from a standby's record; None for anything else."""
    if len(data) != RECORD_BYTES or data[:1] != b"C" or data[17] not in (COPY_DONE, COPY_CUT,
                                                                         COPY_NONE):
        return None
    return (int.from_bytes(data[1:9], "big"), int.from_bytes(data[9:17], "big") / 1e6,
            data[17])


class _Readable:
    """``is_set()``: whether ``fd`` has something to read (the cell has come) or is closed."""

    def __init__(self, fd: int) -> None:
        self.fd = fd

    def is_set(self) -> bool:
        try:
            return bool(select.select([self.fd], [], [], 0)[0])
        except (OSError, ValueError):
            return True


def copy_for_kernel(cell_fd: int) -> bytes:
    """In a standby child, waiting for its cell on ``cell_fd``: copy the pages it shares
    with the kernel (`copy_shared`) until the cell comes; returns the record to send."""
    if not _available():
        return copy_record(0, 0.0, COPY_NONE)
    cell = _Readable(cell_fd)
    began = time.perf_counter()
    copied = copy_shared(cell)
    return copy_record(copied, time.perf_counter() - began,
                       COPY_CUT if cell.is_set() else COPY_DONE)


def reclaim(stop: Any) -> int:
    """In the kernel, idle, once its standby child has copied what they shared: take now
    the faults its first writes would take (each page is its own again but still
    write-protected; the fault copies nothing), so a cell that writes hundreds of MB in
    place or a thousand scattered objects takes none. A page still shared (the copies were
    bounded) is left alone. Returns the bytes passed over; stops on ``stop.is_set()``."""
    if not _available() or stop.is_set():
        return 0
    return _populate_steps(stop, 1 << 62, exclusive=True)
