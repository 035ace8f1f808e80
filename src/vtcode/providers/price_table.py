"""The price table shipped with vtcode (`data/prices.json`), loaded once, with the user's entries over it."""

from __future__ import annotations

import functools
from collections.abc import Mapping
from importlib import resources

import msgspec

from vtcode.core.pricing import Price, PriceBook


class _Table(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    schema_version: int
    # The day the prices were read from the providers' pages: a figure is only as current as this.
    taken: str
    source: str
    models: dict[str, Price]


@functools.cache
def _table() -> _Table:
    raw = resources.files("vtcode.providers").joinpath("data/prices.json").read_bytes()
    return msgspec.json.decode(raw, type=_Table)


def shipped_prices() -> Mapping[str, Price]:
    """The shipped list prices by model name."""
    return _table().models


def price_book(overrides: Mapping[str, Price] | None = None) -> PriceBook:
    """The shipped table with `overrides` (the user's `[pricing."MODEL"]`) taking precedence."""
    table = _table()
    return PriceBook(table.models, overrides, taken=table.taken)
