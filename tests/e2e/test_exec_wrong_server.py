"""A server that answers 200 with a web page or junk, through the real CLI: named plainly, not retried."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import VtcodeRunner
from vtcode.testing.script import RawResponse
from vtcode.testing.wire import WIRES, Wire, cli_args, cli_env, server_for

API = {"chat": "OpenAI-compatible", "responses": "OpenAI Responses", "anthropic": "Anthropic Messages"}
PAGE = "<!doctype html><html><body><h1>Welcome to nginx!</h1></body></html>\n"


def _exec(vtcode: VtcodeRunner, ws: Path, wire: Wire, response: RawResponse) -> tuple[int, str, int, str]:
    with server_for(wire, [response] * 3) as server:
        result = vtcode.run(
            "exec", "-c", "network.max_retries=2", *cli_args(wire), "hi", cwd=ws, env=cli_env(wire, server)
        )
        return result.code, result.stderr, len(server.requests), server.base_url


@pytest.mark.parametrize("wire", WIRES)
def test_an_html_page_is_named_and_not_retried(vtcode: VtcodeRunner, tmp_path: Path, wire: Wire) -> None:
    code, stderr, requests, base_url = _exec(vtcode, tmp_path, wire, RawResponse(PAGE))
    assert code == 4
    assert requests == 1
    assert (
        f"the server at {base_url} did not answer as an {API[wire]} streaming API (got text/html)" in stderr
    )
    assert "retrying" not in stderr
    assert "Traceback" not in stderr


@pytest.mark.parametrize(
    ("body", "content_type"),
    [
        ("this is not\nan event stream\n", "text/plain"),
        ('{"id": "x", "choices": []}', "application/json"),
        ("junk line one\njunk line two\n", "text/event-stream"),
    ],
)
def test_junk_with_status_200_is_named_and_not_retried(
    vtcode: VtcodeRunner, tmp_path: Path, body: str, content_type: str
) -> None:
    code, stderr, requests, base_url = _exec(
        vtcode, tmp_path, "chat", RawResponse(body, content_type=content_type)
    )
    assert code == 4
    assert requests == 1
    # The session line (to resume the run) stands apart from the one-line error.
    assert [line for line in stderr.strip().splitlines() if not line.startswith("session: ")] == [
        f"vtcode: openai: the server at {base_url} did not answer as an OpenAI-compatible streaming API "
        f"(got {content_type}) (check --base-url: it must name the API itself (usually ending in /v1), "
        "not a web page)"
    ]
