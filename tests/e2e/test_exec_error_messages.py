"""Errors point at what to fix: the base URL, a server that is no API, a stopped server, a missing key."""

from __future__ import annotations

import http.server
import json
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import VtcodeRunner
from vtcode.providers.select import auto_provider
from vtcode.testing.script import RawResponse, Step
from vtcode.testing.wire import cli_args, cli_env, server_for

_PAGE = (
    "<!DOCTYPE html>\n<html><head><title>{title}</title></head><body>"
    + "<p>filler</p>" * 200
    + "</body></html>"
)


def _exec(vtcode: VtcodeRunner, tmp_path: Path, step: Step, *args: str) -> tuple[int, str, int, str]:
    with server_for("chat", [step] * 5) as server:
        result = vtcode.run("exec", *cli_args("chat"), *args, "hi", cwd=tmp_path, env=cli_env("chat", server))
        count = len(server.requests)
    assert "Traceback" not in result.stderr
    return result.code, result.stderr, count, server.base_url


def test_a_404_page_names_the_base_url_not_only_the_model(vtcode: VtcodeRunner, tmp_path: Path) -> None:
    page = RawResponse(_PAGE.format(title="404 Not Found"), status=404)
    code, stderr, requests, base_url = _exec(vtcode, tmp_path, page)
    assert code == 4
    assert requests == 1
    assert "HTTP 404: an HTML page (404 Not Found)" in stderr
    assert f"check --base-url ({base_url}): an OpenAI-style API usually ends in /v1" in stderr
    assert "<p>" not in stderr


def test_http_501_is_not_retried_and_no_page_reaches_the_terminal(
    vtcode: VtcodeRunner, tmp_path: Path
) -> None:
    page = RawResponse(_PAGE.format(title="Unsupported method ('POST')"), status=501)
    code, stderr, requests, base_url = _exec(vtcode, tmp_path, page)
    assert code == 4
    assert requests == 1
    assert "retrying" not in stderr
    assert "<p>" not in stderr
    assert f"the server ({base_url}) does not implement this API" in stderr


def test_a_5xx_html_page_is_shown_by_its_title_in_retry_warnings(
    vtcode: VtcodeRunner, tmp_path: Path
) -> None:
    page = RawResponse(_PAGE.format(title="502 Bad Gateway"), status=502)
    code, stderr, requests, _ = _exec(vtcode, tmp_path, page, "-c", "network.max_retries=1")
    assert code == 4
    assert requests == 2
    assert "HTTP 502: an HTML page (502 Bad Gateway); retrying" in stderr
    assert "<p>" not in stderr


def test_a_refused_connection_names_the_url(vtcode: VtcodeRunner, tmp_path: Path) -> None:
    env = {"OPENAI_API_KEY": "k", "OPENAI_BASE_URL": "http://127.0.0.1:9/v1"}
    result = vtcode.run("exec", *cli_args("chat"), "-c", "network.max_retries=0", "hi", cwd=tmp_path, env=env)
    assert result.code == 4
    assert "openai: network error (http://127.0.0.1:9/v1)" in result.stderr
    assert "nothing answers at that address" in result.stderr


def test_a_stopped_ollama_is_called_not_running(vtcode: VtcodeRunner, tmp_path: Path) -> None:
    # Ollama's own way to write its address, without a scheme.
    env = {"OLLAMA_HOST": "127.0.0.1:9"}
    result = vtcode.run(
        "exec",
        "--provider",
        "ollama",
        "--model",
        "qwen3",
        "-c",
        "network.max_retries=0",
        "hi",
        cwd=tmp_path,
        env=env,
    )
    assert result.code == 4
    assert "ollama: network error (http://127.0.0.1:9/v1)" in result.stderr
    assert "Ollama is not running there" in result.stderr


def test_a_named_provider_without_its_key_is_an_error_naming_the_variable(
    vtcode: VtcodeRunner, tmp_path: Path
) -> None:
    with server_for("chat", []) as server:
        config = vtcode.home / ".vtcode"
        config.mkdir(parents=True, exist_ok=True)
        (config / "vtcode.toml").write_text(
            f'[providers.lab]\nbase_url = "{server.base_url}"\napi_key_env = "LAB_API_KEY"\n'
            'default_model = "m"\n'
        )
        result = vtcode.run("exec", "--provider", "lab", "--output-format", "json", "hi", cwd=tmp_path)
        requests = len(server.requests)
    assert result.code == 2
    assert requests == 0
    assert "provider 'lab' needs an API key but LAB_API_KEY is not set" in result.stderr
    assert json.loads(result.stdout)["kind"] == "config"


class _FakeOllama(http.server.BaseHTTPRequestHandler):
    def do_GET(self) -> None:
        body = json.dumps({"models": [{"name": "qwen3"}]}).encode()
        self.send_response(200 if self.path == "/api/tags" else 404)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: object) -> None:
        pass


@pytest.fixture
def fake_ollama() -> Iterator[int]:
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _FakeOllama)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server.server_address[1]
    finally:
        server.shutdown()
        server.server_close()


def test_ollama_host_without_a_scheme_is_auto_detected(fake_ollama: int) -> None:
    assert auto_provider({"OLLAMA_HOST": f"127.0.0.1:{fake_ollama}"}) == "ollama"
    assert auto_provider({"OLLAMA_HOST": f"http://127.0.0.1:{fake_ollama}"}) == "ollama"
