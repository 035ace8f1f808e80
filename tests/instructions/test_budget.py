"""The byte budget: reference section 9 cases 37-38, and SPEC section 5 decision 7 (specificity)."""

from __future__ import annotations

from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from tests.instructions.helpers import instruction_map, make_layout, reasons
from vtcode.core.instructions.budget import Allocation, allocate


def test_case37_budget_truncates_and_says_so(tmp_path: Path) -> None:
    layout = make_layout(tmp_path)
    layout.write("AGENTS.md", "- Root summary\n\nMore text")
    layout.write("CLAUDE.md", "- second file")
    result = layout.load(max_bytes=16)
    assert result.allocations[0].text == "- Root summary\n\n"
    assert instruction_map(result) == ["AGENTS.md (workspace AGENTS)"]
    assert result.appendix is not None
    assert "### 1. AGENTS.md (workspace AGENTS)\n\n- Root summary\n\n_Project instructions" in result.appendix
    assert "More text" not in result.appendix
    assert "second file" not in result.appendix
    assert result.appendix.endswith(
        "_Project instructions were cut to fit agent.instruction_max_bytes (16 bytes): AGENTS.md cut to 16 "
        "of 25 bytes; CLAUDE.md omitted. Raise agent.instruction_max_bytes to include them._"
    )
    assert reasons(result) == [
        ("AGENTS.md", "warning", "truncated to 16 of 25 bytes to fit agent.instruction_max_bytes (16 bytes)"),
        (
            "CLAUDE.md",
            "warning",
            "omitted (13 bytes): more specific sources used all of agent.instruction_max_bytes (16 bytes)",
        ),
    ]


def test_case37_zero_budget_keeps_only_user_instructions(tmp_path: Path) -> None:
    layout = make_layout(tmp_path)
    layout.write("AGENTS.md", "- root")
    result = layout.load(max_bytes=0, user_instructions="u")
    assert result.appendix == "u"
    assert result.sources == ()


def test_case38_cut_inside_a_character_shows_a_replacement_character(tmp_path: Path) -> None:
    layout = make_layout(tmp_path)
    layout.write("AGENTS.md", "ab\u00e9cd")
    result = layout.load(max_bytes=3)
    assert result.allocations[0].text == "ab\ufffd"


def test_budget_cuts_the_least_specific_sources_first(tmp_path: Path) -> None:
    # SPEC section 5 decision 7: the original fills the budget in precedence order, so the nearest
    # (most specific) file is the one cut; here the user file goes first, then the root.
    layout = make_layout(tmp_path)
    layout.user("AGENTS.md", "u" * 100)
    layout.write("AGENTS.md", "r" * 100)
    layout.write("a/b/AGENTS.md", "n" * 100)
    result = layout.load(["a/b/x.py"], max_bytes=250)
    assert [(a.kept_bytes, a.total_bytes) for a in result.allocations] == [(50, 100), (100, 100), (100, 100)]
    result = layout.load(["a/b/x.py"], max_bytes=150)
    assert [(a.kept_bytes, a.total_bytes) for a in result.allocations] == [(0, 100), (50, 100), (100, 100)]
    assert instruction_map(result) == ["AGENTS.md (workspace AGENTS)", "a/b/AGENTS.md (workspace AGENTS)"]


def test_matched_rules_outrank_the_nearest_agents_file(tmp_path: Path) -> None:
    layout = make_layout(tmp_path)
    layout.write("a/x.py", "")
    layout.write("a/AGENTS.md", "n" * 100)
    layout.write(".vtcode/rules/py.md", "---\npaths: '**/*.py'\n---\n" + "p" * 100)
    result = layout.load(["a/x.py"], max_bytes=120)
    assert [(s.display, a.kept_bytes) for s, a in zip(result.sources, result.allocations, strict=True)] == [
        ("a/AGENTS.md", 20),
        (".vtcode/rules/py.md", 100),
    ]


_sources = st.lists(
    st.tuples(st.text(max_size=40), st.integers(min_value=0, max_value=5)), min_size=0, max_size=8
)


@given(sources=_sources, budget=st.integers(min_value=0, max_value=200))
def test_budget_is_never_exceeded_and_favours_specific_sources(
    sources: list[tuple[str, int]], budget: int
) -> None:
    texts = [text for text, _ in sources]
    tiers = [tier for _, tier in sources]
    allocations = allocate(texts, tiers, budget)
    assert len(allocations) == len(texts)
    assert sum(a.kept_bytes for a in allocations) <= budget
    for text, allocation in zip(texts, allocations, strict=True):
        assert allocation.total_bytes == len(text.encode("utf-8"))
        if not allocation.truncated:
            assert allocation.text == text
    # Nothing less specific keeps a byte while something more specific was cut.
    for i, cut in enumerate(allocations):
        for j, other in enumerate(allocations):
            if tiers[i] > tiers[j] and cut.truncated:
                assert other.kept_bytes == 0
    # A source that fits whole in what its betters left is kept whole.
    order = sorted(range(len(texts)), key=lambda i: (-tiers[i], i))
    remaining = budget
    for index in order:
        size = allocations[index].total_bytes
        assert allocations[index].kept_bytes == min(size, remaining)
        remaining -= allocations[index].kept_bytes


def test_allocation_flags() -> None:
    assert Allocation("", 0, 5).dropped
    assert Allocation("ab", 2, 5).truncated
    assert not Allocation("", 0, 0).truncated
