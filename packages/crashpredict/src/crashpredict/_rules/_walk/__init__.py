"""The evaluator under the rules: walk a cell in execution order over the live namespace.

`CellWalker` (``_walker``, with its statements in ``_statements``) keeps an abstract
environment of the names the cell binds and calls the rules at every node; ``_pure`` and
``_effects`` decide which library calls it may evaluate and what a call changes. Rules see
the walker only through the `Walker` protocol (``_types``), so imports run one way:
rules -> ``_types`` <- walker.
"""

from ._pure import evaluate_call
from ._types import CallSite, CellFunction, FitState, Located, Rules, Stop, Walker
from ._walker import CellWalker

__all__ = ["CellWalker", "Walker", "Rules", "CallSite", "CellFunction", "FitState", "Located",
           "Stop", "evaluate_call"]
