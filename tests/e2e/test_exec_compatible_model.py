"""`--provider openai-compatible` without `--model`, through the real CLI: the one served model, or exit 2."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import VtcodeRunner
from vtcode.testing.openai_chat_server import OpenAIChatServer
from vtcode.testing.script import Reply


def _run(vtcode: VtcodeRunner, ws: Path, server: OpenAIChatServer) -> tuple[int, str, str]:
    result = vtcode.run(
        "exec", "--provider", "openai-compatible", "--base-url", server.base_url, "hi", cwd=ws, env={}
    )
    return result.code, result.stdout, result.stderr


def test_the_one_served_model_is_used(vtcode: VtcodeRunner, tmp_path: Path) -> None:
    with OpenAIChatServer([Reply(text="hello")], model_names=("qwen2.5-coder-7b",)) as server:
        code, stdout, stderr = _run(vtcode, tmp_path, server)
        posted = [r.json() for r in server.requests if r.method == "POST"]
    assert code == 0, stderr
    assert stdout == "hello\n"
    assert [body["model"] for body in posted] == ["qwen2.5-coder-7b"]


@pytest.mark.parametrize(
    ("names", "found"),
    [(("a", "b"), "serves 2 models (a, b)"), ((), "lists no models at /models")],
)
def test_several_or_no_models_ask_for_model(
    vtcode: VtcodeRunner, tmp_path: Path, names: tuple[str, ...], found: str
) -> None:
    with OpenAIChatServer([Reply(text="hello")], model_names=names) as server:
        code, stdout, stderr = _run(vtcode, tmp_path, server)
        posted = [r for r in server.requests if r.method == "POST"]
    assert code == 2
    assert stdout == ""
    assert f"provider 'openai-compatible' needs --model: the server at {server.base_url} {found}" in stderr
    assert "--model NAME" in stderr
    assert posted == []


def test_an_explicit_model_asks_nothing(vtcode: VtcodeRunner, tmp_path: Path) -> None:
    with OpenAIChatServer([Reply(text="hello")], model_names=("a", "b")) as server:
        result = vtcode.run(
            "exec",
            "--provider",
            "openai-compatible",
            "--base-url",
            server.base_url,
            "--model",
            "b",
            "hi",
            cwd=tmp_path,
            env={},
        )
        methods = [r.method for r in server.requests]
    assert result.code == 0, result.stderr
    assert methods == ["POST"]


def test_an_unreachable_server_is_named(vtcode: VtcodeRunner, tmp_path: Path) -> None:
    # Port 9 (discard) on loopback: nothing listens there in the test environment.
    result = vtcode.run(
        "exec", "--provider", "openai-compatible", "--base-url", "http://127.0.0.1:9/v1", "hi", cwd=tmp_path
    )
    assert result.code == 2
    assert "needs --model: the server at http://127.0.0.1:9/v1 could not be reached to list its models" in (
        result.stderr
    )
    assert "Traceback" not in result.stderr
