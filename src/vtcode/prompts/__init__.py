"""Prompt text shipped as package data: the four profiles and the compiled runtime guidance."""

from __future__ import annotations

import functools
from importlib import resources

from vtcode.protocol.errors import ConfigError

PROFILES = ("default", "minimal", "lightweight", "specialized")


@functools.cache
def runtime_guidance() -> str:
    """The compiled runtime-guidance section, identical in every profile."""
    return resources.files(__name__).joinpath("runtime_guidance.md").read_text("utf-8").strip()


@functools.cache
def profile_text(name: str) -> str:
    """The static base text of a profile; an unknown name is an error, never a silent fallback."""
    if name not in PROFILES:
        raise ConfigError(f"unknown prompt profile {name!r}", hint=f"use one of: {', '.join(PROFILES)}")
    return resources.files(__name__).joinpath(f"profiles/{name}.md").read_text("utf-8").strip()
