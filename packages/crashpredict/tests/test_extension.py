"""The IPython extension in an in-process InteractiveShell, and in a real kernel."""

from __future__ import annotations

import os
import re
import textwrap
import threading
import time
from pathlib import Path

import pytest
from IPython.core.interactiveshell import InteractiveShell
from IPython.utils.capture import capture_output

import crashpredict
from crashpredict import KernelSession
from crashpredict import _extension


@pytest.fixture
def shell():
    sh = InteractiveShell.instance()
    sh.run_cell("%load_ext crashpredict")
    sh.run_cell("import pandas as pd\ndf = pd.DataFrame({'a': [1]})")
    yield sh
    sh.run_cell("%unload_ext crashpredict")
    sh.user_ns.pop("df", None)


@pytest.fixture
def counted(monkeypatch):
    """Count the analyses the extension makes (the real `predict` does the work)."""
    calls = []
    real = _extension.predict

    def predict(source, namespace, **kwargs):
        calls.append((source, kwargs))
        return real(source, namespace, **kwargs)

    monkeypatch.setattr(_extension, "predict", predict)
    return calls


def test_warns_before_a_crashing_cell_with_html_and_text(shell) -> None:
    with capture_output() as cap:
        result = shell.run_cell("df['b']")
    assert type(result.error_in_exec).__name__ == "KeyError"
    (shown,) = cap.outputs
    assert shown.data["text/plain"].startswith(
        "crashpredict: this cell will likely raise KeyError at line 1")
    assert "df has no column 'b'" in shown.data["text/plain"]
    html = shown.data["text/html"]
    assert 'class="crashpredict-warning"' in html and "<code>KeyError</code>" in html


def test_says_nothing_for_a_fine_cell(shell, capsys) -> None:
    with capture_output() as cap:
        assert shell.run_cell("total = df['a'].sum()").success
    assert cap.outputs == [] and "crashpredict" not in cap.stderr


def test_strict_refuses_and_does_not_run_the_cell(shell) -> None:
    shell.run_cell("%crashpredict strict")
    result = shell.run_cell("marker = 1\ndf['b']")
    assert type(result.error_in_exec).__name__ == "CellRefused"
    assert "marker" not in shell.user_ns
    assert shell.run_cell("ok = df['a']").success and "ok" in shell.user_ns


def test_strict_refusal_is_a_short_message_without_frames(shell) -> None:
    shell.run_cell("%crashpredict strict")
    with capture_output() as cap:
        shell.run_cell("df['b']")
    text = cap.stdout + cap.stderr
    assert "CellRefused: crashpredict (strict) refused to run this cell: KeyError predicted " \
           "at line 1" in text
    assert "df has no column 'b'" in text
    for internal in ("Traceback", "__import__", "_extension", "File ", "refuse("):
        assert internal not in text


def test_strict_analyses_each_cell_once_and_skips_its_own_magic(shell, counted) -> None:
    shell.run_cell("%crashpredict strict")
    shell.run_cell("x = df['a']")
    assert [source for source, _ in counted] == ["x = df['a']\n"]
    assert shell.run_cell("%crashpredict off").success
    assert _extension._GUARD.mode == "off"
    assert len(counted) == 1  # neither the magic nor anything after "off" is analysed
    shell.run_cell("df['b']")
    assert len(counted) == 1


def test_a_cell_run_twice_is_analysed_twice(shell, counted) -> None:
    shell.run_cell("y = df['a']")
    shell.run_cell("y = df['a']")
    assert len(counted) == 2


@pytest.mark.parametrize("mode", ["warn", "strict"])
@pytest.mark.parametrize("raised", [SystemExit(3), KeyboardInterrupt()])
def test_system_exit_or_interrupt_in_the_analysis_never_escapes(shell, monkeypatch, mode,
                                                                raised) -> None:
    shell.run_cell(f"%crashpredict {mode}")

    def stopped(*args, **kwargs):
        raise raised

    monkeypatch.setattr(_extension, "predict", stopped)
    with capture_output() as cap:
        result = shell.run_cell("z = 1")
    interrupted_strict = isinstance(raised, KeyboardInterrupt) and mode == "strict"
    if interrupted_strict:  # strict: the interrupt wins, the cell does not run
        assert type(result.error_in_exec).__name__ == "CellRefused"
        assert "interrupted while analysing this cell" in cap.stdout + cap.stderr
        assert "z" not in shell.user_ns
    else:  # the analysis is given up; the cell runs unchecked
        assert result.success and shell.user_ns.pop("z") == 1
    if isinstance(raised, KeyboardInterrupt) and mode == "warn":
        assert "analysis interrupted; the cell runs unchecked" in cap.stderr


