"""The shrunk sibling of a dry run beside the cell: the cell on the data's first rows.

A standby child (`_child.run_standby`) runs the whole cell beside the real one, at the
real run's speed at best: a cell that works a minute through a big frame before it fails
on a name, an attribute or a column answers a minute in, no sooner than the real run
fails. So when the cell works through rows (a loop, a fit, an ``apply``: `_ROW_WORK`) and
reads a DataFrame, Series, array or tensor of more than `MIN_ROWS` rows, the child forks
one process as the cell arrives (before it stacks the
filter that refuses new processes, `_confine.no_new_processes`; no code of the cell has
run), a sibling of the whole run, which waits. If the whole run has not answered
`AFTER_S` in, the sibling goes: it cuts what the cell reads to its first `ROWS` rows
(and the rows past them with a NaN, an inf, a label or a text shape the head lacks,
`_shrink`), runs the
cell fast-forwarded, and reports only a crash the cut cannot have caused (`counts`). The
child forwards that report as its own and stops; the whole run stops with it. A clean or
doubtful run on the first rows says nothing: the whole run goes on, and the rules run
with their trials of the cell's library calls on the whole data, in a fork the sibling
made as it went (`_RulesLater`, `rules_on_the_whole`: the kernel's rules run with a few
milliseconds of trials at most, before the cell); a certain crash of theirs is reported.

Isolation: the sibling is in the child's jail (namespaces, the copy-on-write root, the
Python layer, seccomp, Landlock) and adds its own layers: no new process, and no file
written at all (an audit hook blocks every write, which makes its run inconclusive, and a
Landlock layer refuses the writes of C code), since it shares the file system's copy with
the whole run. Its report goes to a pipe of the child's, a probe it asks gets no answer
(and the child drops its report then), and it ends when the child closes its control
pipe, when it has used `CPU_S` of CPU, or with the child (a signal the child's death
sends it; the PID namespace ends with its first process too).
"""

from __future__ import annotations

import ast
import json
import os
import re
import resource
import select
import signal
import sys
import threading
import time
import types
from collections.abc import Callable, Mapping
from typing import Any

from nbdeps import ipython_to_python

from .._model import crash_type_of
from . import _confine, _fastforward, _jail, _sandbox
from ._kinds import _JSON_WORDS, cut_doubtful, shrinking_cannot_cause, takes_a_part
from ._shrink import _rows, shrink_namespace

__all__ = ["AFTER_S", "MIN_ROWS", "ROWS", "Sibling", "counts", "fork", "rules_on_the_whole"]

#: The sibling is forked only for a cell that reads an object longer than this: on fewer
#: rows the whole run is about as quick.
MIN_ROWS = 2_000
#: The rows the sibling keeps of each object the cell reads (as the replay's retry).
ROWS = 500
#: The sibling goes when the whole run has not answered this long after the cell came.
AFTER_S = 0.5
#: CPU seconds the sibling may use; the kernel ends it then (``RLIMIT_CPU``).
CPU_S = 20
#: The sibling's own budget, from its start.
BUDGET_S = 60.0
#: The sibling runs at the whole run's priority for this many CPU seconds of its own; then
#: it steps back to `STEP_BACK_NICE` (`_step_back`), and so does the rules' process it lets
#: go (at once if the sibling has stepped back, else after as much CPU of its own). On
#: the first rows a crash that counts comes within it, as a rule (0.1-0.2 s); what
#: takes longer there is what costs the whole run as much (an import, a model's build, a
#: graph traced: torch's first optimizer imports its compiler, 2.3 s), and the two share
#: the one CPU the cell leaves idle: the whole run took twice its time beside it.
SHARE_CPU_S = 0.3
#: A process at this niceness gets the CPU a process at 0 leaves idle (1.5% beside one
#: that needs it all): the whole run's once it has answered or waits for this one.
STEP_BACK_NICE = 19
#: The rules' trials on the whole data, in the sibling's fork (`rules_on_the_whole`)...
RULES_TRIALS_S = 2.0
#: ...and the least confidence of a rule's crash that the sibling reports.
RULES_CERTAIN = 0.9
_MAX_REPORT = 1 << 20
_LOADERS = ("torch.utils.data", "tensorflow.python.data")
_NAME_ERRORS = ("NameError", "UnboundLocalError")
#: A value error counts when it names a value the rows kept hold (a NaN, an inf, a text
#: that is no number, no date of the format or no JSON), not a label the first rows may
#: lack (an encoder fit on them).
_DATA_VALUE = re.compile(r"\bnan\b|infinity|non-finite|could not convert|invalid literal|"
                         r"match format|unknown string format|" +
                         "|".join(map(re.escape, _JSON_WORDS)))
