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

from typing import TYPE_CHECKING

from .errors import (
    EquivalenceError,
    NbpatchError,
    NotebookError,
    PatchConflict,
    PatchError,
    ReplyError,
    RunError,
)

if TYPE_CHECKING:  # the names below load on first use (nbformat alone takes seconds)
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

#: where each public name lives; imported when first asked for, so that `nbpatch --version`
#: and `import nbpatch.errors` do not pay for nbformat, jsonschema and rapidfuzz
_LAZY = {
    **dict.fromkeys(("apply", "replacement"), "_apply"),
    "diff": "_diff",
    **dict.fromkeys(("Crash", "Difference", "Equivalence", "ScoreCheck", "equivalent"), "_equiv"),
    **dict.fromkeys(("DeleteCell", "Hunk", "InsertCell", "MoveCell", "Patch", "ReplaceNotebook",
                     "ReplaceSource", "SetMetadata", "SetOutputs"), "_model"),
    **dict.fromkeys(("read_notebook", "write_notebook"), "_notebook"),
    "read_reply": "_reply",
    **dict.fromkeys(("CellRun", "Run", "run_notebook", "traceback_lines"), "_run"),
    "PATCH_SCHEMA": "_schema",
    "similarity": "_similarity",
}


def __getattr__(name: str):
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'nbpatch' has no attribute {name!r}")
    from importlib import import_module

    value = getattr(import_module(f".{module}", __name__), name)
    globals()[name] = value  # later look-ups skip this function
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY))


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
