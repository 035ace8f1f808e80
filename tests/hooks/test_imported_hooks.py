"""Opt-in import of Claude Code, Codex and Gemini CLI hook files (from the user file only)."""

from __future__ import annotations

import json
from pathlib import Path

from tests.conftest import VtcodeRunner
from tests.hooks.helpers import call, exec_run, hooks_json, script, user_config
from vtcode.testing.script import Reply

GUARD = "cat > /dev/null\necho no >&2\nexit 2\n"


def _claude_workspace(tmp_path: Path) -> Path:
    ws = tmp_path / "ws"
    script(ws / ".claude" / "hooks" / "guard.sh", GUARD)
    hooks_json(
        ws / ".claude" / "settings.json",
        {
            "PreToolUse": [
                {
                    "matcher": "Bash",
                    "hooks": [{"type": "command", "command": '"$CLAUDE_PROJECT_DIR"/.claude/hooks/guard.sh'}],
                }
            ],
            "PermissionDenied": [{"hooks": [{"type": "command", "command": "true"}]}],
        },
    )
    return ws


def test_an_imported_claude_code_hook_behaves_as_the_native_form_once_trusted(
    vtcode: VtcodeRunner, isolated_home: Path, tmp_path: Path
) -> None:
    ws = _claude_workspace(tmp_path)
    user_config(isolated_home, 'hooks.import = ["claude"]\n')
    steps = [call("exec_command", {"cmd": "touch first"}), Reply(text="ok")]
    untrusted = exec_run(vtcode, ws, steps, "--approval", "full-auto")
    assert untrusted.result.code == 0, untrusted.result.stderr
    assert (ws / "first").exists()
    assert "hook skipped: untrusted" in untrusted.result.stderr
    assert "PermissionDenied: skipped: vtcode has no such hook event" in untrusted.result.stdout

    assert vtcode.run("hooks", "trust", cwd=ws).code == 0
    steps = [call("exec_command", {"cmd": "touch second"}), Reply(text="ok")]
    imported = exec_run(vtcode, ws, steps, "--approval", "full-auto")

    native_home_hook = script(tmp_path / "native.sh", GUARD)
    native_ws = tmp_path / "native"
    native_ws.mkdir()
    user_config(
        isolated_home,
        '[[hooks.PreToolUse]]\nmatcher = "Bash"\n'
        f'[[hooks.PreToolUse.hooks]]\ncommand = "{native_home_hook}"\n',
    )
    native = exec_run(vtcode, native_ws, steps, "--approval", "full-auto")
    assert not (ws / "second").exists()
    assert not (native_ws / "second").exists()
    assert imported.tool_results() == native.tool_results() == ["ERROR: not run: no"]
    assert imported.of("hook.completed")[0]["source"] == "import"


def test_hook_files_of_other_tools_are_ignored_without_the_opt_in(
    vtcode: VtcodeRunner, tmp_path: Path
) -> None:
    ws = _claude_workspace(tmp_path)
    listed = vtcode.run("hooks", "list", "--json", cwd=ws)
    assert listed.code == 0, listed.stderr
    assert json.loads(listed.stdout)["hooks"] == []


def test_a_workspace_file_cannot_opt_in_to_imports(vtcode: VtcodeRunner, tmp_path: Path) -> None:
    ws = _claude_workspace(tmp_path)
    (ws / "vtcode.toml").write_text('hooks.import = ["claude"]\n')
    listed = vtcode.run("hooks", "list", "--json", cwd=ws)
    assert listed.code == 0, listed.stderr
    assert json.loads(listed.stdout)["hooks"] == []


def test_gemini_names_and_millisecond_timeouts_are_mapped(
    vtcode: VtcodeRunner, isolated_home: Path, tmp_path: Path
) -> None:
    ws = tmp_path / "ws"
    hooks_json(
        ws / ".gemini" / "settings.json",
        {
            "BeforeTool": [
                {"matcher": "run_shell_command|Bash", "hooks": [{"command": "true", "timeout": 5000}]}
            ]
        },
    )
    hooks_json(ws / ".codex" / "hooks.json", {"Stop": [{"hooks": [{"command": "true", "timeout": 7}]}]})
    user_config(isolated_home, 'hooks.import = ["gemini", "codex"]\n')
    listed = vtcode.run("hooks", "list", "--json", cwd=ws)
    assert listed.code == 0, listed.stderr
    rows = json.loads(listed.stdout)["hooks"]
    assert [(r["event"], r["timeout"], r["source"], r["trust"]) for r in rows] == [
        ("PreToolUse", 5.0, "import", "untrusted"),
        ("Stop", 7.0, "import", "untrusted"),
    ]


