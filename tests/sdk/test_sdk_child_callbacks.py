"""What a `vtcode acp` child asks back of the program (a Python hook, a model request) survives a program
that dies while the child waits for it: the child ends, and the session resumes where it stopped."""

from __future__ import annotations

import asyncio
import json
import os
import sys
from pathlib import Path

import psutil
import pytest

import vtcode.sdk as vt
from tests.sdk.sdk_helpers import sdk_options
from vtcode.protocol.errors import StoreError
from vtcode.testing.script import Reply, ScriptToolCall
from vtcode.testing.wire import server_for

_PROGRAM = """
import asyncio, json, sys, time
from pathlib import Path
import psutil
import pytest
import vtcode.sdk as vt

workspace, marker, env, stuck_in = Path(sys.argv[1]), Path(sys.argv[2]), json.loads(sys.argv[3]), sys.argv[4]

def stuck(session_id):
    # The test kills this process while the child waits for its answer.
    (child,) = psutil.Process().children()
    marker.write_text(json.dumps({"session": session_id, "child": child.pid}))
    time.sleep(3600)

class StuckModel:
    provider = "stuck"
    async def aclose(self):
        pass
    async def stream(self, request):
        stuck(request.cache_key or "")
        yield None

async def main():
    if stuck_in == "hook":
        hooks = vt.Hooks(pre_tool=[lambda call: stuck(call.session_id)])
        more = {"hooks": hooks, "provider": "openai", "model": "gpt-4.1"}
    else:
        more = {"model_client": StuckModel()}
    options = vt.Options(workspace=workspace, approval="full-auto", env=env, transport="subprocess", **more)
    async with await vt.Session.open(options) as session:
        if stuck_in == "model":
            marker.with_suffix(".id").write_text(session.id)
        await session.run("write the file")

asyncio.run(main())
"""


def _alive(pid: int) -> bool:
    try:
        return psutil.Process(pid).status() != psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return False


async def _resume_once_released(session_id: str, options: vt.Options) -> vt.Session:
    # On a loaded machine the session's writer lock can outlive the child by a moment; resume says so
    # with a StoreError ("being written by another vtcode process") and a user retries, as this does.
    async with asyncio.timeout(60):
        while True:
            try:
                return await vt.Session.resume(session_id, options)
            except StoreError:
                await asyncio.sleep(0.2)


@pytest.mark.parametrize("stuck_in", ["hook", "model"])
async def test_a_program_killed_during_a_callback_ends_its_child_and_the_session_resumes(
    tmp_path: Path, stuck_in: str
) -> None:
    marker = tmp_path / "marker.json"
    call = ScriptToolCall("exec_command", json.dumps({"cmd": "echo hi > hooked.txt"}), id="c1")
    script = [Reply(tool_calls=(call,))] if stuck_in == "hook" else []
    with server_for("chat", [*script, Reply(text="resumed fine"), Reply(text="resumed fine")]) as server:
        options = sdk_options(tmp_path, server)
        program = await asyncio.create_subprocess_exec(
            sys.executable, "-c", _PROGRAM, str(tmp_path), str(marker), json.dumps(dict(options.env)),
            stuck_in, env=dict(os.environ),
        )  # fmt: skip
        try:
            async with asyncio.timeout(120):
                while not marker.exists() or not marker.read_text():  # noqa: ASYNC110 - the program writes it
                    await asyncio.sleep(0.05)
            seen = json.loads(marker.read_text())
            if stuck_in == "model":
                # The model request carries no session id: the program wrote it down when it opened.
                seen["session"] = marker.with_suffix(".id").read_text()
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
        again = await _resume_once_released(seen["session"], options)
        async with again:
            result = await again.run("go on")
        sent = json.dumps(server.requests[-1].json()["messages"])
    # The hook never answered: the call it guarded never ran.
    assert not (tmp_path / "hooked.txt").exists()
    assert result.final_text == "resumed fine"
    assert "write the file" in sent
