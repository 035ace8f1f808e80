"""Parametrising a test over a value list and the two transports without a child start per value."""

from __future__ import annotations

import pytest


def in_process_each_and_one_subprocess(name: str, values: list[str]) -> pytest.MarkDecorator:
    """Parametrise `name` over `values` in-process, and over the first one only through the child: the
    transport does not depend on the wire format or the way a turn is driven, a child start costs."""
    cases = [(value, "in-process") for value in values] + [(values[0], "subprocess")]
    return pytest.mark.parametrize((name, "transport"), cases)
