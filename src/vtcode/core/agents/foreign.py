"""Agent files written for Codex, Gemini CLI and opencode, read as vtcode definitions (pure).

Each format is turned into Claude Code's keys (vtcode's native ones) and a prompt, then checked like a
native file (reference extensibility.md 3.1, 3.5): Codex `.codex/agents/*.toml` (`developer_instructions`
is the prompt, `sandbox_mode = "read-only"` a read-only child), Gemini `.gemini/agents/*.md` (`max_turns`,
`tools` with `*`) and opencode `.opencode/agent/*.md` (`tools` as a map of switches, `maxSteps`,
`mode`). Model names in them are the other vendor's: an unknown one means the parent's model, not a
skipped file.
"""

from __future__ import annotations

import tomllib
from collections.abc import Callable
from typing import Any, Literal

from vtcode.core.agents.definitions import DefinitionProblem, Origin, Parsed, definition_from
from vtcode.core.agents.frontmatter import FrontmatterProblem, read_frontmatter

Dialect = Literal["claude", "codex", "gemini", "opencode"]
# Codex's sandbox modes: only the read-only one narrows a child (a definition never widens its parent).
_CODEX_SANDBOX = {"read-only": "read-only", "workspace-write": None, "danger-full-access": None}


def parse_foreign(
    text: str,
    dialect: Dialect,
    *,
    stem: str,
    origin: Origin,
    source: str,
    known_tool: Callable[[str], bool],
    known_model: Callable[[str], bool],
) -> Parsed:
    """Read one agent file of another tool; raises `DefinitionProblem` when it cannot be used."""
    if dialect == "codex":
        keys, body = _codex(text)
    else:
        try:
            keys, body = read_frontmatter(text)
        except FrontmatterProblem as exc:
            raise DefinitionProblem(str(exc)) from exc
        keys = _gemini(keys) if dialect == "gemini" else _opencode(keys) if dialect == "opencode" else keys
    return definition_from(
        keys,
        body,
        stem=stem,
        origin=origin,
        source=source,
        known_tool=known_tool,
        known_model=known_model,
        foreign_model=dialect != "claude",
    )


def _codex(text: str) -> tuple[dict[str, Any], str]:
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise DefinitionProblem(f"not valid TOML: {exc}") from exc
    body = data.get("developer_instructions")
    if not isinstance(body, str) or not body.strip():
        raise DefinitionProblem("`developer_instructions` is missing: it is the agent's prompt")
    keys: dict[str, Any] = {key: data[key] for key in ("name", "description", "model") if key in data}
    sandbox = data.get("sandbox_mode")
    if sandbox is not None:
        if sandbox not in _CODEX_SANDBOX:
            raise DefinitionProblem(f"unknown sandbox_mode {sandbox!r}")
        if _CODEX_SANDBOX[sandbox] is not None:
            keys["permissionMode"] = _CODEX_SANDBOX[sandbox]
    return keys, body


def _gemini(keys: dict[str, Any]) -> dict[str, Any]:
    if keys.get("kind") == "remote":
        raise DefinitionProblem("`kind: remote` agents (A2A servers) are not supported")
    mapped: dict[str, Any] = {key: keys[key] for key in ("name", "description", "model") if key in keys}
    if "max_turns" in keys:
        mapped["maxTurns"] = keys["max_turns"]
    tools = keys.get("tools")
    # `*` (or no list) is every tool of the parent; `mcp_*` patterns name MCP tools vtcode offers anyway.
    if isinstance(tools, list) and "*" not in tools:
        mapped["tools"] = [t for t in tools if not (isinstance(t, str) and t.startswith("mcp_"))]
    return mapped


def _opencode(keys: dict[str, Any]) -> dict[str, Any]:
    if keys.get("mode") == "primary":
        raise DefinitionProblem("`mode: primary` is a main agent, not a subagent")
    mapped: dict[str, Any] = {key: keys[key] for key in ("name", "description") if key in keys}
    model = keys.get("model")
    if isinstance(model, str) and model:
        # opencode names models `provider/model`.
        mapped["model"] = model.rsplit("/", 1)[-1]
    if "maxSteps" in keys:
        mapped["maxTurns"] = keys["maxSteps"]
    tools = keys.get("tools")
    if isinstance(tools, dict):
        # A map of switches: `false` takes a tool away; wildcards (`mymcp_*`) are left to MCP.
        off = [str(name) for name, on in tools.items() if on is False and "*" not in str(name)]
        if off:
            mapped["disallowedTools"] = off
    elif tools is not None:
        raise DefinitionProblem("`tools` must be a map of tool names to true or false")
    return mapped
