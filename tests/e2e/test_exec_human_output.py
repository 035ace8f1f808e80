"""What `vtcode exec` prints for a person: lines in the order things happened, failures visible, session
calls told apart from new commands, no terminal control sequences from the model."""

from __future__ import annotations

import io
import json
from pathlib import Path

from tests.conftest import VtcodeRunner
from vtcode.cli.render import HumanRenderer
from vtcode.protocol.events import (
    AgentMessageItem,
    CommandExecutionItem,
    ItemCompleted,
    ItemDelta,
    ItemStarted,
    TurnCompleted,
)
from vtcode.testing.script import LAST_SESSION_ID, Reply, ScriptToolCall
from vtcode.testing.wire import cli_args, cli_env, server_for


def _call(name: str, arguments: dict[str, object], call_id: str, text: str = "") -> Reply:
    return Reply(text=text, tool_calls=(ScriptToolCall(name, json.dumps(arguments), id=call_id),))


def test_progress_failures_and_session_calls_read_in_order(vtcode: VtcodeRunner, tmp_path: Path) -> None:
    script = [
        _call(
            "exec_command",
            {"cmd": "sleep 0.5; echo built", "yield_time_ms": 250},
            "c1",
            "Running the slow suite now.",
        ),
        _call("write_stdin", {"session_id": LAST_SESSION_ID, "action": "wait"}, "c2"),
        _call("exec_command", {"cmd": "pwd", "workdir": "missing"}, "c3"),
        _call(
            "apply_patch",
            {"patch": "*** Begin Patch\n*** Update File: nope.py\n@@\n-a\n+b\n*** End Patch"},
            "c4",
        ),
        _call("exec_command", {"cmd": "sleep 30", "yield_time_ms": 250}, "c5"),
        _call("write_stdin", {"session_id": LAST_SESSION_ID, "action": "kill"}, "c6"),
        Reply(text="All done."),
    ]
    with server_for("chat", script) as server:
        env = cli_env("chat", server)
        result = vtcode.run("exec", "--approval", "full-auto", *cli_args("chat"), "go", cwd=tmp_path, env=env)
    assert result.code == 0, result.stderr
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert lines == [
        "Running the slow suite now.",
        "$ sleep 0.5; echo built",
        "  still running",
        "  … waiting for `sleep 0.5; echo built`",
        "  exit 0",
        "$ pwd",
        "  failed: workdir 'missing' does not exist",
        "  edit failed: " + lines[7].removeprefix("  edit failed: "),
        "$ sleep 30",
        "  still running",
        "  … stopping `sleep 30`",
        "  killed",
        "usage: 7 requests · 70 in · 35 out · $0.0004",
        lines[13],
    ]
    assert lines[13].startswith("session: ")
    assert "nope.py" in lines[7]
    assert result.stdout == "All done.\n"


def test_model_text_on_a_terminal_carries_no_control_sequences() -> None:
    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    out, err = Terminal(), io.StringIO()
    render = HumanRenderer(out=out, err=err)
    hostile = "fine\x1b]0;pwned\x07 text\x1b[2J done"
    render(ItemStarted(item=AgentMessageItem(id="m")))
    render(ItemDelta(item_id="m", kind="text", delta=hostile))
    render(ItemCompleted(item=AgentMessageItem(id="m", text=hostile)))
    render(TurnCompleted())
    render(ItemStarted(item=CommandExecutionItem(id="c", command="echo \x1b[31mred")))
    assert "\x1b" not in out.getvalue()
    assert out.getvalue() == "fine text done\n"
    assert "\x1b" not in err.getvalue()


def test_the_unknown_model_notice_is_said_once_per_model_and_window(
    vtcode: VtcodeRunner, tmp_path: Path
) -> None:
    with server_for("chat", [Reply(text="one"), Reply(text="two"), Reply(text="three")]) as server:
        env = cli_env("chat", server)
        model = ["--provider", "openai", "--model", "my-local-model"]
        first = vtcode.run("exec", *model, "hi", cwd=tmp_path, env=env)
        second = vtcode.run("exec", *model, "hi", cwd=tmp_path, env=env)
        other_window = vtcode.run(
            "exec", *model, "-c", 'models."my-local-model".context_window=32000', "hi", cwd=tmp_path, env=env
        )
    assert [r.code for r in (first, second, other_window)] == [0, 0, 0]
    assert "not in the catalog" in first.stderr
    assert "not in the catalog" not in second.stderr
    assert "my-local-model" in first.stderr
    # A configured window is known: nothing to warn about.
    assert "not in the catalog" not in other_window.stderr
