"""Copying the kernel's hot pages while it is idle: which pages the last cell wrote is read
from a stopped child that shares the rest, and they are copied after the next fork."""

from __future__ import annotations

import ctypes
import os
import resource
import signal
import time

import pytest

from crashpredict._dryrun import _prefault

pytestmark = pytest.mark.skipif(not _prefault._available(),
                                reason="needs Linux 5.14 (MADV_POPULATE_WRITE) and pagemap")

PAGE = os.sysconf("SC_PAGE_SIZE")


def _faults() -> int:
    return resource.getrusage(resource.RUSAGE_SELF).ru_minflt


def _fork_stopped() -> int:
    pid = os.fork()
    if pid == 0:  # the witness: shares everything, runs nothing
        os.kill(os.getpid(), signal.SIGSTOP)
        os._exit(0)
    deadline = time.monotonic() + 5
    while not _prefault._stopped(pid):
        assert time.monotonic() < deadline
        time.sleep(0.001)
    return pid


def _end(pid: int) -> None:
    os.kill(pid, signal.SIGKILL)
    os.waitpid(pid, 0)


def _write(buffer: bytearray) -> None:
    for i in range(0, len(buffer), PAGE):
        buffer[i] = (buffer[i] + 1) % 256


def test_the_pages_a_cell_wrote_are_copied_after_the_next_fork_and_never_changed() -> None:
    hot = bytearray(os.urandom(2 << 20))  # 512 pages the "cell" writes each time
    pages = len(hot) // PAGE
    witness = _fork_stopped()
    try:
        _write(hot)  # the cell: each page is copied (shared with the witness before)
        _prefault.witness(witness)
        runs = _prefault.learn()
    finally:
        _end(witness)
    assert runs, "nothing learned"
    view = (ctypes.c_char * len(hot)).from_buffer(hot)
    first = -(-ctypes.addressof(view) // PAGE) * PAGE  # the buffer's first whole page
    del view
    for address in range(first, first + (pages - 1) * PAGE, PAGE):
        assert any(a <= address < a + n for a, n in runs), hex(address)
    learned = sum(length for _, length in runs) // PAGE
    assert learned >= pages  # the buffer's pages, and whatever else the test process wrote
    assert learned <= _prefault.MOST_PAGES
    before = bytes(hot)
    nxt = _fork_stopped()  # the next standby
    try:
        copied = _prefault.populate(runs)
        assert copied >= pages
        assert bytes(hot) == before  # populating copies; it never writes
        faults = _faults()
        _write(hot)  # the next cell: its pages are the kernel's own already
        assert _faults() - faults < pages // 4, (_faults() - faults, pages)
    finally:
        _end(nxt)


def test_without_a_copy_ahead_the_next_cell_takes_the_faults() -> None:
    """The peer of the test above: the same writes after a fork, nothing populated."""
    hot = bytearray(os.urandom(2 << 20))
    pages = len(hot) // PAGE
    nxt = _fork_stopped()
    try:
        faults = _faults()
        _write(hot)
        assert _faults() - faults >= pages * 3 // 4
    finally:
        _end(nxt)


def test_nothing_is_learned_from_a_child_that_is_not_stopped(monkeypatch) -> None:
    monkeypatch.setattr(_prefault, "_last", [None, 0])
    assert _prefault.learn() is None  # no witness
    pid = os.fork()
    if pid == 0:
        time.sleep(30)
        os._exit(0)
    try:
        _prefault.witness(pid)  # running: its memory may be gone any moment
        assert _prefault.learn() is None
    finally:
        _end(pid)
    assert _prefault.populate(None) == 0 and _prefault.populate([]) == 0


def test_a_learned_set_serves_the_forks_after_cells_with_no_witness(monkeypatch) -> None:
    monkeypatch.setattr(_prefault, "_last", [[(0, PAGE)], 0])
    for _ in range(_prefault.REUSE_FORKS):
        assert _prefault.learn() == [(0, PAGE)]
    assert _prefault.learn() is None  # too old now


def test_a_range_that_is_gone_is_skipped() -> None:
    import mmap

    block = mmap.mmap(-1, 4 * PAGE, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS)
    view = ctypes.c_char.from_buffer(block)
    address = ctypes.addressof(view)
    del view
    block.close()  # unmapped: populating it fails quietly
    assert _prefault.populate([(address, 4 * PAGE)]) == 0


def test_one_witness_at_a_time_and_none_past_a_cell_that_starts_without_an_idle_fork() -> None:
    """Cells sent back to back leave no idle time to learn in: a stopped child holds the
    old copies of every page the kernel wrote since, so it must not outlive the next cell's
    start, nor pile up."""
    first, second = _fork_stopped(), _fork_stopped()
    try:
        _prefault.witness(first)
        _prefault.witness(second)  # the first is killed now
        assert _gone_or_zombie(first) and _prefault._stopped(second)
        _prefault.release()  # a cell starts: no witness survives it
        assert _gone_or_zombie(second) and _prefault._witness == []
    finally:
        for pid in (first, second):
            _end(pid)


def _gone_or_zombie(pid: int, within: float = 5.0) -> bool:
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        try:
            with open(f"/proc/{pid}/stat", "rb") as fh:
                if fh.read().rsplit(b")", 1)[1].split()[0] == b"Z":
                    return True
        except OSError:
            return True
        time.sleep(0.005)
    return False
