"""Copying the kernel's hot pages while it is idle: which pages the last cell wrote is read
from a stopped child that shares the rest, and they are copied after the next fork."""

from __future__ import annotations

import ctypes
import mmap
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


def _hot_pages(size: int = 2 << 20) -> mmap.mmap:
    """Pages the "cell" writes, in a private mapping of their own: a bytearray of this size
    may come from the heap, which earlier tests of this process grow past `LARGEST_MAP`
    (glibc raises its mmap threshold when a large block is freed), and the heap is then
    left out of what is learned. Small pages, as the tests count them: a mapping of 2 MiB
    may be given one transparent huge page."""
    pages = mmap.mmap(-1, size, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS)
    if hasattr(mmap, "MADV_NOHUGEPAGE"):
        pages.madvise(mmap.MADV_NOHUGEPAGE)
    pages[:] = os.urandom(size)
    return pages


def _write(buffer: mmap.mmap) -> None:
    for i in range(0, len(buffer), PAGE):
        buffer[i] = (buffer[i] + 1) % 256


def test_the_pages_a_cell_wrote_are_copied_after_the_next_fork_and_never_changed() -> None:
    hot = _hot_pages()  # 512 pages the "cell" writes each time
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
    hot = _hot_pages()
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


# -- copying ahead everything the kernel shares with the standby child ----------------------

def _mapping(size: int) -> tuple[object, int]:
    """An anonymous private mapping of ``size`` bytes and its address."""
    import mmap

    block = mmap.mmap(-1, size, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS)
    view = ctypes.c_char.from_buffer(block)
    address = ctypes.addressof(view)
    del view
    return block, address


