"""Run a notebook in a fresh real kernel under one wall-clock limit for the whole notebook.

The kernel is started by jupyter_client in a new session (its own process group), so on
expiry the whole group is killed with SIGKILL: a data loader's worker processes, a
subprocess the notebook started, all go with it. Execution stops at the first error, as
"Run All" does. After a clean run the score expression is evaluated in the same kernel.
"""

from __future__ import annotations

import copy
import json
import os
import re
import signal
import subprocess
import time
from pathlib import Path

from nbformat import NotebookNode

from ._model import CellRun, NotebookRun

__all__ = ["run_notebook", "traceback_lines", "KernelStartError"]

_ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")
_FRAME = re.compile(r"Cell In\s*\[(\d+)\],\s*line (\d+)")
_OLD_FRAME = re.compile(r"<ipython-input-(\d+)-[0-9a-f]+>.*?\bin\b.*")
_MARK = "__BENCHKIT_SCORE__"
_SCORE = """
def __benchkit_score():
    import json
    try:
        value = float(eval({expr!r}, globals()))
        print({mark!r} + json.dumps({{"score": value}}))
    except Exception as exc:
        print({mark!r} + json.dumps({{"error": f"{{type(exc).__name__}}: {{exc}}"}}))
__benchkit_score()
del __benchkit_score
"""


class KernelStartError(RuntimeError):
    """The kernel could not be started (no such kernel, or it died while starting)."""


def strip_ansi(text: str) -> str:
    return _ANSI.sub("", text)


def traceback_lines(traceback: list[str], execution_count: int | None) -> tuple[int, ...]:
    """Lines of the failing cell that the traceback's frames point to."""
    found: list[int] = []
    for frame in traceback:
        for match in _FRAME.finditer(strip_ansi(frame)):
            if execution_count is None or int(match.group(1)) == execution_count:
                found.append(int(match.group(2)))
    return tuple(dict.fromkeys(found))


def _summary(traceback: list[str], limit: int = 1500) -> str:
    text = strip_ansi("\n".join(traceback))
    return text if len(text) <= limit else "...\n" + text[-limit:]


def _kill_group(client) -> None:
    """SIGKILL the kernel's process group (it runs in a session of its own)."""
    km = getattr(client, "km", None)
    process = getattr(getattr(km, "provisioner", None), "process", None)
    pid = getattr(process, "pid", None)
    if pid is None:
        return
    try:
        os.killpg(os.getpgid(pid), signal.SIGKILL)
    except (ProcessLookupError, PermissionError, OSError):
        pass


def _cell_result(index: int, cell: NotebookNode, elapsed: float) -> CellRun:
    for output in cell.get("outputs", ()):
        if output.get("output_type") == "error":
            tb = list(output.get("traceback", ()))
            return CellRun(index=index, status="error", ename=output.get("ename"),
                           evalue=strip_ansi(str(output.get("evalue", "")))[:2000],
                           traceback=_summary(tb),
                           lines=traceback_lines(tb, cell.get("execution_count")),
                           elapsed_s=elapsed)
    return CellRun(index=index, status="ok", elapsed_s=elapsed)


def _score(client, expr: str, remaining: float) -> tuple[float | None, str | None]:
    from nbclient.exceptions import CellTimeoutError, DeadKernelError

    probe = NotebookNode(cell_type="code", source=_SCORE.format(expr=expr, mark=_MARK),
                         metadata={}, outputs=[], execution_count=None)
    client.nb.cells.append(probe)
    client.timeout = max(1, int(remaining))
    try:
        client.execute_cell(probe, len(client.nb.cells) - 1)
    except (CellTimeoutError, DeadKernelError) as exc:
        return None, f"score expression not evaluated ({type(exc).__name__})"
    finally:
        client.nb.cells.pop()
    for output in probe.outputs:
        for line in str(output.get("text", "")).splitlines():
            if line.startswith(_MARK):
                data = json.loads(line[len(_MARK):])
                return data.get("score"), data.get("error")
    return None, "score expression printed nothing"


def run_notebook(nb: NotebookNode, *, cwd: str | os.PathLike[str], timeout: float,
                 score: str | None = None, kernel_name: str = "python3",
                 startup_timeout: float = 60.0) -> tuple[NotebookRun, NotebookNode]:
    """Run ``nb``'s code cells in a fresh kernel, at most ``timeout`` seconds in all.

    Returns the run (per cell: ok / error / timeout / not-run, and the score) and the
    notebook with this run's outputs. Raises ``KernelStartError`` when no kernel starts.
    """
    from nbclient import NotebookClient
    from nbclient.exceptions import CellTimeoutError, DeadKernelError

    work = copy.deepcopy(nb)
    for cell in work.cells:
        if cell.get("cell_type") == "code":
            cell.outputs, cell.execution_count = [], None
    client = NotebookClient(work, timeout=max(1, int(timeout)), kernel_name=kernel_name,
                            startup_timeout=int(startup_timeout), allow_errors=True,
                            record_timing=False,
                            resources={"metadata": {"path": os.fspath(Path(cwd))}})
    code = [i for i, c in enumerate(work.cells) if c.get("cell_type") == "code"]
    results: dict[int, CellRun] = {}
    timed_out, value, score_error = False, None, None
    start = time.monotonic()
    try:
        # the kernel process's own log lines (the TCP warning, TensorFlow banners) are
        # not the notebook's output, which arrives over the kernel protocol
        with client.setup_kernel(stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL):
            for index in code:
                remaining = timeout - (time.monotonic() - start)
                began = time.monotonic()
                if remaining <= 0:
                    timed_out = True
                    results[index] = CellRun(index=index, status="timeout")
                    break
                # nbclient's limit is per cell: give each cell what is left of the budget
                client.timeout = max(1, int(remaining + 0.999))
                try:
                    client.execute_cell(work.cells[index], index)
                except CellTimeoutError:
                    timed_out = True
                    _kill_group(client)
                    results[index] = CellRun(index=index, status="timeout",
                                             elapsed_s=time.monotonic() - began)
                    break
                except DeadKernelError as exc:
                    results[index] = CellRun(index=index, status="error", ename="DeadKernelError",
                                             evalue=str(exc)[:500],
                                             elapsed_s=time.monotonic() - began)
                    break
                results[index] = _cell_result(index, work.cells[index], time.monotonic() - began)
                if results[index].status == "error":
                    break
            if score and not timed_out and all(r.status == "ok" for r in results.values()):
                value, score_error = _score(client, score, timeout - (time.monotonic() - start))
    except (RuntimeError, OSError, LookupError) as exc:  # NoSuchKernel is a KeyError
        if not results:
            raise KernelStartError(f"cannot start kernel {kernel_name!r}: {exc}") from None
        # the kernel broke down mid-run: the cell that was running failed with it
        at = next((i for i in code if i not in results or results[i].status != "ok"), code[-1])
        results[at] = CellRun(index=at, status="error", ename=type(exc).__name__,
                              evalue=str(exc)[:500])
    cells = tuple(results.get(i, CellRun(index=i, status="not-run")) for i in code)
    return NotebookRun(cells=cells, timed_out=timed_out, elapsed_s=time.monotonic() - start,
                       score=value, score_error=score_error), work
