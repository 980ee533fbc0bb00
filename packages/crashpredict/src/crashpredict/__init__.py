"""crashpredict: predict whether a notebook cell will crash before it runs.

The default ``rules`` engine checks the target cell against the live objects of the
kernel (never executing the cell) and returns a `Verdict` with the exception, line,
library, JunoBench crash type and a one-sentence explanation. ``dryrun`` runs the cell on
a fork of the process with side effects blocked; ``llm`` asks any OpenAI-compatible
model given the runtime facts (`crashpredict.llm`). They combine: see `predict`.
Notebooks are replayed in a private copy of their folder (`private_copy`).
"""

from ._engines import ENGINES, check_engines, predict, register_engine
from ._options import ENGINE_FLAGS, EngineFlag, engine_options
from ._model import CellRun, CheckResult, ReplayResult, Verdict, WalkResult, WalkStep
from ._workdir import WorkCopy, private_copy
from .errors import (
    CellNotFoundError, CrashPredictError, EngineOptionError, KernelError, NotebookReadError,
    ReplayError, UnknownEngineError,
)

__version__ = "0.1.0"

__all__ = [
    # prediction
    "Verdict", "predict", "ENGINES", "register_engine", "check_engines",
    # engine options (a CLI turns ENGINE_FLAGS into its flags)
    "ENGINE_FLAGS", "EngineFlag", "engine_options",
    # kernels and notebooks
    "KernelSession", "CellRun", "ReplayResult", "check_notebook", "CheckResult",
    "walk_notebook", "WalkResult", "WalkStep", "private_copy", "WorkCopy",
    # IPython extension
    "load_ipython_extension", "unload_ipython_extension",
    # errors
    "CrashPredictError", "NotebookReadError", "CellNotFoundError", "UnknownEngineError",
    "EngineOptionError",
    "KernelError", "ReplayError",
    "__version__",
]


def __getattr__(name: str):  # lazy: jupyter_client and IPython load only when used
    if name == "KernelSession":
        from ._kernel import KernelSession
        return KernelSession
    if name in ("check_notebook", "walk_notebook"):
        from . import _check
        return getattr(_check, name)
    if name in ("load_ipython_extension", "unload_ipython_extension"):
        from . import _extension
        return getattr(_extension, name)
    raise AttributeError(f"module 'crashpredict' has no attribute {name!r}")
