"""The notebook runner (``nbpatch[run]``): every code cell in a fresh real kernel, in order,
stopping at the first error as "Run All" does; then, optionally, a probe of variables and a
score in the same kernel.

It is the one runner of the project: ``equivalent`` and benchkit's modernize loop use it.
The kernel is started by jupyter_client in a session of its own, so on a timeout the whole
process group is killed (a data loader's workers, a subprocess the notebook started, all go
with it). nbclient, jupyter_client and ipykernel are imported only when a notebook runs.
"""

from __future__ import annotations

import copy
import importlib.util
import json
import os
import re
import signal
import subprocess
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from nbformat import NotebookNode

from . import _kernel_side
from ._notebook import NotebookLike, as_notebook
from .errors import NbpatchError, RunError

__all__ = ["CellRun", "Run", "run_notebook", "traceback_lines", "strip_ansi"]

CellStatus = Literal["ok", "error", "timeout", "not-run"]
INSTALL_HINT = "pip install 'nbpatch[run]'"

_ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")
_FRAME = re.compile(r"Cell In\s*\[(\d+)\],\s*line (\d+)")


class MissingExtraError(NbpatchError, ImportError):
    """Running notebooks needs the ``run`` extra (nbclient, jupyter_client, ipykernel)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class CellRun:
    """What one code cell did: ran clean, raised, hit the time limit, or was not reached.

    ``index`` is the cell's 0-based position among all cells; ``lines`` are the lines of
    this cell (1-based) that the traceback points to; ``traceback`` is the kernel's, ANSI
    colours stripped.
    """

    index: int
    status: CellStatus
    ename: str | None = None
    evalue: str | None = None
    traceback: tuple[str, ...] = ()
    lines: tuple[int, ...] = ()
    elapsed_s: float = 0.0


@dataclass(frozen=True, slots=True, kw_only=True)
class Run:
    """One execution of a notebook in a fresh kernel.

    ``notebook`` is a copy carrying this run's outputs; ``cells`` has one ``CellRun`` per
    code cell, in order; ``stopped_at`` is the index of the cell that raised, timed out or
    killed the kernel. ``variables`` maps each probed name to its fingerprint
    (``{"missing": true}`` when undefined, ``{"unavailable": why}`` when no probe ran).
    """

    notebook: NotebookNode
    cells: tuple[CellRun, ...]
    stopped_at: int | None
    timed_out: bool
    kernel_died: bool
    elapsed_s: float
    variables: Mapping[str, Any] = field(default_factory=dict)
    score: float | None = None
    score_error: str | None = None

    @property
    def failed(self) -> CellRun | None:
        """The cell that raised or hit the limit, if any."""
        return next((c for c in self.cells if c.status in ("error", "timeout")), None)


def strip_ansi(text: str) -> str:
    """``text`` without terminal colour codes (IPython colours its tracebacks)."""
    return _ANSI.sub("", text)


def traceback_lines(traceback: Sequence[str], execution_count: int | None) -> tuple[int, ...]:
    """Lines of the failing cell that the traceback's frames point to (``Cell In [N], line L``).

    With an ``execution_count`` only frames of that cell count; without, every cell's.
    """
    found: list[int] = []
    for frame in traceback:
        for match in _FRAME.finditer(strip_ansi(frame)):
            if execution_count is None or int(match.group(1)) == execution_count:
                found.append(int(match.group(2)))
    return tuple(dict.fromkeys(found))


def _nbclient() -> tuple[Any, Any, Any]:
    try:
        from nbclient import NotebookClient
        from nbclient.exceptions import CellTimeoutError, DeadKernelError
    except ImportError as exc:
        raise MissingExtraError(f"running notebooks needs nbclient, jupyter_client and "
                                f"ipykernel ({exc}): {INSTALL_HINT}") from None
    return NotebookClient, CellTimeoutError, DeadKernelError


def _kill_group(client: Any) -> None:
    """SIGKILL the kernel's process group (it runs in a session of its own)."""
    process = getattr(getattr(getattr(client, "km", None), "provisioner", None), "process", None)
    pid = getattr(process, "pid", None)
    if pid is None:
        return
    try:
        os.killpg(os.getpgid(pid), signal.SIGKILL)
    except OSError:
        pass


def _cell_result(index: int, cell: NotebookNode, elapsed: float) -> CellRun:
    for output in cell.get("outputs", ()):
        if output.get("output_type") == "error":
            tb = tuple(strip_ansi(str(line)) for line in output.get("traceback", ()))
            return CellRun(index=index, status="error", ename=output.get("ename"),
                           evalue=strip_ansi(str(output.get("evalue", "")))[:2000],
                           traceback=tb, lines=traceback_lines(tb, cell.get("execution_count")),
                           elapsed_s=elapsed)
    return CellRun(index=index, status="ok", elapsed_s=elapsed)


