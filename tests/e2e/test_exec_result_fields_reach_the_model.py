"""Every command-result field meant for the model arrives in the request body the model server receives.

`core.exec.model_view` sorts the fields of `ExecResult` into the model's fields and the front ends' only
ones; this contract drives `vtcode exec` through commands that set each model field and finds every one
of them in a tool message of a later request on the Chat wire, not only in the events.
"""

from __future__ import annotations

import json
import resource
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tests.conftest import VtcodeRunner
from tests.e2e.harness import events
from tests.exec.sandbox_helpers import git_workspace, needs_landlock
from vtcode.core.exec.model_view import MODEL_FIELDS
from vtcode.testing.script import LAST_SESSION_ID, Reply, ScriptToolCall
from vtcode.testing.wire import cli_args, cli_env, server_for


def _call(name: str, call_id: str, **arguments: Any) -> Reply:
    return Reply(tool_calls=(ScriptToolCall(name, json.dumps(arguments), id=call_id),))


def _exec(cmd: str, call_id: str, **extra: Any) -> Reply:
    return _call("exec_command", call_id, cmd=cmd, **{"yield_time_ms": 20_000, **extra})


def _run(
    vtcode: VtcodeRunner,
    work: Path,
    script: list[Reply],
    *config: str,
    preexec: Callable[[], None] | None = None,
) -> list[dict[str, Any]]:
    """Run `vtcode exec` on the Chat wire in `work`; the request bodies the server received."""
    with server_for("chat", [*script, Reply(text="done")]) as server:
        args = ["exec", "--json", "--approval", "full-auto", *cli_args("chat"), *config, "run them"]
        proc = subprocess.run(
            vtcode.command(*args),
            cwd=work,
            env=vtcode.env(cli_env("chat", server)),
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
            preexec_fn=preexec,
        )
        bodies = [r.json() for r in server.requests]
    assert proc.returncode == 0, proc.stderr
    events(proc.stdout)
    return bodies


def _tool_results(bodies: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """Each tool message of the last request, parsed, by call id (an error prefix stripped)."""
    found = {}
    for message in bodies[-1]["messages"]:
        if message.get("role") == "tool":
            content = str(message["content"]).removeprefix("ERROR: ")
            found[message["tool_call_id"]] = json.loads(content)
    return found


def _limit_file_size() -> None:
    # The spool (and nothing else vtcode writes in this short run) grows past 200 kB: a real EFBIG.
    resource.setrlimit(resource.RLIMIT_FSIZE, (200_000, resource.getrlimit(resource.RLIMIT_FSIZE)[1]))


@needs_landlock
def test_every_model_field_of_a_command_result_reaches_the_request_body(
    vtcode: VtcodeRunner, tmp_path: Path
) -> None:
    work = git_workspace(tmp_path / "ws")
    script = [
        _exec("echo broken; exit 3", "c_exit"),
        _exec("kill -9 $$", "c_signal"),
        _exec("seq 1 5000", "c_cut", max_output_tokens=50),
        _exec("sleep 30", "c_running", yield_time_ms=250),
        _call("write_stdin", "c_kill", session_id=LAST_SESSION_ID, action="kill"),
        _exec("sleep 5.2; echo slow", "c_slow"),
        _exec("sleep 3 > /dev/null & echo held", "c_held"),
        _exec("no_such_program_vtcode_test", "c_missing"),
        _exec("echo x > /etc/vtcode-denied-0; echo went on", "c_denied_ok"),
        _exec("echo x > /etc/vtcode-denied-1; exit 1", "c_denied_fail"),
    ]
    results = _tool_results(_run(vtcode, work, script))
    assert (results["c_exit"]["exit_code"], results["c_exit"]["output"]) == (3, "broken\n")
    assert results["c_signal"]["signal"] == "SIGKILL"
    cut = results["c_cut"]
    assert (cut["truncated"], cut["spool_complete"]) == (True, True)
    assert cut["spool_path"].startswith(".vtcode/context/tool_outputs/")
    running = results["c_running"]
    assert (running["is_exited"], running["next_wait_args"]["action"]) == (False, "wait")
    assert running["session_id"] == running["next_wait_args"]["session_id"]
    assert results["c_slow"]["wall_time"] >= 5.0
    held = results["c_held"]
    assert (held["spool_pending"], held["spool_complete"]) == (True, False)
    assert "not complete" in held["spool_note"]
    assert held["next_wait_args"]["action"] == "wait"
    missing = results["c_missing"]
    assert "was not found in PATH" in missing["critical_note"]
    assert missing["next_action"].startswith("Check the program name")
    for call_id, exit_code in (("c_denied_ok", 0), ("c_denied_fail", 1)):
        assert results[call_id]["exit_code"] == exit_code
        assert results[call_id]["sandbox_note"].startswith("the OS sandbox probably blocked this")

    # A spool that cannot be written (file size limit) and a capped spool, in runs of their own.
    failed = _tool_results(
        _run(
            vtcode,
            work,
            [_exec("seq 1 100000; sleep 2 > /dev/null &", "c_efbig", max_output_tokens=50)],
            preexec=_limit_file_size,
        )
    )["c_efbig"]
    assert "EFBIG" in failed["spool_error"]
    assert failed["output_drained"] is False
    capped = _tool_results(
        _run(
            vtcode,
            work,
            [_exec("seq 1 5000", "c_capped", max_output_tokens=50)],
            "-c",
            "pty.spool_max_bytes=1000",
        )
    )["c_capped"]
    assert capped["spool_truncated_bytes"] > 0

    seen = {name for result in (*results.values(), failed, capped) for name in result}
    assert seen == MODEL_FIELDS


@needs_landlock
def test_the_sandbox_note_reaches_the_next_request_after_a_blocked_write(
    vtcode: VtcodeRunner, tmp_path: Path
) -> None:
    """The note sits in the tool message of the very next model request (exit 0 and exit 1 alike)."""
    work = git_workspace(tmp_path / "ws")
    script = [
        _exec("echo x > /etc/vtcode-denied-0; echo went on", "c_ok"),
        _exec("echo x > /etc/vtcode-denied-1; exit 1", "c_fail"),
    ]
    bodies = _run(vtcode, work, script)
    for index, call_id in ((1, "c_ok"), (2, "c_fail")):
        (message,) = [m for m in bodies[index]["messages"] if m.get("tool_call_id") == call_id]
        result = json.loads(str(message["content"]).removeprefix("ERROR: "))
        assert result["sandbox_note"].startswith("the OS sandbox probably blocked this")
