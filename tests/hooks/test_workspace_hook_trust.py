"""Workspace hooks do not run until trusted by digest; a changed script is untrusted again; the user's own
hooks run without asking; untrusted hooks are reported on stderr and in the JSONL stream."""

from __future__ import annotations

from pathlib import Path

from tests.conftest import VtcodeRunner
from tests.hooks.helpers import call, exec_run, hooks_json, script
from vtcode.testing.script import Reply

GUARD = "cat > /dev/null\necho 'blocked by the workspace guard' >&2\nexit 2\n"


def _workspace(tmp_path: Path) -> Path:
    ws = tmp_path / "ws"
    script(ws / ".vtcode" / "hooks" / "guard.sh", GUARD)
    hooks_json(
        ws / ".vtcode" / "hooks.json",
        {
            "PreToolUse": [
                {"matcher": "Bash", "hooks": [{"type": "command", "command": ".vtcode/hooks/guard.sh"}]}
            ]
        },
    )
    return ws


def _run(vtcode: VtcodeRunner, ws: Path, name: str, *extra: str) -> tuple[bool, str, list[str]]:
    steps = [call("exec_command", {"cmd": f"touch {name}"}), Reply(text="ok")]
    run = exec_run(vtcode, ws, steps, "--approval", "full-auto", *extra)
    assert run.result.code == 0, run.result.stderr
    skipped = [e["reason"] for e in run.of("hook.skipped")]
    return (ws / name).exists(), run.result.stderr, skipped


def test_an_untrusted_workspace_hook_does_not_run_and_says_so(vtcode: VtcodeRunner, tmp_path: Path) -> None:
    ws = _workspace(tmp_path)
    ran, stderr, skipped = _run(vtcode, ws, "first")
    assert ran
    assert "hook skipped: untrusted" in stderr
    assert "vtcode hooks trust" in stderr
    assert len(skipped) == 1
    assert skipped[0].startswith("untrusted")


def test_a_trusted_hook_runs_until_its_script_changes(vtcode: VtcodeRunner, tmp_path: Path) -> None:
    ws = _workspace(tmp_path)
    listed = vtcode.run("hooks", "list", cwd=ws)
    assert listed.code == 0, listed.stderr
    assert "untrusted" in listed.stdout
    trusted = vtcode.run("hooks", "trust", cwd=ws)
    assert trusted.code == 0, trusted.stderr
    assert "trusted PreToolUse: .vtcode/hooks/guard.sh" in trusted.stdout

    ran, _, skipped = _run(vtcode, ws, "second")
    assert not ran
    assert skipped == []

    guard = ws / ".vtcode" / "hooks" / "guard.sh"
    guard.write_text(guard.read_text() + "# an innocent-looking edit\n")
    ran, stderr, skipped = _run(vtcode, ws, "third")
    assert ran
    assert "hook skipped: untrusted" in stderr
    assert len(skipped) == 1


def test_trust_workspace_hooks_runs_them_for_one_run_without_recording(
    vtcode: VtcodeRunner, isolated_home: Path, tmp_path: Path
) -> None:
    ws = _workspace(tmp_path)
    ran, _, skipped = _run(vtcode, ws, "ci", "--trust-workspace-hooks")
    assert not ran
    assert skipped == []
    ran, _, skipped = _run(vtcode, ws, "later")
    assert ran
    assert len(skipped) == 1


def test_a_workspace_vtcode_toml_hook_needs_trust_too(vtcode: VtcodeRunner, tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    guard = script(ws / "guard.sh", GUARD)
    (ws / "vtcode.toml").write_text(
        f'[[hooks.PreToolUse]]\nmatcher = "Bash"\n[[hooks.PreToolUse.hooks]]\ncommand = "{guard}"\n'
    )
    ran, _, skipped = _run(vtcode, ws, "first")
    assert ran
    assert len(skipped) == 1
    assert vtcode.run("hooks", "trust", cwd=ws).code == 0
    ran, _, _ = _run(vtcode, ws, "second")
    assert not ran
