"""The two repairs of a round: the offline codemod catalog first, then the LLM.

Both produce an nbpatch ``Patch`` of the round's notebook, so markdown cells, comments and
the ids of unchanged cells survive, and the patch is kept in the trajectory.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import nbpatch
from nbformat import NotebookNode

from ._codemods import aliases_of, default_rules, rewrite_cell, triggered
from ._codemods._base import Scope
from ._model import Classification, CodemodApplied, NotebookRun
from ._prompts import build, retry_message

__all__ = ["codemod_notebook", "llm_repair", "LLMOutcome"]


def _source(cell: Any) -> str:
    source = cell.get("source", "")
    return "".join(source) if isinstance(source, list) else str(source)


def codemod_notebook(nb: NotebookNode, cls: Classification | None = None, *,
                     rules: Sequence[str] | None = None
                     ) -> tuple[nbpatch.Patch | None, NotebookNode, tuple[CodemodApplied, ...]]:
    """Apply the catalog to every code cell of ``nb``; error-triggered rules need ``cls``.

    The failing cell goes first (its traceback lines steer the error-triggered rules and
    tell the other cells which receivers to fix), then every code cell in order. Imports a
    rewrite needs go on top of the first code cell.

    Returns ``(patch, new_notebook, applied)``; ``patch`` is ``None`` when nothing applied.
    """
    error = f"{cls.ename}: {cls.evalue}" if cls is not None and cls.kind == "error" else None
    chosen = [r for r in default_rules(rules) if triggered(r, error)]
    cells = nb.cells
    code = [i for i, c in enumerate(cells) if c.get("cell_type") == "code"]
    sources = {i: _source(cells[i]) for i in code}
    scope = Scope(aliases=aliases_of(list(sources.values())), error=error)
    applied: dict[tuple[str, int], None] = {}

    def rewrite(index: int, lines: frozenset[int] | None) -> None:
        scope.error_lines = lines
        new, ids = rewrite_cell(sources[index], chosen, scope)
        sources[index] = new
        applied.update({(rule, index): None for rule in ids})

    failing = cls.cell if cls is not None and cls.cell in sources else None
    if failing is not None:
        rewrite(failing, frozenset(cls.lines) if error else None)
    for index in code:
        rewrite(index, None)
    if not applied:
        return None, nb, ()
    if scope.imports and code:
        first = code[0]
        sources[first] = "".join(f"{line}\n" for line in scope.imports) + sources[first]
    new_nb = copy.deepcopy(nb)
    for index, source in sources.items():
        new_nb.cells[index]["source"] = source
    patch = nbpatch.diff(nb, new_nb)
    return patch, nbpatch.apply(nb, patch), tuple(
        CodemodApplied(rule=rule, cell=cell) for rule, cell in applied)


@dataclass(slots=True, kw_only=True)
class LLMOutcome:
    """What the LLM repair of one round produced (a builder, turned into Round fields)."""

    patch: nbpatch.Patch | None = None
    notebook: NotebookNode | None = None
    attempts: int = 0
    error: str | None = None
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cost_usd: float | None = 0.0
    transcript: list[dict[str, Any]] = field(default_factory=list)


_STRUCTURE = re.compile(r"^[ \t]*(#+[ \t]*={2,}[ \t]*cell\b|#[ \t]?%%|[{])", re.I | re.M)


def _parse(text: str, nb: NotebookNode, cls: Classification) -> nbpatch.Patch:
    try:
        return nbpatch.read_reply(text, nb)
    except nbpatch.ReplyError:
        # a reply with cell headers or JSON that does not fit is refused, not forced into
        # the failing cell; one bare code block is that cell's new code
        if cls.cell is None or _STRUCTURE.search(text):
            raise
        return nbpatch.read_reply(text, nb, cell=cls.cell)


def llm_repair(nb: NotebookNode, cls: Classification, run: NotebookRun, client: Any,
               prices: Any, *, timeout: float, tolerance: float, retries: int) -> LLMOutcome:
    """Ask the LLM for a patch with the prompt of ``cls.kind``; retry unusable replies.

    A reply is unusable when nbpatch cannot read it, its patch does not apply, or it
    changes nothing; the model is told why and asked again, ``retries`` times at most.
    Errors of the client itself (no server, budget spent) end the repair.
    """
    from crashpredict.llm import LLMError

    out = LLMOutcome()
    messages = build(cls.kind, nb.cells, cls, run, timeout=timeout, tolerance=tolerance)
    for _attempt in range(retries + 1):
        out.attempts += 1
        try:
            reply = client.complete(messages, json_mode=False)
        except LLMError as exc:
            out.error = f"{type(exc).__name__}: {exc}"
            return out
        out.prompt_tokens += reply.usage.prompt_tokens
        out.completion_tokens += reply.usage.completion_tokens
        cost = reply.cost(prices)
        out.cost_usd = None if cost is None or out.cost_usd is None else out.cost_usd + cost
        out.transcript.append({"messages": list(messages), "reply": reply.text,
                               "cached": reply.cached, "latency_s": reply.latency_s})
        try:
            patch = _parse(reply.text, nb, cls)
            new = nbpatch.apply(nb, patch)
            if not patch or [_source(c) for c in new.cells] == [_source(c) for c in nb.cells]:
                raise nbpatch.ReplyError("the reply changes no code")
        except (nbpatch.NbpatchError, ValueError) as exc:
            out.error = f"unusable reply: {exc}"
            out.transcript[-1]["error"] = str(exc)
            messages = [*messages, {"role": "assistant", "content": reply.text},
                        retry_message(str(exc))]
            continue
        out.patch, out.notebook, out.error = patch, new, None
        return out
    return out
