"""Deprecated keys load, are ignored, and produce one notice naming where they were set."""

from __future__ import annotations

from pathlib import Path

from vtcode.config import load_settings


def _env(tmp_path: Path) -> dict[str, str]:
    return {"HOME": str(tmp_path / "home"), "VTCODE_HOME": str(tmp_path / "vthome")}


def test_retained_user_messages_gives_a_notice_and_the_token_budget_rules(tmp_path: Path) -> None:
    user_file = tmp_path / "vthome" / "vtcode.toml"
    user_file.parent.mkdir(parents=True)
    user_file.write_text("[context.dynamic]\nretained_user_messages = 2\n", encoding="utf-8")
    loaded = load_settings(workspace=tmp_path / "ws", env=_env(tmp_path))
    assert loaded.settings.context.dynamic.retained_user_tokens == 4_000
    [notice] = loaded.notices
    assert notice.startswith(str(user_file))
    assert "retained_user_messages is deprecated and ignored" in notice
    assert "retained_user_tokens" in notice


def test_the_token_budget_is_a_plain_key_without_notice(tmp_path: Path) -> None:
    loaded = load_settings(
        workspace=tmp_path / "ws",
        env=_env(tmp_path),
        overrides=["context.dynamic.retained_user_tokens=1500"],
    )
    assert loaded.settings.context.dynamic.retained_user_tokens == 1_500
    assert loaded.notices == ()
