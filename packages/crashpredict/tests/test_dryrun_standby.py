"""The standby child: forked when the kernel goes idle, jailed and ready, given the next
cell; its head start, its freshness check, and the copy-on-write watch."""

from __future__ import annotations

import signal
import time

import numpy as np
import pytest

from crashpredict._dryrun import _beside, _fork
from crashpredict._dryrun._beside import Standby, dry_run_beside, prepare_standby
from crashpredict._dryrun._fork import DryRun, DryRunError


def _armed(standby: Standby, within: float = 20.0) -> Standby:
    end = time.monotonic() + within
    while not standby.armed():
        assert time.monotonic() < end, "the standby child never got ready"
        time.sleep(0.01)
    return standby


def test_a_ready_child_answers_within_its_head_start(no_new_children) -> None:
    ns = {"d": {"a": 1}}
    standby = _armed(prepare_standby(ns))
    assert standby.fresh(ns)
    beside = standby.start("x = d['b']", head_start_s=10.0)
    assert beside.head_start and not beside.running
    assert beside.result.outcome == "crashed" and beside.result.exception == "KeyError"
    assert beside.result.line == 1
    assert beside.settle(10)
    assert "x" not in ns  # the child's copy, never the caller's


def test_meanwhile_runs_once_the_child_has_the_cell(no_new_children) -> None:
    ns: dict = {}
    standby = _armed(prepare_standby(ns))
    seen = []
    beside = standby.start("import time\ntime.sleep(0.3)\nv = 1", head_start_s=0.01,
                           meanwhile=lambda: seen.append(time.perf_counter()))
    assert seen and not beside.head_start  # not answered in 10 ms: it runs on, beside
    assert beside.wait(10).outcome == "completed"
    assert beside.settle(10)


def test_an_answer_after_the_head_start_reaches_on_result(no_new_children) -> None:
    ns = {"cfg": {}}
    got: list[DryRun] = []
    standby = _armed(prepare_standby(ns))
    beside = standby.start("import time\ntime.sleep(0.2)\ncfg['lr']", head_start_s=0.01,
                           on_result=got.append)
    beside.wait(10)
    assert beside.settle(10)
    (result,) = got
    assert result.exception == "KeyError" and result.line == 3


def test_a_rebinding_since_the_fork_makes_the_child_stale(no_new_children) -> None:
    ns = {"value": 1}
    standby = prepare_standby(ns)
    assert standby.fresh(ns)
    ns["value"] = 2  # a widget's callback, a silent execution
    assert not standby.fresh(ns)
    ns["value"] = 1  # the same object again: fresh
    assert standby.fresh(ns)
    ns["new"] = 0
    assert not standby.fresh(ns)
    standby.discard(wait=True)
    assert standby.settle(0)


def test_a_child_runs_one_cell_and_a_discarded_one_none(no_new_children) -> None:
    ns: dict = {}
    standby = _armed(prepare_standby(ns))
    standby.start("pass", head_start_s=10.0).settle(10)
    with pytest.raises(DryRunError, match="one cell"):
        standby.start("pass")
    other = prepare_standby(ns)
    other.discard(wait=True)  # end of file on its cell pipe: nothing runs
    with pytest.raises(DryRunError):
        other.start("pass")


def test_a_cell_that_does_not_compile_is_left_to_the_real_run(no_new_children) -> None:
    beside = dry_run_beside("def f(:\n    pass", {})
    result = beside.wait(20)
    beside.settle(10)
    assert result.outcome == "inconclusive" and "does not compile" in result.reason


def test_fork_cost_is_the_median_of_the_last_three_forks(no_new_children, monkeypatch) -> None:
    """What a fork of this process takes (the extension's Run All path asks it): the fork
    alone, measured in the parent, not the fork hooks' one-time search."""
    monkeypatch.setattr(_fork, "_FORKS_TOOK", [])
    assert _fork.fork_cost() is None
    for _ in range(4):
        prepare_standby({}).discard(wait=True)
    assert len(_fork._FORKS_TOOK) == 3
    assert 0 < _fork.fork_cost() < 5.0
    monkeypatch.setattr(_fork, "_FORKS_TOOK", [0.003, 0.5, 0.004])
    assert _fork.fork_cost() == 0.004  # one slow fork (a busy machine) does not decide


