"""LLM settings: one frozen value built from option values and environment variables."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from dataclasses import replace as _replace
from pathlib import Path
from typing import Any

from crashpredict.llm._errors import LLMConfigError
from crashpredict.llm._prices import PriceTable

__all__ = [
    "LLMSettings", "settings_from_values", "default_cache_dir",
    "DEFAULT_MODEL", "DEFAULT_BASE_URL",
]

DEFAULT_MODEL = "gpt-4o-mini"
DEFAULT_BASE_URL = "https://api.openai.com/v1"
_FACT_LETTERS = "SRV"


def default_cache_dir(env: Mapping[str, str] | None = None) -> Path:
    """``$CRASHPREDICT_LLM_CACHE``, else ``$XDG_CACHE_HOME/crashpredict/llm``, else ``~/.cache/...``."""
    env = os.environ if env is None else env
    if env.get("CRASHPREDICT_LLM_CACHE"):
        return Path(env["CRASHPREDICT_LLM_CACHE"]).expanduser()
    base = env.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base).expanduser() / "crashpredict" / "llm"


def _categories(value: str) -> str:
    """Normalise a facts variant: "" or "code" (code only), or letters of SRV in S, R, V order."""
    text = str(value).strip().upper()
    if text in {"", "CODE", "NONE"}:
        return ""
    bad = sorted(set(text) - set(_FACT_LETTERS))
    if bad:
        raise LLMConfigError(
            f"unknown fact categories {''.join(bad)!r}: use 'code' or letters of 'SRV' (e.g. 'SR')"
        )
    return "".join(c for c in _FACT_LETTERS if c in text)


@dataclass(frozen=True, slots=True, kw_only=True)
class LLMSettings:
    """Everything the LLM client and engine need; build with `from_env` or `settings_from_values`.

    ``categories`` selects the runtime fact categories sent (the ablation variant: "" for
    code only, "S", "SR", "SRV"...); ``no_values`` drops V whatever ``categories`` says;
    ``include_rules`` adds the rule engine's findings to the prompt. ``cache_dir=None``
    disables the on-disk cache. Times are seconds: ``timeout`` is a wall clock on each HTTP
    request (connect, headers and the whole body), ``total_budget_s`` on the whole call with
    its retries and backoff. ``fact_tokens`` bounds the runtime block (at ~4 characters per
    token).
    """

    model: str = DEFAULT_MODEL
    base_url: str = DEFAULT_BASE_URL
    api_key_env: str = "OPENAI_API_KEY"
    temperature: float = 0.0
    timeout: float = 60.0
    votes: int = 1
    max_retries: int = 5
    total_budget_s: float = 300.0
    backoff_base_s: float = 1.0
    backoff_max_s: float = 30.0
    max_tokens: int | None = None
    json_mode: bool = True
    cache_dir: Path | None = None
    categories: str = "SRV"
    include_rules: bool = False
    no_values: bool = False
    fact_tokens: int = 1000
    redact: bool = True
    prices: PriceTable = field(default_factory=PriceTable.default, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "categories", _categories(self.categories))
        object.__setattr__(self, "base_url", str(self.base_url).rstrip("/"))
        if self.cache_dir is not None:
            object.__setattr__(self, "cache_dir", Path(self.cache_dir))
        checks = (
            (bool(str(self.model).strip()), "the model name is empty"),
            (self.votes >= 1, f"votes must be at least 1, got {self.votes}"),
            (0.0 <= self.temperature <= 2.0, f"temperature must be in [0, 2], got {self.temperature}"),
            (self.timeout > 0, f"timeout must be positive, got {self.timeout}"),
            (self.total_budget_s > 0, f"total budget must be positive, got {self.total_budget_s}"),
            (self.max_retries >= 0, f"max retries must be >= 0, got {self.max_retries}"),
            (self.backoff_base_s >= 0 and self.backoff_max_s >= 0, "backoff times must be >= 0"),
            (self.fact_tokens >= 0, f"fact token budget must be >= 0, got {self.fact_tokens}"),
            (self.max_tokens is None or self.max_tokens > 0, "max tokens must be positive"),
            (self.base_url.startswith(("http://", "https://")),
             f"base URL must start with http:// or https://, got {self.base_url!r}"),
        )
        for ok, message in checks:
            if not ok:
                raise LLMConfigError(message)

    @property
    def fact_categories(self) -> str:
        """The categories actually sent: ``categories`` minus V under ``no_values``."""
        return self.categories.replace("V", "") if self.no_values else self.categories

    @property
    def variant(self) -> str:
        """The ablation variant's name: "code", "code+SR", "code+SRV+rules"..."""
        name = "code" + (f"+{self.fact_categories}" if self.fact_categories else "")
        return name + ("+rules" if self.include_rules else "")

    def api_key(self, env: Mapping[str, str] | None = None) -> str | None:
        """The API key read from the environment variable ``api_key_env``, or None."""
        env = os.environ if env is None else env
        return env.get(self.api_key_env) or None

    def replace(self, **changes: Any) -> LLMSettings:
        """Return a copy with some fields changed (validated again)."""
        return _replace(self, **changes)

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None, **overrides: Any) -> LLMSettings:
        """Settings from ``CRASHPREDICT_LLM_MODEL``, ``OPENAI_BASE_URL`` (or
        ``CRASHPREDICT_LLM_BASE_URL``) and ``CRASHPREDICT_LLM_CACHE``, then ``overrides``.

        Overrides that are None count as not given; to disable the cache use
        ``.replace(cache_dir=None)`` on the result.

        Raises:
            LLMConfigError: a value is invalid.
        """
        env = os.environ if env is None else env
        values: dict[str, Any] = {
            "model": env.get("CRASHPREDICT_LLM_MODEL") or DEFAULT_MODEL,
            "base_url": (env.get("CRASHPREDICT_LLM_BASE_URL") or env.get("OPENAI_BASE_URL")
                         or DEFAULT_BASE_URL),
            "cache_dir": default_cache_dir(env),
        }
        values.update({k: v for k, v in overrides.items() if v is not None})
        return cls(**values)


def settings_from_values(values: Mapping[str, Any], env: Mapping[str, str] | None = None) -> LLMSettings:
    """Build `LLMSettings` from the ``--llm-*`` option values (`crashpredict.ENGINE_FLAGS`
    dests; None or missing = not given), then the environment, then the defaults.

    Raises:
        LLMConfigError: a value is invalid or the price file cannot be read.
    """
    get = values.get
    overrides: dict[str, Any] = {
        "model": get("llm_model"), "base_url": get("llm_base_url"),
        "api_key_env": get("llm_api_key_env"), "temperature": get("llm_temperature"),
        "timeout": get("llm_timeout"), "votes": get("llm_votes"),
        "max_retries": get("llm_max_retries"), "total_budget_s": get("llm_budget"),
        "max_tokens": get("llm_max_tokens"), "categories": get("llm_facts"),
        "include_rules": get("llm_rules"), "fact_tokens": get("llm_fact_tokens"),
        "cache_dir": get("llm_cache_dir"), "no_values": get("no_values"),
        "json_mode": False if get("llm_no_json_mode") else None,
        "prices": PriceTable.from_file(get("llm_prices")) if get("llm_prices") else None,
    }
    settings = LLMSettings.from_env(env, **overrides)
    return settings.replace(cache_dir=None) if get("llm_no_cache") else settings