def test_the_dry_run_is_on_by_default_beside_the_cell_and_can_be_turned_off(shell, counted,
                                                                              capsys) -> None:
    shell.run_cell("total = df['a'].sum()")
    assert counted[-1][1]["engines"] == ("rules",)  # rules answer first (few trials: a dry run follows)
    shell.run_cell("%crashpredict status")
    assert "engines: rules + dry run beside each cell" in capsys.readouterr().out
    shell.run_cell("%crashpredict dryrun on --budget 1.5")
    assert "(at most 1.5 s)" in capsys.readouterr().out
    shell.run_cell("%crashpredict dryrun on --budget -1")
    assert "a budget between 0 and 600 s" in capsys.readouterr().err
    shell.run_cell("%crashpredict dryrun off")
    assert "engines: rules; last dry run" in capsys.readouterr().out
    shell.run_cell("%crashpredict dryrun on")


LONG_CELL = ("cfg = load_config()\nfor epoch in range(200):\n    time.sleep(0.05)\n"
             "cfg['val_accuracy']")
SETUP = ("import json, time\ndef load_config():\n"
         "    return json.loads('{\"loss\": 0.1}')")


def test_the_warning_comes_while_the_cell_still_runs(shell) -> None:
    shell.run_cell(SETUP)
    started = time.perf_counter()
    with capture_output() as cap:
        result = shell.run_cell(LONG_CELL)
    took = time.perf_counter() - started
    assert type(result.error_in_exec).__name__ == "KeyError" and took > 9
    (shown,) = cap.outputs
    text = shown.data["text/plain"]
    assert text.startswith("crashpredict: this cell will likely raise KeyError at line 4")
    assert "the cell is still running" in text and "loops cut short" in text
    seen = float(text.split("beside this cell ")[1].split(" s after")[0])
    assert seen < took / 5  # reached long before the real crash
    assert "raised KeyError at line 4" in _extension._GUARD.last_dry_run


def test_a_late_crash_over_big_data_is_warned_from_its_first_rows(shell) -> None:
    """The whole run beside the cell is as slow as the cell; its sibling on the frame's
    first rows (`_sibling`) names the crash seconds before the real run reaches it."""
    from crashpredict._dryrun import dry_run

    if not {"seccomp", "landlock"} <= set(dry_run("x = 1", {}).layers):
        pytest.skip("the sibling needs seccomp and Landlock in this kernel")
    shell.run_cell("import numpy as np\nbig = pd.DataFrame({'a': np.arange(1_000_000.0)})")
    _ready_standby()
    # as after a user's pause: the kernel's pages are copied ahead while it is idle (in a
    # process as large as pytest's after most of the suite, a cell sent at once writes
    # some 20 MB the child shares, and the dry run steps aside at its first tick)
    end = time.monotonic() + 15
    while _extension._GUARD._standby.copy_s == 0 and time.monotonic() < end:
        time.sleep(0.05)
    cell = ("big['b'] = big['a'].apply(lambda v: sum(i * v for i in range(150)))\n"
            "summary = big.b.describe()\nprint(summary.lenght)\n")
    started = time.perf_counter()
    with capture_output() as cap:
        result = shell.run_cell(cell)
    took = time.perf_counter() - started
    shell.user_ns.pop("big", None)
    assert type(result.error_in_exec).__name__ == "AttributeError"
    assert len(cap.outputs) == 1, (took, _extension._GUARD.last_dry_run)
    (shown,) = cap.outputs
    text = shown.data["text/plain"]
    assert text.startswith("crashpredict: this cell will likely raise AttributeError at line 3")
    assert "on data cut to its first rows (big)" in text and "the cell is still running" in text
    seen = float(text.split("beside this cell ")[1].split(" s after")[0])
    assert seen < took / 3, (seen, took)
    assert "on the first rows of big" in _extension._GUARD.last_dry_run


@pytest.fixture
def long_head_start(monkeypatch):
    """A head start no busy test machine can miss (the defaults: 10 ms in strict mode, none
    beyond the rules' time in warn mode)."""
    monkeypatch.setattr(_extension, "HEAD_START_S", 5.0)
    monkeypatch.setattr(_extension, "HEAD_START_WARN_S", 5.0)


def _ready_standby(timeout: float = 20.0) -> None:
    guard, end = _extension._GUARD, time.monotonic() + timeout
    while not (isinstance(guard._standby, _extension.Standby) and guard._standby.armed()):
        assert time.monotonic() < end, f"no standby child got ready: {guard._standby!r}"
        time.sleep(0.01)


