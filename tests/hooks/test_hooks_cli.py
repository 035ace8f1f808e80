"""`vtcode hooks list --json` and `vtcode hooks test EVENT --tool NAME` against real hook scripts."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.conftest import VtcodeRunner
from tests.hooks.helpers import script, user_config


def test_hooks_test_runs_the_event_with_a_sample_input_and_shows_the_decision(
    vtcode: VtcodeRunner, isolated_home: Path, tmp_path: Path
) -> None:
    ws = tmp_path / "ws"
    ws.mkdir()
    guard = script(tmp_path / "guard.sh", "cat > /dev/null\necho 'no rm here' >&2\nexit 2\n")
    user_config(
        isolated_home,
        f'[[hooks.PreToolUse]]\nmatcher = "Bash"\n[[hooks.PreToolUse.hooks]]\ncommand = "{guard}"\n',
    )
    tested = vtcode.run("hooks", "test", "PreToolUse", "--tool", "exec_command", "--json", cwd=ws)
    assert tested.code == 0, tested.stderr
    result = json.loads(tested.stdout)
    assert (result["event"], result["decision"], result["reason"]) == ("PreToolUse", "deny", "no rm here")
    assert [r["outcome"] for r in result["runs"]] == ["blocked"]
    other = vtcode.run("hooks", "test", "PreToolUse", "--tool", "read_file", cwd=ws)
    assert other.code == 0, other.stderr
    assert "no trusted hook runs for PreToolUse on read_file" in other.stdout


def test_hooks_list_shows_every_source_with_its_trust(
    vtcode: VtcodeRunner, isolated_home: Path, tmp_path: Path
) -> None:
    ws = tmp_path / "ws"
    (ws / ".vtcode").mkdir(parents=True)
    (ws / ".vtcode" / "hooks.json").write_text(
        json.dumps({"hooks": {"Stop": [{"hooks": [{"command": "true"}]}]}})
    )
    user_config(
        isolated_home,
        '[[hooks.SessionStart]]\nmatcher = "startup"\n[[hooks.SessionStart.hooks]]\ncommand = "true"\n',
    )
    listed = vtcode.run("hooks", "list", "--json", cwd=ws)
    assert listed.code == 0, listed.stderr
    rows = json.loads(listed.stdout)["hooks"]
    assert [(r["event"], r["source"], r["trust"]) for r in rows] == [
        ("SessionStart", "user", "user"),
        ("Stop", "workspace", "untrusted"),
    ]
    assert len(rows[1]["digest"]) == 64
    unknown = vtcode.run("hooks", "test", "PreTool", cwd=ws)
    assert unknown.code == 2
    assert "unknown hook event 'PreTool'" in unknown.stderr


GUARD = """\
python3 -c '
import json, sys
data = json.load(sys.stdin)
if "rm -rf" in data["tool_input"]["command"]:
    print("rm -rf is not allowed", file=sys.stderr)
    sys.exit(2)
'
"""


def test_hooks_test_tries_a_guard_on_a_given_input_by_its_claude_code_tool_name(
    vtcode: VtcodeRunner, isolated_home: Path, tmp_path: Path
) -> None:
    ws = tmp_path / "ws"
    ws.mkdir()
    guard = script(tmp_path / "guard.sh", GUARD)
    user_config(
        isolated_home,
        f'[[hooks.PreToolUse]]\nmatcher = "exec_command"\n[[hooks.PreToolUse.hooks]]\ncommand = "{guard}"\n',
    )

    def tested(command: str) -> dict[str, Any]:
        given = json.dumps({"tool_input": {"command": command}})
        run = vtcode.run("hooks", "test", "PreToolUse", "--tool", "Bash", "--input", given, "--json", cwd=ws)
        assert run.code == 0, run.stderr
        result: dict[str, Any] = json.loads(run.stdout)
        return result

    blocked = tested("rm -rf build")
    assert (blocked["decision"], blocked["reason"]) == ("deny", "rm -rf is not allowed")
    allowed = tested("ls")
    assert allowed["decision"] is None
    assert [r["outcome"] for r in allowed["runs"]] == ["success"]


def test_hooks_test_says_what_is_wrong_with_a_bad_input(
    vtcode: VtcodeRunner, isolated_home: Path, tmp_path: Path
) -> None:
    ws = tmp_path / "ws"
    ws.mkdir()
    run = vtcode.run("hooks", "test", "PreToolUse", "--tool", "Bash", "--input", "{nope", cwd=ws)
    assert run.code == 2
    assert "--input: not JSON" in run.stderr
    assert "Traceback" not in run.stderr
