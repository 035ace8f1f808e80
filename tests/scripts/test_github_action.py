"""The GitHub Action (action.yml): its run script against the loopback server, with a fake GITHUB_OUTPUT."""

from __future__ import annotations

import json
import re
import shlex
import subprocess
import sys
from pathlib import Path

import yaml
from tests.conftest import VtcodeRunner

from vtcode.testing.script import Reply
from vtcode.testing.wire import cli_env, server_for

_ROOT = Path(__file__).resolve().parents[2]
_RUN = _ROOT / "scripts" / "action" / "run.sh"


def _outputs(path: Path) -> dict[str, str]:
    """GITHUB_OUTPUT's `key=value` lines and `key<<DELIM ... DELIM` blocks."""
    found: dict[str, str] = {}
    lines = path.read_text().splitlines()
    index = 0
    while index < len(lines):
        line = lines[index]
        if match := re.fullmatch(r"([\w-]+)<<(\S+)", line):
            end = lines.index(match.group(2), index + 1)
            found[match.group(1)] = "\n".join(lines[index + 1 : end])
            index = end + 1
            continue
        key, _, value = line.partition("=")
        found[key] = value
        index += 1
    return found


def _run_action(
    vtcode: VtcodeRunner, tmp_path: Path, script: list[Reply], **inputs: str
) -> tuple[int, dict[str, str], list[dict[str, object]]]:
    workspace = tmp_path / "repo"
    workspace.mkdir()
    output = tmp_path / "github_output"
    output.write_text("")
    runner_temp = tmp_path / "runner_temp"
    runner_temp.mkdir()
    with server_for("chat", script) as server:
        env = vtcode.env(
            {
                **cli_env("chat", server),
                "GITHUB_OUTPUT": str(output),
                "RUNNER_TEMP": str(runner_temp),
                "VTCODE": shlex.join([sys.executable, "-m", "vtcode"]),
                **{f"INPUT_{key.upper()}": value for key, value in inputs.items()},
            }
        )
        proc = subprocess.run(
            ["bash", str(_RUN)],
            cwd=workspace,
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
        bodies = [r.json() for r in server.requests]
    assert "Traceback" not in proc.stderr
    return proc.returncode, _outputs(output), bodies


def test_the_run_script_runs_exec_and_fills_github_output(vtcode: VtcodeRunner, tmp_path: Path) -> None:
    answer_file = tmp_path / "answer.md"
    code, outputs, bodies = _run_action(
        vtcode,
        tmp_path,
        [Reply(text="All tests pass.\nNothing to change.")],
        prompt="--check the tests, then report",
        approval="read-only",
        sandbox="read-only",
        model="gpt-4.1-mini",
        provider="openai",
        output_file=str(answer_file),
    )
    assert code == 0
    assert outputs["exit-code"] == "0"
    assert outputs["final-message"] == "All tests pass.\nNothing to change."
    assert answer_file.read_text() == "All tests pass.\nNothing to change."
    result = json.loads(Path(outputs["result-file"]).read_text())
    assert (result["status"], result["session_id"]) == ("completed", outputs["session-id"])
    assert re.fullmatch(r"[0-9a-f-]{36}", outputs["session-id"])
    # The inputs reached vtcode: the model, and the prompt (which starts with "-") as the user's words.
    assert bodies[0]["model"] == "gpt-4.1-mini"
    assert "--check the tests, then report" in json.dumps(bodies[0])


def test_a_failed_run_still_fills_the_outputs_and_fails_the_step(
    vtcode: VtcodeRunner, tmp_path: Path
) -> None:
    code, outputs, _ = _run_action(vtcode, tmp_path, [Reply(text="")], prompt="do it", provider="openai")
    assert code == 1
    assert outputs["exit-code"] == "1"
    assert json.loads(Path(outputs["result-file"]).read_text())["kind"] == "empty_answer"


def test_action_yml_is_a_composite_action_using_the_scripts() -> None:
    action = yaml.safe_load((_ROOT / "action.yml").read_text())
    assert action["runs"]["using"] == "composite"
    assert set(action["inputs"]) >= {"prompt", "approval", "sandbox", "model", "output-file"}
    runs = " ".join(step["run"] for step in action["runs"]["steps"])
    assert "scripts/action/install.sh" in runs
    assert "scripts/action/run.sh" in runs
    for script in ("install.sh", "run.sh"):
        assert (_ROOT / "scripts" / "action" / script).is_file()
