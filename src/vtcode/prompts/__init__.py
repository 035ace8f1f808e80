"""Prompt text shipped as package data: the four profiles and the compiled runtime guidance.

Every file is read once, when this module is imported, from our own package. Afterwards the accessors
only return strings held in memory: computing the runtime guidance or a profile opens no file, so it can
never pick up anything from the workspace or the user's folders (SPEC section 4; a test enforces it with
an audit hook).
"""

from __future__ import annotations

import functools
from importlib import resources
from typing import Final

from vtcode.core.prompt import build_profile, check_guidance
from vtcode.protocol.errors import ConfigError

PROFILES: Final = ("default", "minimal", "lightweight", "specialized")

# Which optional parts each profile carries: (role paragraph, the extended contract bullets).
_RECIPES: Final = {
    "default": (True, True),
    "minimal": (False, False),
    "lightweight": (False, True),
    "specialized": (True, True),
}


def _read(name: str) -> str:
    return resources.files(__name__).joinpath(name).read_text("utf-8")


# The guidance is validated here, at import, so an over-cap edit fails every test run at once.
_GUIDANCE: Final = check_guidance(_read("runtime_guidance.md").strip())
_HEADER: Final = _read("sections/header.md")
_ROLE: Final = _read("sections/role.md")
_CONTRACT_SHARED: Final = _read("sections/contract_shared.md")
_CONTRACT_EXTENDED: Final = _read("sections/contract_extended.md")
_OPERATING: Final = {name: _read(f"profiles/{name}.md") for name in PROFILES}


def runtime_guidance() -> str:
    """The compiled runtime-guidance section, identical in every profile (no file is read here)."""
    return _GUIDANCE


def parse_profile(name: str) -> str:
    """A profile name, trimmed and case-insensitive; an unknown name is an error, never a fallback."""
    normalized = name.strip().lower()
    if normalized not in PROFILES:
        raise ConfigError(f"unknown prompt profile {name!r}", hint=f"use one of: {', '.join(PROFILES)}")
    return normalized


@functools.cache
def profile_text(name: str) -> str:
    """The static base text of a profile, with the runtime guidance before its `## Contract`."""
    profile = parse_profile(name)
    with_role, extended = _RECIPES[profile]
    contract = [_CONTRACT_SHARED, _CONTRACT_EXTENDED] if extended else [_CONTRACT_SHARED]
    return build_profile(
        header=_HEADER,
        role=_ROLE if with_role else None,
        guidance=_GUIDANCE,
        contract=contract,
        operating=_OPERATING[profile],
    )
