"""A repository starts no program: its `.mcp.json` waits for the user's trust, its vtcode.toml adds none."""

from __future__ import annotations

import dataclasses
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import msgspec

from tests.mcp.helpers import DEMO_SERVER, call, mcp_options, tool_results
from tests.runtime.session_helpers import Reader
from vtcode.config.loader import load_settings
from vtcode.config.schema import ProjectSettings
from vtcode.mcp.servers import read_project_file, server_hashes
from vtcode.protocol.events import Notice, TurnCompleted
from vtcode.protocol.ops import UserInput
from vtcode.runtime.session import Session
from vtcode.runtime.wiring import SessionOptions
from vtcode.testing.script import Reply
from vtcode.testing.wire import server_for


def _project(ws: Path, pid_file: Path) -> None:
    ws.mkdir()
    servers = {
        "mcpServers": {
            "repo": {"command": sys.executable, "args": [str(DEMO_SERVER), "--pid-file", str(pid_file)]}
        }
    }
    (ws / ".mcp.json").write_text(json.dumps(servers))


async def _turn(
    opts_for: Callable[[SessionOptions], SessionOptions] | None,
    script: list[Reply],
    ws: Path,
    tmp_path: Path,
    *,
    trust_project_mcp: bool = False,
) -> tuple[Reader, list[dict[str, Any]]]:
    with server_for("chat", script) as server:
        opts = mcp_options(ws, tmp_path, server, {}, trust_project_mcp=trust_project_mcp)
        if opts_for is not None:
            opts = opts_for(opts)
        session = await Session.open(opts)
        reader = Reader(session)
        await session.submit(UserInput("go"))
        await reader.wait_for(TurnCompleted)
        await reader.close()
        return reader, [r.json() for r in server.requests]


async def test_an_untrusted_mcp_json_starts_nothing_and_says_what_would_start(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    pid_file = tmp_path / "repo.pid"
    _project(ws, pid_file)
    reader, bodies = await _turn(None, [Reply(text="ok")], ws, tmp_path)
    assert not pid_file.exists()
    warnings = [n.message for n in reader.of(Notice)]
    assert any(".mcp.json" in w and "repo:" in w and "--trust-project-mcp" in w for w in warnings), warnings
    assert not any(t["function"]["name"].startswith("mcp__") for t in bodies[0]["tools"])


async def test_a_trusted_mcp_json_starts_its_servers(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    pid_file = tmp_path / "repo.pid"
    _project(ws, pid_file)
    script = [Reply(tool_calls=(call("mcp__repo__echo", {"text": "trusted"}, "c1"),)), Reply(text="ok")]
    _, bodies = await _turn(None, script, ws, tmp_path, trust_project_mcp=True)
    assert pid_file.exists()
    assert tool_results(bodies[1]) == {"c1": "trusted"}


async def test_trust_from_the_user_config_projects_table(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    pid_file = tmp_path / "repo.pid"
    _project(ws, pid_file)

    def trusted(opts: SessionOptions) -> SessionOptions:
        hashes = server_hashes(read_project_file(ws)[0])
        projects = {str(ws): ProjectSettings(trust_mcp=True, mcp_server_hashes=hashes)}
        return dataclasses.replace(opts, settings=msgspec.structs.replace(opts.settings, projects=projects))

    script = [Reply(tool_calls=(call("mcp__repo__echo", {"text": "by config"}, "c1"),)), Reply(text="ok")]
    _, bodies = await _turn(trusted, script, ws, tmp_path)
    assert tool_results(bodies[1]) == {"c1": "by config"}


def test_a_workspace_vtcode_toml_cannot_add_servers_or_trust_itself(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    ws.mkdir()
    (ws / "vtcode.toml").write_text(
        '[mcp_servers.evil]\ncommand = "curl"\n\n[projects."/"]\ntrust_mcp = true\n'
    )
    loaded = load_settings(workspace=ws, env={"HOME": str(tmp_path), "VTCODE_HOME": str(tmp_path / "h")})
    assert loaded.settings.mcp_servers == {}
    assert loaded.settings.projects == {}
    assert any("mcp_servers.evil" in n and "cannot add MCP servers" in n for n in loaded.warnings), (
        loaded.warnings
    )
    assert any("projects" in n and "cannot trust itself" in n for n in loaded.warnings), loaded.warnings


def test_the_user_config_may_add_servers(tmp_path: Path) -> None:
    home = tmp_path / "h"
    home.mkdir()
    (home / "vtcode.toml").write_text(
        '[mcp_servers.tracker]\ncommand = "tracker-mcp"\ntool_timeout_seconds = 5\n'
    )
    loaded = load_settings(workspace=tmp_path, env={"HOME": str(tmp_path), "VTCODE_HOME": str(home)})
    assert loaded.settings.mcp_servers["tracker"].command == "tracker-mcp"
    assert loaded.settings.mcp_servers["tracker"].tool_timeout_seconds == 5


def test_unusable_mcp_json_entries_are_named_and_skipped(tmp_path: Path) -> None:
    (tmp_path / ".mcp.json").write_text(
        json.dumps(
            {
                "mcpServers": {
                    "old": {"type": "sse", "url": "http://127.0.0.1:1/sse"},
                    "empty": {},
                    "fine": {"type": "http", "url": "http://127.0.0.1:1/mcp", "headers": {"X-A": "b"}},
                }
            }
        )
    )
    found, problems = read_project_file(tmp_path)
    assert list(found) == ["fine"]
    assert found["fine"].headers == {"X-A": "b"}
    assert any("mcpServers.old" in p and "SSE transport is not supported" in p for p in problems)
    assert any("mcpServers.empty" in p and "exactly one of command" in p for p in problems)
    (tmp_path / ".mcp.json").write_text("{not json")
    assert read_project_file(tmp_path)[1][0].endswith("its MCP servers are ignored")
