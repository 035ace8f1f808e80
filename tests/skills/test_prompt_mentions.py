"""`@path` in a prompt (`vtcode exec`, as in the TUI) attaches the workspace file it names, bounded."""

from __future__ import annotations

import os
from pathlib import Path

from tests.conftest import VtcodeRunner
from tests.skills.helpers import repo, write_skill
from vtcode.runtime.file_mentions import FILE_MAX_BYTES
from vtcode.testing.script import Reply
from vtcode.testing.wire import cli_env, server_for


def _exec(vtcode: VtcodeRunner, root: Path, prompt: str) -> tuple[list[dict[str, str]], str]:
    with server_for("chat", [Reply(text="done")]) as server:
        result = vtcode.run("exec", "--provider", "openai", prompt, cwd=root, env=cli_env("chat", server))
        messages = server.requests[0].json()["messages"]
    assert result.code == 0, result.stderr
    return messages, result.stderr


def test_a_mentioned_file_and_folder_reach_the_model_with_the_prompt(
    vtcode: VtcodeRunner, tmp_path: Path
) -> None:
    root = repo(tmp_path)
    (root / "src").mkdir()
    (root / "src/app.py").write_text("print('hi')\n")
    (root / "my notes").mkdir()
    (root / "my notes/plan b.md").write_text("step one\n")
    (root / "logo.bin").write_bytes(b"\x00\x01\x02")
    (tmp_path / "outside.txt").write_text("not yours")
    prompt = 'fix @src/app.py, see @"my notes/plan b.md" and @src; not @logo.bin @../outside.txt @gone.py'
    messages, stderr = _exec(vtcode, root, prompt)
    assert messages[-1] == {"role": "user", "content": prompt}
    assert messages[-2]["content"] == (
        "Files the user mentioned with @ (their contents as of this prompt):\n"
        "<file path=\"src/app.py\">\nprint('hi')\n</file>\n"
        '<file path="my notes/plan b.md">\nstep one\n</file>\n'
        '<directory path="src">\napp.py\n</directory>'
    )
    assert "attached: src/app.py, my notes/plan b.md, src/" in stderr
    assert "not attached: logo.bin is not text" in stderr
    assert "not yours" not in str(messages)


def test_a_big_mentioned_file_is_cut_with_a_note(vtcode: VtcodeRunner, tmp_path: Path) -> None:
    root = repo(tmp_path)
    (root / "big.log").write_text("line\n" * 20_000)
    messages, _ = _exec(vtcode, root, "why does @big.log fail")
    attachment = messages[-2]["content"]
    assert f"[cut: {FILE_MAX_BYTES:,} of 100,000 bytes shown; read_file reads the rest]" in attachment
    assert len(attachment) < FILE_MAX_BYTES + 500


def test_exec_says_a_mentioned_image_goes_with_dash_i(vtcode: VtcodeRunner, tmp_path: Path) -> None:
    root = repo(tmp_path)
    (root / "shot.png").write_bytes(b"\x89PNG\r\n\x1a\n" + b"\x00" * 32)
    messages, stderr = _exec(vtcode, root, "what is in @shot.png")
    assert messages[-1]["content"] == "what is in @shot.png"
    assert "not attached: shot.png is an image (`-i shot.png` attaches it)" in stderr


def test_a_mentioned_fifo_is_not_read(vtcode: VtcodeRunner, tmp_path: Path) -> None:
    root = repo(tmp_path)
    os.mkfifo(root / "pipe")  # nothing ever writes to it: reading it would wait for ever
    messages, stderr = _exec(vtcode, root, "what is @pipe")
    assert messages[-1]["content"] == "what is @pipe"
    assert "attached" not in stderr


def test_an_email_address_or_a_plain_prompt_attaches_nothing(vtcode: VtcodeRunner, tmp_path: Path) -> None:
    root = repo(tmp_path)
    (root / "b.com").write_text("a file named like a domain")
    messages, stderr = _exec(vtcode, root, "mail a@b.com about it")
    assert messages[-1]["content"] == "mail a@b.com about it"
    assert "a file named like a domain" not in str(messages)
    assert "attached" not in stderr


def test_a_mentioned_file_brings_the_instructions_of_its_folder(vtcode: VtcodeRunner, tmp_path: Path) -> None:
    root = repo(tmp_path)
    (root / "src").mkdir()
    (root / "src/app.py").write_text("x = 1\n")
    (root / "src/AGENTS.md").write_text("Use tabs in src.\n")
    plain, _ = _exec(vtcode, root, "explain app.py")
    mentioned, _ = _exec(vtcode, root, "explain @src/app.py")
    assert "Use tabs in src." not in str(plain)
    assert "Use tabs in src." in str(mentioned)


def test_a_file_mentioned_in_a_skills_arguments_is_attached(vtcode: VtcodeRunner, tmp_path: Path) -> None:
    root = repo(tmp_path)
    write_skill(root / ".agents/skills", "review", "Reviews code.", "Review $ARGUMENTS.\n")
    (root / "app.py").write_text("x = 1\n")
    messages, stderr = _exec(vtcode, root, "/review @app.py")
    assert messages[-1]["content"].startswith('<skill_content name="review">\nReview @app.py.')
    assert messages[-2]["content"].endswith('<file path="app.py">\nx = 1\n</file>')
    assert "attached: app.py" in stderr


def test_gemini_forms_of_a_path_with_spaces_are_attached(vtcode: VtcodeRunner, tmp_path: Path) -> None:
    root = repo(tmp_path)
    (root / "my notes").mkdir()
    (root / "my notes/a b.md").write_text("braced\n")
    (root / "my notes/c d.md").write_text("escaped\n")
    messages, stderr = _exec(vtcode, root, "compare @{my notes/a b.md} with @my\\ notes/c\\ d.md")
    assert messages[-2]["content"].endswith(
        '<file path="my notes/a b.md">\nbraced\n</file>\n<file path="my notes/c d.md">\nescaped\n</file>'
    )
    assert "attached: my notes/a b.md, my notes/c d.md" in stderr
