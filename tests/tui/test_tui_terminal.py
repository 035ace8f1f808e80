"""`vtcode` in a real terminal (tmux): type a prompt, read the answer, leave the terminal as it was."""

from __future__ import annotations

import json
import os
import shlex
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import psutil
import pytest

from vtcode.testing.script import Reply, ScriptToolCall
from vtcode.testing.wire import server_for

TMUX = shutil.which("tmux")
pytestmark = pytest.mark.skipif(
    TMUX is None, reason="tmux is not installed: the real-terminal test needs it (apt-get install tmux)"
)


class Terminal:
    """One tmux pane running a command, on a private tmux server."""

    def __init__(self, socket: Path) -> None:
        self.socket = socket

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

    def wait_for(self, condition: Callable[[], bool], what: str) -> None:
        """Poll until `condition` holds, at most 60 s (the pane's screen is in the failure message)."""
        end = time.monotonic() + 60
        while not condition():
            if time.monotonic() > end:
                raise AssertionError(f"timed out waiting for {what}; the screen:\n{self.screen()}")
            time.sleep(0.1)


@contextmanager
def terminal(tmp_path: Path, command: str, env: dict[str, str]) -> Iterator[Terminal]:
    """A 100x30 tmux pane running `command` in `tmp_path`."""
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
        subprocess.run([TMUX, "-S", str(term.socket), "kill-server"], check=False, timeout=30)


def _env(server_url: str) -> dict[str, str]:
    env = dict(os.environ)
    env.update(
        {
            "OPENAI_API_KEY": "test-key",
            "OPENAI_BASE_URL": server_url,
            "TERM": "xterm-256color",
        }
    )
    env.pop("NO_COLOR", None)
    return env


def _vtcode(*args: str) -> str:
    """vtcode under a shell that stays after it, so the terminal's state can be read afterwards."""
    vtcode = shlex.join([sys.executable, "-m", "vtcode", *args])
    return shlex.join(["sh", "-c", f'{vtcode}; echo "vtcode exited $?"; exec sleep 600'])


def _provider() -> list[str]:
    return ["--provider", "openai", "--model", "gpt-4.1"]


def _exited(term: Terminal) -> str | None:
    for line in term.screen().splitlines():
        if line.startswith("vtcode exited "):
            return line.removeprefix("vtcode exited ")
    return None


def _restored(term: Terminal) -> bool:
    """Back on the main screen with a visible cursor, no mouse reporting, normal keypad."""
    flags = ("alternate_on", "cursor_flag", "mouse_any_flag", "keypad_flag")
    return [term.show(f) for f in flags] == ["0", "1", "0", "0"]


def _vtcode_pid(term: Terminal) -> int:
    children = psutil.Process(int(term.show("pane_pid"))).children()
    assert len(children) == 1, children
    return children[0].pid


def test_a_prompt_typed_in_a_real_terminal_gets_its_answer_and_quitting_restores_it(tmp_path: Path) -> None:
    with (
        server_for("chat", [Reply(text="pong from the loopback model")]) as server,
        terminal(tmp_path, _vtcode(*_provider()), _env(server.base_url)) as term,
    ):
        term.wait_for(lambda: "ready" in term.screen(), "the prompt")
        assert term.show("alternate_on") == "1"
        term.tmux("send-keys", "-t", "main", "-l", "ping the model")
        term.tmux("send-keys", "-t", "main", "Enter")
        term.wait_for(lambda: "pong from the loopback model" in term.screen(), "the answer")
        assert "› ping the model" in term.screen()
        term.tmux("send-keys", "-t", "main", "C-c")
        term.tmux("send-keys", "-t", "main", "C-c")
        term.wait_for(lambda: _exited(term) is not None, "vtcode to quit")
        assert _exited(term) == "0"
        assert _restored(term)
        assert "Traceback" not in term.screen()
        assert "resume this session with: vtcode --resume " in term.screen()
        # The conversation stays in the terminal above the shell prompt, as in Claude Code and Codex.
        left = term.screen().splitlines()
        assert "› ping the model" in left
        assert "pong from the loopback model" in left
        assert server.requests[0].json()["messages"][-1]["content"] == "ping the model"


def test_sigterm_quits_and_restores_the_terminal(tmp_path: Path) -> None:
    with (
        server_for("chat", []) as server,
        terminal(tmp_path, _vtcode(*_provider()), _env(server.base_url)) as term,
    ):
        term.wait_for(lambda: "ready" in term.screen(), "the prompt")
        os.kill(_vtcode_pid(term), signal.SIGTERM)
        term.wait_for(lambda: _exited(term) is not None, "vtcode to quit")
        assert _restored(term)
        assert "Traceback" not in term.screen()


