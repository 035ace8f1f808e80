"""A hook whose program does not exist (a mistyped path) is named when the session starts and in
`vtcode hooks list`, before the call it should have guarded; an existing one is not."""

from __future__ import annotations

from pathlib import Path

from tests.conftest import VtcodeRunner
from tests.hooks.helpers import exec_run, script, user_config
from vtcode.testing.script import Reply


def _config(home: Path, tmp_path: Path) -> Path:
    guard = script(tmp_path / "hooks" / "guard.sh", "cat > /dev/null\n")
    user_config(
        home,
        '[[hooks.PreToolUse]]\nmatcher = "Bash"\n'
        f'[[hooks.PreToolUse.hooks]]\ncommand = "{tmp_path}/hoks/guard.sh"\n'
        f'[[hooks.PreToolUse.hooks]]\ncommand = "bash {tmp_path}/hooks/check.sh"\non_failure = "block"\n'
        f'[[hooks.PreToolUse.hooks]]\ncommand = "{guard} >> {tmp_path}/guard.log"\n'
        '[[hooks.PostToolUse]]\n[[hooks.PostToolUse.hooks]]\ncommand = "echo done | cat >> done.log"\n',
    )
    return guard


def test_a_hook_whose_program_is_missing_is_named_when_the_session_starts(
    vtcode: VtcodeRunner, isolated_home: Path, tmp_path: Path
) -> None:
    ws = tmp_path / "ws"
    ws.mkdir()
    _config(isolated_home, tmp_path)
    run = exec_run(vtcode, ws, [Reply(text="ok")])
    assert run.result.code == 0, run.result.stderr
    warnings = [e["message"] for e in run.of("notice") if e.get("level") == "warning"]
    assert warnings == [
        f"hook `{tmp_path}/hoks/guard.sh` (PreToolUse from {isolated_home}/.vtcode/vtcode.toml): "
        f"`{tmp_path}/hoks/guard.sh` was not found; it will fail on every run and the action goes on "
        "without it",
        f"hook `bash {tmp_path}/hooks/check.sh` (PreToolUse from {isolated_home}/.vtcode/vtcode.toml): "
        f"`{tmp_path}/hooks/check.sh` was not found; it blocks every call it matches (on_failure = block)",
    ]


def test_hooks_list_names_a_hook_whose_program_is_missing(
    vtcode: VtcodeRunner, isolated_home: Path, tmp_path: Path
) -> None:
    ws = tmp_path / "ws"
    ws.mkdir()
    _config(isolated_home, tmp_path)
    listed = vtcode.run("hooks", "list", cwd=ws)
    assert listed.code == 0, listed.stderr
    assert listed.stderr.count("was not found") == 2
    assert f"`{tmp_path}/hoks/guard.sh` was not found" in listed.stderr
