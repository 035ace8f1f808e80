"""PreToolUse through the real CLI: exit 2 and JSON deny block, a deny rule beats a hook's allow, ask
cannot be answered headless, and a hook's new input is approved again and is what runs."""

from __future__ import annotations

from pathlib import Path

from tests.conftest import VtcodeRunner
from tests.hooks.helpers import call, exec_run, script, user_config
from vtcode.testing.script import Reply

FULL_AUTO = ("--approval", "full-auto")


def _guard(home: Path, tmp_path: Path, body: str, matcher: str = "Bash") -> None:
    guard = script(tmp_path / "hooks" / "guard.sh", body)
    user_config(
        home,
        f'[[hooks.PreToolUse]]\nmatcher = "{matcher}"\n[[hooks.PreToolUse.hooks]]\ncommand = "{guard}"\n',
    )


def test_exit_2_blocks_the_command_and_the_model_reads_stderr(
    vtcode: VtcodeRunner, isolated_home: Path, tmp_path: Path
) -> None:
    ws = tmp_path / "ws"
    ws.mkdir()
    _guard(isolated_home, tmp_path, "cat > /dev/null\necho no >&2\nexit 2\n")
    steps = [call("exec_command", {"cmd": "touch ran.txt"}), Reply(text="ok")]
    run = exec_run(vtcode, ws, steps, *FULL_AUTO)
    assert run.result.code == 0, run.result.stderr
    assert not (ws / "ran.txt").exists()
    assert run.tool_results() == ["ERROR: not run: no"]
    completed = run.of("hook.completed")
    assert [(e["event"], e["outcome"], e["decision"]) for e in completed] == [
        ("PreToolUse", "blocked", "deny")
    ]
    assert len(run.of("hook.started")) == 1


def test_json_deny_on_exit_0_blocks_with_its_reason(
    vtcode: VtcodeRunner, isolated_home: Path, tmp_path: Path
) -> None:
    ws = tmp_path / "ws"
    ws.mkdir()
    deny = (
        '{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny", '
        '"permissionDecisionReason": "touching is forbidden"}}'
    )
    _guard(isolated_home, tmp_path, f"cat > /dev/null\necho '{deny}'\n")
    steps = [call("exec_command", {"cmd": "touch ran.txt"}), Reply(text="ok")]
    run = exec_run(vtcode, ws, steps, *FULL_AUTO)
    assert run.result.code == 0, run.result.stderr
    assert not (ws / "ran.txt").exists()
    assert run.tool_results() == ["ERROR: not run: touching is forbidden"]


def test_a_hook_allow_never_beats_a_deny_rule(
    vtcode: VtcodeRunner, isolated_home: Path, tmp_path: Path
) -> None:
    ws = tmp_path / "ws"
    ws.mkdir()
    allow = '{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "allow"}}'
    _guard(isolated_home, tmp_path, f"cat > /dev/null\necho '{allow}'\n")
    steps = [call("exec_command", {"cmd": "touch ran.txt"}), Reply(text="ok")]
    run = exec_run(vtcode, ws, steps, *FULL_AUTO, "-c", 'approvals.deny=["touch"]')
    assert run.result.code == 0, run.result.stderr
    assert not (ws / "ran.txt").exists()
    assert "matches the deny rule `touch`" in run.tool_results()[0]


def test_a_hook_allow_lets_a_command_run_that_would_need_approval(
    vtcode: VtcodeRunner, isolated_home: Path, tmp_path: Path
) -> None:
    ws = tmp_path / "ws"
    ws.mkdir()
    allow = '{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "allow"}}'
    _guard(isolated_home, tmp_path, f"cat > /dev/null\necho '{allow}'\n")
    steps = [call("exec_command", {"cmd": "touch ran.txt"}), Reply(text="ok")]
    run = exec_run(vtcode, ws, steps)  # auto-edit: a command without an allow rule is refused headless
    assert run.result.code == 0, run.result.stderr
    assert (ws / "ran.txt").exists()


def test_a_hook_ask_in_full_auto_still_asks_and_headless_that_is_a_denial(
    vtcode: VtcodeRunner, isolated_home: Path, tmp_path: Path
) -> None:
    ws = tmp_path / "ws"
    ws.mkdir()
    ask = '{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "ask"}}'
    _guard(isolated_home, tmp_path, f"cat > /dev/null\necho '{ask}'\n")
    steps = [call("exec_command", {"cmd": "touch ran.txt"}), Reply(text="ok")]
    run = exec_run(vtcode, ws, steps, *FULL_AUTO)
    assert run.result.code == 0, run.result.stderr
    assert not (ws / "ran.txt").exists()
    assert "a PreToolUse hook asks for the user's approval" in run.tool_results()[0]
    assert "headless" in run.tool_results()[0]


