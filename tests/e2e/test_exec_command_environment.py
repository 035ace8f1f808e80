"""What the agent's commands inherit: secrets stay out of `env`, so out of the model's requests too."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conftest import VtcodeRunner
from vtcode.testing.script import Reply, ScriptToolCall
from vtcode.testing.wire import WIRES, Wire, cli_args, cli_env, server_for

_SECRETS = {
    "GITHUB_TOKEN": "ghp-secret-value-1",
    "AWS_SECRET_ACCESS_KEY": "aws-secret-value-2",
    "DB_PASSWORD": "db-secret-value-3",
    "my_private_key": "lowercase-secret-value-4",
}


def _run_env(vtcode: VtcodeRunner, tmp_path: Path, wire: Wire, extra_env: dict[str, str]) -> str:
    """Run `env` through the agent and return what the model was sent as its result."""
    script = [
        Reply(tool_calls=(ScriptToolCall("exec_command", json.dumps({"cmd": "env"}), id="c1"),)),
        Reply(text="done"),
    ]
    workspace = tmp_path / "ws"
    workspace.mkdir(exist_ok=True)
    with server_for(wire, script) as server:
        result = vtcode.run(
            "exec",
            "--json",
            "--approval",
            "full-auto",
            "--sandbox",
            "off",
            *cli_args(wire),
            "print the environment",
            cwd=workspace,
            env={**cli_env(wire, server), **extra_env},
        )
        requests = [r.body.decode() for r in server.requests]
    assert result.code == 0, result.stderr
    assert len(requests) == 2
    return requests[1]


@pytest.mark.parametrize("wire", WIRES)
def test_secret_variables_never_reach_the_agents_commands(
    vtcode: VtcodeRunner, tmp_path: Path, wire: Wire
) -> None:
    sent = _run_env(vtcode, tmp_path, wire, {**_SECRETS, "VISIBLE_SETTING": "plain-value-5"})
    for value in _SECRETS.values():
        assert value not in sent
    # The command did run and its output reached the model: ordinary variables are there.
    assert "VISIBLE_SETTING=plain-value-5" in sent


def test_shell_environment_policy_excludes_sets_and_restricts(vtcode: VtcodeRunner, tmp_path: Path) -> None:
    config = vtcode.home / ".vtcode"
    config.mkdir(parents=True, exist_ok=True)
    (config / "vtcode.toml").write_text(
        "[shell_environment_policy]\n"
        'inherit = "core"\n'
        'exclude = ["LANG"]\n'
        'set = { CI_MARKER = "from-config-6" }\n'
    )
    sent = _run_env(
        vtcode, tmp_path, "chat", {"VISIBLE_SETTING": "plain-value-5", "LANG": "C.UTF-8-marker-7"}
    )
    assert "CI_MARKER=from-config-6" in sent
    assert "plain-value-5" not in sent  # not a core variable
    assert "C.UTF-8-marker-7" not in sent  # excluded
    assert "PATH=" in sent


def test_shell_environment_policy_can_keep_secrets_on_request(vtcode: VtcodeRunner, tmp_path: Path) -> None:
    config = vtcode.home / ".vtcode"
    config.mkdir(parents=True, exist_ok=True)
    (config / "vtcode.toml").write_text(
        '[shell_environment_policy]\nignore_default_excludes = true\ninclude_only = ["GITHUB_*", "PATH"]\n'
    )
    sent = _run_env(vtcode, tmp_path, "chat", {**_SECRETS, "VISIBLE_SETTING": "plain-value-5"})
    assert "GITHUB_TOKEN=ghp-secret-value-1" in sent
    assert "aws-secret-value-2" not in sent
    assert "plain-value-5" not in sent
