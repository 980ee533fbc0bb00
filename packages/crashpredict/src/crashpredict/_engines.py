"""The engine registry and `predict`: rules, dryrun and llm, and how their verdicts combine.

Engines run in a fixed order, cheapest and surest first: ``rules`` (inspects the live
objects), ``dryrun`` (runs the cell on a fork of the process), ``llm`` (asks a model),
then any engine registered by name. Each later engine sees the verdict so far:

- a dry run's crash is certain; a clean dry run overrides a low-confidence rule verdict;
  an inconclusive one leaves the rule verdict (`combine_with_rules`);
- the LLM is not asked when the verdict so far is certain (its answer could not change
  it, and asking costs money); otherwise it decides (`crashpredict.llm.combine`);
- another registered engine replaces the verdict only when it predicts a crash that the
  verdict so far does not.

The Verdict's ``engine`` says which engine decided.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from ._model import CERTAIN, Verdict
from ._options import DEFAULT_DRYRUN_BUDGET_S
from .errors import UnknownEngineError

__all__ = ["ENGINES", "ORDER", "register_engine", "predict", "check_engines", "CERTAIN"]

#: An engine: ``fn(cell_source, namespace, **options) -> Verdict``.
Engine = Callable[..., Verdict]

#: The built-in engines, in the order they run.
ORDER = ("rules", "dryrun", "llm")


def _rules(source: str, namespace: Mapping[str, Any], **options: Any) -> Verdict:
    from ._rules import rules_engine

    budget = options.get("trial_budget_s")
    return rules_engine(source, namespace,
                        trial_budget_s=float(budget) if isinstance(budget, (int, float)) else None)


def _dryrun(source: str, namespace: Mapping[str, Any], **options: Any) -> Verdict:
    from ._dryrun import dry_run, dryrun_verdict

    return dryrun_verdict(_dry(source, namespace, options, dry_run), source)


def _dry(source: str, namespace: Mapping[str, Any], options: Mapping[str, Any], dry_run: Any) -> Any:
    return dry_run(source, namespace, budget_s=float(options.get("budget_s") or DEFAULT_DRYRUN_BUDGET_S),
                   shrink=options.get("shrink"))


def _llm(source: str, namespace: Mapping[str, Any], **options: Any) -> Verdict:
    from .llm import LLMSettings, llm_engine

    settings = options.get("settings") or LLMSettings.from_env()
    return llm_engine(settings)(source, namespace)


#: Engine name -> function(cell_source, namespace, **options) -> Verdict.
ENGINES: dict[str, Engine] = {"rules": _rules, "dryrun": _dryrun, "llm": _llm}


def register_engine(name: str, engine: Engine) -> None:
    """Register an engine under ``name`` (replacing any engine of that name).

    The function is called as ``engine(cell_source, namespace, **options)`` where
    ``options`` is ``predict(..., options={name: {...}})[name]``; it should accept and
    ignore options it does not know.
    """
    ENGINES[name] = engine


def check_engines(engines: Sequence[str]) -> tuple[str, ...]:
    """Validate engine names; raise UnknownEngineError naming the known ones."""
    names = (engines,) if isinstance(engines, str) else tuple(engines)
    if not names:
        raise UnknownEngineError("no engine given; known engines: " + ", ".join(sorted(ENGINES)))
    for name in names:
        if name not in ENGINES:
            raise UnknownEngineError(
                f"unknown engine {name!r}; known engines: {', '.join(sorted(ENGINES))}")
    return tuple(sorted(dict.fromkeys(names), key=lambda n: ORDER.index(n) if n in ORDER else len(ORDER)))


def _failed(name: str, exc: BaseException) -> Verdict:
    return Verdict(crash=None, confidence=0.0, engine=name,
                   explanation=f"engine {name} failed: {type(exc).__name__}: {exc}")


def _certain(verdict: Verdict | None) -> bool:
    return verdict is not None and verdict.crash is not None and verdict.confidence >= CERTAIN


def step(name: str, source: str, namespace: Mapping[str, Any], options: Mapping[str, Any],
         so_far: Verdict | None, *, run: Callable[[], Verdict] | None = None) -> Verdict:
    """Run engine ``name`` and fold its verdict into ``so_far``; never raises.

    ``run`` replaces the engine call (the kernel client runs the LLM on its own side).
    """
    if name == "dryrun" and run is None and ENGINES.get("dryrun") is _dryrun:
        try:
            from ._dryrun import combine_with_rules, dry_run, dryrun_verdict

            dry = _dry(source, namespace, options, dry_run)
        except Exception as exc:  # an engine must never raise into the user's kernel
            return so_far if so_far is not None else _failed(name, exc)
        return combine_with_rules(so_far, dry, source) if so_far is not None else \
            dryrun_verdict(dry, source)
    if name == "llm" and _certain(so_far):
        assert so_far is not None
        note = f"llm not asked: the {so_far.engine} verdict is certain"
        return dataclasses.replace(so_far, evidence=(*so_far.evidence, note))
    try:
        verdict = run() if run is not None else ENGINES[name](source, namespace, **options)
    except Exception as exc:  # an engine must never raise into the user's kernel
        verdict = _failed(name, exc)
    if so_far is None:
        return verdict
    if name == "llm":
        from .llm import combine

        return combine([so_far, verdict])
    return verdict if verdict.crash and not so_far.crash else so_far


def predict(cell_source: str, namespace: Mapping[str, Any], *,
            engines: Sequence[str] = ("rules",),
            options: Mapping[str, Mapping[str, Any]] | None = None) -> Verdict:
    """Predict whether ``cell_source`` crashes when run over ``namespace``.

    The cell is never executed in ``namespace``'s process state: the rules only inspect
    the live objects, the dry run executes it on a forked copy of the process.

    Args:
        cell_source: the target cell (IPython syntax allowed).
        namespace: the live user namespace (e.g. ``get_ipython().user_ns``).
        engines: engine names, from `ENGINES`; they run in `ORDER`.
        options: per-engine options, e.g. ``{"dryrun": {"budget_s": 5, "shrink": 1000},
            "llm": {"settings": LLMSettings(...)}}``.

    Returns:
        A `Verdict`; its ``engine`` names the engine that decided.

    Raises:
        UnknownEngineError: an engine name is not registered.

    Example:
        >>> predict("df['b']", {"df": pd.DataFrame({"a": [1]})}).exception
        'KeyError'
    """
    verdict: Verdict | None = None
    for name in check_engines(engines):
        verdict = step(name, cell_source, namespace, (options or {}).get(name, {}), verdict)
    assert verdict is not None
    return _name_the_nan(verdict, cell_source, namespace)


_NAN_ERRORS = ("ValueError", "IntCastingNaNError", "TypeError", "RuntimeError")
_NAN_WORDS = re.compile(r"\bNaN\b|\bNA\b|non-finite|missing values", re.I)


def _name_the_nan(verdict: Verdict, source: str, namespace: Mapping[str, Any]) -> Verdict:
    """A predicted NaN crash whose message does not say where the NaN is (a library's own
    words, from the dry run) gets the columns that hold it, of the frames and arrays its
    line names (``Input X contains NaN (X: NaN in column 'age' (1 of 4 rows)). ...``).
    Only the explanation changes; never the verdict."""
    text = verdict.explanation
    if not verdict.crash or not verdict.line or "NaN in " in text or not _NAN_WORDS.search(text) \
            or verdict.exception not in _NAN_ERRORS:  # np.NaN's AttributeError is no NaN value
        return verdict
    try:
        from ._rules._siblings import names_on_line
        from ._rules._values import nan_where

        found = [f"{name}: {where}" for name in names_on_line(source, verdict.line, namespace)[:4]
                 if (where := nan_where(namespace[name]))]
    except Exception:  # naming the place is a courtesy; it never fails a prediction
        return verdict
    if not found:
        return verdict
    note = f" ({'; '.join(found)})"
    end = re.search(r"\.(\s|$)", text)  # after the library's first sentence, not its advice
    text = text[:end.start()] + note + text[end.start():] if end and end.start() < 160 \
        else text + note
    return dataclasses.replace(verdict, explanation=text)
