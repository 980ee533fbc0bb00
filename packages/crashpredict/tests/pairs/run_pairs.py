"""Run the crash / fix pair corpus: the truth by running each cell, and the rule engine's verdict.

Usage: ``python run_pairs.py [LIBRARY ...]`` prints one JSON object per cell on stdout:
``{"library", "name", "version" ("crash" | "fixed"), "raised" (exception class name or
null), "raised_mro" (its class names, most derived first), "message", "predicted"
(True/False/None), "exception", "explanation", "ms", "run_ms"}``: the rule engine's time
and the cell's own run time. Before the torch pairs, one line ``{"library", "warmup_ms"}``
gives the one-time cost of the first meta run in the process.

Each cell gets a fresh namespace made by running its library's ``SETUP``; the rule engine
predicts first (it must not change the namespace), then the cell runs for real. One process
serves the whole corpus, so the libraries are imported once.
"""

from __future__ import annotations

import contextlib
import io
import json
import linecache
import os
import sys
import time
import warnings
from pathlib import Path

HERE = Path(__file__).resolve().parent
LIBRARIES = ("numpy", "pandas", "sklearn", "torch", "keras", "plots")


def load(library: str) -> dict:
    """The corpus module of one library, as a dict (SETUP, PAIRS)."""
    namespace: dict = {"__name__": f"pairs_{library}"}
    path = HERE / f"{library}_pairs.py"
    exec(compile(path.read_text(), str(path), "exec"), namespace)
    return namespace


_CELLS = iter(range(1, 1_000_000))


def _run(source: str, ns: dict) -> BaseException | None:
    # Like IPython, keep each cell's source in linecache, so inspect.getsource works on
    # the functions and classes it defines.
    filename = f"<pairs-cell-{next(_CELLS)}>"
    linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
    try:
        with warnings.catch_warnings(), contextlib.redirect_stdout(io.StringIO()), \
                contextlib.redirect_stderr(io.StringIO()):
            warnings.simplefilter("ignore")
            exec(compile(source, filename, "exec"), ns)
    except Exception as exc:  # the truth: what the cell raises
        return exc
    finally:
        plt = sys.modules.get("matplotlib.pyplot")
        if plt is not None:
            plt.close("all")
    return None


def run_library(library: str) -> list[dict]:
    """Every pair of one library: predict, then run, each cell in a fresh namespace."""
    from crashpredict._rules import rules_engine

    corpus = load(library)
    if library == "torch":
        # The first meta run in a process imports torch's meta kernels, once (about 1 s,
        # more on a loaded machine): paid here, so the per-cell figures are steady-state.
        import torch
        t0 = time.perf_counter()
        rules_engine("out = nn.Sequential(nn.Conv2d(1, 2, 3), nn.ReLU(), nn.MaxPool2d(2),\n"
                     "    nn.Flatten(), nn.Linear(2, 1))(torch.zeros(1, 1, 4, 4))\n"
                     "loss = nn.CrossEntropyLoss()(out, torch.zeros(1, dtype=torch.long))",
                     {"torch": torch, "nn": torch.nn})
        print(json.dumps({"library": library, "warmup_ms": round(
            (time.perf_counter() - t0) * 1000, 3)}), flush=True)
    rows = []
    for name, crash, fixed in corpus["PAIRS"]:
        for version, cell in (("crash", crash), ("fixed", fixed)):
            ns: dict = {"__name__": "__main__"}
            setup_error = _run(corpus["SETUP"], ns)
            if setup_error is not None:
                raise RuntimeError(f"{library} setup failed: {setup_error!r}")
            t0 = time.perf_counter()
            verdict = rules_engine(cell, ns)
            ms = (time.perf_counter() - t0) * 1000
            t0 = time.perf_counter()
            raised = _run(cell, ns)
            run_ms = (time.perf_counter() - t0) * 1000
            rows.append({
                "library": library, "name": name, "version": version,
                "raised": type(raised).__name__ if raised is not None else None,
                "raised_mro": [c.__name__ for c in type(raised).__mro__] if raised is not None
                else [],
                "message": str(raised).splitlines()[0][:200] if raised is not None and str(
                    raised) else "",
                "predicted": verdict.crash, "exception": verdict.exception,
                "explanation": verdict.explanation, "ms": round(ms, 3),
                "run_ms": round(run_ms, 3)})
    return rows


def main(argv: list[str]) -> int:
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
    os.environ.setdefault("KERAS_BACKEND", "tensorflow")
    import matplotlib
    matplotlib.use("Agg")
    for library in argv or LIBRARIES:
        for row in run_library(library):
            print(json.dumps(row), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
