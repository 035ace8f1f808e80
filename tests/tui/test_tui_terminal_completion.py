"""The `/` menu, `/ help` and `@path` completion in a real terminal (tmux), as a person types them."""

from __future__ import annotations

from pathlib import Path

from tests.tui.tmux_terminal import NEEDS_TMUX, Terminal, terminal, vtcode_command, vtcode_env
from vtcode.testing.script import Reply
from vtcode.testing.wire import server_for

pytestmark = NEEDS_TMUX


def _type(term: Terminal, *keys: str) -> None:
    for key in keys:
        if key in ("Enter", "Tab", "Escape", "C-u"):
            term.tmux("send-keys", "-t", "main", key)
        else:
            term.tmux("send-keys", "-t", "main", "-l", key)


def _help_shown(screen: str) -> bool:
    # The view may open scrolled anywhere on a small screen: any of its parts says it is there.
    return any(part in screen for part in ("vtcode help", "Alt+Enter, Ctrl+S", "/resume    reopen"))


def test_the_slash_menu_help_and_quoted_paths_in_a_real_terminal(tmp_path: Path, isolated_home: Path) -> None:
    (tmp_path / ".git").mkdir()
    (tmp_path / ".claude/commands/git").mkdir(parents=True)
    (tmp_path / ".claude/commands/git/commit.md").write_text(
        "---\nargument-hint: [message]\ndescription: Create a git commit\n---\nCommit: $ARGUMENTS\n"
    )
    (tmp_path / "my notes").mkdir()
    (tmp_path / "my notes/todo list.md").write_text("buy milk\n")
    with (
        server_for("chat", [Reply(text="read your notes")]) as server,
        terminal(
            tmp_path,
            vtcode_command("--provider", "openai", "--model", "gpt-4.1"),
            vtcode_env(server.base_url),
        ) as term,
    ):
        term.wait_for(lambda: "ready" in term.screen(), "the prompt")
        _type(term, "/")
        term.wait_for(lambda: "keys and commands" in term.screen(), "the / menu")
        _type(term, "git")
        term.wait_for(lambda: "/git:commit [message]" in term.screen(), "the command with its hint")
        assert "Create a git commit" in term.screen()
        _type(term, "C-u")
        term.wait_for(lambda: "Create a git commit" not in term.screen(), "the menu closing")
        _type(term, "/ help", "Enter")
        term.wait_for(lambda: _help_shown(term.screen()), "the help view")
        assert "unknown command" not in term.screen()
        # Esc alone (a key right after it would read as Alt+key): the view closes before typing goes on.
        _type(term, "Escape")
        term.wait_for(lambda: not _help_shown(term.screen()), "the help view closing")
        _type(term, "summarize @my", "Tab")
        term.wait_for(lambda: '@"my notes/' in term.screen(), "the folder, quoted")
        _type(term, "to", "Tab")
        term.wait_for(lambda: '@"my notes/todo list.md"' in term.screen(), "the file, quoted")
        _type(term, "Enter")
        term.wait_for(lambda: "read your notes" in term.screen(), "the answer")
        assert "attached: my notes/todo list.md" in term.screen()
    messages = server.requests[0].json()["messages"]
    assert messages[-2]["content"].endswith('<file path="my notes/todo list.md">\nbuy milk\n</file>')
