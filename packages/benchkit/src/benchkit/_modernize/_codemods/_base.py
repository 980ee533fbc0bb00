"""The codemod framework: a rule is a libcst transformer plus when it may run.

A rule is *static* (its own match is the evidence: ``np.float`` exists nowhere today) or
*error-triggered* (it rewrites code that is still valid Python for other types, such as
``x.append(y)``, so it runs only after an error message that names the removed API, and
only on the lines the traceback points to or on what those lines show to be the culprit).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field

import libcst as cst
from libcst.metadata import PositionProvider


@dataclass(slots=True, kw_only=True)
class Scope:
    """What a rule may know while it rewrites one cell.

    ``aliases`` maps names bound by imports anywhere in the notebook to their module path
    (``np -> numpy``, ``Adam -> keras.optimizers.Adam``). ``error_lines`` are the lines of
    this cell the traceback points to (``None``: not the failing cell). ``shared`` carries
    facts from the failing cell to the others (e.g. the receivers of a removed method).
    ``imports`` collects the import lines a rewrite needs (``import numpy as np``).
    ``error`` is the round's error text: the knowledge base's type-dependent entries need it.
    """

    aliases: dict[str, str]
    error_lines: frozenset[int] | None = None
    error: str | None = None  # "ename: evalue" of the round's error, for the knowledge base
    shared: dict[str, set[str]] = field(default_factory=dict)
    imports: list[str] = field(default_factory=list)

    def alias_for(self, module: str, default: str) -> str:
        """The name the notebook uses for ``module``; asks for an import when there is none."""
        for name, target in self.aliases.items():
            if target == module:
                return name
        line = f"import {module} as {default}" if default != module else f"import {module}"
        if line not in self.imports:
            self.imports.append(line)
        # from now on the name is bound: later rules may rely on it
        self.aliases[default] = module
        return default


@dataclass(frozen=True, slots=True, kw_only=True)
class Rule:
    """One codemod: an id, the library, what it rewrites and when it applies.

    ``trigger`` is a regex searched in ``"ename: evalue"`` of the failing cell; ``None``
    means a static rule. ``hint`` is a cheap regex a cell must match for the rule to be
    worth parsing for. ``make`` builds a fresh transformer for one cell.
    """

    id: str
    library: str
    rewrites: str
    applies: str
    make: Callable[[Scope], RuleTransformer]
    trigger: re.Pattern[str] | None = None
    hint: re.Pattern[str] | None = None
    example: tuple[str, str] = ("", "")


class RuleTransformer(cst.CSTTransformer):
    """Base of the rule transformers: knows the scope and whether it changed anything.

    Rules that look at the traceback's lines set ``METADATA_DEPENDENCIES =
    (PositionProvider,)``; the others skip the cost of computing positions.
    """

    def __init__(self, scope: Scope) -> None:
        super().__init__()
        self.scope = scope
        self.changed = False

    def on_error_line(self, node: cst.CSTNode) -> bool:
        """True when ``node`` spans a line the traceback names (in the failing cell)."""
        lines = self.scope.error_lines
        if not lines:
            return False
        pos = self.get_metadata(PositionProvider, node)
        return any(pos.start.line <= n <= pos.end.line for n in lines)

    def mark(self, node: cst.CSTNode) -> cst.CSTNode:
        self.changed = True
        return node


def dotted(node: cst.BaseExpression) -> str | None:
    """``a.b.c`` for a chain of names and attributes, else ``None``."""
    if isinstance(node, cst.Name):
        return node.value
    if isinstance(node, cst.Attribute):
        base = dotted(node.value)
        return f"{base}.{node.attr.value}" if base else None
    return None


def qualified(node: cst.BaseExpression, aliases: Mapping[str, str]) -> str | None:
    """The module path of a name or attribute chain, resolved through the imports."""
    text = dotted(node)
    if text is None:
        return None
    head, _, rest = text.partition(".")
    if head not in aliases:
        return None
    return aliases[head] + (f".{rest}" if rest else "")


def is_module(node: cst.BaseExpression, aliases: Mapping[str, str], module: str) -> bool:
    """True when ``node`` is a name bound to ``module`` (``np`` for numpy)."""
    return isinstance(node, cst.Name) and aliases.get(node.value) == module


def kwarg(call: cst.Call, name: str) -> cst.Arg | None:
    return next((a for a in call.args if a.keyword and a.keyword.value == name), None)


def without(call: cst.Call, *names: str) -> tuple[cst.Arg, ...]:
    """The call's arguments minus the keywords ``names``, with a clean trailing comma."""
    args = [a for a in call.args if not (a.keyword and a.keyword.value in names)]
    if args and args[-1].comma is not cst.MaybeSentinel.DEFAULT:
        args[-1] = args[-1].with_changes(comma=cst.MaybeSentinel.DEFAULT)
    return tuple(args)


def rename_kwarg(call: cst.Call, old: str, new: str) -> cst.Call:
    return call.with_changes(args=tuple(
        a.with_changes(keyword=cst.Name(new)) if a.keyword and a.keyword.value == old else a
        for a in call.args))


def string_value(node: cst.BaseExpression) -> str | None:
    """The value of a plain (not f-, not concatenated) string literal."""
    if isinstance(node, cst.SimpleString):
        try:
            value = node.evaluated_value
        except Exception:  # a malformed literal: leave it alone
            return None
        return value if isinstance(value, str) else None
    return None


def same_quotes(node: cst.SimpleString, value: str) -> cst.SimpleString:
    """A string literal holding ``value``, written with ``node``'s prefix and quotes."""
    quote = node.quote
    return node.with_changes(value=f"{node.prefix}{quote}{value}{quote}")


def expr(code: str) -> cst.BaseExpression:
    return cst.parse_expression(code)


def import_aliases(modules: Iterable[cst.Module]) -> dict[str, str]:
    """Names bound by ``import`` statements in ``modules`` mapped to their module path."""
    found: dict[str, str] = {}

    class Collect(cst.CSTVisitor):
        def visit_Import(self, node: cst.Import) -> None:
            for alias in node.names:
                full = dotted(alias.name) or ""
                if alias.asname is not None and isinstance(alias.asname.name, cst.Name):
                    found[alias.asname.name.value] = full
                else:
                    head = full.split(".")[0]
                    found.setdefault(head, head)

        def visit_ImportFrom(self, node: cst.ImportFrom) -> None:
            if node.relative or node.module is None or isinstance(node.names, cst.ImportStar):
                return
            base = dotted(node.module) or ""
            for alias in node.names:
                name = dotted(alias.name) or ""
                bound = (alias.asname.name.value if alias.asname is not None
                         and isinstance(alias.asname.name, cst.Name) else name)
                found[bound] = f"{base}.{name}"

    for module in modules:
        module.visit(Collect())
    return found
