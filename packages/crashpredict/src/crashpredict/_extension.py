"""The IPython extension: check each cell before it runs.

``%load_ext crashpredict`` registers a ``pre_run_cell`` hook that shows a warning (a rich
display output, HTML and plain text, above the cell's own output) when a crash is
predicted. ``pre_run_cell`` cannot cancel a cell, so strict mode uses an input transformer
instead: IPython runs it on every cell before execution, and for a cell predicted to crash
it returns a one-line replacement that raises `CellRefused`, so the original code never
runs (and "Run all" stops there, as it would at the crash). The refusal shows as one short
message: no traceback, no injected code, no frames of ours.

The analysis never breaks a cell: an engine failure, even a ``SystemExit`` or a
``KeyboardInterrupt`` raised while it runs, is caught. An interrupt cancels the analysis:
in warn mode the cell then runs unchecked (interrupt again to stop it); in strict mode the
cell does not run.

The rules answer first (about a millisecond per cell). Then, by default, the dry run runs
**beside** the real cell (`crashpredict._dryrun.dry_run_beside`): when the cell starts, the
kernel is forked (the child holds the state before the cell), the real cell starts at once,
and the child runs the cell jailed, fast-forwarded when it has loops, on the CPUs the
cell leaves idle (beside a cell on every CPU: none for its first second, then a small
share). When the child sees a crash that counts, the warning appears in the cell's
output area while the cell is still running (from a thread of the extension), naming the
exception, the line and the explanation, and how long the real run had been going; in
strict mode the real cell is then interrupted (as Kernel > Interrupt would) with the
diagnosis. A cell that ends first ends the child. With no child ready before the cell
(Run All), one is forked as it starts for a cell that loops or fits, and for another where
a fork of this kernel is cheap (`COLD_FORK_MOST_S`). ``%crashpredict dryrun off`` leaves the
rules alone; ``%crashpredict status`` says what the last dry run did. Where the fork
cannot run (CUDA in use, a GUI event loop, no fork, no user namespaces) the extension says
so once per session.
"""

from __future__ import annotations

import dataclasses
import os
import re
import signal
import sys
import threading
import time
from typing import Any

from ._dryrun import _jail, _prefault
from ._dryrun._beside import (BESIDE_BUDGET_S, CHORES, LATER, Beside, Standby, dry_run_beside,
                              prepare_standby)
from ._dryrun._fastforward import compile_cell, loop_tree
from ._dryrun._fork import HEAD_START_S, HEAD_START_WARN_S, DryRun, fork_cost, fork_refusal
from ._dryrun._verdict import combine_with_rules, dryrun_verdict
from ._engines import predict
from ._model import Verdict
from ._render import warning_html, warning_text
from .errors import CrashPredictError

__all__ = ["load_ipython_extension", "unload_ipython_extension", "CellRefused", "Guard"]

_MODES = ("warn", "strict", "off")
_OUR_MAGICS = ("crashpredict", "load_ext", "unload_ext", "reload_ext")
_SKIP_PREFIXES = tuple(f"%{m}" for m in _OUR_MAGICS)
# the same magics after IPython's transforms (strict mode sees transformed code)
_SKIP_CALL = re.compile(r"\s*get_ipython\(\)\.run_line_magic\(['\"](%s)['\"]"
                        % "|".join(_OUR_MAGICS))
#: default longest seconds of the dry run beside a cell (the cell's end stops it sooner)
DRYRUN_BUDGET_S = BESIDE_BUDGET_S
#: With the dry run on, the rules' trials (library calls on live values) take at most this
#: long in all (the dry run executes the cell anyway)...
RULES_TRIALS_BESIDE_S = 0.05
#: ...and this when a ready child has the cell: the cheap ones (``pd.DataFrame(columns=
#: [...])``, so that ``results.append`` in the loop after it is known to fail; a child is
#: held for the first second beside a cell that keeps every CPU busy, as a fit does). The
#: child runs them again with more time (`_child.RULES_TRIALS_S`).
RULES_TRIALS_ARMED_S = 0.005
#: With none, they take at most this long (the rules' own default: given, so that the rules
#: never make torch's meta device ready as a cell waits: see `_rules._meta.meta_warm`)
RULES_TRIALS_ALONE_S = 1.0
#: A cell that took less than this last time gets the head start only (no child beside).
BESIDE_WORTH_S = 1.0
#: With no child ready (Run All), a cell with no loop or fit gets one forked as it starts
#: only where a fork of the kernel takes at most this long (`fork_cost`): with the pages
#: the cell then writes while the child shares them (some 2,000-3,000 for a one-line cell,
#: 8-12 ms), that is what such a cell pays.
COLD_FORK_MOST_S = 0.008
#: The standby child is forked once the kernel has been idle this long after a cell.
STANDBY_AFTER_S = 0.05


