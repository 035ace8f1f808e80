"""Hooks at a session's boundaries through the real CLI: prompt context and blocks, the Stop loop cap,
SessionStart context, the SessionEnd budget, concurrency and de-duplication, PermissionRequest."""

from __future__ import annotations

import json
from pathlib import Path

from tests.conftest import VtcodeRunner
from tests.exec.helpers import alive
from tests.hooks.helpers import call, exec_run, hooks_json, script, user_config
from vtcode.testing.script import Reply


def _hook(home: Path, event: str, command: Path, matcher: str = "", extra: str = "") -> None:
    line = f'matcher = "{matcher}"\n' if matcher else ""
    user_config(home, f'[[hooks.{event}]]\n{line}[[hooks.{event}.hooks]]\ncommand = "{command}"\n{extra}')


def test_user_prompt_submit_plain_stdout_is_hidden_context_the_model_reads(
    vtcode: VtcodeRunner, isolated_home: Path, tmp_path: Path
) -> None:
    ws = tmp_path / "ws"
    ws.mkdir()
    _hook(
        isolated_home,
        "UserPromptSubmit",
        script(tmp_path / "ctx.sh", "cat > /dev/null\necho 'ticket ABC-42 is open'\n"),
    )
    run = exec_run(vtcode, ws, [Reply(text="ok")], prompt="fix the ticket")
    assert run.result.code == 0, run.result.stderr
    texts = run.user_texts(0)
    assert any("fix the ticket" in t for t in texts)
    assert any("ticket ABC-42 is open" in t and "<hook_context" in t for t in texts)


def test_user_prompt_submit_block_erases_the_prompt(
    vtcode: VtcodeRunner, isolated_home: Path, tmp_path: Path
) -> None:
    ws = tmp_path / "ws"
    ws.mkdir()
    block = script(
        tmp_path / "block.sh",
        'grep -q hunter2 || exit 0\necho \'{"decision": "block", "reason": "no secrets in prompts"}\'\n',
    )
    _hook(isolated_home, "UserPromptSubmit", block)
    first = exec_run(vtcode, ws, [Reply(text="hi")], prompt="hello")
    assert first.result.code == 0, first.result.stderr
    session = first.events[0]["thread_id"]
    run = exec_run(vtcode, ws, [Reply(text="ok")], "--resume", session, prompt="my password is hunter2")
    assert run.result.code == 1
    assert "no secrets in prompts" in run.result.stderr
    assert run.bodies == []
    stored = [
        p.read_text() for p in (isolated_home / ".vtcode" / "sessions" / session).rglob("*") if p.is_file()
    ]
    assert any("hello" in text for text in stored)
    assert not any("hunter2" in text for text in stored)
    again = exec_run(vtcode, ws, [Reply(text="fine")], "--resume", session, prompt="go on")
    assert again.result.code == 0, again.result.stderr
    assert not any("hunter2" in t for t in again.user_texts(0))


def test_a_stop_hook_that_always_blocks_ends_after_eight_blocks_with_a_notice(
    vtcode: VtcodeRunner, isolated_home: Path, tmp_path: Path
) -> None:
    ws = tmp_path / "ws"
    ws.mkdir()
    for index in range(12):
        (ws / f"notes{index}.txt").write_text("notes\n")
    log = tmp_path / "stop.log"
    stop = script(
        tmp_path / "stop.sh",
        f"python3 -c 'import json,sys; print(json.load(sys.stdin)[\"stop_hook_active\"])' >> {log}\n"
        "echo 'not done yet' >&2\nexit 2\n",
    )
    _hook(isolated_home, "Stop", stop)
    steps = []
    for index in range(12):
        steps += [call("read_file", {"path": f"notes{index}.txt"}, f"c{index}"), Reply(text=f"done {index}")]
    run = exec_run(vtcode, ws, steps)
    assert run.result.code == 0, run.result.stderr
    # Eight blocks, each followed by a tool call and another answer: nine answers, eighteen requests.
    assert len(run.bodies) == 18
    assert log.read_text().split() == ["False"] + ["True"] * 8
    assert sum("A Stop hook asks you to continue: not done yet" in t for t in run.user_texts()) == 8
    notices = [e["message"] for e in run.of("notice")]
    assert any("blocked the end of this turn 8 times" in n for n in notices), notices


def test_session_start_context_reaches_the_first_request(
    vtcode: VtcodeRunner, isolated_home: Path, tmp_path: Path
) -> None:
    ws = tmp_path / "ws"
    ws.mkdir()
    start = script(
        tmp_path / "start.sh",
        'cat > /dev/null\necho \'{"hookSpecificOutput": {"hookEventName": "SessionStart", '
        '"additionalContext": "the build uses make"}}\'\n',
    )
    _hook(isolated_home, "SessionStart", start, matcher="startup")
    run = exec_run(vtcode, ws, [Reply(text="ok")])
    assert run.result.code == 0, run.result.stderr
    assert any("the build uses make" in t for t in run.user_texts(0))


