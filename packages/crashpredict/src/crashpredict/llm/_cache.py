"""An on-disk cache of chat replies, keyed by everything that shapes the reply."""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

__all__ = ["ReplyCache", "cache_key"]

_FORMAT = "crashpredict.llm.cache/1"


def cache_key(request: Mapping[str, Any]) -> str:
    """Return the SHA-256 of the canonical JSON of ``request`` (model, messages, settings...)."""
    canonical = json.dumps({"format": _FORMAT, **request}, sort_keys=True, ensure_ascii=False,
                           separators=(",", ":"))
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()


@dataclass(frozen=True, slots=True)
class ReplyCache:
    """One JSON file per reply under ``root/<2 hex>/<key>.json``.

    Writes are atomic (a temporary file renamed into place), so concurrent benchmark runs
    sharing a cache never read half a file; an unreadable entry is a miss, never an error.
    """

    root: Path

    def _path(self, key: str) -> Path:
        return self.root / key[:2] / f"{key}.json"

    def get(self, key: str) -> dict[str, Any] | None:
        """Return the stored entry for ``key``, or None on a miss or an unreadable file."""
        try:
            data = json.loads(self._path(key).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        if not isinstance(data, dict) or data.get("format") != _FORMAT:
            return None
        return data

    def put(self, key: str, entry: Mapping[str, Any]) -> None:
        """Store ``entry`` under ``key``; a cache that cannot be written is skipped silently,
        because a read-only cache directory must not fail the prediction it would speed up."""
        path = self._path(key)
        tmp: str | None = None
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-", suffix=".json")
            with os.fdopen(fd, "w", encoding="utf-8") as handle:
                json.dump({"format": _FORMAT, **entry}, handle, sort_keys=True, ensure_ascii=False)
            os.replace(tmp, path)
        except OSError:
            if tmp is not None:
                Path(tmp).unlink(missing_ok=True)

    def __len__(self) -> int:
        return sum(1 for _ in self.root.glob("??/*.json")) if self.root.is_dir() else 0
