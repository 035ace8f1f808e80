"""Claude Code hooks read a file tool's file as `tool_input.file_path` (absolute): the formatter hook of
Claude Code's docs, imported from `.claude/settings.json`, formats what `apply_patch` and `write_file`
wrote, and the model's next read shows it."""

from __future__ import annotations

import json
from pathlib import Path

from tests.conftest import VtcodeRunner
from tests.hooks.helpers import call, exec_run, hooks_json, user_config
from vtcode.testing.script import Reply

# Claude Code's docs pipe `jq -r '.tool_input.file_path'` into the formatter; python3 stands in for jq.
FILE_PATH = 'python3 -c \'import json, sys; print(json.load(sys.stdin)["tool_input"]["file_path"])\''
FORMATTER = f"{FILE_PATH} | tee -a .claude/formatted.log | xargs sed -i 's/[[:space:]]*$//'"
PATCH = "*** Begin Patch\n*** Add File: calc.py\n+x = 1   \n*** End Patch\n"


def test_the_claude_code_formatter_hook_formats_what_the_agent_wrote(
    vtcode: VtcodeRunner, isolated_home: Path, tmp_path: Path
) -> None:
    ws = tmp_path / "ws"
    hooks_json(
        ws / ".claude" / "settings.json",
        {
            "PostToolUse": [
                {"matcher": "Edit|MultiEdit|Write", "hooks": [{"type": "command", "command": FORMATTER}]}
            ]
        },
    )
    user_config(isolated_home, 'hooks.import = ["claude"]\n')
    assert vtcode.run("hooks", "trust", cwd=ws).code == 0
    steps = [
        call("apply_patch", {"patch": PATCH}, "c1"),
        call("write_file", {"path": "notes.md", "content": "hello  \n"}, "c2"),
        call("read_file", {"path": "calc.py"}, "c3"),
        Reply(text="ok"),
    ]
    run = exec_run(vtcode, ws, steps, "--approval", "full-auto")
    assert run.result.code == 0, run.result.stderr
    assert (ws / ".claude" / "formatted.log").read_text().splitlines() == [
        str(ws / "calc.py"),
        str(ws / "notes.md"),
    ]
    assert (ws / "calc.py").read_text() == "x = 1\n"
    assert (ws / "notes.md").read_text() == "hello\n"
    read = run.tool_results()[-1]
    assert [line.split("\t", 1)[1] for line in read.splitlines() if "\t" in line] == ["x = 1"]


def test_a_hook_sees_file_path_next_to_the_tools_own_arguments(
    vtcode: VtcodeRunner, isolated_home: Path, tmp_path: Path
) -> None:
    ws = tmp_path / "ws"
    ws.mkdir()
    (ws / "a.txt").write_text("a\n")
    seen = tmp_path / "seen.jsonl"
    user_config(
        isolated_home,
        '[[hooks.PreToolUse]]\nmatcher = "Read"\n[[hooks.PreToolUse.hooks]]\n'
        f'command = "cat >> {seen}; echo >> {seen}"\n',
    )
    run = exec_run(vtcode, ws, [call("read_file", {"path": "a.txt"}), Reply(text="ok")])
    assert run.result.code == 0, run.result.stderr
    [payload] = [json.loads(line) for line in seen.read_text().splitlines() if line.strip()]
    assert payload["tool_input"] == {"path": "a.txt", "file_path": str(ws / "a.txt")}
