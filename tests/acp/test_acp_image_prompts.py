"""Editors send images in prompts: advertised when the model takes images, passed through to the model,
described in words to a model that takes none, replayed by `session/load`."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from acp import RequestError, image_block, text_block
from acp.schema import ImageContentBlock, UserMessageChunk

from tests.acp.harness import acp_agent
from tests.conftest import VtcodeRunner
from tests.runtime.test_user_message_images import PNG
from vtcode.testing.script import Reply
from vtcode.testing.wire import server_for


async def test_an_image_prompt_reaches_the_model_as_an_image(vtcode: VtcodeRunner, tmp_path: Path) -> None:
    with server_for("chat", [Reply(text="a pixel")]) as server:
        async with acp_agent(vtcode, tmp_path, server) as agent:
            hello = await agent.conn.initialize(protocol_version=1)
            assert hello.agent_capabilities is not None
            assert hello.agent_capabilities.prompt_capabilities is not None
            assert hello.agent_capabilities.prompt_capabilities.image is True
            session = await agent.conn.new_session(cwd=str(tmp_path), mcp_servers=[])
            done = await agent.conn.prompt(
                session_id=session.session_id,
                prompt=[text_block("what is in this picture?"), image_block(PNG, "image/png")],
            )
            assert done.stop_reason == "end_turn"
        sent = server.requests[0].json()["messages"]
    assert sent[-1] == {
        "role": "user",
        "content": [
            {"type": "text", "text": "what is in this picture?"},
            {"type": "image_url", "image_url": {"url": f"data:image/png;base64,{PNG}"}},
        ],
    }


async def test_a_model_without_image_input_is_not_advertised_and_reads_a_note(
    vtcode: VtcodeRunner, tmp_path: Path
) -> None:
    with server_for("chat", [Reply(text="I cannot see images")]) as server:
        async with acp_agent(vtcode, tmp_path, server, extra=["--model", "qwen2.5-coder"]) as agent:
            hello = await agent.conn.initialize(protocol_version=1)
            assert hello.agent_capabilities is not None
            assert hello.agent_capabilities.prompt_capabilities is not None
            assert hello.agent_capabilities.prompt_capabilities.image is False
            session = await agent.conn.new_session(cwd=str(tmp_path), mcp_servers=[])
            done = await agent.conn.prompt(
                session_id=session.session_id, prompt=[text_block("look"), image_block(PNG, "image/png")]
            )
            assert done.stop_reason == "end_turn"
        body = server.requests[0].json()
    assert body["messages"][-1]["content"] == (
        "look\n[image: image/png, 66 bytes \u2014 this model does not take images]"
    )
    assert PNG not in json.dumps(body)


async def test_an_image_that_is_not_base64_is_refused_and_the_session_goes_on(
    vtcode: VtcodeRunner, tmp_path: Path
) -> None:
    with server_for("chat", [Reply(text="fine")]) as server:
        async with acp_agent(vtcode, tmp_path, server) as agent:
            session_id = await agent.start()
            with pytest.raises(RequestError) as refused:
                await agent.conn.prompt(
                    session_id=session_id,
                    prompt=[text_block("look"), image_block("not base64!", "image/png")],
                )
            assert "not base64" in str(refused.value.data or refused.value)
            done = await agent.conn.prompt(session_id=session_id, prompt=[text_block("hi")])
            assert done.stop_reason == "end_turn"
        assert len(server.requests) == 1


async def test_loading_a_session_replays_its_user_images(vtcode: VtcodeRunner, tmp_path: Path) -> None:
    with server_for("chat", [Reply(text="a pixel")]) as server:
        async with acp_agent(vtcode, tmp_path, server) as agent:
            session_id = await agent.start()
            await agent.conn.prompt(
                session_id=session_id, prompt=[text_block("see"), image_block(PNG, "image/png")]
            )
    with server_for("chat", []) as server:
        async with acp_agent(vtcode, tmp_path, server) as agent:
            await agent.conn.initialize(protocol_version=1)
            await agent.conn.load_session(cwd=str(tmp_path), session_id=session_id, mcp_servers=[])
            replayed = [u.content for u in agent.client.updates if isinstance(u, UserMessageChunk)]
    images = [c for c in replayed if isinstance(c, ImageContentBlock)]
    assert [(i.mime_type, i.data) for i in images] == [("image/png", PNG)]