def test_a_quick_crash_the_rules_cannot_see_is_warned_before_the_cell_runs(
        shell, tmp_path, long_head_start) -> None:
    (tmp_path / "n.txt").write_text("twelve")
    shell.run_cell(f"path = {str(tmp_path / 'n.txt')!r}")
    _ready_standby()
    with capture_output() as cap:
        result = shell.run_cell("marker = 1\nn = int(open(path).read())")
    assert type(result.error_in_exec).__name__ == "ValueError"
    (shown,) = cap.outputs
    text = shown.data["text/plain"]
    assert text.startswith("crashpredict: this cell will likely raise ValueError at line 2")
    assert "before the cell started" in text
    assert "(before the cell started)" in _extension._GUARD.last_dry_run


def test_strict_refuses_a_cell_whose_head_start_crashed(shell, tmp_path,
                                                        long_head_start) -> None:
    (tmp_path / "n.txt").write_text("twelve")
    shell.run_cell(f"path = {str(tmp_path / 'n.txt')!r}")
    shell.run_cell("%crashpredict strict")
    _ready_standby()
    with capture_output():
        result = shell.run_cell("marker_s = 1\nn = int(open(path).read())")
    assert type(result.error_in_exec).__name__ == "CellRefused"
    assert "refused to run this cell: ValueError predicted at line 2" in str(result.error_in_exec)
    assert "marker_s" not in shell.user_ns  # the cell never ran
    shell.run_cell("%crashpredict on")


def test_a_cell_that_warned_leaves_a_standby_fresh_for_the_next(
        shell, tmp_path, long_head_start) -> None:
    """A warning from the cell's own code leaves ``__warningregistry__`` in the namespace,
    and IPython unbinds it as the next cell starts: that is no change of the user's state,
    so the standby forked after the cell still runs the next one (it was discarded as
    stale, and every cell after one that warned ran with no child ready)."""
    (tmp_path / "n.txt").write_text("twelve")
    shell.run_cell(f"import warnings\npath = {str(tmp_path / 'n.txt')!r}\n"
                   "warnings.warn('a pandas FutureWarning, say', FutureWarning)")
    assert "__warningregistry__" in shell.user_ns
    _ready_standby()
    with capture_output() as cap:
        result = shell.run_cell("marker = 1\nn = int(open(path).read())")
    assert type(result.error_in_exec).__name__ == "ValueError"
    assert "(before the cell started)" in _extension._GUARD.last_dry_run, \
        _extension._GUARD.last_dry_run
    assert any("before the cell started" in o.data.get("text/plain", "") for o in cap.outputs)
    _extension._GUARD.settle()
    # the child unbinds it too, as IPython does in the kernel
    shell.run_cell("warnings.warn('again', FutureWarning)")
    _ready_standby()
    with capture_output() as cap:
        result = shell.run_cell("if '__warningregistry__' in globals():\n"
                                "    raise RuntimeError('a registry IPython unbinds')")
    assert result.success and cap.outputs == [], cap.outputs
    assert _extension._GUARD.last_dry_run.startswith("ran to its end"), \
        _extension._GUARD.last_dry_run
    _extension._GUARD.settle()


def test_a_stale_standby_is_never_used(shell, long_head_start) -> None:
    shell.run_cell("value = 1")
    _ready_standby()
    shell.user_ns["value"] = 2  # rebound outside any cell (a widget's callback)
    with capture_output() as cap:
        result = shell.run_cell("assert value == 2, 'the dry run saw a stale state'")
    assert result.success and cap.outputs == []
    assert "before the cell started" not in _extension._GUARD.last_dry_run
    _extension._GUARD.settle()


def test_a_standby_is_ready_after_each_cell_and_gone_when_unloaded(shell) -> None:
    shell.run_cell("y = 1")
    _ready_standby()
    standby = _extension._GUARD._standby
    shell.run_cell("%crashpredict dryrun off")
    assert _extension._GUARD._standby is None and standby.settle(10)
    shell.run_cell("%crashpredict dryrun on")
    _ready_standby()
    standby = _extension._GUARD._standby
    shell.run_cell("%unload_ext crashpredict")
    assert standby.settle(0)  # unloading waits for it
    shell.run_cell("%load_ext crashpredict")