class CellRefused(CrashPredictError, RuntimeError):
    """Raised in place of a cell that strict mode refused to run.

    IPython shows it through `_render_traceback_`: the message only, no frames.
    """

    def _render_traceback_(self) -> list[str]:
        return [f"CellRefused: {line}" if i == 0 else line
                for i, line in enumerate(str(self).splitlines())]


def _traceback_codes(shell: Any) -> frozenset[Any]:
    """The code of the shell's methods that show an exception the cell raised."""
    codes = set()
    for klass in type(shell).__mro__:
        for name in ("showtraceback", "_showtraceback", "showsyntaxerror",
                     "showindentationerror"):
            code = getattr(klass.__dict__.get(name), "__code__", None)
            if code is not None:
                codes.add(code)
    return frozenset(codes)


def _within(frame: Any, codes: frozenset[Any]) -> bool:
    """Whether ``frame`` runs inside one of ``codes`` (a walk up its callers)."""
    while frame is not None:
        if frame.f_code in codes:
            return True
        frame = frame.f_back
    return False


class Guard:
    """The extension's state: mode, engines, and the hooks registered on one shell."""

    def __init__(self, shell: Any) -> None:
        self.shell = shell
        self.mode = "warn"
        self.dryrun = True
        self.budget_s = DRYRUN_BUDGET_S
        self.last: Verdict | None = None
        self.refused: dict[int, str] = {}
        #: the dry run beside the running cell, and what the last one did (for status)
        self._beside: Beside | None = None
        self.last_dry_run = "none yet"
        self._noted: set[str] = set()
        self._lock = threading.Lock()
        self._interrupt_with: str | None = None
        self._signal_sent = False
        self._sigint: Any = None
        #: the code of the shell's methods that show a cell's error (`_traceback_codes`)
        self._traceback_codes: frozenset[Any] | None = None
        self._ending: Beside | None = None
        #: the child forked when the last cell ended, ready for the next one (or why none)
        self._standby: Standby | DryRun | None = None
        # IPython may transform one cell more than once before running it; analyse it once
        # (the memo is dropped when a cell has run)
        self._memo: tuple[str, tuple[Verdict | None, str | None]] | None = None
        #: for the memoised cell: why no child would be forked as it starts (`_cold_child`)
        self._cold: tuple[str, tuple[str | None, str | None, bool]] | None = None
        #: the dry run started for the memoised cell, not yet handed to pre_run_cell
        self._started: Beside | None = None
        self._in_cell = False
        self._handed = False  # the memoised cell went to the standby child
        self._trials_s: float | None = None
        self._standby_lock = threading.Lock()
        #: each cell's source and when it started; how long each recent source took
        self._cell: tuple[str, float] | None = None
        self._took: dict[str, float] = {}
        self._timer: object | None = None  # the pending standby fork's ticket
        self._discarded: Standby | None = None
        #: the child of a cell that needed no dry run: stopped until the cell ends
        self._stepped_back: Beside | None = None
        self._ended_stepped: Beside | None = None
        #: the last standby child whose shared pages were copied ahead (for status)
        self.copied_ahead: Standby | None = None

    # -- analysis ------------------------------------------------------------------------
    def _predict(self, source: str) -> Verdict | None:
        """The verdict when a crash is predicted, else None. May raise anything."""
        text = source.strip()
        if not text or self.mode == "off" or text.startswith(_SKIP_PREFIXES) \
                or _SKIP_CALL.match(text):
            return None
        options = {"rules": {"trial_budget_s": RULES_TRIALS_ALONE_S if self._trials_s is None
                             else self._trials_s}}
        verdict = predict(source, self.shell.user_ns, engines=("rules",), options=options)
        self.last = verdict
        return verdict if verdict.crash else None

    def _safe_predict(self, source: str) -> tuple[Verdict | None, str | None]:
        """`_predict` that never raises: (verdict, None) or (None, what stopped it). With
        the dry run on, the standby child gets the cell first, and its answer within
        `HEAD_START_S` (for a cell that loops or fits, in warn mode: by the end of the
        rules) counts as the rules' would (a crash seen before the cell starts).

        The outcome is kept until the cell has run: IPython (ipykernel) may transform a
        cell twice, and an interrupted analysis must not start again on the second pass.
        """
        # strict mode's transform sees the cell with a final newline, pre_run_cell without
        key = source.rstrip("\n")
        if self._memo is not None and self._memo[0] == key:
            return self._memo[1]
        outcome: list[tuple[Verdict | None, str | None]] = []

        def rules() -> None:
            try:
                outcome.append((self._predict(source), None))
            except KeyboardInterrupt:
                outcome.append((None, "interrupted"))
            except BaseException as exc:  # SystemExit included: it must not stop the kernel
                outcome.append((None, f"{type(exc).__name__}: {exc}"[:200]))

        self._started = None
        # the rules' trials run library calls on live values: with a dry run on, only a few
        # milliseconds of them, and none when a ready child has the cell already
        self._trials_s = RULES_TRIALS_BESIDE_S if self.dryrun else None
        try:
            self._started = self._hand_over(source, rules)
            self._handed = self._started is not None
        except BaseException as exc:  # noqa: BLE001 - the cell must run whatever happens
            self.last_dry_run = f"not started: {type(exc).__name__}: {exc}"[:200]
        if not outcome:
            if self._started is None and self.dryrun and _worth_a_dry_run(source):
                why, refusal, _ = self._cold_child(source)
                if why is not None or refusal is not None:
                    self._trials_s = None  # no dry run will run this cell: the rules in full
            rules()
        verdict, stopped = outcome[0]
        beside = self._started
        took = self._took.get(key)
        if beside is not None and beside.running and took is not None and took < BESIDE_WORTH_S:
            # this cell ran in under a second last time: its crash would come as soon as a
            # beside run's warning; the child stops (see `Beside.step_back`)
            self._step_back(beside)
            self.last_dry_run = (f"head start only: no crash in the "
                                 f"{(time.perf_counter() - beside.started) * 1000:.0f} ms "
                                 f"before the cell started, and the cell took "
                                 f"{took:.2f} s last time")
            with self._lock:
                if self._beside is beside:
                    self._beside = None
            self._started = beside = None
        if beside is not None and (verdict is not None or stopped is not None):
            self._step_back(beside)  # the rules answered (or were stopped): no dry run
            with self._lock:
                if self._beside is beside:
                    self._beside = None
            self._started = beside = None
            self.last_dry_run = _rules_first(stopped)
        if beside is not None and beside.head_start and beside.result is not None:
            self._started = None
            with self._lock:  # its child waits, stopped, for the cell's end
                self._stepped_back = beside
            dry = beside.result
            self.last_dry_run = _describe(dry, dry.elapsed_s) + " (before the cell started)"
            if dry.outcome == "crashed":
                combined = combine_with_rules(self.last or Verdict(crash=False, confidence=0.0),
                                              dry, source)
                if combined.crash is True:
                    self.last = verdict = dataclasses.replace(combined, explanation=(
                        f"{combined.explanation} [seen by a dry run in "
                        f"{dry.elapsed_s * 1000:.0f} ms, before the cell started]"))
        self._memo = (key, (verdict, stopped))
        return self._memo[1]

    def _step_back(self, beside: Beside) -> None:
        """No dry run for this cell: its child stops, and ends after the cell."""
        beside.step_back()
        with self._lock:
            self._stepped_back = beside

    def _hand_over(self, source: str, rules: Any) -> Beside | None:
        """Give the cell to the standby child when it is still the kernel's state, run the
        rules meanwhile, and wait for the child's head start; None when no dry run is due
        (the rules then still have to run)."""
        standby = self._take_standby()
        if isinstance(standby, DryRun):  # no dry run in this session: say so once
            self._note_refusal(standby.reason)
            return None
        if standby is not None and not (self.dryrun and self.mode != "off"
                                        and _worth_a_dry_run(source)
                                        and standby.fresh(self.shell.user_ns)):
            # not a cell to dry-run, or the namespace changed since the fork (a silent
            # cell, a widget's callback): the cold path, after the rules
            self._discarded = standby
            standby.discard()
            return None
        if standby is None:
            return None
        if self.mode == "strict":
            self._install_sigint()
        header = _parent_header(self.shell)
        holder: list[Beside] = []
        ready = threading.Event()

        def on_result(dry: Any) -> None:
            ready.wait(5.0)  # the child may answer before start() has returned
            self._on_dry_run(holder[0] if holder else None, dry, header)

        armed = standby.armed()
        if armed:
            self._trials_s = RULES_TRIALS_ARMED_S
        likely_long = _likely_long(source, self.shell.user_ns)
        # a cell that loops or fits starts at once (the child answers beside it); another
        # waits up to HEAD_START_S for the child's answer (a one-line cell's takes 2-5 ms),
        # so a quick crash is warned about (strict mode: refused) before it runs
        head = HEAD_START_WARN_S if likely_long and self.mode != "strict" else HEAD_START_S
        try:
            beside = standby.start(source, on_result=on_result, meanwhile=rules,
                                   head_start_s=head if armed else 0.0,
                                   likely_long=likely_long, raised=self._showing_error)
            holder.append(beside)
            with self._lock:  # current at once: an answer may come before pre_run_cell
                self._beside = beside if beside.running else None
        finally:
            ready.set()
        return beside

    # -- hooks ---------------------------------------------------------------------------
    def pre_run_cell(self, info: Any) -> None:
        """Warn about a predicted crash (warn mode; strict mode acts in `transform`), then
        leave the dry run running beside the cell (started with the analysis, or now)."""
        source = getattr(info, "raw_cell", "") or ""
        self._in_cell = True
        self._cell = (source.rstrip("\n"), time.perf_counter())
        _prefault.release()  # the last cell's child, if no idle fork has learned from it
        if self.mode == "off":
            self._drop_standby()
            return
        verdict, stopped = self._safe_predict(source)
        if self.mode == "warn":
            if stopped == "interrupted":
                _note("crashpredict: analysis interrupted; the cell runs unchecked "
                      "(interrupt again to stop it)")
            elif verdict is not None:
                _show_warning(verdict)
        self._started = None
        if self._handed:
            return  # the standby child had the cell: answered, or running (see _hand_over)
        if (verdict is not None or stopped is not None) and self.dryrun and \
                _worth_a_dry_run(source):
            self.last_dry_run = _rules_first(stopped)
        if verdict is None and stopped is None and self.dryrun and \
                _worth_a_dry_run(source):
            why, refusal, likely_long = self._cold_child(source)
            if refusal is not None:  # said now, once, as a fork would have said it
                self._note_refusal(refusal)
                return
            if why is not None:
                self.last_dry_run = why
                return
            try:
                self._start_cold(source, likely_long)
            except BaseException as exc:  # noqa: BLE001 - the cell must run whatever happens
                self.last_dry_run = f"not started: {type(exc).__name__}: {exc}"[:200]

    def _cold_child(self, source: str) -> tuple[str | None, str | None, bool]:
        """With no child ready for this cell: (why none is forked as it starts, what `status`
        says; or None when one is), the fork's refusal, and whether the cell loops or fits
        (the copy watch's larger floor). Kept for the cell: asked before the rules run (their
        trials get a few milliseconds only where a dry run follows) and as the cell starts."""
        key = source.rstrip("\n")
        if self._cold is not None and self._cold[0] == key:
            return self._cold[1]
        took = self._took.get(key)
        if took is not None and took < BESIDE_WORTH_S:
            # as a ready child steps back for it (`_safe_predict`): its crash would come
            # about when a child forked now could answer, and the fork and the pages the
            # cell writes beside it would cost it (a 0.3 s matmul loop: +25-40%)
            answer: tuple[str | None, str | None, bool] = (
                f"not run: no child was ready for this cell (it came right after the last "
                f"one), and it took {took:.2f} s last time: a child forked now would not get "
                f"ahead", None, False)
        elif _likely_long(source, self.shell.user_ns):
            answer = (None, None, True)
        else:
            # a cell with no loop or fit to cut short: a child forked now runs its code at
            # its speed, so it gets ahead only of an error that is slow to show (IPython
            # takes 0.1-1 s to format a traceback), while the fork and the pages the cell
            # writes beside it cost the cell; worth that where forks are cheap, and a
            # refusal (strict mode) could only interrupt the traceback: warn mode only
            refusal, cost = fork_refusal(), fork_cost()
            answer = (None, refusal, False)
            if refusal is None and (self.mode != "warn" or (
                    cost is not None and cost > COLD_FORK_MOST_S)):
                why = ("strict mode could only interrupt its traceback" if
                       self.mode != "warn" else
                       f"a fork of this kernel takes {cost * 1000:.0f} ms, more than the "
                       f"{COLD_FORK_MOST_S * 1000:.0f} ms a cell with no loop or fit to cut "
                       f"short may pay for one")
                answer = ("not run: no child was ready for this cell (it came right after the "
                          "last one, or the state changed), and one forked now would answer "
                          f"after it: {why}", None, False)
        self._cold = (key, answer)
        return answer

    def post_run_cell(self, result: Any = None) -> None:
        """A cell ran: its dry run ends, the next cell is analysed afresh, and a standby
        child is forked from the state the cell left, ready for the next cell."""
        if self._cell is not None:  # how long the cell took, for its next run
            key, began = self._cell
            self._took.pop(key, None)
            self._took[key] = time.perf_counter() - began
            while len(self._took) > 1000:
                self._took.pop(next(iter(self._took)))
            self._cell = None
        self._memo = self._cold = None
        self._started = None
        self._handed = False
        with self._lock:
            beside, self._beside = self._beside, None
            stepped, self._stepped_back = self._stepped_back, None
            self._interrupt_with = None
            in_flight = self._signal_sent  # our interrupt, not yet handled: keep the
        if beside is not None:              # handler that swallows it
            self._ending = beside
            running = beside.running  # before the cancel, which ends its wait at once
            beside.cancel(witness=True)
            if running:
                self.last_dry_run = (f"ended with the cell after "
                                     f"{time.perf_counter() - beside.started:.1f} s, "
                                     f"before it answered")
            elif beside.result is not None:  # it answered as the cell ended: said here, as
                # its waiting thread does not call back once the cell has ended
                self.last_dry_run = _describe(beside.result, beside.result.elapsed_s)
        if stepped is not None:
            self._ended_stepped = stepped
            stepped.cancel(witness=True)
        if not in_flight:
            self._restore_sigint()
        self._drop_standby()
        if self.mode != "off" and self.dryrun:
            self._schedule_standby()  # which reaps the children killed meanwhile first
        else:
            LATER.flush()

    def post_execute(self) -> None:
        """Any execution ended, silent ones included (a variable inspector's; IPython sends
        them no pre_run_cell or post_run_cell): a dry run that strict mode's transform
        started for it ends, and a standby child is made ready again."""
        if self._in_cell:  # a cell's own: post_run_cell follows
            self._in_cell = False
            return
        started, self._started = self._started, None
        if started is None:
            return
        self._memo = self._cold = None
        started.cancel()
        with self._lock:
            if self._beside is started:
                self._beside = None
        if self._standby is None and self.mode != "off" and self.dryrun:
            self._schedule_standby()

    def _prepare_standby(self) -> None:
        try:
            standby: Standby | DryRun = prepare_standby(self.shell.user_ns,
                                                        budget_s=self.budget_s, reap=False,
                                                        copy_ahead=True)
        except BaseException as exc:  # noqa: BLE001 - never raise in the user's kernel
            standby = DryRun(outcome="inconclusive", reason=f"{type(exc).__name__}: {exc}"[:200])
        self._standby = standby

    def _schedule_standby(self) -> None:
        """Fork the standby child from a thread once the kernel has been idle for
        `STANDBY_AFTER_S` (the cell's reply has gone): the fork (milliseconds, more with a
        large kernel) costs no cell any time. A cell that starts sooner (Run All) cancels
        it and takes the cold path."""
        ticket = object()

        def fork_when_idle() -> None:
            time.sleep(max(0.0, due - time.perf_counter()))
            standby = None
            with self._standby_lock:
                if self._timer is ticket and self._standby is None:
                    self._prepare_standby()
                    standby = self._standby
                if self._timer is ticket:
                    self._timer = None
            if standby is None:
                return
            LATER.run()  # the children killed meanwhile are reaped, as the child copies
            if isinstance(standby, Standby):  # outside the lock: a cell may take it now
                standby.copy_ahead()
                self.copied_ahead = standby

        due = time.perf_counter() + STANDBY_AFTER_S
        with self._standby_lock:
            self._timer = ticket
        CHORES.submit(fork_when_idle)

    def _take_standby(self) -> Standby | DryRun | None:
        """The standby child for the cell starting now (a pending fork is cancelled)."""
        with self._standby_lock:
            self._timer = None  # a fork not yet made will not be
            standby, self._standby = self._standby, None
        return standby

    def _drop_standby(self, wait: bool = False) -> None:
        standby = self._take_standby()
        if isinstance(standby, Standby):
            self._discarded = standby
            standby.discard(wait)

    def settle(self, timeout: float = 5.0) -> None:
        """Wait until the last cell's dry run is gone (killed and reaped)."""
        for ending in (self._ending, self._discarded, self._ended_stepped, self._stepped_back):
            if ending is not None:
                ending.settle(timeout)

    # -- the dry run beside the cell ---------------------------------------------------
    def _note_refusal(self, reason: str) -> None:
        self.last_dry_run = f"not run: {reason}"
        if reason not in self._noted:
            self._noted.add(reason)
            _note(f"crashpredict: no dry run in this session: {reason} "
                  f"(the rules still check each cell; said once)")

    def _start_cold(self, source: str, likely_long: bool) -> None:
        """No standby child fit this cell: fork now; the child runs beside the real cell
        (paced as a standby's: on the CPUs the cell leaves idle), with no head start.
        ``likely_long``: the cell loops or fits (the copy watch's larger floor, as for a
        standby child's)."""
        header = _parent_header(self.shell)
        holder: list[Beside] = []
        ready = threading.Event()

        def on_result(dry: Any) -> None:
            ready.wait(5.0)  # the child may answer before dry_run_beside has returned
            self._on_dry_run(holder[0] if holder else None, dry, header)

        if self.mode == "strict":
            self._install_sigint()
        try:
            beside = dry_run_beside(source, self.shell.user_ns, on_result=on_result,
                                    budget_s=self.budget_s, likely_long=likely_long,
                                    raised=self._showing_error)
            holder.append(beside)
            with self._lock:
                self._beside = beside if beside.running else None
        finally:
            ready.set()
        if not beside.running:  # refused (CUDA, a GUI loop, no namespaces)
            result = beside.result
            if result is not None and result.outcome == "inconclusive":
                self._note_refusal(result.reason)

    def _on_dry_run(self, beside: Beside | None, dry: Any,
                    header: dict[str, Any] | None) -> None:
        """In the waiting thread: the child's report is in (the cell may still run)."""
        rules = self.last if self.last is not None else Verdict(crash=False, confidence=0.0)
        with self._lock:
            current = beside is not None and self._beside is beside
            if not current:  # a child that stepped back, or a cell that has ended (said then)
                return
            after = time.perf_counter() - beside.started
            self.last_dry_run = _describe(dry, after)
            if dry.outcome != "crashed":
                return
            cell = self._cell  # this cell's source (None until pre_run_cell: then unread)
            verdict = combine_with_rules(rules, dry, cell[0] if cell is not None else "")
            if verdict.crash is not True:
                return  # a crash that the cut (or shrinking) may have caused
            self.last = verdict
            ahead = dataclasses.replace(verdict, explanation=(
                f"{verdict.explanation} [seen by a dry run beside this cell "
                f"{after:.1f} s after it started; the cell is still running]"))
            _show_warning(ahead, header)
            if self.mode == "strict":
                where = f" at line {verdict.line}" if verdict.line else ""
                self._interrupt_with = (
                    f"crashpredict (strict) interrupted this cell after {after:.1f} s: a dry run "
                    f"beside it raised {verdict.exception}{where}\n{verdict.explanation}\n"
                    f"(run `%crashpredict on` to let such cells run)")
                if self._sigint is not None:
                    self._signal_sent = True
                    try:
                        os.kill(os.getpid(), signal.SIGINT)  # as Kernel > Interrupt does
                    except OSError:
                        self._signal_sent = False

    @property
    def _showing_codes(self) -> frozenset[Any]:
        """The code of the shell's methods that show a cell's error, found once."""
        if self._traceback_codes is None:
            self._traceback_codes = _traceback_codes(self.shell)
        return self._traceback_codes

    def _showing_error(self) -> bool:
        """Whether the kernel's main thread is showing an error its cell raised (asked from
        the dry run's thread: the cell's own work is over, the copies it makes now only
        delay that traceback)."""
        frame = sys._current_frames().get(threading.main_thread().ident or -1)
        return _within(frame, self._showing_codes)

    def _install_sigint(self) -> None:
        """Strict mode: an interrupt sent by the dry run's thread raises `CellRefused` with
        the diagnosis; any other interrupt is the user's (KeyboardInterrupt as ever)."""
        if threading.current_thread() is not threading.main_thread() or self._sigint is not None:
            return
        previous = signal.getsignal(signal.SIGINT)
        showing = self._showing_codes

        def handler(signum: int, frame: Any) -> None:
            if self._signal_sent:  # ours: the diagnosis, or nothing when the cell ended
                self._signal_sent = False
                message, self._interrupt_with = self._interrupt_with, None
                if message is not None and not _within(frame, showing):
                    raise CellRefused(message)
                return  # the cell has raised already and IPython shows its traceback
                # (0.1-2 s through pandas' sources): the warning is out, the error is real
            if callable(previous):
                previous(signum, frame)
            else:
                raise KeyboardInterrupt

        try:
            signal.signal(signal.SIGINT, handler)
        except (ValueError, OSError):
            return
        self._sigint = (previous,)

    def _restore_sigint(self) -> None:
        if self._sigint is None:
            return
        (previous,), self._sigint = self._sigint, None
        try:
            signal.signal(signal.SIGINT, previous)
        except (ValueError, OSError, TypeError):
            pass

    def transform(self, lines: list[str]) -> list[str]:
        """Strict mode: replace a cell predicted to crash with a refusal."""
        if self.mode != "strict":
            return lines
        verdict, stopped = self._safe_predict("".join(lines))
        if stopped == "interrupted":
            message = ("crashpredict (strict) was interrupted while analysing this cell; the "
                       "cell did not run")
        elif verdict is None:
            return lines
        else:
            where = f" at line {verdict.line}" if verdict.line else ""
            message = (f"crashpredict (strict) refused to run this cell: {verdict.exception} "
                       f"predicted{where}\n{verdict.explanation}\n"
                       f"(run `%crashpredict on` to run it anyway)")
        key = len(self.refused)
        self.refused[key] = message
        return [f"__import__('crashpredict._extension', fromlist=['refuse']).refuse({key})\n"]

    # -- magic ---------------------------------------------------------------------------
    def magic(self, line: str) -> None:
        """%crashpredict [on|warn|strict|off|status] | dryrun on [--budget S] | dryrun off"""
        words = line.strip().split()
        word = words[0].lower() if words else "status"
        if word == "on":
            word = "warn"
        if word in _MODES and len(words) <= 1:
            self.mode = word
            print(f"crashpredict: {word}")
        elif word == "status" and len(words) <= 1:
            print(f"crashpredict: {self.status()}")
        elif word == "dryrun":
            self._dryrun_magic(words[1:])
        else:
            print(f"crashpredict: unknown mode {line.strip()!r}; use on, strict, off, status, "
                  f"or dryrun on [--budget S] | dryrun off", file=sys.stderr)

    def _dryrun_magic(self, words: list[str]) -> None:
        usage = "crashpredict: use %crashpredict dryrun on [--budget SECONDS] | dryrun off"
        if self.mode == "off" and words[:1] == ["on"]:
            self.mode = "warn"
        if words[:1] == ["off"] and len(words) == 1:
            self.dryrun = False
        elif words[:1] == ["on"] and len(words) in (1, 3):
            if len(words) == 3:
                try:
                    budget = float(words[2]) if words[1] == "--budget" else None
                except ValueError:
                    budget = None
                if budget is None or not 0 < budget <= 600:
                    print(f"{usage} (a budget between 0 and 600 s)", file=sys.stderr)
                    return
                self.budget_s = budget
            self.dryrun = True
        else:
            print(usage, file=sys.stderr)
            return
        print(f"crashpredict: {self.status()}")

    def status(self) -> str:
        engines = (f"rules + dry run beside each cell (at most {self.budget_s:g} s)"
                   if self.dryrun else "rules")
        text = f"{self.mode}; engines: {engines}; last dry run: {self.last_dry_run}"
        ahead = self.copied_ahead
        if self.dryrun and ahead is not None:
            shared = ahead.shared_bytes
            if ahead.copy_counted:
                text += (f"; copied ahead while idle: {ahead.copied / 2**20:.0f} of "
                         f"{shared / 2**20:.0f} MB in {ahead.copy_s:.2f} s"
                         + (", cut short by the next cell" if ahead.copy_cut else ""))
            else:
                text += (f"; copied ahead while idle: part of {shared / 2**20:.0f} MB, cut "
                         f"short by the next cell after {ahead.copy_s:.2f} s")
        return text


