"""`vtcode exec -i/--image PATH`: image files attached to the prompt (PNG, JPEG, GIF, WebP)."""

from __future__ import annotations

import base64
from collections.abc import Sequence
from pathlib import Path

from vtcode.protocol.errors import UsageError
from vtcode.protocol.messages import ImagePart

# Providers refuse larger images (OpenAI and Anthropic take up to 20 MB and 5 MB per image); the
# smaller limit would refuse images one of them takes, so the larger one applies here.
MAX_IMAGE_BYTES = 20 * 1024 * 1024

_SIGNATURES: tuple[tuple[bytes, str], ...] = (
    (b"\x89PNG\r\n\x1a\n", "image/png"),
    (b"\xff\xd8\xff", "image/jpeg"),
    (b"GIF87a", "image/gif"),
    (b"GIF89a", "image/gif"),
)


def image_type(data: bytes) -> str | None:
    """The image MIME type from the file's first bytes, or None for anything else."""
    for signature, mime in _SIGNATURES:
        if data.startswith(signature):
            return mime
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return "image/webp"
    return None


def read_images(paths: Sequence[str] | None) -> tuple[ImagePart, ...]:
    """The images at `paths`, in order; UsageError naming the file when one cannot be used."""
    images: list[ImagePart] = []
    for raw in paths or ():
        path = Path(raw).expanduser()
        try:
            size = path.stat().st_size
            if size > MAX_IMAGE_BYTES:
                raise UsageError(
                    f"--image {raw}: {size:,} bytes, more than the {MAX_IMAGE_BYTES:,} a model takes"
                )
            data = path.read_bytes()
        except OSError as exc:
            raise UsageError(f"--image {raw}: {exc.strerror or exc}") from None
        mime = image_type(data)
        if mime is None:
            raise UsageError(f"--image {raw}: not a PNG, JPEG, GIF or WebP image")
        images.append(ImagePart(mime_type=mime, data=base64.b64encode(data).decode("ascii")))
    return tuple(images)
