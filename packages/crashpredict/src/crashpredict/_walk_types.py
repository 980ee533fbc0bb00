"""The values the cell walker and its rules exchange."""

from __future__ import annotations

import ast
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ._finding import Finding

if TYPE_CHECKING:
    from ._flow import CellWalker

__all__ = ["CallSite", "Located", "Stop", "FitState", "Rules", "CellFunction"]


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
    walker: CellWalker

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


@dataclass
class Rules:
    """The rule functions the walker calls; each returns a Finding or None."""

    name: list[Callable[[str, CellWalker], Finding | None]] = field(default_factory=list)
    attribute: list[Callable[[Any, str, CellWalker], Finding | None]] = field(
        default_factory=list)
    subscript: list[Callable[[Any, Any, CellWalker], Finding | None]] = field(
        default_factory=list)
    call: list[Callable[[CallSite], Finding | None]] = field(default_factory=list)
    binop: list[Callable[[ast.operator, Any, Any, CellWalker], Finding | None]] = field(
        default_factory=list)
    statement: list[Callable[[ast.stmt, CellWalker], Finding | None]] = field(
        default_factory=list)
    unpack: list[Callable[[Any, Any, CellWalker], Finding | None]] = field(
        default_factory=list)
    store_attribute: list[Callable[[Any, str, Any, CellWalker], Finding | None]] = field(
        default_factory=list)
    evaluate_call: Callable[[CallSite], tuple[str, Any]] | None = None
    after_call: list[Callable[[CallSite, Any], Any]] = field(default_factory=list)



class CellFunction:
    """A function defined by a ``def`` earlier in the target cell (not run yet)."""

    __slots__ = ("node",)

    def __init__(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        self.node = node
