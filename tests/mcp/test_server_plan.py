"""Which servers a session starts: enabled user servers, a trusted project's, never a broken definition."""

from __future__ import annotations

import json
from pathlib import Path

from vtcode.config.schema import McpServerSettings, ProjectSettings, Settings
from vtcode.mcp.servers import definition_hash, plan_servers


def test_disabled_and_ill_defined_servers_do_not_start(tmp_path: Path) -> None:
    settings = Settings(
        mcp_servers={
            "off": McpServerSettings(command="a", enabled=False),
            "both": McpServerSettings(command="a", url="http://127.0.0.1:1/mcp"),
            "neither": McpServerSettings(),
            "ok": McpServerSettings(url="http://127.0.0.1:1/mcp"),
        }
    )
    plan = plan_servers(settings, tmp_path)
    assert [s.name for s in plan.servers] == ["ok"]
    assert plan.servers[0].transport == "http"
    assert len(plan.diagnostics) == 2
    assert all("set exactly one of command" in d for d in plan.diagnostics)


def test_a_user_server_wins_over_a_project_server_of_the_same_name(tmp_path: Path) -> None:
    (tmp_path / ".mcp.json").write_text(
        json.dumps({"mcpServers": {"db": {"command": "repo-db"}, "extra": {"command": "repo-extra"}}})
    )
    settings = Settings(
        mcp_servers={"db": McpServerSettings(command="my-db")},
        projects={
            str(tmp_path): ProjectSettings(
                trust_mcp=True,
                mcp_server_hashes={"extra": definition_hash(McpServerSettings(command="repo-extra"))},
            )
        },
    )
    plan = plan_servers(settings, tmp_path)
    assert [(s.name, s.settings.command, s.origin) for s in plan.servers] == [
        ("db", "my-db", "config"),
        ("extra", "repo-extra", ".mcp.json"),
    ]
    assert plan.diagnostics == ()


def test_trust_of_another_project_does_not_count(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    ws.mkdir()
    (ws / ".mcp.json").write_text(json.dumps({"mcpServers": {"x": {"command": "x"}}}))
    settings = Settings(projects={str(tmp_path): ProjectSettings(trust_mcp=True)})
    plan = plan_servers(settings, ws)
    assert plan.servers == ()
    assert "not started" in plan.diagnostics[0]


def _trusted(ws: Path, **servers: McpServerSettings) -> Settings:
    hashes = {name: definition_hash(server) for name, server in servers.items()}
    return Settings(projects={str(ws): ProjectSettings(trust_mcp=True, mcp_server_hashes=hashes)})


def test_a_server_added_or_changed_in_a_trusted_project_waits_for_trust_again(tmp_path: Path) -> None:
    settings = _trusted(
        tmp_path, kept=McpServerSettings(command="kept"), edited=McpServerSettings(command="a")
    )
    (tmp_path / ".mcp.json").write_text(
        json.dumps(
            {
                "mcpServers": {
                    "kept": {"command": "kept"},
                    "edited": {"command": "a", "args": ["--evil"]},
                    "added": {"command": "curl"},
                }
            }
        )
    )
    plan = plan_servers(settings, tmp_path)
    assert [s.name for s in plan.servers] == ["kept"]
    pins = ", ".join(
        f'"{name}" = "{definition_hash(McpServerSettings(command=command, args=args))}"'
        for name, command, args in (("edited", "a", ("--evil",)), ("added", "curl", ()))
    )
    assert plan.diagnostics == (
        f"{tmp_path / '.mcp.json'} has MCP servers that are new or changed since you trusted this project, "
        f'not started (edited: a --evil; added: curl): trust them with [projects."{tmp_path}"] '
        f"trust_mcp = true and mcp_server_hashes = {{ {pins} }} in your config (the interactive vtcode "
        "asks), or run with --trust-project-mcp",
    )
    assert [s.name for s in plan_servers(settings, tmp_path, trust_project=True).servers] == [
        "added",
        "edited",
        "kept",
    ]


def test_trusting_a_project_path_without_server_hashes_starts_none_of_its_servers(tmp_path: Path) -> None:
    (tmp_path / ".mcp.json").write_text(json.dumps({"mcpServers": {"x": {"command": "x"}}}))
    settings = Settings(projects={str(tmp_path): ProjectSettings(trust_mcp=True)})
    plan = plan_servers(settings, tmp_path)
    assert plan.servers == ()
    assert "new or changed since you trusted this project" in plan.diagnostics[0]