@pytest.fixture
def cold_forks(shell, monkeypatch) -> list[tuple[str, bool]]:
    """Cells run back to back (no standby child is ever forked: the kernel is never idle
    long enough); the sources of the children forked as a cell starts, and whether each was
    forked as likely long (a cell that loops or fits: the copy watch's larger floor)."""
    guard = _extension._GUARD
    monkeypatch.setattr(guard, "_schedule_standby", lambda: None)
    guard._drop_standby(wait=True)
    forks: list[tuple[str, bool]] = []
    real = _extension.dry_run_beside

    def counted(*args, **kwargs):
        forks.append((args[0], kwargs.get("likely_long", False)))
        return real(*args, **kwargs)

    monkeypatch.setattr(_extension, "dry_run_beside", counted)
    return forks


def test_back_to_back_a_plain_cell_gets_a_child_forked_as_it_starts_where_forks_are_cheap(
        shell, cold_forks, monkeypatch) -> None:
    """Run All leaves no idle time for a standby child. A child forked as a cell with no loop
    starts runs its code at its speed: it gets ahead only of an error that is slow to show,
    while the fork and the pages the cell writes beside it cost the cell. So such a cell
    gets one only where a fork is cheap (`COLD_FORK_MOST_S`), and in warn mode (strict mode
    could only interrupt its traceback). A cell that loops gets one either way."""
    guard, forks = _extension._GUARD, cold_forks
    shell.user_ns["y_cold"] = 0
    monkeypatch.setattr(_extension, "fork_cost", lambda: _extension.COLD_FORK_MOST_S / 2)
    assert shell.run_cell("y_cold = y_cold + 1").success
    assert forks == [("y_cold = y_cold + 1", False)]
    guard.settle()
    monkeypatch.setattr(_extension, "fork_cost", lambda: _extension.COLD_FORK_MOST_S * 2)
    assert shell.run_cell("y_cold = y_cold + 2").success
    assert len(forks) == 1
    assert guard.last_dry_run.startswith("not run: no child was ready")
    assert f"takes {_extension.COLD_FORK_MOST_S * 2000:.0f} ms" in guard.last_dry_run
    assert shell.run_cell("for i in range(3):\n    y_cold += i").success
    assert forks[1:] == [("for i in range(3):\n    y_cold += i", True)]
    guard.settle()
    monkeypatch.setattr(_extension, "fork_cost", lambda: None)  # none measured yet: forked
    assert shell.run_cell("y_cold = y_cold + 4").success and len(forks) == 3
    guard.settle()
    shell.run_cell("%crashpredict strict")
    try:
        assert shell.run_cell("y_cold = y_cold + 8").success and len(forks) == 3
        assert "strict mode could only interrupt its traceback" in guard.last_dry_run
    finally:
        shell.run_cell("%crashpredict on")
    assert shell.user_ns.pop("y_cold") == 18
    guard.settle()


def _raised_at_once_shown_slowly(name: str, showing: str, child_after_s: float) -> str:
    """A set-up: exception ``name``, whose showing in the kernel first runs ``showing`` (as a
    first traceback through big sources takes long), and ``raise_it()``, which raises it at
    once in the kernel and after ``child_after_s`` in a dry-run child."""
    body = textwrap.indent(textwrap.dedent(showing), " " * 12)
    return (f"import os, time\n_PARENT = os.getpid()\nclass {name}(Exception):\n"
            f"    def __str__(self):\n        if os.getpid() == _PARENT:\n{body}\n"
            f"        return 'shown slowly'\ndef raise_it():\n"
            f"    if os.getpid() != _PARENT:\n        time.sleep({child_after_s})\n"
            f"    raise {name}()\n")


# showing it writes 64 MB that any dry-run child shares, as a first traceback through big
# sources writes the kernel's objects
SHOWN_SLOWLY = "import numpy as np\npad = np.ones(8 << 20)\n" + _raised_at_once_shown_slowly(
    "ShownSlowly", "for i in range(8):\n    pad[i << 20:(i + 1) << 20] += 1\n"
    "    time.sleep(0.15)", 0.3)


def test_back_to_back_a_crash_shown_slowly_is_warned_about_before_it_shows(
        shell, cold_forks, monkeypatch) -> None:
    """The cell raises at once; IPython takes 1.2 s to show the error and writes 64 MB the
    child shares meanwhile (40 ms of copies). Those copies delay only an error that is
    certain: the dry run does not step aside for them (it did, at the 10 ms floor), and
    its warning comes before the error shows."""
    guard, forks = _extension._GUARD, cold_forks
    shell.run_cell(SHOWN_SLOWLY)
    guard.settle()
    forks.clear()
    monkeypatch.setattr(_extension, "fork_cost", lambda: _extension.COLD_FORK_MOST_S / 2)
    assert not guard._showing_error()
    with capture_output() as cap:
        result = shell.run_cell("raise_it()")
    assert type(result.error_in_exec).__name__ == "ShownSlowly" and len(forks) == 1
    assert guard.last_dry_run.startswith("raised ShownSlowly at line 1"), guard.last_dry_run
    (shown,) = cap.outputs
    assert shown.data["text/plain"].startswith(
        "crashpredict: this cell will likely raise ShownSlowly at line 1")
    assert "ShownSlowly: shown slowly" in re.sub(r"\x1b\[[0-9;]*m", "", cap.stdout)
    shell.user_ns.pop("pad")
    guard.settle()