#: ...of them, those about a missing value, which a join of two tables cut may make.
_MISSING = re.compile(r"\bnan\b|infinity|non-finite")
#: Calls that match rows of one table with another's (by key, label or position).
_JOINERS = frozenset({"merge", "merge_asof", "join", "concat", "reindex", "align", "map",
                      "combine_first", "update", "hstack", "column_stack", "DataFrame"})
_QUOTED = re.compile(r"'([^']*)'|\"([^\"]*)\"")


#: Calls that work through every row (or fit on all of them): a cell with none of them and
#: no loop is answered by the whole run as soon as its sibling would be.
_ROW_WORK = frozenset({"fit", "fit_transform", "fit_predict", "partial_fit", "fit_resample",
                       "apply", "applymap", "map", "transform", "agg", "aggregate", "pipe",
                       "iterrows", "itertuples", "train", "train_on_batch", "cross_val_score",
                       "cross_validate", "cross_val_predict", "learning_curve",
                       "validation_curve", "permutation_importance", "vectorize"})


#: ...unless given only the names of built-in reductions (``agg(['mean', 'std'])``),
#: which pandas runs over whole columns at once.
_BY_NAME = frozenset({"agg", "aggregate", "transform"})


def _arguments(call: ast.Call) -> list[ast.expr]:
    return [*call.args, *(k.value for k in call.keywords)]


def _named(node: ast.expr) -> bool:
    """A string, or a list, tuple or dict of strings (and column names to them)."""
    if isinstance(node, ast.Constant):
        return isinstance(node.value, str)
    if isinstance(node, (ast.List, ast.Tuple, ast.Set)):
        return all(_named(e) for e in node.elts)
    if isinstance(node, ast.Dict):
        return all(k is not None and _named(k) and _named(v) for k, v in
                   zip(node.keys, node.values))
    return False


def _works_through_rows(source: str, namespace: Mapping[str, Any]) -> bool:
    """Whether the cell, read as text, loops (a comprehension too), calls one of
    `_ROW_WORK`, or calls a function of the notebook's (its loops are not read here). Read
    from the syntax alone, without any code of the user's: a cell that does none of it
    (``df.head()``, ``big *= 2``) gets no sibling, and does not pay for its fork in the
    head start (where the kernel waits for the whole run's answer)."""
    try:
        tree = ast.parse(ipython_to_python(source))
    except SyntaxError:
        return False
    for node in ast.walk(tree):
        if isinstance(node, (ast.For, ast.AsyncFor, ast.While, ast.ListComp, ast.SetComp,
                             ast.DictComp, ast.GeneratorExp)):
            return True
        if isinstance(node, ast.Call):
            func = node.func
            if isinstance(func, ast.Attribute) and func.attr in _ROW_WORK and not (
                    func.attr in _BY_NAME and all(_named(a) for a in _arguments(node))):
                return True
            if isinstance(func, ast.Name) and (func.id in _ROW_WORK or type(
                    namespace.get(func.id)) is types.FunctionType):
                return True
    return False


