"""Commands that edit the user config (`vtcode mcp add`) write through a symlinked file, keeping the link."""

from __future__ import annotations

from pathlib import Path

from tests.conftest import VtcodeRunner

_SETTINGS = "# my settings\n[agent]\nmax_turns = 7 # keep\n"


def _linked_config(home: Path) -> tuple[Path, Path]:
    """A dotfiles-style setup: $VTCODE_HOME/vtcode.toml is a symlink to a file kept elsewhere."""
    real = home / "dotfiles" / "vtcode.toml"
    real.parent.mkdir()
    real.write_text(_SETTINGS)
    real.chmod(0o644)
    link = home / ".vtcode" / "vtcode.toml"
    link.parent.mkdir()
    link.symlink_to(real)
    return link, real


def test_mcp_add_writes_the_target_of_a_symlinked_user_config(vtcode: VtcodeRunner) -> None:
    link, real = _linked_config(vtcode.home)
    result = vtcode.run("mcp", "add", "demo", "--", "echo", "hi")
    assert result.code == 0, result.stderr
    assert link.is_symlink()
    assert link.resolve() == real
    assert real.read_text().startswith(_SETTINGS)
    assert "[mcp_servers.demo]" in real.read_text()
    assert real.stat().st_mode & 0o777 == 0o644
    assert sorted(p.name for p in real.parent.iterdir()) == ["vtcode.toml"]  # no temporary file left

    result = vtcode.run("mcp", "remove", "demo")
    assert result.code == 0, result.stderr
    assert link.is_symlink()
    assert real.read_text().rstrip() == _SETTINGS.rstrip()


def test_hooks_trust_keeps_a_symlinked_user_config(vtcode: VtcodeRunner, tmp_path: Path) -> None:
    link, real = _linked_config(vtcode.home)
    hooks = tmp_path / ".vtcode" / "hooks.json"
    hooks.parent.mkdir()
    hooks.write_text('{"hooks": {"PreToolUse": [{"hooks": [{"type": "command", "command": "true"}]}]}}')
    result = vtcode.run("hooks", "trust", cwd=tmp_path)
    assert result.code == 0, result.stderr
    assert link.is_symlink()
    assert real.read_text().startswith(_SETTINGS)
    assert "hooks" in real.read_text()


def test_a_config_symlink_loop_is_an_error_not_an_ignored_file(vtcode: VtcodeRunner, tmp_path: Path) -> None:
    link = vtcode.home / ".vtcode" / "vtcode.toml"
    link.parent.mkdir()
    link.symlink_to(link)
    result = vtcode.run("prompt", cwd=tmp_path)
    assert result.code == 2
    assert result.stderr == (
        f"vtcode: {link}: cannot read (Too many levels of symbolic links), expected a readable TOML file\n"
    )


def test_a_dangling_config_symlink_is_an_error_not_an_ignored_file(
    vtcode: VtcodeRunner, tmp_path: Path
) -> None:
    link = tmp_path / "vtcode.toml"
    link.symlink_to(tmp_path / "moved-away.toml")
    result = vtcode.run("prompt", cwd=tmp_path)
    assert result.code == 2
    assert result.stderr == (
        f"vtcode: {link}: cannot read (No such file or directory), expected a readable TOML file\n"
    )