def test_a_cell_too_large_for_the_pipe_is_not_handed_over(no_new_children) -> None:
    standby = prepare_standby({})
    beside = standby.start("x = 1\n" * 300_000)  # 1.8 MB
    assert beside.result.outcome == "inconclusive" and "too large" in beside.result.reason
    standby.settle(10)


def test_bad_arguments_raise_a_clear_error() -> None:
    with pytest.raises(DryRunError, match="budget"):
        prepare_standby({}, budget_s=0)
    with pytest.raises(DryRunError, match="dict"):
        prepare_standby([])


def test_a_cell_rewriting_shared_memory_makes_the_dry_run_step_aside(no_new_children) -> None:
    big = np.ones(50_000_000)  # 400 MB: each page the cell writes is copied while the child lives
    ns = {"big": big, "np": np}
    standby = _armed(prepare_standby(ns))
    beside = standby.start("big *= 1.000001\nimport time\ntime.sleep(30)")
    big *= 1.000001  # the real cell
    result = beside.wait(20)
    assert beside.settle(10)
    assert result.outcome == "inconclusive" and "stepped aside" in result.reason, result
    assert "MB copied" in result.reason


def test_the_copy_watch_tells_new_memory_from_copies() -> None:
    watch = _beside._CopyWatch(shared_pages=10**9)
    fresh = np.ones(30_000_000)  # 240 MB of new memory: faults, but no copies
    fresh += 1
    assert not watch() and watch.copied * _beside._COPY_S < 0.05
    del fresh


class _Recorded(_beside._Pacer):
    """A pacer whose signals are recorded, not sent."""

    def __init__(self, cores: int) -> None:
        super().__init__(pid=-1, copies=None, began=0.0, cores=cores)
        self.sent: list[str] = []

    def _signal(self, sig: int) -> None:
        self.sent.append(signal.Signals(sig).name)


def _pace(pacer: _beside._Pacer, rates: list[float], tick: float = 0.02,
          waits: list[float] | None = None) -> list[bool]:
    """Feed the pacer ticks at which the kernel used ``rate`` CPUs (and its main thread
    waited ``waits`` of the tick for one); whether the child ran."""
    now, cpu, wait, ran = 0.0, 0.0, 0.0, []
    pacer._cpu, pacer._at, pacer._wait = cpu, now, wait
    for i, rate in enumerate(rates):
        now += tick
        cpu += rate * tick
        wait += (waits[i] if waits else 0.0) * tick
        run = pacer.decide(now, cpu, wait)
        pacer._run(run)
        ran.append(run)
    return ran


def test_beside_a_cell_that_leaves_a_cpu_idle_the_child_runs() -> None:
    pacer = _Recorded(cores=2)
    pacer._run(False)  # held from the end of the head start...
    assert _pace(pacer, [1.0] * 10) == [True] * 10  # ...until a tick saw a CPU left idle
    assert pacer.sent == ["SIGSTOP", "SIGCONT"]


def test_beside_a_cell_on_every_cpu_the_child_waits_then_gets_a_share() -> None:
    from crashpredict._dryrun import _fork

    pacer = _Recorded(cores=2)
    pacer._run(False)
    hold_ticks = round(_fork.BUSY_HOLD_S / 0.02)
    ran = _pace(pacer, [1.95] * (hold_ticks + 12))
    assert not any(ran[:hold_ticks - 1])  # a fine cell of up to a second: no CPU taken
    later = ran[hold_ticks:]
    assert sum(later) == len(later) // _fork.BUSY_PERIOD  # then one tick in BUSY_PERIOD
    # a cell that goes back to one CPU lets the child run at once
    assert _pace(pacer, [1.0, 1.0])[-1] is True
    # one CPU: any busy cell holds the child first
    single = _Recorded(cores=1)
    assert _pace(single, [0.9] * 5) == [False] * 5


