"""Composition of the static system prompt (pure): profiles, `system.md` layers and the runtime guidance.

The static prompt is the cache-stable prefix of every request of a session (SPEC section 4). It is built
from text only; reading the layer files is the caller's job, so nothing here can pick up workspace
content by accident.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

import msgspec

from vtcode.core.tokens import byte_heuristic_tokens
from vtcode.protocol.model import ToolSpec

GUIDANCE_MAX_TOKENS = 256
"""The runtime guidance must stay within this many estimated tokens (at most 1,024 UTF-8 bytes)."""

CONTRACT_HEADING = "## Contract"
OPERATING_HEADING = "## Operating Profile"


class GuidanceTooLargeError(ValueError):
    """The compiled runtime guidance is over its token cap; a build-time error, never shipped."""


def check_guidance(guidance: str) -> str:
    """`guidance` itself when it is within the cap; otherwise raise `GuidanceTooLargeError`."""
    tokens = byte_heuristic_tokens(guidance)
    if tokens > GUIDANCE_MAX_TOKENS:
        raise GuidanceTooLargeError(
            f"the runtime guidance is {tokens} estimated tokens "
            f"({len(guidance.encode('utf-8'))} bytes); the cap is {GUIDANCE_MAX_TOKENS}"
        )
    return guidance


def build_profile(
    *, header: str, role: str | None, guidance: str, contract: Sequence[str], operating: str
) -> str:
    """One static profile: header, optional role, the guidance (before the contract), contract, delta.

    The guidance sits before `## Contract` so that every profile carries it exactly once, in the same
    place; sections are separated by one blank line and there is no trailing newline.
    """
    parts = [header.strip()]
    if role is not None and role.strip():
        parts.append(role.strip())
    parts.append(check_guidance(guidance))
    bullets = "\n".join(line.strip() for block in contract for line in block.strip().splitlines())
    parts.append(f"{CONTRACT_HEADING}\n\n{bullets}" if bullets else CONTRACT_HEADING)
    parts.append(f"{OPERATING_HEADING}\n\n{operating.strip()}")
    return "\n\n".join(parts)


def ensure_runtime_guidance(prompt: str, guidance: str) -> str:
    """`prompt` with the guidance reattached unless it already contains the exact section.

    A byte-exact copy suppresses reattachment (still exactly one copy); an edited copy does not count,
    so the canonical section is appended after it.
    """
    if guidance in prompt:
        return prompt
    if not prompt:
        return guidance
    separator = "\n" if prompt.endswith("\n") else "\n\n"
    return f"{prompt}{separator}{guidance}"


def compose_static(
    base: str, guidance: str, *, override: str | None = None, appends: Sequence[str] = ()
) -> str:
    """The static prompt: the profile (or a non-blank `system.md` override), appends, then guidance.

    A whitespace-only override counts as absent. The override is trimmed, appends are trimmed and
    skipped when blank, layers are joined by a blank line, and the guidance is reattached last, exactly
    once, so an override can never drop it.
    """
    text = override.strip() if override is not None and override.strip() else base
    for append in appends:
        body = append.strip()
        if body:
            text = f"{text}\n\n{body}" if text else body
    return ensure_runtime_guidance(text, guidance)


def static_cache_key(static: str, tools: Sequence[ToolSpec]) -> str:
    """A key of everything in the cached prefix; equal keys mean byte-identical prefixes."""
    digest = hashlib.sha256(static.encode("utf-8"))
    digest.update(b"\0")
    digest.update(msgspec.json.encode(list(tools)))
    return digest.hexdigest()[:16]
