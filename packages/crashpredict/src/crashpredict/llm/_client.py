"""The chat-completions client shared by crashpredict's LLM engine and benchkit.

It wraps the ``openai`` SDK (imported lazily, so crashpredict works without it) and adds
what the SDK leaves to callers: a bounded total time for retries with exponential backoff
and jitter, a one-line error naming the URL when nothing listens there, JSON mode with a
fallback for servers that reject it, redaction of secrets, and an on-disk reply cache.
The SDK's HTTP goes through `_transport` (a wall-clock deadline per request, replies of at
most ``MAX_REPLY_BYTES`` before and after decompression, no redirect to another origin).
"""

from __future__ import annotations

import errno
import random
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from dataclasses import replace as _replace
from typing import Any, TypeVar

from crashpredict.llm._cache import ReplyCache, cache_key
from crashpredict.llm._errors import (
    LLMConfigError,
    LLMConnectionError,
    LLMRequestError,
    LLMResponseError,
    LLMRetriesExhaustedError,
    LLMSDKMissingError,
    LLMTimeoutError,
)
from crashpredict.llm._prices import PriceTable, Usage
from crashpredict.llm._redact import Redactor
from crashpredict.llm._settings import DEFAULT_BASE_URL, LLMSettings
from crashpredict.llm._transport import MAX_REDIRECTS, deadline, http_client, http_libraries

__all__ = ["ChatClient", "LLMReply", "import_openai"]

INSTALL_HINT = "pip install 'crashpredict[llm]'"
_E = TypeVar("_E", bound=BaseException)


def import_openai() -> Any:
    """Import and return the ``openai`` module.

    Raises:
        LLMSDKMissingError: it is not installed; the message gives the pip line.
    """
    try:
        import openai
    except ImportError:
        raise LLMSDKMissingError(
            f"the LLM engine needs the openai package, which is not installed: {INSTALL_HINT}"
        ) from None
    return openai


@dataclass(frozen=True, slots=True, kw_only=True)
class LLMReply:
    """One chat completion: the text, its token usage, and how it was obtained.

    ``cached`` replies came from the on-disk cache and cost nothing this time; ``usage`` is
    still the usage of the original call. ``attempts`` counts HTTP requests (1 + retries).
    """

    text: str
    usage: Usage
    model: str
    cached: bool = False
    latency_s: float = 0.0
    attempts: int = 1

    def cost(self, prices: PriceTable) -> float | None:
        """What this reply cost now in USD: 0 when cached, None when the model has no price."""
        return 0.0 if self.cached else prices.cost(self.model, self.usage)


class _Retry(Exception):
    """One failed attempt that may be retried; ``retry_after`` is the server's hint (s)."""

    def __init__(self, reason: str, *, timeout: bool = False, retry_after: float | None = None):
        super().__init__(reason)
        self.reason = reason
        self.timeout = timeout
        self.retry_after = retry_after


def _causes(exc: BaseException) -> Iterator[BaseException]:
    """``exc`` and the exceptions it was raised from, innermost last."""
    seen: set[int] = set()
    cause: BaseException | None = exc
    while cause is not None and id(cause) not in seen:
        seen.add(id(cause))
        yield cause
        cause = cause.__cause__ or cause.__context__


def _cause(exc: BaseException, kind: type[_E]) -> _E | None:
    return next((c for c in _causes(exc) if isinstance(c, kind)), None)


def _refused(exc: BaseException) -> str | None:
    """Return why no connection could be made (refused, unknown host), else None."""
    for cause in _causes(exc):
        if isinstance(cause, ConnectionRefusedError) or (
                isinstance(cause, OSError) and cause.errno == errno.ECONNREFUSED):
            return "connection refused"
        if type(cause).__name__ == "ConnectError":  # httpx/httpx2: no TCP connection made
            text = str(cause)
            return "connection refused" if "refused" in text.lower() else (text or "cannot connect")
    return None


