"""`vtcode exec -i PATH`: images attached to the prompt reach the model on every wire."""

from __future__ import annotations

import base64
import struct
import zlib
from pathlib import Path

import pytest

from tests.conftest import VtcodeRunner
from vtcode.testing.script import Reply
from vtcode.testing.wire import WIRES, Wire, cli_args, cli_env, server_for


def _png(path: Path, shade: int) -> bytes:
    """A real 1x1 PNG (signature, IHDR, IDAT, IEND)."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    raw = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 1, 1, 8, 0, 0, 0, 0))
    raw += chunk(b"IDAT", zlib.compress(bytes([0, shade]))) + chunk(b"IEND", b"")
    path.write_bytes(raw)
    return raw


@pytest.mark.parametrize("wire", WIRES)
def test_images_given_with_i_reach_the_model(vtcode: VtcodeRunner, tmp_path: Path, wire: Wire) -> None:
    first = base64.b64encode(_png(tmp_path / "a.png", 10)).decode()
    second = base64.b64encode(_png(tmp_path / "b.png", 200)).decode()
    with server_for(wire, [Reply(text="two squares")]) as server:
        result = vtcode.run(
            "exec", *cli_args(wire), "-i", "a.png", "--image", "b.png", "what is this",
            cwd=tmp_path, env=cli_env(wire, server),
        )  # fmt: skip
        body = server.requests[0].body.decode()
    assert result.code == 0, result.stderr
    assert body.index(first) < body.index(second)
    assert "image/png" in body


def test_a_file_that_is_no_image_is_a_usage_error(vtcode: VtcodeRunner, tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("hello")
    with server_for("chat", []) as server:
        result = vtcode.run(
            "exec", *cli_args("chat"), "-i", "notes.txt", "go", cwd=tmp_path, env=cli_env("chat", server)
        )
        requests = len(server.requests)
    assert result.code == 2
    assert requests == 0
    assert "--image notes.txt: not a PNG, JPEG, GIF or WebP image" in result.stderr
