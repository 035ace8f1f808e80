"""The OS sandbox and the leftover-group sweep through the real CLI, against a loopback model."""

from __future__ import annotations

import json
import signal
import subprocess
import time
from pathlib import Path
from typing import Any

from tests.conftest import VtcodeRunner
from tests.e2e.harness import events
from tests.exec.helpers import alive
from tests.exec.sandbox_helpers import git_workspace, needs_landlock, needs_userns
from vtcode.testing.script import Reply, ScriptToolCall
from vtcode.testing.wire import cli_args, cli_env, server_for


def _call(cmd: str, call_id: str, **extra: Any) -> Reply:
    arguments = {"cmd": cmd, "yield_time_ms": 20_000, **extra}
    return Reply(tool_calls=(ScriptToolCall("exec_command", json.dumps(arguments), id=call_id),))


def _results(stdout: str) -> dict[str, dict[str, Any]]:
    """Each command's tool result (what the model read), by command."""
    found = {}
    for event in events(stdout):
        item = event.get("item", {})
        if event["type"] == "item.completed" and item.get("type") == "command_execution":
            found[item["command"]] = json.loads(item["result"])
    return found


def _wait_for(predicate: Any, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, "timed out waiting"
        time.sleep(0.02)


@needs_landlock
@needs_userns
def test_full_auto_commands_are_confined_and_the_model_is_told(
    vtcode: VtcodeRunner, tmp_path: Path, outside: Path
) -> None:
    ws = git_workspace(tmp_path / "ws")
    (ws / "link").symlink_to(outside)
    denied = [
        f"echo x > {outside}/x",
        "echo x > /etc/vtcode-sandbox-test",
        "echo x > link/x",
        "echo '[sandbox]' >> vtcode.toml",
        "echo 'echo pwned' > .git/hooks/pre-commit",
        f"setsid sh -c 'echo x > {outside}/grandchild' < /dev/null; sleep 0.3; test -e {outside}/grandchild",
    ]
    serve = (
        "python3 -u -m http.server 8765 --bind 127.0.0.1 > server.log 2>&1 &"
        " for i in $(seq 300); do grep -q Serving server.log && break; sleep 0.1; done"
    )
    fetch = (
        "python3 -c 'import urllib.request; print(urllib.request.urlopen(\"http://127.0.0.1:8765/\").status)'"
    )
    script = [
        _call("echo ok > inside.txt && cat inside.txt", "c0"),
        *(_call(cmd, f"d{i}") for i, cmd in enumerate(denied)),
        _call(serve, "s"),
        _call(fetch, "f"),
        Reply(text="done"),
    ]
    with server_for("chat", script) as server:
        done = vtcode.run(
            "exec",
            "--json",
            "--approval",
            "full-auto",
            *cli_args("chat"),
            "try",
            cwd=ws,
            env=cli_env("chat", server),
        )
    assert done.code == 0, done.stderr
    results = _results(done.stdout)
    assert results["echo ok > inside.txt && cat inside.txt"]["output"].strip() == "ok"
    assert {cmd: results[cmd]["exit_code"] != 0 for cmd in denied} == dict.fromkeys(denied, True)
    assert {cmd: "OS sandbox" in results[cmd].get("sandbox_note", "") for cmd in denied[:5]} == dict.fromkeys(
        denied[:5], True
    )
    assert list(outside.iterdir()) == []
    assert (ws / "vtcode.toml").read_text() == "[agent]\n"
    assert results[fetch]["output"].strip() == "200"


@needs_landlock
def test_without_landlock_exec_refuses_commands_until_the_sandbox_is_off(
    vtcode: VtcodeRunner, tmp_path: Path
) -> None:
    ws = git_workspace(tmp_path / "ws")
    env = {"VTCODE_SANDBOX_PRETEND_MISSING": "landlock"}
    outcomes = []
    for flags in ([], ["--sandbox", "off"]):
        with server_for("chat", [_call("echo ran > ran.txt", "c"), Reply(text="done")]) as server:
            done = vtcode.run(
                "exec",
                "--json",
                "--approval",
                "full-auto",
                *flags,
                *cli_args("chat"),
                "go",
                cwd=ws,
                env={**cli_env("chat", server), **env},
            )
        assert done.code == 0, done.stderr
        outcomes.append(_results(done.stdout)["echo ran > ran.txt"])
        if not flags:
            assert not (ws / "ran.txt").exists()
    refused, ran = outcomes
    assert refused["success"] is False
    assert "this kernel has no Landlock" in refused["error"]["message"]
    assert "--sandbox off" in refused["error"]["message"]
    assert ran["exit_code"] == 0
    assert (ws / "ran.txt").read_text() == "ran\n"


# Under the sandbox the namespace holder ends such a server as soon as vtcode dies (see
# test_sandbox_os_boundaries.py); without it, the next start does.
def test_a_killed_vtcodes_background_server_is_ended_by_the_next_start(
    vtcode: VtcodeRunner, tmp_path: Path
) -> None:
    sandbox = "off"
    ws = git_workspace(tmp_path / "ws")
    start = _call(
        "echo $$ > shell.pid; python3 -m http.server 0 --bind 127.0.0.1 > server.log 2>&1 & "
        "echo $! > server.pid; wait",
        "c",
        yield_time_ms=300,
    )
    with server_for("chat", [start, Reply(text="never", delay_before=60)]) as server:
        proc = subprocess.Popen(
            vtcode.command(
                "exec", "--json", "--approval", "full-auto", "--sandbox", sandbox, *cli_args("chat"), "serve"
            ),
            cwd=ws,
            env=vtcode.env(cli_env("chat", server)),
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        _wait_for(lambda: len(server.requests) == 2)
        shell = int((ws / "shell.pid").read_text())
        http_server = int((ws / "server.pid").read_text())
        proc.send_signal(signal.SIGKILL)
        proc.communicate(timeout=30)
    # The shell had a parent-death signal; what it started in the background did not.
    _wait_for(lambda: not alive(shell))
    assert alive(http_server)
    with server_for("chat", [Reply(text="hello")]) as server:
        done = vtcode.run("exec", "--json", *cli_args("chat"), "hi", cwd=ws, env=cli_env("chat", server))
    assert done.code == 0, done.stderr
    notices = [e["message"] for e in events(done.stdout) if e["type"] == "notice"]
    assert [n for n in notices if "left running by an earlier vtcode" in n] == [
        f"ended command processes left running by an earlier vtcode in this workspace that was killed: "
        f"group {shell} (echo $$ > shell.pid; python3 -m http.ser…; 1 process)"
    ]
    _wait_for(lambda: not alive(http_server))


@needs_landlock
def test_the_sandbox_command_shows_the_temp_folder_allowed_and_the_home_denied(
    vtcode: VtcodeRunner, tmp_path: Path, outside: Path
) -> None:
    ws = git_workspace(tmp_path / "ws")
    done = vtcode.run(
        "sandbox",
        "--",
        "sh",
        "-c",
        f"touch {tmp_path}/ok && echo first-ok && touch ~/nope",
        cwd=ws,
        env={"HOME": str(outside)},
    )
    assert (done.code, done.stdout) == (1, "first-ok\n")
    assert done.stderr.splitlines() == [
        f"vtcode: running in {ws} with sandbox workspace-write, network off",
        f"touch: cannot touch '{outside}/nope': Read-only file system",
    ]
    assert (tmp_path / "ok").exists()
    assert list(outside.iterdir()) == []


def test_the_sandbox_command_refuses_without_landlock_and_runs_when_off(
    vtcode: VtcodeRunner, tmp_path: Path
) -> None:
    ws = git_workspace(tmp_path / "ws")
    env = {"VTCODE_SANDBOX_PRETEND_MISSING": "landlock"}
    refused = vtcode.run("sandbox", "--", "touch", "made", cwd=ws, env=env)
    ran = vtcode.run("sandbox", "--sandbox", "off", "--", "touch", "made", cwd=ws, env=env)
    assert refused.code == 2
    assert "this kernel has no Landlock" in refused.stderr
    assert "--sandbox off" in refused.stderr
    assert "Traceback" not in refused.stderr
    assert ran.code == 0
    assert (ws / "made").exists()


def test_resuming_a_killed_session_from_another_workspace_ends_its_leftovers(
    vtcode: VtcodeRunner, tmp_path: Path
) -> None:
    ws = git_workspace(tmp_path / "ws")
    elsewhere = git_workspace(tmp_path / "elsewhere")
    start = _call("sleep 300 & echo $! > sleeper.pid; wait", "c", yield_time_ms=300)
    with server_for("chat", [start, Reply(text="never", delay_before=60)]) as server:
        proc = subprocess.Popen(
            vtcode.command(
                "exec", "--json", "--approval", "full-auto", "--sandbox", "off", *cli_args("chat"), "sleep"
            ),
            cwd=ws,
            env=vtcode.env(cli_env("chat", server)),
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        _wait_for(lambda: len(server.requests) == 2)
        sleeper = int((ws / "sleeper.pid").read_text())
        proc.send_signal(signal.SIGKILL)
        out, _ = proc.communicate(timeout=30)
    session_id = next(e["thread_id"] for e in events(out) if e["type"] == "thread.started")
    assert alive(sleeper)
    with server_for("chat", [Reply(text="hello")]) as server:
        done = vtcode.run(
            "exec",
            "--json",
            "--resume",
            session_id,
            *cli_args("chat"),
            "hi",
            cwd=elsewhere,
            env=cli_env("chat", server),
        )
    assert done.code == 0, done.stderr
    assert any("left running by an earlier vtcode" in e.get("message", "") for e in events(done.stdout))
    _wait_for(lambda: not alive(sleeper))
