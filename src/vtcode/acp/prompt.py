"""An ACP prompt (content blocks) as the text of one user turn."""

from __future__ import annotations

from collections.abc import Sequence

from acp.schema import (
    AudioContentBlock,
    EmbeddedResourceContentBlock,
    ImageContentBlock,
    ResourceContentBlock,
    TextContentBlock,
    TextResourceContents,
)

Block = (
    TextContentBlock
    | ImageContentBlock
    | AudioContentBlock
    | ResourceContentBlock
    | EmbeddedResourceContentBlock
)


def prompt_text(blocks: Sequence[Block]) -> str:
    """Text as typed; links as references; embedded files as tagged context blocks; media as a note."""
    parts: list[str] = []
    for block in blocks:
        match block:
            case TextContentBlock(text=text):
                parts.append(text)
            case ResourceContentBlock(uri=uri, name=name):
                parts.append(f"[{name}]({uri})" if name and name != uri else uri)
            case EmbeddedResourceContentBlock(resource=TextResourceContents(uri=uri, text=text)):
                parts.append(f'<context uri="{uri}">\n{text}\n</context>')
            case EmbeddedResourceContentBlock(resource=resource):
                parts.append(f"[binary resource {resource.uri} omitted]")
            case ImageContentBlock() | AudioContentBlock():
                parts.append(f"[{block.type} omitted: not supported here]")
    return "\n".join(parts)
