"""`--add-dir DIR` opens DIR to the file tools too: paths in it, confined to it as the workspace is."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from tests.conftest import VtcodeRunner
from vtcode.testing.script import Reply, ScriptToolCall
from vtcode.testing.wire import cli_args, cli_env, server_for


def _call(vtcode: VtcodeRunner, ws: Path, tool: str, arguments: dict[str, Any], *extra: str) -> str:
    """Run one session whose model calls `tool` once; the tool result the model got back."""
    steps = [
        Reply(tool_calls=(ScriptToolCall(id="c1", name=tool, arguments=json.dumps(arguments)),)),
        Reply(text="done"),
    ]
    with server_for("chat", steps) as server:
        result = vtcode.run(
            "exec",
            *cli_args("chat"),
            "--approval",
            "full-auto",
            *extra,
            "go",
            cwd=ws,
            env=cli_env("chat", server),
        )
        sent = server.requests[1].json()
    assert result.code == 0, result.stderr
    assert "Traceback" not in result.stderr
    content = next(m for m in sent["messages"] if m["role"] == "tool")["content"]
    return content if isinstance(content, str) else json.dumps(content)


def _folders(tmp_path: Path) -> tuple[Path, Path]:
    ws, added = tmp_path / "ws", tmp_path / "added"
    ws.mkdir()
    added.mkdir()
    return ws, added


def test_write_file_may_create_a_file_in_an_added_dir(vtcode: VtcodeRunner, tmp_path: Path) -> None:
    ws, added = _folders(tmp_path)
    target = added / "sub" / "notes.txt"
    args = {"path": str(target), "content": "hello\n"}
    shown = _call(vtcode, ws, "write_file", args, "--add-dir", str(added))
    assert "Created" in shown, shown
    assert target.read_text() == "hello\n"


def test_apply_patch_may_add_and_update_files_in_an_added_dir(vtcode: VtcodeRunner, tmp_path: Path) -> None:
    ws, added = _folders(tmp_path)
    (added / "old.txt").write_text("one\ntwo\n")
    patch = (
        "*** Begin Patch\n"
        f"*** Add File: {added}/new.txt\n+fresh\n"
        f"*** Update File: {added}/old.txt\n@@\n one\n-two\n+three\n"
        "*** End Patch\n"
    )
    shown = _call(vtcode, ws, "apply_patch", {"patch": patch}, "--add-dir", str(added))
    assert shown.startswith("Success"), shown
    assert (added / "new.txt").read_text() == "fresh\n"
    assert (added / "old.txt").read_text() == "one\nthree\n"


def test_read_file_may_read_a_file_in_an_added_dir(vtcode: VtcodeRunner, tmp_path: Path) -> None:
    ws, added = _folders(tmp_path)
    (added / "spec.md").write_text("the added words\n")
    shown = _call(vtcode, ws, "read_file", {"path": str(added / "spec.md")}, "--add-dir", str(added))
    assert "the added words" in shown, shown


def test_without_add_dir_the_file_tools_refuse_the_folder(vtcode: VtcodeRunner, tmp_path: Path) -> None:
    ws, added = _folders(tmp_path)
    target = added / "notes.txt"
    shown = _call(vtcode, ws, "write_file", {"path": str(target), "content": "x"})
    assert f"'{target}' is outside the workspace" in shown, shown
    assert not target.exists()
    patch = f"*** Begin Patch\n*** Add File: {target}\n+x\n*** End Patch\n"
    shown = _call(vtcode, ws, "apply_patch", {"patch": patch})
    assert f"'{target}' is outside the workspace" in shown, shown
    assert not target.exists()


def test_a_link_in_an_added_dir_that_leads_outside_it_is_refused(
    vtcode: VtcodeRunner, tmp_path: Path
) -> None:
    ws, added = _folders(tmp_path)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    os.symlink(elsewhere, added / "out")
    (added / "file-link").symlink_to(elsewhere / "victim.txt")
    (elsewhere / "victim.txt").write_text("keep\n")
    shown = _call(
        vtcode, ws, "write_file", {"path": f"{added}/out/new.txt", "content": "x"}, "--add-dir", str(added)
    )
    assert "symbolic link that points outside the added folder" in shown, shown
    assert not (elsewhere / "new.txt").exists()
    patch = f"*** Begin Patch\n*** Update File: {added}/file-link\n@@\n-keep\n+lost\n*** End Patch\n"
    shown = _call(vtcode, ws, "apply_patch", {"patch": patch}, "--add-dir", str(added))
    assert "symbolic link that points outside the added folder" in shown, shown
    assert (elsewhere / "victim.txt").read_text() == "keep\n"
    shown = _call(vtcode, ws, "read_file", {"path": f"{added}/file-link"}, "--add-dir", str(added))
    assert "symbolic link that points outside the added folder" in shown, shown


def test_one_patch_may_not_mix_the_workspace_and_an_added_dir(vtcode: VtcodeRunner, tmp_path: Path) -> None:
    ws, added = _folders(tmp_path)
    patch = f"*** Begin Patch\n*** Add File: a.txt\n+a\n*** Add File: {added}/b.txt\n+b\n*** End Patch\n"
    shown = _call(vtcode, ws, "apply_patch", {"patch": patch}, "--add-dir", str(added))
    assert "one patch per folder" in shown, shown
    assert not (ws / "a.txt").exists()
    assert not (added / "b.txt").exists()


def test_list_files_and_grep_files_search_an_added_dir(vtcode: VtcodeRunner, tmp_path: Path) -> None:
    ws, added = _folders(tmp_path)
    (added / "src").mkdir()
    (added / "src" / "lib.py").write_text("def needle():\n    pass\n")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "secret.py").write_text("def needle_outside():\n    pass\n")
    (added / "leak.py").symlink_to(elsewhere / "secret.py")
    shown = _call(vtcode, ws, "list_files", {"path": str(added)}, "--add-dir", str(added))
    assert shown.splitlines() == [f"{added}/src/lib.py"], shown
    shown = _call(
        vtcode, ws, "grep_files", {"pattern": "needle", "path": str(added)}, "--add-dir", str(added)
    )
    assert shown.splitlines() == [f"{added}/src/lib.py:1:def needle():"], shown
    shown = _call(vtcode, ws, "list_files", {"path": str(added)})
    assert f"'{added}' is outside the workspace" in shown, shown
