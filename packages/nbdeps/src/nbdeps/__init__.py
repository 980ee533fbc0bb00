"""nbdeps: cross-cell def-use graphs and execution-history hazards for Jupyter notebooks.

    >>> import nbdeps
    >>> nb = nbdeps.load_notebook([("import pandas as pd", 1), ("df = pd.read_csv(p)", 2)])
    >>> [f.code for f in nbdeps.check(nb)]
    ['ND101']
"""

from ._cellinfo import analyze_cell
from ._checks import CODES, check, runs_top_to_bottom
from ._files import NOTEBOOK_LIMIT, file_kind, read_bounded, replace_file
from ._graph import affected_by, build_graph, rerun_order
from ._load import load_notebook
from ._model import (
    Cell,
    CellInfo,
    DepGraph,
    Edge,
    Finding,
    Hazard,
    Mutation,
    NameRef,
    Notebook,
    SyntaxIssue,
)
from ._render import to_dot, to_html, to_json, to_mermaid, to_networkx, to_png, to_svg
from ._report import to_sarif, to_text
from ._transform import ipython_to_python
from .errors import CellIndexError, MissingExtraError, NbdepsError, NotebookError

__version__ = "0.1.0"

__all__ = [
    # reading
    "load_notebook",
    "Notebook",
    "Cell",
    # per-cell facts
    "analyze_cell",
    "CellInfo",
    "NameRef",
    "Mutation",
    "Hazard",
    "SyntaxIssue",
    "ipython_to_python",
    # graph and questions
    "build_graph",
    "DepGraph",
    "Edge",
    "rerun_order",
    "affected_by",
    "runs_top_to_bottom",
    # findings
    "check",
    "Finding",
    "CODES",
    # renderings
    "to_dot",
    "to_mermaid",
    "to_json",
    "to_networkx",
    "to_svg",
    "to_png",
    "to_html",
    "to_text",
    "to_sarif",
    # files: bounded reads and safe replacement, for the command lines built on nbdeps
    "read_bounded",
    "replace_file",
    "file_kind",
    "NOTEBOOK_LIMIT",
    # errors
    "NbdepsError",
    "NotebookError",
    "CellIndexError",
    "MissingExtraError",
    "__version__",
]
