"""crashpredict.llm: the LLM engine and the OpenAI-compatible chat client it shares with benchkit.

``predict_with_llm`` asks any chat-completions server (OpenAI, vLLM, Ollama, llama.cpp)
whether a cell will crash, from the executed cells, runtime facts and the target cell, in
CRANE-LLM's style; ``combine`` merges its verdict with the rule and dry-run engines'.
``ChatClient`` is the client itself: retries with backoff in a bounded time, JSON mode,
redaction of secrets, an on-disk reply cache, token usage per call and a price table.
The ``openai`` SDK is imported only when a request is sent
(``pip install 'crashpredict[llm]'``).
"""

from crashpredict.llm._client import ChatClient, LLMReply
from crashpredict.llm._combine import CERTAIN, combine
from crashpredict.llm._engine import (
    LLMPrediction,
    llm_engine,
    predict_with_llm,
    predict_with_llm_detailed,
    runtime_block,
    vote,
)
from crashpredict.llm._errors import (
    LLMConfigError,
    LLMConnectionError,
    LLMError,
    LLMRequestError,
    LLMResponseError,
    LLMRetriesExhaustedError,
    LLMSDKMissingError,
    LLMTimeoutError,
)
from crashpredict.llm._prices import Price, PriceTable, Usage
from crashpredict.llm._prompt import build_messages, strip_comments
from crashpredict.llm._redact import Redactor
from crashpredict.llm._reply import Answer, parse_reply
from crashpredict.llm._settings import LLMSettings, settings_from_values

__all__ = [
    # the engine
    "predict_with_llm", "predict_with_llm_detailed", "LLMPrediction", "llm_engine", "combine",
    "CERTAIN",
    # settings (the flags are crashpredict.ENGINE_FLAGS)
    "LLMSettings", "settings_from_values",
    # the shared client, usage and cost
    "ChatClient", "LLMReply", "Usage", "Price", "PriceTable",
    # prompt, replies, privacy (pure functions, for ablations and tests)
    "build_messages", "strip_comments", "runtime_block", "parse_reply", "Answer", "vote",
    "Redactor",
    # errors
    "LLMError", "LLMConfigError", "LLMSDKMissingError", "LLMConnectionError",
    "LLMTimeoutError", "LLMRequestError", "LLMResponseError", "LLMRetriesExhaustedError",
]  # fmt: skip
