"""A real terminal for TUI tests: a tmux pane on a private tmux server, read back through tmux itself."""

from __future__ import annotations

import contextlib
import os
import shlex
import shutil
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import psutil
import pytest

TMUX = shutil.which("tmux")
# The mark of every real-terminal test module.
NEEDS_TMUX = pytest.mark.skipif(
    TMUX is None, reason="tmux is not installed: the real-terminal test needs it (apt-get install tmux)"
)
# How long a pane's processes get to end once their terminal is gone, before the teardown kills them.
HANGUP_GRACE_SECONDS = 30.0


class Terminal:
    """One tmux pane running a command, on a private tmux server."""

    def __init__(self, socket: Path) -> None:
        self.socket = socket
        # The pane's processes when the server was killed: the teardown waits for them.
        self.left: list[psutil.Process] = []

    def tmux(self, *args: str) -> str:
        """Run a tmux command against this server; its stdout."""
        assert TMUX is not None
        done = subprocess.run(
            [TMUX, "-S", str(self.socket), "-f", "/dev/null", *args],
            capture_output=True,
            text=True,
            check=True,
            timeout=30,
        )
        return done.stdout

    def screen(self) -> str:
        """What the pane shows now."""
        return self.tmux("capture-pane", "-p", "-t", "main")

    def show(self, name: str) -> str:
        """A pane format variable (`#{name}`)."""
        return self.tmux("display-message", "-p", "-t", "main", f"#{{{name}}}").strip()

    def type(self, text: str) -> None:
        """Type `text` literally, then Enter."""
        self.tmux("send-keys", "-t", "main", "-l", text)
        self.tmux("send-keys", "-t", "main", "Enter")

    def processes(self) -> list[psutil.Process]:
        """The pane's process and everything below it (empty once the pane's process is gone)."""
        try:
            pane = psutil.Process(int(self.show("pane_pid")))
            return [pane, *pane.children(recursive=True)]
        except (subprocess.CalledProcessError, psutil.NoSuchProcess, ValueError):
            return []

    def kill_server(self) -> None:
        """Kill the tmux server: the pane's terminal is gone, as when a terminal window is closed."""
        assert TMUX is not None
        self.left.extend(self.processes())
        subprocess.run([TMUX, "-S", str(self.socket), "kill-server"], check=False, timeout=30)

    def wait_for(self, condition: Callable[[], bool], what: str) -> None:
        """Poll until `condition` holds, at most 60 s (the pane's screen is in the failure message)."""
        end = time.monotonic() + 60
        while not condition():
            if time.monotonic() > end:
                raise AssertionError(f"timed out waiting for {what}; the screen:\n{self.screen()}")
            time.sleep(0.1)


@contextmanager
def terminal(tmp_path: Path, command: str, env: dict[str, str]) -> Iterator[Terminal]:
    """A 100x30 tmux pane running `command` in `tmp_path`; its processes are gone afterwards.

    The teardown kills the tmux server, then waits for the pane's processes: one that outlives its
    terminal is killed (it would be left to init for the rest of the machine's life) and fails the test.
    """
    term = Terminal(tmp_path / "tmux.sock")
    assert TMUX is not None
    subprocess.run(
        [
            TMUX,
            "-S",
            str(term.socket),
            "-f",
            "/dev/null",
            "new-session",
            "-d",
            "-s",
            "main",
            "-x",
            "100",
            "-y",
            "30",
            "-c",
            str(tmp_path),
            f"exec {command}",
            ";",
            "set-option",
            "-g",
            "remain-on-exit",
            "on",
        ],
        env=env,
        check=True,
        timeout=30,
    )
    try:
        yield term
    finally:
        term.kill_server()
        _, alive = psutil.wait_procs(term.left, timeout=HANGUP_GRACE_SECONDS)
        survivors = [_describe(process) for process in alive]
        for process in alive:
            with contextlib.suppress(psutil.NoSuchProcess):
                process.kill()
        psutil.wait_procs(alive, timeout=HANGUP_GRACE_SECONDS)
        # Killed now, but a process that outlives its terminal is a bug the test must report.
        assert not survivors, f"processes outlived their terminal (killed): {survivors}"


def _describe(process: psutil.Process) -> str:
    try:
        return f"{process.pid} {' '.join(process.cmdline())}"
    except psutil.Error:
        return str(process.pid)


def vtcode_env(server_url: str) -> dict[str, str]:
    """The environment of a vtcode run against the loopback server at `server_url`."""
    env = dict(os.environ)
    env.update({"OPENAI_API_KEY": "test-key", "OPENAI_BASE_URL": server_url, "TERM": "xterm-256color"})
    env.pop("NO_COLOR", None)
    return env


def vtcode_command(*args: str) -> str:
    """vtcode under a shell that stays after it, so the terminal's state can be read afterwards."""
    vtcode = shlex.join([sys.executable, "-m", "vtcode", *args])
    return shlex.join(["sh", "-c", f'{vtcode}; echo "vtcode exited $?"; exec sleep 600'])


def exit_status(term: Terminal) -> str | None:
    """vtcode's exit status as the shell after it printed it; None while it runs."""
    for line in term.screen().splitlines():
        if line.startswith("vtcode exited "):
            return line.removeprefix("vtcode exited ")
    return None


def restored(term: Terminal) -> bool:
    """Back on the main screen with a visible cursor, no mouse reporting, normal keypad."""
    flags = ("alternate_on", "cursor_flag", "mouse_any_flag", "keypad_flag")
    return [term.show(f) for f in flags] == ["0", "1", "0", "0"]


def vtcode_process(term: Terminal) -> psutil.Process:
    """The vtcode process: the only child of the pane's shell."""
    children = psutil.Process(int(term.show("pane_pid"))).children()
    assert len(children) == 1, children
    return children[0]
