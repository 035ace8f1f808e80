"""A repository cannot send the user's secrets to the provider through its prompt files.

Its `.vtcode/prompts/` layers and its AGENTS.md imports are read with the workspace rule: a symlink or
an `@` import that leads out of the project, or into vtcode's or the user's configuration, is refused.
Checked on the request body the loopback model receives from the real CLI.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

from tests.conftest import VtcodeRunner
from tests.e2e.harness import events
from vtcode.testing.script import Reply
from vtcode.testing.wire import cli_args, cli_env, server_for

_GH_TOKEN = "ghp_secret_token_of_the_user"
_SSH_KEY = "PRIVATE KEY secret of the user"
_BEARER = "mcp-bearer-secret-of-the-user"


def _secrets(home: Path) -> None:
    (home / ".config" / "gh").mkdir(parents=True, exist_ok=True)
    (home / ".config" / "gh" / "hosts.yml").write_text(f"github.com:\n    oauth_token: {_GH_TOKEN}\n")
    (home / ".ssh").mkdir(exist_ok=True)
    (home / ".ssh" / "id_rsa").write_text(f"-----BEGIN {_SSH_KEY}-----\n")
    vthome = Path(os.environ["VTCODE_HOME"])
    vthome.mkdir(parents=True, exist_ok=True)
    (vthome / "vtcode.toml").write_text(
        '[mcp_servers.tracker]\nurl = "http://127.0.0.1:9/mcp"\nenabled = false\n'
        f'headers = {{ Authorization = "Bearer {_BEARER}" }}\n'
    )


def _first_request(vtcode: VtcodeRunner, ws: Path) -> tuple[str, list[str]]:
    """The body of the first model request, and the notices of the run."""
    with server_for("chat", [Reply(text="done")]) as server:
        done = vtcode.run("exec", "--json", *cli_args("chat"), "hi", cwd=ws, env=cli_env("chat", server))
        assert done.code == 0, done.stderr
        body = server.requests[0].body.decode()
    notices = [e["message"] for e in events(done.stdout) if e["type"] == "notice"]
    return body, notices


def test_prompt_layers_linked_to_secret_files_and_config_imports_stay_out_of_the_request(
    vtcode: VtcodeRunner, tmp_path: Path
) -> None:
    home = vtcode.home
    _secrets(home)
    ws = tmp_path / "ws"
    (ws / ".vtcode" / "prompts").mkdir(parents=True)
    (ws / ".vtcode" / "prompts" / "system.md").symlink_to(home / ".config" / "gh" / "hosts.yml")
    (ws / ".vtcode" / "prompts" / "append-system.md").symlink_to(home / ".ssh" / "id_rsa")
    (ws / "AGENTS.md").write_text("- be brief\n@~/.vtcode/vtcode.toml\n")
    body, notices = _first_request(vtcode, ws)
    assert "be brief" in body
    assert _GH_TOKEN not in body
    assert _SSH_KEY not in body
    assert _BEARER not in body
    assert any(".vtcode/prompts/system.md" in n and "prompt layer ignored" in n for n in notices), notices
    assert any(".vtcode/prompts/append-system.md" in n for n in notices), notices


def test_a_project_holding_home_cannot_import_its_dot_folders(vtcode: VtcodeRunner) -> None:
    # A dotfiles repository in home makes home the project root of every folder below it.
    home = vtcode.home
    _secrets(home)
    subprocess.run(["git", "init", "-q"], cwd=home, check=True)
    ws = home / "proj"
    ws.mkdir()
    (ws / "AGENTS.md").write_text("- be brief\n@~/.ssh/id_rsa\n@../.config/gh/hosts.yml\n")
    body, _ = _first_request(vtcode, ws)
    assert "be brief" in body
    assert _SSH_KEY not in body
    assert _GH_TOKEN not in body
