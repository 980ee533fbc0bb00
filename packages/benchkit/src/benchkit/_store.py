"""Results on disk: one JSON line per (case, version), appended as each finishes.

An interrupted run loses nothing already written: a line is flushed and fsynced before the
next result is taken, and a torn last line (the process died mid-write) is ignored on
reading. A re-run reads the file and skips the keys it already holds, unless forced.

Every stored value is bounded (`bounded`): a string longer than `MAX_TEXT` characters keeps
its head and a marker saying how much was cut, a list or mapping keeps its first
`MAX_ITEMS` entries; a record still over `MAX_RECORD` characters is cut harder. So one
verdict with a 10 MB explanation cannot grow the file by 10 MB.
"""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

from typing import Any

from nbdeps import file_kind, read_bounded

from benchkit._model import Record
from benchkit.errors import ResultsError

RESULTS = "results.jsonl"
#: bytes a results file may have: 4,000 records at `MAX_RECORD` characters each
RESULTS_LIMIT = 256 << 20
#: characters kept of any one text field of a stored record
MAX_TEXT = 4000
#: entries kept of any one list or mapping of a stored record
MAX_ITEMS = 200
#: characters of one stored record (one line), at most
MAX_RECORD = 64_000
_DEPTH = 8  # nesting kept; a deeper value is replaced by its bounded repr
# harder cuts, tried in turn, for a record that is still too long
_TIERS = ((MAX_TEXT, MAX_ITEMS), (1000, 40), (200, 10), (60, 2))


def bounded(value: Any, *, max_text: int = MAX_TEXT, max_items: int = MAX_ITEMS, _depth: int = 0) -> Any:
    """``value`` (JSON-like) with every string, list and mapping cut to the limits.

    A cut string ends with ``… [N more characters]``; a cut list or mapping just stops
    (its kept entries are whole). Numbers, booleans and None pass unchanged.
    """
    if isinstance(value, str):
        if len(value) <= max_text:
            return value
        return f"{value[:max_text]}… [{len(value) - max_text} more characters]"
    if isinstance(value, (bool, int, float)) or value is None:
        return value
    if _depth >= _DEPTH:
        return bounded(repr(value), max_text=max_text)
    kw = dict(max_text=max_text, max_items=max_items, _depth=_depth + 1)
    if isinstance(value, dict):
        return {bounded(str(k), **kw): bounded(v, **kw) for k, v in list(value.items())[:max_items]}
    if isinstance(value, (list, tuple)):
        return [bounded(v, **kw) for v in value[:max_items]]
    return bounded(str(value), max_text=max_text)


def results_path(out_dir: str | Path) -> Path:
    path = Path(out_dir)
    return path if path.suffix == ".jsonl" else path / RESULTS


def read_records(path: str | Path) -> tuple[Record, ...]:
    """All complete records in a results file (or a folder holding results.jsonl).

    The last record per (task, case, version) wins, so a forced re-run's lines replace the
    earlier ones.

    Raises:
        ResultsError: the file is missing, not a regular file, over `RESULTS_LIMIT` bytes
            or not UTF-8, or a complete line is not a record.
    """
    path = results_path(path)
    if not path.exists() and not path.is_symlink():
        raise ResultsError(f"{path}: no results file")
    data = read_bounded(path, limit=RESULTS_LIMIT, what="results file", error=ResultsError)
    try:
        lines = data.decode("utf-8").split("\n")
    except UnicodeDecodeError as exc:
        raise ResultsError(f"{path}: not a results file (not UTF-8 text at byte {exc.start})") from None
    latest: dict[tuple[str, str, str], Record] = {}
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            record = _record(line)
        except (ValueError, TypeError) as exc:
            if number == len(lines):  # torn last line of an interrupted run
                continue
            raise ResultsError(f"{path}:{number}: not a result record: {exc}") from None
        latest[(record.task, record.case, record.version)] = record
    return tuple(latest.values())


def _record(line: str) -> Record:
    try:
        data = json.loads(line)
    except RecursionError:
        raise ValueError("JSON nested too deeply") from None
    if not isinstance(data, dict):
        raise ValueError(f"a JSON {type(data).__name__}, not an object")
    return Record.from_dict(data)


def record_line(record: Record) -> str:
    """The record as one bounded JSON line (without the newline), at most `MAX_RECORD` long."""
    data = record.to_dict()
    for max_text, max_items in _TIERS:
        line = json.dumps(bounded(data, max_text=max_text, max_items=max_items), sort_keys=True)
        if len(line) <= MAX_RECORD:
            break
    return line


class ResultStore:
    """Appends records to ``<out_dir>/results.jsonl`` and knows which keys are done."""

    def __init__(self, out_dir: str | Path, *, task: str, force: bool = False) -> None:
        self.path = results_path(out_dir)
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise ResultsError(f"{self.path.parent}: cannot make the results folder "
                               f"({exc.strerror or exc})") from None
        mode = self.path.stat().st_mode if self.path.exists() else stat.S_IFREG
        if not stat.S_ISREG(mode):  # appending to a FIFO would block, to a device lose it all
            raise ResultsError(f"{self.path}: is {file_kind(mode)}, not a regular file; "
                               "results are kept in a regular file only")
        self.task = task
        self._done: set[tuple[str, str]] = set()
        if self.path.exists() and not force:
            self._done = {r.key for r in read_records(self.path) if r.task == task}
        self._repair_torn_tail()

    def _repair_torn_tail(self) -> None:
        # a run killed mid-write leaves a partial last line: cut it off so appends stay lines
        if not self.path.exists():
            return
        data = read_bounded(self.path, limit=RESULTS_LIMIT, what="results file", error=ResultsError)
        if data and not data.endswith(b"\n"):
            with self.path.open("r+b") as fh:
                fh.truncate(data.rfind(b"\n") + 1)

    def done(self, key: tuple[str, str]) -> bool:
        return key in self._done

    def add(self, record: Record) -> None:
        line = record_line(record) + "\n"
        with self.path.open("a", encoding="utf-8") as fh:
            fh.write(line)
            fh.flush()
            os.fsync(fh.fileno())
        self._done.add(record.key)

    def records(self) -> tuple[Record, ...]:
        return tuple(r for r in read_records(self.path) if r.task == self.task) if self.path.exists() else ()
