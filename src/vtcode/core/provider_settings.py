"""A `[providers.<name>]` table: read by config, looked at by provider selection, one type for both."""

from __future__ import annotations

import msgspec

from vtcode.protocol.model import WireApi


class ProviderSettings(msgspec.Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """`[providers.<name>]`: a named endpoint, or overrides for a built-in provider."""

    base_url: str | None = None
    api_key_env: str | None = None
    wire_api: WireApi | None = None
    default_model: str | None = None
