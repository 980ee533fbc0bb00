"""The LLM engine: runtime facts + code -> prompt -> N replies -> majority vote -> Verdict."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from crashpredict._model import Verdict
from crashpredict.llm._client import ChatClient, LLMReply
from crashpredict.llm._errors import LLMConfigError, LLMConnectionError, LLMError
from crashpredict.llm._prices import Usage
from crashpredict.llm._prompt import build_messages
from crashpredict.llm._redact import Redactor
from crashpredict.llm._reply import Answer, clip, parse_reply
from crashpredict.llm._secrets import (
    scrub_facts,
    secret_values_in_code,
    secret_values_in_snapshot,
)
from crashpredict.llm._settings import LLMSettings

__all__ = ["LLMPrediction", "llm_engine", "predict_with_llm", "predict_with_llm_detailed",
           "runtime_block", "vote"]

_RAW_KEEP = 2000  # characters of an unparseable reply kept in the verdict's evidence


@dataclass(frozen=True, slots=True, kw_only=True)
class LLMPrediction:
    """A verdict with everything behind it: the messages sent, each reply, usage and cost.

    ``replies`` holds one entry per vote that got an answer; ``failures`` one message per
    vote whose call failed after its retries. ``cost`` counts uncached replies only and is
    None when the model has no price.
    """

    verdict: Verdict
    messages: tuple[Mapping[str, str], ...]
    replies: tuple[LLMReply, ...]
    answers: tuple[Answer | None, ...]
    failures: tuple[str, ...]
    usage: Usage
    cost: float | None
    variant: str

    @property
    def cached(self) -> bool:
        """True when every reply came from the cache (the prediction cost nothing)."""
        return bool(self.replies) and all(r.cached for r in self.replies)


def _redact_snapshot(data: Any, redactor: Redactor) -> Any:
    """Redact every string of a snapshot document, every value under a secret key (a
    ``password`` column's examples), and every V fact of a secret-named object."""
    found: set[str] = set()
    for entry in data.get("objects", ()):
        name, facts = entry[0], entry[1]
        scrub_facts(facts, found, blank_values=Redactor.is_secret_name(str(name)))
    return redactor.with_literals(found).redact_value(data)


def prompt_redactor(target_source: str, executed_sources: Sequence[str],
                    snapshot_json: str | None, *, env: Mapping[str, str] | None = None) -> Redactor:
    """The redactor for one prompt: environment secrets, plus every value bound to a
    secret name in the code (assignments, containers, calls, defaults) or shown under a
    secret name in the snapshot (a ``password`` column), sparing the code's own names.

    Values are learned from the whole snapshot, before ``--no-values`` filters it, so a
    password seen only in the data is hidden in the code too.
    """
    sources = (target_source, *executed_sources)
    return (Redactor.from_env(env).keeping(_visible_words(target_source, executed_sources))
            .learn(sources)
            .with_literals(v for source in sources for v in secret_values_in_code(source))
            .with_literals(secret_values_in_snapshot(snapshot_json)))


def _visible_words(target_source: str, executed_sources: Sequence[str]) -> frozenset[str]:
    """Names used in the code and words of the prompt's own text (see `Redactor.keep`)."""
    import re

    template = "\n".join(m["content"] for m in build_messages("", ()))
    words = set(re.findall(r"[A-Za-z_][A-Za-z0-9_]*", template))
    for source in (target_source, *executed_sources):
        words |= _code_names(source)
    return frozenset(words)


def _code_names(source: str) -> set[str]:
    """NAME tokens of ``source`` (identifiers and keywords, not the insides of strings)."""
    import io
    import tokenize

    names: set[str] = set()
    try:
        for token in tokenize.generate_tokens(io.StringIO(source).readline):
            if token.type == tokenize.NAME:
                names.add(token.string)
    except (tokenize.TokenError, SyntaxError, IndentationError):
        pass  # the names read so far still count; IPython escapes stop the tokenizer
    return names


def runtime_block(snapshot_json: str | None, settings: LLMSettings,
                  redactor: Redactor | None = None) -> str | None:
    """Render the runtime facts for the prompt, or None for the code-only variant.

    The snapshot is filtered to the settings' categories (no V under ``no_values``),
    redacted value by value before rendering (so a secret cut short by the renderer cannot
    slip past the redactor), then rendered within ``fact_tokens`` (x 4 characters).

    Raises:
        LLMConfigError: ``snapshot_json`` is not an rtextract snapshot.
    """
    categories = settings.fact_categories
    if not categories:
        return None
    if not snapshot_json:
        return ""
    import rtextract  # lazy: the code-only variant and the client never need it

    try:
        snap = rtextract.Snapshot.from_json(snapshot_json)
    except rtextract.SnapshotFormatError as exc:
        raise LLMConfigError(f"runtime facts: {exc}") from None
    snap = snap.filter(categories)
    if redactor is not None:
        snap = rtextract.Snapshot.from_dict(_redact_snapshot(snap.to_dict(), redactor))
    return rtextract.render(snap, budget=settings.fact_tokens * 4)


def vote(answers: Sequence[Answer | None]) -> tuple[bool | None, float, tuple[Answer, ...]]:
    """Majority vote over parsed answers; unparseable ones (None) abstain.

    Returns ``(crash, confidence, winners)``: the majority side, the share of ALL votes that
    backed it, and the answers on that side. A tie (2-2, or no usable answer) returns
    ``(None, share, ())``: an even split is no evidence either way, so the verdict is
    "unknown" and `combine` lets the other engines decide.
    """
    crash = [a for a in answers if a is not None and a.detection]
    fine = [a for a in answers if a is not None and not a.detection]
    total = max(1, len(answers))
    if len(crash) == len(fine):
        return None, len(crash) / total, ()
    winners = crash if len(crash) > len(fine) else fine
    return len(crash) > len(fine), len(winners) / total, tuple(winners)


def _diagnosis(winners: Sequence[Answer]) -> Answer:
    """The winning crash answers' most common (exception, crash type), then line; first wins ties."""
    pairs = Counter((a.exception, a.crash_type) for a in winners)
    best_pair = max(pairs, key=lambda p: (pairs[p], -_first(winners, p)))
    agreeing = [a for a in winners if (a.exception, a.crash_type) == best_pair]
    lines = Counter(a.line for a in agreeing if a.line is not None)
    line = max(lines, key=lambda n: (lines[n], -n)) if lines else None
    first = agreeing[0]
    return Answer(detection=True, exception=first.exception, crash_type=first.crash_type,
                  library=first.library, line=line, explanation=first.explanation,
                  reasoning=first.reasoning)


def _first(winners: Sequence[Answer], pair: tuple[str | None, str | None]) -> int:
    return next(i for i, a in enumerate(winners) if (a.exception, a.crash_type) == pair)


def predict_with_llm_detailed(target_source: str, executed_sources: Sequence[str],
                              snapshot_json: str | None, settings: LLMSettings, *,
                              rule_findings: Sequence[str] = (),
                              client: ChatClient | None = None,
                              env: Mapping[str, str] | None = None) -> LLMPrediction:
    """Like `predict_with_llm`, returning the messages, replies, usage and cost as well.

    ``client`` lets a caller (benchkit) share one client across many cells; ``env``
    replaces ``os.environ`` for the API key and the redaction of environment values.
    """
    client = client or ChatClient(settings, env=env)
    redactor = prompt_redactor(target_source, executed_sources, snapshot_json, env=env) \
        if settings.redact else None
    runtime = runtime_block(snapshot_json, settings, redactor)
    messages = build_messages(
        target_source, executed_sources, runtime=runtime,
        rule_findings=tuple(rule_findings) if settings.include_rules else None,
    )
    if redactor is not None:
        messages = tuple({"role": m["role"], "content": redactor.redact(m["content"])}
                         for m in messages)
    replies, failures = _ask(client, messages, settings.votes)
    answers = tuple(parse_reply(r.text) for r in replies)
    usage = sum((r.usage for r in replies if not r.cached), Usage())
    costs = [r.cost(settings.prices) for r in replies]
    cost = None if any(c is None for c in costs) else round(sum(c for c in costs if c), 10)
    verdict = _verdict(replies, answers, failures, settings, usage, cost)
    return LLMPrediction(verdict=verdict, messages=messages, replies=replies, answers=answers,
                         failures=failures, usage=usage, cost=cost, variant=settings.variant)


def _ask(client: ChatClient, messages: Sequence[Mapping[str, str]],
         votes: int) -> tuple[tuple[LLMReply, ...], tuple[str, ...]]:
    """One call per vote. A vote whose call fails abstains; when all fail, the error is raised
    (nothing came back, so there is nothing to decide with). A refused connection is raised
    at once: the other votes would fail the same way."""
    replies: list[LLMReply] = []
    failures: list[str] = []
    last: LLMError | None = None
    for sample in range(votes):
        try:
            replies.append(client.complete(messages, json_mode=True, sample=sample))
        except (LLMConnectionError, LLMConfigError, ImportError):
            raise
        except LLMError as exc:
            failures.append(str(exc))
            last = exc
    if not replies and last is not None:
        raise last
    return tuple(replies), tuple(failures)


def _verdict(replies: Sequence[LLMReply], answers: Sequence[Answer | None],
             failures: Sequence[str], settings: LLMSettings, usage: Usage,
             cost: float | None) -> Verdict:
    crash, confidence, winners = vote([*answers, *(None for _ in failures)])
    tally = (f"votes: {sum(1 for a in answers if a and a.detection)} crash, "
             f"{sum(1 for a in answers if a and not a.detection)} no crash, "
             f"{sum(1 for a in answers if a is None) + len(failures)} unusable")
    model = replies[0].model if replies else settings.model
    cost_text = "unknown" if cost is None else f"${cost:.6f}"
    evidence = [
        f"llm: model {model} at {settings.base_url}, variant {settings.variant}",
        tally,
        f"tokens: {usage.prompt_tokens} prompt + {usage.completion_tokens} completion, "
        f"cost {cost_text}, {sum(1 for r in replies if r.cached)}/{len(replies)} cached",
    ]
    evidence += [f"call failed: {f}" for f in failures]
    evidence += [f"unparseable reply: {clip(r.text, _RAW_KEEP)}"
                 for r, a in zip(replies, answers) if a is None]
    if crash is None:
        why = "votes split evenly" if any(answers) else "no reply could be parsed"
        return Verdict(crash=None, confidence=0.0, crash_type="unknown", explanation=why,
                       evidence=tuple(evidence), engine="llm")
    best = _diagnosis(winners) if crash else winners[0]
    if best.reasoning:
        evidence.append(f"reasoning: {best.reasoning}")
    return Verdict(
        crash=crash, confidence=confidence,
        exception=best.exception if crash else None, line=best.line if crash else None,
        library=best.library if crash else None, crash_type=best.crash_type if crash else None,
        explanation=best.explanation, evidence=tuple(evidence), engine="llm",
    )


def predict_with_llm(target_source: str, executed_sources: Sequence[str],
                     snapshot_json: str | None, settings: LLMSettings, *,
                     rule_findings: Sequence[str] = ()) -> Verdict:
    """Predict whether ``target_source`` crashes by asking an LLM (engine "llm").

    Args:
        target_source: the cell to predict.
        executed_sources: the cells run before it, in execution order.
        snapshot_json: ``rtextract`` snapshot JSON of the objects the target reads (from
            ``rtextract.kernel_snapshot`` in the kernel), or None when there is none.
        settings: model, server, votes, prompt variant, cache...
        rule_findings: the rule engine's findings, sent when ``settings.include_rules``.

    Returns:
        A Verdict with ``engine="llm"``: the majority of ``settings.votes`` replies;
        ``crash=None`` when no reply could be parsed (raw text kept in evidence) or the
        votes split evenly. Token usage and cost are in the evidence.

    Raises:
        LLMConnectionError: nothing listens at ``settings.base_url``.
        LLMError: every vote's call failed (timeouts, 429/5xx past the budget, 4xx).
    """
    return predict_with_llm_detailed(target_source, executed_sources, snapshot_json, settings,
                                     rule_findings=rule_findings).verdict


def _history(namespace: Mapping[str, Any], cell_source: str) -> tuple[str, ...]:
    """The cells IPython ran so far (``_ih``, in execution order), without the target itself."""
    history = namespace.get("_ih") or namespace.get("In") or ()
    if not isinstance(history, (list, tuple)):
        return ()
    cells = [str(c) for c in history if isinstance(c, str) and c.strip()]
    if cells and cells[-1].strip() == cell_source.strip():
        cells.pop()
    return tuple(cells)


def llm_engine(settings: LLMSettings, *,
               client: ChatClient | None = None) -> Callable[[str, Mapping[str, Any]], Verdict]:
    """Return an engine function ``(cell_source, namespace) -> Verdict`` for the registry.

    For in-process use (``crashpredict.predict`` and the IPython extension): the executed
    cells come from IPython's input history in the namespace (``_ih``) and the runtime
    facts from ``rtextract.snapshot(namespace, cell_source)``. Errors propagate; the
    registry turns them into an "unknown" verdict.
    """
    shared = client or ChatClient(settings)

    def engine(cell_source: str, namespace: Mapping[str, Any]) -> Verdict:
        snap = None
        if settings.fact_categories:
            import rtextract

            snap = rtextract.snapshot(namespace, cell_source).to_json()
        return predict_with_llm_detailed(cell_source, _history(namespace, cell_source), snap,
                                         settings, client=shared).verdict

    return engine