def _note(text: str) -> None:
    try:
        print(text, file=sys.stderr, flush=True)
    except Exception:
        pass


def _worth_a_dry_run(source: str) -> bool:
    text = source.strip()
    return bool(text) and not text.startswith(_SKIP_PREFIXES) and not _SKIP_CALL.match(text)


def _likely_long(source: str, namespace: Any) -> bool:
    """Whether the cell loops or fits (the dry run fast-forwards it): likely a long one.
    A cell that only works through the rows of big data (an ``apply`` of a function) is
    not: at the larger copy floor a 0.2 s ``apply`` took 2.6 times as long (measured)."""
    try:
        code = compile_cell(source, "<cell>")
        return loop_tree(source, code, namespace) is not None
    except BaseException:  # noqa: BLE001 - a cell that does not compile: the real run says so
        return False


def _parent_header(shell: Any) -> dict[str, Any] | None:
    """The header of the request the running cell answers (ipykernel), else None."""
    try:
        header = getattr(getattr(shell, "display_pub", None), "parent_header", None)
        return dict(header) if header else None
    except Exception:
        return None


def _rules_first(stopped: str | None) -> str:
    """What `status` says of a cell the rules answered before any dry run could."""
    if stopped is None:
        return "not run: the rules predicted this cell's crash first"
    return f"not run: the rules' analysis was stopped ({stopped})"


