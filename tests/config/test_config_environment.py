"""Provider credentials and endpoints from the environment."""

from __future__ import annotations

import pytest

from vtcode.config import ProviderEnv, provider_env


def test_provider_env_reads_keys_hosts_and_base_urls() -> None:
    env = {
        "OPENAI_API_KEY": "sk-o",
        "ANTHROPIC_API_KEY": "sk-a",
        "GEMINI_API_KEY": "g",
        "OLLAMA_HOST": "http://127.0.0.1:11434",
        "OPENAI_BASE_URL": "http://127.0.0.1:8080/v1",
        "ANTHROPIC_BASE_URL": "http://127.0.0.1:8081",
        "VTCODE_DEBUG": "1",
        "UNRELATED": "x",
    }
    assert provider_env(env) == ProviderEnv(
        openai_api_key="sk-o",
        anthropic_api_key="sk-a",
        gemini_api_key="g",
        ollama_host="http://127.0.0.1:11434",
        openai_base_url="http://127.0.0.1:8080/v1",
        anthropic_base_url="http://127.0.0.1:8081",
        debug=True,
    )


def test_empty_variables_count_as_unset() -> None:
    assert provider_env({"OPENAI_API_KEY": "", "VTCODE_DEBUG": ""}) == ProviderEnv()


@pytest.mark.parametrize(
    ("raw", "debug"),
    [("1", True), ("TRUE", True), ("yes", True), ("on", True), ("0", False), ("off", False)],
)
def test_debug_flag_spellings(raw: str, debug: bool) -> None:
    assert provider_env({"VTCODE_DEBUG": raw}).debug is debug


def test_repr_masks_api_keys() -> None:
    shown = repr(provider_env({"OPENAI_API_KEY": "sk-secret", "OLLAMA_HOST": "http://h"}))
    assert shown == (
        "ProviderEnv(openai_api_key='<set>', anthropic_api_key=None, gemini_api_key=None, "
        "ollama_host='http://h', openai_base_url=None, anthropic_base_url=None, debug=False)"
    )
