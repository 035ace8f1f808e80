"""Bad hook configuration is a config error naming the file and key (exit 2), and nothing runs."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conftest import VtcodeRunner
from tests.hooks.helpers import call, exec_run, script, user_config
from vtcode.testing.script import Reply


def _marker_hook(tmp_path: Path) -> Path:
    return script(tmp_path / "mark.sh", f"cat > /dev/null\ntouch {tmp_path / 'hook-ran'}\n")


@pytest.mark.parametrize(
    ("content", "key"),
    [
        ('{"hooks": {"PreToolUse": [', "invalid JSON at line 1"),
        ('{"hooks": {"PreToolUze": []}}', "hooks.PreToolUze: unknown hook event"),
        ('{"hooks": {"PreToolUse": [{"matcher": "Bash(", "hooks": []}]}}', "hooks.PreToolUse[0].matcher"),
    ],
)
def test_a_bad_hooks_json_stops_the_run_naming_file_and_key(
    vtcode: VtcodeRunner, isolated_home: Path, tmp_path: Path, content: str, key: str
) -> None:
    ws = tmp_path / "ws"
    (ws / ".vtcode").mkdir(parents=True)
    (ws / ".vtcode" / "hooks.json").write_text(content)
    marker = _marker_hook(tmp_path)
    user_config(
        isolated_home, f'[[hooks.SessionStart]]\n[[hooks.SessionStart.hooks]]\ncommand = "{marker}"\n'
    )
    run = exec_run(
        vtcode, ws, [call("exec_command", {"cmd": "touch ran"}), Reply(text="ok")], "--approval", "full-auto"
    )
    assert run.result.code == 2
    assert f"{ws / '.vtcode' / 'hooks.json'}:" in run.result.stderr
    assert key in run.result.stderr
    assert "Traceback" not in run.result.stderr
    assert run.bodies == []
    assert not (tmp_path / "hook-ran").exists()
    assert not (ws / "ran").exists()


@pytest.mark.parametrize(
    ("toml", "key"),
    [
        (
            '[[hooks.PreToolUze]]\nmatcher = "Bash"\n',
            "hooks.PreToolUze: unknown key, did you mean hooks.PreToolUse?",
        ),
        (
            '[[hooks.PreToolUse]]\nmatcher = "Bash("\n[[hooks.PreToolUse.hooks]]\ncommand = "true"\n',
            'hooks.PreToolUse[0].matcher: got "Bash(" (str), expected a tool name',
        ),
        (
            '[[hooks.PreToolUse]]\n[[hooks.PreToolUse.hooks]]\ncommand = "true"\ntimeout = -1\n',
            "hooks.PreToolUse[0].hooks[0].timeout",
        ),
    ],
)
def test_a_bad_hook_table_in_vtcode_toml_stops_the_run_naming_file_and_key(
    vtcode: VtcodeRunner, isolated_home: Path, tmp_path: Path, toml: str, key: str
) -> None:
    ws = tmp_path / "ws"
    ws.mkdir()
    user_config(isolated_home, toml)
    run = exec_run(vtcode, ws, [Reply(text="ok")])
    assert run.result.code == 2
    assert f"{isolated_home / '.vtcode' / 'vtcode.toml'}:{key}" in run.result.stderr
    assert run.bodies == []


def test_snake_case_event_names_are_accepted_as_aliases(
    vtcode: VtcodeRunner, isolated_home: Path, tmp_path: Path
) -> None:
    ws = tmp_path / "ws"
    ws.mkdir()
    marker = _marker_hook(tmp_path)
    user_config(
        isolated_home, f'[[hooks.session_start]]\n[[hooks.session_start.hooks]]\ncommand = "{marker}"\n'
    )
    run = exec_run(vtcode, ws, [Reply(text="ok")])
    assert run.result.code == 0, run.result.stderr
    assert (tmp_path / "hook-ran").exists()
    assert json.loads(run.result.stdout.splitlines()[0])["type"] == "thread.started"