def test_a_child_that_makes_the_cell_wait_for_a_cpu_backs_off() -> None:
    pacer = _Recorded(cores=2)  # a machine busy with other work: no idle CPU for the child
    ran = _pace(pacer, [1.0] * 7, waits=[0.0, 0.3, 0.0, 0.0, 0.3, 0.0, 0.0])
    # ran; the cell waited while it ran: two ticks off; ran again, waited: off again
    assert ran == [True, False, False, True, False, False, True]
    # a wait while the child was stopped is not its doing
    pacer = _Recorded(cores=2)
    pacer._run(False)
    assert _pace(pacer, [1.0], waits=[0.5]) == [True]


def test_the_pacer_reads_how_long_a_thread_waited_for_a_cpu() -> None:
    import threading

    waited = _beside._waited(threading.main_thread().native_id)
    assert isinstance(waited, float) and waited >= 0.0
    assert _beside._waited(-1) == 0.0


def _faults_alone(monkeypatch) -> None:
    """The watch without its readings of the pages shared (faults faked by hand)."""
    monkeypatch.setattr(_beside, "_shared_pages", lambda: None)


class _Shared:
    """Readings of the pages shared, set by hand."""

    def __init__(self, pages: int) -> None:
        self.pages = pages
        self.read = 0

    def __call__(self) -> int:
        self.read += 1
        return self.pages


def test_faults_of_memory_made_and_freed_within_a_tick_are_no_copies(monkeypatch) -> None:
    """A cell that makes and frees large temporaries takes first-touch faults that no
    growth of its memory shows: the pages it still shares with the child, read once the
    faults reach half the floor and again before the watch trips, bound its copies."""
    shared = _Shared(100_000)
    monkeypatch.setattr(_beside, "_shared_pages", shared)
    monkeypatch.setattr(_beside, "_RECHECK_S", 0.0)  # a reading at every tick that asks
    monkeypatch.setattr(_beside, "_READ_SHARE", 0)
    watch = _beside._CopyWatch(shared_pages=10**9, floor_s=_beside.COW_FLOOR_LONG_S)
    step = int(0.03 / _beside._COPY_S)  # faults worth 30 ms of copies per tick
    for _ in range(10):
        watch.faults -= step
        assert not watch()  # 300 ms of faults, none of them a copy
    assert shared.read >= 2 and watch.copied < 0.1 / _beside._COPY_S
    # the kernel now writes pages it shares: each fault a copy, each ending a sharing
    for _ in range(10):
        watch.faults -= step
        shared.pages -= step
        if watch():
            break
    assert watch.tripped and watch.copied * _beside._COPY_S > _beside.COW_FLOOR_LONG_S


def test_memory_made_and_freed_beside_a_real_child_is_no_copy(no_new_children,
                                                              monkeypatch) -> None:
    """The same with real memory: a process that shares 160 MB with a child it forked
    maps, writes and unmaps 16 MB at a time between two readings of the watch (faults,
    and no growth of its memory to tell them apart), then writes the memory it shares."""
    import mmap
    import os

    if _beside._shared_pages() is None:
        pytest.skip("no /proc/self/smaps_rollup here")
    monkeypatch.setattr(_beside, "_RECHECK_S", 0.0)
    monkeypatch.setattr(_beside, "_READ_SHARE", 0)
    shared = np.ones(20_000_000)
    pid = os.fork()
    if pid == 0:  # the child: holds the pages, touches nothing
        time.sleep(60)
        os._exit(0)
    try:
        watch = _beside._CopyWatch(shared_pages=_beside._anon_pages(),
                                   floor_s=_beside.COW_FLOOR_LONG_S)
        size = 16 << 20
        for _ in range(30):  # 120,000 faults: 300 ms, were they copies
            made = mmap.mmap(-1, size)
            made.write(b"x" * size)
            made.close()
            assert not watch()
        assert watch.readings >= 2 and watch.copied * _beside._COPY_S < 0.1
        shared *= 1.5  # 40,000 pages written, each a copy
        assert watch() and watch.copied >= 35_000
    finally:
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)


