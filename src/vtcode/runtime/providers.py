"""Build the model client for the configured provider (adapters are imported only when needed)."""

from __future__ import annotations

from collections.abc import Callable, Mapping

import msgspec

from vtcode.config.schema import Settings
from vtcode.core.retry import RetryPolicy
from vtcode.providers.base import ModelClient
from vtcode.providers.catalog import ModelInfo, ModelOverride, lookup
from vtcode.providers.http import Endpoint
from vtcode.providers.plain_http import plain_http_applies
from vtcode.providers.select import (
    ProviderChoice,
    ProviderRequest,
    select_provider,
)
from vtcode.store.meta import SessionInfo


def choose_provider(settings: Settings, env: Mapping[str, str]) -> ProviderChoice:
    """Resolve provider, endpoint, key and model from settings and the environment."""
    agent = settings.agent
    return select_provider(
        ProviderRequest(
            provider=agent.provider,
            model=agent.model,
            base_url=agent.base_url,
            wire_api=agent.wire_api,
            env=env,
            custom=settings.providers,
        )
    )


def resumed_settings(settings: Settings, stored: SessionInfo, keep: frozenset[str]) -> Settings:
    """`settings` with a resumed session's own provider and model for the keys in `keep`.

    `keep` holds `agent.provider` and/or `agent.model` (those the run does not name). The model is kept
    only with the session's provider (another provider's default model applies otherwise).
    """
    agent = settings.agent
    provider, model = agent.provider, agent.model
    if "agent.provider" in keep and stored.provider:
        provider = stored.provider
    if "agent.model" in keep and stored.model and provider == stored.provider:
        model = stored.model
    if (provider, model) == (agent.provider, agent.model):
        return settings
    return msgspec.structs.replace(
        settings, agent=msgspec.structs.replace(agent, provider=provider, model=model)
    )


def model_info(settings: Settings, model: str) -> ModelInfo:
    """Catalog facts about the model, with `[models."<name>"]` overrides applied."""
    overrides = {
        name: ModelOverride(context_window=m.context_window, max_output_tokens=m.max_output_tokens)
        for name, m in settings.models.items()
    }
    return lookup(model, overrides)


def takes_images(settings: Settings, env: Mapping[str, str]) -> bool:
    """Whether the model a session would use accepts images (raises `ConfigError` with no provider)."""
    return model_info(settings, choose_provider(settings, env).model).images


def build_client(
    choice: ProviderChoice,
    settings: Settings,
    notify: Callable[[str], None] | None = None,
    env: Mapping[str, str] | None = None,
) -> ModelClient:
    """The adapter for the provider's wire format.

    With the front end's `env`, a plain `http://` endpoint that no proxy variable applies to is reached
    without httpx2 (see `providers.plain_http`); without it, every request goes through httpx2.
    """
    net = settings.network
    endpoint = Endpoint(
        provider=choice.name,
        base_url=choice.base_url,
        headers=choice.headers(),
        api_key_env=choice.api_key_env,
        connect_timeout=net.connect_timeout_seconds,
        idle_timeout=net.stream_idle_timeout_seconds,
        response_deadline=net.response_deadline_seconds,
        retry=RetryPolicy(max_retries=net.max_retries, max_total=net.max_retry_seconds),
        plain_http=env is not None and plain_http_applies(choice.base_url, env),
    )
    if choice.wire_api == "anthropic":
        from vtcode.providers.anthropic import AnthropicClient

        return AnthropicClient(endpoint, notify=notify)
    if choice.wire_api == "responses":
        from vtcode.providers.openai_responses import OpenAIResponsesClient

        return OpenAIResponsesClient(endpoint, notify=notify)
    from vtcode.providers.openai_chat import OpenAIChatClient

    return OpenAIChatClient(endpoint, notify=notify)
