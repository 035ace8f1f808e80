"""The `transport` fixture: a test that takes it runs once in-process and once over a `vtcode acp` child.

Only tests whose behaviour crosses the transport take it (a child costs a process start per session);
tests of in-process-only features (`model_client`, Python hooks) and pure ones do not.
"""

from __future__ import annotations

import pytest

from vtcode.sdk.transport import TransportName


@pytest.fixture(params=["in-process", "subprocess"])
def transport(request: pytest.FixtureRequest) -> TransportName:
    """The transport the session under test runs over."""
    name: TransportName = request.param
    return name
