"""Skills with `paths` globs load themselves when the session reads, writes or edits a matching file:
what the model's requests carry, checked at the loopback server."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

from tests.runtime.session_helpers import Reader, options
from tests.skills.helpers import repo, run_turns, trusted, write_skill
from vtcode.core.definitions.model import load_skill
from vtcode.core.definitions.path_scope import path_scopes
from vtcode.protocol.events import Notice, TurnCompleted
from vtcode.protocol.ops import UserInput
from vtcode.runtime.session import Session
from vtcode.testing.script import Reply, ScriptToolCall
from vtcode.testing.wire import server_for

MARKER = '<skill_content name="py-style">'


def _read(path: str, id: str) -> ScriptToolCall:
    return ScriptToolCall("read_file", json.dumps({"path": path}), id=id)


def _sent(body: dict[str, Any]) -> str:
    """The text of every message but the system prompt: what the conversation carries."""
    return "\n".join(str(m.get("content")) for m in body["messages"] if m["role"] != "system")


def _project(tmp_path: Path) -> Path:
    root = repo(tmp_path)
    write_skill(
        root / ".agents/skills", "py-style", "Python house style.", "Indent with four spaces.\n",
        paths='"src/**/*.py"',
    )  # fmt: skip
    (root / "src/pkg").mkdir(parents=True)
    (root / "src/pkg/a.py").write_text("x = 1\n")
    (root / "src/pkg/b.py").write_text("y = 2\n")
    (root / "notes.txt").write_text("notes\n")
    return root


async def test_reading_a_matching_file_puts_the_skill_body_in_the_next_request(tmp_path: Path) -> None:
    root = _project(tmp_path)
    script = [
        Reply(tool_calls=(_read("notes.txt", "r1"),)),
        Reply(text="read the notes"),
        Reply(tool_calls=(_read("src/pkg/a.py", "r2"),)),
        Reply(tool_calls=(_read("src/pkg/b.py", "r3"),)),
        Reply(text="read the code"),
    ]
    with server_for("chat", script) as server:
        reader = await run_turns(options(root, tmp_path, server), "look at the notes", "look at the code")
        bodies = [r.json() for r in server.requests]
    after_notes, _, after_a, after_b = bodies[1], bodies[2], bodies[3], bodies[4]
    assert MARKER not in _sent(after_notes)
    assert "Indent with four spaces." not in _sent(after_notes)
    # After the matching read: the body, as the `skill` tool returns it, after the tool result.
    messages = after_a["messages"]
    tool_at = next(i for i, m in enumerate(messages) if m["role"] == "tool" and "x = 1" in m["content"])
    injected = messages[tool_at + 1]
    assert injected["role"] == "user"
    assert injected["content"].startswith(f"{MARKER}\nIndent with four spaces.")
    assert f"Skill folder: {root / '.agents/skills/py-style'}" in injected["content"]
    # Once per session: the next matching read adds nothing.
    assert _sent(after_b).count(MARKER) == 1
    notes = [n.message for n in reader.of(Notice)]
    assert "skill py-style loaded: src/pkg/a.py matches its paths" in notes


async def test_a_skill_the_model_loaded_is_not_loaded_again_by_a_matching_path(tmp_path: Path) -> None:
    root = _project(tmp_path)
    load = ScriptToolCall("skill", json.dumps({"name": "py-style"}), id="s1")
    script = [
        Reply(tool_calls=(load,)),
        Reply(tool_calls=(_read("src/pkg/a.py", "r1"),)),
        Reply(text="done"),
    ]
    with server_for("chat", script) as server:
        await run_turns(options(root, tmp_path, server), "style first")
        last = server.requests[-1].json()
    assert _sent(last).count(MARKER) == 1


async def test_writing_a_matching_file_loads_the_skill(tmp_path: Path) -> None:
    root = _project(tmp_path)
    write = ScriptToolCall(
        "write_file", json.dumps({"path": "src/pkg/new.py", "content": "z = 3\n"}), id="w1"
    )
    script = [Reply(tool_calls=(write,)), Reply(text="written")]
    with server_for("chat", script) as server:
        await run_turns(options(root, tmp_path, server, approval="full-auto"), "write it")
        last = server.requests[-1].json()
    assert (root / "src/pkg/new.py").read_text() == "z = 3\n"
    assert _sent(last).count(MARKER) == 1


async def test_editing_a_matching_file_with_a_patch_loads_the_skill(tmp_path: Path) -> None:
    root = _project(tmp_path)
    patch = "*** Begin Patch\n*** Update File: src/pkg/a.py\n@@\n-x = 1\n+x = 10\n*** End Patch\n"
    edit = ScriptToolCall("apply_patch", json.dumps({"patch": patch}), id="p1")
    script = [Reply(tool_calls=(edit,)), Reply(text="patched")]
    with server_for("chat", script) as server:
        await run_turns(options(root, tmp_path, server, approval="full-auto"), "patch it")
        last = server.requests[-1].json()
    assert (root / "src/pkg/a.py").read_text() == "x = 10\n"
    assert _sent(last).count(MARKER) == 1


async def test_a_path_scoped_skill_in_an_untrusted_workspace_loads_as_text_and_its_hooks_stay_inert(
    tmp_path: Path,
) -> None:
    root = _project(tmp_path)
    marker = tmp_path / "hook-ran"
    script = _guard_skill(root, marker, "Be careful with the shell. Who: !`id`")
    with server_for("chat", script) as server:
        reader = await run_turns(options(root, tmp_path, server, approval="full-auto"), "check a.py")
        after_read = server.requests[1].json()
    assert "Be careful with the shell. Who: !`id`" in _sent(after_read)  # shown as written, not run
    assert not marker.exists()
    notes = [n.message for n in reader.of(Notice)]
    assert "/guard: its frontmatter hooks do nothing (this workspace is not trusted)" in notes


async def test_a_path_scoped_skill_in_a_trusted_workspace_starts_its_hooks(tmp_path: Path) -> None:
    root = _project(tmp_path)
    marker = tmp_path / "hook-ran"
    script = _guard_skill(root, marker, "Be careful with the shell.")
    with server_for("chat", script) as server:
        await run_turns(trusted(options(root, tmp_path, server, approval="full-auto"), root), "check a.py")
    assert marker.read_text() == "ran\n"


async def test_a_resumed_session_does_not_load_a_skill_its_history_carries(tmp_path: Path) -> None:
    root = _project(tmp_path)
    script = [
        Reply(tool_calls=(_read("src/pkg/a.py", "r1"),)),
        Reply(text="first"),
        Reply(tool_calls=(_read("src/pkg/b.py", "r2"),)),
        Reply(text="second"),
    ]
    with server_for("chat", script) as server:
        opts = options(root, tmp_path, server)
        session = await Session.open(opts)
        reader = Reader(session)
        await session.submit(UserInput("look at a"))
        await reader.wait_for(TurnCompleted)
        await reader.close()
        await run_turns(dataclasses.replace(opts, resume=session.id), "look at b")
        last = server.requests[-1].json()
    assert "y = 2" in _sent(last)
    assert _sent(last).count(MARKER) == 1


def _skill(paths: str, **extra: str) -> Any:
    lines = "".join(f"{k}: {v}\n" for k, v in extra.items())
    text = f"---\nname: s\ndescription: D.\npaths: {paths}\n{lines}---\nB\n"
    loaded = load_skill(
        text, path="/x/s/SKILL.md", folder="/x/s", folder_name="s", scope="project", source=".agents/skills"
    )
    assert loaded.definition is not None
    return loaded.definition


def test_paths_read_like_rule_globs_braces_and_bare_file_names() -> None:
    scope = path_scopes([_skill("web/*.{ts,tsx}, Makefile")]).scopes[0]
    assert scope.first_match(["web/app.tsx"]) == "web/app.tsx"
    assert scope.first_match(["web/app.ts"]) == "web/app.ts"
    assert scope.first_match(["web/deep/app.ts", "README.md"]) is None
    assert scope.first_match(["tools/Makefile"]) == "tools/Makefile"  # no `/`: the name at any depth


def test_a_skill_hidden_from_the_model_or_with_a_broken_pattern_is_not_path_scoped() -> None:
    hidden = _skill("'**/*.py'", **{"disable-model-invocation": "true"})
    found = path_scopes([hidden, _skill("src/**.py")])
    assert found.scopes == ()
    assert found.problems == (
        "/x/s/SKILL.md: paths: `**` must be a whole path component in 'src/**.py' (ignored)",
    )


def _guard_skill(root: Path, marker: Path, body: str) -> list[Reply]:
    """A path-scoped skill `guard` whose PreToolUse hook appends to `marker`; the script reads a match."""
    skill = root / ".agents/skills/guard/SKILL.md"
    skill.parent.mkdir(parents=True)
    skill.write_text(
        "---\nname: guard\ndescription: Guards the shell.\npaths: src/**\nhooks:\n  PreToolUse:\n"
        "    - matcher: Bash\n      hooks:\n        - type: command\n"
        f"          command: {json.dumps(f'echo ran >> {marker}')}\n"
        f"---\n{body}\n",
        encoding="utf-8",
    )
    shell = ScriptToolCall("exec_command", json.dumps({"cmd": "true"}), id="c1")
    return [Reply(tool_calls=(_read("src/pkg/a.py", "r1"),)), Reply(tool_calls=(shell,)), Reply(text="ok")]


async def test_a_subagent_reading_a_matching_file_gets_the_skill_in_its_own_next_request(
    tmp_path: Path,
) -> None:
    root = _project(tmp_path)
    brief = {"subagent_type": "explore", "description": "look", "prompt": "read the package"}
    script = [
        Reply(tool_calls=(_read("src/pkg/a.py", "p1"),)),  # the parent loads the skill itself
        Reply(tool_calls=(ScriptToolCall("task", json.dumps(brief), id="t1"),)),
        Reply(tool_calls=(_read("src/pkg/b.py", "c1"),)),  # the child: a matching read
        Reply(tool_calls=(_read("src/pkg/a.py", "c2"),)),
        Reply(text="child: read both"),
        Reply(text="parent: done"),
    ]
    with server_for("chat", script) as server:
        await run_turns(options(root, tmp_path, server), "read and delegate")
        bodies = [r.json() for r in server.requests]
    child_first, child_after_b, child_after_a, parent_last = bodies[2], bodies[3], bodies[4], bodies[5]
    assert "read the package" in _sent(child_first)
    assert MARKER not in _sent(child_first)  # the parent's activation is not the child's conversation
    messages = child_after_b["messages"]
    tool_at = next(i for i, m in enumerate(messages) if m["role"] == "tool" and "y = 2" in m["content"])
    assert messages[tool_at + 1]["content"].startswith(f"{MARKER}\nIndent with four spaces.")
    assert _sent(child_after_a).count(MARKER) == 1  # once per (child) session
    assert _sent(parent_last).count(MARKER) == 1  # the parent's own, loaded before the task
