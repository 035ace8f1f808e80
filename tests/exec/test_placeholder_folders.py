"""Placeholders for protected paths not there yet: empty folders, made without links, removed if empty."""

from __future__ import annotations

from pathlib import Path

from vtcode.exec.sandbox_paths import Placeholders


def test_placeholders_stand_in_for_any_missing_entry_and_go_away_unchanged(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    ws.mkdir()
    (ws / "kept.toml").write_text("mine\n")
    placeholders = Placeholders(ws)
    found = placeholders.existing([".mcp.json", "settings.toml", ".git/hooks", "kept.toml", "notes"])
    assert found == [str(ws / n) for n in (".mcp.json", "settings.toml", ".git", "kept.toml", "notes")]
    # Folders, also under a file's name: nobody lists an empty folder, and loaders read it as absent.
    assert [(ws / name).is_dir() for name in (".mcp.json", "settings.toml", ".git", "notes")] == [True] * 4
    assert [list((ws / name).iterdir()) for name in (".mcp.json", "settings.toml", ".git")] == [[], [], []]
    (ws / "notes" / "mine.txt").write_text("written by the user meanwhile\n")
    placeholders.remove()
    assert sorted(p.name for p in ws.iterdir()) == ["kept.toml", "notes"]
    assert (ws / "kept.toml").read_text() == "mine\n"


def test_a_placeholder_is_never_made_through_a_link(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    outside = tmp_path / "outside"
    ws.mkdir()
    outside.mkdir()
    (ws / "cfg").symlink_to(outside)
    assert Placeholders(ws).existing(["cfg/vtcode.toml"]) == []
    assert list(outside.iterdir()) == []
