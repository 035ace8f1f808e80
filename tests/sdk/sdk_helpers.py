"""Options that point an SDK session at a loopback wire server."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any, Literal

from vtcode.core.approvals import ApprovalMode
from vtcode.sdk import FunctionTool, Options, PermissionCallback
from vtcode.testing.server import WireServer
from vtcode.testing.wire import Wire, cli_env

_MODELS: dict[Wire, tuple[str, str]] = {
    "chat": ("openai", "gpt-4.1"),
    "responses": ("openai", "gpt-5"),
    "anthropic": ("anthropic", "claude-sonnet-4-5"),
}


def sdk_options(
    workspace: Path,
    server: WireServer,
    *,
    wire: Wire = "chat",
    approval: ApprovalMode | Literal["pause"] = "full-auto",
    tools: Sequence[FunctionTool] = (),
    permission: PermissionCallback | None = None,
    config: Sequence[str] = (),
    **more: Any,
) -> Options:
    """Options for a session in `workspace` talking to `server` in its wire format."""
    provider, model = _MODELS[wire]
    wire_api = ("agent.wire_api=responses",) if wire == "responses" else ()
    return Options(
        workspace=workspace,
        provider=provider,
        model=model,
        approval=approval,
        env=cli_env(wire, server),
        tools=tuple(tools),
        permission=permission,
        config=(*wire_api, *config),
        **more,
    )


def tool_results(body: dict[str, Any], wire: Wire) -> list[str]:
    """The text of every tool result a request body carries, in order."""
    found: list[str] = []
    for message in body.get("messages", []):
        if wire == "chat" and message.get("role") == "tool":
            found.append(
                message["content"] if isinstance(message["content"], str) else str(message["content"])
            )
        if wire == "anthropic" and isinstance(message.get("content"), list):
            for block in message["content"]:
                if block.get("type") == "tool_result":
                    content = block.get("content")
                    if isinstance(content, list):
                        content = "".join(part.get("text", "") for part in content)
                    found.append(str(content))
    return found
