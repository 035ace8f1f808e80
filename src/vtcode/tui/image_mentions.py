"""`@path` mentions in the composer that name an image file: attached to the message as images.

The mention stays in the text (the model sees which file it was); a PNG, JPEG, GIF or WebP file (told
by its content, as `exec -i` does) also goes on the user message as an image part. Other paths are
left as they are.
"""

from __future__ import annotations

import base64
from dataclasses import dataclass, field
from pathlib import Path

from vtcode.core.image_kind import HEADER_BYTES, MAX_IMAGE_BYTES, image_type
from vtcode.core.mentions import Mention, find_mentions
from vtcode.protocol.messages import ImagePart


@dataclass
class MentionedImages:
    """The images a message mentions, the notes to show for them, and the problems met."""

    images: list[ImagePart] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)


def _candidate(mention: Mention, workspace: Path) -> tuple[str, Path] | None:
    """The file a mention names (as written, or without trailing punctuation), or None."""
    for name in mention.candidates():
        if not name:
            continue
        path = Path(name).expanduser()
        path = path if path.is_absolute() else workspace / path
        if path.is_file():
            return name, path
    return None


def mentioned_images(text: str, workspace: Path) -> MentionedImages:
    """The image files `text` mentions with `@path`, each once, in order."""
    found = MentionedImages()
    seen: set[Path] = set()
    for mention in find_mentions(text):
        candidate = _candidate(mention, workspace)
        if candidate is None:
            continue
        name, path = candidate
        if path in seen:
            continue
        seen.add(path)
        try:
            with path.open("rb") as handle:
                mime = image_type(handle.read(HEADER_BYTES))
                if mime is None:
                    continue
                size = path.stat().st_size
                if size > MAX_IMAGE_BYTES:
                    found.warnings.append(
                        f"image not attached: {name} ({size:,} bytes, more than the {MAX_IMAGE_BYTES:,} "
                        "a model takes)"
                    )
                    continue
                handle.seek(0)
                data = handle.read()
        except OSError as exc:
            found.warnings.append(f"image not attached: {name} ({exc.strerror or exc})")
            continue
        found.images.append(ImagePart(mime_type=mime, data=base64.b64encode(data).decode("ascii")))
        found.notes.append(f"image attached: {name}")
    return found
