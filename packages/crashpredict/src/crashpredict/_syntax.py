"""Syntax trees copied by their fields alone.

``copy.deepcopy`` of an `ast` node copies every attribute it holds, not just its fields,
and `ast.parse` shares one ``Load()`` and one ``Store()`` among all the trees it makes.
Once IPython has shown a traceback, ``executing`` (through ``stack_data``) has set a
``parent`` on those two shared nodes, pointing into the syntax tree of the module that
raised (pandas' ``frame.py``, thousands of lines): from then on, a deep copy of any tree,
however small, copies that one too (570 ms for a three-line cell here, for the rest of
the session). `clone` copies what the node is: its fields and its positions.
"""

from __future__ import annotations

import ast
from typing import TypeVar

__all__ = ["clone"]

_Node = TypeVar("_Node", bound=ast.AST)


def clone(node: _Node) -> _Node:
    """A deep copy of ``node`` made of its fields (`ast.AST._fields`) and positions
    (``_attributes``) only; constants are shared (they are immutable)."""
    return _clone(node)


def _clone(value):  # type: ignore[no-untyped-def]
    if isinstance(value, ast.AST):
        new = type(value)()
        for name in value._fields:
            if hasattr(value, name):
                setattr(new, name, _clone(getattr(value, name)))
        for name in value._attributes:
            if hasattr(value, name):
                setattr(new, name, getattr(value, name))
        return new
    if isinstance(value, list):
        return [_clone(item) for item in value]
    return value
