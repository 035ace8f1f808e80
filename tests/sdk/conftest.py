"""Every SDK test runs under `vtcode.sdk.testing.no_network()`: loopback only (the wire fakes bind there).

The `transport` fixture: a test that takes it runs once in-process and once over a `vtcode acp` child.
Tests whose behaviour crosses the transport take it, including the ones of Python hooks, `model_client`
(`ScriptedModel`), `approval="pause"` and the permission callback, which the child calls back; a child
costs a process start per session, so tests of many sessions or many variants run most of them
in-process (`transport_params.in_process_each_and_one_subprocess`, fewer sessions over the child).
Pure tests and those of `Session.runtime` (in-process only) do not take it.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from vtcode.sdk.testing import no_network
from vtcode.sdk.transport import TransportName


@pytest.fixture(autouse=True)
def loopback_only() -> Iterator[None]:
    """Refuse any connection beyond 127.0.0.1 for the test's duration."""
    with no_network():
        yield


@pytest.fixture(params=["in-process", "subprocess"])
def transport(request: pytest.FixtureRequest) -> TransportName:
    """The transport the session under test runs over."""
    name: TransportName = request.param
    return name
