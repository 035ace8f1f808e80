"""Bad hook configuration is a config error naming the file and key (exit 2), and nothing runs."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conftest import VtcodeRunner
from tests.hooks.helpers import Run, call, exec_run, script, user_config
from vtcode.testing.script import Reply


def _marker_hook(tmp_path: Path) -> Path:
    return script(tmp_path / "mark.sh", f"cat > /dev/null\ntouch {tmp_path / 'hook-ran'}\n")


BAD_JSON = [
    ('{"hooks": {"PreToolUse": [', "invalid JSON at line 1"),
    ('{"hooks": {"PreToolUze": []}}', "hooks.PreToolUze: unknown hook event"),
    ('{"hooks": {"PreToolUse": [{"matcher": "Bash(", "hooks": []}]}}', "hooks.PreToolUse[0].matcher"),
]
GOOD_JSON = json.dumps({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"command": "true"}]}]}})


def _assert_stopped(run: Run, path: Path, key: str, tmp_path: Path, ws: Path) -> None:
    assert run.result.code == 2
    assert f"{path}:" in run.result.stderr
    assert key in run.result.stderr
    assert "Traceback" not in run.result.stderr
    assert run.bodies == []
    assert not (tmp_path / "hook-ran").exists()
    assert not (ws / "ran").exists()


@pytest.mark.parametrize("bad", BAD_JSON)
@pytest.mark.parametrize("whose", ["trusted-workspace", "trusted-for-this-run", "user"])
def test_a_bad_hooks_json_that_may_hold_a_guard_stops_the_run_naming_file_and_key(
    vtcode: VtcodeRunner, isolated_home: Path, tmp_path: Path, bad: tuple[str, str], whose: str
) -> None:
    content, key = bad
    ws = tmp_path / "ws"
    (ws / ".vtcode").mkdir(parents=True)
    path = isolated_home / ".vtcode" / "hooks.json" if whose == "user" else ws / ".vtcode" / "hooks.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    extra: tuple[str, ...] = ()
    if whose == "trusted-workspace":
        # The user trusted this workspace's hooks; then the file broke (a bad merge, a typo).
        path.write_text(GOOD_JSON)
        assert vtcode.run("hooks", "trust", cwd=ws).code == 0
    elif whose == "trusted-for-this-run":
        extra = ("--trust-workspace-hooks",)
    path.write_text(content)
    marker = _marker_hook(tmp_path)
    user_config(
        isolated_home, f'[[hooks.SessionStart]]\n[[hooks.SessionStart.hooks]]\ncommand = "{marker}"\n'
    )
    steps = [call("exec_command", {"cmd": "touch ran"}), Reply(text="ok")]
    run = exec_run(vtcode, ws, steps, "--approval", "full-auto", *extra)
    _assert_stopped(run, path, key, tmp_path, ws)


@pytest.mark.parametrize(
    ("where", "bad"),
    [
        *((".vtcode/hooks.json", bad) for bad in BAD_JSON),
        # Claude Code's files may name events vtcode lacks (a warning), so only the other two.
        *((".claude/settings.json", bad) for bad in (BAD_JSON[0], BAD_JSON[2])),
    ],
)
def test_a_bad_hook_file_of_a_never_trusted_workspace_is_skipped_with_a_warning(
    vtcode: VtcodeRunner, isolated_home: Path, tmp_path: Path, where: str, bad: tuple[str, str]
) -> None:
    content, key = bad
    ws = tmp_path / "ws"
    path = ws / where
    path.parent.mkdir(parents=True)
    path.write_text(content)
    marker = _marker_hook(tmp_path)
    user_config(
        isolated_home,
        'hooks.import = ["claude"]\n'
        f'[[hooks.SessionStart]]\n[[hooks.SessionStart.hooks]]\ncommand = "{marker}"\n',
    )
    steps = [call("exec_command", {"cmd": "touch ran"}), Reply(text="ok")]
    run = exec_run(vtcode, ws, steps, "--approval", "full-auto")
    assert run.result.code == 0, run.result.stderr
    [warning] = [e["message"] for e in run.of("notice") if str(path) in e["message"]]
    assert warning.startswith(f"{path}:")
    assert key in warning
    assert "no hook of this workspace is trusted" in warning
    assert "Traceback" not in run.result.stderr
    assert (ws / "ran").exists()
    assert (tmp_path / "hook-ran").exists()
    listed = vtcode.run("hooks", "list", cwd=ws)
    assert listed.code == 0, listed.stderr
    assert f"warning: {path}:" in listed.stderr
    assert "SessionStart" in listed.stdout


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
