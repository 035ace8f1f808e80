"""A loopback HTTP server base that plays a script of replies as SSE streams and records requests.

Each wire format subclasses `WireServer` and turns a `Reply` into frames; faults (HTTP errors, delays,
dropped connections, malformed chunks) are injected here, the same way for every format.
"""

from __future__ import annotations

import json
import socket
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Self

from vtcode.testing.script import (
    HttpError,
    JsonReply,
    RawResponse,
    RecordedRequest,
    Reply,
    Step,
    with_session_id,
)

# A stalled stream (`Reply.stall_after`) ends by itself after this long at the latest.
_STALL_LIMIT_SECONDS = 300.0


@dataclass(frozen=True)
class Frame:
    """One SSE frame: an optional `event:` name and the `data:` payload."""

    data: str
    event: str | None = None

    def encode(self) -> bytes:
        """The frame as bytes on the wire."""
        head = f"event: {self.event}\n" if self.event else ""
        return f"{head}data: {self.data}\n\n".encode()


class WireServer:
    """Base loopback server; use as a context manager and point a client at `base_url`."""

    #: Paths (POST) this format answers, e.g. "/v1/chat/completions".
    paths: tuple[str, ...] = ()

    def __init__(
        self,
        script: Sequence[Step] = (),
        *,
        host: str = "127.0.0.1",
        model_names: Sequence[str] = ("fake-model",),
        responder: Callable[[RecordedRequest], Step] | None = None,
    ) -> None:
        self._script: list[Step] = list(script)
        #: Answers a request once the script is played out: a test that reacts to what it is asked
        #: (a summary request in the middle of a long scripted session) instead of predicting it.
        self.responder = responder
        #: What `GET /v1/models` and Ollama's `GET /api/tags` list.
        self.model_names = tuple(model_names)
        self._lock = threading.Lock()
        self.requests: list[RecordedRequest] = []
        self._httpd = ThreadingHTTPServer((host, 0), self._handler_class())
        self._httpd.daemon_threads = True
        self._thread = threading.Thread(target=self._httpd.serve_forever, daemon=True)
        #: Set by `stop`, so streams that never end by themselves (`Reply.stall_after`) end then.
        self.stopping = False

    # -- subclass hooks -------------------------------------------------------------------------

    def render(self, reply: Reply, request: RecordedRequest) -> Iterable[Frame]:
        """The SSE frames of a successful reply."""
        raise NotImplementedError

    def error_body(self, error: HttpError) -> dict[str, object]:
        """The JSON body of an error response in this format."""
        raise NotImplementedError

    def models_body(self) -> dict[str, object]:
        """The body of `GET .../models`."""
        return {"object": "list", "data": [{"id": name, "object": "model"} for name in self.model_names]}

    # -- public API -----------------------------------------------------------------------------

    @property
    def base_url(self) -> str:
        """The URL clients use, including the `/v1` prefix."""
        host, port = self._httpd.server_address[:2]
        return f"http://{host!s}:{port}/v1"

    def add(self, *steps: Step) -> None:
        """Append steps to the script."""
        with self._lock:
            self._script.extend(steps)

    @property
    def remaining(self) -> int:
        """Steps not yet played."""
        with self._lock:
            return len(self._script)

    def start(self) -> Self:
        """Start serving in a background thread."""
        self._thread.start()
        return self

    def stop(self) -> None:
        """Stop serving and close the socket."""
        self.stopping = True
        self._httpd.shutdown()
        self._httpd.server_close()

    def __enter__(self) -> Self:
        return self.start()

    def __exit__(self, *exc_info: object) -> None:
        self.stop()

    # -- serving --------------------------------------------------------------------------------

    def _next(self, request: RecordedRequest) -> Step | None:
        with self._lock:
            if self._script:
                return self._script.pop(0)
        return self.responder(request) if self.responder is not None else None

    def _handler_class(self) -> type[BaseHTTPRequestHandler]:
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, format: str, *args: object) -> None:
                return

            def do_GET(self) -> None:
                if self.path.startswith("/api/tags"):
                    # Ollama's native listing, which vtcode reads to pick an installed model.
                    names = server.model_names
                    self._json(200, {"models": [{"name": name, "model": name} for name in names]})
                elif self.path.rstrip("/").endswith("/models"):
                    self._json(200, server.models_body())
                else:
                    self._json(404, {"error": {"message": f"no route {self.path}"}})

            def do_POST(self) -> None:
                length = int(self.headers.get("content-length") or 0)
                body = self.rfile.read(length)
                recorded = RecordedRequest(
                    method="POST",
                    path=self.path,
                    headers={k.lower(): v for k, v in self.headers.items()},
                    body=body,
                    received_at=time.monotonic(),
                )
                with server._lock:
                    server.requests.append(recorded)
                if self.path.split("?")[0] not in server.paths:
                    self._json(404, {"error": {"message": f"no route {self.path}"}})
                    return
                step = server._next(recorded)
                if step is None:
                    self._json(500, {"error": {"message": "loopback script exhausted"}})
                    return
                if step.delay_before:
                    time.sleep(step.delay_before)
                if isinstance(step, HttpError):
                    self._json(step.status, server.error_body(step), step.headers)
                    return
                if isinstance(step, RawResponse):
                    self._raw(step)
                    return
                if isinstance(step, JsonReply):
                    self._json(200, step.body)
                    return
                step = with_session_id(step, body)
                self._stream(step, server.render(step, recorded))

            def _json(self, status: int, payload: object, headers: dict[str, str] | None = None) -> None:
                data = json.dumps(payload).encode()
                self.send_response(status)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(data)))
                for key, value in (headers or {}).items():
                    self.send_header(key, value)
                self.end_headers()
                self.wfile.write(data)

            def _raw(self, response: RawResponse) -> None:
                data = response.body.encode()
                self.send_response(response.status)
                self.send_header("content-type", response.content_type)
                self.send_header("content-length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def _stream(self, reply: Reply, frames: Iterable[Frame]) -> None:
                self.send_response(200)
                self.send_header("content-type", "text/event-stream")
                self.send_header("cache-control", "no-cache")
                # No content-length: the stream ends when we close the connection.
                self.send_header("connection", "close")
                self.end_headers()
                self.close_connection = True
                try:
                    for sent, frame in enumerate(frames):
                        if reply.drop_after is not None and sent >= reply.drop_after:
                            self._drop()
                            return
                        if reply.stall_after is not None and sent >= reply.stall_after:
                            self._keep_alive_forever(reply.keep_alive_every)
                            return
                        if reply.malformed_after is not None and sent == reply.malformed_after:
                            self.wfile.write(b'data: {"choices": [{"delta": {"content": "x"\n\n')
                        self.wfile.write(frame.encode())
                        self.wfile.flush()
                        if reply.delay_between:
                            time.sleep(reply.delay_between)
                except (BrokenPipeError, ConnectionResetError):
                    return

            def _keep_alive_forever(self, every: float) -> None:
                # Bounded, so a client that never hangs up cannot keep the test server busy for good.
                ends = time.monotonic() + _STALL_LIMIT_SECONDS
                while time.monotonic() < ends and not server.stopping:
                    self.wfile.write(b": keep-alive\n\n")
                    self.wfile.flush()
                    time.sleep(every)

            def _drop(self) -> None:
                # RST rather than FIN, so the client sees a broken connection, not a clean end.
                self.wfile.flush()
                self.connection.setsockopt(
                    socket.SOL_SOCKET, socket.SO_LINGER, b"\x01\x00\x00\x00\x00\x00\x00\x00"
                )
                self.connection.close()

        return Handler
