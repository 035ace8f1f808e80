"""A task past its wall-clock limit ends `timeout`, and none of its processes survive it."""

from __future__ import annotations

import json
import uuid
from pathlib import Path

import psutil

from tests.batch.scripted_tasks import MODEL_ARGS, TaskScripts, batch_env, command_call, tasks_file
from tests.conftest import VtcodeRunner
from vtcode.testing.openai_chat_server import OpenAIChatServer
from vtcode.testing.script import Reply, Step


def _tagged(tag: str) -> list[int]:
    found = []
    for proc in psutil.process_iter():
        try:
            if any(tag in part for part in proc.cmdline()):
                found.append(proc.pid)
        except psutil.Error:
            continue
    return found


def test_a_task_past_its_limit_ends_timeout_and_leaves_no_process(
    vtcode: VtcodeRunner, tmp_path: Path
) -> None:
    tag = f"vtcode-batch-timeout-{uuid.uuid4().hex}"
    sleeper = f"python3 -c 'import time; time.sleep(300)' {tag}"
    # One sleeper stays in the command's group; the other leaves it (setsid) and drops vtcode's own
    # session marker, so only the batch's sweep can still find it.
    command = f"env -u VTCODE_EXEC_SESSION setsid {sleeper}-escapee & {sleeper}-main"

    def script(task_id: str) -> list[Step]:
        # After the command yields, the model never answers: the task can only end by its limit.
        return [command_call(command, yield_time_ms=1500), Reply(stall_after=0, keep_alive_every=0.05)]

    tasks = tasks_file(tmp_path / "tasks.jsonl", ["slow"])
    out = tmp_path / "out"
    with OpenAIChatServer(responder=TaskScripts(script=script)) as server:
        result = vtcode.run(
            "batch",
            "run",
            str(tasks),
            "-o",
            str(out),
            "--timeout",
            "10",
            "--grace",
            "2",
            *MODEL_ARGS,
            env=batch_env(server),
            timeout=120,
        )
        requests = len(server.requests)
    assert result.code == 1, result.stderr
    assert requests == 2  # the command ran and the model was asked again before the limit struck
    record = json.loads((out / "tasks" / "slow" / "result.json").read_text())
    assert record["status"] == "timeout"
    assert record["error"] == {"kind": "timeout", "message": "the task ran past its 10 s limit"}
    assert _tagged(tag) == []
    # A task that did not complete keeps its workspace for inspection.
    assert record["workspace"] == str(out / "work" / "slow" / "repo")
    assert Path(record["workspace"]).is_dir()


def test_a_setup_command_past_the_limit_is_killed_with_every_process_it_started(
    vtcode: VtcodeRunner, tmp_path: Path
) -> None:
    tag = f"vtcode-batch-setup-{uuid.uuid4().hex}"
    sleeper = f"python3 -c 'import time; time.sleep(300)' {tag}"
    # `vtcode sandbox` ignores SIGINT and the command leads its own session: only SIGKILL of the group
    # ends it, and the escapee (its own session, no vtcode marker) only the batch's sweep. Without the
    # sandbox, whose namespaces would end the escapee along with the command.
    setup = f"env -u VTCODE_EXEC_SESSION setsid {sleeper}-escapee & {sleeper}-main"
    tasks = tasks_file(tmp_path / "tasks.jsonl", ["setup-slow"], setup=[setup])
    out = tmp_path / "out"
    with OpenAIChatServer(responder=TaskScripts()) as server:
        result = vtcode.run(
            "batch",
            "run",
            str(tasks),
            "-o",
            str(out),
            "--timeout",
            "4",
            "--grace",
            "1",
            "--sandbox",
            "off",
            *MODEL_ARGS,
            env=batch_env(server),
            timeout=120,
        )
        requests = len(server.requests)
    assert result.code == 1, result.stderr
    assert requests == 0  # the agent never started
    record = json.loads((out / "tasks" / "setup-slow" / "result.json").read_text())
    assert (record["status"], record["error"]["kind"]) == ("timeout", "timeout")
    assert _tagged(tag) == []
