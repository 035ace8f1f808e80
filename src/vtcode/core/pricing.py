"""What a model call costs at list prices: the price shapes, the lookup by model name, the arithmetic.

Prices are USD per million tokens. A price that is not known is never guessed: a model missing from
the table, or tokens of a kind the model's entry has no price for (cache writes, say), make the cost
`None` ("cost unknown"), so a figure shown is never a wrong one.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Annotated

import msgspec

from vtcode.protocol.messages import Usage

PricePerMillion = Annotated[float, msgspec.Meta(ge=0)]

# A dated snapshot ("claude-sonnet-4-5-20250929", "gpt-4o-2024-08-06") is billed as its family; other
# suffixes ("gpt-4o-audio-preview") are different models with other prices, so they do not match.
_DATED = re.compile(r"^(?P<family>.+?)[-@](?:\d{8}|\d{4}-\d{2}-\d{2})$")


class TokenPrices(msgspec.Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """A price for each kind of token (USD per million); `None`: not known (tokens of it: cost unknown)."""

    input: PricePerMillion | None = None
    output: PricePerMillion | None = None
    cache_read: PricePerMillion | None = None
    cache_write: PricePerMillion | None = None


class PriceTier(TokenPrices, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """The prices of a request whose prompt is longer than `above_input_tokens` (a long-context tier)."""

    above_input_tokens: Annotated[int, msgspec.Meta(ge=0)] = 200_000


class Price(TokenPrices, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """One model's list prices, and those of its long-context tier if it has one."""

    long_context: PriceTier | None = None


class PriceBook:
    """The shipped table with the user's `[pricing."MODEL"]` entries over it; `taken` dates the table."""

    def __init__(
        self, shipped: Mapping[str, Price], overrides: Mapping[str, Price] | None = None, taken: str = ""
    ) -> None:
        self._shipped = shipped
        self._overrides = overrides or {}
        self.taken = taken
        # Asked once per model call: the name matching is done once per model.
        self._found: dict[tuple[str, str], Price | None] = {}

    def price(self, provider: str, model: str) -> Price | None:
        """The price of `model` as served by `provider`; None when no entry names it."""
        if (provider, model) in self._found:
            return self._found[(provider, model)]
        keys = candidate_keys(provider, model)
        price = next(
            (table[key] for table in (self._overrides, self._shipped) for key in keys if key in table), None
        )
        self._found[(provider, model)] = price
        return price


def candidate_keys(provider: str, model: str) -> list[str]:
    """Names a price entry may use for `model`, most specific first ("openai/gpt-5", "gpt-5", family)."""
    names = [model]
    bare = model.rsplit("/", 1)[-1]
    if bare != model:
        names.append(bare)
    dated = _DATED.match(bare)
    if dated is not None:
        names.append(dated.group("family"))
    keys: list[str] = []
    for name in names:
        keys += [f"{provider}/{name}", name] if provider else [name]
    return keys


def call_cost(usage: Usage, price: Price | None) -> float | None:
    """USD of one call reported as `usage`; None when a price it needs is unknown.

    `usage.input_tokens` is the whole prompt (cache reads and writes included, as every adapter reports
    it); reasoning tokens are part of `output_tokens` and billed as output by every provider.
    """
    if price is None:
        return None
    tier: TokenPrices = price
    if price.long_context is not None and usage.input_tokens > price.long_context.above_input_tokens:
        tier = price.long_context
    cached = usage.cached_input_tokens
    written = usage.cache_creation_input_tokens
    uncached = max(usage.input_tokens - cached - written, 0)
    total = 0.0
    for tokens, per_million in (
        (uncached, tier.input),
        (usage.output_tokens, tier.output),
        (cached, tier.cache_read),
        (written, tier.cache_write),
    ):
        if tokens:
            if per_million is None:
                return None
            total += tokens * per_million
    return total / 1_000_000


def format_cost(cost: float | None) -> str:
    """`$0.0123`, or `cost unknown`; small sums keep enough digits to be seen."""
    if cost is None:
        return "cost unknown"
    if cost >= 100:
        return f"${cost:,.2f}"
    return f"${cost:.4f}"
