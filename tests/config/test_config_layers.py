"""Layer order of SPEC section 3: defaults < user file < workspace files < env < -c < flags."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

import pytest

from vtcode.config import (
    AgentSettings,
    ApprovalSettings,
    ContextSettings,
    DynamicContextSettings,
    HarnessSettings,
    LoadedConfig,
    ModelSettings,
    ProviderSettings,
    Settings,
    load_settings,
    resolve_home,
)
from vtcode.protocol.errors import ConfigError


def _env(tmp_path: Path, **extra: str) -> dict[str, str]:
    """An isolated environment: HOME and VTCODE_HOME inside tmp_path."""
    return {"HOME": str(tmp_path / "home"), "VTCODE_HOME": str(tmp_path / "vthome"), **extra}


def _write(path: Path, text: str) -> Path:
    """Write a config file, creating its folder."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def _model(
    tmp_path: Path,
    *,
    env: Mapping[str, str],
    overrides: Sequence[str] = (),
    flags: Mapping[str, object] | None = None,
) -> str | None:
    """The effective `agent.model` for a workspace at tmp_path/ws."""
    loaded = load_settings(workspace=tmp_path / "ws", env=env, overrides=overrides, flags=flags or {})
    return loaded.settings.agent.model


def test_defaults_when_nothing_is_configured(tmp_path: Path) -> None:
    loaded = load_settings(workspace=tmp_path / "ws", env=_env(tmp_path))
    assert loaded == LoadedConfig(settings=Settings(), home=tmp_path / "vthome", sources=())


def test_user_file_beats_defaults(tmp_path: Path) -> None:
    user = _write(tmp_path / "vthome" / "vtcode.toml", '[agent]\nmodel = "user"\n')
    loaded = load_settings(workspace=tmp_path / "ws", env=_env(tmp_path))
    assert loaded.settings == Settings(agent=AgentSettings(model="user"))
    assert loaded.sources == (str(user),)


def test_workspace_file_beats_user_file(tmp_path: Path) -> None:
    user = _write(tmp_path / "vthome" / "vtcode.toml", '[agent]\nmodel = "user"\n')
    workspace = _write(tmp_path / "ws" / "vtcode.toml", '[agent]\nmodel = "workspace"\n')
    loaded = load_settings(workspace=tmp_path / "ws", env=_env(tmp_path))
    assert loaded.settings.agent.model == "workspace"
    assert loaded.sources == (str(user), str(workspace))


def test_dot_vtcode_workspace_file_beats_user_file(tmp_path: Path) -> None:
    _write(tmp_path / "vthome" / "vtcode.toml", '[agent]\nmodel = "user"\n')
    hidden = _write(tmp_path / "ws" / ".vtcode" / "vtcode.toml", '[agent]\nmodel = "hidden"\n')
    loaded = load_settings(workspace=tmp_path / "ws", env=_env(tmp_path))
    assert loaded.settings.agent.model == "hidden"
    assert loaded.sources[-1] == str(hidden)


def test_both_workspace_files_are_read_and_the_top_level_one_wins(tmp_path: Path) -> None:
    hidden = _write(
        tmp_path / "ws" / ".vtcode" / "vtcode.toml",
        '[agent]\nmodel = "hidden"\nmax_turns = 7\n',
    )
    top = _write(tmp_path / "ws" / "vtcode.toml", '[agent]\nmodel = "top"\n')
    loaded = load_settings(workspace=tmp_path / "ws", env=_env(tmp_path))
    assert loaded.settings.agent == AgentSettings(model="top", max_turns=7)
    assert loaded.sources == (str(hidden), str(top))


def test_environment_beats_workspace_file(tmp_path: Path) -> None:
    _write(tmp_path / "ws" / "vtcode.toml", '[agent]\nmodel = "workspace"\n')
    assert _model(tmp_path, env=_env(tmp_path, VTCODE_MODEL="env")) == "env"


def test_environment_variables_set_their_keys(tmp_path: Path) -> None:
    env = _env(
        tmp_path,
        VTCODE_PROVIDER="anthropic",
        VTCODE_MODEL="claude",
        VTCODE_PROFILE="minimal",
        VTCODE_APPROVAL="full-auto",
    )
    loaded = load_settings(workspace=tmp_path / "ws", env=env)
    assert loaded.settings.agent == AgentSettings(
        provider="anthropic", model="claude", system_prompt_mode="minimal", approval="full-auto"
    )


def test_empty_environment_variable_counts_as_unset(tmp_path: Path) -> None:
    _write(tmp_path / "ws" / "vtcode.toml", '[agent]\nmodel = "workspace"\n')
    assert _model(tmp_path, env=_env(tmp_path, VTCODE_MODEL="")) == "workspace"


def test_override_beats_environment(tmp_path: Path) -> None:
    env = _env(tmp_path, VTCODE_MODEL="env")
    assert _model(tmp_path, env=env, overrides=["agent.model=override"]) == "override"


def test_later_override_beats_earlier_one(tmp_path: Path) -> None:
    overrides = ["agent.model=first", "agent.model=second"]
    assert _model(tmp_path, env=_env(tmp_path), overrides=overrides) == "second"


def test_flag_beats_override(tmp_path: Path) -> None:
    model = _model(
        tmp_path,
        env=_env(tmp_path),
        overrides=["agent.model=override"],
        flags={"agent.model": "flag"},
    )
    assert model == "flag"


def test_flag_given_as_none_was_not_given(tmp_path: Path) -> None:
    model = _model(
        tmp_path, env=_env(tmp_path), overrides=["agent.model=override"], flags={"agent.model": None}
    )
    assert model == "override"


