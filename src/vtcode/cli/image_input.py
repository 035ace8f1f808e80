"""`vtcode exec -i/--image PATH`: image files attached to the prompt (PNG, JPEG, GIF, WebP)."""

from __future__ import annotations

import base64
from collections.abc import Sequence
from pathlib import Path

from vtcode.core.image_kind import MAX_IMAGE_BYTES, image_type
from vtcode.protocol.errors import UsageError
from vtcode.protocol.messages import ImagePart


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
