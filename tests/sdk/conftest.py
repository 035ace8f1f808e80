"""Every SDK test runs under `vtcode.sdk.testing.no_network()`: loopback only (the wire fakes bind there)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from vtcode.sdk.testing import no_network


@pytest.fixture(autouse=True)
def loopback_only() -> Iterator[None]:
    """Refuse any connection beyond 127.0.0.1 for the test's duration."""
    with no_network():
        yield