def test_tables_merge_key_by_key_across_layers(tmp_path: Path) -> None:
    _write(tmp_path / "vthome" / "vtcode.toml", "[context]\nmax_context_tokens = 1000\n")
    _write(tmp_path / "ws" / "vtcode.toml", "[context.dynamic]\nenabled = false\n")
    loaded = load_settings(
        workspace=tmp_path / "ws",
        env=_env(tmp_path),
        overrides=["context.dynamic.retained_user_messages=2"],
    )
    assert loaded.settings.context == ContextSettings(
        max_context_tokens=1000,
        dynamic=DynamicContextSettings(enabled=False, retained_user_messages=2),
    )


def test_a_list_replaces_the_lower_list(tmp_path: Path) -> None:
    _write(tmp_path / "vthome" / "vtcode.toml", '[approvals]\nallow = ["git status", "ls"]\n')
    _write(tmp_path / "ws" / "vtcode.toml", '[agent]\ninstruction_files = ["docs/a.md"]\n')
    loaded = load_settings(
        workspace=tmp_path / "ws",
        env=_env(tmp_path),
        overrides=['approvals.allow=["pytest"]', 'agent.instruction_files=["docs/b.md"]'],
    )
    assert loaded.settings.approvals == ApprovalSettings(allow=("pytest",))
    assert loaded.settings.agent.instruction_files == ("docs/b.md",)


def test_workspace_at_home_reads_the_user_file_once(tmp_path: Path) -> None:
    home = tmp_path / "home"
    user = _write(home / ".vtcode" / "vtcode.toml", "[agent]\nmax_turns = 3\n")
    loaded = load_settings(workspace=home, env={"HOME": str(home)})
    assert loaded.home == home / ".vtcode"
    assert loaded.sources == (str(user),)
    assert loaded.settings.agent.max_turns == 3


def test_vtcode_home_defaults_to_dot_vtcode_under_home(tmp_path: Path) -> None:
    assert resolve_home({"HOME": str(tmp_path)}) == tmp_path / ".vtcode"


def test_vtcode_home_expands_tilde_with_the_given_home(tmp_path: Path) -> None:
    env = {"HOME": str(tmp_path), "VTCODE_HOME": "~/state/vt"}
    assert resolve_home(env) == tmp_path / "state" / "vt"


def test_relative_vtcode_home_is_rejected() -> None:
    with pytest.raises(ConfigError) as caught:
        resolve_home({"HOME": "/home/u", "VTCODE_HOME": "state"})
    assert caught.value.message == (
        'VTCODE_HOME: got "state", expected an absolute path or one starting with ~/'
    )


def test_missing_home_is_a_config_error() -> None:
    with pytest.raises(ConfigError) as caught:
        resolve_home({})
    assert caught.value.message == 'HOME: got "", expected the absolute path of the home directory'


def test_per_model_context_window_override(tmp_path: Path) -> None:
    _write(
        tmp_path / "vthome" / "vtcode.toml",
        '[models."gpt-4.1"]\ncontext_window = 1000000\nmax_output_tokens = 32768\n',
    )
    settings = load_settings(workspace=tmp_path / "ws", env=_env(tmp_path)).settings
    assert settings.models == {"gpt-4.1": ModelSettings(context_window=1_000_000, max_output_tokens=32768)}
    assert settings.model_settings("gpt-4.1").context_window == 1_000_000
    assert settings.model_settings("other") == ModelSettings()


def test_agent_auto_compaction_enabled_is_an_alias_for_the_harness_key(tmp_path: Path) -> None:
    _write(tmp_path / "ws" / "vtcode.toml", "[agent]\nauto_compaction_enabled = false\n")
    settings = load_settings(workspace=tmp_path / "ws", env=_env(tmp_path)).settings
    assert settings.agent.harness == HarnessSettings(auto_compaction_enabled=False)


def test_alias_in_a_higher_layer_beats_the_harness_key_in_a_lower_one(tmp_path: Path) -> None:
    _write(tmp_path / "vthome" / "vtcode.toml", "[agent.harness]\nauto_compaction_enabled = false\n")
    settings = load_settings(
        workspace=tmp_path / "ws",
        env=_env(tmp_path),
        overrides=["agent.auto_compaction_enabled=true"],
    ).settings
    assert settings.agent.harness.auto_compaction_enabled is True


def test_provider_may_name_a_providers_table_from_another_layer(tmp_path: Path) -> None:
    _write(
        tmp_path / "vthome" / "vtcode.toml",
        '[providers.lmstudio]\nbase_url = "http://127.0.0.1:1234/v1"\nwire_api = "chat"\n',
    )
    settings = load_settings(
        workspace=tmp_path / "ws", env=_env(tmp_path, VTCODE_PROVIDER="lmstudio")
    ).settings
    assert settings.agent.provider == "lmstudio"
    assert settings.providers == {
        "lmstudio": ProviderSettings(base_url="http://127.0.0.1:1234/v1", wire_api="chat")
    }


def test_provider_endpoints_in_the_environment_are_not_settings(tmp_path: Path) -> None:
    env = _env(tmp_path, OPENAI_API_KEY="sk-test", OPENAI_BASE_URL="http://127.0.0.1:8080/v1")
    loaded = load_settings(workspace=tmp_path / "ws", env=env)
    # OPENAI_BASE_URL applies only to an OpenAI-style endpoint, so it is not a settings layer.
    assert loaded.settings.agent.base_url is None
