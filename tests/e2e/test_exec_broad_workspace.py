"""A run whose workspace is the home folder (or /) says so: the agent may change anything under it."""

from __future__ import annotations

from pathlib import Path

from tests.conftest import VtcodeRunner
from vtcode.testing.script import Reply
from vtcode.testing.wire import cli_args, cli_env, server_for


def test_the_home_folder_as_workspace_is_warned_about(vtcode: VtcodeRunner, tmp_path: Path) -> None:
    home = vtcode.home.resolve()
    project = tmp_path / "project"
    project.mkdir()
    with server_for("chat", [Reply(text="a"), Reply(text="b")]) as server:
        env = cli_env("chat", server)
        in_home = vtcode.run("exec", *cli_args("chat"), "hi", cwd=home, env=env)
        in_project = vtcode.run("exec", *cli_args("chat"), "-C", str(project), "hi", cwd=home, env=env)
    assert in_home.code == 0, in_home.stderr
    assert (
        f"warning: the workspace is {home}: the agent may read and change anything under it" in in_home.stderr
    )
    assert in_project.code == 0, in_project.stderr
    assert "the agent may read and change anything" not in in_project.stderr
