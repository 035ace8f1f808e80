"""Every Python example of docs/sdk.md runs as written against `ScriptedModel` and does what its section
says; the README's SDK example is run by `test_sdk_readme_example.py`."""

from __future__ import annotations

import dataclasses
import json
import re
import sys
import types
from pathlib import Path
from typing import Any

import pytest

import vtcode.sdk as vt
from vtcode.core.compaction.summary import SECTIONS
from vtcode.protocol.messages import AssistantMessage, SystemMessage, ToolResultMessage, UserMessage
from vtcode.sdk.testing import Reply, ScriptedModel, ScriptToolCall
from vtcode.sdk.transport import TransportName
from vtcode.testing.script import Step

ROOT = Path(__file__).parents[2]
DOCS = ROOT / "docs" / "sdk.md"
SETUP = "Setup"
# Sections whose example builds its own options (and model).
SELF_CONTAINED = {"Testing your program"}


def _call(name: str, arguments: dict[str, Any]) -> Reply:
    return Reply(tool_calls=(ScriptToolCall(name, json.dumps(arguments), id="c1"),))


def _command(cmd: str) -> Reply:
    return _call("exec_command", {"cmd": cmd, "yield_time_ms": 5000})


LONG = "word " * 1500
SUMMARY = "\n".join(f"## {name}\nthe parser and the lexer are read" for name in SECTIONS)
REVIEW = json.dumps({"verdict": "request_changes", "findings": ["no test for the empty case"]})
# What the model says in each section's example.
SCRIPTS: dict[str, list[Step]] = {
    "Run a turn": [Reply(text="A coding agent.")],
    "Usage and cost": [Reply(text="Added.")],
    "Stream events": [Reply(text="It starts the app.")],
    "Steer and interrupt": [_call("run_checks", {}), Reply(text="3 passed in 0.2 s")],
    "Tools as functions": [_call("ticket", {"key": "ABC-12"}), Reply(text="A crash on empty input.")],
    "Permissions": [_command("git push origin main"), Reply(text="Pushing is not allowed here.")],
    "Hooks": [_command("rm -rf build"), Reply(text="I may not delete files here.")],
    "Structured output": [Reply(text=REVIEW)],
    "Approvals that pause": [_command("./deploy.sh staging"), Reply(text="Deployed.")],
    "Resume and fork": [Reply(text="Two designs."), Reply(text="First it is."), Reply(text="Second it is.")],
    "Compacting": [
        *(Reply(text=f"{part} {LONG}") for part in ("parser-notes", "lexer-notes", "test-notes")),
        Reply(text=SUMMARY),
        Reply(text="Fix the lexer first."),
    ],
    "Code that is not async": [Reply(text="A summary of the README.")],
}


def _sections(text: str) -> list[tuple[str, str]]:
    """(heading, code) for every python block, under the `## ` heading it follows."""
    found: list[tuple[str, str]] = []
    for part in re.split(r"^## ", text, flags=re.MULTILINE)[1:]:
        heading = part.splitlines()[0].strip()
        found.extend((heading, code) for code in re.findall(r"```python\n(.*?)```", part, re.DOTALL))
    return found


EXAMPLES = _sections(DOCS.read_text())


def _tool_results(model: ScriptedModel) -> list[str]:
    return [m.content for r in model.requests for m in r.messages if isinstance(m, ToolResultMessage)]


def _user_texts(model: ScriptedModel) -> str:
    return "\n".join(m.content for r in model.requests for m in r.messages if isinstance(m, UserMessage))


def test_every_docs_example_has_a_script() -> None:
    headings = [heading for heading, _ in EXAMPLES]
    assert headings[0] == SETUP
    assert sorted(set(headings) - {SETUP} - SELF_CONTAINED) == sorted(SCRIPTS)
    assert len(headings) == len(set(headings))


# Each example in-process; those whose behaviour crosses the transport also over a `vtcode acp` child.
OVER_THE_CHILD = {"Stream events", "Hooks", "Approvals that pause"}
CASES = [(h, c, "in-process") for h, c in EXAMPLES[1:]] + [
    (h, c, "subprocess") for h, c in EXAMPLES[1:] if h in OVER_THE_CHILD
]


@pytest.mark.parametrize(("heading", "code", "transport"), CASES, ids=[f"{h}-{t}" for h, _, t in CASES])
def test_the_docs_example_runs(
    heading: str,
    code: str,
    transport: TransportName,
    *,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.chdir(tmp_path)
    setup: dict[str, Any] = {"__name__": "docs_setup"}
    exec(compile(EXAMPLES[0][1], f"{DOCS}:{SETUP}", "exec"), setup)
    assert isinstance(setup["options"], vt.Options)
    # A module of its own, so types the example defines resolve their annotations (msgspec needs it).
    module = types.ModuleType("docs_example")
    monkeypatch.setitem(sys.modules, module.__name__, module)
    namespace = module.__dict__
    namespace["vt"] = setup["vt"]
    model = ScriptedModel(SCRIPTS.get(heading, []))
    if heading not in SELF_CONTAINED:
        # The first example's options, pointed at the scripted model in a scratch workspace.
        namespace["options"] = dataclasses.replace(
            setup["options"],
            workspace=tmp_path,
            provider=None,
            model=None,
            model_client=model,
            transport=transport,
        )
    exec(compile(code, f"{DOCS}:{heading}", "exec"), namespace)
    printed = capsys.readouterr().out
    if heading in SELF_CONTAINED:
        return
    # The example used its whole script: every scripted reply was asked for.
    assert len(model.requests) == len(SCRIPTS[heading]), printed
    match heading:
        case "Run a turn":
            assert printed == "completed A coding agent. 10 None\n"
        case "Usage and cost":
            # A ScriptedModel has no list price: tokens are counted, the cost is unknown.
            assert printed == "5 None\nmain sdk_client 1 None\n"
        case "Stream events":
            assert printed == "It starts the app.\n[5 tokens out]\ncompleted\n"
        case "Steer and interrupt":
            assert "and say how long they took" in _user_texts(model)
            assert printed == "3 passed in 0.2 s\n"
        case "Tools as functions":
            assert _tool_results(model) == ["Crash on empty input"]
        case "Permissions":
            assert "no pushes from CI" in _tool_results(model)[0]
        case "Hooks":
            assert "deleting files is not allowed here" in _tool_results(model)[0]
        case "Structured output":
            assert printed == "request_changes ['no test for the empty case']\n"
        case "Approvals that pause":
            assert printed.splitlines() == ["paused ['./deploy.sh staging']", "Deployed."]
            assert "approved; it failed" in _user_texts(model)
        case "Resume and fork":
            assert printed == "First it is.\nSecond it is.\n"
            assert "go with the first design" not in str(model.requests[2].messages)
        case "Compacting":
            assert printed == "7 -> 5 messages\nFix the lexer first.\n"
            last = model.requests[-1].messages
            assert "the parser and the lexer are read" in str(
                [m for m in last if isinstance(m, SystemMessage)]
            )
            assert "parser-notes" not in str([m for m in last if isinstance(m, AssistantMessage)])
        case "Code that is not async":
            assert printed == "A summary of the README.\n"


def test_the_readme_sdk_section_has_only_the_example_its_own_test_runs() -> None:
    text = (ROOT / "README.md").read_text()
    section = text[text.index("## Python programs: `vtcode.sdk`") :]
    section = section[: section.index("\n## ", 1)]
    assert len(re.findall(r"```python\n", section)) == 1
    assert "docs/sdk.md" in section
