"""The token counts both OpenAI wires report (Chat Completions `usage`, Responses `usage`) as our `Usage`.

The two wires name the totals differently (`prompt_tokens` / `input_tokens`, `completion_tokens` /
`output_tokens`) but share their details objects; the prompt total counts cached tokens on both.
"""

from __future__ import annotations

import msgspec

from vtcode.protocol.messages import Usage


class CachedTokens(msgspec.Struct):
    """`prompt_tokens_details` (Chat) or `input_tokens_details` (Responses): the prompt's cache hits."""

    cached_tokens: int | None = None


class ReasoningTokens(msgspec.Struct):
    """`completion_tokens_details` (Chat) or `output_tokens_details` (Responses)."""

    reasoning_tokens: int | None = None


def openai_usage(
    prompt_tokens: int | None,
    output_tokens: int | None,
    prompt_details: CachedTokens | None,
    output_details: ReasoningTokens | None,
    cache_hits: int | None = None,
) -> Usage:
    """Our usage from an OpenAI wire's counts; `cache_hits` stands in when the details say nothing."""
    cached = prompt_details.cached_tokens if prompt_details is not None else None
    if cached is None:
        cached = cache_hits
    reasoning = output_details.reasoning_tokens if output_details is not None else None
    return Usage(
        input_tokens=prompt_tokens or 0,
        output_tokens=output_tokens or 0,
        cached_input_tokens=cached or 0,
        reasoning_tokens=reasoning or 0,
    )
