"""An on-disk cache of chat replies, keyed by everything that shapes the reply."""

from __future__ import annotations

import hashlib
import json
import os
import stat
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

__all__ = ["MAX_ENTRY_BYTES", "ReplyCache", "cache_key"]

_FORMAT = "crashpredict.llm.cache/1"
# An entry holds one reply (at most MAX_REPLY_BYTES of body) re-encoded as JSON, so it is
# about that size; anything much larger was not written by this cache and is not read.
MAX_ENTRY_BYTES = 16 * 1024 * 1024
_NO_WAIT = getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)


def cache_key(request: Mapping[str, Any]) -> str:
    """Return the SHA-256 of the canonical JSON of ``request`` (model, messages, settings...)."""
    canonical = json.dumps({"format": _FORMAT, **request}, sort_keys=True, ensure_ascii=False,
                           separators=(",", ":"))
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()


@dataclass(frozen=True, slots=True)
class ReplyCache:
    """One JSON file per reply under ``root/<2 hex>/<key>.json``.

    Writes are atomic (a temporary file renamed into place), so concurrent benchmark runs
    sharing a cache never read half a file; an unreadable entry is a miss, never an error,
    and reading one is bounded (`MAX_ENTRY_BYTES`, regular files only, no waiting).
    """

    root: Path

    def _path(self, key: str) -> Path:
        return self.root / key[:2] / f"{key}.json"

    def get(self, key: str) -> dict[str, Any] | None:
        """Return the stored entry for ``key``, or None on a miss or an unreadable entry:
        missing, not a regular file (a FIFO, a device, a symlink), over `MAX_ENTRY_BYTES`,
        not UTF-8 JSON, nested too deeply, or not an entry of this format."""
        raw = _read_entry(self._path(key))
        if raw is None:
            return None
        try:
            data = json.loads(raw)
        except (ValueError, RecursionError):
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


def _read_entry(path: Path) -> bytes | None:
    """The bytes of the regular file at ``path`` if it holds at most `MAX_ENTRY_BYTES`, else None.

    Opened without following a symlink and without waiting (a FIFO with no writer would
    block an ordinary open forever), checked with fstat on the open file (no race with a
    swap after a check by name), and read no further than the bound even if it grows.
    """
    try:
        fd = os.open(path, os.O_RDONLY | _NO_WAIT)
    except OSError:
        return None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode) or info.st_size > MAX_ENTRY_BYTES:
            return None
        chunks, left = [], MAX_ENTRY_BYTES + 1
        while left > 0 and (chunk := os.read(fd, min(left, 1 << 20))):
            chunks.append(chunk)
            left -= len(chunk)
        return None if left <= 0 else b"".join(chunks)
    except OSError:
        return None
    finally:
        os.close(fd)
