"""Images in the conversation described in words: for models that take no images, and for summaries."""

from __future__ import annotations

from vtcode.protocol.messages import ImagePart

NOT_TAKEN = "this model does not take images"


def decoded_size(image: ImagePart) -> int:
    """The image's size in bytes, from the length of its base64 text (no decoding)."""
    data = image.data.rstrip()
    padding = len(data) - len(data.rstrip("="))
    return max(0, len(data) * 3 // 4 - padding)


def human_size(size: int) -> str:
    """`512 bytes`, `12 KB`, `3.4 MB`."""
    if size < 1024:
        return f"{size} bytes"
    if size < 1024 * 1024:
        return f"{round(size / 1024)} KB"
    return f"{size / (1024 * 1024):.1f} MB"


def image_note(image: ImagePart, why: str | None = None) -> str:
    """`[image: image/png, 12 KB]`, with `why` after a dash when given."""
    about = f"{image.mime_type}, {human_size(decoded_size(image))}"
    return f"[image: {about} — {why}]" if why else f"[image: {about}]"


def with_image_notes(text: str, images: tuple[ImagePart, ...], why: str | None = None) -> str:
    """`text` followed by one note per image (the text alone when there are none)."""
    notes = [image_note(image, why) for image in images]
    return "\n".join(part for part in (text, *notes) if part)
