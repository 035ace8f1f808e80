"""An MCP `CallToolResult` as text the model can read: text, images, audio, resource links and resources."""

from __future__ import annotations

import base64
import binascii
import json
from dataclasses import dataclass

import mcp_types

from vtcode.protocol.messages import ImagePart


@dataclass(frozen=True)
class RenderedResult:
    """A tool result as text (images described in place) plus the images themselves."""

    text: str
    images: tuple[ImagePart, ...] = ()


def render_result(result: mcp_types.CallToolResult) -> RenderedResult:
    """The text of every content block in order (structured content when there is none), and its images."""
    images = tuple(
        ImagePart(mime_type=block.mime_type, data=block.data)
        for block in result.content
        if isinstance(block, mcp_types.ImageContent)
    )
    return RenderedResult(text=_text(result), images=images)


def _text(result: mcp_types.CallToolResult) -> str:
    parts = [_block(block) for block in result.content]
    if not parts and result.structured_content is not None:
        parts.append(json.dumps(result.structured_content, ensure_ascii=False, sort_keys=True))
    text = "\n".join(part for part in parts if part)
    if result.is_error and not text:
        return "the tool reported an error without a message"
    return text


def _block(block: mcp_types.ContentBlock) -> str:
    match block:
        case mcp_types.TextContent(text=text):
            return text
        case mcp_types.ImageContent(data=data, mime_type=mime):
            # The image itself goes along to models that accept images; every model reads this line.
            return f"[image: {mime}, {_decoded_size(data)} bytes]"
        case mcp_types.AudioContent(data=data, mime_type=mime):
            return f"[audio: {mime}, {_decoded_size(data)} bytes; not shown to the model]"
        case mcp_types.ResourceLink():
            mime = f", {block.mime_type}" if block.mime_type else ""
            about = f": {block.description}" if block.description else ""
            return f"[resource link: {block.name} <{block.uri}>{mime}]{about}"
        case mcp_types.EmbeddedResource(resource=resource):
            if isinstance(resource, mcp_types.TextResourceContents):
                return f"[resource <{resource.uri}>]\n{resource.text}"
            mime = resource.mime_type or "application/octet-stream"
            return f"[resource <{resource.uri}>: {mime}, {_decoded_size(resource.blob)} bytes]"
        case _:
            return f"[{getattr(block, 'type', 'unknown')} content]"


def _decoded_size(data: str) -> int:
    try:
        return len(base64.b64decode(data, validate=False))
    except (binascii.Error, ValueError):
        return len(data)
