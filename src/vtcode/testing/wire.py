"""Pick a loopback server by wire format and the CLI settings that point vtcode at it."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from vtcode.testing.anthropic_server import AnthropicServer
from vtcode.testing.openai_chat_server import OpenAIChatServer
from vtcode.testing.openai_responses_server import OpenAIResponsesServer
from vtcode.testing.script import Step
from vtcode.testing.server import WireServer

Wire = Literal["chat", "responses", "anthropic"]
WIRES: tuple[Wire, ...] = ("chat", "responses", "anthropic")


def server_for(wire: Wire, script: Sequence[Step] = ()) -> WireServer:
    """A (not yet started) loopback server speaking `wire`."""
    if wire == "anthropic":
        return AnthropicServer(script)
    if wire == "responses":
        return OpenAIResponsesServer(script)
    return OpenAIChatServer(script)


def cli_env(wire: Wire, server: WireServer) -> dict[str, str]:
    """Environment variables that make `vtcode` talk to `server` in its wire format."""
    if wire == "anthropic":
        return {"ANTHROPIC_API_KEY": "test-key", "ANTHROPIC_BASE_URL": server.base_url}
    return {"OPENAI_API_KEY": "test-key", "OPENAI_BASE_URL": server.base_url}


def cli_args(wire: Wire) -> list[str]:
    """Command-line options that select the provider and wire format for `server_for(wire)`."""
    if wire == "anthropic":
        return ["--provider", "anthropic", "--model", "claude-sonnet-4-5"]
    if wire == "responses":
        return ["--provider", "openai", "--model", "gpt-5", "-c", "agent.wire_api=responses"]
    return ["--provider", "openai", "--model", "gpt-4.1"]
