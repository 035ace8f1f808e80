"""An ACP prompt (content blocks) as the text and images of one user turn."""

from __future__ import annotations

import base64
import binascii
from collections.abc import Sequence
from dataclasses import dataclass

from acp.helpers import ContentBlock
from acp.schema import (
    AudioContentBlock,
    BlobResourceContents,
    EmbeddedResourceContentBlock,
    ImageContentBlock,
    ResourceContentBlock,
    TextContentBlock,
    TextResourceContents,
)

from vtcode.protocol.messages import ImagePart


class BadBlock(ValueError):
    """A content block that cannot be taken as it is (the prompt is refused, nothing is run)."""


@dataclass(frozen=True)
class PromptInput:
    """The user turn a prompt makes: its text, and its images in the order they came."""

    text: str
    images: tuple[ImagePart, ...] = ()


def prompt_input(blocks: Sequence[ContentBlock]) -> PromptInput:
    """Text as typed; links as references; embedded files as tagged context blocks; images as images
    (a model that takes none reads a note per image instead); audio as a note.

    Raises `BadBlock` for an image whose data is not base64 or whose type is not an image type.
    """
    parts: list[str] = []
    images: list[ImagePart] = []
    for index, block in enumerate(blocks):
        match block:
            case TextContentBlock(text=text):
                parts.append(text)
            case ResourceContentBlock(uri=uri, name=name):
                parts.append(f"[{name}]({uri})" if name and name != uri else uri)
            case EmbeddedResourceContentBlock(resource=TextResourceContents(uri=uri, text=text)):
                parts.append(f'<context uri="{uri}">\n{text}\n</context>')
            case EmbeddedResourceContentBlock(
                resource=BlobResourceContents(uri=uri, blob=blob, mime_type=mime)
            ) if mime and mime.startswith("image/"):
                parts.append(f"[image {uri}]")
                images.append(_image(index, mime, blob))
            case EmbeddedResourceContentBlock(resource=resource):
                parts.append(f"[binary resource {resource.uri} omitted]")
            case ImageContentBlock(data=data, mime_type=mime, uri=uri):
                if data:
                    images.append(_image(index, mime, data))
                else:
                    parts.append(f"[image {uri} omitted: it came as a link without data]")
            case AudioContentBlock():
                parts.append(f"[{block.type} omitted: not supported here]")
    return PromptInput(text="\n".join(parts), images=tuple(images))


def _image(index: int, mime: str, data: str) -> ImagePart:
    if not mime.startswith("image/"):
        raise BadBlock(f"content block {index}: {mime!r} is not an image type")
    try:
        base64.b64decode(data, validate=True)
    except (binascii.Error, ValueError):
        raise BadBlock(f"content block {index}: the image data is not base64") from None
    return ImagePart(mime_type=mime, data=data)
