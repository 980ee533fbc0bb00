"""Token usage and the price table that turns usage into dollars."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType

from crashpredict.llm._errors import LLMConfigError

__all__ = ["Usage", "Price", "PriceTable", "DEFAULT_PRICES"]


@dataclass(frozen=True, slots=True, kw_only=True)
class Usage:
    """Tokens one call consumed, as the server reported them (0 when it reported none)."""

    prompt_tokens: int = 0
    completion_tokens: int = 0

    @property
    def total_tokens(self) -> int:
        """Prompt plus completion tokens."""
        return self.prompt_tokens + self.completion_tokens

    def __add__(self, other: Usage) -> Usage:
        return Usage(
            prompt_tokens=self.prompt_tokens + other.prompt_tokens,
            completion_tokens=self.completion_tokens + other.completion_tokens,
        )


@dataclass(frozen=True, slots=True, kw_only=True)
class Price:
    """US dollars per million prompt (input) and completion (output) tokens."""

    input_per_mtok: float
    output_per_mtok: float


# List prices in USD per million tokens as published by OpenAI (mid 2025). Prices change:
# pass --llm-prices FILE (a JSON object {"model": [input, output]}) to use current ones.
DEFAULT_PRICES: Mapping[str, Price] = MappingProxyType({
    "gpt-4o": Price(input_per_mtok=2.50, output_per_mtok=10.00),
    "gpt-4o-mini": Price(input_per_mtok=0.15, output_per_mtok=0.60),
    "gpt-4.1": Price(input_per_mtok=2.00, output_per_mtok=8.00),
    "gpt-4.1-mini": Price(input_per_mtok=0.40, output_per_mtok=1.60),
    "gpt-4.1-nano": Price(input_per_mtok=0.10, output_per_mtok=0.40),
    "o3-mini": Price(input_per_mtok=1.10, output_per_mtok=4.40),
    "o4-mini": Price(input_per_mtok=1.10, output_per_mtok=4.40),
    "gpt-3.5-turbo": Price(input_per_mtok=0.50, output_per_mtok=1.50),
})


@dataclass(frozen=True, slots=True, kw_only=True)
class PriceTable:
    """Prices by model name; a dated name (``gpt-4o-2024-08-06``) uses its longest known prefix.

    Example:
        >>> PriceTable.default().cost("gpt-4o-mini", Usage(prompt_tokens=1000, completion_tokens=100))
        0.00021
    """

    prices: Mapping[str, Price] = field(default_factory=lambda: DEFAULT_PRICES)

    @classmethod
    def default(cls) -> PriceTable:
        """The built-in table of OpenAI list prices (see `DEFAULT_PRICES`)."""
        return cls(prices=DEFAULT_PRICES)

    @classmethod
    def from_mapping(cls, data: Mapping[str, object], *, base: PriceTable | None = None) -> PriceTable:
        """Build a table from ``{"model": [input_per_mtok, output_per_mtok]}``, over ``base``.

        Raises:
            LLMConfigError: an entry is not a pair of non-negative numbers.
        """
        prices = dict(base.prices) if base is not None else {}
        for model, pair in data.items():
            try:
                inp, out = (float(x) for x in pair)  # type: ignore[union-attr]
            except (TypeError, ValueError):
                raise LLMConfigError(
                    f"price of {model!r} must be [input, output] USD per million tokens, got {pair!r}"
                ) from None
            if inp < 0 or out < 0:
                raise LLMConfigError(f"price of {model!r} is negative: {pair!r}")
            prices[str(model)] = Price(input_per_mtok=inp, output_per_mtok=out)
        return cls(prices=MappingProxyType(prices))

    @classmethod
    def from_file(cls, path: str | Path) -> PriceTable:
        """Read a JSON price file and lay it over the default table.

        Raises:
            LLMConfigError: the file cannot be read or is not a JSON object of price pairs.
        """
        try:
            data = json.loads(Path(path).read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            raise LLMConfigError(f"{path}: cannot read price file: {exc}") from None
        if not isinstance(data, dict):
            raise LLMConfigError(f"{path}: a price file is a JSON object {{model: [input, output]}}")
        try:
            return cls.from_mapping(data, base=cls.default())
        except LLMConfigError as exc:
            raise LLMConfigError(f"{path}: {exc}") from None

    def __hash__(self) -> int:  # the mapping proxy is unhashable; settings must hash
        return hash(tuple(sorted(self.prices.items())))

    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        # a mapping proxy cannot be pickled: settings travel to benchkit's worker processes
        return (_table_from_items, (tuple(self.prices.items()),))

    def price(self, model: str) -> Price | None:
        """Return the price of ``model`` (exact name, else the longest matching prefix), or None."""
        if model in self.prices:
            return self.prices[model]
        matches = [name for name in self.prices if model.startswith(name + "-")]
        return self.prices[max(matches, key=len)] if matches else None

    def cost(self, model: str, usage: Usage) -> float | None:
        """Return the cost of ``usage`` in USD, or None when the model has no known price."""
        price = self.price(model)
        if price is None:
            return None
        dollars = (usage.prompt_tokens * price.input_per_mtok
                   + usage.completion_tokens * price.output_per_mtok) / 1_000_000
        return round(dollars, 10)


def _table_from_items(items: tuple[tuple[str, Price], ...]) -> PriceTable:
    return PriceTable(prices=MappingProxyType(dict(items)))
