"""A skill's frontmatter hooks in a real session: they run for the activating turn in a trusted workspace."""

from __future__ import annotations

import json
from pathlib import Path

from tests.runtime.session_helpers import options
from tests.skills.helpers import repo, run_turns, trusted
from vtcode.protocol.events import Notice
from vtcode.testing.script import Reply, ScriptToolCall
from vtcode.testing.wire import server_for


def _hooked_skill(folder: Path, name: str, command: str) -> None:
    """A skill whose frontmatter has a PreToolUse hook on Bash running `command`."""
    path = folder / name / "SKILL.md"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(
        f"---\nname: {name}\ndescription: Guards the shell.\nhooks:\n  PreToolUse:\n"
        f"    - matcher: Bash\n      hooks:\n        - type: command\n"
        f"          command: {json.dumps(command)}\n"
        "---\nBe careful with the shell.\n",
        encoding="utf-8",
    )


def _shell(cmd: str, id: str) -> ScriptToolCall:
    return ScriptToolCall("exec_command", json.dumps({"cmd": cmd}), id=id)


async def test_trusted_skill_hook_runs_for_the_invoking_turn_only(tmp_path: Path) -> None:
    root = repo(tmp_path)
    marker = tmp_path / "hook-ran"
    _hooked_skill(root / ".agents/skills", "guard", f"echo ran >> {marker}")
    script = [
        Reply(tool_calls=(_shell("true", "c1"),)),
        Reply(text="ok"),
        Reply(tool_calls=(_shell("true", "c2"),)),
        Reply(text="ok"),
    ]
    with server_for("chat", script) as server:
        opts = trusted(options(root, tmp_path, server, approval="full-auto"), root)
        reader = await run_turns(opts, "/guard", "again, without the skill")
    assert marker.read_text() == "ran\n"  # once: the invoking turn's call, not the next turn's
    notes = [n.message for n in reader.of(Notice)]
    assert any("/guard: its frontmatter hooks (PreToolUse) run for this turn" in n for n in notes)


async def test_trusted_skill_hook_denies_a_command_after_the_model_loads_the_skill(tmp_path: Path) -> None:
    root = repo(tmp_path)
    _hooked_skill(root / ".agents/skills", "guard", "echo 'the guard skill forbids this' >&2; exit 2")
    load = ScriptToolCall("skill", json.dumps({"name": "guard"}), id="s1")
    script = [
        Reply(tool_calls=(_shell("touch before", "c0"),)),
        Reply(tool_calls=(load,)),
        Reply(tool_calls=(_shell("touch after", "c1"),)),
        Reply(text="done"),
    ]
    with server_for("chat", script) as server:
        opts = trusted(options(root, tmp_path, server, approval="full-auto"), root)
        await run_turns(opts, "make the files")
        last = server.requests[-1].json()
    assert (root / "before").exists()  # before the skill was loaded: no hook
    assert not (root / "after").exists()
    result = [m["content"] for m in last["messages"] if m["role"] == "tool"][-1]
    assert "the guard skill forbids this" in result


async def test_user_skill_hook_runs_in_an_untrusted_workspace(tmp_path: Path) -> None:
    root = repo(tmp_path)
    marker = tmp_path / "hook-ran"
    _hooked_skill(tmp_path / ".agents/skills", "guard", f"echo ran >> {marker}")  # under the user's home
    script = [Reply(tool_calls=(_shell("true", "c1"),)), Reply(text="ok")]
    with server_for("chat", script) as server:
        await run_turns(options(root, tmp_path, server, approval="full-auto"), "/guard")
    assert marker.read_text() == "ran\n"


async def test_untrusted_project_skill_hook_does_not_run_and_says_so(tmp_path: Path) -> None:
    root = repo(tmp_path)
    marker = tmp_path / "hook-ran"
    _hooked_skill(root / ".agents/skills", "guard", f"echo ran >> {marker}")
    script = [Reply(tool_calls=(_shell("true", "c1"),)), Reply(text="ok")]
    with server_for("chat", script) as server:
        reader = await run_turns(options(root, tmp_path, server, approval="full-auto"), "/guard")
    assert not marker.exists()
    notes = [n.message for n in reader.of(Notice)]
    assert any("/guard: its frontmatter hooks do nothing (this workspace is not trusted)" in n for n in notes)
