"""Images the user sends go on the user message, reach each wire as images (or as notes), survive the
stored history, and survive a restart while they wait as a queued intent."""

from __future__ import annotations

import base64
import dataclasses
import json
from pathlib import Path
from typing import Any

import pytest

from tests.runtime.session_helpers import Reader, conversation, options
from vtcode.protocol.events import IntentQueued, ItemDelta, Notice, TurnCompleted
from vtcode.protocol.messages import ImagePart, UserMessage
from vtcode.protocol.ops import UserInput
from vtcode.runtime.session import Session
from vtcode.runtime.wiring import SessionOptions
from vtcode.store.intent_images import IMAGES_DIR
from vtcode.testing.script import Reply, ScriptToolCall
from vtcode.testing.wire import WIRES, Wire, server_for

# A real 1x1 PNG, so a provider parser that checks the bytes would accept it too.
PNG = base64.b64encode(
    bytes.fromhex(
        "89504e470d0a1a0a0000000d4948445200000001000000010806000000"
        "1f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082"
    )
).decode()
PIXEL = ImagePart(mime_type="image/png", data=PNG)
_TEXT_MODELS: dict[Wire, str] = {
    "chat": "qwen2.5-coder",
    "responses": "text-only-model",
    "anthropic": "claude-text-only-model",
}


def _user_content(wire: Wire, body: dict[str, Any]) -> Any:
    """The content of the last user message of a request body, as the wire spells it."""
    if wire == "responses":
        users = [i for i in body["input"] if i.get("type") == "message" and i["role"] == "user"]
    else:
        users = [m for m in body["messages"] if m["role"] == "user"]
    return users[-1]["content"]


async def _one_turn(session: Session, op: UserInput) -> Reader:
    reader = Reader(session)
    await session.submit(op)
    await reader.wait_for(TurnCompleted)
    return reader