def test_between_readings_the_faults_count_at_their_last_share(monkeypatch) -> None:
    shared = _Shared(100_000)
    monkeypatch.setattr(_beside, "_shared_pages", shared)
    monkeypatch.setattr(_beside, "_RECHECK_S", 3600.0)  # one reading of each kind only
    watch = _beside._CopyWatch(shared_pages=10**9, floor_s=_beside.COW_FLOOR_LONG_S)
    step = int(0.06 / _beside._COPY_S)
    watch.faults -= step
    assert not watch() and shared.read == 1  # past half the floor: the first reading
    watch._next_read = 0.0
    watch.faults -= step
    assert not watch() and shared.read == 2  # past the floor: none were copies
    low = watch.copied
    assert watch._ratio == pytest.approx(0.5, abs=0.01)  # those before the first reading
    watch.faults -= step  # no reading allowed: counted at the last share...
    assert not watch()  # (give or take the faults this process takes meanwhile)
    assert watch.copied == pytest.approx(low + step * watch._ratio, abs=1000)
    watch.faults -= 2 * step  # ...past the floor, the next reading is waited for...
    assert not watch() and watch.copied * _beside._COPY_S == pytest.approx(
        _beside.COW_FLOOR_LONG_S, rel=0.01)
    watch.faults -= 12 * step  # ...and past twice the floor, the watch trips unread
    assert watch() and shared.read == 2


def test_where_the_pages_shared_cannot_be_read_the_faults_count(monkeypatch) -> None:
    _faults_alone(monkeypatch)
    watch = _beside._CopyWatch(shared_pages=10**9, floor_s=_beside.COW_FLOOR_LONG_S)
    watch.faults -= int(0.06 / _beside._COPY_S)
    assert not watch() and watch.readings == 1  # tried once past half the floor...
    watch.faults -= int(0.09 / _beside._COPY_S)
    assert watch() and watch.readings == 1  # ...then the faults alone


def test_faults_past_the_floor_within_a_tick_step_aside_unread(monkeypatch) -> None:
    """A cell writing what it shares at full speed (an array updated in place): a reading
    would only make it wait a tick more."""
    shared = _Shared(100_000)
    monkeypatch.setattr(_beside, "_shared_pages", shared)
    watch = _beside._CopyWatch(shared_pages=10**9, floor_s=_beside.COW_FLOOR_LONG_S)
    watch.faults -= int(0.15 / _beside._COPY_S)
    assert watch() and shared.read == 0


def test_the_pages_shared_are_read_from_this_process() -> None:
    pages = _beside._shared_pages()
    assert pages is None or pages >= 0


def test_a_cell_likely_long_may_copy_more_before_the_dry_run_steps_aside(monkeypatch) -> None:
    _faults_alone(monkeypatch)
    cost = 0.05 / _beside._COPY_S  # pages whose copies cost 50 ms
    short = _beside._CopyWatch(shared_pages=10**9)
    long = _beside._CopyWatch(shared_pages=10**9, floor_s=_beside.COW_FLOOR_LONG_S)
    for watch in (short, long):
        watch.faults -= int(cost)  # as if the kernel had taken that many copy faults
    assert short() and not long()


def test_once_the_cell_has_raised_its_copies_may_reach_the_larger_floor(monkeypatch) -> None:
    """The kernel showing an error its cell raised (``raised()``) writes memory the child
    shares (IPython's first traceback): those copies delay only the error's showing, so the
    watch lets them reach `COW_FLOOR_LONG_S`; ``raised`` is asked only past the floor, and
    one that fails counts as no."""
    _faults_alone(monkeypatch)
    cost = 0.05 / _beside._COPY_S  # pages whose copies cost 50 ms
    asked: list[bool] = []

    def raised() -> bool:
        asked.append(True)
        return True

    def broken() -> bool:
        raise RuntimeError("a hostile shell")

    watches = {answer: _beside._CopyWatch(shared_pages=10**9, raised=answer)
               for answer in (raised, lambda: False, broken)}
    assert not watches[raised]() and not asked  # under the floor: not asked
    for watch in watches.values():
        watch.faults -= int(cost)  # as if the kernel had taken that many copy faults
    assert not watches[raised]() and asked
    assert [watch() for answer, watch in watches.items() if answer is not raised] == [True, True]
    watches[raised].faults -= int(cost * 2)  # 150 ms in all: past the larger floor too
    assert watches[raised]()


