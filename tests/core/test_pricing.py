"""List prices: which entry a model name takes, and what a call costs (or that its cost is unknown)."""

from __future__ import annotations

import pytest

from vtcode.core.pricing import Price, PriceBook, PriceTier, call_cost, format_cost
from vtcode.protocol.messages import Usage
from vtcode.providers.price_table import price_book, shipped_prices

SONNET = Price(
    input=3.0,
    output=15.0,
    cache_read=0.3,
    cache_write=3.75,
    long_context=PriceTier(
        above_input_tokens=200_000, input=6.0, output=22.5, cache_read=0.6, cache_write=7.5
    ),
)


def test_a_call_is_priced_per_kind_of_token() -> None:
    usage = Usage(
        input_tokens=10_000, output_tokens=500, cached_input_tokens=6_000, cache_creation_input_tokens=1_000
    )
    assert call_cost(usage, SONNET) == pytest.approx(
        (3_000 * 3 + 6_000 * 0.3 + 1_000 * 3.75 + 500 * 15) / 1e6
    )


def test_a_prompt_over_the_long_context_threshold_is_priced_at_the_tier() -> None:
    usage = Usage(input_tokens=250_000, output_tokens=1_000, cached_input_tokens=50_000)
    assert call_cost(usage, SONNET) == pytest.approx((200_000 * 6 + 50_000 * 0.6 + 1_000 * 22.5) / 1e6)


def test_reasoning_tokens_are_billed_once_as_part_of_the_output() -> None:
    usage = Usage(input_tokens=1_000, output_tokens=800, reasoning_tokens=600)
    assert call_cost(usage, Price(input=1.0, output=2.0)) == pytest.approx((1_000 + 1_600) / 1e6)


def test_tokens_of_a_kind_without_a_price_make_the_cost_unknown() -> None:
    no_cache_write = Price(input=1.0, output=2.0, cache_read=0.1)
    assert call_cost(Usage(input_tokens=100, cache_creation_input_tokens=50), no_cache_write) is None
    assert call_cost(Usage(input_tokens=100, cached_input_tokens=50), Price(input=1.0, output=2.0)) is None
    assert call_cost(Usage(input_tokens=100), None) is None
    assert call_cost(Usage(input_tokens=100, output_tokens=5), Price(input=1.0)) is None
    assert call_cost(Usage(input_tokens=100), Price(input=1.0)) == pytest.approx(100 / 1e6)
    assert format_cost(None) == "cost unknown"


def test_dated_and_prefixed_names_take_their_family_but_other_variants_do_not() -> None:
    book = PriceBook({"gpt-4o": Price(input=2.5, output=10.0)})
    assert book.price("openai", "gpt-4o-2024-08-06") is not None
    assert book.price("openrouter", "openai/gpt-4o") is not None
    # Another model with other prices: no figure rather than a wrong one.
    assert book.price("openai", "gpt-4o-audio-preview") is None
    assert book.price("openai", "gpt-4o-mini") is None


def test_the_users_entry_wins_over_the_shipped_one() -> None:
    mine = Price(input=0.5, output=1.0)
    book = price_book({"anthropic/claude-sonnet-4-5": mine})
    assert book.price("anthropic", "claude-sonnet-4-5-20250929") == mine
    assert book.price("openai", "gpt-5") == shipped_prices()["gpt-5"]
    assert book.taken