def _big_reads(code: Any, namespace: Mapping[str, Any]) -> tuple[str, ...]:
    """The names the cell reads that hold a frame, series, array or tensor, when one of
    them is longer than `MIN_ROWS`; else (). Loaders are left whole: a cut one is another
    class (a ``Subset``, a ``TakeDataset``) without the attributes of the first."""
    found: list[tuple[str, int]] = []
    for name in _fastforward.names_read(code, namespace):
        if name.startswith("_") or name not in namespace:
            continue
        value = namespace[name]
        if type(value).__module__.startswith(_LOADERS):
            continue  # told by its class alone: nothing of the cell's runs before it is
            # refused new processes (`_confine.no_new_processes`), not even a __len__
        try:
            rows = _rows(value)
        except Exception:  # noqa: BLE001 - a strange object is left whole
            continue
        if rows is not None:
            found.append((name, rows))
    if not any(rows > MIN_ROWS for _, rows in found):
        return ()
    return tuple(name for name, _ in found)


def _fork(policy: Any) -> int:
    """``os.fork()`` with the sandbox's leave (``policy.forking``); -1 where it failed."""
    policy.forking = True
    try:
        return os.fork()
    except OSError:
        return -1
    finally:
        policy.forking = False


class Sibling:
    """The child's handle on its sibling: let it go (`start`), end it (`close`)."""

    def __init__(self, pid: int, control: int, reports: int,
                 report: Callable[[int, bytes], bool]) -> None:
        self.pid, self._report = pid, report
        self._control, self._reports = control, reports
        self._closed = threading.Event()
        self._go = threading.Event()  # go now, not `AFTER_S` in
        self._done = threading.Event()  # the forwarder has ended
        self._lock = threading.Lock()

    def start(self, write_fd: int) -> None:
        """Forward the sibling's crash, if it reports one, from a thread of the child."""
        threading.Thread(target=self._forward, args=(write_fd,), name="crashpredict-sibling",
                         daemon=True).start()

    def settle_doubt(self, timeout: float) -> None:
        """The whole run ended in a crash its cut may have caused (`_kinds.cut_doubtful`):
        let the sibling go now if it has not, and wait (at most ``timeout`` seconds) for
        its answer, which the forwarder reports first when it counts. On the first rows a
        loop over rows is short enough to run whole, and the rows past the head kept for
        their values (`_shrink.salient_rows`) are in it: a parse that fails only on later
        rows fails there, where the cut run stopped early on the cut's own error."""
        self._go.set()
        self._done.wait(max(0.0, timeout))

    def close(self) -> None:
        """End the sibling (it reads the end of its control pipe), once."""
        with self._lock:
            if self._closed.is_set():
                return
            self._closed.set()
            self._go.set()  # a forwarder still waiting to let it go returns at once
            try:
                os.close(self._control)
            except OSError:
                pass

    def _forward(self, write_fd: int) -> None:
        try:
            self._forward_report(write_fd)
        finally:
            self._done.set()

    def _forward_report(self, write_fd: int) -> None:
        self._go.wait(AFTER_S)
        if self._closed.is_set():
            os.close(self._reports)
            return
        with self._lock:  # never after `close`: the number may name another file by then
            try:
                if not self._closed.is_set():
                    _continue_if_stopped(self.pid)
                    os.write(self._control, b"g")
            except OSError:
                pass
        data = bytearray()
        try:
            while not self._closed.is_set() and len(data) <= _MAX_REPORT:
                ready, _, _ = select.select([self._reports], [], [], 0.1)
                if not ready:
                    continue
                chunk = os.read(self._reports, 1 << 16)
                if not chunk:
                    break
                data += chunk
        except OSError:
            return
        finally:
            os.close(self._reports)
        report = _crash_report(bytes(data))
        if report is not None and not self._closed.is_set() and self._report(write_fd, report):
            self.close()
            # reported: stopped, as the whole run stops after its own report
            os.kill(os.getpid(), signal.SIGSTOP)


