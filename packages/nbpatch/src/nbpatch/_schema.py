"""The JSON schema of a patch document, and its validation."""

from __future__ import annotations

from typing import Any

from .errors import PatchError

__all__ = ["PATCH_SCHEMA", "validate_patch"]

_KEY = {"type": "string", "minLength": 1}
_ANCHOR = {"type": ["string", "null"], "minLength": 1}
_LINES = {"type": "array", "items": {"type": "string"}}
_CELL = {
    "type": "object",
    "required": ["cell_type", "source"],
    "properties": {
        "cell_type": {"enum": ["code", "markdown", "raw"]},
        "source": {"anyOf": [{"type": "string"}, _LINES]},
        "metadata": {"type": "object"},
        "outputs": {"type": "array", "items": {"type": "object"}},
        "id": {"type": "string"},
    },
}


def _op(name: str, required: list[str], **props: Any) -> dict[str, Any]:
    return {
        "type": "object",
        "required": ["op", *required],
        "additionalProperties": False,
        "properties": {"op": {"const": name}, **props},
    }


PATCH_SCHEMA: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "$id": "https://example.invalid/nbpatch/patch-1.json",
    "title": "nbpatch patch",
    "description": (
        "Cell operations keyed by cell id (or '#<position>' in the base notebook; inserted "
        "cells without id use '+<position>' in the target), with the hash of every base cell "
        "they touch or anchor to."
    ),
    "type": "object",
    "required": ["nbpatch", "base", "ops"],
    "additionalProperties": False,
    "properties": {
        "nbpatch": {"const": 1},
        "base": {"type": "object", "additionalProperties": {"type": "string"}},
        "ops": {
            "type": "array",
            "items": {
                "oneOf": [
                    _op(
                        "replace_source",
                        ["cell", "hunks"],
                        cell=_KEY,
                        hunks={
                            "type": "array",
                            "items": {
                                "type": "object",
                                "required": ["at", "delete", "insert"],
                                "additionalProperties": False,
                                "properties": {
                                    "at": {"type": "integer", "minimum": 0},
                                    "delete": _LINES,
                                    "insert": _LINES,
                                },
                            },
                        },
                    ),
                    _op("insert", ["cell", "after", "content"], cell=_KEY, after=_ANCHOR,
                        content=_CELL),
                    _op("delete", ["cell"], cell=_KEY),
                    _op("move", ["cell", "after"], cell=_KEY, after=_ANCHOR),
                    _op("set_metadata", ["cell", "metadata"], cell=_ANCHOR,
                        metadata={"type": "object"}),
                    _op(
                        "set_outputs",
                        ["cell", "outputs", "execution_count"],
                        cell=_KEY,
                        outputs={"type": "array", "items": {"type": "object"}},
                        execution_count={"type": ["integer", "null"]},
                    ),
                    _op(
                        "replace_notebook",
                        ["notebook"],
                        notebook={
                            "type": "object",
                            "required": ["cells", "metadata", "nbformat", "nbformat_minor"],
                        },
                    ),
                ]
            },
        },
    },
}


def validate_patch(data: Any, *, source: str = "patch") -> None:
    """Raise ``PatchError`` (naming the first bad part) unless ``data`` matches the schema."""
    import jsonschema  # deferred: only needed when a patch crosses a boundary

    validator = jsonschema.Draft202012Validator(PATCH_SCHEMA)
    error = jsonschema.exceptions.best_match(validator.iter_errors(data))
    if error is not None:
        where = "/".join(str(p) for p in error.absolute_path) or "top level"
        raise PatchError(f"{source}: does not match the patch schema at {where}: {error.message}")