def test_the_rules_try_in_full_where_no_dry_run_follows(shell, cold_forks, counted,
                                                        monkeypatch) -> None:
    """With a dry run to follow, the rules' trials (library calls on live values) get a few
    milliseconds: the dry run executes the cell anyway. Where none follows (back to back,
    a fork too slow for a plain cell), the rules are alone: their trials run in full (a
    first `train_test_split` with `stratify` took 300-400 ms there, and its crash went
    unsaid)."""
    guard = _extension._GUARD
    monkeypatch.setattr(_extension, "fork_cost", lambda: _extension.COLD_FORK_MOST_S * 2)
    assert shell.run_cell("z_trial = 1").success and cold_forks == []
    # the rules' own default, given so that they never ready torch's meta device as a cell
    # waits (`_warm_meta_later` does it between cells)
    assert counted[-1][1]["options"] == {
        "rules": {"trial_budget_s": _extension.RULES_TRIALS_ALONE_S}}
    monkeypatch.setattr(_extension, "fork_cost", lambda: _extension.COLD_FORK_MOST_S / 2)
    assert shell.run_cell("z_trial = 2").success and len(cold_forks) == 1
    assert counted[-1][1]["options"] == {
        "rules": {"trial_budget_s": _extension.RULES_TRIALS_BESIDE_S}}
    shell.user_ns.pop("z_trial")
    guard.settle()


def test_status_says_the_rules_answered_first_and_no_stale_dry_run(shell, cold_forks) -> None:
    """A cell whose crash the rules predict gets no dry run: `status` says so, not what the
    last cell's dry run did; and a standby child that stepped back for such a cell does
    not overwrite it when it reports later."""
    guard, forks = _extension._GUARD, cold_forks
    with capture_output():
        assert not shell.run_cell("df['b']").success
    assert forks == []
    assert guard.last_dry_run == "not run: the rules predicted this cell's crash first"
    guard.settle()
    cold_forks_off = guard._schedule_standby  # the fixture's stand-in: no standby forks
    del guard._schedule_standby  # the real one again, for one standby child
    try:
        guard._schedule_standby()
        _ready_standby()
        with capture_output():
            assert not shell.run_cell("df['c']").success
        assert guard.last_dry_run == "not run: the rules predicted this cell's crash first"
        guard.settle()
        time.sleep(0.2)  # a late report of the child that stepped back changes nothing
        assert guard.last_dry_run == "not run: the rules predicted this cell's crash first"
    finally:
        guard._schedule_standby = cold_forks_off
        guard._drop_standby(wait=True)


def test_back_to_back_a_loop_that_ran_quickly_last_time_gets_no_child_forked(
        shell, cold_forks) -> None:
    """A cell that loops, run again back to back after it took under `BESIDE_WORTH_S`: a
    child forked as it starts would answer about when its crash would come (as a ready
    child steps back for it), and would cost it the fork: none is forked. A loop the
    session has not seen, or one that took longer, still gets one."""
    guard, forks = _extension._GUARD, cold_forks
    quick = "z_cold = 0\nfor i in range(3):\n    z_cold += i"
    assert shell.run_cell(quick).success and forks == [(quick, True)]  # not seen: forked
    guard.settle()
    assert shell.run_cell(quick).success and len(forks) == 1  # took well under a second
    assert guard.last_dry_run.startswith("not run: no child was ready") and \
        "last time" in guard.last_dry_run
    slow = quick + "\n# slow"
    guard._took[slow] = _extension.BESIDE_WORTH_S + 1.0  # as if it had taken longer
    assert shell.run_cell(slow).success and forks == [(quick, True), (slow, True)]
    assert shell.user_ns.pop("z_cold") == 3
    guard.settle()


def _copied_ahead(timeout: float = 30.0):
    """The standby child forked after the last cell, once its shared pages are copied."""
    guard, end = _extension._GUARD, time.monotonic() + timeout
    while True:
        standby = guard._standby
        if isinstance(standby, _extension.Standby) and guard.copied_ahead is standby:
            return standby
        assert time.monotonic() < end, f"nothing copied ahead: {standby!r}"
        time.sleep(0.01)


