"""Instruction diagnostics reach `exec --json` as events, once each (issue 4, "Diagnostics").

Needs the agent wiring of `SystemPromptBuilder` (its `on_diagnostics` callback emits notices).
"""

from __future__ import annotations

import json
from pathlib import Path

from tests.conftest import VtcodeRunner
from vtcode.testing.script import Reply, ScriptToolCall
from vtcode.testing.wire import cli_args, cli_env, server_for


def test_diagnostics_are_notice_events(vtcode: VtcodeRunner, tmp_path: Path) -> None:
    workspace = tmp_path / "project"
    (workspace / "docs").mkdir(parents=True)
    (workspace / "AGENTS.md").write_text("- Keep it simple.\n")
    (workspace / "CLAUDE.md").write_bytes(b"\x00\x01 binary")
    (workspace / "docs" / "AGENTS.md").write_text("- Docs use sentence case.\n@~/.ssh/config\n")
    script = [
        Reply(tool_calls=(ScriptToolCall("list_files", json.dumps({"path": "docs"}), id="c1"),)),
        Reply(text="Done."),
    ]
    with server_for("chat", script) as server:
        result = vtcode.run(
            "exec", "--json", *cli_args("chat"), "look around", cwd=workspace, env=cli_env("chat", server)
        )
        bodies = [request.json() for request in server.requests]
    assert result.code == 0, result.stderr
    notices = [
        json.loads(line)["message"]
        for line in result.stdout.splitlines()
        if json.loads(line)["type"] == "notice" and "instructions:" in line
    ]
    assert notices == [
        "instructions: CLAUDE.md: binary file (contains NUL bytes), not text; skipped",
        "instructions: docs/AGENTS.md: import @~/.ssh/config is outside the project and the vtcode config "
        "folders; not loaded",
    ]
    # The nested file loaded at the request after the tool touched its folder.
    assert "Docs use sentence case" not in json.dumps(bodies[0])
    assert "Docs use sentence case" in json.dumps(bodies[1])
