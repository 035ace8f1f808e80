"""The byte budget: reference section 9 cases 37-38, and SPEC section 5 decision 7 (specificity)."""

from __future__ import annotations

from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from tests.instructions.helpers import instruction_map, make_layout, reasons
from vtcode.core.instructions.budget import Allocation, fit_sources, specificity_order
from vtcode.core.instructions.model import LoadedSource
from vtcode.core.instructions.render import render_appendix, truncation_note
from vtcode.instructions import InstructionsResult


def test_budget_truncates_and_says_so(tmp_path: Path) -> None:
    # [decide] The original fills the budget in precedence order and drops CLAUDE.md here; SPEC
    # section 5 decision 7 gives every source a fair floor first (16 // 2 bytes each).
    layout = make_layout(tmp_path)
    layout.write("AGENTS.md", "- Root summary\n\nMore text")
    layout.write("CLAUDE.md", "- second file")
    result = layout.load(max_bytes=16)
    assert [a.text for a in result.allocations] == ["- Root s", "- second"]
    assert instruction_map(result) == ["AGENTS.md (workspace AGENTS)", "CLAUDE.md (workspace CLAUDE)"]
    assert result.appendix is not None
    assert "### 2. CLAUDE.md (workspace CLAUDE)\n\n- second\n\n_Project instructions" in result.appendix
    assert "More text" not in result.appendix
    assert result.appendix.endswith(
        "_Project instructions were cut to fit agent.instruction_max_bytes (16 bytes): AGENTS.md cut to 8 "
        "of 25 bytes; CLAUDE.md cut to 8 of 13 bytes. Raise agent.instruction_max_bytes to include them._"
    )
    assert reasons(result) == [
        ("AGENTS.md", "warning", "truncated to 8 of 25 bytes to fit agent.instruction_max_bytes (16 bytes)"),
        ("CLAUDE.md", "warning", "truncated to 8 of 13 bytes to fit agent.instruction_max_bytes (16 bytes)"),
    ]


def test_zero_budget_keeps_only_user_instructions(tmp_path: Path) -> None:
    layout = make_layout(tmp_path)
    layout.write("AGENTS.md", "- root")
    result = layout.load(max_bytes=0, user_instructions="u")
    assert result.appendix == "u"
    assert result.sources == ()


def test_cut_inside_a_character_shows_a_replacement_character(tmp_path: Path) -> None:
    layout = make_layout(tmp_path)
    layout.write("AGENTS.md", "ab\u00e9cd")
    result = layout.load(max_bytes=3)
    assert result.allocations[0].text == "ab\ufffd"


def _kept(result: InstructionsResult) -> list[tuple[str, int]]:
    return [(s.display, a.kept_bytes) for s, a in zip(result.sources, result.allocations, strict=True)]


def test_budget_gives_fair_floors_then_the_rest_to_the_most_specific(tmp_path: Path) -> None:
    layout = make_layout(tmp_path)
    layout.user("AGENTS.md", "u" * 100)
    layout.write("AGENTS.md", "r" * 40)
    layout.write("a/b/AGENTS.md", "n" * 100)
    # Floors of 210 // 3 = 70 (the root needs only 40), then the 30 left go to the nearest file.
    assert _kept(layout.load(["a/b/x.py"], max_bytes=210)) == [
        ("~/AGENTS.md", 70),
        ("AGENTS.md", 40),
        ("a/b/AGENTS.md", 100),
    ]
    # The user file, the least specific, is the last to get more than its floor.
    assert _kept(layout.load(["a/b/x.py"], max_bytes=230)) == [
        ("~/AGENTS.md", 90),
        ("AGENTS.md", 40),
        ("a/b/AGENTS.md", 100),
    ]


def test_the_nearest_folder_file_outranks_matched_rules(tmp_path: Path) -> None:
    layout = make_layout(tmp_path)
    layout.write("a/x.py", "")
    layout.write("AGENTS.md", "r" * 10)
    layout.write("a/AGENTS.md", "n" * 100)
    layout.write(".vtcode/rules/py.md", "---\npaths: '**/*.py'\n---\n" + "p" * 100)
    # Floors of 56, then the nearest file is completed before the matched rule gets the last 4.
    assert _kept(layout.load(["a/x.py"], max_bytes=170)) == [
        ("AGENTS.md", 10),
        ("a/AGENTS.md", 100),
        (".vtcode/rules/py.md", 60),
    ]


