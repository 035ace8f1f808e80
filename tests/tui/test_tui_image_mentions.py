"""`@path` naming an image in the composer attaches the image to the message the model receives."""

from __future__ import annotations

import base64
import struct
import zlib
from pathlib import Path

from tests.tui.tui_helpers import running_app, screen_text, type_text, until
from vtcode.testing.script import Reply
from vtcode.testing.wire import server_for


def _png(path: Path) -> bytes:
    """A real 1x1 PNG (signature, IHDR, IDAT, IEND)."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    raw = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 1, 1, 8, 0, 0, 0, 0))
    raw += chunk(b"IDAT", zlib.compress(bytes([0, 99]))) + chunk(b"IEND", b"")
    path.write_bytes(raw)
    return raw


async def test_an_image_mentioned_with_at_reaches_the_model_as_an_image(tmp_path: Path) -> None:
    encoded = base64.b64encode(_png(tmp_path / "shot.png")).decode()
    # Named like an image but holding text: told by content, so it stays a plain mention.
    (tmp_path / "fake.png").write_text("not an image")
    (tmp_path / "notes.txt").write_text("hello")
    with server_for("chat", [Reply(text="a grey dot"), Reply(text="plain answer")]) as server:
        async with running_app(tmp_path, tmp_path, server, size=(100, 30)) as (app, pilot):
            await type_text(pilot, "what is in @shot.png, see @notes.txt")
            await pilot.press("enter")
            await until(pilot, lambda: "a grey dot" in screen_text(app), "the first answer")
            assert "image attached: shot.png" in screen_text(app)
            await type_text(pilot, "and @fake.png or @notes.txt")
            await pilot.press("enter")
            await until(pilot, lambda: "plain answer" in screen_text(app), "the second answer")
            assert "image attached: fake.png" not in screen_text(app)
        bodies = [r.body.decode() for r in server.requests]
    first, second = (r.json() for r in server.requests)
    user = next(m for m in first["messages"] if m["role"] == "user" and "@shot.png" in str(m["content"]))
    parts = user["content"]
    assert isinstance(parts, list)
    assert "what is in @shot.png, see @notes.txt" in str(parts)
    images = [p for p in parts if p.get("type") == "image_url"]
    assert [p["image_url"]["url"] for p in images] == [f"data:image/png;base64,{encoded}"]
    # The second message attaches nothing new: its text mentions are text only.
    assert bodies[1].count(encoded) == 1
    last_user = [m for m in second["messages"] if m["role"] == "user"][-1]
    assert last_user["content"] == "and @fake.png or @notes.txt" or "image_url" not in str(
        last_user["content"]
    )
