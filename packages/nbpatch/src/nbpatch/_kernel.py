"""A small notebook runner over nbclient: run every code cell in a fresh kernel, stop at the
first error (as "Run All" does), then probe chosen variables and a score expression."""

from __future__ import annotations

import copy
import json
import os
import subprocess
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from nbformat import NotebookNode

from .errors import EquivalenceError

__all__ = ["Run", "run_notebook"]

_MARK = "__NBPATCH_PROBE__"

# Runs inside the user's kernel after the notebook: it must never raise, and it describes
# values by cheap facts (shape, dtype, sums, params) instead of pickling them across.
_PROBE = r'''
def __nbpatch_facts(v, depth=0):
    import hashlib, json, math
    t = type(v)
    facts = {"type": f"{t.__module__}.{t.__qualname__}"}
    def num(x):
        try:
            x = float(x)
        except Exception:
            return None
        return x if math.isfinite(x) else repr(x)
    try:
        if v is None or isinstance(v, (bool, int, str)):
            facts["value"] = v if not isinstance(v, str) or len(v) <= 2000 else (
                "sha256:" + hashlib.sha256(v.encode()).hexdigest())
        elif isinstance(v, float):
            facts["value"] = num(v)
        elif isinstance(v, (list, tuple, set, frozenset, dict)):
            facts["len"] = len(v)
            items = sorted(v, key=repr) if isinstance(v, (set, frozenset)) else v
            text = json.dumps(items, sort_keys=True, default=repr)
            facts["value"] = json.loads(text) if len(text) <= 20000 else (
                "sha256:" + hashlib.sha256(text.encode()).hexdigest())
        elif hasattr(v, "shape") and hasattr(v, "dtype"):
            facts["shape"] = [int(s) for s in tuple(v.shape)]
            facts["dtype"] = str(v.dtype)
            arr = v.detach().cpu().numpy() if hasattr(v, "detach") else v
            if hasattr(arr, "select_dtypes"):
                facts["columns"] = [str(c) for c in arr.columns]
                facts["sums"] = {str(c): num(s) for c, s in
                                 arr.select_dtypes("number").sum().items()}
            else:
                try:
                    facts["sum"] = num(arr.sum())
                    facts["mean"] = num(arr.mean())
                except Exception:
                    facts["repr"] = repr(arr)[:2000]
        elif hasattr(v, "get_params"):
            facts["params"] = {k: repr(p) for k, p in sorted(v.get_params(deep=False).items())}
        elif hasattr(v, "select_dtypes") or hasattr(v, "columns"):
            facts["repr"] = repr(v)[:2000]
        else:
            facts["repr"] = repr(v)[:2000]
    except Exception as exc:
        facts["error"] = f"{type(exc).__name__}: {exc}"
    return facts

def __nbpatch_probe(names, score):
    import json
    out = {"variables": {}, "score": None, "score_error": None}
    g = globals()
    for name in names:
        out["variables"][name] = __nbpatch_facts(g[name]) if name in g else {"missing": True}
    if score:
        try:
            out["score"] = float(eval(score, g))
        except Exception as exc:
            out["score_error"] = f"{type(exc).__name__}: {exc}"
    print("__NBPATCH_PROBE__" + json.dumps(out))

__nbpatch_probe(NAMES, SCORE)
del __nbpatch_probe, __nbpatch_facts
'''


@dataclass(frozen=True, slots=True, kw_only=True)
class Run:
    """One execution of a notebook: per-cell outputs, where it stopped, and the probe."""

    cells: tuple[NotebookNode, ...]
    stopped_at: int | None
    variables: dict[str, Any]
    score: float | None
    score_error: str | None


def _probe_source(variables: Sequence[str], score: str | None) -> str:
    return _PROBE.replace("NAMES", repr(list(variables))).replace("SCORE", repr(score))


def _error_output(ename: str, evalue: str) -> NotebookNode:
    return NotebookNode(output_type="error", ename=ename, evalue=evalue, traceback=[])


def run_notebook(nb: NotebookNode, *, variables: Sequence[str] = (), score: str | None = None,
                 timeout: float = 600.0, cwd: str | os.PathLike[str] | None = None,
                 kernel_name: str = "python3", startup_timeout: float = 60.0) -> Run:
    """Run ``nb``'s code cells in a fresh kernel; raises ``EquivalenceError`` if it can't."""
    from nbclient import NotebookClient
    from nbclient.exceptions import CellTimeoutError, DeadKernelError

    work = copy.deepcopy(nb)
    for cell in work.cells:
        if cell.cell_type == "code":
            cell.outputs, cell.execution_count = [], None
    client = NotebookClient(
        work, timeout=timeout, startup_timeout=startup_timeout, kernel_name=kernel_name,
        allow_errors=True, record_timing=False,
        resources={"metadata": {"path": os.fspath(cwd or os.getcwd())}},
    )
    stopped: int | None = None
    try:
        # the kernel process's own log lines (the TCP warning, TensorFlow banners) are
        # not the notebook's output, which arrives over the kernel protocol
        with client.setup_kernel(stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL):
            for index, cell in enumerate(work.cells):
                if cell.cell_type != "code":
                    continue
                try:
                    client.execute_cell(cell, index)
                except CellTimeoutError:
                    cell.outputs.append(_error_output("CellTimeoutError", f"over {timeout} s"))
                except DeadKernelError as exc:
                    cell.outputs.append(_error_output("DeadKernelError", str(exc)))
                    return Run(cells=tuple(work.cells), stopped_at=index, variables={},
                               score=None, score_error="the kernel died")
                if any(o.get("output_type") == "error" for o in cell.outputs):
                    stopped = index
                    break
            probe = NotebookNode(cell_type="code", source=_probe_source(variables, score),
                                 metadata={}, outputs=[], execution_count=None)
            client.nb.cells.append(probe)
            client.execute_cell(probe, len(client.nb.cells) - 1)
            client.nb.cells.pop()
    except (CellTimeoutError, DeadKernelError, RuntimeError, OSError) as exc:
        raise EquivalenceError(f"cannot run the notebook in a kernel ({exc})") from None
    return _with_probe(work, stopped, probe)


def _with_probe(work: NotebookNode, stopped: int | None, probe: NotebookNode) -> Run:
    text = "".join(o.get("text", "") for o in probe.outputs if o.get("output_type") == "stream")
    data: dict[str, Any] = {}
    for line in text.splitlines():
        if line.startswith(_MARK):
            data = json.loads(line[len(_MARK):])
    if not data:
        errors = [f"{o.get('ename')}: {o.get('evalue')}" for o in probe.outputs
                  if o.get("output_type") == "error"]
        raise EquivalenceError(f"the variable probe failed in the kernel ({'; '.join(errors)})")
    return Run(cells=tuple(work.cells), stopped_at=stopped, variables=data["variables"],
               score=data["score"], score_error=data["score_error"])