def test_a_gemini_hook_matches_by_gemini_tool_names(
    vtcode: VtcodeRunner, isolated_home: Path, tmp_path: Path
) -> None:
    ws = tmp_path / "ws"
    log = tmp_path / "after.log"
    hooks_json(
        ws / ".gemini" / "settings.json",
        {
            "BeforeTool": [
                {
                    "matcher": "run_shell_command",
                    "hooks": [{"command": "cat > /dev/null; echo 'no shell here' >&2; exit 2"}],
                }
            ],
            "AfterTool": [
                {
                    "matcher": "write_file|replace",
                    "hooks": [{"command": f"cat > /dev/null; echo after >> {log}"}],
                }
            ],
        },
    )
    user_config(isolated_home, 'hooks.import = ["gemini"]\n')
    assert vtcode.run("hooks", "trust", cwd=ws).code == 0
    patch = "*** Begin Patch\n*** Add File: a.txt\n+a\n*** End Patch\n"
    steps = [
        call("exec_command", {"cmd": "touch ran.txt"}, "c1"),
        call("apply_patch", {"patch": patch}, "c2"),
        call("write_file", {"path": "b.txt", "content": "b\n"}, "c3"),
        Reply(text="ok"),
    ]
    run = exec_run(vtcode, ws, steps, "--approval", "full-auto")
    assert run.result.code == 0, run.result.stderr
    assert not (ws / "ran.txt").exists()
    assert "no shell here" in run.tool_results()[0]
    assert log.read_text() == "after\nafter\n"


def test_codex_inline_hook_tables_of_codex_config_toml_are_imported(
    vtcode: VtcodeRunner, isolated_home: Path, tmp_path: Path
) -> None:
    ws = tmp_path / "ws"
    (ws / ".codex").mkdir(parents=True)
    (ws / ".codex" / "config.toml").write_text(
        'model = "gpt-5"\n\n[[hooks.PreToolUse]]\nmatcher = "Bash"\n[[hooks.PreToolUse.hooks]]\n'
        'type = "command"\ncommand = "cat > /dev/null; echo \'not from codex\' >&2; exit 2"\ntimeoutSec = 9\n'
    )
    user_config(isolated_home, 'hooks.import = ["codex"]\n')
    listed = vtcode.run("hooks", "list", "--json", cwd=ws)
    assert listed.code == 0, listed.stderr
    rows = json.loads(listed.stdout)["hooks"]
    assert [(r["event"], r["timeout"], r["source_path"]) for r in rows] == [
        ("PreToolUse", 9.0, str(ws / ".codex" / "config.toml"))
    ]
    assert vtcode.run("hooks", "trust", cwd=ws).code == 0
    steps = [call("exec_command", {"cmd": "touch ran.txt"}), Reply(text="ok")]
    run = exec_run(vtcode, ws, steps, "--approval", "full-auto")
    assert run.result.code == 0, run.result.stderr
    assert not (ws / "ran.txt").exists()
    assert "not from codex" in run.tool_results()[0]


def test_disable_all_hooks_in_claude_settings_local_turns_off_the_projects_claude_hooks(
    vtcode: VtcodeRunner, isolated_home: Path, tmp_path: Path
) -> None:
    ws = tmp_path / "ws"
    block = {"matcher": "Bash", "hooks": [{"command": "cat > /dev/null; echo blocked >&2; exit 2"}]}
    hooks_json(ws / ".claude" / "settings.json", {"PreToolUse": [block]})
    user_config(isolated_home, 'hooks.import = ["claude"]\n')
    assert vtcode.run("hooks", "trust", cwd=ws).code == 0
    (ws / ".claude" / "settings.local.json").write_text(json.dumps({"disableAllHooks": True}))
    listed = vtcode.run("hooks", "list", "--json", cwd=ws)
    assert listed.code == 0, listed.stderr
    assert json.loads(listed.stdout)["hooks"] == []
    assert "settings.local.json: disableAllHooks is set" in listed.stderr
    steps = [call("exec_command", {"cmd": "touch ran.txt"}), Reply(text="ok")]
    run = exec_run(vtcode, ws, steps, "--approval", "full-auto")
    assert run.result.code == 0, run.result.stderr
    assert (ws / "ran.txt").exists()
