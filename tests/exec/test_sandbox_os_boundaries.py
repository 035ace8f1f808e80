"""What the OS sandbox holds beyond plain writes, through the real CLI, run by root and by an ordinary user.

Each test runs twice (the `as_user` fixture): as the current user and as a fresh unprivileged one,
since root passes checks a user does not and a user namespace takes root's powers away.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.harness import events
from tests.exec.sandbox_helpers import git_workspace, needs_landlock, needs_userns
from tests.unprivileged import Identity
from vtcode.testing.script import Reply, ScriptToolCall
from vtcode.testing.wire import cli_args, cli_env, server_for

pytestmark = [needs_landlock]


def _workspace(as_user: Identity) -> Path:
    ws = git_workspace(as_user.tmpdir() / "ws")
    as_user.chown_tree(ws.parent)
    return ws


def _outside_file(as_user: Identity) -> Path:
    folder = as_user.tmpdir("vtcode-outside-")
    target = folder / "target"
    target.write_text("keep\n")
    os.chmod(target, 0o644)
    os.utime(target, (1_000_000_000, 1_000_000_000))
    as_user.chown_tree(folder)
    return target


def test_the_sandbox_command_runs_as_each_user_and_denies_writes_outside(as_user: Identity) -> None:
    ws = _workspace(as_user)
    outside = as_user.tmpdir("vtcode-outside-")
    done = as_user.vtcode(
        "sandbox", "--", "sh", "-c", f"id -u; touch inside; touch {outside}/x; touch ~/nope", cwd=ws
    )
    assert done.stdout.splitlines() == [str(as_user.uid)], done.stderr
    assert done.code == 1, done.stderr
    assert (ws / "inside").exists()
    assert list(outside.iterdir()) == []
    assert list(as_user.home.iterdir()) == []


@needs_userns
def test_modes_times_and_xattrs_outside_the_writable_roots_cannot_change(as_user: Identity) -> None:
    ws = _workspace(as_user)
    target = _outside_file(as_user)
    attempts = {
        "chmod": f"chmod 4777 {target}",
        "utime": f"touch -m -d @0 {target}",
        "xattr": f'python3 -c \'import os; os.setxattr("{target}", "user.vtcode", b"x")\'',
        "chmod folder": f"chmod 777 {target.parent}",
        "chmod home": "chmod 777 ~",
    }
    script = "; ".join(
        f"{cmd} 2>/dev/null; echo {name.replace(' ', '_')}=$?" for name, cmd in attempts.items()
    )
    done = as_user.vtcode("sandbox", "--", "sh", "-c", script + "; chmod 600 inside-file", cwd=ws)
    codes = dict(line.split("=") for line in done.stdout.splitlines())
    assert {name: code != "0" for name, code in codes.items()} == {
        name.replace(" ", "_"): True for name in attempts
    }, done.stderr
    info = target.stat()
    assert (oct(info.st_mode & 0o7777), info.st_mtime) == (oct(0o644), 1_000_000_000)
    assert oct(target.parent.stat().st_mode & 0o777) == oct(0o700)
    assert os.listxattr(target) == []


def _call(cmd: str, call_id: str) -> Reply:
    arguments = {"cmd": cmd, "yield_time_ms": 20_000}
    return Reply(tool_calls=(ScriptToolCall("exec_command", json.dumps(arguments), id=call_id),))


def _exec_full_auto(as_user: Identity, ws: Path, commands: list[str]) -> dict[str, dict[str, Any]]:
    script = [*(_call(cmd, f"c{i}") for i, cmd in enumerate(commands)), Reply(text="done")]
    with server_for("chat", script) as server:
        done = as_user.vtcode(
            "exec",
            "--json",
            "--approval",
            "full-auto",
            *cli_args("chat"),
            "go",
            cwd=ws,
            env=cli_env("chat", server),
        )
    assert done.code == 0, done.stderr
    results = {}
    for event in events(done.stdout):
        item = event.get("item", {})
        if event["type"] == "item.completed" and item.get("type") == "command_execution":
            results[item["command"]] = json.loads(item["result"])
    return results


@needs_userns
def test_the_first_command_of_a_fresh_workspace_cannot_write_vtcode_config(as_user: Identity) -> None:
    ws = as_user.tmpdir() / "fresh"
    ws.mkdir()
    as_user.chown_tree(ws)
    first = (
        "mkdir -p .vtcode/prompts; echo pwned > .vtcode/prompts/system.md;"
        " echo '[agent]' > .vtcode/vtcode.toml; echo '[agent]' > vtcode.toml; rm -rf .vtcode; echo done"
    )
    results = _exec_full_auto(as_user, ws, [first])
    assert results[first]["output"].strip().endswith("done")
    assert [(ws / ".vtcode/prompts/system.md").exists(), (ws / ".vtcode/vtcode.toml").exists()] == [
        False,
        False,
    ]
    assert not (ws / "vtcode.toml").exists()  # the placeholder is gone again, nothing was written into it
    assert (ws / ".vtcode/context/tool_outputs/.gitignore").read_text() == "*\n"


@pytest.mark.parametrize("sandbox", ["off", "workspace-write"])
@pytest.mark.parametrize("planted", [".vtcode/context/tool_outputs/.gitignore", ".vtcode/context"])
def test_a_planted_spool_link_is_never_written_through(as_user: Identity, sandbox: str, planted: str) -> None:
    ws = _workspace(as_user)
    outside = as_user.tmpdir("vtcode-outside-")
    link = ws / planted
    link.parent.mkdir(parents=True)
    # A dangling link, as a command (or a racing background process) would leave it.
    link.symlink_to(outside / "planted")
    as_user.chown_tree(ws)
    script = [_call("echo hello", "c0"), Reply(text="done")]
    with server_for("chat", script) as server:
        done = as_user.vtcode(
            "exec",
            "--json",
            "--approval",
            "full-auto",
            "--sandbox",
            sandbox,
            *cli_args("chat"),
            "go",
            cwd=ws,
            env=cli_env("chat", server),
        )
    assert done.code == 0, done.stderr
    assert list(outside.iterdir()) == []
    assert link.is_symlink()


@pytest.fixture
def tmux_server(as_user: Identity) -> Iterator[tuple[str, Path]]:
    """A tmux server of the identity on a private socket, running `sh` in session `s`; (name, socket)."""
    if shutil.which("tmux") is None:
        pytest.skip("tmux is not installed (scripts/test installs it where it runs as root with apt)")
    name = f"vtcode-test-{os.urandom(4).hex()}"
    env = {"PATH": "/usr/bin:/bin", "HOME": str(as_user.home), "TERM": "xterm"}
    tmux = ["tmux", "-L", name]
    started = as_user.popen([*tmux, "new-session", "-d", "-s", "s", "sh"], env=env, cwd=str(as_user.home))
    assert started.wait(timeout=30) == 0
    socket = Path(f"/tmp/tmux-{as_user.uid}/{name}")
    try:
        yield name, socket
    finally:
        as_user.popen([*tmux, "kill-server"], env=env, cwd=str(as_user.home)).wait(timeout=30)


def _wait_for_file(path: Path, timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if path.exists():
            return True
        time.sleep(0.05)
    return False


@needs_userns
def test_network_off_keeps_the_users_tmux_server_out_of_reach_unless_allowed(
    as_user: Identity, tmux_server: tuple[str, Path]
) -> None:
    name, socket = tmux_server
    ws = _workspace(as_user)
    outside = as_user.tmpdir("vtcode-outside-")
    drive = ["tmux", "-L", name, "send-keys", "-t", "s"]
    denied = as_user.vtcode("sandbox", "--", *drive, f"touch {outside}/pwned", "Enter", cwd=ws)
    assert denied.code != 0, denied.stderr
    assert not _wait_for_file(outside / "pwned", 1.0)
    config = as_user.home / ".vtcode" / "vtcode.toml"
    config.parent.mkdir()
    config.write_text(f'[sandbox]\nallow_unix_sockets = ["{socket}"]\n')
    as_user.chown_tree(as_user.home)
    allowed = as_user.vtcode("sandbox", "--", *drive, f"touch {outside}/allowed", "Enter", cwd=ws)
    assert allowed.code == 0, allowed.stderr
    assert _wait_for_file(outside / "allowed", 30.0)
    assert not (outside / "pwned").exists()


def test_a_command_cannot_signal_vtcode_or_an_unrelated_process_of_the_user(as_user: Identity) -> None:
    ws = _workspace(as_user)
    unrelated = as_user.popen(["sleep", "300"], cwd="/")
    try:
        done = as_user.vtcode(
            "sandbox",
            "--",
            "sh",
            "-c",
            f"kill -STOP $PPID; echo vtcode=$?; kill -TERM {unrelated.pid}; echo other=$?",
            cwd=ws,
            timeout=60,
        )
        assert (done.code, done.stdout.split()) == (0, ["vtcode=1", "other=1"]), done.stderr
        assert unrelated.poll() is None
    finally:
        unrelated.kill()
        unrelated.wait()


def _on_terminal(as_user: Identity, ws: Path, argv: list[str], typed: bytes = b"") -> tuple[int, str, bytes]:
    """Run `vtcode sandbox` with a terminal as its input (the user's shell's); (code, output, terminal)."""
    master, slave = os.openpty()
    if as_user.user is not None:
        os.chown(os.ttyname(slave), as_user.user.uid, -1)
    try:
        proc = as_user.popen(
            ["setsid", "-c", *as_user.command("sandbox", "--", *argv)],
            cwd=ws,
            env=as_user.env(),
            stdin=slave,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
        )
        if typed:
            os.write(master, typed)
        out, _ = proc.communicate(timeout=60)
        os.set_blocking(slave, False)
        try:
            left = os.read(slave, 64)  # what reached the user's shell's input
        except BlockingIOError:
            left = b""
    finally:
        os.close(master)
        os.close(slave)
    return proc.returncode, out, left


def _tiocsti_forbidden_by_the_kernel() -> bool:
    try:
        return Path("/proc/sys/dev/tty/legacy_tiocsti").read_text().strip() == "0"
    except OSError:
        return False  # older kernels have no switch: TIOCSTI works there


@pytest.mark.skipif(
    _tiocsti_forbidden_by_the_kernel(),
    reason="this kernel forbids TIOCSTI (dev.tty.legacy_tiocsti = 0): nothing for the sandbox to block",
)
def test_a_command_cannot_type_into_the_terminal_it_shares(as_user: Identity) -> None:
    ws = _workspace(as_user)
    inject = "import fcntl, termios; [fcntl.ioctl(0, termios.TIOCSTI, c) for c in [b'i', b'd', b'\\n']]"
    code, out, left = _on_terminal(as_user, ws, ["python3", "-c", inject])
    assert left == b"", out
    assert code != 0, out
    assert "PermissionError" in out, out


def test_the_sandbox_command_runs_on_a_terminal_of_its_own(as_user: Identity) -> None:
    ws = _workspace(as_user)
    script = "read line; echo got:$line; tty; ls /dev/pts"
    code, out, _ = _on_terminal(as_user, ws, ["sh", "-c", script], typed=b"hello\r")
    lines = [line.strip() for line in out.splitlines()]
    assert code == 0, out
    assert "got:hello" in lines, out
    assert lines[lines.index("got:hello") + 1] == "/dev/pts/0", out
    assert lines[-1].split() == ["0", "ptmx"], out


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat", encoding="utf-8") as handle:
            return handle.read().split(") ", 1)[1][0] != "Z"
    except (OSError, IndexError):
        return False


@needs_userns
def test_a_daemon_that_left_the_session_and_cleared_its_environment_ends_with_vtcode(
    as_user: Identity,
) -> None:
    ws = _workspace(as_user)
    daemon = "setsid env -i sh -c 'echo $$ > daemon.pid; exec sleep 300' < /dev/null > /dev/null 2>&1 &"
    done = as_user.vtcode("sandbox", "--", "sh", "-c", f"{daemon} sleep 0.5; cat daemon.pid", cwd=ws)
    assert done.code == 0, done.stderr
    pid = int((ws / "daemon.pid").read_text())
    deadline = time.monotonic() + 30
    while _alive(pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    if _alive(pid):
        os.kill(pid, 9)
        pytest.fail("the daemon outlived vtcode")


@needs_userns
def test_a_killed_vtcodes_sandboxed_daemon_ends_with_it(as_user: Identity) -> None:
    ws = _workspace(as_user)
    daemon = (
        "setsid env -i sh -c 'echo $$ > daemon.pid; exec sleep 300' < /dev/null > /dev/null 2>&1 & "
        "while ! test -s daemon.pid; do sleep 0.05; done; sleep 300"
    )
    arguments = {"cmd": daemon, "yield_time_ms": 300}
    start = Reply(tool_calls=(ScriptToolCall("exec_command", json.dumps(arguments), id="c"),))
    with server_for("chat", [start, Reply(text="never", delay_before=60)]) as server:
        proc = as_user.popen(
            as_user.command("exec", "--json", "--approval", "full-auto", *cli_args("chat"), "go"),
            cwd=ws,
            env=as_user.env(cli_env("chat", server)),
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + 60
        while len(server.requests) < 2 and time.monotonic() < deadline:
            time.sleep(0.05)
        pid = int((ws / "daemon.pid").read_text())
        proc.kill()
        proc.wait(timeout=30)
    deadline = time.monotonic() + 30
    while _alive(pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    if _alive(pid):
        os.kill(pid, 9)
        pytest.fail("the daemon outlived the killed vtcode")


@needs_userns
def test_a_command_cannot_write_into_the_users_other_terminals_but_makes_its_own(as_user: Identity) -> None:
    ws = _workspace(as_user)
    master, slave = os.openpty()
    other = os.ttyname(slave)
    if as_user.user is not None:
        os.chown(other, as_user.user.uid, -1)
    own = (
        'python3 -c \'import os; m, s = os.openpty(); os.write(s, b"x"); '
        "print(os.ttyname(s), os.read(m, 1))'"
    )
    try:
        done = as_user.vtcode(
            "sandbox",
            "--",
            "sh",
            "-c",
            f"printf '\\033]0;pwned\\007' > {other}; echo other=$?; {own}",
            cwd=ws,
        )
        os.set_blocking(master, False)
        try:
            written = os.read(master, 64)
        except BlockingIOError:
            written = b""
    finally:
        os.close(master)
        os.close(slave)
    assert written == b""
    lines = done.stdout.splitlines()
    assert lines[0] != "other=0", done.stderr
    assert lines[1].startswith("/dev/pts/"), done.stderr
    assert lines[1].endswith("b'x'"), done.stderr