def test_session_end_does_not_hold_up_exit_beyond_its_budget(
    vtcode: VtcodeRunner, isolated_home: Path, tmp_path: Path
) -> None:
    ws = tmp_path / "ws"
    ws.mkdir()
    pid_file = tmp_path / "end.pid"
    end = script(
        tmp_path / "end.sh", f"cat > /dev/null\necho $$ > {pid_file}\nsleep 30\necho finished >> {pid_file}\n"
    )
    _hook(isolated_home, "SessionEnd", end)
    run = exec_run(vtcode, ws, [Reply(text="ok")])
    assert run.result.code == 0, run.result.stderr
    # The hook started, and vtcode ended it when the 1.5 s budget ran out rather than waiting 30 s.
    pid = int(pid_file.read_text().split()[0])
    assert not alive(pid)
    assert "finished" not in pid_file.read_text()
    notices = [e["message"] for e in run.of("notice")]
    assert "SessionEnd hooks stopped after their 1.5 s budget" in notices


def test_hooks_of_one_event_run_concurrently_and_identical_ones_once(
    vtcode: VtcodeRunner, isolated_home: Path, tmp_path: Path
) -> None:
    ws = tmp_path / "ws"
    ws.mkdir()
    log = tmp_path / "runs.log"

    def waiter(name: str, other: str) -> Path:
        # Each hook waits for the other's marker: only hooks started together both finish in time.
        body = (
            f"cat > /dev/null\ntouch {tmp_path / name}\necho {name} >> {log}\n"
            f"for i in $(seq 200); do [ -e {tmp_path / other} ] && exit 0; sleep 0.1; done\nexit 1\n"
        )
        return script(tmp_path / f"{name}.sh", body)

    extra = 'on_failure = "block"\n'
    _hook(isolated_home, "PreToolUse", waiter("a", "b"), matcher="Bash", extra=extra)
    _hook(isolated_home, "PreToolUse", waiter("b", "a"), matcher="Bash", extra=extra)
    # The same handler again in the user's hooks.json: it runs once.
    hooks_json(
        isolated_home / ".vtcode" / "hooks.json",
        {
            "PreToolUse": [
                {"matcher": "Bash", "hooks": [{"command": str(tmp_path / "a.sh"), "on_failure": "block"}]}
            ]
        },
    )
    run = exec_run(
        vtcode, ws, [call("exec_command", {"cmd": "touch ran"}), Reply(text="ok")], "--approval", "full-auto"
    )
    assert run.result.code == 0, run.result.stderr
    assert (ws / "ran").exists(), run.tool_results()
    assert sorted(log.read_text().split()) == ["a", "b"]


def test_a_permission_request_hook_answers_what_nobody_could_in_a_headless_run(
    vtcode: VtcodeRunner, isolated_home: Path, tmp_path: Path
) -> None:
    ws = tmp_path / "ws"
    ws.mkdir()
    answer = script(
        tmp_path / "permit.sh",
        'cat > /dev/null\necho \'{"hookSpecificOutput": {"hookEventName": "PermissionRequest", '
        '"decision": {"behavior": "allow"}}}\'\n',
    )
    _hook(isolated_home, "PermissionRequest", answer, matcher="Bash")
    # auto-edit: a command without an allow rule would need a person.
    run = exec_run(vtcode, ws, [call("exec_command", {"cmd": "touch ran"}), Reply(text="ok")])
    assert run.result.code == 0, run.result.stderr
    assert (ws / "ran").exists(), run.tool_results()
    started = run.of("hook.started")
    assert json.dumps([e["event"] for e in started]) == '["PermissionRequest"]'


def test_a_stop_hook_repeating_its_reason_to_an_unchanged_answer_ends_the_turn(
    vtcode: VtcodeRunner, isolated_home: Path, tmp_path: Path
) -> None:
    ws = tmp_path / "ws"
    ws.mkdir()
    stop = script(tmp_path / "stop.sh", "cat > /dev/null\necho 'run the tests first' >&2\nexit 2\n")
    _hook(isolated_home, "Stop", stop)
    run = exec_run(vtcode, ws, [Reply(text="I cannot run tests here.")] * 10)
    assert run.result.code == 0, run.result.stderr
    # One answer, one block, the same answer again: the turn ends instead of seven more rounds.
    assert len(run.bodies) == 2
    notices = [e["message"] for e in run.of("notice")]
    assert any("again for the same reason and the answer did not change" in n for n in notices), notices
