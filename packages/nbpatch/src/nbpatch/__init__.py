"""nbpatch: cell-level notebook diff and patch, edit similarity, functional equivalence.

    >>> import nbpatch
    >>> patch = nbpatch.diff("old.ipynb", "new.ipynb")          # doctest: +SKIP
    >>> new_nb = nbpatch.apply("old.ipynb", patch)               # doctest: +SKIP
    >>> nbpatch.similarity("old.ipynb", "new.ipynb")             # doctest: +SKIP
    >>> nbpatch.equivalent("old.ipynb", "new.ipynb", score="acc")  # doctest: +SKIP
    >>> nbpatch.run_notebook("old.ipynb", timeout=60).failed     # doctest: +SKIP

Running notebooks (``run_notebook``, ``equivalent``) needs the ``run`` extra:
``pip install 'nbpatch[run]'``; diff, apply and similarity do not.
"""

from ._apply import apply, replacement
from ._diff import diff
from ._equiv import Crash, Difference, Equivalence, ScoreCheck, equivalent
from ._model import (
    DeleteCell,
    Hunk,
    InsertCell,
    MoveCell,
    Patch,
    ReplaceNotebook,
    ReplaceSource,
    SetMetadata,
    SetOutputs,
)
from ._notebook import read_notebook, write_notebook
from ._reply import read_reply
from ._run import CellRun, Run, run_notebook, traceback_lines
from ._schema import PATCH_SCHEMA
from ._similarity import similarity
from .errors import (
    EquivalenceError,
    NbpatchError,
    NotebookError,
    PatchConflict,
    PatchError,
    ReplyError,
    RunError,
)

__version__ = "0.1.0"

__all__ = [
    # diff and patch
    "diff",
    "apply",
    "replacement",
    "Patch",
    "PATCH_SCHEMA",
    "Hunk",
    "ReplaceSource",
    "InsertCell",
    "DeleteCell",
    "MoveCell",
    "SetMetadata",
    "SetOutputs",
    "ReplaceNotebook",
    # LLM and tool replies
    "read_reply",
    # similarity and equivalence
    "similarity",
    "equivalent",
    "Equivalence",
    "Difference",
    "ScoreCheck",
    "Crash",
    # running notebooks (the ``run`` extra)
    "run_notebook",
    "Run",
    "CellRun",
    "traceback_lines",
    # files
    "read_notebook",
    "write_notebook",
    # errors
    "NbpatchError",
    "NotebookError",
    "PatchError",
    "PatchConflict",
    "ReplyError",
    "RunError",
    "EquivalenceError",
    "__version__",
]
