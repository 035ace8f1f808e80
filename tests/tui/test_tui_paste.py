"""Pasting in a real terminal (tmux, bracketed paste): the whole text is one paste, sent only on Enter."""

from __future__ import annotations

from pathlib import Path

from tests.tui.tmux_terminal import NEEDS_TMUX, terminal, vtcode_command, vtcode_env
from vtcode.testing.script import Reply
from vtcode.testing.wire import server_for
from vtcode.tui.paste_guard import PasteGuard

pytestmark = NEEDS_TMUX

# Terminal output copied with its colour codes; its line break must not press Enter.
_COLOURED = "build \x1b[31mFAILED\x1b[0m at step 3\nthen the rest of the log\n"


def test_pasted_text_with_colour_codes_stays_in_the_composer_until_enter(tmp_path: Path) -> None:
    clip = tmp_path / "clip.txt"
    clip.write_text(_COLOURED)
    with (
        server_for("chat", [Reply(text="looked at the log")]) as server,
        terminal(
            tmp_path,
            vtcode_command("--provider", "openai", "--model", "gpt-4.1"),
            vtcode_env(server.base_url),
        ) as term,
    ):
        term.wait_for(lambda: "ready" in term.screen(), "the prompt")
        term.tmux("load-buffer", str(clip))
        term.tmux("paste-buffer", "-p", "-t", "main")
        term.wait_for(lambda: "then the rest of the log" in term.screen(), "the pasted text")
        assert "build [31mFAILED[0m at step 3" in term.screen()
        assert server.requests == []
        term.tmux("send-keys", "-t", "main", "Enter")
        term.wait_for(lambda: "looked at the log" in term.screen(), "the answer")
    sent = [r.json()["messages"][-1]["content"] for r in server.requests]
    assert len(sent) == 1
    assert " ".join(sent[0].split()) == "build [31mFAILED[0m at step 3 then the rest of the log"


def test_a_closing_marker_cut_between_reads_still_ends_the_paste() -> None:
    guard = PasteGuard()
    assert guard.clean("\x1b[200~a\x1b[31mb\x1b[2") == "\x1b[200~a[31mb"
    assert guard.clean("01~\x1b") == "\x1b[201~\x1b"
    assert not guard.in_paste
