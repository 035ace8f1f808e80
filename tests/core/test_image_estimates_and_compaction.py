"""Images count as what a provider bills, not as their base64 length, and compaction keeps them in words."""

from __future__ import annotations

from vtcode.core.compaction.groups import preview
from vtcode.core.compaction.recall import message_text
from vtcode.core.compaction.retention import retain_user_messages
from vtcode.core.compaction.summary import render_message
from vtcode.core.images import image_note
from vtcode.core.tokens import ATTACHMENT_TOKENS, MessageEstimator, byte_heuristic_tokens, message_tokens
from vtcode.core.tokens import request_byte_tokens as estimate_request_bytes
from vtcode.protocol.messages import ImagePart, ToolResultMessage, UserMessage
from vtcode.protocol.model import ModelRequest, SystemPrompt

# Four megabytes of base64: a million tokens if counted as text.
BIG = ImagePart(mime_type="image/png", data="A" * 4_000_000)


def _request(*, images: bool) -> ModelRequest:
    return ModelRequest(
        model="m",
        system=SystemPrompt(static="s"),
        messages=(UserMessage("look at this", images=(BIG, BIG)),),
        images=images,
    )


def test_an_image_counts_as_one_attachment_whatever_its_size() -> None:
    plain = message_tokens(UserMessage("look at this"), byte_heuristic_tokens)
    with_images = message_tokens(UserMessage("look at this", images=(BIG, BIG)), byte_heuristic_tokens)
    assert with_images - plain == 2 * ATTACHMENT_TOKENS
    result = ToolResultMessage(call_id="c", name="shot", content="[image]", images=(BIG,))
    bare = ToolResultMessage(call_id="c", name="shot", content="[image]")
    assert (
        message_tokens(result, byte_heuristic_tokens) - message_tokens(bare, byte_heuristic_tokens) == 1_000
    )


def test_the_request_estimate_counts_images_by_what_the_model_receives() -> None:
    taken = estimate_request_bytes(_request(images=True))
    noted = estimate_request_bytes(_request(images=False))
    assert 2 * ATTACHMENT_TOKENS <= taken < 2 * ATTACHMENT_TOKENS + 100
    assert noted < 100


def test_retained_user_messages_keep_their_images_as_notes() -> None:
    only_image = UserMessage("", images=(BIG,))
    retained = retain_user_messages(
        [UserMessage("fix the layout", images=(BIG,)), only_image], MessageEstimator(byte_heuristic_tokens)
    )
    assert retained.block is not None
    assert f"fix the layout\n{image_note(BIG)}" in retained.block.content
    assert retained.kept[-1] is only_image
    assert BIG.data not in retained.block.content


def test_the_summarizer_and_recall_see_that_images_were_there() -> None:
    message = UserMessage("what is wrong here?", images=(BIG,))
    assert render_message(message, byte_heuristic_tokens).endswith("[image: image/png, 2.9 MB]")
    assert message_text(message) == ("user", "what is wrong here?\n[image: image/png, 2.9 MB]")


def test_an_oversized_user_message_leaves_its_images_as_notes() -> None:
    message = UserMessage("see " * 10, images=(BIG, BIG))
    small = preview(message, 500, byte_heuristic_tokens)
    assert isinstance(small, UserMessage)
    assert small.images == ()
    assert small.content.count("left out to fit the context window") == 2
    roomy = preview(message, 5_000, byte_heuristic_tokens)
    assert isinstance(roomy, UserMessage)
    assert roomy.images == (BIG, BIG)