@pytest.mark.parametrize("wire", WIRES)
async def test_a_user_image_reaches_a_model_that_takes_images_as_an_image(wire: Wire, tmp_path: Path) -> None:
    with server_for(wire, [Reply(text="a red pixel")]) as server:
        session = await Session.open(options(tmp_path, tmp_path, server, wire=wire))
        reader = await _one_turn(session, UserInput("what is this?", images=(PIXEL,)))
        await reader.close()
        content = _user_content(wire, server.requests[0].json())
    expected: dict[Wire, list[dict[str, Any]]] = {
        "chat": [
            {"type": "text", "text": "what is this?"},
            {"type": "image_url", "image_url": {"url": f"data:image/png;base64,{PNG}"}},
        ],
        "responses": [
            {"type": "input_text", "text": "what is this?"},
            {"type": "input_image", "image_url": f"data:image/png;base64,{PNG}"},
        ],
        "anthropic": [
            {"type": "text", "text": "what is this?"},
            {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": PNG}},
        ],
    }
    # Anthropic joins the environment context item and the prompt into one user message.
    parts = [part for part in content if not part.get("text", "").startswith("<environment_context>")]
    assert [{k: v for k, v in part.items() if k != "cache_control"} for part in parts] == expected[wire]
    if wire == "anthropic":
        # The conversation's moving cache breakpoint goes on the image when the prompt ends with one.
        assert parts[-1]["cache_control"] == {"type": "ephemeral"}


@pytest.mark.parametrize("wire", WIRES)
async def test_a_model_without_image_input_reads_a_note_per_image(wire: Wire, tmp_path: Path) -> None:
    with server_for(wire, [Reply(text="I cannot see it")]) as server:
        opened = options(tmp_path, tmp_path, server, wire=wire, model=_TEXT_MODELS[wire])
        session = await Session.open(opened)
        reader = await _one_turn(session, UserInput("what is this?", images=(PIXEL, PIXEL)))
        await reader.close()
        body = server.requests[0].json()
    sent = json.dumps(_user_content(wire, body))
    note = "[image: image/png, 66 bytes \u2014 this model does not take images]"
    assert sent.count(json.dumps(note)[1:-1]) == 2
    assert "what is this?" in sent
    assert PNG not in json.dumps(body)


async def test_user_images_round_trip_through_the_stored_history(tmp_path: Path) -> None:
    with server_for("chat", [Reply(text="a pixel"), Reply(text="still a pixel")]) as server:
        session = await Session.open(options(tmp_path, tmp_path, server))
        reader = await _one_turn(session, UserInput("look", images=(PIXEL,)))
        await reader.close()
        resumed = await Session.open(_resume(options(tmp_path, tmp_path, server), session.id))
        users = [m for m in conversation(resumed.messages) if isinstance(m, UserMessage)]
        assert users[0].content == "look"
        assert users[0].images == (PIXEL,)
        reader = await _one_turn(resumed, UserInput("and now?"))
        await reader.close()
        again = server.requests[1].json()
    assert f"data:image/png;base64,{PNG}" in json.dumps(again["messages"])


def _resume(opened: SessionOptions, session_id: str) -> SessionOptions:
    return dataclasses.replace(opened, resume=session_id)


def _slow() -> Reply:
    return Reply(text="working " * 200, chunk_size=4, delay_between=0.02)


async def _queue_image_then_stop(tmp_path: Path, server: Any) -> tuple[str, Path]:
    """Start a slow turn, queue an image prompt behind it, stop the session; its id and directory."""
    session = await Session.open(options(tmp_path, tmp_path, server))
    reader = Reader(session)
    await session.submit(UserInput("first"))
    await reader.wait_for(ItemDelta)
    await session.submit(UserInput("then this picture", images=(PIXEL,)))
    await reader.wait_for(IntentQueued)
    await reader.close()
    handle = session._wiring.history.handle
    assert handle is not None
    return session.id, handle.dir


async def test_a_queued_image_prompt_survives_a_restart(tmp_path: Path) -> None:
    with server_for("chat", [_slow(), Reply(text="a pixel")]) as server:
        session_id, directory = await _queue_image_then_stop(tmp_path, server)
        envelope = json.loads((directory / "envelope.json").read_text())
        (intent,) = envelope["pending_intents"]
        # The envelope names the image; its data is in a file of its own.
        assert PNG not in json.dumps(envelope)
        assert [ref["mime_type"] for ref in intent["images"]] == ["image/png"]
        assert len(list((directory / IMAGES_DIR).iterdir())) == 1
        resumed = await Session.open(_resume(options(tmp_path, tmp_path, server), session_id))
        reader = Reader(resumed)
        await reader.wait_for(TurnCompleted)
        await reader.close()
        body = server.requests[-1].json()
    assert body["messages"][-1]["content"] == [
        {"type": "text", "text": "then this picture"},
        {"type": "image_url", "image_url": {"url": f"data:image/png;base64,{PNG}"}},
    ]
    # Applied: the history holds the image now, the file next to the envelope is gone.
    assert list((directory / IMAGES_DIR).iterdir()) == []


async def test_a_queued_image_whose_file_is_gone_becomes_a_note_and_a_warning(tmp_path: Path) -> None:
    with server_for("chat", [_slow(), Reply(text="noted")]) as server:
        session_id, directory = await _queue_image_then_stop(tmp_path, server)
        for path in (directory / IMAGES_DIR).iterdir():
            path.unlink()
        resumed = await Session.open(_resume(options(tmp_path, tmp_path, server), session_id))
        reader = Reader(resumed)
        await reader.wait_for(TurnCompleted)
        await reader.close()
        body = server.requests[-1].json()
    assert body["messages"][-1]["content"] == (
        "then this picture\n[image: image/png, 66 bytes \u2014 lost before it was delivered]"
    )
    warnings = [n.message for n in reader.of(Notice) if n.level == "warning"]
    assert any("could not be read back" in message for message in warnings)


async def test_a_steered_image_is_delivered_at_the_next_boundary(tmp_path: Path) -> None:
    slow_call = Reply(
        text="looking " * 20,
        chunk_size=4,
        delay_between=0.03,
        tool_calls=(ScriptToolCall("list_files", json.dumps({}), id="c1"),),
    )
    with server_for("chat", [slow_call, Reply(text="seen")]) as server:
        session = await Session.open(options(tmp_path, tmp_path, server))
        reader = Reader(session)
        await session.submit(UserInput("search"))
        await reader.wait_for(ItemDelta)
        await session.submit(UserInput("also this", mode="steer", images=(PIXEL,)))
        await reader.wait_for(TurnCompleted)
        await reader.close()
        body = server.requests[1].json()
    assert body["messages"][-1]["content"][1] == {
        "type": "image_url",
        "image_url": {"url": f"data:image/png;base64,{PNG}"},
    }


async def test_switching_to_a_model_without_image_input_sends_notes_from_then_on(tmp_path: Path) -> None:
    with server_for("chat", [Reply(text="seen"), Reply(text="told")]) as server:
        session = await Session.open(options(tmp_path, tmp_path, server))
        reader = await _one_turn(session, UserInput("first", images=(PIXEL,)))
        session.switch(model="qwen2.5-coder")
        await session.submit(UserInput("second"))
        await reader.wait_for(TurnCompleted, after=len(reader.events))
        await reader.close()
        later = server.requests[1].json()
    first = [m for m in later["messages"] if m["role"] == "user"][-2]
    assert first["content"] == "first\n[image: image/png, 66 bytes \u2014 this model does not take images]"
