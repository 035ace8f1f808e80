"""One huge tool call through the real CLI: the file is written whole, and the session still resumes.

Before, the 3 MB `write_file` arguments were replayed in every later request, larger than the model's
window whatever compaction did, so every resume failed. The history now keeps a bounded preview and
the whole arguments are saved in the spool folder, where the model can read them back.
"""

from __future__ import annotations

import json
import time
import uuid
from pathlib import Path

from tests.conftest import VtcodeRunner
from vtcode.protocol.messages import AssistantMessage, MessageMeta, ToolCall, ToolResultMessage, UserMessage
from vtcode.store.session import SessionStore
from vtcode.testing.script import Reply, ScriptToolCall
from vtcode.testing.wire import cli_args, cli_env, server_for

CONTENT = "".join(f"line {n:07d} of a generated data file, long enough to add up\n" for n in range(50_000))
WINDOW = ["-c", 'models."gpt-4.1".context_window=50000']


def test_a_3mb_write_file_call_does_not_stop_the_session_from_resuming(
    vtcode: VtcodeRunner, tmp_path: Path
) -> None:
    assert len(CONTENT) > 3_000_000
    call = ScriptToolCall("write_file", json.dumps({"path": "data.txt", "content": CONTENT}), id="w1")
    # Big fragments: the loopback server would otherwise stream 3 MB four characters at a time.
    with server_for("chat", [Reply(tool_calls=(call,), chunk_size=65536), Reply(text="written")]) as server:
        first = vtcode.run("exec", *cli_args("chat"), "write it", cwd=tmp_path, env=cli_env("chat", server))
        after_write = server.requests[-1].body
    assert first.code == 0, first.stderr
    assert (tmp_path / "data.txt").read_text() == CONTENT
    # Already the request after the call carries the preview, not the 3 MB.
    assert len(after_write) < 100_000
    for attempt in range(2):
        with server_for("chat", [Reply(text=f"resumed {attempt}")]) as server:
            resumed = vtcode.run(
                "exec", *cli_args("chat"), *WINDOW, "--continue", "go on", cwd=tmp_path,
                env=cli_env("chat", server),
            )  # fmt: skip
            body = server.requests[-1].json()
        assert resumed.code == 0, resumed.stderr
        assert resumed.stdout == f"resumed {attempt}\n"
    (call_message,) = [m for m in body["messages"] if m.get("tool_calls")]
    kept = json.loads(call_message["tool_calls"][0]["function"]["arguments"])
    assert kept["path"] == "data.txt"
    assert kept["content"].startswith(CONTENT[:2048])
    assert kept["content"].endswith(CONTENT[-512:])
    reference = ".vtcode/context/tool_outputs/arguments-w1.log"
    assert f"the whole arguments are saved in {reference}" in kept["content"]
    assert json.loads((tmp_path / reference).read_text()) == {"path": "data.txt", "content": CONTENT}


def test_a_session_stored_with_a_huge_call_before_the_bound_resumes(
    vtcode: VtcodeRunner, tmp_path: Path
) -> None:
    store = SessionStore(vtcode.home / ".vtcode", time.time, lambda: str(uuid.uuid4()))
    handle = store.create(tmp_path, "write it", model="gpt-4.1", provider="openai")
    arguments = json.dumps({"path": "data.txt", "content": CONTENT})
    handle.append_messages(
        [
            UserMessage("write it", meta=MessageMeta(turn=1)),
            AssistantMessage(tool_calls=(ToolCall("w1", "write_file", arguments),), meta=MessageMeta(turn=1)),
            ToolResultMessage("w1", "write_file", "Created.", meta=MessageMeta(turn=1)),
            AssistantMessage("written", meta=MessageMeta(turn=1)),
        ],
        1,
    )
    handle.close()
    with server_for("chat", [Reply(text="resumed")]) as server:
        resumed = vtcode.run(
            "exec", *cli_args("chat"), *WINDOW, "--resume", handle.info.id, "go on", cwd=tmp_path,
            env=cli_env("chat", server),
        )  # fmt: skip
        requests = list(server.requests)
    assert resumed.code == 0, resumed.stderr
    assert len(requests[-1].body) < 100_000
    assert (tmp_path / ".vtcode/context/tool_outputs/arguments-w1.log").read_text() == arguments
