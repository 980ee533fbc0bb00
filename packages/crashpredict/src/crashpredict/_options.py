"""The engines' options as data: the flags a command line offers, and what they become.

`ENGINE_FLAGS` describes every option a command may expose for the dryrun and llm engines
(name, type, help); a CLI turns them into its own flags (``crashpredict`` and ``benchkit``
both do, with argparse, in their ``cli`` modules). `engine_options` turns the values given
(``dest -> value``, None meaning "not given") into the per-engine ``options`` mapping that
`predict` takes, validating them. No argparse here: parsing a command line is the CLI's job.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .errors import EngineOptionError

__all__ = ["EngineFlag", "ENGINE_FLAGS", "engine_options", "DEFAULT_DRYRUN_BUDGET_S"]

#: Seconds a dry run may take unless told otherwise.
DEFAULT_DRYRUN_BUDGET_S = 3.0


@dataclass(frozen=True, slots=True, kw_only=True)
class EngineFlag:
    """One engine option a command line may offer, e.g. ``--dryrun-budget S``."""

    name: str  # the flag, e.g. "--dryrun-budget"
    engine: str  # the engine it configures: "dryrun" or "llm"
    help: str
    type: Callable[[str], Any] | None = None  # None: a switch (present or not)
    metavar: str | None = None

    @property
    def dest(self) -> str:
        """The key of its value: ``--dryrun-budget`` -> ``dryrun_budget``."""
        return self.name.lstrip("-").replace("-", "_")


def _flag(name: str, engine: str, help: str, type: Callable[[str], Any] | None = None,
          metavar: str | None = None) -> EngineFlag:
    return EngineFlag(name=name, engine=engine, help=help, type=type, metavar=metavar)


#: Every engine option, in the order a help text lists them.
ENGINE_FLAGS: tuple[EngineFlag, ...] = (
    _flag("--dryrun-budget", "dryrun", f"seconds the forked run may take (default "
          f"{DEFAULT_DRYRUN_BUDGET_S:g})", float, "S"),
    _flag("--shrink", "dryrun", "cut data longer than N rows to its first N rows, in the fork "
          "only (off by default)", int, "N"),
    _flag("--llm-model", "llm", "model name (env CRASHPREDICT_LLM_MODEL; default gpt-4o-mini)",
          str, "NAME"),
    _flag("--llm-base-url", "llm", "OpenAI-compatible endpoint, e.g. http://localhost:8080/v1 "
          "(env OPENAI_BASE_URL; default https://api.openai.com/v1)", str, "URL"),
    _flag("--llm-api-key-env", "llm", "environment variable holding the API key (default "
          "OPENAI_API_KEY)", str, "VAR"),
    _flag("--llm-temperature", "llm", "sampling temperature (default 0)", float, "T"),
    _flag("--llm-timeout", "llm", "seconds per request (default 60)", float, "S"),
    _flag("--llm-votes", "llm", "replies per cell, majority vote (default 1; CRANE used 5)", int, "N"),
    _flag("--llm-max-retries", "llm", "retries on 429/5xx/timeouts (default 5)", int, "N"),
    _flag("--llm-budget", "llm", "total seconds for one call with its retries (default 300)",
          float, "S"),
    _flag("--llm-max-tokens", "llm", "completion token limit (default: server's)", int, "N"),
    _flag("--llm-facts", "llm", "runtime fact categories sent: 'code' (none) or letters of SRV "
          "(default SRV)", str, "CATS"),
    _flag("--llm-rules", "llm", "add the rule engine's findings to the prompt"),
    _flag("--llm-fact-tokens", "llm", "token budget of the runtime block (default 1000)", int, "N"),
    _flag("--llm-cache-dir", "llm", "reply cache (env CRASHPREDICT_LLM_CACHE; default "
          "~/.cache/crashpredict/llm)", Path, "DIR"),
    _flag("--llm-no-cache", "llm", "neither read nor write the reply cache"),
    _flag("--llm-no-json-mode", "llm", "do not ask the server for JSON mode (parse the reply "
          "tolerantly)"),
    _flag("--llm-prices", "llm", "JSON price table {model: [input, output]} in USD per million "
          "tokens, over the built-in one", Path, "FILE"),
    _flag("--no-values", "llm", "send structure and types only (S and R facts, no V)"),
)


def engine_options(engines: Sequence[str], values: Mapping[str, Any],
                   env: Mapping[str, str] | None = None) -> dict[str, dict[str, Any]]:
    """Per-engine options for the engines asked for, from flag values.

    Args:
        engines: the engine names that will run.
        values: ``EngineFlag.dest -> value``; a missing key or None is "not given".
        env: the environment the LLM settings fall back on (default ``os.environ``).

    Raises:
        EngineOptionError: a dryrun option is out of range.
        crashpredict.llm.LLMConfigError: an LLM option is invalid.

    Example:
        >>> engine_options(("rules", "dryrun"), {"dryrun_budget": 5})
        {'dryrun': {'budget_s': 5.0, 'shrink': None}}
    """
    options: dict[str, dict[str, Any]] = {}
    if "dryrun" in engines:
        budget = values.get("dryrun_budget")
        budget = DEFAULT_DRYRUN_BUDGET_S if budget is None else float(budget)
        shrink = values.get("shrink")
        if not budget > 0:
            raise EngineOptionError(f"--dryrun-budget must be positive, not {budget:g}")
        if shrink is not None and shrink < 1:
            raise EngineOptionError(f"--shrink must be at least 1, not {shrink}")
        options["dryrun"] = {"budget_s": budget, "shrink": shrink}
    if "llm" in engines:
        from .llm import settings_from_values  # the LLM package loads only when it is asked for

        # the reply cache (default ~/.cache/crashpredict/llm) makes a re-run cost nothing
        options["llm"] = {"settings": settings_from_values(values, env)}
    return options
