"""The TLS context of a provider client, built only when a TLS handshake actually happens.

Loading the system's CA certificates takes ~30-60 ms, and httpx builds its context when the client is
made. A plain `http://` endpoint (Ollama, vLLM, a loopback server) never needs one, so its client gets a
context that loads the certificates at its first handshake (only a redirect to `https://` would cause
one) and verifies exactly like the default context then.
"""

from __future__ import annotations

import ssl
import threading
from typing import Any


class DeferredTlsContext(ssl.SSLContext):
    """A verifying client context whose CA certificates are loaded at the first handshake."""

    _loaded = False
    _lock = threading.Lock()

    def __new__(cls) -> DeferredTlsContext:
        """A TLS client context (hostname checks and certificate verification on)."""
        return super().__new__(cls, ssl.PROTOCOL_TLS_CLIENT)

    def _load(self) -> None:
        with self._lock:
            if not self._loaded:
                self.load_default_certs(ssl.Purpose.SERVER_AUTH)
                self._loaded = True

    def wrap_socket(self, *args: Any, **kwargs: Any) -> ssl.SSLSocket:
        """Load the certificates, then wrap as usual."""
        self._load()
        return super().wrap_socket(*args, **kwargs)

    def wrap_bio(self, *args: Any, **kwargs: Any) -> ssl.SSLObject:
        """Load the certificates, then wrap as usual (asyncio's TLS goes through here)."""
        self._load()
        return super().wrap_bio(*args, **kwargs)


def verify_for(base_url: str) -> ssl.SSLContext | bool:
    """httpx's `verify` for an endpoint: the default for `https://`, a deferred context otherwise."""
    if base_url.lower().startswith("https://"):
        return True
    return DeferredTlsContext()
