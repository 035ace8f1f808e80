"""How a handler runs: exec form without a shell, the workspace as cwd, the event on stdin, the
project variables, and context over 10,000 characters spooled with its path named."""

from __future__ import annotations

import json
from pathlib import Path

from tests.conftest import VtcodeRunner
from tests.hooks.helpers import call, exec_run, script, user_config
from vtcode.testing.script import Reply


def test_exec_form_passes_args_without_a_shell(
    vtcode: VtcodeRunner, isolated_home: Path, tmp_path: Path
) -> None:
    ws = tmp_path / "ws"
    ws.mkdir()
    out = tmp_path / "argv.txt"
    record = script(tmp_path / "record.sh", f'cat > /dev/null\nprintf "%s|%s" "$1" "$2" > {out}\n')
    user_config(
        isolated_home,
        "[[hooks.UserPromptSubmit]]\n[[hooks.UserPromptSubmit.hooks]]\n"
        f'command = "{record}"\nargs = ["a b; touch pwned", "$HOME"]\n',
    )
    run = exec_run(vtcode, ws, [Reply(text="ok")])
    assert run.result.code == 0, run.result.stderr
    assert out.read_text() == "a b; touch pwned|$HOME"
    assert not (ws / "pwned").exists()


def test_a_hook_gets_the_event_on_stdin_in_the_workspace(
    vtcode: VtcodeRunner, isolated_home: Path, tmp_path: Path
) -> None:
    ws = tmp_path / "ws"
    ws.mkdir()
    out = tmp_path / "seen.json"
    record = script(
        tmp_path / "record.sh",
        "python3 -c 'import json, os, sys; d = json.load(sys.stdin); "
        'd["pwd"] = os.getcwd(); d["env"] = [os.environ.get(k) for k in '
        '("VTCODE_PROJECT_DIR", "CLAUDE_PROJECT_DIR", "VTCODE_HOOK_EVENT")]; '
        f"print(json.dumps(d))' > {out}\n",
    )
    user_config(isolated_home, f'[[hooks.PreToolUse]]\n[[hooks.PreToolUse.hooks]]\ncommand = "{record}"\n')
    steps = [call("exec_command", {"cmd": "echo hi"}, "call_7"), Reply(text="ok")]
    run = exec_run(vtcode, ws, steps, "--approval", "full-auto")
    assert run.result.code == 0, run.result.stderr
    seen = json.loads(out.read_text())
    assert seen["pwd"] == str(ws)
    assert seen["cwd"] == str(ws)
    assert seen["env"] == [str(ws), str(ws), "PreToolUse"]
    assert seen["hook_event_name"] == "PreToolUse"
    assert seen["session_id"] == run.events[0]["thread_id"]
    assert seen["permission_mode"] == "bypassPermissions"
    assert (seen["tool_name"], seen["tool_name_aliases"], seen["tool_use_id"]) == (
        "exec_command",
        ["Bash"],
        "call_7",
    )
    assert seen["tool_input"]["command"] == "echo hi"


def test_context_over_ten_thousand_characters_is_cut_and_spooled(
    vtcode: VtcodeRunner, isolated_home: Path, tmp_path: Path
) -> None:
    ws = tmp_path / "ws"
    ws.mkdir()
    big = script(tmp_path / "big.sh", 'cat > /dev/null\npython3 -c \'print("x" * 15000 + "END")\'\n')
    user_config(
        isolated_home, f'[[hooks.UserPromptSubmit]]\n[[hooks.UserPromptSubmit.hooks]]\ncommand = "{big}"\n'
    )
    run = exec_run(vtcode, ws, [Reply(text="ok")])
    assert run.result.code == 0, run.result.stderr
    context = next(t for t in run.user_texts(0) if "<hook_context" in t)
    assert "x" * 10_000 in context
    assert "x" * 10_001 not in context
    assert "END" not in context
    spooled = list((ws / ".vtcode" / "context" / "tool_outputs").glob("hook-context-*.txt"))
    assert len(spooled) == 1
    assert spooled[0].read_text().endswith("x" * 100 + "END")
    assert str(spooled[0]) in context
