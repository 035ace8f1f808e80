"""How each kind of ACP content block becomes the text and images of a user turn."""

from __future__ import annotations

import pytest
from acp import audio_block, image_block, text_block
from acp.schema import BlobResourceContents, EmbeddedResourceContentBlock, ImageContentBlock

from tests.runtime.test_user_message_images import PNG
from vtcode.acp.prompt import BadBlock, prompt_input
from vtcode.protocol.messages import ImagePart


def test_images_pass_through_in_order_and_an_embedded_image_file_is_an_image_too() -> None:
    embedded = EmbeddedResourceContentBlock(
        type="resource",
        resource=BlobResourceContents(uri="file:///shot.jpg", blob=PNG, mime_type="image/jpeg"),
    )
    given = prompt_input([text_block("compare"), image_block(PNG, "image/png"), embedded])
    assert given.images == (ImagePart("image/png", PNG), ImagePart("image/jpeg", PNG))
    assert given.text == "compare\n[image file:///shot.jpg]"


def test_media_without_data_or_not_an_image_is_described_not_sent() -> None:
    linked = ImageContentBlock(
        type="image", data="", mime_type="image/png", uri="https://example.invalid/a.png"
    )
    given = prompt_input([linked, audio_block(PNG, "audio/wav")])
    assert given.images == ()
    assert "came as a link without data" in given.text
    assert "[audio omitted: not supported here]" in given.text


def test_an_image_block_with_a_type_that_is_not_an_image_is_refused() -> None:
    with pytest.raises(BadBlock, match="block 1: 'text/plain' is not an image type"):
        prompt_input([text_block("x"), image_block(PNG, "text/plain")])
