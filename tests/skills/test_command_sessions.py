"""Custom commands typed as `/name args` in a session: the user message the model receives."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import msgspec

from tests.runtime.session_helpers import Reader, options
from tests.skills.helpers import repo
from vtcode.config.schema import ProjectSettings
from vtcode.protocol.events import ApprovalRequested, Notice, TurnCompleted
from vtcode.protocol.ops import ApprovalAnswer, UserInput
from vtcode.runtime.session import Session
from vtcode.testing.script import Reply
from vtcode.testing.wire import server_for


async def _typed(root: Path, home: Path, text: str) -> tuple[str, Reader]:
    """The last user message of the first request after typing `text`, and the session's events."""
    with server_for("chat", [Reply(text="ok")]) as server:
        session = await Session.open(options(root, home, server))
        reader = Reader(session)
        await session.submit(UserInput(text))
        await reader.wait_for(TurnCompleted)
        await reader.close()
        body = server.requests[0].json()
    users = [m["content"] for m in body["messages"] if m["role"] == "user"]
    return users[-1], reader


async def test_claude_command_numbers_arguments_from_zero(tmp_path: Path) -> None:
    root = repo(tmp_path)
    (root / ".claude/commands").mkdir(parents=True)
    (root / ".claude/commands/fix.md").write_text("Fix $0 then $1")
    sent, _ = await _typed(root, tmp_path, '/fix 12 "a b"')
    assert sent == "Fix 12 then a b"


async def test_codex_prompt_numbers_from_one_and_keeps_double_dollar(tmp_path: Path) -> None:
    root = repo(tmp_path)
    (tmp_path / ".codex/prompts").mkdir(parents=True)
    (tmp_path / ".codex/prompts/r.md").write_text("Review $1, cost $$5")
    sent, _ = await _typed(root, tmp_path, "/r x")
    assert sent == "Review x, cost $$5"


async def test_no_placeholder_appends_and_a_builtin_name_is_ignored(tmp_path: Path) -> None:
    root = repo(tmp_path)
    (root / ".vtcode/commands").mkdir(parents=True)
    (root / ".vtcode/commands/tidy.md").write_text("Tidy the code.")
    (root / ".vtcode/commands/compact.md").write_text("Pretend to compact.")
    sent, reader = await _typed(root, tmp_path, "/tidy src/app.py")
    assert sent == "Tidy the code.\n\nARGUMENTS: src/app.py"
    notes = [n.message for n in reader.of(Notice)]
    assert any(n.startswith("command /compact (") and "a built-in command has that name" in n for n in notes)


async def test_at_path_includes_a_workspace_file(tmp_path: Path) -> None:
    root = repo(tmp_path)
    (root / "spec.md").write_text("The spec says 42.\n")
    (root / ".claude/commands").mkdir(parents=True)
    (root / ".claude/commands/check.md").write_text("Check against @spec.md and @missing.md")
    sent, _ = await _typed(root, tmp_path, "/check")
    assert sent == 'Check against <file path="spec.md">\nThe spec says 42.\n\n</file> and @missing.md'


async def test_unknown_slash_text_goes_to_the_model_unchanged(tmp_path: Path) -> None:
    root = repo(tmp_path)
    sent, _ = await _typed(root, tmp_path, "/etc/hosts is broken")
    assert sent == "/etc/hosts is broken"


async def test_gemini_shell_block_quotes_arguments_and_waits_for_approval(tmp_path: Path) -> None:
    root = repo(tmp_path)
    (root / "notes.txt").write_text("it's here\nnot this\n")
    (root / ".gemini/commands/git").mkdir(parents=True)
    (root / ".gemini/commands/git/commit.toml").write_text('prompt = "Found:\\n!{grep {{args}} notes.txt}"\n')
    with server_for("chat", [Reply(text="ok")]) as server:
        opts = options(root, tmp_path, server, approval="ask", headless=False)
        projects = {str(root): ProjectSettings(trust_mcp=True)}
        opts = dataclasses.replace(opts, settings=msgspec.structs.replace(opts.settings, projects=projects))
        session = await Session.open(opts)
        reader = Reader(session)
        await session.submit(UserInput("/git:commit it's"))
        asked = await reader.wait_for(ApprovalRequested)
        await session.submit(ApprovalAnswer(request_id=asked.request_id, decision="allow_once"))
        await reader.wait_for(TurnCompleted)
        await reader.close()
        body = server.requests[0].json()
    assert asked.display == "grep 'it'\"'\"'s' notes.txt"
    sent = [m["content"] for m in body["messages"] if m["role"] == "user"][-1]
    assert sent.startswith("Found:\n")
    assert "it's here" in sent
    assert "not this" not in sent


async def test_a_shell_block_is_replaced_by_the_command_output_as_text(tmp_path: Path) -> None:
    root = repo(tmp_path)
    (root / ".claude/commands").mkdir(parents=True)
    (root / ".claude/commands/st.md").write_text(
        "Status:\n!`printf 'M a.py\\n?? b.py\\n'`\nLint: !`sh -c 'echo 2 errors; exit 3'`\n"
    )
    with server_for("chat", [Reply(text="ok")]) as server:
        opts = options(root, tmp_path, server, approval="full-auto")
        projects = {str(root): ProjectSettings(trust_mcp=True)}
        opts = dataclasses.replace(opts, settings=msgspec.structs.replace(opts.settings, projects=projects))
        session = await Session.open(opts)
        reader = Reader(session)
        await session.submit(UserInput("/st"))
        await reader.wait_for(TurnCompleted)
        await reader.close()
        body = server.requests[0].json()
    sent = [m["content"] for m in body["messages"] if m["role"] == "user"][-1]
    assert sent == "Status:\nM a.py\n?? b.py\nLint: 2 errors\n[exit code 3]\n"