def _hidden_cell(source: str) -> NotebookNode:
    return NotebookNode(cell_type="code", source=source, metadata={}, outputs=[],
                        execution_count=None)


def _setup_source(fingerprints: bool) -> str:
    """Installs ``_kernel_side`` as a module of its own: nothing lands in the user's globals."""
    code = Path(_kernel_side.__file__).read_text(encoding="utf-8")
    install = ("\n    __m.install_formatter(get_ipython())" if fingerprints else "")
    return (f"def __nbpatch_setup():\n    import sys, types\n"
            f"    __m = types.ModuleType('__nbpatch_kernel__')\n"
            f"    exec(compile({code!r}, '<nbpatch>', 'exec'), __m.__dict__)\n"
            f"    sys.modules['__nbpatch_kernel__'] = __m{install}\n"
            f"__nbpatch_setup()\ndel __nbpatch_setup\n")


def _probe_source(variables: Sequence[str], score: str | None) -> str:
    return (f"__import__('sys').modules['__nbpatch_kernel__'].probe({list(variables)!r}, "
            f"{score!r}, globals())")


class _Session:
    """One kernel's run: the client, the clock and what happened so far."""

    def __init__(self, client: Any, timeout: float, total: float | None, errors: Any) -> None:
        self.client, self.timeout, self.total = client, timeout, total
        self.timeout_error, self.dead_error = errors
        self.start = time.monotonic()
        self.timed_out = self.died = False

    def limit(self) -> float | None:
        """Seconds the next execution may take (``None`` when out of time)."""
        if self.total is None:
            return self.timeout
        remaining = self.total - (time.monotonic() - self.start)
        return min(self.timeout, remaining) if remaining > 0 else None

    def execute(self, cell: NotebookNode, index: int, *, history: bool = True) -> str | None:
        """Run one cell; ``None`` when it ran, else ``"timeout"`` or the death message."""
        limit = self.limit()
        if limit is None:
            self.timed_out = True
            return "timeout"
        # nbclient's limit is whole seconds per cell
        self.client.timeout = max(1, int(limit + 0.999))
        try:
            self.client.execute_cell(cell, index, store_history=history)
        except self.timeout_error:
            self.timed_out = True
            _kill_group(self.client)
            return "timeout"
        except self.dead_error as exc:
            self.died = True
            return str(exc)[:2000] or "the kernel died"
        return None

    def hidden(self, source: str) -> NotebookNode:
        """Run code the notebook does not show (no execution count, no history)."""
        cell = _hidden_cell(source)
        self.client.nb.cells.append(cell)
        timed_out = self.timed_out
        try:
            problem = self.execute(cell, len(self.client.nb.cells) - 1, history=False)
        finally:
            self.client.nb.cells.pop()
            self.timed_out = timed_out  # the notebook itself ran within its limits
        if problem:
            raise _Interrupted(problem)
        return cell


class _Interrupted(Exception):
    """A hidden cell timed out or the kernel died while it ran."""


def _run_cells(session: _Session, work: NotebookNode, code: Sequence[int],
               results: dict[int, CellRun]) -> None:
    for index in code:
        began = time.monotonic()
        problem = session.execute(work.cells[index], index)
        elapsed = time.monotonic() - began
        if problem == "timeout":
            work.cells[index].outputs.append(NotebookNode(
                output_type="error", ename="CellTimeoutError", traceback=[],
                evalue=f"the cell ran past the time limit ({session.client.timeout} s)"))
            results[index] = CellRun(index=index, status="timeout", elapsed_s=elapsed,
                                     ename="CellTimeoutError",
                                     evalue=work.cells[index].outputs[-1].evalue)
            return
        if problem:
            work.cells[index].outputs.append(NotebookNode(
                output_type="error", ename="DeadKernelError", evalue=problem, traceback=[]))
            results[index] = CellRun(index=index, status="error", ename="DeadKernelError",
                                     evalue=problem, elapsed_s=elapsed)
            return
        results[index] = _cell_result(index, work.cells[index], elapsed)
        if results[index].status == "error":
            return


def _read_probe(cell: NotebookNode) -> dict[str, Any]:
    text = "".join(str(o.get("text", "")) for o in cell.outputs
                   if o.get("output_type") == "stream")
    for line in text.splitlines():
        if line.startswith(_kernel_side.MARK):
            return json.loads(line[len(_kernel_side.MARK):])
    errors = [f"{o.get('ename')}: {o.get('evalue')}" for o in cell.outputs
              if o.get("output_type") == "error"]
    return {"error": "; ".join(errors) or "the probe printed nothing"}


def _no_kernel_message(kernel_name: str, exc: BaseException) -> str:
    message = f"cannot start kernel {kernel_name!r}: {type(exc).__name__}: {exc}"
    if kernel_name == "python3" and importlib.util.find_spec("ipykernel") is None:
        message += f" (ipykernel is not installed: {INSTALL_HINT})"
    return message


