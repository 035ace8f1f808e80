"""The model catalog and provider selection (SPEC section 3)."""

from __future__ import annotations

import pytest

from vtcode.core.provider_settings import ProviderSettings
from vtcode.protocol.errors import ConfigError
from vtcode.providers.catalog import ModelOverride, default_context_window, lookup
from vtcode.providers.select import ProviderChoice, ProviderRequest, select_provider
from vtcode.testing.openai_chat_server import OpenAIChatServer

NO_OLLAMA = {"OLLAMA_HOST": "http://127.0.0.1:9"}


def test_known_model_and_dated_snapshot_share_the_family_entry() -> None:
    exact = lookup("claude-sonnet-4-5")
    dated = lookup("claude-sonnet-4-5-20250929")
    assert (exact.context_window, exact.known) == (200_000, True)
    assert (dated.context_window, dated.matched) == (200_000, "claude-sonnet-4-5")
    assert lookup("openai/gpt-4o").matched == "gpt-4o"
    assert lookup("llama3.1:8b").matched == "llama3.1"


def test_unknown_model_defaults_to_128k_and_says_it_is_unknown() -> None:
    info = lookup("my-finetune-7b")
    assert (info.context_window, info.known) == (128_000, False)
    assert default_context_window() == 128_000


def test_config_override_wins_for_that_exact_model() -> None:
    overrides = {"my-finetune-7b": ModelOverride(context_window=32_768), "gpt-4o": ModelOverride(1000, 10)}
    assert lookup("my-finetune-7b", overrides).context_window == 32_768
    assert lookup("my-finetune-7b", overrides).known is True
    tuned = lookup("gpt-4o", overrides)
    assert (tuned.context_window, tuned.max_output_tokens) == (1000, 10)


@pytest.mark.parametrize(
    ("env", "expected"),
    [
        ({"ANTHROPIC_API_KEY": "a", "OPENAI_API_KEY": "o", "GEMINI_API_KEY": "g"}, "anthropic"),
        ({"OPENAI_API_KEY": "o", "GEMINI_API_KEY": "g"}, "openai"),
        ({"GEMINI_API_KEY": "g"}, "gemini"),
    ],
)
def test_auto_selection_order(env: dict[str, str], expected: str) -> None:
    choice = select_provider(ProviderRequest(None, None, None, None, {**env, **NO_OLLAMA}))
    assert choice.name == expected


def test_running_ollama_is_selected_when_no_key_is_set() -> None:
    with OpenAIChatServer() as server:
        host = server.base_url.removesuffix("/v1")
        choice = select_provider(ProviderRequest(None, "qwen3-coder", None, None, {"OLLAMA_HOST": host}))
    assert choice == ProviderChoice("ollama", "chat", f"{host}/v1", "qwen3-coder", None, None)


def test_ollama_without_a_model_uses_an_installed_one() -> None:
    with OpenAIChatServer(model_names=("llama3.1:8b", "qwen3-coder:30b")) as server:
        host = server.base_url.removesuffix("/v1")
        choice = select_provider(ProviderRequest(None, None, None, None, {"OLLAMA_HOST": host}))
    assert (choice.name, choice.model) == ("ollama", "llama3.1:8b")


def test_ollama_default_model_is_kept_when_installed() -> None:
    with OpenAIChatServer(model_names=("llama3.1:8b", "gpt-oss:20b")) as server:
        host = server.base_url.removesuffix("/v1")
        choice = select_provider(ProviderRequest("ollama", None, None, None, {"OLLAMA_HOST": host}))
    assert choice.model == "gpt-oss:20b"


def test_nothing_available_is_a_config_error_listing_the_options() -> None:
    with pytest.raises(ConfigError) as error:
        select_provider(ProviderRequest(None, None, None, None, NO_OLLAMA))
    text = error.value.user_text()
    for option in ("ANTHROPIC_API_KEY", "OPENAI_API_KEY", "GEMINI_API_KEY", "Ollama", "--provider"):
        assert option in text
    assert error.value.exit_code == 2


def test_explicit_provider_without_its_key_names_the_variable() -> None:
    with pytest.raises(ConfigError, match="ANTHROPIC_API_KEY is not set"):
        select_provider(ProviderRequest("anthropic", None, None, None, NO_OLLAMA))


def test_openai_uses_responses_but_a_custom_base_url_means_chat() -> None:
    env = {"OPENAI_API_KEY": "k"}
    official = select_provider(ProviderRequest("openai", None, None, None, env))
    local = select_provider(
        ProviderRequest("openai", None, None, None, {**env, "OPENAI_BASE_URL": "http://h/v1"})
    )
    forced = select_provider(ProviderRequest("openai", None, "http://h/v1", "responses", env))
    assert (official.wire_api, official.base_url, official.model) == (
        "responses",
        "https://api.openai.com/v1",
        "gpt-5",
    )
    assert (local.wire_api, local.base_url) == ("chat", "http://h/v1")
    assert forced.wire_api == "responses"


def test_anthropic_headers_and_base_url_from_environment() -> None:
    env = {"ANTHROPIC_API_KEY": "sk", "ANTHROPIC_BASE_URL": "http://proxy:1"}
    choice = select_provider(ProviderRequest("anthropic", None, None, None, env))
    assert choice.base_url == "http://proxy:1"
    assert choice.headers() == {"anthropic-version": "2023-06-01", "x-api-key": "sk"}


def test_custom_provider_table() -> None:
    custom = {
        "lab": ProviderSettings(base_url="http://gpu:8000/v1", api_key_env="LAB_KEY", default_model="m")
    }
    choice = select_provider(ProviderRequest("lab", None, None, None, {"LAB_KEY": "secret"}, custom))
    assert choice == ProviderChoice("lab", "chat", "http://gpu:8000/v1", "m", "secret", "LAB_KEY")
    assert choice.headers() == {"authorization": "Bearer secret"}


def test_unknown_provider_lists_known_ones() -> None:
    with pytest.raises(ConfigError, match="unknown provider 'nope'"):
        select_provider(ProviderRequest("nope", None, None, None, {}))
