"""What a `vtcode acp` child asks back of the program (its Python hooks) survives a program that dies
while the child waits for it: the child ends, and the session resumes where it stopped."""

from __future__ import annotations

import asyncio
import json
import os
import sys
from pathlib import Path

import psutil

import vtcode.sdk as vt
from tests.sdk.sdk_helpers import sdk_options
from vtcode.testing.script import Reply, ScriptToolCall
from vtcode.testing.wire import server_for

_PROGRAM = """
import asyncio, json, sys, time
from pathlib import Path
import psutil
import vtcode.sdk as vt

workspace, marker, env = Path(sys.argv[1]), Path(sys.argv[2]), json.loads(sys.argv[3])

async def main():
    def stuck(call):
        # The test kills this process while the child waits for this answer.
        (child,) = psutil.Process().children()
        marker.write_text(json.dumps({"session": call.session_id, "child": child.pid}))
        time.sleep(3600)

    options = vt.Options(
        workspace=workspace, provider="openai", model="gpt-4.1", approval="full-auto", env=env,
        hooks=vt.Hooks(pre_tool=[stuck]), transport="subprocess",
    )
    async with await vt.Session.open(options) as session:
        await session.run("write the file")

asyncio.run(main())
"""


def _alive(pid: int) -> bool:
    try:
        return psutil.Process(pid).status() != psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return False


async def test_a_program_killed_during_a_hook_callback_ends_its_child_and_the_session_resumes(
    tmp_path: Path,
) -> None:
    marker = tmp_path / "marker.json"
    call = ScriptToolCall("exec_command", json.dumps({"cmd": "echo hi > hooked.txt"}), id="c1")
    with server_for("chat", [Reply(tool_calls=(call,)), Reply(text="resumed fine")]) as server:
        options = sdk_options(tmp_path, server)
        program = await asyncio.create_subprocess_exec(
            sys.executable, "-c", _PROGRAM, str(tmp_path), str(marker), json.dumps(dict(options.env)),
            env=dict(os.environ),
        )  # fmt: skip
        try:
            async with asyncio.timeout(120):
                while not marker.exists() or not marker.read_text():  # noqa: ASYNC110 - the program writes it
                    await asyncio.sleep(0.05)
            seen = json.loads(marker.read_text())
            assert _alive(seen["child"])
            program.kill()
            await program.wait()
            # The child does not wait for an answer that cannot come: it ends with its program.
            async with asyncio.timeout(60):
                while _alive(seen["child"]):  # noqa: ASYNC110 - polling another process
                    await asyncio.sleep(0.05)
        finally:
            if program.returncode is None:
                program.kill()
                await program.wait()
        async with await vt.Session.resume(seen["session"], options) as again:
            result = await again.run("go on")
        sent = json.dumps(server.requests[-1].json()["messages"])
    # The hook never answered: the call it guarded never ran.
    assert not (tmp_path / "hooked.txt").exists()
    assert result.final_text == "resumed fine"
    assert "write the file" in sent
