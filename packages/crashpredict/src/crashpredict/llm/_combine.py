"""Combining the verdicts of several engines: certain ones stand, the LLM judges the rest."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from crashpredict._model import CERTAIN, Verdict

__all__ = ["combine", "CERTAIN"]


def _rank(verdict: Verdict, index: int) -> tuple[float, bool, int]:
    # Most confident first; at equal confidence a crash beats no crash (a certain crash has
    # concrete evidence, a "no crash" only the absence of it); then the caller's order.
    return (-verdict.confidence, not verdict.crash, index)


def _pick(verdicts: Sequence[Verdict]) -> Verdict:
    return min(enumerate(verdicts), key=lambda iv: _rank(iv[1], iv[0]))[1]


def _others(decider: Verdict, verdicts: Sequence[Verdict]) -> tuple[str, ...]:
    return tuple(f"{v.engine} said: {v.summary} (confidence {v.confidence:.2f})"
                 for v in verdicts if v is not decider)


def combine(verdicts: Sequence[Verdict], *, certain_at: float = CERTAIN) -> Verdict:
    """Merge the verdicts of several engines on one cell into one.

    1. Certain verdicts of the non-LLM engines (rules, dryrun: ``crash`` known and
       ``confidence >= certain_at``) are never overturned: the most confident one decides
       (a crash wins a tie).
    2. Otherwise the LLM decides where it gave an answer (``crash`` not None).
    3. Otherwise the most confident decided verdict of any engine, else the first verdict.

    The result is the deciding verdict, with ``engine`` naming the engine that decided and
    the first evidence line saying why, followed by what the other engines said.

    Raises:
        ValueError: ``verdicts`` is empty.
    """
    if not verdicts:
        raise ValueError("combine() needs at least one verdict")
    certain = [v for v in verdicts if v.engine != "llm" and v.crash is not None
               and v.confidence >= certain_at]
    llm = [v for v in verdicts if v.engine == "llm" and v.crash is not None]
    decided = [v for v in verdicts if v.crash is not None]
    if certain:
        decider, why = _pick(certain), "certain"
    elif llm:
        decider, why = _pick(llm), "other engines silent or unsure"
    elif decided:
        decider, why = _pick(decided), "most confident"
    else:
        decider, why = verdicts[0], "no engine could decide"
    if len(verdicts) == 1:
        return decider
    note = f"decided by {decider.engine} ({why})"
    return replace(decider, evidence=(note, *decider.evidence, *_others(decider, verdicts)))
