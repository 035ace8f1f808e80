"""The TUI asks before a workspace's hooks run: trusting records their digests in the user file (as
`vtcode hooks trust` does) and they run at once; "not now" keeps them off; a changed script asks again."""

from __future__ import annotations

import dataclasses
import shutil
import tomllib
from pathlib import Path

from tests.hooks.helpers import hooks_json, script
from tests.hooks.test_hooks_in_the_tui import _touch, _with_hooks
from tests.tui.tui_helpers import make_app, screen_text, type_text, until
from vtcode.config.hook_sources import load_hooks
from vtcode.config.loader import load_settings
from vtcode.core.hooks.model import ConfiguredHook, HookHandler, HookSet, HookSource
from vtcode.testing.script import Reply
from vtcode.testing.wire import server_for
from vtcode.tui.hooks_trust import HookTrustScreen


def _workspace(tmp_path: Path) -> tuple[Path, Path, Path]:
    """A workspace whose `.vtcode/hooks.json` marks every Bash call in a file outside it."""
    ws = tmp_path / "ws"
    marker = tmp_path / "hook-ran"
    script(ws / ".vtcode" / "hooks" / "mark.sh", f"cat > /dev/null\ntouch {marker}\n")
    hooks_json(
        ws / ".vtcode" / "hooks.json",
        {"PreToolUse": [{"matcher": "Bash", "hooks": [{"command": ".vtcode/hooks/mark.sh"}]}]},
    )
    return ws, tmp_path / "home", marker


def _digests_now(ws: Path, home: Path) -> list[str]:
    """The workspace hooks' digests as `vtcode hooks list` computes them from the files now."""
    loaded = load_settings(workspace=ws, env={"HOME": str(home), "VTCODE_HOME": str(home / ".vtcode")})
    return [h.digest for h in load_hooks(loaded, ws).hooks.hooks]


def _recorded(ws: Path, home: Path) -> dict[str, str]:
    """`[projects."<ws>".hooks]` of the user file (empty when nothing was recorded)."""
    path = home / ".vtcode" / "vtcode.toml"
    if not path.exists():
        return {}
    project: dict[str, dict[str, str]] = tomllib.loads(path.read_text()).get("projects", {}).get(str(ws), {})
    return project.get("hooks", {})


async def _run(ws: Path, home: Path, key: str | None) -> tuple[bool, str, str]:
    """One TUI run that makes one Bash call; whether the dialog came, its text, and the transcript."""
    asked, dialog = False, ""
    # Each run numbers its sessions from 1 again (deterministic ids): the last run's stored ones go.
    shutil.rmtree(home / ".vtcode" / "sessions", ignore_errors=True)
    with server_for("chat", [_touch("ran"), Reply(text="finished")]) as server:
        app = make_app(_with_hooks(ws, home, server))
        async with app.run_test(size=(140, 40)) as pilot:
            await until(
                pilot, lambda: app.session is not None or isinstance(app.screen, HookTrustScreen), "a start"
            )
            screen = app.screen
            if isinstance(screen, HookTrustScreen):
                asked = True
                await until(pilot, lambda: screen.armed, "the armed dialog")
                dialog = str(screen.query_one("#approval-body").render())
                assert key is not None, "the dialog was not expected"
                await pilot.press(key)
            await until(pilot, lambda: app.session is not None, "the session")
            await type_text(pilot, "go")
            await pilot.press("enter")
            await until(pilot, lambda: "finished" in screen_text(app), "the answer")
            transcript = screen_text(app)
    assert (ws / "ran").exists()
    return asked, dialog, transcript


async def test_the_dialog_names_each_untrusted_hook_and_trusting_records_it_and_runs_it(
    tmp_path: Path,
) -> None:
    ws, home, marker = _workspace(tmp_path)
    asked, dialog, transcript = await _run(ws, home, "t")
    assert asked
    assert "PreToolUse [Bash]: .vtcode/hooks/mark.sh" in dialog
    assert f"from {ws / '.vtcode' / 'hooks.json'}" in dialog
    # The same record `vtcode hooks trust` writes: the digest of the hook as its files are now.
    assert _recorded(ws, home) == dict.fromkeys(_digests_now(ws, home), "trusted")
    assert marker.exists()
    assert "hook skipped: untrusted" not in transcript


async def test_not_now_keeps_the_hook_off_and_untrusted(tmp_path: Path) -> None:
    ws, home, marker = _workspace(tmp_path)
    asked, _, transcript = await _run(ws, home, "n")
    assert asked
    assert not marker.exists()
    assert _recorded(ws, home) == {}
    assert "hook skipped: untrusted" in transcript


async def test_a_trusted_hook_is_not_asked_about_again_until_its_script_changes(tmp_path: Path) -> None:
    ws, home, marker = _workspace(tmp_path)
    assert (await _run(ws, home, "t"))[0]
    (ws / "ran").unlink()
    marker.unlink()
    asked, _, _ = await _run(ws, home, None)
    assert not asked
    assert marker.exists()
    (ws / "ran").unlink()
    marker.unlink()
    mark = ws / ".vtcode" / "hooks" / "mark.sh"
    mark.write_text(mark.read_text() + "echo changed >&2\n")
    asked, dialog, transcript = await _run(ws, home, "n")
    assert asked
    assert "PreToolUse [Bash]: .vtcode/hooks/mark.sh" in dialog
    assert not marker.exists()
    assert "hook skipped: untrusted" in transcript


def test_trusting_marks_only_the_recorded_digests() -> None:
    """`HookSet.trusting` leaves a hook with another digest (changed since) untrusted."""
    source = HookSource("workspace", "hooks.json")
    a = ConfiguredHook("PreToolUse", "", HookHandler(command="a"), source, digest="d1", trusted=False)
    b = ConfiguredHook("PreToolUse", "", HookHandler(command="b"), source, digest="d2", trusted=False)
    trusted = HookSet((a, b)).trusting(frozenset({"d1"}))
    assert [h.trusted for h in trusted.hooks] == [True, False]
    assert dataclasses.replace(trusted.hooks[0], trusted=False) == a
