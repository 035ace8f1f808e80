"""Options `--help` lists as global hold before the subcommand too: none is silently dropped."""

from __future__ import annotations

import json
from pathlib import Path

from tests.conftest import VtcodeRunner

from vtcode.cli.parser import build_parser
from vtcode.testing.script import Reply, ScriptToolCall
from vtcode.testing.wire import cli_env, server_for

WRITE = Reply(
    tool_calls=(ScriptToolCall("write_file", json.dumps({"path": "a.txt", "content": "x"}), id="w"),)
)


def test_approval_before_exec_keeps_a_read_only_run_from_writing(
    vtcode: VtcodeRunner, tmp_path: Path
) -> None:
    with server_for("chat", [WRITE, Reply(text="ok")]) as server:
        result = vtcode.run(
            "--approval",
            "read-only",
            "--provider",
            "openai",
            "--model",
            "gpt-4.1",
            "exec",
            "write it",
            cwd=tmp_path,
            env=cli_env("chat", server),
        )
        sent_model = server.requests[0].json()["model"]
    assert result.code == 0, result.stderr
    assert not (tmp_path / "a.txt").exists()
    assert sent_model == "gpt-4.1"


def test_workspace_before_exec_is_the_workspace(vtcode: VtcodeRunner, tmp_path: Path) -> None:
    workspace = tmp_path / "project"
    elsewhere = tmp_path / "elsewhere"
    workspace.mkdir()
    elsewhere.mkdir()
    with server_for("chat", [WRITE, Reply(text="ok")]) as server:
        result = vtcode.run(
            "-C",
            str(workspace),
            "--model",
            "gpt-4.1",
            "--provider",
            "openai",
            "exec",
            "write it",
            cwd=elsewhere,
            env=cli_env("chat", server),
        )
    assert result.code == 0, result.stderr
    assert (workspace / "a.txt").read_text() == "x"
    assert not (elsewhere / "a.txt").exists()


def test_the_value_given_last_wins_and_none_is_dropped() -> None:
    parser = build_parser()
    both = parser.parse_args(["--approval", "read-only", "exec", "--approval", "full-auto", "go"])
    before = parser.parse_args(
        [
            "--model",
            "m",
            "--provider",
            "p",
            "--profile",
            "minimal",
            "--sandbox",
            "off",
            "--continue",
            "exec",
            "go",
        ]
    )
    assert both.approval == "full-auto"
    assert (before.model, before.provider, before.profile, before.sandbox, before.continue_last) == (
        "m",
        "p",
        "minimal",
        "off",
        True,
    )
    assert parser.parse_args(["-C", "/w", "acp"]).workspace == "/w"
    assert parser.parse_args(["-C", "/w", "steer", "t"]).workspace == "/w"
    assert parser.parse_args(["--sandbox", "off", "sandbox", "--", "true"]).sandbox == "off"
    assert parser.parse_args(["exec", "go"]).approval is None
