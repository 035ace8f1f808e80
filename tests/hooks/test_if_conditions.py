"""Claude Code's handler `if` (a permission rule) narrows a tool hook to the calls it names: a guard
written `"if": "Bash(git push *)"` blocks a push and lets every other command run."""

from __future__ import annotations

from pathlib import Path

from tests.conftest import VtcodeRunner
from tests.hooks.helpers import call, exec_run, hooks_json, user_config
from vtcode.testing.script import Reply

NO_PUSH = "cat > /dev/null; echo 'pushing is for people' >&2; exit 2"
PATCH = "*** Begin Patch\n*** Add File: {}\n+x\n*** End Patch\n"


def _imported(vtcode: VtcodeRunner, home: Path, tmp_path: Path, hooks: dict[str, object]) -> Path:
    ws = tmp_path / "ws"
    hooks_json(ws / ".claude" / "settings.json", hooks)
    user_config(home, 'hooks.import = ["claude"]\n')
    trusted = vtcode.run("hooks", "trust", cwd=ws)
    assert trusted.code == 0, trusted.stderr
    return ws


def test_a_guard_with_an_if_rule_blocks_only_the_commands_it_names(
    vtcode: VtcodeRunner, isolated_home: Path, tmp_path: Path
) -> None:
    handler = {"type": "command", "if": "Bash(git push *)", "command": NO_PUSH}
    ws = _imported(vtcode, isolated_home, tmp_path, {"PreToolUse": [{"matcher": "Bash", "hooks": [handler]}]})
    steps = [
        call("exec_command", {"cmd": "touch allowed.txt"}, "c1"),
        call("exec_command", {"cmd": "git push origin main && touch pushed.txt"}, "c2"),
        Reply(text="ok"),
    ]
    run = exec_run(vtcode, ws, steps, "--approval", "full-auto")
    assert run.result.code == 0, run.result.stderr
    assert (ws / "allowed.txt").exists()
    assert not (ws / "pushed.txt").exists()
    assert "pushing is for people" in run.tool_results()[-1]
    assert [e["outcome"] for e in run.of("hook.completed")] == ["blocked"]
    listed = vtcode.run("hooks", "list", cwd=ws)
    assert "PreToolUse [Bash] if Bash(git push *):" in listed.stdout


def test_an_edit_rule_narrows_a_hook_to_the_files_it_names(
    vtcode: VtcodeRunner, isolated_home: Path, tmp_path: Path
) -> None:
    log = tmp_path / "seen.log"
    handler = {
        "type": "command",
        "if": "Edit(src/**/*.ts)",
        "command": f"cat > /dev/null; echo seen >> {log}",
    }
    ws = _imported(
        vtcode,
        isolated_home,
        tmp_path,
        {"PostToolUse": [{"matcher": "Edit|Write", "hooks": [handler]}]},
    )
    steps = [
        call("apply_patch", {"patch": PATCH.format("src/app/main.ts")}, "c1"),
        call("apply_patch", {"patch": PATCH.format("README.md")}, "c2"),
        call("write_file", {"path": "src/util.ts", "content": "y\n"}, "c3"),
        Reply(text="ok"),
    ]
    run = exec_run(vtcode, ws, steps, "--approval", "full-auto")
    assert run.result.code == 0, run.result.stderr
    assert log.read_text() == "seen\nseen\n"