def _describe(dry: Any, after: float) -> str:
    if dry.outcome == "crashed":
        where = f" at line {dry.line}" if dry.line else ""
        cut = " (fast-forwarded)" if dry.cuts else ""
        if dry.shrunk:
            cut += f" on the first rows of {', '.join(dry.shrunk_names)}"
        said = f"raised {dry.exception}{where} after {after:.1f} s{cut}"
        if dry.found_by_rules:
            said = (f"found {dry.exception}{where} after {after:.1f} s: the rules' trials on "
                    f"the live values, in a dry run")
        if dryrun_verdict(dry).crash is True:
            return said
        cause = ("a fit cut to fewer iterations" if dry.cut_only_library else
                 "a loop cut short" if dry.cut_before_crash else "the rows cut")
        return f"{said}, not warned about: {cause} may have caused it"
    if dry.outcome == "completed":
        cut = f", with {len(dry.cuts)} loop(s) cut short" if dry.cuts else ""
        return f"ran to its end in {after:.1f} s{cut}"
    return f"inconclusive after {after:.1f} s: {dry.reason}"[:300]


def _show_warning(verdict: Verdict, header: dict[str, Any] | None = None) -> None:
    """A display output (HTML and text) in the cell's output area: before the cell runs,
    or (``header``: from the dry run's thread) while it runs, in that cell's output."""
    data = {"text/plain": warning_text(verdict), "text/html": warning_html(verdict)}
    try:
        from IPython.display import display
        publisher = getattr(sys.modules.get("IPython").get_ipython(), "display_pub", None)
        token = None
        if header is not None and hasattr(publisher, "set_thread_parent"):
            token = publisher.set_thread_parent({"header": header})
        try:
            display(data, raw=True)
        finally:
            if token is not None:
                publisher.reset_thread_parent(token)
    except Exception:
        _note(warning_text(verdict))


