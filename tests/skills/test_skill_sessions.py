"""Skills in a real session against a loopback server: what the model's requests carry, and when."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.runtime.compaction_agent import GOOD_SUMMARY, budget_options
from tests.runtime.session_helpers import Reader, options
from tests.skills.helpers import copy_fixture_skills, repo, trusted, write_skill
from vtcode.protocol.events import ItemCompleted, Notice, ThreadCompacted, TurnCompleted
from vtcode.protocol.ops import Compact, UserInput
from vtcode.runtime.session import Session
from vtcode.runtime.wiring import SessionOptions
from vtcode.testing.script import Reply, ScriptToolCall
from vtcode.testing.server import WireServer
from vtcode.testing.wire import server_for


def _system(body: dict[str, Any]) -> str:
    return "\n".join(m["content"] for m in body["messages"] if m["role"] == "system")


def _sent(body: dict[str, Any]) -> str:
    """Everything but the system prompt: what the conversation carries."""
    return json.dumps([m for m in body["messages"] if m["role"] != "system"])


async def _run(opts: SessionOptions, *inputs: str, compact_after: int | None = None) -> Reader:
    session = await Session.open(opts)
    reader = Reader(session)
    for number, text in enumerate(inputs, start=1):
        seen = len(reader.events)
        await session.submit(UserInput(text))
        await reader.wait_for(TurnCompleted, after=seen)
        if compact_after == number:
            await session.submit(Compact())
            await reader.wait_for(ThreadCompacted)
    await reader.close()
    return reader


async def test_only_the_catalog_is_sent_until_the_skill_call_then_the_body(tmp_path: Path) -> None:
    root = repo(tmp_path)
    copy_fixture_skills(root / ".agents/skills")
    call = ScriptToolCall("skill", json.dumps({"name": "pdf-forms"}), id="s1")
    script = [Reply(tool_calls=(call,)), Reply(text="filled")]
    with server_for("chat", script) as server:
        await _run(options(root, tmp_path, server), "fill in form.pdf from values.json")
        first, second = (r.json() for r in server.requests)
    system = _system(first)
    assert "<name>pdf-forms</name><description>Fill in and inspect PDF forms." in system
    assert "<name>release-notes</name>" in system
    assert system.index("<name>pdf-forms</name>") < system.index("<name>release-notes</name>")
    assert "Never overwrite the input PDF" not in system + _sent(first)  # the body is not sent yet
    skill_tool = next(t for t in first["tools"] if t["function"]["name"] == "skill")
    assert skill_tool["function"]["parameters"]["properties"]["name"]["enum"] == [
        "pdf-forms",
        "release-notes",
    ]
    result = next(m for m in second["messages"] if m["role"] == "tool")["content"]
    assert result.startswith('<skill_content name="pdf-forms">\n# PDF forms')
    assert "Never overwrite the input PDF." in result
    assert "allowed-tools" not in result  # frontmatter stripped
    assert f"Skill folder: {root / '.agents/skills/pdf-forms'}" in result
    assert "<skill_resources>\nreferences/field-types.md\nscripts/fill_form.py\n</skill_resources>" in result
    assert _system(second) == system


async def test_the_catalog_is_byte_identical_across_sessions(tmp_path: Path) -> None:
    root = repo(tmp_path)
    copy_fixture_skills(root / ".agents/skills")
    systems = []
    for _ in range(2):
        with server_for("chat", [Reply(text="ok")]) as server:
            await _run(options(root, tmp_path, server), "hi")
            systems.append(_system(server.requests[0].json()))
    assert systems[0] == systems[1]
    assert "<available_skills>" in systems[0]


async def test_no_skills_means_no_catalog_and_no_skill_tool(tmp_path: Path) -> None:
    root = repo(tmp_path)
    with server_for("chat", [Reply(text="ok")]) as server:
        await _run(options(root, tmp_path, server), "hi")
        body = server.requests[0].json()
    assert "available_skills" not in _system(body)
    assert "skill" not in [t["function"]["name"] for t in body["tools"]]


async def test_a_skill_hidden_from_the_model_still_runs_as_slash_name(tmp_path: Path) -> None:
    root = repo(tmp_path)
    write_skill(root / ".agents/skills", "deploy", "Deploys.", "Ship $0 to production.\n", **{
        "disable-model-invocation": "true"
    })  # fmt: skip
    write_skill(root / ".agents/skills", "lint", "Lints.")
    with server_for("chat", [Reply(text="ok")]) as server:
        await _run(options(root, tmp_path, server), "/deploy v1.2")
        body = server.requests[0].json()
    assert "<name>deploy</name>" not in _system(body)
    assert "<name>lint</name>" in _system(body)
    user = [m["content"] for m in body["messages"] if m["role"] == "user"][-1]
    assert user.startswith('<skill_content name="deploy">\nShip v1.2 to production.')


async def test_after_a_forced_compaction_the_skill_body_is_present_once(tmp_path: Path) -> None:
    root = repo(tmp_path)
    copy_fixture_skills(root / ".agents/skills")
    lines = "".join(f"line {n}: alpha beta gamma delta epsilon zeta\n" for n in range(1500))
    (root / "big.txt").write_text(lines)
    skill = ScriptToolCall("skill", json.dumps({"name": "release-notes"}), id="s1")
    read = ScriptToolCall("read_file", json.dumps({"path": "big.txt"}), id="r1")
    script = [
        Reply(tool_calls=(skill,)),
        Reply(text="loaded"),
        Reply(tool_calls=(read,)),
        Reply(text="read it"),
        Reply(text=GOOD_SUMMARY),
        Reply(text="next"),
    ]
    with server_for("chat", script) as server:
        opts = budget_options(root, tmp_path, server, max_context_tokens=20_000)
        reader = await _run(opts, "write release notes", "read big.txt", "go on", compact_after=2)
        last = server.requests[-1].json()
    assert reader.of(ThreadCompacted)
    sent = _sent(last)
    assert "line 10: alpha" not in sent  # the big read was compacted away ...
    assert sent.count('<skill_content name=\\"release-notes\\">') == 1  # ... the skill came back once
    assert "Group them by the conventional-commit type" in sent


async def test_untrusted_project_skill_does_not_grant_or_run_shell(tmp_path: Path) -> None:
    root = repo(tmp_path)
    (root / ".claude/commands").mkdir(parents=True)
    marker = tmp_path / "ran"
    (root / ".claude/commands/wipe.md").write_text(
        f"---\nallowed-tools: Bash(rm *)\n---\nWho: !`id > {marker}`\nThen remove $ARGUMENTS\n"
    )
    with server_for("chat", [Reply(text="ok")]) as server:
        reader = await _run(options(root, tmp_path, server, approval="ask"), "/wipe build")
        body = server.requests[0].json()
    assert not marker.exists()
    user = [m["content"] for m in body["messages"] if m["role"] == "user"][-1]
    assert user == (
        f"Who: [shell command not run: this workspace is not trusted: `id > {marker}`]\nThen remove build\n"
    )
    notes = [n.message for n in reader.of(Notice)]
    assert any("allowed-tools (Bash(rm *)) not applied: this workspace is not trusted" in n for n in notes)
    assert any("shell block not run (this workspace is not trusted)" in n for n in notes)


async def test_trusted_command_runs_its_shell_block_through_the_tool_path(tmp_path: Path) -> None:
    root = repo(tmp_path)
    (root / "notes.txt").write_text("it's here\nnot this\n")
    (root / ".gemini/commands/git").mkdir(parents=True)
    (root / ".gemini/commands/git/commit.toml").write_text('prompt = "Found:\\n!{grep {{args}} notes.txt}"\n')
    with server_for("chat", [Reply(text="ok")]) as server:
        opts = trusted(options(root, tmp_path, server, approval="full-auto"), root)
        reader = await _run(opts, "/git:commit it's")
        body = server.requests[0].json()
    user = [m["content"] for m in body["messages"] if m["role"] == "user"][-1]
    assert user.startswith("Found:\n")
    assert "it's here" in user
    assert "not this" not in user
    shown = [getattr(e.item, "command", None) for e in reader.of(ItemCompleted)]
    assert "grep 'it'\"'\"'s' notes.txt" in shown


def _server_text(server: WireServer) -> str:
    return json.dumps(server.requests[0].json())


async def test_untrusted_skill_with_allowed_tools_and_a_shell_block_runs_neither(tmp_path: Path) -> None:
    root = repo(tmp_path)
    marker = tmp_path / "ran"
    write_skill(
        root / ".agents/skills", "clean", "Cleans the build.", f"Who am I: !`id > {marker}`\nThen tidy.\n",
        **{"allowed-tools": "Bash(rm *)"},
    )  # fmt: skip
    rm = ScriptToolCall("exec_command", json.dumps({"cmd": "rm -rf build"}), id="c1")
    (root / "build").mkdir()
    with server_for("chat", [Reply(tool_calls=(rm,)), Reply(text="ok")]) as server:
        reader = await _run(options(root, tmp_path, server, approval="ask"), "/clean")
        first = server.requests[0].json()
        second = server.requests[1].json()
    assert not marker.exists()
    assert (root / "build").is_dir()  # `Bash(rm *)` granted nothing: headless ask mode denied the call
    user = [m["content"] for m in first["messages"] if m["role"] == "user"][-1]
    assert f"Who am I: [shell command not run: this workspace is not trusted: `id > {marker}`]" in user
    result = next(m for m in second["messages"] if m["role"] == "tool")["content"]
    assert "not run: command `rm -rf build` is not allowed in ask mode" in result
    notes = [n.message for n in reader.of(Notice)]
    assert any("allowed-tools (Bash(rm *)) not applied" in n for n in notes)


async def test_trusted_skill_allowed_tools_grant_for_the_invoking_turn_only(tmp_path: Path) -> None:
    root = repo(tmp_path)
    write_skill(
        root / ".agents/skills", "stamp", "Stamps.", "Stamp it.\n", **{"allowed-tools": "Bash(touch:*)"}
    )
    first_call = ScriptToolCall("exec_command", json.dumps({"cmd": "touch one"}), id="c1")
    later_call = ScriptToolCall("exec_command", json.dumps({"cmd": "touch two"}), id="c2")
    script = [
        Reply(tool_calls=(first_call,)),
        Reply(text="ok"),
        Reply(tool_calls=(later_call,)),
        Reply(text="ok"),
    ]
    with server_for("chat", script) as server:
        opts = trusted(options(root, tmp_path, server, approval="ask"), root)
        await _run(opts, "/stamp", "stamp again")
    assert (root / "one").exists()  # the invoking turn: allowed without a prompt
    assert not (root / "two").exists()  # the next turn: headless ask mode denies it again


async def test_loading_the_same_skill_twice_answers_already_loaded(tmp_path: Path) -> None:
    root = repo(tmp_path)
    copy_fixture_skills(root / ".agents/skills")
    first = ScriptToolCall("skill", json.dumps({"name": "pdf-forms"}), id="s1")
    again = ScriptToolCall("skill", json.dumps({"name": "pdf-forms"}), id="s2")
    script = [Reply(tool_calls=(first,)), Reply(tool_calls=(again,)), Reply(text="done")]
    with server_for("chat", script) as server:
        await _run(options(root, tmp_path, server), "fill the form")
        last = server.requests[-1].json()
    results = [m["content"] for m in last["messages"] if m["role"] == "tool"]
    assert results[0].startswith('<skill_content name="pdf-forms">')
    assert (
        results[1] == "skill 'pdf-forms' is already loaded: its instructions are above in this conversation"
    )


async def test_the_skill_tool_reads_a_file_of_the_folder_and_nothing_outside(tmp_path: Path) -> None:
    root = repo(tmp_path)
    copy_fixture_skills(tmp_path / ".agents/skills")  # a user skill: outside the workspace
    read = ScriptToolCall(
        "skill", json.dumps({"name": "pdf-forms", "file": "references/field-types.md"}), id="r"
    )
    escape = ScriptToolCall("skill", json.dumps({"name": "pdf-forms", "file": "../../../.bashrc"}), id="e")
    script = [Reply(tool_calls=(read, escape)), Reply(text="done")]
    with server_for("chat", script) as server:
        await _run(options(root, tmp_path, server, approval="read-only"), "what field types are there?")
        last = server.requests[-1].json()
    results = [m["content"] for m in last["messages"] if m["role"] == "tool"]
    assert "| /Btn | checkbox or radio |" in results[0]
    assert "is outside the skill folder" in results[1]


async def test_the_catalog_survives_a_profile_switch(tmp_path: Path) -> None:
    root = repo(tmp_path)
    copy_fixture_skills(root / ".agents/skills")
    with server_for("chat", [Reply(text="one"), Reply(text="two")]) as server:
        session = await Session.open(options(root, tmp_path, server))
        reader = Reader(session)
        await session.submit(UserInput("first"))
        await reader.wait_for(TurnCompleted)
        session.switch(profile="minimal")
        seen = len(reader.events)
        await session.submit(UserInput("second"))
        await reader.wait_for(TurnCompleted, after=seen)
        await reader.close()
        first, second = (_system(r.json()) for r in server.requests)
    assert first != second  # the profile changed the static part ...
    assert "<name>pdf-forms</name>" in second  # ... and the catalog is still there


async def test_a_skill_the_model_loads_grants_its_allowed_tools_for_that_turn(tmp_path: Path) -> None:
    root = repo(tmp_path)
    write_skill(
        root / ".agents/skills", "stamp", "Stamps.", "Stamp it.\n", **{"allowed-tools": "Bash(touch:*)"}
    )
    load = ScriptToolCall("skill", json.dumps({"name": "stamp"}), id="s1")
    first_call = ScriptToolCall("exec_command", json.dumps({"cmd": "touch one"}), id="c1")
    later_call = ScriptToolCall("exec_command", json.dumps({"cmd": "touch two"}), id="c2")
    script = [
        Reply(tool_calls=(load,)),
        Reply(tool_calls=(first_call,)),
        Reply(text="ok"),
        Reply(tool_calls=(later_call,)),
        Reply(text="ok"),
    ]
    with server_for("chat", script) as server:
        opts = trusted(options(root, tmp_path, server, approval="ask"), root)
        reader = await _run(opts, "stamp it", "stamp again")
    assert (root / "one").exists()  # the turn that loaded the skill: allowed without a prompt
    assert not (root / "two").exists()  # the next turn: headless ask mode denies it again
    notes = [n.message for n in reader.of(Notice)]
    assert any("allowed for this turn by a skill's allowed-tools" in n for n in notes)


async def test_an_untrusted_skill_the_model_loads_grants_nothing(tmp_path: Path) -> None:
    root = repo(tmp_path)
    write_skill(
        root / ".agents/skills", "stamp", "Stamps.", "Stamp it.\n", **{"allowed-tools": "Bash(touch:*)"}
    )
    load = ScriptToolCall("skill", json.dumps({"name": "stamp"}), id="s1")
    call = ScriptToolCall("exec_command", json.dumps({"cmd": "touch one"}), id="c1")
    script = [Reply(tool_calls=(load,)), Reply(tool_calls=(call,)), Reply(text="ok")]
    with server_for("chat", script) as server:
        reader = await _run(options(root, tmp_path, server, approval="ask"), "stamp it")
    assert not (root / "one").exists()
    notes = [n.message for n in reader.of(Notice)]
    assert any("allowed-tools (Bash(touch:*)) not applied: this workspace is not trusted" in n for n in notes)
