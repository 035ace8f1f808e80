"""`vtcode` in a real terminal (tmux): type a prompt, read the answer, leave the terminal as it was."""

from __future__ import annotations

import json
import os
import shlex
import signal
import sys
import time
from pathlib import Path

import pytest

from tests.tui.tmux_terminal import (
    NEEDS_TMUX,
    Terminal,
    exit_status,
    restored,
    terminal,
    vtcode_command,
    vtcode_env,
    vtcode_process,
)
from vtcode.testing.script import Reply, ScriptToolCall
from vtcode.testing.wire import server_for

pytestmark = NEEDS_TMUX


def _provider() -> list[str]:
    return ["--provider", "openai", "--model", "gpt-4.1"]


# Short names for the shared helpers, as this file has always used them.
_env = vtcode_env
_vtcode = vtcode_command
_exited = exit_status
_restored = restored


def _vtcode_pid(term: Terminal) -> int:
    return vtcode_process(term).pid


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
