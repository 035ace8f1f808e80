"""Small conveniences users of other agents' CLIs expect: `-m`, and a man page with the usual sections."""

from __future__ import annotations

from pathlib import Path

from tests.conftest import VtcodeRunner

from vtcode.testing.script import Reply
from vtcode.testing.wire import cli_env, server_for


def test_m_is_short_for_model_before_and_after_exec(vtcode: VtcodeRunner, tmp_path: Path) -> None:
    with server_for("chat", [Reply(text="a"), Reply(text="b")]) as server:
        env = cli_env("chat", server)
        after = vtcode.run("exec", "--provider", "openai", "-m", "gpt-4.1-mini", "hi", cwd=tmp_path, env=env)
        before = vtcode.run("-m", "gpt-4.1-nano", "exec", "--provider", "openai", "hi", cwd=tmp_path, env=env)
        models = [r.json()["model"] for r in server.requests]
    assert (after.code, before.code) == (0, 0), after.stderr + before.stderr
    assert models == ["gpt-4.1-mini", "gpt-4.1-nano"]


def test_the_man_page_has_environment_files_and_exit_status(vtcode: VtcodeRunner) -> None:
    page = vtcode.run("man").stdout
    for section in (".SH ENVIRONMENT", ".SH FILES", ".SH EXIT STATUS"):
        assert section in page
    assert ".B VTCODE_HOME" in page
    assert ".B 130, 143" in page
