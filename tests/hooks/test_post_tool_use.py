"""PostToolUse: a formatter hook rewrites the file after `apply_patch`, and the model's next read sees it;
exit 2 and `decision: block` on a PostToolUse reach the model next to the tool's result."""

from __future__ import annotations

import json
from pathlib import Path

from tests.conftest import VtcodeRunner
from tests.hooks.helpers import call, exec_run, script, user_config
from vtcode.testing.script import Reply

FORMATTER = """\
paths=$(python3 -c 'import json, sys; print("\\n".join(json.load(sys.stdin)["tool_input"]["file_paths"]))')
for p in $paths; do sed -i 's/[[:space:]]*$//' "$p"; done
"""
PATCH = "*** Begin Patch\n*** Add File: calc.py\n+x = 1   \n+y = 2\t\t\n*** End Patch\n"


def test_a_formatter_hook_changes_the_file_and_the_next_read_shows_it(
    vtcode: VtcodeRunner, isolated_home: Path, tmp_path: Path
) -> None:
    ws = tmp_path / "ws"
    ws.mkdir()
    formatter = script(tmp_path / "format.sh", FORMATTER)
    user_config(
        isolated_home,
        '[[hooks.PostToolUse]]\nmatcher = "Edit|Write"\n'
        f'[[hooks.PostToolUse.hooks]]\ncommand = "{formatter}"\n',
    )
    steps = [
        call("apply_patch", {"patch": PATCH}, "c1"),
        call("read_file", {"path": "calc.py"}, "c2"),
        Reply(text="ok"),
    ]
    run = exec_run(vtcode, ws, steps)
    assert run.result.code == 0, run.result.stderr
    assert (ws / "calc.py").read_text() == "x = 1\ny = 2\n"
    # read_file numbers its lines: `     1\tx = 1`.
    read = run.tool_results()[-1]
    assert [line.split("\t", 1)[1] for line in read.splitlines() if "\t" in line] == ["x = 1", "y = 2"]


def test_exit_2_after_a_tool_is_feedback_the_model_reads_with_the_result(
    vtcode: VtcodeRunner, isolated_home: Path, tmp_path: Path
) -> None:
    ws = tmp_path / "ws"
    ws.mkdir()
    lint = script(tmp_path / "lint.sh", "cat > /dev/null\necho 'lint: line 1 is too long' >&2\nexit 2\n")
    user_config(
        isolated_home,
        f'[[hooks.PostToolUse]]\nmatcher = "Bash"\n[[hooks.PostToolUse.hooks]]\ncommand = "{lint}"\n',
    )
    steps = [call("exec_command", {"cmd": "echo hello"}), Reply(text="ok")]
    run = exec_run(vtcode, ws, steps, "--approval", "full-auto")
    assert run.result.code == 0, run.result.stderr
    result = run.tool_results()[0]
    assert "hello" in result
    assert "lint: line 1 is too long" in result


def test_a_failed_tool_fires_post_tool_use_failure(
    vtcode: VtcodeRunner, isolated_home: Path, tmp_path: Path
) -> None:
    ws = tmp_path / "ws"
    ws.mkdir()
    log = tmp_path / "events.log"
    record = script(
        tmp_path / "record.sh",
        f"python3 -c 'import json,sys; print(json.load(sys.stdin)[\"hook_event_name\"])' >> {log}\n",
    )
    user_config(
        isolated_home,
        f'[[hooks.PostToolUseFailure]]\n[[hooks.PostToolUseFailure.hooks]]\ncommand = "{record}"\n'
        f'[[hooks.PostToolUse]]\n[[hooks.PostToolUse.hooks]]\ncommand = "{record}"\n',
    )
    steps = [call("read_file", {"path": "missing.txt"}), Reply(text="ok")]
    run = exec_run(vtcode, ws, steps)
    assert run.result.code == 0, run.result.stderr
    assert log.read_text().split() == ["PostToolUseFailure"]


REDACT = """\
python3 -c '
import json, sys
data = json.load(sys.stdin)
out = data["tool_response"]["content"].replace("hunter2", "[redacted]")
print(json.dumps({"hookSpecificOutput": {"hookEventName": "PostToolUse", "updatedToolOutput": out}}))
'
"""


def test_updated_tool_output_is_what_the_model_reads_of_the_result(
    vtcode: VtcodeRunner, isolated_home: Path, tmp_path: Path
) -> None:
    ws = tmp_path / "ws"
    ws.mkdir()
    redact = script(tmp_path / "redact.sh", REDACT)
    user_config(
        isolated_home,
        f'[[hooks.PostToolUse]]\nmatcher = "Bash"\n[[hooks.PostToolUse.hooks]]\ncommand = "{redact}"\n',
    )
    steps = [call("exec_command", {"cmd": "echo password=hunter2"}), Reply(text="ok")]
    run = exec_run(vtcode, ws, steps, "--approval", "full-auto")
    assert run.result.code == 0, run.result.stderr
    [result] = run.tool_results()
    assert "password=[redacted]" in result
    assert "hunter2" not in result
    # The user's own view (the JSONL item) keeps the real output.
    assert "hunter2" in json.dumps(run.of("item.completed"))
