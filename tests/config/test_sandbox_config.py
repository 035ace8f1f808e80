"""`[sandbox]`: defaults, the `--sandbox` flag, and a workspace file that may only tighten it."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest

from vtcode.cli.parser import build_parser
from vtcode.cli.session_request import agent_flags
from vtcode.config import load_settings
from vtcode.config.environment import sandbox_missing_features
from vtcode.config.sandbox import sandbox_policy
from vtcode.core.sandbox_policy import SandboxPolicy
from vtcode.protocol.errors import ConfigError, ExitCode


def _env(tmp_path: Path) -> dict[str, str]:
    return {"HOME": str(tmp_path / "home"), "VTCODE_HOME": str(tmp_path / "vthome")}


def _write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def _policy(tmp_path: Path, *, flags: dict[str, object] | None = None) -> SandboxPolicy:
    loaded = load_settings(workspace=tmp_path / "ws", env=_env(tmp_path), flags=flags or {})
    return sandbox_policy(loaded.settings, _env(tmp_path))


def _user_config(tmp_path: Path) -> tuple[str, ...]:
    """What of the user's configuration the sandbox keeps read-only, for this test's homes."""
    vthome, home = tmp_path / "vthome", tmp_path / "home"
    return (
        str(vthome),
        *(
            str(vthome / name)
            for name in ("vtcode.toml", "prompts", "rules", "AGENTS.md", "AGENTS.override.md")
        ),
        *(str(home / name) for name in (".gitconfig", ".config/git", ".config/vtcode")),
    )


def _args(*argv: str) -> argparse.Namespace:
    return build_parser().parse_args(["exec", *argv, "prompt"])


def test_commands_are_confined_to_the_workspace_without_network_by_default(tmp_path: Path) -> None:
    (tmp_path / "ws").mkdir()
    assert _policy(tmp_path) == SandboxPolicy(
        mode="workspace-write", network=False, protected_extra=_user_config(tmp_path)
    )


def test_the_sandbox_flag_sets_the_mode_above_every_file(tmp_path: Path) -> None:
    _write(tmp_path / "vthome" / "vtcode.toml", '[sandbox]\nmode = "read-only"\n')
    (tmp_path / "ws").mkdir()
    flags = agent_flags(_args("--sandbox", "off"))
    assert flags == {"sandbox.mode": "off"}
    assert _policy(tmp_path, flags=flags).mode == "off"
    assert "sandbox.mode" not in agent_flags(_args())


def test_user_writable_roots_may_start_with_the_home_folder(tmp_path: Path) -> None:
    _write(
        tmp_path / "vthome" / "vtcode.toml",
        '[sandbox]\nnetwork = true\nwritable_roots = ["~/.cache", "/opt/data"]\n',
    )
    (tmp_path / "ws").mkdir()
    assert _policy(tmp_path) == SandboxPolicy(
        mode="workspace-write",
        network=True,
        writable_roots=(str(tmp_path / "home" / ".cache"), "/opt/data"),
        protected_extra=_user_config(tmp_path),
    )


def test_the_user_may_allow_named_unix_sockets(tmp_path: Path) -> None:
    _write(
        tmp_path / "vthome" / "vtcode.toml",
        '[sandbox]\nallow_unix_sockets = ["~/.ssh/agent.sock", "/run/user/1000/bus"]\n',
    )
    (tmp_path / "ws").mkdir()
    assert _policy(tmp_path).allow_unix_sockets == (
        str(tmp_path / "home" / ".ssh" / "agent.sock"),
        "/run/user/1000/bus",
    )


def test_a_relative_writable_root_is_a_config_error(tmp_path: Path) -> None:
    _write(tmp_path / "vthome" / "vtcode.toml", '[sandbox]\nwritable_roots = ["build"]\n')
    (tmp_path / "ws").mkdir()
    with pytest.raises(ConfigError) as info:
        _policy(tmp_path)
    assert "sandbox.writable_roots" in info.value.message
    assert "an absolute path or one starting with ~/" in info.value.message


@pytest.mark.parametrize(
    ("table", "key"),
    [
        ('mode = "off"', "sandbox.mode"),
        ("network = true", "sandbox.network"),
        ('writable_roots = ["/opt"]', "sandbox.writable_roots"),
        ('allow_unix_sockets = ["/tmp/tmux-0/default"]', "sandbox.allow_unix_sockets"),
    ],
)
def test_a_workspace_file_cannot_loosen_the_sandbox(tmp_path: Path, table: str, key: str) -> None:
    _write(tmp_path / "ws" / "vtcode.toml", f"[sandbox]\n{table}\n")
    with pytest.raises(ConfigError) as info:
        _policy(tmp_path)
    assert info.value.exit_code == ExitCode.USAGE
    assert info.value.message.startswith(f"{tmp_path / 'ws' / 'vtcode.toml'}:{key}:")
    assert "--sandbox" in (info.value.hint or "")


def test_a_workspace_file_may_tighten_the_sandbox(tmp_path: Path) -> None:
    _write(tmp_path / "vthome" / "vtcode.toml", '[sandbox]\nmode = "off"\nnetwork = true\n')
    _write(tmp_path / "ws" / ".vtcode" / "vtcode.toml", '[sandbox]\nmode = "read-only"\nnetwork = false\n')
    assert _policy(tmp_path) == SandboxPolicy(
        mode="read-only", network=False, protected_extra=_user_config(tmp_path)
    )


def test_a_workspace_file_may_repeat_a_network_the_user_turned_on(tmp_path: Path) -> None:
    _write(tmp_path / "vthome" / "vtcode.toml", "[sandbox]\nnetwork = true\n")
    _write(tmp_path / "ws" / "vtcode.toml", '[sandbox]\nnetwork = true\nmode = "workspace-write"\n')
    assert _policy(tmp_path) == SandboxPolicy(
        mode="workspace-write", network=True, protected_extra=_user_config(tmp_path)
    )


def test_pretend_missing_names_only_known_features() -> None:
    assert sandbox_missing_features({"VTCODE_SANDBOX_PRETEND_MISSING": "landlock, userns"}) == {
        "landlock",
        "userns",
    }
    assert sandbox_missing_features({}) == frozenset()
    with pytest.raises(ConfigError) as info:
        sandbox_missing_features({"VTCODE_SANDBOX_PRETEND_MISSING": "seccomp"})
    assert "expected a comma-separated list of landlock, userns" in info.value.message