def run_notebook(nb: NotebookLike, *, cwd: str | os.PathLike[str] | None = None,
                 timeout: float = 600.0, total_timeout: float | None = None,
                 variables: Sequence[str] = (), score: str | None = None,
                 fingerprints: bool = False, kernel_name: str = "python3",
                 startup_timeout: float = 60.0) -> Run:
    """Run ``nb``'s code cells in a fresh kernel, in order, stopping at the first error.

    Args:
        nb: the notebook (``NotebookNode``, dict or path); it is not modified.
        cwd: the kernel's working directory (default: the notebook's folder when given as
            a path, else the current directory).
        timeout: seconds allowed per cell.
        total_timeout: seconds allowed for the whole notebook (``None``: no overall limit).
            A cell past either limit is ``"timeout"`` and the kernel's process group is
            killed; the cells after it are ``"not-run"``.
        variables: names whose final values are fingerprinted after the run (see
            ``Run.variables``); ``score``: an expression evaluated then, as a float.
            Neither is probed after a timeout or a kernel death.
        fingerprints: attach a fingerprint of the full values to every rich display of a
            DataFrame, Series, array, tensor, list, tuple or dict (MIME type
            ``application/vnd.nbpatch.fingerprint+json``), as ``equivalent`` compares them.
        kernel_name, startup_timeout: the Jupyter kernel to start, and how long to wait.

    Returns:
        A ``Run``: per code cell ok / error / timeout / not-run, the executed notebook, the
        probe. A kernel that dies mid-run is a ``DeadKernelError`` error of that cell.

    Raises:
        RunError: no kernel could be started. NotebookError: ``nb`` is not a notebook.
        ImportError: the ``run`` extra is missing (the message says ``pip install
        'nbpatch[run]'``).

    Example:
        >>> run = run_notebook("analysis.ipynb", timeout=60, score="accuracy")  # doctest: +SKIP
        >>> run.failed, run.score                                              # doctest: +SKIP
    """
    notebook_client, *errors = _nbclient()
    work = copy.deepcopy(as_notebook(nb))
    if cwd is None:
        cwd = Path(nb).resolve().parent if isinstance(nb, (str, os.PathLike)) else os.getcwd()
    for cell in work.cells:
        if cell.get("cell_type") == "code":
            cell.outputs, cell.execution_count = [], None
    client = notebook_client(work, timeout=max(1, int(timeout)), kernel_name=kernel_name,
                             startup_timeout=max(1, int(startup_timeout)), allow_errors=True,
                             record_timing=False,
                             resources={"metadata": {"path": os.fspath(cwd)}})
    code = [i for i, c in enumerate(work.cells) if c.get("cell_type") == "code"]
    results: dict[int, CellRun] = {}
    session = _Session(client, timeout, total_timeout, errors)
    probed: dict[str, Any] = {}
    started = False
    try:
        # the kernel process's own log lines (the TCP warning, TensorFlow banners) are
        # not the notebook's output, which arrives over the kernel protocol
        with client.setup_kernel(stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL):
            started = True
            session.hidden(_setup_source(fingerprints))
            _run_cells(session, work, code, results)
            if (variables or score) and not session.timed_out and not session.died:
                probed = _read_probe(session.hidden(_probe_source(variables, score)))
    except _Interrupted as exc:
        probed = {"error": f"the probe did not finish ({exc})"}
    except (RuntimeError, OSError, LookupError) as exc:  # NoSuchKernel is a KeyError
        if not started:
            raise RunError(_no_kernel_message(kernel_name, exc)) from None
        # the kernel broke down mid-run: the cell that was running failed with it
        at = next((i for i in code if i not in results or results[i].status != "ok"),
                  code[-1] if code else 0)
        session.died = True
        results[at] = CellRun(index=at, status="error", ename=type(exc).__name__,
                              evalue=str(exc)[:2000])
    return _finish(work, code, results, session, probed, variables, score)


def _finish(work: NotebookNode, code: Sequence[int], results: dict[int, CellRun],
            session: _Session, probed: Mapping[str, Any], variables: Sequence[str],
            score: str | None) -> Run:
    cells = tuple(results.get(i, CellRun(index=i, status="not-run")) for i in code)
    stopped = next((c.index for c in cells if c.status in ("error", "timeout")), None)
    why = ("the notebook timed out" if session.timed_out else
           "the kernel died" if session.died else probed.get("error"))
    names = dict(probed.get("variables", {}))
    for name in variables:
        names.setdefault(name, {"unavailable": why or "not probed"})
    return Run(notebook=work, cells=cells, stopped_at=stopped, timed_out=session.timed_out,
               kernel_died=session.died, elapsed_s=time.monotonic() - session.start,
               variables=names, score=probed.get("score"),
               score_error=probed.get("score_error") or (
                   f"not evaluated: {why}" if score and why else None))
