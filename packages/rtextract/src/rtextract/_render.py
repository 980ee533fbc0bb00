"""render(): a snapshot as a compact text block for an LLM prompt, within a size budget.

Facts are admitted in rounds: first every object's headline facts (shape, dtype, columns,
fitted, built...), then the rest of its structure and types, then values, then children;
each round goes object by object in the order the cell reads them, so a tight budget keeps
the most telling facts of every object rather than all facts of the first ones.
"""

from __future__ import annotations

import json
from typing import Any

from rtextract._model import Fact, Facts, Snapshot

__all__ = ["render"]

_HEADLINE = frozenset({
    "shape", "dtype", "length", "columns", "device", "fitted", "built", "class", "n_features_in_",
    "feature_names_in_", "input_shape", "output_shape", "input_features", "output_features",
    "n_batches", "batch_size", "has_nan", "nan_count", "compiled", "steps", "transformers",
    "cardinality", "element_spec", "class_indices", "size", "mode", "value", "keys", "n_classes",
})
_VALUE_WIDTH = 240
_HEADER = "# Runtime facts (S=structure, R=representation, V=values)"


def render(snap: Snapshot, budget: int = 2000) -> str:
    """Render a snapshot as text of at most ``budget`` characters (about budget/4 tokens).

    Args:
        snap: a Snapshot (possibly filtered with ``snap.filter("SR")``).
        budget: the maximum length of the result in characters.

    Returns:
        Lines like ``df: pandas.DataFrame`` followed by ``  shape = [1000, 5]`` facts;
        when facts had to be left out the last line says how many.
    """
    budget = max(0, int(budget))
    blocks = [(name, facts, _ranked(facts)) for name, facts in snap.objects]
    if snap.notes:  # failed lookups (a KeyError on df['col']) are strong crash signals
        blocks.append(("notes", Facts(kind="snapshot notes", type_name=""),
                       [(0, f"  {note}") for note in snap.notes]))
    chosen: list[list[str]] = [[] for _ in blocks]
    used = len(_HEADER) + 1
    used += sum(len(_title(n, f)) + 1 for n, f, _ in blocks)
    total = sum(len(r) for _, _, r in blocks)
    admitted = 0
    for round_ in range(4):
        for i, (_, _, ranked) in enumerate(blocks):
            for tier, line in ranked:
                if tier != round_:
                    continue
                if used + len(line) + 1 > budget - 40:
                    continue
                chosen[i].append(line)
                used += len(line) + 1
                admitted += 1
    lines = [_HEADER]
    for (name, facts, _), body in zip(blocks, chosen):
        lines.append(_title(name, facts))
        lines.extend(body)
    if admitted < total:
        left = total - admitted
        lines.append(f"({left} more fact{'s' if left != 1 else ''} left out for space)")
    text = "\n".join(lines)
    return text if len(text) <= budget else _cut(text, budget)


def _cut(text: str, budget: int) -> str:
    if budget <= 1:
        return text[:budget]
    cut = text[: budget - 1]
    return cut[: cut.rfind("\n")] + "\n…" if "\n" in cut else cut + "…"


def _title(name: str, facts: Facts) -> str:
    if facts.kind == "snapshot notes":
        return "notes:"
    return f"{name}: {facts.kind} ({facts.type_name})" if facts.kind == "object" else f"{name}: {facts.kind}"


def _ranked(facts: Facts) -> list[tuple[int, str]]:
    ranked = [(_tier(f), _line(f)) for f in facts.items]
    ranked.extend((2, f"  note: {n}") for n in facts.notes)
    for child_name, child in facts.children:
        summary = ", ".join(_compact(f) for f in child.items if f.key in _HEADLINE)
        ranked.append((3, f"  [{child_name}] {child.kind}" + (f": {summary}" if summary else "")))
    return ranked


def _tier(fact: Fact) -> int:
    if fact.key in _HEADLINE:
        return 0
    return 1 if fact.category in "SR" else 2


def _line(fact: Fact) -> str:
    note = f"  ({fact.note})" if fact.note else ""
    return f"  {fact.category} {fact.key} = {_value(fact.value)}{note}"


def _compact(fact: Fact) -> str:
    return f"{fact.key}={_value(fact.value, 60)}"


def _value(value: Any, width: int = _VALUE_WIDTH) -> str:
    text = json.dumps(value, ensure_ascii=False, sort_keys=False, separators=(", ", ": "))
    return text if len(text) <= width else text[: width - 1] + "…"
