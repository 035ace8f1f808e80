"""Plain-http endpoints build no certificate store; a redirect to https still verifies certificates."""

from __future__ import annotations

import asyncio
import shutil
import socket
import ssl
import subprocess
import threading
from collections.abc import Iterator
from pathlib import Path

import httpx2
import pytest

from vtcode.providers.tls import DeferredTlsContext, verify_for
from vtcode.testing.openai_chat_server import OpenAIChatServer
from vtcode.testing.script import Reply


def _loaded_certificates(ctx: ssl.SSLContext) -> int:
    return int(ctx.cert_store_stats()["x509_ca"])


def test_https_endpoints_keep_the_default_context() -> None:
    assert verify_for("https://api.openai.com/v1") is True
    assert verify_for("HTTPS://example.test") is True


def test_a_plain_http_request_loads_no_certificates() -> None:
    ctx = verify_for("http://127.0.0.1:1/v1")
    assert isinstance(ctx, DeferredTlsContext)
    assert _loaded_certificates(ctx) == 0
    with OpenAIChatServer([Reply(text="hi")]) as server:

        async def post() -> int:
            async with httpx2.AsyncClient(verify=ctx) as client:
                response = await client.post(f"{server.base_url}/chat/completions", content=b"{}")
                await response.aread()
                return response.status_code

        assert asyncio.run(post()) == 200
    assert _loaded_certificates(ctx) == 0


@pytest.fixture
def self_signed_server(tmp_path: Path) -> Iterator[int]:
    """A TLS server on 127.0.0.1 whose certificate no CA signed."""
    if shutil.which("openssl") is None:
        pytest.skip("openssl is not installed")
    key, cert = tmp_path / "key.pem", tmp_path / "cert.pem"
    subprocess.run(
        [
            "openssl",
            "req",
            "-x509",
            "-newkey",
            "rsa:2048",
            "-nodes",
            "-subj",
            "/CN=127.0.0.1",
            "-keyout",
            str(key),
            "-out",
            str(cert),
            "-days",
            "1",
        ],
        check=True,
        capture_output=True,
    )
    server_ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    server_ctx.load_cert_chain(cert, key)
    listener = socket.create_server(("127.0.0.1", 0))
    port = listener.getsockname()[1]

    def serve() -> None:
        try:
            conn, _ = listener.accept()
            try:
                server_ctx.wrap_socket(conn, server_side=True).close()
            except (ssl.SSLError, OSError):
                conn.close()
        except OSError:
            pass

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    yield port
    listener.close()
    thread.join(5)


def test_the_first_handshake_loads_certificates_and_verifies(self_signed_server: int) -> None:
    ctx = DeferredTlsContext()

    async def handshake() -> None:
        _reader, writer = await asyncio.open_connection(
            "127.0.0.1", self_signed_server, ssl=ctx, server_hostname="127.0.0.1"
        )
        writer.close()

    with pytest.raises(ssl.SSLCertVerificationError):
        asyncio.run(handshake())
    assert ctx.verify_mode == ssl.CERT_REQUIRED
    assert ctx.check_hostname is True
