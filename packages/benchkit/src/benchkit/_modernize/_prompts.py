"""The LLM prompts, one per problem class: error repair, runtime reduction, score calibration.

Every prompt shows the notebook's code cells numbered from 1 and asks for the changed cells
back as ``## === cell N`` blocks (the MLEModernizer format nbpatch reads); a reply may also
be a whole notebook (JSON or ``# %%`` script) or, for an error, one fenced block holding
the failing cell.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ._model import Classification, NotebookRun

SYSTEM = (
    "You modernize Jupyter notebooks written for older versions of Python ML libraries so that "
    "they run under today's versions and still do the same thing. Change as little as "
    "possible; keep comments; never remove the computation of the result."
)

_FORMAT = (
    "Reply with every cell you change, each as a block that starts with a header line "
    "'## === cell N' (N is the code cell number shown above) followed by the cell's complete "
    "new code, all inside one ```python fenced block. Do not repeat unchanged cells."
)

_VERSIONS = "Python 3.11, numpy 2, pandas 2, scikit-learn 1.9, Keras 3 / TensorFlow 2, torch 2"


def numbered_code(cells: Sequence[Mapping[str, Any]]) -> str:
    """The code cells as ``## === cell N`` blocks, N counting code cells from 1."""
    blocks, n = [], 0
    for cell in cells:
        if cell.get("cell_type") != "code":
            continue
        n += 1
        source = cell.get("source", "")
        source = "".join(source) if isinstance(source, list) else source
        blocks.append(f"## === cell {n}\n{source.rstrip()}")
    return "\n\n".join(blocks)


def code_number(cells: Sequence[Mapping[str, Any]], index: int) -> int:
    """The 1-based code cell number of the cell at ``index``."""
    return sum(1 for c in cells[: index + 1] if c.get("cell_type") == "code")


def _timings(cells: Sequence[Mapping[str, Any]], run: NotebookRun) -> str:
    lines = [f"cell {code_number(cells, c.index)}: {c.elapsed_s:.1f} s ({c.status})"
             for c in run.cells if c.status != "not-run"]
    return "\n".join(lines)


def build(kind: str, cells: Sequence[Mapping[str, Any]], cls: Classification,
          run: NotebookRun, *, timeout: float, tolerance: float,
          failed_cell: Any = None) -> list[dict[str, str]]:
    """The chat messages for the round's problem ``kind`` (error, timeout or score)."""
    code = numbered_code(cells)
    if kind == "error":
        cell = code_number(cells, cls.cell) if cls.cell is not None else "?"
        failed = run.failed
        task = (f"The notebook fails under {_VERSIONS}.\nCode cell {cell} raised "
                f"{cls.ename}: {cls.evalue}\n\nTraceback (last frames):\n"
                f"{failed.traceback if failed else ''}\n\nFix the cause (usually an API that "
                f"was renamed or removed) so that the whole notebook runs.")
    elif kind == "timeout":
        task = (f"The notebook did not finish within {timeout:g} s; it was stopped in code cell "
                f"{code_number(cells, cls.cell) if cls.cell is not None else '?'}.\nTime per "
                f"cell:\n{_timings(cells, run)}\n\nReduce its runtime (fewer epochs or "
                f"iterations, a sample of the data, cheaper settings) while keeping its results "
                f"as close as possible to the original.")
    elif cls.deviations:  # the saved outputs are the specification
        listed = "\n".join(f"- {d}" for d in cls.deviations)
        task = (f"The notebook runs under {_VERSIONS}, but some cells print other values than "
                f"the old notebook saved:\n{listed}\n\nFind what changed the result under "
                f"today's library versions (usually a changed default) and restore the original "
                f"behaviour, spelling the old setting out explicitly.")
    else:
        task = (f"The notebook runs, but its score is {cls.score!r} where the original reported "
                f"{cls.target!r} (allowed relative deviation {tolerance:g}).\n"
                f"{cls.message}\n\nFind what changed the result under today's library versions "
                f"(changed defaults, renamed parameters, random seeds) and restore the "
                f"original behaviour.")
    user = f"Notebook code cells:\n\n```python\n{code}\n```\n\n{task}\n\n{_FORMAT}"
    return [{"role": "system", "content": SYSTEM}, {"role": "user", "content": user}]


def retry_message(error: str) -> dict[str, str]:
    """The follow-up sent after a reply nbpatch could not use."""
    return {"role": "user", "content": f"Your reply could not be applied: {error}\n\n{_FORMAT}"}
