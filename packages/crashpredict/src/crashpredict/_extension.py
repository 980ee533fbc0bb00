"""The IPython extension: check each cell before it runs.

``%load_ext crashpredict`` registers a ``pre_run_cell`` hook that prints a short warning
when a crash is predicted. ``pre_run_cell`` cannot cancel a cell, so strict mode uses an
input transformer instead: IPython runs it on every cell before execution, and for a cell
predicted to crash it returns a one-line replacement that raises `CellRefused`, so the
original code never runs (and "Run all" stops there, as it would at the crash).
"""

from __future__ import annotations

import sys
from typing import Any

from ._engines import predict
from ._model import Verdict
from ._render import warning_text
from .errors import CrashPredictError

__all__ = ["load_ipython_extension", "unload_ipython_extension", "CellRefused", "Guard"]

_MODES = ("warn", "strict", "off")
_SKIP_PREFIXES = ("%crashpredict", "%load_ext", "%unload_ext", "%reload_ext")


class CellRefused(CrashPredictError, RuntimeError):
    """Raised in place of a cell that strict mode refused to run."""


class Guard:
    """The extension's state: mode, and the hooks registered on one shell."""

    def __init__(self, shell: Any) -> None:
        self.shell = shell
        self.mode = "warn"
        self.last: Verdict | None = None
        self.refused: dict[int, Verdict] = {}

    # -- hooks ---------------------------------------------------------------------------
    def _predict(self, source: str) -> Verdict | None:
        text = source.strip()
        if not text or text.startswith(_SKIP_PREFIXES) or self.mode == "off":
            return None
        verdict = predict(source, self.shell.user_ns)
        self.last = verdict
        return verdict if verdict.crash else None

    def pre_run_cell(self, info: Any) -> None:
        """Warn about a predicted crash (warn mode; strict mode acts in `transform`)."""
        if self.mode != "warn":
            return
        try:
            verdict = self._predict(getattr(info, "raw_cell", "") or "")
        except Exception:  # never break the user's cell
            return
        if verdict is not None:
            print(warning_text(verdict), file=sys.stderr, flush=True)

    def transform(self, lines: list[str]) -> list[str]:
        """Strict mode: replace a cell predicted to crash with a refusal."""
        if self.mode != "strict":
            return lines
        try:
            verdict = self._predict("".join(lines))
        except Exception:
            return lines
        if verdict is None:
            return lines
        key = len(self.refused)
        self.refused[key] = verdict
        return [f"__import__('crashpredict._extension', fromlist=['refuse']).refuse({key})\n"]

    # -- magic ---------------------------------------------------------------------------
    def magic(self, line: str) -> None:
        """%crashpredict [on|warn|strict|off|status]"""
        word = line.strip().lower() or "status"
        if word == "on":
            word = "warn"
        if word in _MODES:
            self.mode = word
            print(f"crashpredict: {word}")
        elif word == "status":
            print(f"crashpredict: {self.mode}")
        else:
            print(f"crashpredict: unknown mode {line.strip()!r}; use on, strict, off or status",
                  file=sys.stderr)


_GUARD: Guard | None = None


def refuse(key: int) -> None:
    """Raise `CellRefused` with the diagnosis of a refused cell."""
    verdict = _GUARD.refused.pop(key, None) if _GUARD is not None else None
    if verdict is None:
        raise CellRefused("crashpredict refused to run this cell")
    where = f" at line {verdict.line}" if verdict.line else ""
    raise CellRefused(f"crashpredict (strict) refused to run this cell: {verdict.exception} "
                      f"predicted{where}: {verdict.explanation} "
                      f"(run `%crashpredict on` to run it anyway)")


def load_ipython_extension(ipython: Any) -> None:
    """Register the hooks and the ``%crashpredict`` magic on an IPython shell."""
    global _GUARD
    if _GUARD is not None and _GUARD.shell is ipython:
        return
    guard = Guard(ipython)
    ipython.events.register("pre_run_cell", guard.pre_run_cell)
    ipython.input_transformers_post.append(guard.transform)
    ipython.register_magic_function(guard.magic, magic_kind="line", magic_name="crashpredict")
    _GUARD = guard


def unload_ipython_extension(ipython: Any) -> None:
    """Remove the hooks (the magic stays registered but the guard is gone)."""
    global _GUARD
    guard = _GUARD
    if guard is None:
        return
    try:
        ipython.events.unregister("pre_run_cell", guard.pre_run_cell)
    except ValueError:
        pass
    if guard.transform in ipython.input_transformers_post:
        ipython.input_transformers_post.remove(guard.transform)
    guard.mode = "off"
    _GUARD = None
