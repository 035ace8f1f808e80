"""The TUI asks before a repository's `.mcp.json` starts anything: always, this session, or not at all."""

from __future__ import annotations

import json
import sys
import tomllib
from pathlib import Path

from tests.mcp.helpers import DEMO_SERVER
from tests.tui.tui_helpers import make_app, tui_options, until
from vtcode.mcp.servers import read_project_file, server_hashes
from vtcode.testing.script import Reply
from vtcode.testing.wire import server_for
from vtcode.tui.mcp_trust import McpTrustScreen


def _project(ws: Path, pid_file: Path) -> None:
    ws.mkdir()
    server = {"command": sys.executable, "args": [str(DEMO_SERVER), "--pid-file", str(pid_file)]}
    (ws / ".mcp.json").write_text(json.dumps({"mcpServers": {"repo": server}}))


async def _answer(tmp_path: Path, key: str) -> tuple[Path, Path]:
    ws = tmp_path / "ws"
    pid_file = tmp_path / "repo.pid"
    _project(ws, pid_file)
    with server_for("chat", [Reply(text="ok")]) as server:
        options = tui_options(ws, tmp_path, server)
        app = make_app(options)
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: isinstance(app.screen, McpTrustScreen), "the trust dialog")
            screen = app.screen
            assert isinstance(screen, McpTrustScreen)
            assert list(screen.servers) == ["repo"]
            await until(pilot, lambda: screen.armed, "the armed dialog")
            await pilot.press(key)
            await until(pilot, lambda: app.session is not None, "the session")
            if key != "n":
                await until(pilot, pid_file.exists, "the project's server")
    return pid_file, options.home / "vtcode.toml"


async def test_trusting_for_the_session_starts_the_servers_without_saving_it(tmp_path: Path) -> None:
    pid_file, config = await _answer(tmp_path, "s")
    assert pid_file.exists()
    assert not config.exists()


async def test_trusting_always_is_saved_in_the_user_config(tmp_path: Path) -> None:
    pid_file, config = await _answer(tmp_path, "a")
    assert pid_file.exists()
    saved = tomllib.loads(config.read_text())
    # Trust is bound to the server as it is defined now: a changed or added one asks again.
    hashes = server_hashes(read_project_file(tmp_path / "ws")[0])
    assert saved["projects"][str(tmp_path / "ws")] == {"trust_mcp": True, "mcp_server_hashes": hashes}
    assert list(hashes) == ["repo"]


async def test_declining_starts_nothing(tmp_path: Path) -> None:
    pid_file, config = await _answer(tmp_path, "n")
    assert not pid_file.exists()
    assert not config.exists()
