"""`-c KEY=VALUE`: TOML values with a plain-string fallback, TOML dotted keys."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from vtcode.config import DynamicContextSettings, ModelSettings, load_settings, parse_override
from vtcode.protocol.errors import ConfigError, ExitCode


def _parsed(text: str) -> tuple[str, Any]:
    """Source name and table of one `-c` option."""
    layer = parse_override(text)
    return layer.source, layer.table


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("30000", 30000),
        ("true", True),
        ("1.5", 1.5),
        ('["**/legacy/**", "vendor/**"]', ["**/legacy/**", "vendor/**"]),
        (
            "{ enabled = false, retained_user_messages = 2 }",
            {
                "enabled": False,
                "retained_user_messages": 2,
            },
        ),
        ('"1"', "1"),
        ("gpt-4.1", "gpt-4.1"),
        ("hello world", "hello world"),
        ("", ""),
        # Parses as TOML, but as a second key: it is not one value, so it stays text.
        ("1\nx = 2", "1\nx = 2"),
    ],
)
def test_value_is_toml_or_else_plain_text(value: str, expected: object) -> None:
    assert _parsed(f"a.b={value}") == (f"-c a.b={value}", {"a": {"b": expected}})


def test_quoted_key_segment_keeps_its_dots() -> None:
    assert _parsed('models."gpt-4.1".context_window=1000') == (
        '-c models."gpt-4.1".context_window=1000',
        {"models": {"gpt-4.1": {"context_window": 1000}}},
    )


def test_equals_sign_inside_a_quoted_key_segment_is_part_of_the_key() -> None:
    assert _parsed("models.'a=b'.context_window=1")[1] == {"models": {"a=b": {"context_window": 1}}}


def test_whitespace_around_key_and_value_is_ignored() -> None:
    assert _parsed(" agent.max_turns = 5 ")[1] == {"agent": {"max_turns": 5}}


def test_value_may_contain_equals_signs() -> None:
    assert _parsed("agent.base_url=http://h/v1?a=b")[1] == {"agent": {"base_url": "http://h/v1?a=b"}}


def test_missing_equals_sign_is_a_usage_error() -> None:
    with pytest.raises(ConfigError) as caught:
        parse_override("context.max_context_tokens")
    assert caught.value.message == '-c context.max_context_tokens: missing "=", expected KEY=VALUE'
    assert caught.value.hint == "write -c KEY=VALUE, e.g. -c context.max_context_tokens=30000"
    assert caught.value.exit_code == ExitCode.USAGE


@pytest.mark.parametrize("key", ["", "agent..model", "agent.", "a b"])
def test_malformed_key_is_a_usage_error(key: str) -> None:
    with pytest.raises(ConfigError) as caught:
        parse_override(f"{key}=1")
    assert caught.value.message == (
        f'-c {key}=1: invalid key "{key}", expected a dotted key such as context.max_context_tokens'
    )


def _env(tmp_path: Path) -> dict[str, str]:
    """An isolated environment: HOME and VTCODE_HOME inside tmp_path."""
    return {"HOME": str(tmp_path / "home"), "VTCODE_HOME": str(tmp_path / "vthome")}


def test_overrides_reach_the_settings(tmp_path: Path) -> None:
    settings = load_settings(
        workspace=tmp_path,
        env=_env(tmp_path),
        overrides=[
            "context.max_context_tokens=30000",
            "agent.provider=openai",
            'agent.instruction_excludes=["**/legacy/**"]',
            "context.dynamic={ enabled = false }",
            'models."gpt-4.1".context_window=1000',
        ],
    ).settings
    assert settings.context.max_context_tokens == 30000
    assert settings.agent.provider == "openai"
    assert settings.agent.instruction_excludes == ("**/legacy/**",)
    assert settings.context.dynamic == DynamicContextSettings(enabled=False)
    assert settings.models == {"gpt-4.1": ModelSettings(context_window=1000)}
