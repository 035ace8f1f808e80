"""A sandboxed command cannot make vtcode's own git run a program it planted in git's metadata.

vtcode runs `git status` (session start) and `git ls-files` (list_files, grep_files) outside the
sandbox. Each test plants a `core.fsmonitor` program that would create a marker in a folder commands
cannot write, through the real CLI in full-auto against the loopback model, then runs a second
session on the same workspace: the marker must never appear.

The sandbox tests run twice (the `as_user` fixture): as the current user and as a fresh unprivileged
one, who owns the workspace, the repository and the marker's folder (so a planted program could
write the marker, were it run).
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

from tests.conftest import VtcodeRunner
from tests.e2e.harness import events
from tests.exec.agent_session import command_exit_codes, command_reply, full_auto_session
from tests.exec.sandbox_helpers import needs_landlock, needs_userns
from tests.unprivileged import Identity
from vtcode.testing.script import Reply, ScriptToolCall
from vtcode.testing.wire import cli_args, cli_env, server_for

_IDENTITY = ["-c", "user.email=t@example.com", "-c", "user.name=t"]


def _git(cwd: Path, *args: str) -> str:
    done = subprocess.run(["git", *_IDENTITY, *args], cwd=cwd, check=True, capture_output=True, text=True)
    return done.stdout.strip()


def _repo(path: Path) -> Path:
    path.mkdir(parents=True, exist_ok=True)
    (path / "a.py").write_text("x = 1\n")
    _git(path, "init", "-q")
    _git(path, "add", ".")
    _git(path, "commit", "-qm", "init")
    return path


def _searches() -> list[Reply]:
    return [
        Reply(tool_calls=(ScriptToolCall("list_files", "{}", id="l"),)),
        Reply(tool_calls=(ScriptToolCall("grep_files", json.dumps({"pattern": "x"}), id="g"),)),
    ]


def _listed(evts: list[dict[str, Any]]) -> list[str]:
    for event in evts:
        item = event.get("item", {})
        if event["type"] == "item.completed" and item.get("name") == "list_files":
            return str(item.get("result", "")).splitlines()
    raise AssertionError("list_files did not complete")


def _fsmonitor(marker: Path) -> str:
    return f"touch {marker}; true"


def _folders(as_user: Identity) -> tuple[Path, Path]:
    """The identity's folders: one under /tmp (commands may write there, as in CI) and one for the marker
    that commands may not write."""
    return as_user.tmpdir(parent="/tmp"), as_user.tmpdir("vtcode-outside-")


@needs_landlock
@needs_userns
def test_a_commondir_redirected_to_a_planted_config_never_runs_its_fsmonitor(as_user: Identity) -> None:
    tmp, outside = _folders(as_user)
    ws = _repo(tmp / "ws")
    as_user.chown_tree(tmp)
    evil, marker = tmp / "evil", outside / "ran"
    plant = (
        f"cp -r .git {evil} && git config -f {evil}/config core.fsmonitor '{_fsmonitor(marker)}' && "
        f"echo {evil} > .git/commondir"
    )
    first = full_auto_session(as_user, ws, [command_reply(plant, "c"), *_searches()])
    second = full_auto_session(as_user, ws, _searches())
    assert not marker.exists()
    assert (evil / "config").exists()  # the plant itself worked where commands may write
    assert command_exit_codes(first)[plant] != 0
    assert not (ws / ".git" / "commondir").exists()
    assert _listed(first) == _listed(second) == ["a.py"]


@needs_landlock
@needs_userns
def test_a_gitlink_to_a_nested_repository_with_its_own_fsmonitor_never_runs_it(as_user: Identity) -> None:
    tmp, outside = _folders(as_user)
    ws = _repo(tmp / "ws")
    # The repository as cloned holds a gitlink `sub`; a command then makes `sub` a repository.
    head = _git(ws, "rev-parse", "HEAD")
    _git(ws, "update-index", "--add", "--cacheinfo", f"160000,{head},sub")
    _git(ws, "commit", "-qm", "gitlink")
    as_user.chown_tree(tmp)
    index = (ws / ".git" / "index").read_bytes()
    marker = outside / "ran"
    git = "git -c user.email=t@example.com -c user.name=t"
    plant = (
        f"git init -q sub && echo y > sub/b.txt && {git} -C sub add b.txt && {git} -C sub commit -qm s && "
        f"git -C sub config core.fsmonitor '{_fsmonitor(marker)}'"
    )
    add_link = f"git update-index --add --cacheinfo 160000,{head},other"
    first = full_auto_session(
        as_user, ws, [command_reply(plant, "c"), command_reply(add_link, "i"), *_searches()]
    )
    second = full_auto_session(as_user, ws, _searches())
    assert not marker.exists()
    assert command_exit_codes(first) == {plant: 0, add_link: command_exit_codes(first)[add_link]}
    assert command_exit_codes(first)[add_link] != 0
    assert (ws / ".git" / "index").read_bytes() == index
    assert "a.py" in _listed(second)


@needs_landlock
@needs_userns
def test_a_repository_a_command_creates_with_git_init_is_not_used_by_vtcode(as_user: Identity) -> None:
    tmp, outside = _folders(as_user)
    ws = tmp / "ws"
    ws.mkdir()
    (ws / "a.py").write_text("x = 1\n")
    as_user.chown_tree(tmp)
    marker = outside / "ran"
    plant = f"git init -q && git config core.fsmonitor '{_fsmonitor(marker)}' && git add a.py"
    first = full_auto_session(as_user, ws, [command_reply(plant, "c"), *_searches()])
    second = full_auto_session(as_user, ws, _searches())
    assert not marker.exists()
    assert "a.py" in _listed(first)
    assert "a.py" in _listed(second)


@needs_landlock
@needs_userns
def test_a_worktree_git_file_cannot_be_pointed_at_a_planted_git_directory(as_user: Identity) -> None:
    tmp, outside = _folders(as_user)
    main = _repo(outside / "main")
    ws = tmp / "ws"
    _git(main, "worktree", "add", "-q", str(ws))
    as_user.chown_tree(tmp)
    as_user.chown_tree(outside)
    dot_git = (ws / ".git").read_text()
    evil, marker = tmp / "evil", outside / "ran"
    plant = (
        f"git init -q --bare {evil} && git -C {evil} config core.bare false && "
        f"git -C {evil} config core.fsmonitor '{_fsmonitor(marker)}' && "
        f"cp $(git rev-parse --git-dir)/index {evil}/ && printf 'gitdir: {evil}\\n' > .git"
    )
    replace = f"rm -f .git && printf 'gitdir: {evil}\\n' > .git"
    first = full_auto_session(
        as_user, ws, [command_reply(plant, "c"), command_reply(replace, "r"), *_searches()]
    )
    second = full_auto_session(as_user, ws, _searches())
    assert not marker.exists()
    assert (evil / "config").exists()
    assert {cmd: code != 0 for cmd, code in command_exit_codes(first).items()} == {plant: True, replace: True}
    assert (ws / ".git").read_text() == dot_git
    assert _listed(first) == _listed(second) == ["a.py"]


def test_vtcodes_own_git_runs_without_provider_keys_and_with_configured_programs_off(
    vtcode: VtcodeRunner, tmp_path: Path, outside: Path
) -> None:
    ws = _repo(tmp_path / "ws")
    # A `git` first on PATH that records how vtcode runs it, then runs the real one.
    real_git = subprocess.run(["which", "git"], capture_output=True, text=True, check=True).stdout.strip()
    bin_dir, log = outside / "bin", outside / "git.log"
    bin_dir.mkdir()
    wrapper = bin_dir / "git"
    wrapper.write_text(f'#!/bin/sh\n{{ env; echo "ARGV $*"; }} >> {log}\nexec {real_git} "$@"\n')
    wrapper.chmod(0o755)
    with server_for("chat", [*_searches(), Reply(text="done")]) as server:
        env = {**cli_env("chat", server), "PATH": f"{bin_dir}:{vtcode.env()['PATH']}", "GIT_DIR": "/nowhere"}
        done = vtcode.run("exec", "--json", *cli_args("chat"), "go", cwd=ws, env=env)
    assert done.code == 0, done.stderr
    assert _listed(events(done.stdout)) == ["a.py"]
    runs = log.read_text().split("ARGV ")
    argv = [run.splitlines()[0] for run in runs[1:]]
    assert any(" status " in f" {a} " for a in argv)
    assert any(" ls-files " in f" {a} " for a in argv)
    assert all("-c core.fsmonitor=false -c core.hooksPath=/dev/null" in a for a in argv)
    # Checkpoint snapshots go to vtcode's private repository, never the workspace's `.git`.
    snapshots = f"{vtcode.home}/.vtcode/snapshots/"
    assert all(f"--git-dir={ws}/.git --work-tree={ws}" in a for a in argv if snapshots not in a)
    private = [a for a in argv if snapshots in a and " init " not in f" {a} "]
    assert all(f"--git-dir={snapshots}" in a and f"--work-tree={ws} " in a for a in private)
    assert "OPENAI_API_KEY" not in log.read_text()
    assert "GIT_DIR=" not in log.read_text()


@needs_landlock
@needs_userns
def test_a_global_git_config_planted_in_a_writable_home_never_runs_its_filter(as_user: Identity) -> None:
    # HOME is under /tmp, which commands may write (as in CI), and has no ~/.gitconfig yet.
    tmp, outside = _folders(as_user)
    ws = _repo(tmp / "ws")
    (tmp / "home").mkdir()
    as_user.chown_tree(tmp)
    home = {"HOME": str(tmp / "home"), "VTCODE_HOME": str(tmp / "home" / ".vtcode")}
    marker = outside / "ran"
    plant = (
        f"printf '[filter \"x\"]\\n\\tclean = touch {marker}; cat\\n' > ~/.gitconfig && "
        "echo '* filter=x' > .gitattributes && echo 'x = 2' > a.py"
    )
    first = full_auto_session(as_user, ws, [command_reply(plant, "c"), *_searches()], home)
    # The same size with a new time: git must read a.py (through the filter) to know it changed.
    second = full_auto_session(as_user, ws, _searches(), home)
    assert not marker.exists()
    assert command_exit_codes(first) == {plant: 0}
    assert (tmp / "home" / ".gitconfig").exists()  # the plant itself worked in the writable home
    assert "a.py" in _listed(second)


@needs_landlock
def test_without_user_namespaces_a_commondir_a_command_redirects_is_not_followed(as_user: Identity) -> None:
    # Landlock alone cannot keep .git read-only: the write succeeds, and vtcode's git must notice.
    tmp, outside = _folders(as_user)
    ws = _repo(tmp / "ws")
    as_user.chown_tree(tmp)
    evil, marker = tmp / "evil", outside / "ran"
    plant = (
        f"cp -r .git {evil} && git config -f {evil}/config core.fsmonitor '{_fsmonitor(marker)}' && "
        f"echo {evil} > .git/commondir"
    )
    no_userns = {"VTCODE_SANDBOX_PRETEND_MISSING": "userns"}
    first = full_auto_session(as_user, ws, [command_reply(plant, "c"), *_searches()], no_userns)
    second = full_auto_session(as_user, ws, _searches(), no_userns)
    assert not marker.exists()
    assert command_exit_codes(first) == {plant: 0}
    assert (ws / ".git" / "commondir").exists()
    assert _listed(first) == _listed(second) == ["a.py"]