def _faults() -> int:
    import resource

    return resource.getrusage(resource.RUSAGE_SELF).ru_minflt


@pytest.mark.parametrize("copies", [True, False])
def test_a_cell_that_rewrites_an_array_writes_no_page_shared_with_the_dry_run(
        shell, monkeypatch, copies, capsys) -> None:
    """While the kernel is idle, the pages it shares with the standby child are copied, so a
    cell rewriting a 64 MB array in place beside its dry run copies none of them (the peer:
    with the copies off, each of its 16,384 pages is copied in the cell, a fault each)."""
    from crashpredict._dryrun import _prefault

    if not _prefault._available():
        pytest.skip("needs Linux 5.14 (MADV_POPULATE_WRITE) and pagemap")
    if not copies:
        monkeypatch.setattr(_prefault, "copy_shared", lambda stop, most_bytes=None: 0)
    pages = (64 << 20) // 4096
    shell.run_cell("import numpy as np\nrewritten = np.ones(8 << 20)")
    standby = _copied_ahead()
    if copies:
        assert standby.copied >= 64 << 20 and not standby.copy_cut
    faults = _faults()
    assert shell.run_cell("rewritten *= 1.5").success
    taken = _faults() - faults
    if copies:
        assert taken < pages // 4, taken
        shell.run_cell("%crashpredict status")
        assert re.search(r"copied ahead while idle: \d+ of \d+ MB in \d+\.\d\d s",
                         capsys.readouterr().out)
    else:
        assert taken >= pages // 4, taken  # 6,000-16,500 here (the copy watch ends the
        # child partway, and the pages left are the kernel's alone again)
    shell.user_ns.pop("rewritten")
    _extension._GUARD.settle()


def test_strict_interrupts_the_cell_with_the_diagnosis(no_new_children, shell) -> None:
    shell.run_cell(SETUP)
    shell.run_cell("%crashpredict strict")
    started = time.perf_counter()
    with capture_output() as cap:
        result = shell.run_cell("marker = 1\n" + LONG_CELL + "\nafter = 1")
    assert time.perf_counter() - started < 6
    assert type(result.error_in_exec).__name__ == "CellRefused"
    message = str(result.error_in_exec)
    assert message.startswith("crashpredict (strict) interrupted this cell after ")
    assert "raised KeyError at line 5" in message
    assert "after" not in shell.user_ns and shell.user_ns.get("marker") == 1
    assert shell.run_cell("ok = 1").success  # the next cell runs as ever
    assert "Traceback" not in cap.stdout + cap.stderr
    _extension._GUARD.settle()


SLOW_TO_SHOW = _raised_at_once_shown_slowly("SlowToShow", "time.sleep(3.0)", 0.5)


def test_strict_leaves_a_traceback_being_shown_whole(no_new_children, shell) -> None:
    """The cell raised first and IPython is still showing its traceback when the dry run
    beside it answers (0.5 s in): strict mode's interrupt must not land in that formatting
    (it showed the message as ``<class 'str'>: (CellRefused, ...)``); the user sees the
    real error."""
    shell.run_cell(SLOW_TO_SHOW)
    shell.run_cell("%crashpredict strict")
    _ready_standby()
    with capture_output() as cap:
        result = shell.run_cell("raise_it()")
    assert type(result.error_in_exec).__name__ == "SlowToShow"
    shown = re.sub(r"\x1b\[[0-9;]*m", "", cap.stdout + cap.stderr)
    assert "SlowToShow: shown slowly" in shown, shown
    assert "CellRefused" not in shown
    assert _extension._GUARD.last_dry_run.startswith("raised SlowToShow at line 1")
    assert shell.run_cell("ok = 1").success
    _extension._GUARD.settle()


def test_a_cell_that_ends_first_ends_its_dry_run(no_new_children, shell) -> None:
    shell.run_cell("import time")
    assert shell.run_cell("for _ in range(20):\n    time.sleep(0.0005)").success
    assert "ended with the cell" in _extension._GUARD.last_dry_run or \
        "ran to its end" in _extension._GUARD.last_dry_run
    _extension._GUARD.settle()  # the waiting thread reaps the killed child


def test_status_says_when_a_crash_the_dry_run_saw_was_not_warned_about() -> None:
    """A crash the cut may have caused is no warning; `status` must not read as one."""
    from crashpredict._dryrun import DryRun

    doubtful = DryRun(outcome="crashed", exception="IndexError", message="index 49 is out of "
                      "bounds", line=5, cuts=("for epoch in range(50): ran 3 of 50",),
                      fast_forwarded=True, cut_before_crash=True, cut_may_cause=True)
    assert _extension._describe(doubtful, 1.2) == (
        "raised IndexError at line 5 after 1.2 s (fast-forwarded), not warned about: a loop "
        "cut short may have caused it")
    counted = DryRun(outcome="crashed", exception="KeyError", message="'b'", line=2)
    assert _extension._describe(counted, 0.3) == "raised KeyError at line 2 after 0.3 s"


