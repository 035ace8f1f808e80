"""A task sees an allowlist of the driver's environment: no stray secrets, its own VTCODE_HOME."""

from __future__ import annotations

from pathlib import Path

from tests.batch.scripted_tasks import MODEL_ARGS, TaskScripts, batch_env, command_call, tasks_file
from tests.conftest import VtcodeRunner
from vtcode.core.batch.env import task_environment
from vtcode.testing.openai_chat_server import OpenAIChatServer
from vtcode.testing.script import Reply, Step


def test_the_allowlist_keeps_what_vtcode_needs_and_drops_the_rest() -> None:
    env = {
        "PATH": "/bin",
        "HOME": "/home/u",
        "OPENAI_API_KEY": "k",
        "ANTHROPIC_BASE_URL": "http://127.0.0.1:1",
        "GITHUB_TOKEN": "secret",
        "AWS_SECRET_ACCESS_KEY": "secret",
        "PYTHONPATH": "/x",
        "MY_VAR": "1",
    }
    assert task_environment(env, ["MY_VAR"]) == {
        "PATH": "/bin",
        "HOME": "/home/u",
        "OPENAI_API_KEY": "k",
        "ANTHROPIC_BASE_URL": "http://127.0.0.1:1",
        "MY_VAR": "1",
    }


def test_a_tasks_commands_see_only_the_allowlist_and_the_tasks_own_env(
    vtcode: VtcodeRunner, tmp_path: Path
) -> None:
    def script(task_id: str) -> list[Step]:
        return [command_call("env | sort > env.txt"), Reply(text="listed")]

    tasks = tasks_file(tmp_path / "tasks.jsonl", ["envy"], env={"TASK_VAR": "from-the-task"})
    out = tmp_path / "out"
    with OpenAIChatServer(responder=TaskScripts(script=script)) as server:
        env = {**batch_env(server), "STRAY_TOKEN": "do-not-leak", "PASSED_VAR": "passed"}
        result = vtcode.run(
            "batch", "run", str(tasks), "-o", str(out), "--pass-env", "PASSED_VAR", *MODEL_ARGS, env=env
        )
    assert result.code == 0, result.stderr
    seen = (out / "tasks" / "envy" / "patch.diff").read_text()
    assert "+TASK_VAR=from-the-task\n" in seen
    assert "+PASSED_VAR=passed\n" in seen
    assert "do-not-leak" not in seen
    assert "test-key" not in seen  # vtcode keeps provider keys from commands
    assert f"+VTCODE_HOME={out / 'work' / 'envy' / 'home'}\n" in seen