_REWRITE = (
    'cat > /dev/null\necho \'{"hookSpecificOutput": {"hookEventName": "PreToolUse", '
    '"permissionDecision": "allow", "updatedInput": {"command": "mkdir rewritten"}}}\'\n'
)


def test_updated_input_is_what_runs_once_approved_again(
    vtcode: VtcodeRunner, isolated_home: Path, tmp_path: Path
) -> None:
    ws = tmp_path / "ws"
    ws.mkdir()
    _guard(isolated_home, tmp_path, _REWRITE)
    steps = [call("exec_command", {"cmd": "touch ran.txt"}), Reply(text="ok")]
    run = exec_run(vtcode, ws, steps, "-c", 'approvals.allow=["mkdir"]')
    assert run.result.code == 0, run.result.stderr
    assert not (ws / "ran.txt").exists(), run.tool_results()
    assert (ws / "rewritten").is_dir(), run.tool_results()
    started = [e["item"] for e in run.of("item.completed") if e["item"]["type"] == "command_execution"]
    assert started[0]["command"] == "mkdir rewritten"


def test_updated_input_goes_through_approval_like_any_call(
    vtcode: VtcodeRunner, isolated_home: Path, tmp_path: Path
) -> None:
    ws = tmp_path / "ws"
    ws.mkdir()
    _guard(isolated_home, tmp_path, _REWRITE)
    steps = [call("exec_command", {"cmd": "touch ran.txt"}), Reply(text="ok")]
    # `touch` may run, the rewritten `mkdir` may not: the hook's allow does not approve its own rewrite.
    run = exec_run(vtcode, ws, steps, "-c", 'approvals.allow=["touch"]')
    assert run.result.code == 0, run.result.stderr
    assert not (ws / "rewritten").exists()
    assert not (ws / "ran.txt").exists()
    assert "command `mkdir rewritten` is not allowed" in run.tool_results()[0]


def test_updated_input_that_does_not_fit_the_schema_blocks(
    vtcode: VtcodeRunner, isolated_home: Path, tmp_path: Path
) -> None:
    ws = tmp_path / "ws"
    ws.mkdir()
    bad = (
        'cat > /dev/null\necho \'{"hookSpecificOutput": {"hookEventName": "PreToolUse", '
        '"updatedInput": {"cmd": 42}}}\'\n'
    )
    _guard(isolated_home, tmp_path, bad)
    steps = [call("exec_command", {"cmd": "touch ran.txt"}), Reply(text="ok")]
    run = exec_run(vtcode, ws, steps, *FULL_AUTO)
    assert not (ws / "ran.txt").exists()
    assert "into one the tool does not accept: `cmd` must be string" in run.tool_results()[0]


def test_a_hook_allow_does_not_lift_read_only_mode(
    vtcode: VtcodeRunner, isolated_home: Path, tmp_path: Path
) -> None:
    ws = tmp_path / "ws"
    ws.mkdir()
    allow = '{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "allow"}}'
    _guard(isolated_home, tmp_path, f"cat > /dev/null\necho '{allow}'\n", matcher="Edit")
    patch = "*** Begin Patch\n*** Add File: new.txt\n+hello\n*** End Patch\n"
    run = exec_run(
        vtcode, ws, [call("apply_patch", {"patch": patch}), Reply(text="ok")], "--approval", "read-only"
    )
    assert run.result.code == 0, run.result.stderr
    assert not (ws / "new.txt").exists()
    assert "not allowed in read-only mode" in run.tool_results()[0]
    assert [e["decision"] for e in run.of("hook.completed")] == ["allow"]


def test_pre_tool_use_additional_context_reaches_the_model_with_the_result(
    vtcode: VtcodeRunner, isolated_home: Path, tmp_path: Path
) -> None:
    ws = tmp_path / "ws"
    ws.mkdir()
    context = (
        '{"hookSpecificOutput": {"hookEventName": "PreToolUse", '
        '"additionalContext": "remember: tests live in tests/"}}'
    )
    _guard(isolated_home, tmp_path, f"cat > /dev/null\necho '{context}'\n")
    run = exec_run(vtcode, ws, [call("exec_command", {"cmd": "echo hi"}), Reply(text="ok")], *FULL_AUTO)
    assert run.result.code == 0, run.result.stderr
    result = run.tool_results()[0]
    assert "hi" in result
    assert "remember: tests live in tests/" in result
