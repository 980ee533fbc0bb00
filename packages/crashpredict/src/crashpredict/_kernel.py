"""A real Jupyter kernel (jupyter_client) to replay cells in and predict inside."""

from __future__ import annotations

import ast
import json
import os
import queue
import subprocess
from collections.abc import Sequence
from pathlib import Path
from types import TracebackType
from typing import Any

from ._engines import check_engines
from ._kernelside import expression
from ._model import CellRun, ReplayResult, Verdict
from .errors import KernelError

__all__ = ["KernelSession"]

_START_TIMEOUT = 120.0


class KernelSession:
    """A context manager over a real kernel started in ``cwd``.

    Example:
        >>> with KernelSession(Path("case")) as kernel:
        ...     kernel.replay(["import pandas as pd", "df = pd.read_csv('a.csv')"])
        ...     kernel.predict("df['missing']").exception
        'KeyError'
    """

    def __init__(self, cwd: Path | str, *, timeout: float = 600,
                 kernel_name: str = "python3") -> None:
        self.cwd = Path(cwd)
        self.timeout = timeout
        self.kernel_name = kernel_name
        self._km: Any = None
        self._kc: Any = None

    def __enter__(self) -> KernelSession:
        from jupyter_client import KernelManager
        env = dict(os.environ)
        env.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
        env.setdefault("PYTHONWARNINGS", "ignore")
        try:
            self._km = KernelManager(kernel_name=self.kernel_name)
            # The kernel's own log lines (TCP warning, TensorFlow banners) are not ours to show.
            self._km.start_kernel(cwd=str(self.cwd), env=env, stdout=subprocess.DEVNULL,
                                  stderr=subprocess.DEVNULL)
            self._kc = self._km.client()
            self._kc.start_channels()
            self._kc.wait_for_ready(timeout=_START_TIMEOUT)
        except Exception as exc:
            self.close()
            raise KernelError(f"could not start kernel {self.kernel_name!r} in {self.cwd}: "
                              f"{type(exc).__name__}: {exc}") from exc
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()

    def close(self) -> None:
        """Stop the kernel (safe to call twice)."""
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

    def _client(self) -> Any:
        if self._kc is None:
            raise KernelError("the kernel session is not started (use it as a context manager)")
        return self._kc

    def run(self, source: str) -> CellRun:
        """Execute a cell as a user would (stored in history); return its outcome."""
        kc = self._client()
        out: list[str] = []
        error: dict[str, Any] = {}

        def hook(msg: dict[str, Any]) -> None:
            kind, content = msg["msg_type"], msg["content"]
            if kind == "stream" and content.get("name") == "stdout":
                out.append(content.get("text", ""))
            elif kind == "error":
                error.update(content)

        try:
            reply = kc.execute_interactive(source, store_history=True, allow_stdin=False,
                                           timeout=self.timeout, output_hook=hook)
        except (TimeoutError, queue.Empty):
            self._interrupt()
            return CellRun(ok=False, ename="TimeoutError",
                           evalue=f"the cell ran longer than {self.timeout:g} s",
                           stdout="".join(out))
        content = reply["content"]
        if content.get("status") == "ok":
            return CellRun(ok=True, stdout="".join(out))
        error = error or content
        return CellRun(ok=False, ename=error.get("ename"), evalue=error.get("evalue"),
                       traceback=tuple(error.get("traceback", ())), stdout="".join(out))

    def _interrupt(self) -> None:
        try:
            self._km.interrupt_kernel()
        except Exception:
            pass

    def predict(self, source: str, engines: Sequence[str] = ("rules",)) -> Verdict:
        """Predict ``source`` inside the kernel; the cell itself is never executed."""
        names = check_engines(engines)
        kc = self._client()
        try:
            reply = kc.execute_interactive(
                "", silent=True, store_history=False, allow_stdin=False,
                user_expressions={"verdict": expression(source, names)},
                timeout=self.timeout, output_hook=lambda msg: None)
        except (TimeoutError, queue.Empty) as exc:
            raise KernelError(f"the kernel did not answer the prediction within "
                              f"{self.timeout:g} s") from exc
        result = reply["content"].get("user_expressions", {}).get("verdict", {})
        if result.get("status") != "ok":
            return Verdict(crash=None, confidence=0.0,
                           explanation=f"kernel-side entry failed: {result.get('ename')}: "
                                       f"{result.get('evalue')}")
        text = ast.literal_eval(result["data"]["text/plain"])
        return Verdict.from_dict(json.loads(text))

    def replay(self, sources: Sequence[str]) -> ReplayResult:
        """Run the cells in order, stopping at the first that fails."""
        for i, source in enumerate(sources):
            run = self.run(source)
            if not run.ok:
                return ReplayResult(ok=False, ran=i, failed_index=i, failure=run)
        return ReplayResult(ok=True, ran=len(sources))