def test_the_head_start_is_not_paced_while_the_kernel_waits_for_it(
        no_new_children, monkeypatch) -> None:
    """The kernel's threads keep every CPU busy as the cell is handed over (here: its CPU
    clock says so); the pacer must not read that as a busy cell and stop the child during
    its head start: the kernel is waiting for its answer."""
    from crashpredict._dryrun import _fork

    cores = _beside._cores()
    monkeypatch.setattr(_beside, "_kernel_cpu", lambda: time.perf_counter() * cores)
    ns = {"d": {"a": 1}}
    standby = _armed(prepare_standby(ns))
    began = time.perf_counter()
    beside = standby.start("x = d['b']", head_start_s=5.0)
    took = time.perf_counter() - began
    # held by the pacer, it would have answered after BUSY_HOLD_S at the earliest
    assert beside.head_start and beside.result.exception == "KeyError", beside.result
    assert took < _fork.BUSY_HOLD_S, took
    assert beside.settle(10)


def test_on_the_cold_path_the_childs_set_up_is_paced_as_its_run(no_new_children,
                                                                  monkeypatch) -> None:
    """Forked as the cell starts, the child still has its jail to build (forks of the
    kernel's image, tens of milliseconds of a CPU). Beside a cell on every CPU it does not
    build it during the cell's first `BUSY_HOLD_S`; once the cell leaves a CPU idle it
    builds it and answers."""
    from crashpredict._dryrun import _fork

    readers: list = []
    real_reader = _fork._Reader

    def recorded(*args, **kwargs):
        readers.append(real_reader(*args, **kwargs))
        return readers[-1]

    monkeypatch.setattr(_fork, "_Reader", recorded)
    busy = [True]
    cores = _beside._cores()
    monkeypatch.setattr(_beside, "_kernel_cpu",
                        lambda: time.perf_counter() * cores if busy[0] else 0.0)
    monkeypatch.setattr(_fork, "BUSY_HOLD_S", 60.0)
    beside = dry_run_beside("x = d['b']", {"d": {"a": 1}})
    try:
        assert beside.wait(1.5) is None and beside.running
        # unpaced, the set-up takes 30-300 ms here: the child would be ready by now
        assert readers and not readers[0].armed
        busy[0] = False  # the cell now leaves a CPU idle
        result = beside.wait(30)
        assert result is not None and result.exception == "KeyError", result
    finally:
        beside.cancel()
        assert beside.settle(10)


def test_a_held_child_waits_at_its_gate_until_its_pacer_opens_it(no_new_children) -> None:
    """On the cold path the kernel may still copy the pages the last cell wrote after the
    fork: the child waits, idle, for its pacer rather than build its jail beside the cell
    meanwhile; opened, it gets ready."""
    standby = prepare_standby({}, reap=False, held=True)
    try:
        time.sleep(0.5)  # unpaced, its set-up takes 30-300 ms here
        assert not standby.armed()
        _fork.open_gate(standby._child)
        _armed(standby)
    finally:
        standby.discard(wait=True)


