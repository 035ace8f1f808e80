"""Every configuration error names its source and key, says what is wrong and what is expected."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

import pytest

from vtcode.config import load_settings
from vtcode.protocol.errors import ConfigError

_QUOTE_HINT = "VALUE is read as TOML; quote text to keep it a string: -c 'agent.model=\"1\"'"


def _error(
    tmp_path: Path,
    user_toml: str | bytes | None = None,
    *,
    env: Mapping[str, str] | None = None,
    overrides: Sequence[str] = (),
    flags: Mapping[str, object] | None = None,
) -> ConfigError:
    """The ConfigError raised by loading with `user_toml` as `$VTCODE_HOME/vtcode.toml`."""
    home = tmp_path / "vthome"
    home.mkdir(exist_ok=True)
    if isinstance(user_toml, str):
        (home / "vtcode.toml").write_text(user_toml, encoding="utf-8")
    elif isinstance(user_toml, bytes):
        (home / "vtcode.toml").write_bytes(user_toml)
    full_env = {"HOME": str(tmp_path / "home"), "VTCODE_HOME": str(home), **(env or {})}
    with pytest.raises(ConfigError) as caught:
        load_settings(workspace=tmp_path / "ws", env=full_env, overrides=overrides, flags=flags or {})
    return caught.value


def _user_file(tmp_path: Path) -> str:
    return str(tmp_path / "vthome" / "vtcode.toml")


def test_config_errors_exit_with_code_2(tmp_path: Path) -> None:
    assert int(_error(tmp_path, "[agent]\nmax_turns = 0\n").exit_code) == 2


def test_invalid_toml_names_line_and_column(tmp_path: Path) -> None:
    error = _error(tmp_path, '[agent]\nmodel = "gpt\nmax_turns = 3\n')
    assert error.message == (
        f"{_user_file(tmp_path)}: invalid TOML at line 2, column 13: illegal character '\\n'"
    )


def test_invalid_toml_at_end_of_document_names_its_position(tmp_path: Path) -> None:
    error = _error(tmp_path, "[agent]\nmodel = ")
    assert error.message == f"{_user_file(tmp_path)}: invalid TOML at line 2, column 9: invalid value"


def test_file_that_is_not_utf8_names_the_byte(tmp_path: Path) -> None:
    error = _error(tmp_path, b'[agent]\nmodel = "caf\xe9"\n')
    assert error.message == (
        f"{_user_file(tmp_path)}: invalid TOML at line 2, column 13: byte 0xe9 is not UTF-8"
    )


def test_unreadable_file(tmp_path: Path) -> None:
    (tmp_path / "vthome" / "vtcode.toml").mkdir(parents=True)
    error = _error(tmp_path)
    assert error.message == (
        f"{_user_file(tmp_path)}: cannot read (Is a directory), expected a readable TOML file"
    )


def test_unknown_key_suggests_the_close_spelling(tmp_path: Path) -> None:
    error = _error(tmp_path, '[agent]\nprovder = "openai"\n')
    assert error.message == (
        f"{_user_file(tmp_path)}:agent.provder: unknown key, did you mean agent.provider?"
    )
    assert error.hint is None


def test_nested_unknown_key_names_the_full_path(tmp_path: Path) -> None:
    error = _error(tmp_path, "[context.dynamic]\nenabeld = false\n")
    assert error.message == (
        f"{_user_file(tmp_path)}:context.dynamic.enabeld: unknown key, did you mean context.dynamic.enabled?"
    )


def test_key_in_the_wrong_table_suggests_its_table(tmp_path: Path) -> None:
    error = _error(tmp_path, "[agent]\nmax_context_tokens = 30000\n")
    assert error.message == (
        f"{_user_file(tmp_path)}:agent.max_context_tokens: unknown key, "
        "did you mean context.max_context_tokens?"
    )


def test_unknown_key_under_a_model_quotes_the_model_name(tmp_path: Path) -> None:
    error = _error(tmp_path, '[models."gpt-4.1"]\ncontext_windw = 1\n')
    assert error.message == (
        f'{_user_file(tmp_path)}:models."gpt-4.1".context_windw: unknown key, '
        'did you mean models."gpt-4.1".context_window?'
    )


def test_unknown_key_without_a_close_spelling_lists_the_table_keys(tmp_path: Path) -> None:
    error = _error(tmp_path, "[network]\nzzz = 1\n")
    assert error.message == (
        f"{_user_file(tmp_path)}:network.zzz: unknown key, expected one of "
        "connect_timeout_seconds, stream_idle_timeout_seconds, response_deadline_seconds, max_retries, "
        "max_retry_seconds"
    )


def test_unknown_top_level_table(tmp_path: Path) -> None:
    error = _error(tmp_path, "[agnet]\nmodel = 'x'\n")
    assert error.message == f"{_user_file(tmp_path)}:agnet: unknown key, did you mean agent?"


def test_wrong_type(tmp_path: Path) -> None:
    error = _error(tmp_path, '[context]\nmax_context_tokens = "abc"\n')
    assert error.message == (
        f'{_user_file(tmp_path)}:context.max_context_tokens: got "abc" (str), expected an integer >= 0'
    )


def test_bool_is_not_an_integer(tmp_path: Path) -> None:
    error = _error(tmp_path, "[agent]\nmax_turns = true\n")
    assert error.message == (
        f"{_user_file(tmp_path)}:agent.max_turns: got true (bool), expected an integer >= 1"
    )


def test_value_where_a_table_belongs(tmp_path: Path) -> None:
    error = _error(tmp_path, "agent = 5\n")
    assert error.message == f"{_user_file(tmp_path)}:agent: got 5 (int), expected a table"


def test_list_with_a_wrong_item(tmp_path: Path) -> None:
    error = _error(tmp_path, '[approvals]\nallow = ["ls", 3]\n')
    assert error.message == (
        f'{_user_file(tmp_path)}:approvals.allow: got ["ls", 3] (list), expected a list of strings'
    )


def test_value_outside_a_set_of_names(tmp_path: Path) -> None:
    error = _error(tmp_path, '[agent]\napproval = "yolo"\n')
    assert error.message == (
        f'{_user_file(tmp_path)}:agent.approval: got "yolo" (str), '
        'expected one of "ask", "auto-edit", "full-auto", "read-only"'
    )


@pytest.mark.parametrize(
    ("toml", "problem"),
    [
        (
            "[context]\nmax_context_tokens = -1",
            "context.max_context_tokens: got -1 (int), expected an integer >= 0",
        ),
        (
            "[context.dynamic]\ntool_output_threshold = 100",
            "context.dynamic.tool_output_threshold: got 100 (int), expected an integer >= 1024",
        ),
        (
            "[context.dynamic]\nretained_user_messages = 0",
            "context.dynamic.retained_user_messages: got 0 (int), expected an integer >= 1",
        ),
        (
            "[timeouts]\nwait_default_seconds = 3601",
            "timeouts.wait_default_seconds: got 3601 (int), expected an integer between 1 and 3600",
        ),
        (
            "[timeouts]\nlong_running_command_ceiling_seconds = 14",
            "timeouts.long_running_command_ceiling_seconds: got 14 (int), "
            "expected 0 or an integer between 15 and 3600",
        ),
        (
            "[timeouts]\nlong_running_command_ceiling_seconds = 3601",
            "timeouts.long_running_command_ceiling_seconds: got 3601 (int), "
            "expected 0 or an integer between 15 and 3600",
        ),
        (
            "[network]\nmax_retries = 21",
            "network.max_retries: got 21 (int), expected an integer between 0 and 20",
        ),
        (
            "[network]\nconnect_timeout_seconds = 0.0",
            "network.connect_timeout_seconds: got 0.0 (float), expected a number > 0",
        ),
        (
            "[network]\nstream_idle_timeout_seconds = nan",
            "network.stream_idle_timeout_seconds: got nan (float), expected a number > 0",
        ),
        (
            "[pty]\nmax_sessions = 0",
            "pty.max_sessions: got 0 (int), expected an integer between 1 and 256",
        ),
        (
            '[models."gpt-4.1"]\ncontext_window = 0',
            'models."gpt-4.1".context_window: got 0 (int), expected an integer >= 1',
        ),
    ],
)
def test_out_of_range_value(tmp_path: Path, toml: str, problem: str) -> None:
    error = _error(tmp_path, toml + "\n")
    assert error.message == f"{_user_file(tmp_path)}:{problem}"


@pytest.mark.parametrize("seconds", [0, 15, 3600])
def test_long_running_ceiling_accepts_zero_and_15_to_3600(tmp_path: Path, seconds: int) -> None:
    settings = load_settings(
        workspace=tmp_path,
        env={"HOME": str(tmp_path)},
        overrides=[f"timeouts.long_running_command_ceiling_seconds={seconds}"],
    ).settings
    assert settings.timeouts.long_running_command_ceiling_seconds == seconds


def test_error_in_the_workspace_file_names_that_file(tmp_path: Path) -> None:
    workspace_file = tmp_path / "ws" / ".vtcode" / "vtcode.toml"
    workspace_file.parent.mkdir(parents=True)
    workspace_file.write_text("[pty]\ndefault_rows = 0\n", encoding="utf-8")
    error = _error(tmp_path, "[pty]\ndefault_rows = 40\n")
    assert error.message == (f"{workspace_file}:pty.default_rows: got 0 (int), expected an integer >= 1")


def test_bad_environment_variable_names_the_variable(tmp_path: Path) -> None:
    error = _error(tmp_path, env={"VTCODE_APPROVAL": "foo"})
    assert error.message == (
        'VTCODE_APPROVAL:agent.approval: got "foo" (str), '
        'expected one of "ask", "auto-edit", "full-auto", "read-only"'
    )


def test_bad_profile_variable(tmp_path: Path) -> None:
    error = _error(tmp_path, env={"VTCODE_PROFILE": "tiny"})
    assert error.message == (
        'VTCODE_PROFILE:agent.system_prompt_mode: got "tiny" (str), '
        'expected one of "default", "lightweight", "minimal", "specialized"'
    )


def test_bad_debug_variable(tmp_path: Path) -> None:
    error = _error(tmp_path, env={"VTCODE_DEBUG": "maybe"})
    assert error.message == ('VTCODE_DEBUG: got "maybe", expected one of 1, true, yes, on, 0, false, no, off')


def test_bad_override_value_names_the_option_and_hints_at_quoting(tmp_path: Path) -> None:
    error = _error(tmp_path, overrides=["agent.model=1"])
    assert error.message == "-c agent.model=1:agent.model: got 1 (int), expected a string"
    assert error.hint == _QUOTE_HINT


def test_unknown_override_key(tmp_path: Path) -> None:
    error = _error(tmp_path, overrides=["agent.foo=1"])
    assert error.message == (
        "-c agent.foo=1:agent.foo: unknown key, expected one of provider, model, base_url, "
        "wire_api, system_prompt_mode, approval, max_turns, user_instructions, instruction_files, "
        "instruction_excludes, instruction_max_bytes, instruction_import_max_depth, "
        "reasoning_effort, max_output_tokens, include_temporal_context, include_working_directory, "
        "harness, max_budget_usd, max_tokens_total, auto_compaction_enabled"
    )
    assert error.hint is None


def test_bad_flag_value(tmp_path: Path) -> None:
    error = _error(tmp_path, flags={"agent.max_turns": 0})
    assert error.message == "command line:agent.max_turns: got 0 (int), expected an integer >= 1"


def test_unknown_provider_suggests_a_known_one(tmp_path: Path) -> None:
    error = _error(tmp_path, '[agent]\nprovider = "antropic"\n')
    assert error.message == (
        f'{_user_file(tmp_path)}:agent.provider: got "antropic" (str), expected one of '
        '"anthropic", "gemini", "ollama", "openai", "openai-compatible" '
        "or a name defined as [providers.<name>]"
    )
    assert error.hint == 'did you mean "anthropic"?'


def test_alias_and_harness_key_in_the_same_layer_conflict(tmp_path: Path) -> None:
    error = _error(
        tmp_path,
        "[agent]\nauto_compaction_enabled = false\n[agent.harness]\nauto_compaction_enabled = true\n",
    )
    assert error.message == (
        f"{_user_file(tmp_path)}:agent.auto_compaction_enabled: set together with "
        "agent.harness.auto_compaction_enabled, expected only one of the two"
    )


def test_alias_with_a_wrong_type_names_the_alias(tmp_path: Path) -> None:
    error = _error(tmp_path, overrides=["agent.auto_compaction_enabled=off"])
    assert error.message == (
        '-c agent.auto_compaction_enabled=off:agent.auto_compaction_enabled: got "off" (str), '
        "expected true or false"
    )