def test_matched_rules_outrank_ancestor_folder_files(tmp_path: Path) -> None:
    layout = make_layout(tmp_path)
    layout.write("a/x.py", "")
    layout.write("AGENTS.md", "r" * 100)
    layout.write("a/AGENTS.md", "n" * 10)
    layout.write(".vtcode/rules/py.md", "---\npaths: '**/*.py'\n---\n" + "p" * 100)
    assert _kept(layout.load(["a/x.py"], max_bytes=170)) == [
        ("AGENTS.md", 60),
        ("a/AGENTS.md", 10),
        (".vtcode/rules/py.md", 100),
    ]


# Lines that stress the fence handling: openers and closers of both kinds and lengths, code spans,
# bullets; multi-byte text makes cuts land inside characters.
_lines = st.sampled_from(
    ["```", "```bash", "~~~", "````", "~~~~ py", "- rule `code`", "text \u00e9\u4e2d", "", "```x` y```"]
)
_text = st.lists(_lines, max_size=12).map("\n".join)
_sources = st.lists(st.tuples(_text, st.integers(min_value=0, max_value=4)), max_size=8)


def _fences_balanced_and_headings_outside(markdown: str, headings: set[str]) -> bool:
    """An independent CommonMark fence reader: no fence open at the end, every heading outside code."""
    open_char, open_length = "", 0
    for line in markdown.split("\n"):
        stripped = line.strip()
        if open_length:
            run = len(stripped) - len(stripped.lstrip(open_char))
            if stripped and run == len(stripped) and run >= open_length:
                open_length = 0
            continue
        if line in headings:
            headings.discard(line)
        for char in "`~":
            run = len(stripped) - len(stripped.lstrip(char))
            if run >= 3 and not (char == "`" and "`" in stripped[run:]):
                open_char, open_length = char, run
    return open_length == 0 and not headings


@given(sources=_sources, budget=st.integers(min_value=0, max_value=300))
def test_budget_floors_specificity_marks_and_well_formed_markdown(
    sources: list[tuple[str, int]], budget: int
) -> None:
    loaded = [
        LoadedSource(f"/r/s{n}", f"s{n}", "workspace", "agents", text, rank)
        for n, (text, rank) in enumerate(sources)
    ]
    allocations, segments, cuts = fit_sources(loaded, budget)
    sizes = [len(text.encode("utf-8")) for text, _ in sources]
    floor = budget // len(sources) if sources else 0
    # Within the budget, and every source keeps at least its fair floor.
    assert sum(a.kept_bytes for a in allocations) <= budget
    for size, allocation, (text, _) in zip(sizes, allocations, sources, strict=True):
        assert allocation.total_bytes == size
        assert allocation.kept_bytes >= min(size, floor)
        if not allocation.truncated:
            assert allocation.text == text
    # No source is cut while a less specific one keeps more than its floor.
    order = specificity_order([rank for _, rank in sources])
    for position, index in enumerate(order):
        if allocations[index].truncated:
            for later in order[position + 1 :]:
                assert allocations[later].kept_bytes <= min(sizes[later], floor)
    # Every cut is marked in the note, and the rendered appendix is well-formed.
    cut_names = {display for display, _, _ in cuts}
    assert cut_names == {f"s{n}" for n, a in enumerate(allocations) if a.truncated}
    note = truncation_note(cuts, budget) if cuts else None
    appendix = render_appendix(None, segments, note) or ""
    for name in cut_names:
        assert f"{name} omitted" in appendix or f"{name} cut to" in appendix
    headings = {f"### {n}. {s.display} ({s.label})" for n, s in enumerate(segments, 1)}
    if note:
        headings.add(f"_{note}_")
    assert _fences_balanced_and_headings_outside(appendix, headings)


def test_allocation_flags() -> None:
    assert Allocation("", 0, 5).dropped
    assert Allocation("ab", 2, 5).truncated
    assert not Allocation("", 0, 0).truncated
