"""patch.diff: applies with `git apply --check` at the base commit, keeps binary changes, skips .vtcode/."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from tests.batch.scripted_tasks import (
    MODEL_ARGS,
    TaskScripts,
    bare_mirror,
    batch_env,
    command_call,
    small_repo,
    tasks_file,
)
from tests.conftest import VtcodeRunner
from vtcode.testing.openai_chat_server import OpenAIChatServer
from vtcode.testing.script import Reply, Step

# Edits a text file, deletes one, changes a binary file, adds a binary file and a file in a new folder.
_CHANGES = (
    "sed -i 's/a - b/a + b/' calc.py && rm README.md && printf '\\000\\001\\377' >> logo.bin "
    "&& printf 'bin\\000ary\\377' > new.bin && mkdir -p pkg && echo 'x = 1' > pkg/mod.py"
)


def _files(root: Path) -> dict[str, bytes]:
    return {
        str(path.relative_to(root)): path.read_bytes()
        for path in sorted(root.rglob("*"))
        # .git is git's, .vtcode/ vtcode's, __pycache__ the eval's (it ran after the patch was taken).
        if path.is_file() and path.relative_to(root).parts[0] not in (".git", ".vtcode", "__pycache__")
    }


def test_every_patch_applies_at_the_base_commit_with_binary_changes_and_no_vtcode_folder(
    vtcode: VtcodeRunner, tmp_path: Path
) -> None:
    repo, commit = small_repo(tmp_path / "repo")
    mirror = bare_mirror(repo, tmp_path / "mirror.git")

    def script(task_id: str) -> list[Step]:
        if task_id == "same":
            return [Reply(text="nothing to change")]
        return [command_call(_CHANGES), Reply(text="changed")]

    tasks = tasks_file(
        tmp_path / "tasks.jsonl",
        ["edit", "same"],
        repo={"git": str(mirror), "commit": commit},
        eval={"command": "python3 -c 'import calc; assert calc.add(2, 3) == 5'"},
    )
    out = tmp_path / "out"
    with OpenAIChatServer(responder=TaskScripts(script=script)) as server:
        result = vtcode.run(
            "batch",
            "run",
            str(tasks),
            "-o",
            str(out),
            "--keep-workspaces",
            *MODEL_ARGS,
            env=batch_env(server),
        )
    assert result.code == 0, result.stderr
    edit = out / "tasks" / "edit"
    workspace = Path(json.loads((edit / "result.json").read_text())["workspace"])
    # vtcode kept its own folder in the workspace; the patch leaves it out.
    assert (workspace / ".vtcode").is_dir()
    patch = (edit / "patch.diff").read_bytes()
    assert b".vtcode" not in patch
    assert b"GIT binary patch" in patch
    # Applied to a clean checkout of the base commit, the patch reproduces the agent's workspace.
    clean = tmp_path / "clean"
    subprocess.run(["git", "clone", "-q", str(mirror), str(clean)], check=True)
    subprocess.run(["git", "checkout", "-q", "--detach", commit], cwd=clean, check=True)
    for folder in (edit, out / "tasks" / "same"):
        subprocess.run(
            ["git", "apply", "--check", "--allow-empty", str(folder / "patch.diff")], cwd=clean, check=True
        )
    subprocess.run(["git", "apply", str(edit / "patch.diff")], cwd=clean, check=True)
    assert _files(clean) == _files(workspace)
    assert "README.md" not in _files(clean)
    # The eval command ran in the workspace after the agent: passed where calc.add was fixed.
    evals = {
        task_id: json.loads((out / "tasks" / task_id / "result.json").read_text())["eval"]
        for task_id in ("edit", "same")
    }
    assert evals == {
        "edit": {"passed": True, "exit_code": 0, "timed_out": False},
        "same": {"passed": False, "exit_code": 1, "timed_out": False},
    }
    assert "AssertionError" in (out / "tasks" / "same" / "eval.log").read_text()
    assert (out / "tasks" / "same" / "patch.diff").read_bytes() == b""


def test_an_unknown_commit_ends_the_task_as_a_workspace_error(vtcode: VtcodeRunner, tmp_path: Path) -> None:
    repo, _ = small_repo(tmp_path / "repo")
    mirror = bare_mirror(repo, tmp_path / "mirror.git")
    tasks = tasks_file(tmp_path / "tasks.jsonl", ["lost"], repo={"git": str(mirror), "commit": "0" * 40})
    out = tmp_path / "out"
    with OpenAIChatServer(responder=TaskScripts()) as server:
        result = vtcode.run("batch", "run", str(tasks), "-o", str(out), *MODEL_ARGS, env=batch_env(server))
        requests = len(server.requests)
    assert result.code == 1, result.stderr
    assert requests == 0
    record = json.loads((out / "tasks" / "lost" / "result.json").read_text())
    assert record["status"] == "error"
    assert record["error"]["kind"] == "workspace"
    assert record["error"]["message"].startswith("git failed: fatal:")
