"""A real Jupyter kernel (jupyter_client) to replay cells in and predict inside."""

from __future__ import annotations

import ast
import functools
import json
import os
import queue
import shutil
import subprocess
import tempfile
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from types import TracebackType
from typing import Any

from ._engines import check_engines, step
from ._kernelside import expression
from ._model import CellRun, ReplayResult, Verdict
from ._workdir import WorkCopy, guard_expression
from .errors import KernelError

__all__ = ["KernelSession"]

_START_TIMEOUT = 120.0
_POLL = 0.2  # seconds between liveness checks while a cell runs
#: characters of a cell's stdout kept; the rest is dropped so a flood cannot exhaust memory
MAX_OUTPUT = 1_000_000


class KernelSession:
    """A context manager over a real kernel started in ``cwd``, jailed by default.

    The jail (`crashpredict._dryrun._jailkernel`) gives the kernel a copy-on-write view of
    the whole file system whose writes stay in memory, no network and no process outside
    its own PID namespace: what replayed cells do (files, subprocesses, signals) never
    reaches the user's files or processes. The client talks to it over ZeroMQ's ``ipc``
    transport, through Unix sockets in a private runtime folder the jail lets the kernel
    write; a `WorkCopy` ``cwd`` is writable as it is too (it is disposable). ``jail=False``
    starts it unconfined, as jupyter_client does (``crashpredict check --in-place``).

    When ``cwd`` is a `WorkCopy` (`crashpredict.private_copy`), the kernel also gets the
    guard that keeps writes off the copy's links to the original files.

    Raises `KernelError` on entry when the kernel cannot start, or when the system refuses
    the jail (no user namespaces): it never falls back to an unconfined kernel.

    Example:
        >>> with KernelSession(Path("case")) as kernel:
        ...     kernel.replay(["import pandas as pd", "df = pd.read_csv('a.csv')"])
        ...     kernel.predict("df['missing']").exception
        'KeyError'
    """

    def __init__(self, cwd: Path | str | WorkCopy, *, timeout: float = 600,
                 kernel_name: str = "python3", jail: bool = True) -> None:
        # in a private work copy (crashpredict.private_copy), a guard keeps writes off the
        # linked originals
        self.work = cwd if isinstance(cwd, WorkCopy) else None
        self.cwd = Path(cwd)
        self.timeout = timeout
        self.kernel_name = kernel_name
        #: whether the kernel runs in the jail (see the class docstring)
        self.jailed = jail
        self._km: Any = None
        self._kc: Any = None
        self._runtime: str | None = None  # the jailed kernel's sockets, launcher log, layers
        self._log: Any = None
        #: sources of the cells that ran successfully in this session, in order
        self.executed: list[str] = []

    def __enter__(self) -> KernelSession:
        env = dict(os.environ)
        env.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
        env.setdefault("PYTHONWARNINGS", "ignore")
        try:
            self._km = self._manager()
            # The kernel's own log lines (TCP warning, TensorFlow banners) are not ours to
            # show; the jail's launcher says on stderr (its log) why it refused.
            self._km.start_kernel(cwd=str(self.cwd), env=env, stdout=subprocess.DEVNULL,
                                  stderr=self._log if self._log is not None
                                  else subprocess.DEVNULL)
            self._kc = self._km.client()
            self._kc.start_channels()
            self._kc.wait_for_ready(timeout=_START_TIMEOUT)
            if self.work is not None:
                result = self._expression(guard_expression(self.work.path))
                if result.get("status") != "ok":
                    raise KernelError(f"{result.get('ename')}: {result.get('evalue')}")
        except Exception as exc:
            refusal = self._jail_refusal()
            self.close()
            if refusal is not None:
                raise KernelError(
                    f"the replay kernel could not be jailed ({refusal}); crashpredict does "
                    f"not run a notebook's cells unconfined: `crashpredict check --in-place` "
                    f"(KernelSession(..., jail=False)) replays in the notebook's own folder "
                    f"without the jail") from None
            raise KernelError(f"could not start kernel {self.kernel_name!r} in {self.cwd}"
                              f"{' (jailed)' if self.jailed else ''}: "
                              f"{type(exc).__name__}: {exc}") from exc
        return self

    def _manager(self) -> Any:
        """A jupyter_client KernelManager; for a jailed kernel, one that starts the kernel
        through the jail's launcher and connects over Unix sockets in a private folder."""
        from jupyter_client import KernelManager

        if not self.jailed:
            return KernelManager(kernel_name=self.kernel_name)
        from ._dryrun._jailkernel import launcher_argv

        self._runtime = tempfile.mkdtemp(prefix="crashpredict-kernel-")
        ipc, private = os.path.join(self._runtime, "ipc"), os.path.join(self._runtime, "jail")
        os.mkdir(ipc, 0o700)
        os.mkdir(private, 0o700)
        self._log = open(os.path.join(self._runtime, "launcher.log"), "wb")  # noqa: SIM115
        # the private copy is disposable: written as it is (large outputs go to its disk,
        # not to the jail's memory); everything else is copy-on-write
        writable = [str(self.work.path)] if self.work is not None else []
        prefix = launcher_argv(private=private, ipc=ipc, cwd=str(Path(self.cwd).resolve()),
                               writable=writable)
        return _jailed_manager_class()(
            prefix, kernel_name=self.kernel_name, transport="ipc",
            ip=os.path.join(ipc, "s"), connection_file=os.path.join(ipc, "kernel.json"))

    def _jail_refusal(self) -> str | None:
        """The launcher's reason when it refused the jail (read from its log), else None."""
        if self._runtime is None:
            return None
        from ._dryrun._jailkernel import REFUSAL_PREFIX

        try:
            with open(os.path.join(self._runtime, "launcher.log"), "rb") as fh:
                text = fh.read(1 << 16).decode(errors="replace")
        except OSError:
            return None
        for line in text.splitlines():
            if line.startswith(REFUSAL_PREFIX):
                return line[len(REFUSAL_PREFIX):].strip() or "refused"
        return None

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()

    def close(self) -> None:
        """Stop the kernel, and with a jailed one everything in its jail (safe to call twice)."""
        if self._kc is not None:
            try:
                self._kc.stop_channels()
            except Exception:
                pass
            self._kc = None
        if self._km is not None:
            try:
                self._km.shutdown_kernel(now=True)
            except Exception:
                pass
            self._km = None
        if self._log is not None:
            self._log.close()
            self._log = None
        if self._runtime is not None:
            shutil.rmtree(self._runtime, ignore_errors=True)
            self._runtime = None

    def _client(self) -> Any:
        if self._kc is None:
            raise KernelError("the kernel session is not started (use it as a context manager)")
        return self._kc

    def run(self, source: str) -> CellRun:
        """Execute a cell as a user would (stored in history); return its outcome.

        Never waits past ``timeout``: a cell that runs longer is interrupted and reported
        with status "timeout"; a kernel that dies (segfault, out of memory) is noticed
        within a second and reported with status "died". Output beyond `MAX_OUTPUT`
        characters is dropped, so a flood cannot exhaust memory.
        """
        kc = self._client()
        out: list[str] = []
        kept = 0
        error: dict[str, Any] = {}
        msg_id = kc.execute(source, store_history=True, allow_stdin=False)
        deadline = time.monotonic() + self.timeout
        reply: dict[str, Any] | None = None
        idle = False
        while reply is None or not idle:
            if time.monotonic() > deadline:
                self._interrupt()
                self._settle(msg_id, reply is not None)
                return CellRun(ok=False, status="timeout", ename="TimeoutError",
                               evalue=f"the cell ran longer than {self.timeout:g} s",
                               stdout="".join(out))
            try:
                msg = kc.get_iopub_msg(timeout=_POLL)
            except queue.Empty:
                if not self._km.is_alive():
                    self.executed.clear()  # its state is gone with it
                    return CellRun(ok=False, status="died", ename="KernelDied",
                                   evalue="the kernel died while running the cell",
                                   stdout="".join(out))
                msg = None
            if msg is not None and msg["parent_header"].get("msg_id") == msg_id:
                kind, content = msg["msg_type"], msg["content"]
                if kind == "stream" and content.get("name") == "stdout" and kept < MAX_OUTPUT:
                    text = content.get("text", "")[: MAX_OUTPUT - kept]
                    out.append(text)
                    kept += len(text)
                elif kind == "error":
                    error.update(content)
                elif kind == "status" and content.get("execution_state") == "idle":
                    idle = True
            if reply is None:
                reply = self._shell_reply(msg_id)
        content = reply["content"]
        if content.get("status") == "ok":
            self.executed.append(source)
            return CellRun(ok=True, stdout="".join(out))
        error = error or content
        return CellRun(ok=False, ename=error.get("ename"), evalue=error.get("evalue"),
                       traceback=tuple(error.get("traceback", ())), stdout="".join(out))

    def run_watched(self, source: str) -> tuple[CellRun, str | None]:
        """Run a cell as `run` does, in a jailed kernel, and name the first thing it tried
        whose outcome the jail changes (the network, a signal to a process outside the
        jail; `crashpredict._dryrun._jailkernel.watch_effects`), or None.

        The watch keeps a careless cell's jailed outcome from passing for the real one; it
        is no boundary (the cell runs in the kernel and could switch it off): the jail is.
        A watch that does not answer counts as something tried.

        Raises:
            KernelError: the kernel is not jailed (an unconfined kernel has nothing to
                change the outcome, and `check` never runs a target there).
        """
        if not self.jailed:
            raise KernelError("run_watched needs a jailed kernel (KernelSession(jail=True))")
        watch = "__import__('crashpredict._dryrun._jailkernel', fromlist=['_']).watch_effects"
        if self._expression(f"{watch}(True)").get("status") != "ok":
            raise KernelError("the jailed kernel could not watch the cell")
        run = self.run(source)
        if run.status == "died":
            return run, None
        result = self._expression(f"{watch}(False)")
        try:
            tried = ast.literal_eval(result["data"]["text/plain"])
        except (KeyError, TypeError, ValueError, SyntaxError, RecursionError, MemoryError):
            tried = "something unknown (the kernel's watch did not answer)"
        return run, tried[:300] if isinstance(tried, str) else None

    def _settle(self, msg_id: str, replied: bool, grace: float = 10.0) -> None:
        """After an interrupt, wait (briefly) until the kernel is done with ``msg_id``.

        A request sent while the kernel is still unwinding the interrupt would be aborted.
        """
        end = time.monotonic() + grace
        idle = False
        while time.monotonic() < end and not (replied and idle):
            try:
                msg = self._kc.get_iopub_msg(timeout=_POLL)
            except queue.Empty:
                if not self._km.is_alive():
                    return
                msg = None
            if (msg is not None and msg["parent_header"].get("msg_id") == msg_id
                    and msg["msg_type"] == "status"
                    and msg["content"].get("execution_state") == "idle"):
                idle = True
            replied = replied or self._shell_reply(msg_id) is not None

    def _shell_reply(self, msg_id: str) -> dict[str, Any] | None:
        while True:
            try:
                msg = self._kc.get_shell_msg(timeout=0)
            except queue.Empty:
                return None
            if msg["parent_header"].get("msg_id") == msg_id:
                return msg

    def _interrupt(self) -> None:
        try:
            self._km.interrupt_kernel()
        except Exception:
            pass

    def _expression(self, code: str) -> dict[str, Any]:
        """Evaluate one silent user expression; its result entry (status, data)."""
        kc = self._client()
        try:
            reply = kc.execute_interactive(
                "", silent=True, store_history=False, allow_stdin=False,
                user_expressions={"value": code}, timeout=self.timeout,
                output_hook=lambda msg: None)
        except (TimeoutError, queue.Empty) as exc:
            raise KernelError(f"the kernel did not answer within {self.timeout:g} s") from exc
        return reply["content"].get("user_expressions", {}).get("value", {})

    def predict(self, source: str, engines: Sequence[str] = ("rules",), *,
                options: Mapping[str, Mapping[str, Any]] | None = None) -> Verdict:
        """Predict ``source``; the cell itself is never executed in the kernel.

        The rules and the dry run run inside the kernel, on its live objects. The LLM is
        asked from here, with the cells this session executed and the runtime facts the
        kernel reports (`rtextract.kernel_snapshot`), so no request leaves from the
        user's kernel and its cache lives on this side.
        """
        names = check_engines(engines)
        options = dict(options or {})
        inside = tuple(n for n in names if n != "llm")
        verdict: Verdict | None = None
        if inside:
            plain = {k: v for k, v in options.items() if k in inside}
            result = self._expression(expression(source, inside, plain))
            if result.get("status") != "ok":
                verdict = Verdict(crash=None, confidence=0.0,
                                  explanation=f"kernel-side entry failed: {result.get('ename')}: "
                                              f"{result.get('evalue')}")
            else:
                text = ast.literal_eval(result["data"]["text/plain"])
                verdict = Verdict.from_dict(json.loads(text))
        if "llm" in names:
            settings = options.get("llm", {}).get("settings")
            verdict = step("llm", source, {}, {}, verdict,
                           run=lambda: self._ask_llm(source, settings, verdict))
        assert verdict is not None
        return verdict

    def _ask_llm(self, source: str, settings: Any, so_far: Verdict | None) -> Verdict:
        from .llm import LLMSettings, predict_with_llm

        settings = settings or LLMSettings.from_env()
        snapshot = None
        if settings.fact_categories:
            code = (f"__import__('rtextract').kernel_snapshot({source!r}, "
                    f"{settings.fact_categories!r})")
            result = self._expression(code)
            if result.get("status") == "ok":
                snapshot = ast.literal_eval(result["data"]["text/plain"])
        findings: tuple[str, ...] = ()
        if settings.include_rules and so_far is not None and so_far.crash:
            findings = (so_far.explanation, *so_far.evidence)
        return predict_with_llm(source, tuple(self.executed), snapshot, settings,
                                rule_findings=findings)

    def replay(self, sources: Sequence[str]) -> ReplayResult:
        """Run the cells in order, stopping at the first that fails."""
        for i, source in enumerate(sources):
            run = self.run(source)
            if not run.ok:
                return ReplayResult(ok=False, ran=i, failed_index=i, failure=run)
        return ReplayResult(ok=True, ran=len(sources))


@functools.cache
def _jailed_manager_class() -> Any:
    """jupyter_client's KernelManager, with the jail's launcher in front of the kernel's
    command (every start and restart goes through ``format_kernel_cmd``)."""
    from jupyter_client import KernelManager

    class JailedKernelManager(KernelManager):  # type: ignore[misc,valid-type]
        def __init__(self, launcher: list[str], **kwargs: Any) -> None:
            super().__init__(**kwargs)
            self.launcher = list(launcher)

        def format_kernel_cmd(self, extra_arguments: list[str] | None = None) -> list[str]:
            return [*self.launcher, *super().format_kernel_cmd(extra_arguments)]

    return JailedKernelManager