def _present(address: int, size: int) -> int:
    with open("/proc/self/pagemap", "rb", buffering=0) as pagemap:
        pagemap.seek(address // PAGE * 8)
        data = pagemap.read(size // PAGE * 8)
    return sum(1 for entry in memoryview(data).cast("Q") if entry & _prefault._PRESENT)


def _touch(block, size: int, step: int = PAGE) -> None:
    for i in range(0, size, step):
        block[i] = (block[i] + 1) % 256


def test_every_page_shared_with_the_child_is_copied_ahead_and_none_changed() -> None:
    size = 16 << 20
    block, _ = _mapping(size)
    block[:] = os.urandom(size)
    before = block[:]
    child = _fork_stopped()
    try:
        copied = _prefault.copy_shared(_event())
        assert copied >= size  # that mapping, and whatever else the test process shares
        assert block[:] == before  # copying never writes
        faults = _faults()
        _touch(block, size)  # the next cell: every page is the kernel's own already
        assert _faults() - faults < size // PAGE // 4, (_faults() - faults, size // PAGE)
    finally:
        _end(child)
        block.close()


def test_pages_never_touched_are_not_made_and_pages_not_shared_are_left() -> None:
    """A mapping reserves far more than it uses (allocators, arenas): only the pages it has
    are copied; none appear where there were none. Pages the kernel has alone (written since
    the fork) are not copied again."""
    size = 64 << 20
    block, address = _mapping(size)
    _touch(block, 1 << 20)  # 256 pages of 16,384
    child = _fork_stopped()
    try:
        _touch(block, 1 << 20)  # written since the fork: the kernel's alone now
        assert _present(address, size) == 256
        steps = _prefault._steps(1 << 40)
        assert not any(address <= a < address + size for a, _ in steps)
        _prefault.copy_shared(_event())
        assert _present(address, size) == 256
    finally:
        _end(child)
        block.close()


def test_the_copies_stop_when_the_cell_starts_and_at_the_bound(monkeypatch) -> None:
    size = 32 << 20
    block, _ = _mapping(size)
    _touch(block, size)
    child = _fork_stopped()
    try:
        stopped = _event()
        stopped.set()
        assert _prefault.copy_shared(stopped) == 0  # the cell had started already
        assert _prefault.copy_shared(_event(), most_bytes=4 * PAGE + 7) == 4 * PAGE
        calls = []
        real = _prefault._madvise
        stop = _event()

        def madvise(address, length, advice):  # the cell starts after the second step
            calls.append(length)
            if len(calls) == 2:
                stop.set()
            return real(address, length, advice)

        monkeypatch.setattr(_prefault, "_madvise", madvise)
        assert _prefault.copy_shared(stop) == sum(calls) and len(calls) == 2
        assert max(calls) <= _prefault.STEP_BYTES
        assert _prefault._steps(1 << 40, stop) == []  # the scan, too, ends on the event
        monkeypatch.setattr(_prefault, "MOST_SCANNED", 0)  # address space past the bound
        assert _prefault._steps(1 << 40) == []
    finally:
        _end(child)
        block.close()


def test_the_copies_leave_a_quarter_of_the_memory_free(monkeypatch) -> None:
    gib = 1 << 30
    monkeypatch.setattr(_prefault, "_cgroup_left", lambda: None)
    monkeypatch.setattr(_prefault, "_meminfo",
                        lambda: {"MemTotal": 16 * gib, "MemAvailable": 6 * gib})
    assert _prefault.room() == 2 * gib
    monkeypatch.setattr(_prefault, "_meminfo",
                        lambda: {"MemTotal": 16 * gib, "MemAvailable": 3 * gib})
    assert _prefault.room() == 0
    monkeypatch.setattr(_prefault, "_meminfo",
                        lambda: {"MemTotal": 2 * gib, "MemAvailable": gib + gib // 2})
    assert _prefault.room() == gib // 2  # at least 1 GiB stays free
    monkeypatch.setattr(_prefault, "_meminfo", lambda: {})
    assert _prefault.room() == 0  # nothing to go by: no copies
    monkeypatch.setattr(_prefault, "_meminfo",
                        lambda: {"MemTotal": 16 * gib, "MemAvailable": 12 * gib})
    monkeypatch.setattr(_prefault, "_cgroup_left", lambda: 2 * gib)
    assert _prefault.room() == gib + gib // 2  # the cgroup's limit counts, a quarter kept


def test_a_cgroup_limit_is_read_from_cgroup_v2_and_v1(monkeypatch, tmp_path) -> None:
    import builtins

    files = {"/proc/self/cgroup": "0::/user.slice/k\n",
             "/sys/fs/cgroup/user.slice/k/memory.max": "1073741824\n",
             "/sys/fs/cgroup/user.slice/k/memory.current": "268435456\n"}
    real_open = builtins.open

    def fake_open(path, *args, **kwargs):
        if path in files:
            target = tmp_path / str(abs(hash(path)))
            target.write_text(files[path])
            return real_open(target, *args, **kwargs)
        if str(path).startswith(("/sys/fs/cgroup", "/proc/self/cgroup")):
            raise FileNotFoundError(path)
        return real_open(path, *args, **kwargs)

    monkeypatch.setattr(builtins, "open", fake_open)
    assert _prefault._cgroup_left() == 768 << 20
    files["/sys/fs/cgroup/user.slice/k/memory.max"] = "max\n"
    assert _prefault._cgroup_left() is None  # unlimited
    files.clear()
    files.update({"/proc/self/cgroup": "4:memory:/k\n0::/\n",
                  "/sys/fs/cgroup/memory/k/memory.limit_in_bytes": "2147483648\n",
                  "/sys/fs/cgroup/memory/k/memory.usage_in_bytes": "1073741824\n"})
    assert _prefault._cgroup_left() == 1 << 30


def _event():
    import threading

    return threading.Event()


# -- copies made by the standby child, while it waits for its cell ---------------------------

def _exclusive(address: int, size: int) -> int:
    """Pages of that range present and the kernel's alone (pagemap bit 56)."""
    with open("/proc/self/pagemap", "rb", buffering=0) as pagemap:
        pagemap.seek(address // PAGE * 8)
        data = pagemap.read(size // PAGE * 8)
    want = _prefault._PRESENT | _prefault._EXCLUSIVE
    return sum(1 for entry in memoryview(data).cast("Q") if entry & want == want)


def _filled(size: int) -> tuple[object, int]:
    block, address = _mapping(size)
    ctypes.memset(address, 7, size)
    return block, address


def _armed(standby, within: float = 20.0):
    end = time.monotonic() + within
    while not standby.armed():
        assert time.monotonic() < end, "the standby child never got ready"
        time.sleep(0.01)
    return standby


def _rss(pid: int) -> int:
    with open(f"/proc/{pid}/status", encoding="utf-8") as fh:
        line = next(x for x in fh if x.startswith("VmRSS:"))
    return int(line.split()[1]) * 1024


def _children_of(pid: int) -> list[int]:
    out = []
    for task in os.listdir(f"/proc/{pid}/task"):
        with open(f"/proc/{pid}/task/{task}/children", encoding="utf-8") as fh:
            out += [int(x) for x in fh.read().split()]
    return out


def test_the_copy_record_reads_back_and_nothing_else_does() -> None:
    record = _prefault.copy_record(5 << 20, 0.25, _prefault.COPY_CUT)
    assert len(record) == _prefault.RECORD_BYTES
    assert _prefault.read_copy_record(record) == (5 << 20, 0.25, _prefault.COPY_CUT)
    for bad in (record[:-1], b"X" + record[1:], record[:-1] + b"\x09", b""):
        assert _prefault.read_copy_record(bad) is None


def test_after_the_child_copied_them_the_reclaim_takes_the_kernels_faults_ahead() -> None:
    """A page the child copied is the kernel's alone again, but still write-protected: the
    kernel's first write to each takes a fault (one that copies nothing). `reclaim` takes
    them while the kernel is idle; the peer, with no reclaim, takes one per page."""
    size = 16 << 20
    pages = size // PAGE
    results = []
    for reclaim in (True, False):
        block, address = _filled(size)
        read, write = os.pipe()
        pid = os.fork()
        if pid == 0:  # the standby: copies what it shares, says so, waits
            os.close(read)
            _prefault.copy_shared(_event())
            os.write(write, b"x")
            os.kill(os.getpid(), signal.SIGSTOP)
            os._exit(0)
        os.close(write)
        try:
            assert os.read(read, 1) == b"x"
            assert _exclusive(address, size) == pages  # the child holds copies, we the pages
            if reclaim:
                assert _prefault.reclaim(_event()) >= size
            faults = _faults()
            _touch(block, size)
            results.append(_faults() - faults)
        finally:
            os.close(read)
            _end(pid)
            block.close()
    with_reclaim, without = results
    assert with_reclaim < pages // 4 <= without, results


def test_a_standby_copies_what_it_shares_and_the_kernel_keeps_its_pages(no_new_children) -> None:
    from crashpredict._dryrun._beside import prepare_standby

    size = 32 << 20
    block, address = _filled(size)
    before = block[:]
    standby = _armed(prepare_standby({}, copy_ahead=True))
    try:
        assert standby.copy_ahead() >= size and not standby.copy_cut
        assert block[:] == before
        assert _exclusive(address, size) == size // PAGE  # none shared with the child now
        faults = _faults()
        _touch(block, size)  # the next cell: no page copied, no fault taken
        assert _faults() - faults < size // PAGE // 4
        beside = standby.start("x = 1", head_start_s=10.0)  # the child still runs its cell
        assert beside.result.outcome == "completed", beside.result.reason
        assert beside.settle(10)
    finally:
        standby.discard(wait=True)
        block.close()


def test_the_jails_other_processes_hold_none_of_the_kernels_memory(no_new_children) -> None:
    """The two processes above the cell's in the jail only wait: they run a fresh interpreter
    and hold none of the kernel's pages (else each page the cell's process copied would still
    be shared, and the kernel's next write to it copied)."""
    from crashpredict._dryrun._beside import prepare_standby

    size = 128 << 20
    block, _ = _filled(size)
    standby = _armed(prepare_standby({}, copy_ahead=True))
    try:
        first = standby._child.pid
        (second,) = _children_of(first)
        (cell,) = _children_of(second)
        for mirror in (first, second):  # each replaces its image right after its fork
            deadline = time.monotonic() + 10
            while True:
                with open(f"/proc/{mirror}/cmdline", "rb") as fh:
                    if b"_waiter.py" in fh.read():
                        break
                assert time.monotonic() < deadline, f"{mirror} still holds the kernel's image"
                time.sleep(0.01)
            assert _rss(mirror) < size // 4
        assert _rss(cell) >= size
    finally:
        standby.discard(wait=True)
        block.close()


def test_a_cell_that_comes_during_the_copies_stops_them_and_runs(no_new_children) -> None:
    import threading

    from crashpredict._dryrun._beside import prepare_standby

    size = 512 << 20
    block, _ = _filled(size)
    standby = _armed(prepare_standby({"n": 3}, copy_ahead=True))
    try:
        copier = threading.Thread(target=standby.copy_ahead)
        copier.start()
        time.sleep(0.02)
        beside = standby.start("m = n + 1\nm.missing", head_start_s=10.0)
        copier.join(10)
        assert not copier.is_alive() and standby.copy_cut
        assert standby.copied < size
        assert beside.result.outcome == "crashed" and beside.result.exception == "AttributeError"
        assert beside.settle(10)
    finally:
        standby.discard(wait=True)
        block.close()


def test_where_the_child_cannot_copy_the_kernel_copies(monkeypatch, no_new_children) -> None:
    from crashpredict._dryrun._beside import prepare_standby

    monkeypatch.setattr(_prefault, "usable", lambda: False)  # no copy pipe for the child
    calls = []
    monkeypatch.setattr(_prefault, "copy_shared", lambda stop: calls.append(stop) or 4096)
    standby = prepare_standby({}, copy_ahead=True)
    try:
        assert standby.copy_ahead() == 4096 and len(calls) == 1
    finally:
        standby.discard(wait=True)


def test_where_the_waiter_cannot_run_the_mirrors_wait_as_they_were(monkeypatch,
                                                                   no_new_children) -> None:
    from crashpredict._dryrun import _child
    from crashpredict._dryrun._beside import prepare_standby

    monkeypatch.setattr(_child, "_WAITER", "/nonexistent/_waiter.py")  # inherited by the fork
    standby = _armed(prepare_standby({"d": {}}, copy_ahead=True))
    try:
        with open(f"/proc/{standby._child.pid}/cmdline", "rb") as fh:
            assert b"_waiter.py" not in fh.read()
        beside = standby.start("d['missing']", head_start_s=10.0)
        assert beside.result.outcome == "crashed" and beside.result.exception == "KeyError"
        assert beside.settle(10)
    finally:
        standby.discard(wait=True)
