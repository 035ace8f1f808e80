"""The four static profiles (SPEC section 4; reference section 9, cases 4-10)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from vtcode import prompts
from vtcode.core.prompt import CONTRACT_HEADING, OPERATING_HEADING
from vtcode.core.tokens import byte_heuristic_tokens as estimate_tokens_bytes
from vtcode.protocol.errors import ConfigError

FIXTURES = Path(__file__).parent / "fixtures"
ROLE = "You work like a senior engineer"


@pytest.mark.parametrize("profile", prompts.PROFILES)
def test_profile_text_matches_its_golden_file(profile: str) -> None:
    assert prompts.profile_text(profile) == (FIXTURES / f"profile_{profile}.md").read_text()


def _contract_bullets(text: str) -> list[str]:
    contract = text.split(f"{CONTRACT_HEADING}\n\n", 1)[1].split(f"\n\n{OPERATING_HEADING}", 1)[0]
    return [line for line in contract.splitlines() if line.startswith("- ")]


def test_role_paragraph_and_contract_bullets() -> None:
    with_role = {p for p in prompts.PROFILES if ROLE in prompts.profile_text(p)}
    assert with_role == {"default", "specialized"}
    bullets = {p: len(_contract_bullets(prompts.profile_text(p))) for p in prompts.PROFILES}
    assert bullets == {"default": 10, "minimal": 2, "lightweight": 10, "specialized": 10}


def test_profile_names_are_trimmed_and_case_insensitive() -> None:
    assert prompts.parse_profile("LIGHTWEIGHT") == "lightweight"
    assert prompts.parse_profile(" minimal ") == "minimal"


def test_unknown_profile_is_an_error() -> None:
    # [decide] The original silently falls back to Default; SPEC section 4 makes it an error.
    with pytest.raises(ConfigError, match="unknown prompt profile 'fancy'"):
        prompts.parse_profile("fancy")


@pytest.mark.parametrize("profile", prompts.PROFILES)
def test_section_order_and_join(profile: str) -> None:
    text = prompts.profile_text(profile)
    headings = re.findall(r"^#+ .*$", text, flags=re.MULTILINE)
    assert headings == ["# vtcode", "## Runtime guidance", CONTRACT_HEADING, OPERATING_HEADING]
    assert "\n\n\n" not in text
    assert not text.endswith("\n")
    for heading in headings[1:]:
        assert f"\n\n{heading}\n" in text


@pytest.mark.parametrize("profile", prompts.PROFILES)
def test_static_profiles_fit_the_default_budget(profile: str) -> None:
    # There is nothing to trim: the static prompt has no optional sections and stays far below
    # the original's 8,000-token system prompt budget.
    assert estimate_tokens_bytes(prompts.profile_text(profile)) < 1000


def test_token_estimate_counts_utf8_bytes() -> None:
    cases = {"": 0, "hello": 2, "1234": 1, "12345": 2, "\u00e9": 1, "\u00e9\u00e9\u00e9": 2}
    assert {text: estimate_tokens_bytes(text) for text in cases} == cases
