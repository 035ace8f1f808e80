"""Which repository vtcode's own git may run on, and how it is run (real repositories, real git)."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

from vtcode.core.git_safety import git_environment
from vtcode.exec.git_repo import GitAccess, git_protected_paths

_IDENTITY = ["-c", "user.email=t@example.com", "-c", "user.name=t"]


def _repo(path: Path) -> Path:
    path.mkdir(parents=True, exist_ok=True)
    (path / "a.py").write_text("x = 1\n")
    subprocess.run(["git", "init", "-q"], cwd=path, check=True)
    subprocess.run(["git", "add", "."], cwd=path, check=True)
    subprocess.run(["git", *_IDENTITY, "commit", "-qm", "init"], cwd=path, check=True)
    return path


def _env() -> dict[str, str]:
    return {"PATH": os.environ["PATH"], "HOME": os.environ["HOME"]}


def test_the_environment_keeps_an_allowlist_and_no_keys_or_git_redirects() -> None:
    env = {
        "PATH": "/usr/bin",
        "HOME": "/home/u",
        "LANG": "C.UTF-8",
        "OPENAI_API_KEY": "sk-secret",
        "MY_TOKEN": "t",
        "GIT_DIR": "/tmp/evil",
        "GIT_CONFIG_GLOBAL": "/tmp/evil.cfg",
    }
    assert git_environment(env) == {
        "PATH": "/usr/bin",
        "HOME": "/home/u",
        "LANG": "C.UTF-8",
        "GIT_CONFIG_NOSYSTEM": "1",
        "GIT_TERMINAL_PROMPT": "0",
        "GIT_OPTIONAL_LOCKS": "0",
        "GIT_PAGER": "cat",
    }


def test_a_workspace_repository_runs_with_its_git_dir_named_and_programs_off(tmp_path: Path) -> None:
    ws = _repo(tmp_path / "ws")
    access = GitAccess(ws, _env())
    argv = access.command("ls-files")
    git = os.path.realpath(str(shutil.which("git")))
    assert argv is not None
    assert argv[:2] == [git, "--no-optional-locks"]
    assert argv[-3:] == [f"--git-dir={ws}/.git", f"--work-tree={ws}", "ls-files"]
    assert argv[2:4] == ["-c", "core.fsmonitor=false"]
    assert "core.hooksPath=/dev/null" in argv
    done = subprocess.run(argv, cwd=ws, env=access.environment, capture_output=True, text=True, check=True)
    assert done.stdout == "a.py\n"


def test_no_repository_at_the_start_means_no_git_even_after_git_init(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    ws.mkdir()
    access = GitAccess(ws, _env())
    assert access.command("status") is None
    _repo(ws)
    assert access.command("status") is None


def test_a_redirected_commondir_stops_git_for_the_session(tmp_path: Path) -> None:
    ws = _repo(tmp_path / "ws")
    access = GitAccess(ws, _env())
    assert access.command("status") is not None
    shutil.copytree(ws / ".git", tmp_path / "evil")
    (ws / ".git" / "commondir").write_text(f"{tmp_path / 'evil'}\n")
    assert access.command("status") is None
    assert access.problem is not None
    assert f"its common directory {tmp_path / 'evil'} is in /tmp, which commands may write" == access.problem
    (ws / ".git" / "commondir").unlink()
    assert access.command("status") is None  # once off, off for the session


def test_a_worktree_of_a_repository_outside_the_writable_folders_is_used(tmp_path: Path) -> None:
    main = _repo(Path("/var/tmp") / f"vtcode-git-access-{os.getpid()}-{tmp_path.name}")
    try:
        ws = tmp_path / "ws"
        subprocess.run(["git", "worktree", "add", "-q", str(ws)], cwd=main, check=True)
        argv = GitAccess(ws, _env()).command("status")
        assert argv is not None
        assert f"--git-dir={main}/.git/worktrees/ws" in argv
    finally:
        shutil.rmtree(main, ignore_errors=True)


def test_a_worktree_whose_git_dir_is_in_a_writable_folder_is_refused(tmp_path: Path) -> None:
    main = _repo(tmp_path / "main")
    ws = tmp_path / "ws"
    subprocess.run(["git", "worktree", "add", "-q", str(ws)], cwd=main, check=True)
    access = GitAccess(tmp_path / "ws", _env())
    assert access.command("status") is None
    assert (
        access.problem == f"its git directory {main}/.git/worktrees/ws is in /tmp, which commands may write"
    )


def test_a_git_planted_on_path_in_a_writable_folder_is_never_run(tmp_path: Path) -> None:
    ws = _repo(tmp_path / "ws")
    planted = ws / "bin" / "git"
    planted.parent.mkdir()
    planted.write_text("#!/bin/sh\ntouch ran\n")
    planted.chmod(0o755)
    env = {**_env(), "PATH": f"{planted.parent}:{os.environ['PATH']}"}
    argv = GitAccess(ws, env).command("status")
    assert argv is not None
    assert argv[0] == os.path.realpath(str(shutil.which("git")))


def test_the_sandbox_protects_a_repository_above_the_workspace_and_its_hooks_folder(tmp_path: Path) -> None:
    top = _repo(tmp_path / "repo")
    subprocess.run(["git", "config", "core.hooksPath", ".husky"], cwd=top, check=True)
    (top / "pkg").mkdir()
    assert git_protected_paths(top / "pkg", _env()) == (f"{top}/.git", f"{top}/.husky")
    assert git_protected_paths(top, _env()) == (f"{top}/.husky",)
