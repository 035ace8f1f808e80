"""The README names every config key, reasoning effort included, and `--profile` says what it is."""

from __future__ import annotations

from pathlib import Path

import msgspec
from tests.conftest import VtcodeRunner

from vtcode.config import schema

README = Path(__file__).resolve().parents[2] / "README.md"


def _keys(cls: type[msgspec.Struct], prefix: str = "") -> list[str]:
    keys: list[str] = []
    for field in msgspec.structs.fields(cls):
        kind = field.type
        if isinstance(kind, type) and issubclass(kind, msgspec.Struct):
            keys.extend(_keys(kind, f"{prefix}{field.encode_name}."))
        else:
            keys.append(f"{prefix}{field.encode_name}")
    return keys


def test_every_config_key_is_named_in_the_readme() -> None:
    text = README.read_text()
    missing = [key for key in _keys(schema.Settings) if key.rpartition(".")[2] not in text]
    assert missing == []
    assert "agent.reasoning_effort" in text


def test_profile_help_says_it_is_the_system_prompt_profile_not_a_config_profile(vtcode: VtcodeRunner) -> None:
    for args in (("--help",), ("exec", "--help")):
        result = vtcode.run(*args)
        assert result.code == 0, result.stderr
        flat = " ".join(result.stdout.split())
        assert "the system prompt profile" in flat
        assert "not a Codex config profile" in flat
