"""Which image a file holds, from its first bytes (PNG, JPEG, GIF, WebP): the formats models take."""

from __future__ import annotations

_SIGNATURES: tuple[tuple[bytes, str], ...] = (
    (b"\x89PNG\r\n\x1a\n", "image/png"),
    (b"\xff\xd8\xff", "image/jpeg"),
    (b"GIF87a", "image/gif"),
    (b"GIF89a", "image/gif"),
)

# Providers refuse larger images (OpenAI and Anthropic take up to 20 MB and 5 MB per image); the
# smaller limit would refuse images one of them takes, so the larger one applies here.
MAX_IMAGE_BYTES = 20 * 1024 * 1024

HEADER_BYTES = 12
"""How many leading bytes `image_type` needs to tell."""


def image_type(data: bytes) -> str | None:
    """The image MIME type from the file's first bytes, or None for anything else."""
    for signature, mime in _SIGNATURES:
        if data.startswith(signature):
            return mime
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return "image/webp"
    return None