def _tokens(value: Any) -> int:
    """A token count as a server reported it, or 0 when it is not a plausible count."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return 0
    return int(value) if 0 <= value < 1e15 else 0


def _retry_after(response: Any) -> float | None:
    try:
        value = response.headers.get("retry-after")
        return max(0.0, float(value)) if value is not None else None
    except (AttributeError, TypeError, ValueError):
        return None


class ChatClient:
    """Sends chat messages to an OpenAI-compatible server and returns `LLMReply` values.

    Example:
        >>> client = ChatClient(LLMSettings(model="llama3", base_url="http://localhost:8080/v1"))
        >>> reply = client.complete([{"role": "user", "content": "Say {} in JSON"}])  # doctest: +SKIP
        >>> reply.text, reply.usage.prompt_tokens, reply.cached  # doctest: +SKIP

    ``env`` replaces ``os.environ`` for the API key and the redaction of environment values;
    ``sleep``, ``clock`` and ``rng`` exist so that tests and callers control time.
    """

    def __init__(self, settings: LLMSettings, *, env: Mapping[str, str] | None = None,
                 redactor: Redactor | None = None, sleep: Callable[[float], None] = time.sleep,
                 clock: Callable[[], float] = time.monotonic,
                 rng: random.Random | None = None) -> None:
        self.settings = settings
        self._env = env
        self._redactor = redactor or (Redactor.from_env(env) if settings.redact else None)
        self._cache = ReplyCache(settings.cache_dir) if settings.cache_dir is not None else None
        self._sleep, self._clock = sleep, clock
        self._rng = rng or random.Random()
        self._sdk_client: Any = None

    @property
    def url(self) -> str:
        """The chat-completions URL requests go to."""
        return f"{self.settings.base_url}/chat/completions"

    def redact(self, text: str) -> str:
        """Return ``text`` as it would be sent (secrets redacted when redaction is on)."""
        return self._redactor.redact(text) if self._redactor is not None else text

    def complete(self, messages: Sequence[Mapping[str, str]], *, json_mode: bool = True,
                 sample: int = 0) -> LLMReply:
        """Send ``messages`` (``{"role", "content"}`` dicts) and return the reply.

        Args:
            messages: the chat, system message first if any; contents are redacted first.
            json_mode: ask for a JSON object reply (``response_format``) when the settings
                allow it; a server that rejects JSON mode is asked again without it.
            sample: which of several independent samples this is (votes): part of the
                cache key, so N votes are N cached replies.

        Raises:
            LLMConnectionError: nothing listens at the URL (the message names it).
            LLMTimeoutError / LLMRetriesExhaustedError: timeouts, 429 or 5xx until the
                retry count or ``total_budget_s`` ran out.
            LLMRequestError: the server rejected the request (4xx other than 429).
            LLMResponseError: the answer broke a bound: a body over ``MAX_REPLY_BYTES``
                (before or after decompression), an encoding other than gzip/deflate, a
                redirect to another origin or more than ``MAX_REDIRECTS`` redirects.
            LLMConfigError: no API key for the default OpenAI endpoint.
            LLMSDKMissingError: openai is not installed.
        """
        start = self._clock()
        chat = [{"role": str(m["role"]), "content": self.redact(str(m["content"]))} for m in messages]
        json_mode = json_mode and self.settings.json_mode
        key = cache_key({
            "model": self.settings.model, "base_url": self.settings.base_url, "messages": chat,
            "temperature": self.settings.temperature, "max_tokens": self.settings.max_tokens,
            "json_mode": json_mode, "sample": sample,
        })
        if self._cache is not None and (hit := self._cached(key)) is not None:
            return _replace(hit, latency_s=self._clock() - start)
        reply = self._request(chat, json_mode, start)
        # An empty reply is more likely a glitch than an answer: ask again next time.
        if self._cache is not None and reply.text.strip():
            self._cache.put(key, {
                "text": reply.text, "model": reply.model, "prompt_tokens": reply.usage.prompt_tokens,
                "completion_tokens": reply.usage.completion_tokens,
            })
        return reply

    def _cached(self, key: str) -> LLMReply | None:
        """The cached reply under ``key``; an entry of the wrong shape is a miss, not an error."""
        hit = self._cache.get(key) if self._cache is not None else None
        if hit is None:
            return None
        text, model = hit.get("text"), hit.get("model", self.settings.model)
        tokens = hit.get("prompt_tokens", 0), hit.get("completion_tokens", 0)
        if not (isinstance(text, str) and isinstance(model, str)
                and all(type(t) is int and _tokens(t) == t for t in tokens)):
            return None
        return LLMReply(text=text, model=model[:_MAX_MODEL],
                        usage=Usage(prompt_tokens=tokens[0], completion_tokens=tokens[1]),
                        cached=True, attempts=0)

    def _sdk(self) -> Any:
        if self._sdk_client is None:
            openai = import_openai()
            key = self.settings.api_key(self._env)
            if key is None and self.settings.base_url == DEFAULT_BASE_URL:
                raise LLMConfigError(
                    f"no API key for {self.settings.base_url}: set {self.settings.api_key_env} "
                    "(or name another variable with --llm-api-key-env)"
                )
            http, core = http_libraries(openai)
            # Local servers (llama.cpp, vLLM, Ollama) accept any key, but the SDK wants one.
            self._sdk_client = openai.OpenAI(
                base_url=self.settings.base_url, api_key=key or "no-key",
                timeout=self.settings.timeout, max_retries=0,
                http_client=http_client(self.settings.base_url, timeout=self.settings.timeout,
                                        http=http, core=core),
            )
        return self._sdk_client

    def _request(self, chat: list[dict[str, str]], json_mode: bool, start: float) -> LLMReply:
        settings = self.settings
        deadline = start + settings.total_budget_s
        attempts = 0
        while True:
            attempts += 1
            timeout = max(0.001, min(settings.timeout, deadline - self._clock()))
            try:
                completion = self._create(chat, json_mode, timeout)
            except _JSONModeRejected:
                json_mode = False
                continue
            except _Retry as failure:
                delay = self._backoff(attempts, failure.retry_after)
                if attempts > settings.max_retries or self._clock() + delay >= deadline:
                    raise self._gave_up(failure, attempts, start) from None
                self._sleep(delay)
                continue
            return self._reply(completion, attempts, start)

    def _create(self, chat: list[dict[str, str]], json_mode: bool, timeout: float) -> Any:
        openai = import_openai()
        kwargs: dict[str, Any] = {"model": self.settings.model, "messages": chat,
                                  "temperature": self.settings.temperature, "timeout": timeout}
        if self.settings.max_tokens is not None:
            kwargs["max_tokens"] = self.settings.max_tokens
        if json_mode:
            kwargs["response_format"] = {"type": "json_object"}
        sdk = self._sdk()  # outside the try: its LLMConfigError is a ValueError too
        try:
            with deadline(timeout):  # connect, headers and body: all of it within `timeout`
                return sdk.chat.completions.create(**kwargs)
        except LLMResponseError as exc:  # a bound of the transport (openai >= 3 lets it through)
            raise LLMResponseError(f"{self.url}: {exc}") from None
        except openai.APITimeoutError:
            raise _Retry(f"no answer within {timeout:.3g} s", timeout=True) from None
        except openai.APIConnectionError as exc:
            if (bound := _cause(exc, LLMResponseError)) is not None:  # older SDKs wrap it
                raise LLMResponseError(f"{self.url}: {bound}") from None
            if (why := _refused(exc)) is not None:
                raise LLMConnectionError(f"cannot reach the LLM server at {self.url}: {why}") from None
            if any(type(c).__name__ == "TooManyRedirects" for c in _causes(exc)):
                raise LLMResponseError(f"{self.url}: more than {MAX_REDIRECTS} redirects") from None
            raise _Retry(f"connection error: {_short(exc.__cause__ or exc)}") from None
        except openai.APIStatusError as exc:
            status = exc.status_code
            if status == 429 or status >= 500:
                raise _Retry(f"HTTP {status}", retry_after=_retry_after(exc.response)) from None
            if json_mode and status in (400, 422):
                raise _JSONModeRejected from None
            raise LLMRequestError(f"{self.url}: HTTP {status}: {_short(exc)}") from None
        except openai.OpenAIError as exc:
            raise LLMRequestError(f"{self.url}: {type(exc).__name__}: {_short(exc)}") from None
        except ValueError as exc:  # a 200 whose body is not JSON (a proxy's HTML page)
            raise _Retry(f"malformed response body: {_short(exc)}") from None
        except RecursionError:  # JSON nested deeper than the parser's recursion limit
            raise _Retry("malformed response body: JSON nested too deeply") from None

    def _backoff(self, attempt: int, retry_after: float | None) -> float:
        """Exponential backoff with equal jitter, or the server's Retry-After, both capped."""
        settings = self.settings
        ceiling = min(settings.backoff_max_s, settings.backoff_base_s * 2 ** (attempt - 1))
        delay = ceiling / 2 + self._rng.uniform(0, ceiling / 2)
        if retry_after is not None:
            delay = max(delay, min(retry_after, settings.backoff_max_s))
        return delay

    def _gave_up(self, failure: _Retry, attempts: int, start: float) -> Exception:
        elapsed = self._clock() - start
        message = (f"{self.url}: no usable answer after {attempts} attempt"
                   f"{'s' if attempts != 1 else ''} in {elapsed:.1f} s (last: {failure.reason})")
        return LLMTimeoutError(message) if failure.timeout else LLMRetriesExhaustedError(message)

    def _reply(self, completion: Any, attempts: int, start: float) -> LLMReply:
        choices = getattr(completion, "choices", None) or ()
        message = getattr(choices[0], "message", None) if choices else None
        usage = getattr(completion, "usage", None)
        return LLMReply(
            text=str(getattr(message, "content", None) or ""),
            usage=Usage(prompt_tokens=_tokens(getattr(usage, "prompt_tokens", 0)),
                        completion_tokens=_tokens(getattr(usage, "completion_tokens", 0))),
            # a server's model name is shown in every verdict: keep it a name, not a payload
            model=str(getattr(completion, "model", None) or self.settings.model)[:_MAX_MODEL],
            cached=False, latency_s=self._clock() - start, attempts=attempts,
        )


_MAX_MODEL = 200  # characters kept of the model name a server answers with


class _JSONModeRejected(Exception):
    """The server answered 400/422 to a request with ``response_format``."""


def _short(exc: BaseException) -> str:
    text = " ".join(str(exc).split())
    return text[:300] + ("..." if len(text) > 300 else "")