def test_a_held_child_whose_gate_closes_unopened_leaves_by_itself(no_new_children) -> None:
    standby = prepare_standby({}, reap=False, held=True)
    _fork.close_gate(standby._child)
    end, fields = time.monotonic() + 20, [""]
    while fields[0] != "Z" and time.monotonic() < end:  # ended, not reaped yet
        with open(f"/proc/{standby._child.pid}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
        time.sleep(0.01)
    assert fields[0] == "Z" and fields[49] == "0", fields  # it left with 0: nobody killed it
    standby.discard(wait=True)


def _heap_shared_kb() -> int:
    """The kB of this process's heap (glibc's main arena) it shares with another process."""
    shared, in_heap = 0, False
    with open("/proc/self/smaps") as smaps:
        for line in smaps:
            first = line.split(None, 1)[0]
            if "-" in first and not first.endswith(":"):  # a mapping's header line
                in_heap = line.rstrip().endswith("[heap]")
            elif in_heap and first in ("Shared_Clean:", "Shared_Dirty:"):
                shared += int(line.split()[1])
    return shared


def test_the_child_gives_back_the_free_heap_the_kernel_would_reuse(no_new_children,
                                                                   monkeypatch) -> None:
    """Memory the kernel freed stays in its heap, and its next allocations reuse it; while
    a child shares those pages, each first write copies one. The child gives them back at
    once (the kernel's pages are its own again): fails when it keeps them."""
    import ctypes

    if _fork._TRIM is None:
        pytest.skip("no glibc malloc_trim here")
    libc = ctypes.CDLL(None)
    libc.malloc.restype, libc.malloc.argtypes = ctypes.c_void_p, [ctypes.c_size_t]
    libc.free.argtypes = [ctypes.c_void_p]
    block = 100 * 1024  # under glibc's threshold for its own mapping: in the heap
    blocks = [libc.malloc(block) for _ in range(160)]  # 16 MB
    pin = libc.malloc(block)  # after them: the free blocks are not at the heap's top
    for address in blocks:
        ctypes.memset(address, 1, block)
    for address in blocks:
        libc.free(address)

    def shared_once_ready() -> int:
        standby = _armed(prepare_standby({}, reap=False))
        try:
            return _heap_shared_kb()
        finally:
            standby.discard(wait=True)
    try:
        with monkeypatch.context() as patched:
            patched.setattr(_fork, "_TRIM", None)
            kept = shared_once_ready()
        given_back = shared_once_ready()
    finally:
        libc.free(pin)
    assert given_back <= kept - 12 * 1024, (kept, given_back)


def test_a_rate_read_over_too_short_a_span_changes_nothing() -> None:
    pacer = _Recorded(cores=2)
    pacer._run(False)
    now = pacer._at + _beside._MIN_SPAN_S / 10
    assert pacer.decide(now, pacer._cpu + 1.0, pacer._wait) is False  # stays held
    pacer._run(True)
    assert pacer.decide(now, pacer._cpu + 1.0, pacer._wait) is True  # stays running


def test_a_killed_child_is_reaped_once_the_kernel_is_idle(no_new_children) -> None:
    import os

    ns = {"d": {"a": 1}}
    standby = _armed(prepare_standby(ns))
    private_dir = standby._private_dir
    beside = standby.start("x = d['b']", head_start_s=10.0)
    assert beside.head_start
    pid = standby._child.pid
    # killed at once (a zombie until reaped); its folder goes when the kernel is idle
    deadline = time.monotonic() + 5
    while _state(pid) not in ("Z", None):
        assert time.monotonic() < deadline, _state(pid)
        time.sleep(0.01)
    assert not beside._gone.is_set() and os.path.isdir(private_dir)
    nxt = _armed(prepare_standby(ns))  # forked when the kernel is idle: it reaps first
    assert beside._gone.is_set() and not os.path.exists(private_dir) and _state(pid) is None
    nxt.discard()
    assert nxt.settle(10)


def _state(pid: int) -> str | None:
    try:
        with open(f"/proc/{pid}/stat") as fh:
            return fh.read().rsplit(")", 1)[1].split()[0]
    except OSError:
        return None


def test_a_child_the_cell_outran_stays_stopped_until_the_idle_fork_learns_from_it(
        no_new_children, monkeypatch) -> None:
    from crashpredict._dryrun import _prefault

    if not _prefault._available():
        pytest.skip("needs Linux 5.14 (MADV_POPULATE_WRITE) and pagemap")
    monkeypatch.setattr(_prefault, "_last", [None, 0])
    ns: dict = {}
    standby = _armed(prepare_standby(ns))
    beside = standby.start("import time\ntime.sleep(30)")
    pid = standby._child.pid
    time.sleep(0.05)
    beside.cancel(witness=True)  # the cell ended first
    assert beside.wait(10).reason == "the cell ended before the dry run answered"
    deadline = time.monotonic() + 5  # stopped by the reader thread just after the result
    while not (_state(pid) in ("T", "t") and _prefault._witness == [pid]):
        assert time.monotonic() < deadline, (_state(pid), _prefault._witness)
        time.sleep(0.01)
    nxt = _armed(prepare_standby(ns))  # the kernel is idle: learn, then kill and reap
    assert _prefault._last[0] is not None and _state(pid) is None and beside._gone.is_set()
    nxt.discard()
    assert nxt.settle(10)


def test_a_child_cancelled_as_its_cell_starts_is_killed_at_once(no_new_children) -> None:
    standby = _armed(prepare_standby({}))
    beside = standby.start("import time\ntime.sleep(30)")
    pid = standby._child.pid
    beside.cancel()  # the rules answered: no dry run for this cell, no witness either
    beside.wait(10)
    deadline = time.monotonic() + 5
    while _state(pid) not in ("Z", None):
        assert time.monotonic() < deadline, _state(pid)
        time.sleep(0.01)
    assert beside.settle(10)


def test_a_child_that_answered_while_the_cell_runs_is_held_stopped_not_ended(
        no_new_children, monkeypatch) -> None:
    """Its exit would unmap the kernel's memory beside the running cell: it waits, stopped,
    for the cell's end (then it is the witness), and is killed when the kernel is idle."""
    from crashpredict._dryrun import _prefault

    monkeypatch.setattr(_prefault, "_last", [None, 0])
    ns = {"d": {"a": 1}}
    standby = _armed(prepare_standby(ns))
    pid = standby._child.pid
    beside = standby.start("import time\ntime.sleep(0.1)\nx = d['b']")
    assert beside.wait(10).exception == "KeyError"
    deadline = time.monotonic() + 5
    while _state(pid) not in ("T", "t"):
        assert time.monotonic() < deadline, _state(pid)
        time.sleep(0.01)
    beside.cancel(witness=True)  # the cell ended
    deadline = time.monotonic() + 5
    while _prefault._available() and _prefault._witness != [pid]:
        assert time.monotonic() < deadline
        time.sleep(0.01)
    assert _state(pid) in ("T", "t") and not beside._gone.is_set()
    nxt = _armed(prepare_standby(ns))  # idle: learned from, killed, reaped
    assert _state(pid) is None and beside._gone.is_set()
    nxt.discard()
    assert nxt.settle(10)


def test_a_child_that_steps_back_waits_stopped_for_the_cell_to_end(no_new_children) -> None:
    ns: dict = {}
    standby = _armed(prepare_standby(ns))
    pid = standby._child.pid
    beside = standby.start("import time\ntime.sleep(30)")
    beside.step_back()  # the rules answered: no dry run for this cell
    assert beside.wait(10).outcome == "inconclusive"
    deadline = time.monotonic() + 5
    while _state(pid) not in ("T", "t"):
        assert time.monotonic() < deadline, _state(pid)
        time.sleep(0.01)
    time.sleep(0.1)
    assert _state(pid) in ("T", "t")  # stopped through the cell, not killed at its start
    beside.cancel(witness=True)  # the cell ended
    assert beside.settle(10) and _state(pid) is None


def test_a_stepped_back_child_is_killed_once_the_cells_writes_would_copy_too_much(
        no_new_children) -> None:
    big = np.ones(20_000_000)  # 160 MB shared with the child
    standby = _armed(prepare_standby({"big": big}))
    pid = standby._child.pid
    beside = standby.start("import time\ntime.sleep(30)")
    beside.step_back()
    beside.wait(10)
    big *= 2.0  # the cell rewrites it in place: every page copied while the child lives
    deadline = time.monotonic() + 5
    while _state(pid) not in ("Z", None):  # the copy watch killed it, the cell still running
        assert time.monotonic() < deadline, _state(pid)
        time.sleep(0.01)
    beside.cancel(witness=True)
    assert beside.settle(10)


def test_sweep_removes_only_the_folders_of_kernels_that_are_gone(tmp_path) -> None:
    import os
    import subprocess
    import sys

    gone = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                          capture_output=True, text=True, check=True)
    dead = int(gone.stdout)
    left = tmp_path / f"crashpredict-dryrun-{dead}-ab12_x"
    (left / "jail").mkdir(parents=True)  # what a killed child leaves
    kept = [tmp_path / f"crashpredict-dryrun-{os.getpid()}-cd34",  # a kernel still running
            tmp_path / "crashpredict-dryrun-k2j4h6g8",  # no pid in the name
            tmp_path / f"crashpredict-dryrun-{dead}",  # not the folder's form
            tmp_path / f"other-{dead}-ab12"]
    for path in kept:
        path.mkdir()
    a_file = tmp_path / f"crashpredict-dryrun-{dead}-ef56"
    a_file.write_text("not a folder")
    assert _beside.sweep(str(tmp_path)) == 1
    assert not left.exists()
    assert all(path.is_dir() for path in kept) and a_file.is_file()
    assert _beside.sweep(str(tmp_path / "missing")) == 0
