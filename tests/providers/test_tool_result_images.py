"""Per-wire rendering: tool-result images for models that accept them, and Gemini's tool schema subset."""

from __future__ import annotations

from typing import Any

import msgspec

from vtcode.protocol.messages import AssistantMessage, ImagePart, ToolCall, ToolResultMessage, UserMessage
from vtcode.protocol.model import ModelRequest, SystemPrompt, ToolSpec
from vtcode.providers.anthropic_request import build_request as build_anthropic_body
from vtcode.providers.catalog import lookup
from vtcode.providers.openai_chat_request import build_chat_request
from vtcode.providers.openai_responses_request import build_responses_body

PIXEL = ImagePart(mime_type="image/png", data="iVBORw0KGgo=")


def _request(*, images: bool) -> ModelRequest:
    return ModelRequest(
        model="m",
        system=SystemPrompt(static="s"),
        messages=(
            UserMessage("look"),
            AssistantMessage(
                content="",
                tool_calls=(
                    ToolCall(id="c1", name="shot", arguments="{}"),
                    ToolCall(id="c2", name="t", arguments="{}"),
                ),
            ),
            ToolResultMessage(
                call_id="c1", name="shot", content="[image: image/png, 8 bytes]", images=(PIXEL,)
            ),
            ToolResultMessage(call_id="c2", name="t", content="plain"),
            UserMessage("next"),
        ),
        images=images,
    )


def test_chat_puts_the_images_of_a_batch_after_its_last_tool_message() -> None:
    messages: list[dict[str, Any]] = build_chat_request(_request(images=True), provider="openai")["messages"]
    roles = [m["role"] for m in messages]
    assert roles == ["system", "user", "assistant", "tool", "tool", "user", "user"]
    assert messages[5]["content"] == [
        {"type": "text", "text": "Images returned by tool call c1:"},
        {"type": "image_url", "image_url": {"url": "data:image/png;base64,iVBORw0KGgo="}},
    ]
    assert messages[3]["content"] == "[image: image/png, 8 bytes]"


def test_responses_sends_images_inside_the_function_call_output() -> None:
    items = build_responses_body(_request(images=True))["input"]
    outputs = [i["output"] for i in items if i.get("type") == "function_call_output"]
    assert outputs == [
        [
            {"type": "input_text", "text": "[image: image/png, 8 bytes]"},
            {"type": "input_image", "image_url": "data:image/png;base64,iVBORw0KGgo="},
        ],
        "plain",
    ]


def test_anthropic_sends_images_as_blocks_of_the_tool_result() -> None:
    body = build_anthropic_body(_request(images=True))
    result = body["messages"][2]["content"][0]
    assert result["tool_use_id"] == "c1"
    assert result["content"] == [
        {"type": "text", "text": "[image: image/png, 8 bytes]"},
        {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": "iVBORw0KGgo="}},
    ]


def test_a_model_without_image_input_gets_only_the_description() -> None:
    request = _request(images=False)
    assert "image_url" not in str(build_chat_request(request, provider="openai"))
    assert "input_image" not in str(build_responses_body(request))
    assert "'type': 'image'" not in str(build_anthropic_body(request))


def test_the_catalog_says_which_models_accept_images() -> None:
    assert lookup("gpt-4.1").images
    assert lookup("claude-sonnet-4-5-20250929").images
    assert not lookup("qwen2.5-coder").images
    assert not lookup("some-unknown-model").images


def test_gemini_gets_tool_schemas_without_type_lists() -> None:
    tool = ToolSpec(
        name="mcp__s__t",
        description="d",
        parameters={
            "type": "object",
            "properties": {"n": {"type": ["integer", "null"]}},
            "required": ["n"],
            "additionalProperties": False,
        },
    )
    request = msgspec.structs.replace(_request(images=False), tools=(tool,))
    gemini = build_chat_request(request, provider="gemini")["tools"][0]["function"]["parameters"]
    assert gemini["properties"]["n"] == {"type": "integer", "nullable": True}
    openai = build_chat_request(request, provider="openai")["tools"][0]["function"]["parameters"]
    assert openai["properties"]["n"] == {"type": ["integer", "null"]}
