"""`vtcode.sdk.testing.no_network()` refuses connections beyond loopback and lets the wire fakes through."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest

import vtcode.sdk as vt
from vtcode.sdk.testing import NetworkBlocked, no_network
from vtcode.testing.script import Reply
from vtcode.testing.wire import server_for


def test_a_connection_beyond_loopback_is_refused_at_once() -> None:
    with no_network(), pytest.raises(NetworkBlocked, match="only loopback"):
        socket.create_connection(("192.0.2.1", 9), timeout=30)


def test_loopback_passes_and_the_previous_connect_comes_back() -> None:
    before = socket.socket.connect
    with server_for("chat", [Reply(text="hi")]) as server, no_network():
        host, port = server.base_url.split("//", 1)[1].split("/", 1)[0].rsplit(":", 1)
        with socket.create_connection((host, int(port)), timeout=30):
            pass
        assert socket.socket.connect is not before
    assert socket.socket.connect is before


async def test_a_session_pointed_beyond_loopback_fails_without_going_out(tmp_path: Path) -> None:
    options = vt.Options(
        workspace=tmp_path,
        provider="openai",
        model="gpt-4.1",
        env={"OPENAI_API_KEY": "sk-test", "OPENAI_BASE_URL": "http://192.0.2.1:9/v1"},
        config=("network.max_retries=0",),
        ephemeral=True,
    )
    async with await vt.Session.open(options) as session:
        result = await session.run("hi")
    assert result.status == "failed"
    assert result.error is not None
    assert result.error.kind == "network"
