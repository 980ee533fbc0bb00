"""The IPython extension: check each cell before it runs.

``%load_ext crashpredict`` registers a ``pre_run_cell`` hook that shows a warning (a rich
display output, HTML and plain text, above the cell's own output) when a crash is
predicted. ``pre_run_cell`` cannot cancel a cell, so strict mode uses an input transformer
instead: IPython runs it on every cell before execution, and for a cell predicted to crash
it returns a one-line replacement that raises `CellRefused`, so the original code never
runs (and "Run all" stops there, as it would at the crash). The refusal shows as one short
message: no traceback, no injected code, no frames of ours.

The analysis never breaks a cell: an engine failure, even a ``SystemExit`` or a
``KeyboardInterrupt`` raised while it runs, is caught. An interrupt cancels the analysis:
in warn mode the cell then runs unchecked (interrupt again to stop it); in strict mode the
cell does not run.

The rules are the default engine here (about a millisecond per cell). The dry run is an
opt-in (``%crashpredict dryrun on --budget 2``): it runs each cell once more, on a fork
with side effects blocked, before the real run.
"""

from __future__ import annotations

import re
import sys
from typing import Any

from ._engines import predict
from ._model import Verdict
from ._render import warning_html, warning_text
from .errors import CrashPredictError

__all__ = ["load_ipython_extension", "unload_ipython_extension", "CellRefused", "Guard"]

_MODES = ("warn", "strict", "off")
_OUR_MAGICS = ("crashpredict", "load_ext", "unload_ext", "reload_ext")
_SKIP_PREFIXES = tuple(f"%{m}" for m in _OUR_MAGICS)
# the same magics after IPython's transforms (strict mode sees transformed code)
_SKIP_CALL = re.compile(r"\s*get_ipython\(\)\.run_line_magic\(['\"](%s)['\"]"
                        % "|".join(_OUR_MAGICS))
#: default seconds of the extension's dry run (shorter than the CLI's: the user is waiting)
DRYRUN_BUDGET_S = 2.0


class CellRefused(CrashPredictError, RuntimeError):
    """Raised in place of a cell that strict mode refused to run.

    IPython shows it through `_render_traceback_`: the message only, no frames.
    """

    def _render_traceback_(self) -> list[str]:
        return [f"CellRefused: {line}" if i == 0 else line
                for i, line in enumerate(str(self).splitlines())]


