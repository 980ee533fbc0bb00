"""Errors of the LLM engine and client: one base class, each also a builtin's subclass."""

from __future__ import annotations

from crashpredict.errors import CrashPredictError

__all__ = [
    "LLMError",
    "LLMConfigError",
    "LLMSDKMissingError",
    "LLMConnectionError",
    "LLMTimeoutError",
    "LLMRequestError",
    "LLMResponseError",
    "LLMRetriesExhaustedError",
]


class LLMError(CrashPredictError):
    """Base class of every error the LLM client and engine raise."""


class LLMConfigError(LLMError, ValueError):
    """A setting is invalid (votes < 1, unknown fact categories, unreadable price file...)."""


class LLMSDKMissingError(LLMError, ImportError):
    """The ``openai`` package is not installed; the message says which pip line installs it."""


class LLMConnectionError(LLMError, ConnectionError):
    """Nothing answers at the server URL (connection refused, unknown host)."""


class LLMTimeoutError(LLMError, TimeoutError):
    """The server did not answer within the timeout, and the retry budget is spent."""


class LLMRequestError(LLMError, RuntimeError):
    """The server rejected the request (400, 401, 404...): retrying cannot help."""


class LLMResponseError(LLMError, RuntimeError):
    """The server's answer broke a bound of the client: a body over ``MAX_REPLY_BYTES``
    (before or after decompression), a content encoding that cannot be bounded, a redirect
    to another origin or too many redirects. Not retried: the same server answers the same."""


class LLMRetriesExhaustedError(LLMError, RuntimeError):
    """429 or 5xx answers kept coming until the retry count or the time budget ran out."""
