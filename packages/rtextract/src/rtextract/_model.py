"""Frozen result types: Fact, Facts, Access and Snapshot, with their JSON forms."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from rtextract.errors import SnapshotFormatError

__all__ = ["CATEGORIES", "Access", "Fact", "Facts", "Snapshot", "check_categories"]

#: S = structure (shapes, sizes, lengths), R = representation/type, V = values.
CATEGORIES = "SRV"


def check_categories(categories: str) -> str:
    """Return ``categories`` normalised (upper case, ordered S, R, V) or raise ValueError."""
    text = str(categories).upper()
    bad = sorted(set(text) - set(CATEGORIES))
    if bad:
        raise SnapshotFormatError(f"unknown fact categories {''.join(bad)!r}: use letters of 'SRV'")
    return "".join(c for c in CATEGORIES if c in text)


# Fact and Access are positional on purpose: the API contract shows them built as
# Fact("shape", [10, 3], "S") and Access("model", ("layers", 0), ...).
@dataclass(frozen=True, slots=True)
class Fact:
    """One runtime fact: a key, a JSON-able value, a category (S, R or V) and a note.

    The note says how the value was obtained when that matters
    ("NaN in first 100,000 rows of 10,000,000").
    """

    key: str
    value: Any
    category: str
    note: str | None = None

    def to_dict(self) -> dict[str, Any]:
        """Return the JSON form of this fact."""
        return {"key": self.key, "value": self.value, "category": self.category, "note": self.note}


@dataclass(frozen=True, slots=True, kw_only=True)
class Facts:
    """Everything ``describe`` found about one object."""

    kind: str
    type_name: str
    items: tuple[Fact, ...] = ()
    notes: tuple[str, ...] = ()
    children: tuple[tuple[str, Facts], ...] = ()

    def get(self, key: str, default: Any = None) -> Any:
        """Return the value of the fact named ``key``, or ``default`` when absent."""
        for fact in self.items:
            if fact.key == key:
                return fact.value
        return default

    def fact(self, key: str) -> Fact | None:
        """Return the whole Fact named ``key`` (with its category and note), or None."""
        for fact in self.items:
            if fact.key == key:
                return fact
        return None

    def child(self, name: str) -> Facts | None:
        """Return the facts of the child called ``name`` (a pipeline step, a layer), or None."""
        for child_name, facts in self.children:
            if child_name == name:
                return facts
        return None

    def filter(self, categories: str) -> Facts:
        """Return a copy keeping only facts whose category is in ``categories`` (e.g. "SR")."""
        keep = check_categories(categories)
        return Facts(
            kind=self.kind,
            type_name=self.type_name,
            items=tuple(f for f in self.items if f.category in keep),
            notes=self.notes,
            children=tuple((name, c.filter(keep)) for name, c in self.children),
        )

    def to_dict(self) -> dict[str, Any]:
        """Return the JSON form (plain dicts, lists and scalars)."""
        return {
            "kind": self.kind,
            "type_name": self.type_name,
            "items": [f.to_dict() for f in self.items],
            "notes": list(self.notes),
            "children": [[name, c.to_dict()] for name, c in self.children],
        }

    @classmethod
    def from_dict(cls, data: Any) -> Facts:
        """Rebuild Facts from ``to_dict`` output; raise SnapshotFormatError when malformed."""
        try:
            return cls(
                kind=str(data["kind"]),
                type_name=str(data["type_name"]),
                items=tuple(
                    Fact(str(i["key"]), i["value"], str(i["category"]), i.get("note"))
                    for i in data.get("items", ())
                ),
                notes=tuple(str(n) for n in data.get("notes", ())),
                children=tuple((str(n), cls.from_dict(c)) for n, c in data.get("children", ())),
            )
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise SnapshotFormatError(f"not a facts document: {type(exc).__name__}: {exc}") from None


@dataclass(frozen=True, slots=True)
class Access:
    """A name, and the attribute/subscript chain after it, that a cell reads.

    ``path`` holds attribute names as plain strings, integer subscripts as ints and other
    literal subscripts as their source form in brackets: ``df['col']`` -> ``("['col']",)``.
    """

    name: str
    path: tuple[Any, ...]
    line: int
    text: str


@dataclass(frozen=True, slots=True, kw_only=True)
class Snapshot:
    """Facts about the objects a cell touches, keyed by the access text (``df['col']``)."""

    objects: tuple[tuple[str, Facts], ...] = ()
    categories: str = CATEGORIES
    notes: tuple[str, ...] = ()

    def get(self, text: str) -> Facts | None:
        """Return the facts recorded for the access ``text`` (e.g. ``"df"``), or None."""
        for name, facts in self.objects:
            if name == text:
                return facts
        return None

    def filter(self, categories: str) -> Snapshot:
        """Return a snapshot keeping only the given fact categories (any of "S", "R", "V")."""
        keep = check_categories(categories)
        return Snapshot(
            objects=tuple((name, f.filter(keep)) for name, f in self.objects),
            categories="".join(c for c in keep if c in self.categories),
            notes=self.notes,
        )

    def to_dict(self) -> dict[str, Any]:
        """Return the JSON form (plain dicts and lists)."""
        return {
            "format": "rtextract.snapshot/1",
            "categories": self.categories,
            "objects": [[name, f.to_dict()] for name, f in self.objects],
            "notes": list(self.notes),
        }

    def to_json(self) -> str:
        """Return deterministic JSON (sorted keys, no NaN literals)."""
        return json.dumps(self.to_dict(), sort_keys=True, allow_nan=False, ensure_ascii=False)

    @classmethod
    def from_dict(cls, data: Any) -> Snapshot:
        """Rebuild a snapshot from ``to_dict`` output; raise SnapshotFormatError if malformed."""
        if not isinstance(data, dict) or data.get("format") != "rtextract.snapshot/1":
            raise SnapshotFormatError("not an rtextract snapshot (missing format 'rtextract.snapshot/1')")
        try:
            objects = tuple((str(n), Facts.from_dict(f)) for n, f in data.get("objects", ()))
            return cls(
                objects=objects,
                categories=check_categories(data.get("categories", CATEGORIES)),
                notes=tuple(str(n) for n in data.get("notes", ())),
            )
        except (TypeError, ValueError) as exc:
            raise SnapshotFormatError(f"not an rtextract snapshot: {exc}") from None

    @classmethod
    def from_json(cls, text: str) -> Snapshot:
        """Parse ``to_json`` output; raise SnapshotFormatError when it is not a snapshot."""
        try:
            data = json.loads(text)
        except (TypeError, ValueError) as exc:
            raise SnapshotFormatError(f"snapshot is not valid JSON: {exc}") from None
        return cls.from_dict(data)