def _continue_if_stopped(pid: int) -> None:
    """Continue the sibling when it is stopped while this process runs.

    The kernel's pacer stops and continues the child's process group (``SIGSTOP``,
    ``SIGCONT``). Signals sent to a group while one of its processes forks reach the new
    process once it exists, both of them, and there the stop wins whatever their order: a
    sibling forked while the pacer held and then let go of the group is born stopped, and
    the pacer, which sends ``SIGCONT`` only when it lets a held group go, never continues
    it. This runs only while the child runs, so the group is not held: ``SIGCONT`` to it
    (the only target the filter allows besides itself, `_confine.seccomp_program`) undoes
    no hold of the pacer's."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as fh:
            state = fh.read().rpartition(b")")[2].split()[0]
    except (OSError, IndexError):
        state = b"T"  # cannot tell: a needless SIGCONT to a running group does nothing
    if state in (b"T", b"t"):
        try:
            os.kill(0, signal.SIGCONT)
        except OSError:
            pass


def _crash_report(data: bytes) -> bytes | None:
    """The sibling's report line when it is a crash; None otherwise, or after a probe
    (the sibling got no answer: what followed is not the real run's)."""
    data = data.lstrip(b"AR")
    if not data or data[:1] == b"Q" or len(data) > _MAX_REPORT:
        return None
    try:
        fields = json.loads(data)
    except (ValueError, RecursionError):
        return None
    if not isinstance(fields, dict) or fields.get("outcome") != "crashed":
        return None
    return data if data.endswith(b"\n") else data + b"\n"


def fork(prepared: tuple[Any, Any, list[str]], source: str, code: Any,
         namespace: dict[str, Any], *, write_fd: int, answer_fd: int, cell_fd: int,
         filename: str, rng_state: Any, cut_after_s: float,
         child: tuple[Callable[..., dict[str, Any]], Callable[[int, Any], bool],
                      Callable[[Any], None]]) -> Sibling | None:
    """In the standby child, once its cell is in: fork the sibling when the cell reads
    big data and the child is the jail's (pid 2 of its PID namespace, `_child.jailed`) with
    seccomp and Landlock active. ``child``: the child's own steps (`_child._run_prepared`,
    `_child._report`, `_child._after_confined`), which the sibling takes too.
    Returns its handle, or None. The sibling itself never returns from here."""
    layers = prepared[2]
    if os.getpid() != 2 or "seccomp" not in layers or "landlock" not in layers:
        return None
    try:
        names = _big_reads(code, namespace) if _works_through_rows(source, namespace) else ()
    except Exception:  # noqa: BLE001 - a namespace too strange to read: no sibling
        return None
    if not names:
        return None
    control_r, control_w = os.pipe()
    reports_r, reports_w = os.pipe()
    pid = _fork(prepared[1])
    if pid == 0:
        try:
            os.close(control_w)
            os.close(reports_r)
            _run(prepared, source, code, namespace, names, control=control_r,
                 reports=reports_w, write_fd=write_fd, answer_fd=answer_fd, cell_fd=cell_fd,
                 filename=filename, rng_state=rng_state, cut_after_s=cut_after_s,
                 child=child)
        except BaseException:  # noqa: BLE001 - the sibling ends here, whatever happened
            pass
        os._exit(0)
    os.close(control_r)
    os.close(reports_w)
    if pid < 0:
        os.close(control_w)
        os.close(reports_r)
        return None
    return Sibling(pid, control_w, reports_r, child[1])


def _run(prepared: tuple[Any, Any, list[str]], source: str, code: Any,
         namespace: dict[str, Any], names: tuple[str, ...], *, control: int, reports: int,
         write_fd: int, answer_fd: int, cell_fd: int, filename: str, rng_state: Any,
         cut_after_s: float, child: tuple[Any, Any, Any]) -> None:
    """The sibling's body: wait for the child's go, confine, cut, run, report a crash."""
    os.dup2(reports, write_fd)  # what it reports (and the watchdog) goes to the child
    os.close(reports)
    null = os.open(os.devnull, os.O_RDONLY)
    if answer_fd >= 0:
        os.dup2(null, answer_fd)  # a probe reads no answer
    os.close(null)
    try:
        os.close(cell_fd)
    except OSError:
        pass
    _jail.die_with_parent()
    resource.setrlimit(resource.RLIMIT_CPU, (CPU_S, CPU_S + 1))
    if os.read(control, 1) != b"g":
        return  # the whole run answered first, or the child is gone
    # the rules' process, waiting: forked now, before this one refuses new processes
    rules = _RulesLater.fork(prepared, source, namespace, control=control,
                             write_fd=write_fd, rng_state=rng_state, child=child)
    try:
        if _confine.no_new_processes() is not None or _confine.read_only_files() is not None:
            return
        run, report, after_confined = child
        _overlay, policy, _layers = prepared
        # the fork hooks first (confined): threading's re-initialises its locks, which a
        # thread of the kernel's may have held at the kernel's fork; a thread started
        # before them could wait on such a lock for ever. The audit hook that refuses
        # every write comes after them: a hook that writes (a log) fails at Landlock,
        # unseen, and taints nothing
        after_confined(rng_state)
        threading.Thread(target=_end_with_control, args=(control,), daemon=True).start()
        threading.Thread(target=_step_back, daemon=True).start()
        _sandbox.refuse_writes(policy)
        originals = {name: namespace[name] for name in names}
        cut = shrink_namespace(namespace, ROWS, only=names, salient=True)
        originals = {name: originals[name] for name in cut}
        if cut:
            tree = _fastforward.loop_tree(source, code, namespace)
            result = run(prepared, code, namespace, deadline=time.perf_counter() + BUDGET_S,
                         budget_s=BUDGET_S, filename=filename, fast_forward=tree, shrunk=cut,
                         write_fd=write_fd, cut_after_s=cut_after_s)
            if counts(result, source, originals):
                report(write_fd, result)
                return
        if rules is not None:  # the first rows said nothing: the rules on the whole data
            rules.go()
    finally:
        if rules is not None:
            rules.close()


class _RulesLater:
    """The sibling's own fork, made when the sibling goes: it holds the state before the
    cell, nothing cut, and waits. When the run on the first rows says nothing that counts,
    the sibling lets it go and waits for it: it runs the rules with their full trials on
    the whole data (`rules_on_the_whole`) and reports a certain crash of theirs. The run on
    the first rows comes first since it is the quicker as a rule (a second on 500 rows,
    where the rules' trials on a million-row frame's text columns take seconds, and find
    nothing there). It is confined as the sibling is, writes nothing, and dies with it."""

    def __init__(self, pid: int, go: int) -> None:
        self.pid, self._go = pid, go

    @classmethod
    def fork(cls, prepared: tuple[Any, Any, list[str]], source: str,
             namespace: dict[str, Any], *, control: int, write_fd: int, rng_state: Any,
             child: tuple[Any, Any, Any]) -> _RulesLater | None:
        go_r, go_w = os.pipe()
        pid = _fork(prepared[1])
        if pid == 0:
            try:
                os.close(go_w)
                _rules_later(prepared, source, namespace, go=go_r, control=control,
                             write_fd=write_fd, rng_state=rng_state, child=child)
            except BaseException:  # noqa: BLE001 - it ends here, whatever happened
                pass
            os._exit(0)
        os.close(go_r)
        if pid < 0:
            os.close(go_w)
            return None
        return cls(pid, go_w)

    def go(self) -> None:
        """Let it run, and wait until it has ended (its report is in the pipe by then)."""
        try:
            os.write(self._go, b"g")
        except OSError:
            pass
        self.close()

    def close(self) -> None:
        """Close its go pipe (one still waiting ends) and reap it, once."""
        if self._go >= 0:
            try:
                os.close(self._go)
            except OSError:
                pass
            self._go = -1
        if self.pid > 0:
            try:
                os.waitpid(self.pid, 0)
            except ChildProcessError:
                pass
            self.pid = 0


def _rules_later(prepared: tuple[Any, Any, list[str]], source: str,
                 namespace: dict[str, Any], *, go: int, control: int, write_fd: int,
                 rng_state: Any, child: tuple[Any, Any, Any]) -> None:
    """The body of `_RulesLater`'s process."""
    _jail.die_with_parent()
    if os.read(go, 1) != b"g":
        return  # the first rows answered, or the sibling is gone
    if _confine.no_new_processes() is not None or _confine.read_only_files() is not None:
        return
    _run, report, after_confined = child
    policy = prepared[1]
    after_confined(rng_state)
    threading.Thread(target=_end_with_control, args=(control,), daemon=True).start()
    try:
        stepped_back = os.getpriority(os.PRIO_PROCESS, os.getppid()) >= STEP_BACK_NICE
    except OSError:
        stepped_back = False
    threading.Thread(target=_step_back, args=(0.0 if stepped_back else None,),
                     daemon=True).start()
    _sandbox.refuse_writes(policy)
    found = rules_on_the_whole(source, namespace, policy)
    if found is not None:
        report(write_fd, found)


def rules_on_the_whole(source: str, namespace: dict[str, Any], policy: Any,
                       trials_s: float = RULES_TRIALS_S) -> dict[str, Any] | None:
    """The rule engine's certain crash, found with its trials (library calls on the live
    values, ``trials_s`` in all) on the whole data, as a crash report; else None.

    The kernel's rules run before the cell with a few milliseconds of trials at most (none
    when a ready child has the cell): the cell must not wait for them. Here, on a CPU
    the cell leaves idle and on the state before the cell (nothing cut), they have
    their full time: ``full['year'].astype(int)`` tried on the frame's column with a NaN
    in it, at the end of a cell that works four seconds through its rows first. A trial
    that tries a side effect (refused here: `_sandbox.refuse_writes`) makes the rules'
    answer count for nothing, and the refusal is not the sibling's own run's."""
    blocked = policy.blocked
    began = time.perf_counter()
    try:
        from .._rules import rules_engine

        verdict = rules_engine(source, namespace, trial_budget_s=trials_s)
    except BaseException:  # noqa: BLE001 - a refused side effect, or anything else: no answer
        policy.blocked = blocked
        return None
    if policy.blocked is not blocked:
        policy.blocked = blocked
        return None
    if verdict.crash is not True or verdict.confidence < RULES_CERTAIN or not verdict.exception:
        return None
    return {"outcome": "crashed", "exception": verdict.exception,
            "message": verdict.explanation, "line": verdict.line, "library": verdict.library,
            "found_by_rules": True, "rules_confidence": float(verdict.confidence),
            "elapsed_s": round(time.perf_counter() - began, 3)}


def _end_with_control(control: int) -> None:
    try:
        os.read(control, 1)
    except OSError:
        pass
    os._exit(0)


def _step_back(cpu_s: float | None = None, poll_s: float = 0.02) -> None:
    """Once this process has used ``cpu_s`` (by default `SHARE_CPU_S`) of CPU, set every
    thread of it to `STEP_BACK_NICE`; threads it starts later inherit that. (A thread's
    niceness is its own on Linux: each of ``/proc/self/task`` is set.) A thread of the
    sibling's; nothing it meets stops the process."""
    cpu_s = SHARE_CPU_S if cpu_s is None else cpu_s
    try:
        while time.process_time() < cpu_s:
            time.sleep(poll_s)
        for task in os.listdir("/proc/self/task"):
            try:
                os.setpriority(os.PRIO_PROCESS, int(task), STEP_BACK_NICE)
            except (OSError, ValueError):  # a thread just ended
                continue
    except Exception:  # noqa: BLE001 - no /proc, no setpriority: it keeps its priority
        return


def counts(result: Mapping[str, Any], source: str, originals: Mapping[str, Any]) -> bool:
    """Whether a run on the first rows raised what the whole data raises too.

    The replay's test (`shrinking_cannot_cause`, a cut loop's doubt) and, since this
    answer comes unasked beside a running cell, more: no value the first rows may leave
    unset (``None``), no columns or labels made from the rows' values (one-hot columns,
    an encoder's classes), no name the cell binds, and no key that is a label anywhere in
    the data cut. A ``.str`` or ``.dt`` accessor is not trusted either: pandas picks it by
    the values it sees (an object column of NaN in its first rows has none). Nor is a
    missing value where the cell joins two of the tables cut (``originals``: what was cut,
    before the cut): their first rows match fewer keys than the whole tables; nor a NaN or
    a text where the cell takes rows of a table cut by position (`_kinds.takes_a_part`). A
    text that is no JSON (``json.loads``) is one of the rows kept, as a text that is no
    number is."""
    if result.get("outcome") != "crashed" or result.get("blocked") or cut_doubtful(result):
        return False
    exception, message = result.get("exception"), str(result.get("message", ""))
    kind = crash_type_of(exception, message, result.get("library"))
    text = message.lower()
    if kind in ("value error", "data value violation"):
        if not _DATA_VALUE.search(text):
            return False
        if _MISSING.search(text) and len(originals) > 1 and _joins(source):
            return False  # two tables cut to their first rows match fewer rows: NaN
        if takes_a_part(source, originals, ROWS):
            return False  # the part may hold rows kept for their values; the whole's not
    elif not shrinking_cannot_cause(kind, message):
        return False
    if "nonetype" in text or "accessor" in text or kind == "feature name mismatch":
        return False
    quoted = [a or b for a, b in _QUOTED.findall(message)]
    if exception in _NAME_ERRORS:
        return bool(quoted) and quoted[0] not in _bound(source)
    if kind == "key error":
        return bool(quoted) and not any(_label_anywhere(key, originals) for key in quoted)
    return True


def _joins(source: str) -> bool:
    """Whether the cell calls one of `_JOINERS` (read from its text)."""
    try:
        tree = ast.parse(ipython_to_python(source))
    except SyntaxError:
        return True
    return any(isinstance(node, ast.Call) and (
        node.func.attr if isinstance(node.func, ast.Attribute) else
        node.func.id if isinstance(node.func, ast.Name) else "") in _JOINERS
        for node in ast.walk(tree))


def _bound(source: str) -> set[str]:
    """Every name the cell binds (a branch the first rows skip may leave it unbound)."""
    try:
        tree = ast.parse(ipython_to_python(source))
    except SyntaxError:
        return set()
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)):
            names.add(node.id)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            names.update((a.asname or a.name).partition(".")[0] for a in node.names)
        elif isinstance(node, ast.ExceptHandler) and node.name:
            names.add(node.name)
        elif isinstance(node, (ast.Global, ast.Nonlocal)):
            names.update(node.names)
    return names


