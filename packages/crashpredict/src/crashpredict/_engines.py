"""The engine registry and `predict`: later engines (dryrun, llm) plug in here."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from ._model import Verdict
from .errors import UnknownEngineError

__all__ = ["ENGINES", "register_engine", "predict", "check_engines"]

Engine = Callable[[str, Mapping[str, Any]], Verdict]


def _rules(source: str, namespace: Mapping[str, Any]) -> Verdict:
    from ._rules import rules_engine
    return rules_engine(source, namespace)


#: Engine name -> function(cell_source, namespace) -> Verdict.
ENGINES: dict[str, Engine] = {"rules": _rules}


def register_engine(name: str, engine: Engine) -> None:
    """Register an engine under ``name`` (replacing any engine of that name)."""
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
    return names


def predict(cell_source: str, namespace: Mapping[str, Any], *,
            engines: Sequence[str] = ("rules",)) -> Verdict:
    """Predict whether ``cell_source`` crashes when run over ``namespace``.

    The cell is never executed. Engines run in order; the first verdict that predicts a
    crash wins, else the first engine's verdict is returned.

    Args:
        cell_source: the target cell (IPython syntax allowed).
        namespace: the live user namespace (e.g. ``get_ipython().user_ns``).
        engines: engine names, from `ENGINES`.

    Returns:
        A `Verdict`.

    Raises:
        UnknownEngineError: an engine name is not registered.

    Example:
        >>> predict("df['b']", {"df": pd.DataFrame({"a": [1]})}).exception
        'KeyError'
    """
    names = check_engines(engines)
    verdicts = []
    for name in names:
        try:
            verdict = ENGINES[name](cell_source, namespace)
        except Exception as exc:  # an engine must never raise into the user's kernel
            verdict = Verdict(crash=None, confidence=0.0, engine=name,
                              explanation=f"engine {name} failed: {type(exc).__name__}: {exc}")
        if verdict.crash:
            return verdict
        verdicts.append(verdict)
    return verdicts[0]
