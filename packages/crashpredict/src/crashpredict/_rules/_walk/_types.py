"""The values the cell walker and its rules exchange, and what rules may ask of the walker.

Rules see the walker only through the `Walker` protocol below, so they import this module
and never the walker itself: the walker (`_walker.CellWalker`) imports the rules' types,
not the other way round.
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from .._finding import Finding

__all__ = ["COMPILED_IN_CELL", "MODULE_MODES", "CallSite", "Located", "Stop", "FitState", "Rules", "CellFunction", "Walker"]


#: The key of a walk's scratch under which `_model_facts.record_compiled_loss` keeps, by the
#: identity of a live Keras model, (the loss the cell compiled it with or None, the call).
COMPILED_IN_CELL = "keras compiled in the cell"
#: ...and under which `_effects.effects_of_call` lists, in order, the torch modules the cell
#: puts in training or evaluation mode (``model.train()``, ``model.eval()``): (module, mode).
MODULE_MODES = "torch modes set in the cell"


@dataclass(slots=True)
class CallSite:
    """What a call rule sees: the callee, its receiver and the evaluated arguments."""

    node: ast.Call
    func: Any
    receiver: Any  # the object before ".method(" or UNKNOWN
    method: str | None  # the attribute name when the call is obj.method(...)
    args: tuple[Any, ...]
    kwargs: dict[str, Any]
    starred: bool  # *args or **kwargs present: binding cannot be checked
    arg_names: tuple[str | None, ...]  # source names of positional args, for messages
    kwarg_names: dict[str, str | None]
    walker: Walker

    def text(self, node: ast.AST) -> str:
        """Source text of a node of this call (for explanations)."""
        return self.walker.text(node)


@dataclass(slots=True)
class Located:
    """A finding with the cell line it happens on."""

    finding: Finding
    line: int


class Stop(Exception):
    """Raised inside the walk to stop at the first certain finding."""

    def __init__(self, located: Located) -> None:
        self.located = located


@dataclass(slots=True)
class FitState:
    """An estimator fitted earlier in the cell: what it was fitted on, if known."""

    estimator: Any
    n_features: int | None
    feature_names: tuple[str, ...] | None
    known: bool
    data: tuple[Any, Any] | None = None  # the real (X, y) it was fitted on, when known


@dataclass
class Rules:
    """The rule functions the walker calls; each returns a Finding or None."""

    name: list[Callable[[str, Walker], Finding | None]] = field(default_factory=list)
    attribute: list[Callable[[Any, str, Walker], Finding | None]] = field(
        default_factory=list)
    # ``obj.name`` where obj is a `Changed` live object: what its class alone tells
    changed_attribute: list[Callable[[Any, str, Walker], Finding | None]] = field(
        default_factory=list)
    subscript: list[Callable[[Any, Any, Walker], Finding | None]] = field(
        default_factory=list)
    call: list[Callable[[CallSite], Finding | None]] = field(default_factory=list)
    binop: list[Callable[[ast.operator, Any, Any, Walker], Finding | None]] = field(
        default_factory=list)
    statement: list[Callable[[ast.stmt, Walker], Finding | None]] = field(
        default_factory=list)
    unpack: list[Callable[[Any, Any, Walker], Finding | None]] = field(
        default_factory=list)
    store_item: list[Callable[[Any, Any, Any, Walker], Finding | None]] = field(
        default_factory=list)
    store_attribute: list[Callable[[Any, str, Any, Walker], Finding | None]] = field(
        default_factory=list)
    evaluate_call: Callable[[CallSite], tuple[str, Any]] | None = None
    after_call: list[Callable[[CallSite, Any], Any]] = field(default_factory=list)
    # Propagation: what a call, attribute, subscript or operation the walker cannot run
    # gives, as facts (an Abstract value), or None when nothing is known.
    propagate_call: Callable[[CallSite], Any] | None = None
    propagate_attribute: Callable[[Any, str, ast.AST, Walker], Any] | None = None
    propagate_subscript: Callable[[Any, Any, ast.AST, Walker], Any] | None = None
    propagate_binop: Callable[[Any, Any, Any, ast.AST, Walker], Any] | None = None
    propagate_compare: Callable[[Any, Any, Any, ast.AST, Walker], Any] | None = None
    # (first item, number of items, last item or None when like the first) of what a for
    # loop iterates, when all are certain
    propagate_iter: Callable[[Any], tuple[Any, int, Any] | None] | None = None



class CellFunction:
    """A function defined by a ``def`` earlier in the target cell (not run yet)."""

    __slots__ = ("node",)

    def __init__(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        self.node = node


class Walker(Protocol):
    """What rules and the walk's helpers may read or call on the walker of the cell."""

    source: str
    lines: list[str]
    original: str  # the cell as the user wrote it (IPython syntax included)
    namespace: Any  # the kernel's user namespace (read only)
    env: dict[str, Any]  # names the cell bound so far, to real values or UNKNOWN
    notes: list[str]
    subject: str  # source text of the object the current rule looks at
    grad_certain: bool  # torch's autograd mode in the walk is the cell's (`CellWalker`)
    grad_lost: bool  # a call set torch's autograd mode for the rest of the cell
    grad_unsure: int  # inside the bodies of this many managers that may set it
    uncertain: int  # > 0 inside branches that may not run
    fitted: dict[int, FitState]
    namespace_dirty: bool
    modules_changed: bool
    environment_changed: bool
    scratch: dict[str, Any]  # per-walk caches of rules (meta copies of torch modules)

    def text(self, node: ast.AST) -> str:
        """Source text of ``node``."""

    def free_names(self) -> frozenset[str] | None:
        """Names the cell reads before binding them, or None when unknown."""

    def fit_state(self, estimator: Any) -> FitState | None:
        """What ``estimator`` was fitted on earlier in this cell, if it was."""

    def report(self, finding: Finding | None, node: ast.AST) -> None:
        """Record ``finding`` at ``node``'s line (stops the walk when certain)."""

    def value_of(self, node: ast.expr) -> Any:
        """Evaluate ``node`` again, quietly (no rule reports), for a propagation step."""

    def taint(self, node: ast.AST) -> None:
        """Forget what is known of the names ``node`` refers to (it was changed)."""

    def changed_by_call(self, node: ast.AST) -> None:
        """``node`` is the receiver of a call that may change it: forget what it holds,
        keep its class when ``node`` is a name (`Changed`)."""