_GUARD: Guard | None = None


def refuse(key: int) -> None:
    """Raise `CellRefused` with the diagnosis of a refused cell."""
    message = _GUARD.refused.pop(key, None) if _GUARD is not None else None
    # raised from here, shown without frames (CellRefused._render_traceback_)
    raise CellRefused(message or "crashpredict refused to run this cell")


def load_ipython_extension(ipython: Any) -> None:
    """Register the hooks and the ``%crashpredict`` magic on an IPython shell."""
    global _GUARD
    if _GUARD is not None and _GUARD.shell is ipython:
        return
    guard = Guard(ipython)
    ipython.events.register("pre_run_cell", guard.pre_run_cell)
    ipython.events.register("post_run_cell", guard.post_run_cell)
    ipython.events.register("post_execute", guard.post_execute)
    ipython.input_transformers_post.append(guard.transform)
    ipython.register_magic_function(guard.magic, magic_kind="line", magic_name="crashpredict")
    _GUARD = guard
    _warm_up()


def _warm_up() -> None:
    """Import what the rules use (the engine, nbdeps, rtextract: about 0.1-0.3 s, once per
    process) and find the interpreter's fork hooks (a scan of every object, some 25 ms) now,
    so that the first cell after ``%load_ext`` does not wait for them."""
    try:
        predict("_ = 0\n", {}, engines=("rules",), options={
            "rules": {"trial_budget_s": RULES_TRIALS_ALONE_S}})
        _jail.fork_hooks_found()
    except BaseException:  # noqa: BLE001 - never raise in the user's kernel
        pass


def unload_ipython_extension(ipython: Any) -> None:
    """Remove the hooks (the magic stays registered but the guard is gone)."""
    global _GUARD
    guard = _GUARD
    if guard is None:
        return
    guard.mode = "off"
    guard.post_run_cell()  # a dry run still going ends now, and no standby follows
    guard._drop_standby(wait=True)
    _prefault.release()
    LATER.flush()
    guard.settle(5.0)
    for event in ("pre_run_cell", "post_run_cell", "post_execute"):
        try:
            ipython.events.unregister(event, getattr(guard, event))
        except ValueError:
            pass
    if guard.transform in ipython.input_transformers_post:
        ipython.input_transformers_post.remove(guard.transform)
    guard.mode = "off"
    _GUARD = None
