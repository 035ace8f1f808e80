"""The README's SDK example runs as written against a loopback server, and does what it says."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tests.sdk.sdk_helpers import tool_results
from vtcode.testing.script import Reply, ScriptToolCall
from vtcode.testing.wire import cli_env, server_for

README = Path(__file__).parents[2] / "README.md"


def _example() -> str:
    text = README.read_text()
    section = text[text.index("## Python programs: `vtcode.sdk`") :]
    found = re.search(r"```python\n(.*?)```", section, re.DOTALL)
    assert found is not None
    return found.group(1)


def test_the_readme_sdk_example_runs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    call = ScriptToolCall("ticket", json.dumps({"key": "ABC-12"}), id="c1")
    script = [Reply(tool_calls=(call,)), Reply(text="fixed"), Reply(text="test added")]
    with server_for("chat", script) as server:
        for name, value in {**cli_env("chat", server), "VTCODE_PROVIDER": "openai"}.items():
            monkeypatch.setenv(name, value)
        monkeypatch.setenv("VTCODE_MODEL", "gpt-4.1")
        code = _example().replace('workspace="."', f"workspace={str(tmp_path)!r}")
        exec(compile(code, str(README), "exec"), {"__name__": "readme_example"})
        bodies = [r.json() for r in server.requests]
    assert len(bodies) == 3
    assert tool_results(bodies[1], "chat") == ["Crash on empty input"]
    printed = capsys.readouterr().out.split()
    assert printed[0] == "TurnStarted"
    assert printed[-1] == "TurnCompleted"