def _label_anywhere(key: str, originals: Mapping[str, Any]) -> bool:
    """Whether ``key`` is a column, a row label or a text value of an object cut, or is
    made of such a value (a column the cell derives from the data's values)."""
    for value in originals.values():
        try:
            if _label_in(key, value):
                return True
        except Exception:  # noqa: BLE001 - cannot tell: it may be
            return True
    return False


#: A text column with at most this many distinct values is searched for values the key
#: is made of (``pd.get_dummies``'s ``city_west``, a pivot's ``sales_2023``).
_MOST_VALUES = 10_000


def _label_in(key: str, value: Any) -> bool:
    module = type(value).__module__
    if module.startswith("pandas"):
        frame = value.to_frame() if value.ndim == 1 else value
        if key in frame.columns or key in frame.index:
            return True
        for column in frame.columns:
            series = frame[column]
            if series.dtype.kind in "OSU" or str(series.dtype) in ("category", "string"):
                if _made_of(key, series.dropna().unique()):
                    return True
        return False
    if module.startswith("numpy") and value.dtype.kind in "OSU":
        return _made_of(key, sys.modules["numpy"].unique(value.ravel()))
    return False


def _made_of(key: str, values: Any) -> bool:
    """Whether ``key`` is one of ``values`` or, where they are few, holds one of them."""
    if len(values) > _MOST_VALUES:
        return any(str(v) == key for v in values)
    return any(text == key or (len(text) > 1 and text in key) for text in map(str, values))
