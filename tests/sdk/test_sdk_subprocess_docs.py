"""The example of docs/sdk.md's subprocess section runs as written, against a loopback provider."""

from __future__ import annotations

import re
import sys
import types
from pathlib import Path

import pytest

import vtcode.sdk as vt
from tests.sdk.sdk_helpers import sdk_options, tool_results
from vtcode.testing.script import Reply, ScriptToolCall
from vtcode.testing.wire import server_for

DOCS = Path(__file__).parents[2] / "docs" / "sdk.md"
HEADING = "## A separate process"


def test_the_subprocess_docs_example_runs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    section = DOCS.read_text().split(HEADING, 1)[1].split("\n## ", 1)[0]
    (code,) = re.findall(r"```py\n(.*?)```", section, re.DOTALL)
    module = types.ModuleType("docs_subprocess_example")
    monkeypatch.setitem(sys.modules, module.__name__, module)
    script = [
        Reply(tool_calls=(ScriptToolCall("ticket", '{"key": "ABC-12"}', id="c1"),)),
        Reply(text="A crash on empty input."),
    ]
    with server_for("chat", script) as server:
        module.__dict__.update(vt=vt, options=sdk_options(tmp_path, server))
        exec(compile(code, f"{DOCS}:{HEADING}", "exec"), module.__dict__)
        second = server.requests[1].json()
    assert capsys.readouterr().out == "completed A crash on empty input.\n"
    assert tool_results(second, "chat") == ["ABC-12: crash on empty input"]
