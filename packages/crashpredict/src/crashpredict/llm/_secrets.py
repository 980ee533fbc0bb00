"""Finding secret values by the name they are bound to: in code (AST) and in runtime facts.

The redactor's patterns catch ``password = "..."`` one string at a time. A secret also
travels inside containers and calls: ``pd.DataFrame({"password": ["hunter2", ...]})``,
``login(password="hunter2")``, ``{"token": "..."}``, ``def f(api_key="...")``, or only in
the data (a frame's ``password`` column, shown by its ``examples``). These functions
collect every such string, so the `Redactor` can hide it wherever else it appears in the
prompt (code, facts, notes), and blank the facts that hold it.
"""

from __future__ import annotations

import ast
import json
from collections.abc import Iterator
from typing import Any

from crashpredict.llm._redact import REDACTED, Redactor

__all__ = ["scrub_facts", "secret_values_in_code", "secret_values_in_snapshot"]

_PLACEHOLDERS = frozenset({"", "None", "xxx", "...", REDACTED, "null", "none"})
_REDACTED = REDACTED
# facts whose entries under a secret key are structure, not the secret: counts and types
_STRUCTURAL_FACTS = frozenset({"value_types", "nan_counts", "n_unique", "columns",
                               "dtype_counts", "keys", "element_types", "length", "shape"})


def _is_secret(name: Any) -> bool:
    return isinstance(name, str) and Redactor.is_secret_name(name)


def _strings(node: ast.AST) -> Iterator[str]:
    for sub in ast.walk(node):
        if isinstance(sub, ast.Constant) and isinstance(sub.value, str):
            yield sub.value


def _target_name(target: ast.AST) -> str | None:
    if isinstance(target, ast.Name):
        return target.id
    if isinstance(target, ast.Attribute):
        return target.attr
    if isinstance(target, ast.Subscript) and isinstance(target.slice, ast.Constant):
        key = target.slice.value
        return key if isinstance(key, str) else None
    return None


def _bound(target: ast.AST, value: ast.AST | None) -> Iterator[str]:
    """Strings in ``value`` when ``target`` has a secret name (tuples paired element-wise)."""
    if value is None:
        return
    if isinstance(target, (ast.Tuple, ast.List)):
        if isinstance(value, (ast.Tuple, ast.List)) and len(value.elts) == len(target.elts):
            for sub_target, sub_value in zip(target.elts, value.elts):
                yield from _bound(sub_target, sub_value)
        return
    if _is_secret(_target_name(target)):
        yield from _strings(value)


def _in_node(node: ast.AST) -> Iterator[str]:
    if isinstance(node, ast.Assign):
        for target in node.targets:
            yield from _bound(target, node.value)
    elif isinstance(node, (ast.AnnAssign, ast.AugAssign, ast.NamedExpr)):
        yield from _bound(node.target, node.value)
    elif isinstance(node, ast.keyword) and _is_secret(node.arg):
        yield from _strings(node.value)
    elif isinstance(node, ast.Dict):
        for key, value in zip(node.keys, node.values):
            if isinstance(key, ast.Constant) and _is_secret(key.value):
                yield from _strings(value)
    elif isinstance(node, ast.Compare) and _is_secret(_target_name(node.left)):
        for comparator in node.comparators:
            yield from _strings(comparator)
    elif isinstance(node, ast.arguments):
        positional = [*node.posonlyargs, *node.args]
        for arg, default in zip(positional[len(positional) - len(node.defaults):], node.defaults):
            if _is_secret(arg.arg):
                yield from _strings(default)
        for arg, default in zip(node.kwonlyargs, node.kw_defaults):
            if default is not None and _is_secret(arg.arg):
                yield from _strings(default)


def _trees(source: str) -> Iterator[ast.AST]:
    try:
        yield ast.parse(source)
        return
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        pass
    # IPython magics or a broken cell: the lines that parse on their own still count
    for line in source.splitlines():
        try:
            yield ast.parse(line.strip())
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            continue


def secret_values_in_code(source: str) -> set[str]:
    """Every string literal bound to a secret-sounding name in ``source``.

    Covers assignments (``api_key = "..."``, ``cfg.token = ...``, ``env["API_KEY"] = ...``,
    tuple unpacking), keyword arguments (``login(password="...")``), dict entries
    (``{"token": "..."}``, including lists of values such as a DataFrame column), default
    arguments (``def f(api_key="...")``) and comparisons (``password == "..."``).
    Placeholders (``""``, ``"..."``, ``"xxx"``) are left out. Never raises.
    """
    found: set[str] = set()
    try:
        for tree in _trees(source):
            for node in ast.walk(tree):
                found.update(v for v in _in_node(node) if v.strip() not in _PLACEHOLDERS)
    except RecursionError:
        pass
    return found


def scrub_facts(facts: dict[str, Any], found: set[str], *, blank_values: bool = False) -> None:
    """Redact, in place, one object's facts (a ``Facts.to_dict()``) and its children's.

    Every entry under a secret key in a fact (a ``password`` column's examples, min/max,
    an ``api_key`` attribute, an estimator's ``token`` parameter) becomes ``[REDACTED]``,
    except counts and types (``n_unique``, ``value_types``...). With ``blank_values`` (an
    object whose name, or whose pandas ``name``, sounds secret) every V fact is blanked.
    The string values removed are added to ``found``.
    """
    items = facts.get("items") or ()
    named = any(i.get("key") == "name" and _is_secret(i.get("value")) for i in items)
    for item in items:
        if (blank_values or named) and item.get("category") == "V":
            _collect(item.get("value"), found)
            item["value"] = _REDACTED
        elif item.get("key") not in _STRUCTURAL_FACTS:
            item["value"] = _scrub_value(item.get("value"), found)
    for child in facts.get("children") or ():
        if isinstance(child, (list, tuple)) and len(child) == 2 and isinstance(child[1], dict):
            scrub_facts(child[1], found, blank_values=blank_values or _is_secret(child[0]))


def _scrub_value(value: Any, found: set[str], depth: int = 0) -> Any:
    if depth > 20:
        return value
    if isinstance(value, dict):
        out = {}
        for key, sub in value.items():
            if _is_secret(key) and sub is not None and not isinstance(sub, bool):
                _collect(sub, found)
                out[key] = _REDACTED
            else:
                out[key] = _scrub_value(sub, found, depth + 1)
        return out
    if isinstance(value, list):
        return [_scrub_value(v, found, depth + 1) for v in value]
    return value


def _collect(value: Any, found: set[str], depth: int = 0) -> None:
    if isinstance(value, str):
        if value.strip() not in _PLACEHOLDERS:
            found.add(value)
    elif isinstance(value, (list, tuple)) and depth < 20:
        for sub in value:
            _collect(sub, found, depth + 1)
    elif isinstance(value, dict) and depth < 20:
        for sub in value.values():
            _collect(sub, found, depth + 1)


def secret_values_in_snapshot(snapshot_json: str | None) -> set[str]:
    """The string values of secret-named objects, columns and keys in a whole snapshot.

    Read before the snapshot is filtered to the prompt's fact categories, so that with
    ``--no-values`` a password seen only in the data is still hidden in the code. Returns
    an empty set for anything that is not a snapshot document (never raises).
    """
    found: set[str] = set()
    try:
        data = json.loads(snapshot_json) if snapshot_json else None
        for name, facts in (data or {}).get("objects", ()):
            if isinstance(facts, dict):
                scrub_facts(facts, found, blank_values=_is_secret(str(name)))
    except (ValueError, TypeError, AttributeError, RecursionError):
        pass
    return found
