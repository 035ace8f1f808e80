"""Checkpoint snapshots on a 5,000-file repository: time, disk, and the latency they add to commands.

Figures, each with its baseline measured in the same run:
- first snapshot, then a snapshot after a one-file change, against plain `git add -A && git write-tree`
  and `git write-tree` alone on a private index (the least any tree snapshot costs);
- disk added by a snapshot after a one-file change, against that file's zlib-compressed size;
- added latency per `exec_command` with tree snapshots on vs off (a session against a loopback model).
Run: .venv/bin/python bench/checkpoint_bench.py [--files N] [--runs N] [--commands N]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import shutil
import statistics
import subprocess
import tempfile
import time
import zlib
from pathlib import Path

import msgspec

from vtcode.config.schema import AgentSettings, CheckpointSettings, Settings
from vtcode.exec.shadow_git import ShadowGit, SnapshotLimits
from vtcode.protocol.events import TurnCompleted, TurnFailed
from vtcode.protocol.ops import UserInput
from vtcode.runtime.session import Session
from vtcode.runtime.wiring import SessionOptions
from vtcode.testing.script import Reply, ScriptToolCall
from vtcode.testing.wire import cli_env, server_for

_GIT = ["git", "-c", "user.email=b@example.com", "-c", "user.name=b"]


def make_repo(root: Path, files: int) -> Path:
    """A committed repository of `files` small source files in nested folders."""
    repo = root / "repo"
    for n in range(files):
        path = repo / f"pkg{n // 500:02d}" / f"mod{n // 50:03d}" / f"file{n:05d}.py"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(f"# file {n}\n" + "".join(f"value_{i} = {i * n}\n" for i in range(60)))
    subprocess.run([*_GIT, "init", "-q"], cwd=repo, check=True)
    subprocess.run([*_GIT, "add", "."], cwd=repo, check=True)
    subprocess.run([*_GIT, "commit", "-qm", "init"], cwd=repo, check=True)
    return repo


def _du(folder: Path) -> int:
    return sum(p.lstat().st_blocks * 512 for p in folder.rglob("*") if p.is_file())


def _touch_one(repo: Path, n: int) -> Path:
    path = repo / "pkg00" / "mod000" / "file00001.py"
    with path.open("a") as handle:
        handle.write(f"changed_{n} = {n}\n")
    return path


def snapshot_figures(root: Path, repo: Path, runs: int) -> None:
    """Snapshot time and disk, with the plain-git baselines."""
    env = dict(os.environ)
    shadow = ShadowGit(root / "home", repo, env, index_name="bench")
    limits = SnapshotLimits()
    started = time.perf_counter()
    shadow.snapshot(limits)
    first = time.perf_counter() - started
    plain_dir, plain_index = root / "plain.git", root / "plain.index"
    subprocess.run(["git", "init", "-q", "--bare", str(plain_dir)], check=True)
    plain_env = {**env, "GIT_INDEX_FILE": str(plain_index)}
    plain = ["git", f"--git-dir={plain_dir}", f"--work-tree={repo}"]
    subprocess.run([*plain, "add", "-A"], cwd=repo, env=plain_env, check=True)
    ours: list[float] = []
    add_tree: list[float] = []
    write_tree: list[float] = []
    added: list[int] = []
    compressed: list[int] = []
    for n in range(runs):
        changed = _touch_one(repo, n)
        before = _du(shadow.git_dir)
        started = time.perf_counter()
        shadow.snapshot(limits)
        ours.append(time.perf_counter() - started)
        added.append(_du(shadow.git_dir) - before)
        compressed.append(len(zlib.compress(changed.read_bytes())))
        started = time.perf_counter()
        subprocess.run([*plain, "add", "-A"], cwd=repo, env=plain_env, check=True)
        subprocess.run([*plain, "write-tree"], cwd=repo, env=plain_env, check=True, capture_output=True)
        add_tree.append(time.perf_counter() - started)
        started = time.perf_counter()
        subprocess.run([*plain, "write-tree"], cwd=repo, env=plain_env, check=True, capture_output=True)
        write_tree.append(time.perf_counter() - started)
    med = statistics.median
    print(f"first snapshot: {first * 1000:.0f} ms")
    print(
        f"snapshot after a one-file change: {med(ours) * 1000:.1f} ms (median of {runs}); "
        f"plain add -A + write-tree {med(add_tree) * 1000:.1f} ms -> ratio {med(ours) / med(add_tree):.2f}x; "
        f"write-tree alone {med(write_tree) * 1000:.1f} ms -> ratio {med(ours) / med(write_tree):.2f}x"
    )
    print(
        f"disk added per one-file snapshot: {med(added) / 1024:.1f} KiB (median; the file compressed "
        f"is {med(compressed) / 1024:.1f} KiB -> ratio {med(added) / max(1, med(compressed)):.1f}x, "
        "the rest is the changed tree objects, each a 4 KiB block on disk)"
    )


async def _commands(repo: Path, home: Path, count: int, tree: bool) -> float:
    """Seconds one turn of `count` exec_command calls takes."""
    # Distinct commands: five identical calls in a row would trip the loop guard.
    calls = [
        Reply(tool_calls=(ScriptToolCall("exec_command", json.dumps({"cmd": f"true {n}"}), id=f"c{n}"),))
        for n in range(count + 1)
    ]
    # The warm-up turn runs one command: the first snapshot of the workspace is not what is timed.
    script = [calls[0], Reply(text="warm"), *calls[1:], Reply(text="done")]
    with server_for("chat", script) as server:
        settings = Settings(
            agent=msgspec.structs.replace(
                AgentSettings(), approval="full-auto", provider="openai", model="gpt-4.1"
            ),
            checkpoints=CheckpointSettings(tree=tree),
        )
        env = {**os.environ, **cli_env("chat", server), "HOME": str(home)}
        opts = SessionOptions(workspace=repo, settings=settings, home=home / ".vtcode", env=env)
        session = await Session.open(opts)
        events = session.events()
        await session.submit(UserInput("warm up"))
        async for event in events:
            if isinstance(event, TurnCompleted | TurnFailed):
                break
        started = time.perf_counter()
        await session.submit(UserInput("run them"))
        async for event in events:
            if isinstance(event, TurnFailed):
                raise RuntimeError(f"the timed turn failed: {event.message}")
            if isinstance(event, TurnCompleted):
                break
        took = time.perf_counter() - started
        await session.aclose()
        return took


def command_latency(root: Path, repo: Path, count: int) -> None:
    """Added milliseconds per exec_command with tree snapshots on vs off, interleaved runs."""
    on: list[float] = []
    off: list[float] = []
    for n in range(3):
        off.append(asyncio.run(_commands(repo, root / f"home-off{n}", count, tree=False)))
        on.append(asyncio.run(_commands(repo, root / f"home-on{n}", count, tree=True)))
    per_off = statistics.median(off) / count * 1000
    per_on = statistics.median(on) / count * 1000
    print(
        f"exec_command with snapshots off: {per_off:.1f} ms per call; on: {per_on:.1f} ms per call "
        f"-> +{per_on - per_off:.1f} ms per call ({per_on / per_off:.2f}x), median of 3 turns of {count}"
    )


def main() -> None:
    """Run the benchmark."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--files", type=int, default=5000)
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--commands", type=int, default=20)
    args = parser.parse_args()
    root = Path(tempfile.mkdtemp(prefix="vtcode-checkpoint-bench-"))
    try:
        repo = make_repo(root, args.files)
        print(f"repository: {args.files} files")
        snapshot_figures(root, repo, args.runs)
        command_latency(root, repo, args.commands)
    finally:
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()