def test_a_fine_cell_shows_nothing_and_the_dry_run_says_what_it_did(shell) -> None:
    shell.run_cell("import time")
    with capture_output() as cap:
        assert shell.run_cell("for i in range(300):\n    time.sleep(0.01)\ndone = df['a']").success
    assert cap.outputs == []
    assert _extension._GUARD.last_dry_run.startswith("ran to its end"), \
        _extension._GUARD.last_dry_run


def test_a_refused_fork_is_said_once_per_session(shell, capsys) -> None:
    matplotlib = pytest.importorskip("matplotlib")
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    old = dict.__getitem__(matplotlib.rcParams, "backend")
    figure = plt.figure()
    dict.__setitem__(matplotlib.rcParams, "backend", "TkAgg")
    try:
        shell.run_cell("a = 1")
        shell.run_cell("b = 2")
    finally:
        dict.__setitem__(matplotlib.rcParams, "backend", old)
        plt.close(figure)
    err = capsys.readouterr().err
    assert err.count("crashpredict: no dry run in this session") == 1
    assert "tkagg backend has open figures" in err


def test_off_and_on(shell) -> None:
    shell.run_cell("%crashpredict off")
    with capture_output() as cap:
        shell.run_cell("df['b']")
    assert cap.outputs == []
    shell.run_cell("%crashpredict on")
    with capture_output() as cap:
        shell.run_cell("df['b']")
    assert "likely raise" in cap.outputs[0].data["text/plain"]


def test_unknown_mode_is_reported(shell, capsys) -> None:
    shell.run_cell("%crashpredict loud")
    assert "unknown mode 'loud'" in capsys.readouterr().err


def test_extension_entry_points_are_exported() -> None:
    assert callable(crashpredict.load_ipython_extension)
    assert callable(crashpredict.unload_ipython_extension)


# ---- in a real kernel ----------------------------------------------------------------------

@pytest.fixture(scope="module")
def ext_kernel(tmp_path_factory: pytest.TempPathFactory):
    with KernelSession(tmp_path_factory.mktemp("ext"), timeout=120) as session:
        assert session.run("%load_ext crashpredict\nimport pandas as pd\n"
                           "df = pd.DataFrame({'a': [1]})").ok
        yield session


@pytest.mark.kernel
def test_kernel_strict_refusal_carries_only_the_short_message(ext_kernel) -> None:
    assert ext_kernel.run("%crashpredict strict").ok
    run = ext_kernel.run("df['b']")
    assert run.ename == "CellRefused"
    text = "\n".join(run.traceback)
    assert text.startswith("CellRefused: crashpredict (strict) refused to run this cell")
    assert "__import__" not in text and "_extension" not in text and "File " not in text
    assert ext_kernel.run("%crashpredict off").ok
    assert ext_kernel.run("%crashpredict status").stdout.startswith("crashpredict: off")


@pytest.mark.kernel
def test_kernel_interrupt_of_a_strict_cell_is_the_users(ext_kernel: KernelSession) -> None:
    assert ext_kernel.run("%crashpredict strict\n").ok
    timer = threading.Timer(3.0, ext_kernel._interrupt)
    timer.start()
    started = time.monotonic()
    try:
        run = ext_kernel.run("import time\ntime.sleep(40)\nslept = True")
    finally:
        timer.cancel()
    assert time.monotonic() - started < 20
    assert run.ename == "KeyboardInterrupt", run
    assert ext_kernel.run("assert 'slept' not in globals()").ok  # the kernel still answers
    assert ext_kernel.run("%crashpredict off").ok


@pytest.mark.kernel
def test_kernel_warning_arrives_while_the_cell_is_busy(ext_kernel: KernelSession) -> None:
    """The warning is a display_data message of the running cell, long before its error."""
    assert ext_kernel.run("%crashpredict on").ok
    assert ext_kernel.run(SETUP).ok
    client = ext_kernel._client()
    msg_id = client.execute(LONG_CELL, store_history=True, allow_stdin=False)
    started = time.monotonic()
    warned = errored = None
    while errored is None and time.monotonic() - started < 60:
        msg = client.get_iopub_msg(timeout=60)
        if msg["parent_header"].get("msg_id") != msg_id:
            continue
        kind = msg["msg_type"]
        if kind == "display_data" and "crashpredict" in msg["content"]["data"]["text/plain"]:
            warned = time.monotonic() - started
        elif kind == "error":
            errored = time.monotonic() - started
    client.get_shell_msg(timeout=30)
    assert warned is not None and errored is not None
    assert warned < errored / 5, (warned, errored)