def test_no_provider_opens_the_setup_screen_in_a_real_terminal(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if not k.endswith("_API_KEY")}
    env["TERM"] = "xterm-256color"
    with terminal(tmp_path, _vtcode(), env) as term:
        term.wait_for(lambda: "no model provider is configured" in term.screen(), "the setup screen")
        assert "OPENAI_API_KEY" in term.screen()
        assert "q leaves" in term.screen()
        term.tmux("send-keys", "-t", "main", "q")
        term.wait_for(lambda: _exited(term) is not None, "vtcode to quit")
        assert _restored(term)


_CRASHING_APP = """
import sys
from pathlib import Path
from vtcode.config.schema import Settings
from vtcode.protocol.errors import VtcodeError
from vtcode.runtime.wiring import SessionOptions
from vtcode.tui.app import VtcodeApp
from vtcode.tui.launch import run_app

async def opener(options):
    raise RuntimeError("boom while opening")

options = SessionOptions(workspace=Path.cwd(), settings=Settings(), home=Path.cwd(), env={}, headless=False)
try:
    sys.exit(run_app(VtcodeApp(options, opener=opener)))
except VtcodeError as exc:
    sys.stderr.write(f"vtcode: {exc.user_text()}\\n")
    sys.exit(int(exc.exit_code))
"""


def test_a_crash_restores_the_terminal_and_reports_one_line(tmp_path: Path) -> None:
    script = tmp_path / "crash.py"
    script.write_text(_CRASHING_APP)
    command = shlex.join([sys.executable, str(script)])
    wrapped = shlex.join(["sh", "-c", f'{command}; echo "vtcode exited $?"; exec sleep 600'])
    env = dict(os.environ, TERM="xterm-256color")
    with terminal(tmp_path, wrapped, env) as term:
        term.wait_for(lambda: _exited(term) is not None, "the crash")
        screen = term.screen()
        assert _exited(term) == "1"
        assert "vtcode: internal error: RuntimeError: boom while opening" in screen
        assert "Traceback" not in screen
        assert _restored(term)


# Every answering key (`y`, `a`, `n`) is in it; it ends with Enter.
_SENTENCE = "now please look at yes and no then run the unit tests, any day"


@pytest.mark.parametrize("opens_after", [0.1, 0.5, 1.0])
def test_a_sentence_typed_in_a_real_terminal_as_an_approval_opens_answers_nothing(
    tmp_path: Path, opens_after: float
) -> None:
    call = ScriptToolCall("exec_command", json.dumps({"cmd": "touch typed.txt"}), id="c1")
    script = [
        Reply(tool_calls=(call,), delay_before=opens_after),
        Reply(text="first turn done"),
        Reply(text="second turn done"),
    ]
    with (
        server_for("chat", script) as server,
        terminal(tmp_path, _vtcode(*_provider(), "--approval", "ask"), _env(server.base_url)) as term,
    ):
        term.wait_for(lambda: "ready" in term.screen(), "the prompt")
        term.tmux("send-keys", "-t", "main", "-l", "go")
        term.tmux("send-keys", "-t", "main", "Enter")
        for character in _SENTENCE:
            term.tmux("send-keys", "-t", "main", "-l", character)
            time.sleep(0.03)
        term.tmux("send-keys", "-t", "main", "Enter")
        term.wait_for(
            lambda: "Ctrl+A" in term.screen() and "keys typed now" not in term.screen(), "the armed dialog"
        )
        assert not (tmp_path / "typed.txt").exists()
        term.tmux("send-keys", "-t", "main", "Escape")
        term.wait_for(lambda: "second turn done" in term.screen(), "both turns")
        assert not (tmp_path / "typed.txt").exists()
        last_user = [m for m in server.requests[2].json()["messages"] if m["role"] == "user"][-1]
        assert last_user["content"] == _SENTENCE


def test_alt_enter_in_tmux_sends_steering(tmp_path: Path) -> None:
    call = ScriptToolCall("exec_command", json.dumps({"cmd": "sleep 2"}), id="c1")
    script = [Reply(tool_calls=(call,)), Reply(text="steered answer")]
    with (
        server_for("chat", script) as server,
        terminal(tmp_path, _vtcode(*_provider(), "--approval", "full-auto"), _env(server.base_url)) as term,
    ):
        term.wait_for(lambda: "ready" in term.screen(), "the prompt")
        term.tmux("send-keys", "-t", "main", "-l", "start")
        term.tmux("send-keys", "-t", "main", "Enter")
        term.wait_for(lambda: "$ sleep 2" in term.screen(), "the command")
        term.tmux("send-keys", "-t", "main", "-l", "also this")
        term.tmux("send-keys", "-t", "main", "M-Enter")
        term.wait_for(lambda: "steered answer" in term.screen(), "the answer")
        assert "› (steer) also this" in term.screen()
        second = [m["content"] for m in server.requests[1].json()["messages"] if m["role"] == "user"]
        assert second[-1] == "also this"
