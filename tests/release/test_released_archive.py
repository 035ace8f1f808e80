"""The built release archive, extracted: runs with no venv and an empty HOME; docs render and complete.

Runs when VTCODE_RELEASE_ARCHIVE names an archive built by scripts/release.py (CI's release step, after
the suite: .ci/run); the suite itself proves the builder and the verifier on stand-ins.
"""

from __future__ import annotations

import json
import os
import subprocess
import tarfile
from pathlib import Path

import pytest

from tests.release.archives import verify
from tests.release.shells import SHELLS, completions, require
from tests.release.test_man_page_renders import render
from vtcode import __version__
from vtcode.testing.script import Reply
from vtcode.testing.wire import cli_args, cli_env, server_for

ARCHIVE = os.environ.get("VTCODE_RELEASE_ARCHIVE", "")
pytestmark = pytest.mark.skipif(not ARCHIVE, reason="set VTCODE_RELEASE_ARCHIVE to a built release archive")
# No virtual environment and no Python of ours on PATH, and an empty HOME.
CLEAN_PATH = "/usr/local/sbin:/usr/sbin:/usr/bin:/sbin:/bin"
COMPLETION_FILES = {
    "bash": "completions/vtcode.bash",
    "zsh": "completions/_vtcode",
    "fish": "completions/vtcode.fish",
}


@pytest.fixture
def extracted(tmp_path: Path) -> Path:
    """The archive extracted as a user would, with the system tar."""
    target = tmp_path / "release"
    target.mkdir()
    subprocess.run(["tar", "-xzf", ARCHIVE, "-C", str(target)], check=True)
    return target


def _run(
    binary: Path, *args: str, cwd: Path, extra: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    env = {"PATH": CLEAN_PATH, "HOME": "", **(extra or {})}
    return subprocess.run(
        [str(binary), *args], capture_output=True, text=True, env=env, cwd=cwd, timeout=120, check=False
    )


def test_the_verifier_accepts_the_real_archive() -> None:
    verdict = verify(Path(ARCHIVE))
    assert verdict.code == 0, verdict.stderr


def test_version_runs_with_a_clean_environment(extracted: Path, tmp_path: Path) -> None:
    result = _run(extracted / "vtcode", "--version", cwd=tmp_path)
    assert (result.returncode, result.stdout, result.stderr) == (0, f"vtcode {__version__}\n", "")


def test_exec_answers_from_the_loopback_server(extracted: Path, tmp_path: Path) -> None:
    workspace = tmp_path / "workspace"
    workspace.mkdir()
    with server_for("chat", [Reply(text="Hello from the frozen build.")]) as server:
        result = _run(
            extracted / "vtcode",
            "exec",
            *cli_args("chat"),
            "say hi",
            cwd=workspace,
            extra={**cli_env("chat", server), "VTCODE_HOME": str(tmp_path / "vtcode-home")},
        )
        requests = len(server.requests)
    assert result.returncode == 0, result.stderr
    assert result.stdout == "Hello from the frozen build.\n"
    assert requests == 1
    assert "Traceback" not in result.stderr


def test_acp_answers_a_prompt_from_the_loopback_server(extracted: Path, tmp_path: Path) -> None:
    workspace = tmp_path / "workspace"
    workspace.mkdir()
    lines = [
        {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": 1}},
        {
            "jsonrpc": "2.0",
            "id": 2,
            "method": "session/new",
            "params": {"cwd": str(workspace), "mcpServers": []},
        },
    ]
    server = server_for("chat", [Reply(text="Hello over ACP.")])
    env = {"PATH": CLEAN_PATH, "HOME": "", "VTCODE_HOME": str(tmp_path / "vtcode-home")}
    with (
        server,
        subprocess.Popen(
            [str(extracted / "vtcode"), "acp", *cli_args("chat")],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env={**env, **cli_env("chat", server)},
            cwd=workspace,
        ) as proc,
    ):
        assert proc.stdin is not None
        assert proc.stdout is not None
        for line in lines:
            proc.stdin.write(json.dumps(line) + "\n")
        proc.stdin.flush()
        replies = [json.loads(proc.stdout.readline()) for _ in lines]
        session_id = replies[1]["result"]["sessionId"]
        prompt = {"sessionId": session_id, "prompt": [{"type": "text", "text": "hi"}]}
        proc.stdin.write(
            json.dumps({"jsonrpc": "2.0", "id": 3, "method": "session/prompt", "params": prompt}) + "\n"
        )
        proc.stdin.flush()
        messages = [json.loads(proc.stdout.readline())]
        while messages[-1].get("id") != 3:
            messages.append(json.loads(proc.stdout.readline()))
        proc.stdin.close()
        assert proc.wait(timeout=60) == 0
    assert replies[0]["result"]["agentInfo"]["name"] == "vtcode"
    assert messages[-1]["result"]["stopReason"] == "end_turn"
    chunks = [m["params"]["update"] for m in messages if m.get("method") == "session/update"]
    assert "".join(u["content"]["text"] for u in chunks if u["sessionUpdate"] == "agent_message_chunk") == (
        "Hello over ACP."
    )


def test_the_shipped_man_page_renders(extracted: Path) -> None:
    require("man")
    result = render(extracted / "man" / "vtcode.1")
    assert result.returncode == 0, result.stderr
    assert "vtcode exec" in result.stdout


@pytest.mark.parametrize("shell", SHELLS)
def test_the_shipped_completions_complete_ex_to_exec(extracted: Path, tmp_path: Path, shell: str) -> None:
    require(shell)
    work = tmp_path / "work"
    work.mkdir()
    assert completions(shell, extracted / COMPLETION_FILES[shell], "ex", work) == ["exec"]


def test_the_archive_holds_one_vtcode_executable_at_its_root() -> None:
    with tarfile.open(ARCHIVE) as tar:
        named_vtcode = [m.name for m in tar.getmembers() if Path(m.name).name == "vtcode"]
    assert named_vtcode == ["vtcode"]


def test_exec_with_an_empty_home_and_no_vtcode_home_explains_itself(extracted: Path, tmp_path: Path) -> None:
    result = _run(extracted / "vtcode", "exec", "hi", cwd=tmp_path)
    assert result.returncode == 2
    assert "set HOME, or VTCODE_HOME" in result.stderr
    assert "Traceback" not in result.stderr
