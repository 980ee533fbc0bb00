"""Where the rule engine uses its sibling packages: nbdeps for names, rtextract for facts."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any

import nbdeps
import rtextract

__all__ = ["free_names", "facts_line"]


def free_names(source: str) -> frozenset[str] | None:
    """Names the cell reads before binding them (nbdeps); None when nbdeps cannot say."""
    try:
        info = nbdeps.analyze_cell(source)
    except Exception:
        return None
    if getattr(info, "syntax_error", None) is not None or getattr(info, "star_imports", ()):
        return None
    return frozenset(ref.name for ref in info.uses)


_KEYS = ("shape", "columns", "dtype", "n_features_in", "n_features_in_", "fitted", "length",
         "keys", "input_shape", "device")


def facts_line(name: str, obj: Any, budget: int = 200) -> str | None:
    """One evidence line of runtime facts about a live object (rtextract.describe)."""
    try:
        facts = rtextract.describe(obj)
        picked: dict[str, Any] = {}
        for item in facts.items:
            if item.key in _KEYS:
                picked[item.key] = item.value
        if not picked:
            return None
        text = json.dumps(picked, default=str)
    except Exception:
        return None
    if len(text) > budget:
        text = text[:budget - 3] + "..."
    return f"{name} ({facts.type_name}): {text}"


def names_on_line(source: str, line: int, namespace: Mapping[str, Any]) -> list[str]:
    """Namespace names mentioned on a cell line, in order of appearance."""
    lines = source.splitlines()
    if not 1 <= line <= len(lines):
        return []
    seen: list[str] = []
    for word in re.findall(r"[A-Za-z_][A-Za-z0-9_]*", lines[line - 1]):
        if word in namespace and word not in seen and not word.startswith("_"):
            seen.append(word)
    return seen
