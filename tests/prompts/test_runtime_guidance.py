"""The compiled runtime guidance (SPEC section 4; reference section 9, cases 1-3 and 11-15)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

from vtcode import prompts
from vtcode.core.prompt import (
    CONTRACT_HEADING,
    GuidanceTooLargeError,
    build_profile,
    compose_static,
)
from vtcode.core.tokens import byte_heuristic_tokens as estimate_tokens_bytes

GUIDANCE = prompts.runtime_guidance()

# Audit hooks cannot be removed, so this one is installed once and records only while armed.
_ARMED: list[bool] = []
_EVENTS: list[tuple[str, tuple[Any, ...]]] = []
_WATCHED = frozenset({"open", "os.listdir", "os.scandir", "pathlib.Path.glob", "os.walk"})


def _audit(event: str, args: tuple[Any, ...]) -> None:
    if _ARMED and event in _WATCHED:
        _EVENTS.append((event, args))


sys.addaudithook(_audit)


def _file_events(action: Any) -> list[tuple[str, tuple[Any, ...]]]:
    _EVENTS.clear()
    _ARMED.append(True)
    try:
        action()
    finally:
        _ARMED.clear()
    return list(_EVENTS)


def test_guidance_cap() -> None:
    data = GUIDANCE.encode("utf-8")
    assert estimate_tokens_bytes(GUIDANCE) <= 256
    assert len(data) <= 1024
    assert prompts.runtime_guidance() is GUIDANCE


def test_over_cap_guidance_fails_at_build_time() -> None:
    parts: dict[str, Any] = {"header": "# h", "role": None, "contract": ["- c"], "operating": "o"}
    assert build_profile(guidance="x" * 1024, **parts)
    with pytest.raises(GuidanceTooLargeError, match="257 estimated tokens"):
        build_profile(guidance="x" * 1025, **parts)


@pytest.mark.parametrize("profile", prompts.PROFILES)
def test_guidance_once_before_the_contract_in_every_profile(profile: str) -> None:
    text = prompts.profile_text(profile)
    assert text.count(GUIDANCE) == 1
    assert text.index(GUIDANCE) < text.index(CONTRACT_HEADING)
    assert "AGENTS.md" in text


def test_guidance_bytes_are_identical_in_all_four_profiles() -> None:
    blocks = set()
    for profile in prompts.PROFILES:
        text = prompts.profile_text(profile)
        start = text.index("## Runtime guidance")
        blocks.add(text[start : text.index(f"\n\n{CONTRACT_HEADING}")].encode("utf-8"))
    assert blocks == {GUIDANCE.encode("utf-8")}


def test_computing_the_guidance_and_profiles_opens_no_file() -> None:
    assert _file_events(lambda: Path(__file__).read_text())  # the hook does see reads

    def compute() -> None:
        prompts.runtime_guidance()
        prompts.profile_text.cache_clear()
        for profile in prompts.PROFILES:
            prompts.profile_text(profile)
        compose_static(prompts.profile_text("default"), prompts.runtime_guidance(), override="# mine")

    assert _file_events(compute) == []


def test_guidance_holds_no_maintainer_or_workspace_text() -> None:
    for marker in ("Root summary", "MARKER", "Cargo workspace", "RUSTFLAGS", "### Instruction map"):
        assert marker not in GUIDANCE
        for profile in prompts.PROFILES:
            assert marker not in prompts.profile_text(profile)


@pytest.mark.parametrize(
    "override",
    [
        "# Workspace base",
        f"# Mine\n\n{GUIDANCE}\n\nMore rules",  # already contains it: not duplicated
        f"# Mine\n\n{GUIDANCE.replace('Work inside', 'Work within')}",  # an edited copy does not count
        "  \n\t\n",  # whitespace-only: the profile stays
    ],
)
@pytest.mark.parametrize("profile", prompts.PROFILES)
def test_guidance_exactly_once_after_any_override(profile: str, override: str) -> None:
    static = compose_static(prompts.profile_text(profile), GUIDANCE, override=override, appends=["extra"])
    assert static.count(GUIDANCE) == 1
