"""The model catalog: context window, output limit, tool and reasoning support, shipped as data."""

from __future__ import annotations

import functools
from collections.abc import Mapping
from importlib import resources

import msgspec


class _Entry(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    provider: str
    context_window: int
    max_output_tokens: int
    tools: bool
    reasoning: bool
    # Accepts image inputs (tool results with images are then sent as images, not only described).
    images: bool = False


class _Catalog(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    schema_version: int
    default_context_window: int
    models: dict[str, _Entry]


class ModelOverride(msgspec.Struct, frozen=True):
    """Per-model values from `[models."<name>"]` in config."""

    context_window: int | None = None
    max_output_tokens: int | None = None


class ModelInfo(msgspec.Struct, frozen=True):
    """What vtcode knows about a model; `known` is False when the defaults were used."""

    name: str
    context_window: int
    max_output_tokens: int | None
    tools: bool
    reasoning: bool
    known: bool
    # The catalog entry that matched (a dated or prefixed name matches its family).
    matched: str | None = None
    images: bool = False


@functools.cache
def _catalog() -> _Catalog:
    raw = resources.files("vtcode.providers").joinpath("data/models.json").read_bytes()
    return msgspec.json.decode(raw, type=_Catalog)


def default_context_window() -> int:
    """Window assumed for models the catalog does not know."""
    return _catalog().default_context_window


def _match(name: str, models: Mapping[str, _Entry]) -> str | None:
    # "openai/gpt-4o" (OpenRouter) and "models/gemini-2.5-pro" name the same families.
    candidates = [name, name.rsplit("/", 1)[-1]]
    for candidate in candidates:
        if candidate in models:
            return candidate
    for candidate in candidates:
        # Dated snapshots ("claude-sonnet-4-5-20250929", "gpt-4o-2024-08-06") and tags
        # ("llama3.1:8b") belong to the longest catalog name they start with.
        best = max(
            (key for key in models if candidate.startswith(key) and candidate[len(key)] in "-:@."),
            key=len,
            default=None,
        )
        if best is not None:
            return best
    return None


def lookup(name: str, overrides: Mapping[str, ModelOverride] | None = None) -> ModelInfo:
    """Describe `name`, applying a config override for that exact name when present."""
    catalog = _catalog()
    key = _match(name, catalog.models)
    entry = catalog.models.get(key) if key else None
    override = (overrides or {}).get(name, ModelOverride())
    if entry is None:
        return ModelInfo(
            name=name,
            context_window=override.context_window or catalog.default_context_window,
            max_output_tokens=override.max_output_tokens,
            tools=True,
            reasoning=False,
            known=override.context_window is not None,
        )
    return ModelInfo(
        name=name,
        context_window=override.context_window or entry.context_window,
        max_output_tokens=override.max_output_tokens or entry.max_output_tokens,
        tools=entry.tools,
        reasoning=entry.reasoning,
        known=True,
        matched=key,
        images=entry.images,
    )