def _children(pid: int) -> set[int]:
    found: set[int] = set()
    for task in Path(f"/proc/{pid}/task").iterdir():
        found |= {int(c) for c in (task / "children").read_text().split()}
    return found


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, ProcessLookupError):
        return False
    return state != "Z"


def _kernel_with_a_standby(cwd: Path, temp: Path, last: str = "x = 1"):
    """A real kernel whose temporary folder is ``temp``, with the extension loaded and a
    standby made after ``last``: (manager, client, the kernel's children)."""
    from jupyter_client.manager import KernelManager

    manager = KernelManager(kernel_name="python3")
    manager.start_kernel(cwd=str(cwd), env={**os.environ, "TMPDIR": str(temp)})
    client = manager.client()
    client.start_channels()
    client.wait_for_ready(timeout=90)
    for cell in ("%load_ext crashpredict", "import pandas as pd", last):
        client.execute_interactive(cell, timeout=120, output_hook=lambda msg: None)
    deadline = time.monotonic() + 30
    kernel = manager.provisioner.process.pid
    while time.monotonic() < deadline:
        children = _children(kernel)
        if children and list(temp.glob(f"crashpredict-dryrun-{kernel}-*")):
            return manager, client, children
        time.sleep(0.1)
    client.stop_channels()
    manager.shutdown_kernel(now=True)
    raise AssertionError("no standby was made")


@pytest.mark.kernel
@pytest.mark.parametrize("last", ["x = 1", "raise KeyError('late')"])
def test_a_kernel_that_shuts_down_leaves_no_child_and_no_folder(tmp_path, last) -> None:
    """The standby waiting for the next cell is ended, its private folder removed, when the
    kernel exits (a shutdown or restart from JupyterLab)."""
    temp = tmp_path / "tmp"
    temp.mkdir()
    manager, client, children = _kernel_with_a_standby(tmp_path, temp, last)
    client.stop_channels()
    manager.shutdown_kernel(now=False)
    assert not list(temp.iterdir()), list(temp.iterdir())
    deadline = time.monotonic() + 10
    while any(map(_alive, children)) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not any(map(_alive, children))


@pytest.mark.kernel
def test_the_folder_of_a_killed_kernel_is_removed_by_the_next_one(tmp_path) -> None:
    temp = tmp_path / "tmp"
    temp.mkdir()
    manager, client, _ = _kernel_with_a_standby(tmp_path, temp)
    killed = manager.provisioner.process.pid
    client.stop_channels()
    manager.shutdown_kernel(now=True)  # SIGKILL: no exit handler runs
    left = list(temp.glob(f"crashpredict-dryrun-{killed}-*"))
    assert left
    manager, client, _ = _kernel_with_a_standby(tmp_path, temp)
    try:
        assert not any(path.exists() for path in left)
    finally:
        client.stop_channels()
        manager.shutdown_kernel(now=False)


def test_a_cell_that_ran_quickly_before_gets_the_head_start_only(shell) -> None:
    cell = "import time\ntime.sleep(0.05)\nquick = 1"
    assert shell.run_cell(cell).success
    assert not _extension._GUARD.last_dry_run.startswith("head start only")
    _ready_standby()
    assert shell.run_cell(cell).success
    assert _extension._GUARD.last_dry_run.startswith("head start only"), \
        _extension._GUARD.last_dry_run
    assert re.search(r"the cell took 0\.\d\d s last time$", _extension._GUARD.last_dry_run)
    _extension._GUARD.settle()


def test_loading_imports_what_the_rules_use_so_the_first_cell_does_not_wait() -> None:
    """...and finds the fork hooks (a scan of every object) before the first fork."""
    import subprocess
    import sys

    probe = ("import sys\nfrom IPython.core.interactiveshell import InteractiveShell\n"
             "shell = InteractiveShell.instance()\n"
             "shell.run_line_magic('load_ext', 'crashpredict')\n"
             "from crashpredict._dryrun import _jail\n"
             "print(all(m in sys.modules for m in ('crashpredict._rules._walk._walker', "
             "'rtextract._describe', 'nbdeps._transform')) and _jail._HOOK_LISTS is not None)\n"
             "shell.run_line_magic('unload_ext', 'crashpredict')\n")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                          timeout=120)
    assert done.stdout.strip().splitlines()[-1] == "True", done.stderr