class Guard:
    """The extension's state: mode, engines, and the hooks registered on one shell."""

    def __init__(self, shell: Any) -> None:
        self.shell = shell
        self.mode = "warn"
        self.dryrun = False
        self.budget_s = DRYRUN_BUDGET_S
        self.last: Verdict | None = None
        self.refused: dict[int, str] = {}
        # IPython may transform one cell more than once before running it; analyse it once
        # (the memo is dropped when a cell has run)
        self._memo: tuple[str, tuple[Verdict | None, str | None]] | None = None

    # -- analysis ------------------------------------------------------------------------
    def _predict(self, source: str) -> Verdict | None:
        """The verdict when a crash is predicted, else None. May raise anything."""
        text = source.strip()
        if not text or self.mode == "off" or text.startswith(_SKIP_PREFIXES) \
                or _SKIP_CALL.match(text):
            return None
        engines, options = ("rules",), {}
        if self.dryrun:
            engines = ("rules", "dryrun")
            options = {"dryrun": {"budget_s": self.budget_s}}
        verdict = predict(source, self.shell.user_ns, engines=engines, options=options)
        self.last = verdict
        return verdict if verdict.crash else None

    def _safe_predict(self, source: str) -> tuple[Verdict | None, str | None]:
        """`_predict` that never raises: (verdict, None) or (None, what stopped it).

        The outcome is kept until the cell has run: IPython (ipykernel) may transform a
        cell twice, and an interrupted analysis must not start again on the second pass.
        """
        if self._memo is not None and self._memo[0] == source:
            return self._memo[1]
        try:
            outcome: tuple[Verdict | None, str | None] = (self._predict(source), None)
        except KeyboardInterrupt:
            outcome = (None, "interrupted")
        except BaseException as exc:  # SystemExit included: it must not stop the kernel
            outcome = (None, f"{type(exc).__name__}: {exc}"[:200])
        self._memo = (source, outcome)
        return outcome

    # -- hooks ---------------------------------------------------------------------------
    def pre_run_cell(self, info: Any) -> None:
        """Warn about a predicted crash (warn mode; strict mode acts in `transform`)."""
        if self.mode != "warn":
            return
        verdict, stopped = self._safe_predict(getattr(info, "raw_cell", "") or "")
        if stopped == "interrupted":
            _note("crashpredict: analysis interrupted; the cell runs unchecked "
                  "(interrupt again to stop it)")
        elif verdict is not None:
            _show_warning(verdict)

    def post_run_cell(self, result: Any = None) -> None:
        """A cell ran: the next cell, even with the same code, is analysed afresh."""
        self._memo = None

    def transform(self, lines: list[str]) -> list[str]:
        """Strict mode: replace a cell predicted to crash with a refusal."""
        if self.mode != "strict":
            return lines
        verdict, stopped = self._safe_predict("".join(lines))
        if stopped == "interrupted":
            message = ("crashpredict (strict) was interrupted while analysing this cell; the "
                       "cell did not run")
        elif verdict is None:
            return lines
        else:
            where = f" at line {verdict.line}" if verdict.line else ""
            message = (f"crashpredict (strict) refused to run this cell: {verdict.exception} "
                       f"predicted{where}\n{verdict.explanation}\n"
                       f"(run `%crashpredict on` to run it anyway)")
        key = len(self.refused)
        self.refused[key] = message
        return [f"__import__('crashpredict._extension', fromlist=['refuse']).refuse({key})\n"]

    # -- magic ---------------------------------------------------------------------------
    def magic(self, line: str) -> None:
        """%crashpredict [on|warn|strict|off|status] | dryrun on [--budget S] | dryrun off"""
        words = line.strip().split()
        word = words[0].lower() if words else "status"
        if word == "on":
            word = "warn"
        if word in _MODES and len(words) <= 1:
            self.mode = word
            print(f"crashpredict: {word}")
        elif word == "status" and len(words) <= 1:
            print(f"crashpredict: {self.status()}")
        elif word == "dryrun":
            self._dryrun_magic(words[1:])
        else:
            print(f"crashpredict: unknown mode {line.strip()!r}; use on, strict, off, status, "
                  f"or dryrun on [--budget S] | dryrun off", file=sys.stderr)

    def _dryrun_magic(self, words: list[str]) -> None:
        usage = "crashpredict: use %crashpredict dryrun on [--budget SECONDS] | dryrun off"
        if words[:1] == ["off"] and len(words) == 1:
            self.dryrun = False
        elif words[:1] == ["on"] and len(words) in (1, 3):
            if len(words) == 3:
                try:
                    budget = float(words[2]) if words[1] == "--budget" else None
                except ValueError:
                    budget = None
                if budget is None or not 0 < budget <= 600:
                    print(f"{usage} (a budget between 0 and 600 s)", file=sys.stderr)
                    return
                self.budget_s = budget
            self.dryrun = True
        else:
            print(usage, file=sys.stderr)
            return
        print(f"crashpredict: {self.status()}")

    def status(self) -> str:
        engines = f"rules + dry run ({self.budget_s:g} s budget)" if self.dryrun else "rules"
        return f"{self.mode}; engines: {engines}"


def _note(text: str) -> None:
    try:
        print(text, file=sys.stderr, flush=True)
    except Exception:
        pass


def _show_warning(verdict: Verdict) -> None:
    """A display output (HTML and text) in the cell's output area, before it runs."""
    try:
        from IPython.display import display
        display({"text/plain": warning_text(verdict), "text/html": warning_html(verdict)},
                raw=True)
    except Exception:
        _note(warning_text(verdict))


_GUARD: Guard | None = None


def refuse(key: int) -> None:
    """Raise `CellRefused` with the diagnosis of a refused cell."""
    message = _GUARD.refused.pop(key, None) if _GUARD is not None else None
    # raised from here, shown without frames (CellRefused._render_traceback_)
    raise CellRefused(message or "crashpredict refused to run this cell")


def load_ipython_extension(ipython: Any) -> None:
    """Register the hooks and the ``%crashpredict`` magic on an IPython shell."""
    global _GUARD
    if _GUARD is not None and _GUARD.shell is ipython:
        return
    guard = Guard(ipython)
    ipython.events.register("pre_run_cell", guard.pre_run_cell)
    ipython.events.register("post_run_cell", guard.post_run_cell)
    ipython.input_transformers_post.append(guard.transform)
    ipython.register_magic_function(guard.magic, magic_kind="line", magic_name="crashpredict")
    _GUARD = guard


def unload_ipython_extension(ipython: Any) -> None:
    """Remove the hooks (the magic stays registered but the guard is gone)."""
    global _GUARD
    guard = _GUARD
    if guard is None:
        return
    for event in ("pre_run_cell", "post_run_cell"):
        try:
            ipython.events.unregister(event, getattr(guard, event))
        except ValueError:
            pass
    if guard.transform in ipython.input_transformers_post:
        ipython.input_transformers_post.remove(guard.transform)
    guard.mode = "off"
    _GUARD = None
