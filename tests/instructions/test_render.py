"""Rendering of the appendix: reference section 9, cases 39-41."""

from __future__ import annotations

from pathlib import Path

from tests.instructions.helpers import PRECEDENCE, make_layout
from vtcode.core.instructions.render import appendix_block, key_points


def test_exact_skeleton(tmp_path: Path) -> None:
    layout = make_layout(tmp_path)
    layout.write("AGENTS.md", "- Root summary\n\nFollow.")
    assert layout.load().appendix == (
        "## PROJECT DOCUMENTATION\n\n"
        f"{PRECEDENCE}\n\n"
        "### Instruction map\n"
        "- 1. AGENTS.md (workspace AGENTS)\n\n"
        "### Key points\n"
        "- Root summary\n\n"
        "### 1. AGENTS.md (workspace AGENTS)\n\n"
        "- Root summary\n\nFollow."
    )


def test_user_instructions_come_first(tmp_path: Path) -> None:
    layout = make_layout(tmp_path)
    layout.write("AGENTS.md", "- Root summary\n\nFollow.")
    appendix = layout.load(user_instructions=" note ").appendix
    assert appendix is not None
    assert appendix.startswith("note\n\n--- project-doc ---\n\n## PROJECT DOCUMENTATION\n\n")
    assert layout.load(max_bytes=0, user_instructions=" note ").appendix == "note"


def test_key_points() -> None:
    first = "- a1\n- a2\n- a3\n- a4"
    second = "- b1\n- b2\n- b3\n- b4"
    third = "## Title\nplain text"
    assert key_points([first, second, third]) == ["a1", "a2", "a3", "a4", "b1", "b2"]
    assert key_points(["## Title\nplain text", "--- \n- x"]) == ["Title", "x"]
    assert key_points(["\n\n### Only a heading"]) == ["Only a heading"]


def test_appendix_is_a_separate_block_under_instructions() -> None:
    # The original appends `\n# INSTRUCTIONS\n<appendix>\n` to the system string; SPEC section 4 sends
    # the appendix as its own block after the static prompt, so the static bytes never change.
    assert appendix_block("## PROJECT DOCUMENTATION\n...") == "# INSTRUCTIONS\n## PROJECT DOCUMENTATION\n..."
    assert appendix_block(None) == ""
