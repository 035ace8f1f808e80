"""`vtcode exec fix the bug`, unquoted, through the real CLI: the remaining words are the prompt."""

from __future__ import annotations

from pathlib import Path

from tests.conftest import VtcodeRunner
from vtcode.testing.script import Reply
from vtcode.testing.wire import cli_args, cli_env, server_for


def _user_text(body: dict[str, object]) -> str:
    messages = body["messages"]
    assert isinstance(messages, list)
    return str([m for m in messages if m["role"] == "user"][-1]["content"])


def test_unquoted_words_are_the_prompt(vtcode: VtcodeRunner, tmp_path: Path) -> None:
    with server_for("chat", [Reply(text="fixed")]) as server:
        result = vtcode.run(
            "exec", *cli_args("chat"), "fix", "the", "bug", cwd=tmp_path, env=cli_env("chat", server)
        )
        sent = server.requests[-1].json()
    assert result.code == 0, result.stderr
    assert result.stdout == "fixed\n"
    assert _user_text(sent).endswith("fix the bug")


def test_options_after_the_words_still_count(vtcode: VtcodeRunner, tmp_path: Path) -> None:
    with server_for("chat", [Reply(text="fixed")]) as server:
        result = vtcode.run(
            "exec",
            *cli_args("chat"),
            "fix",
            "the",
            "bug",
            "--json",
            cwd=tmp_path,
            env=cli_env("chat", server),
        )
        sent = server.requests[-1].json()
    assert result.code == 0, result.stderr
    assert '"thread.started"' in result.stdout
    assert _user_text(sent).endswith("fix the bug")


def test_no_prompt_is_still_a_usage_error(vtcode: VtcodeRunner, tmp_path: Path) -> None:
    result = vtcode.run("exec", cwd=tmp_path, input="")
    assert result.code == 2
    assert "exec needs a PROMPT" in result.stderr
    assert "Traceback" not in result.stderr
