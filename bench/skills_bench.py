"""Start-up cost of skills and custom commands, against baselines measured in the same run.

1. Added start-up time to the first model request with 200 skills and 200 commands in the workspace
   (half project, half user; every source kind) against the same session with no skill or command
   folders. One child process per session; paired rounds (with, without) interleaved with the other
   configurations, a different one first each round; the figure is the median of the per-round
   differences. Wall time runs from `Session.open` to the loopback server receiving the request (its
   `time.monotonic()`, the same clock as the child's); CPU time is the child's own until the first turn
   ends (the reply is the same in both sessions, so the difference is what was spent before the
   request). Target: <= 10 ms added, with the skill cache of an earlier session (the fixture files are
   an hour old); the cold figure (cache removed before the run) is given too. The same pairs run on
   `main`'s tree too (before/after). Also discovery + catalog alone, in process.
2. `vtcode exec "hi"` as a whole process in a workspace without skill folders, this tree against
   `main`'s tree in the same run (median of the per-round ratios). Target: <= 1.02x. Whole-process times
   on a loaded machine vary by more than 2 %, so what skills add there in process (the folder check) is
   given as a share of the exec too.

Both trees are compiled to bytecode first, as an installed vtcode is (the child processes run with
PYTHONDONTWRITEBYTECODE): otherwise the modules a session with skills imports are compiled from source
in every run and counted as start-up time. The loopback server runs in its own process
(bench/loopback_process.py), so only vtcode is timed.
Run: .venv/bin/python bench/skills_bench.py [--rounds N] [--baseline REV]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from loopback_process import ServerProcess

ROOT = Path(__file__).resolve().parent.parent
SKILLS = 200
COMMANDS = 200

# The reply says when the request arrived (the server's `time.monotonic()`, one clock for all processes).
_SERVER = """
import sys
from vtcode.testing.openai_chat_server import OpenAIChatServer
from vtcode.testing.script import Reply
with OpenAIChatServer(responder=lambda r: Reply(text=repr(r.received_at), chunk_size=64)) as server:
    print(server.base_url, flush=True)
    sys.stdin.read()
"""


def populate(base: Path) -> tuple[Path, Path]:
    """A repository and a home holding 200 skills and 200 commands over every source kind."""
    root, home = base / "R", base / "H"
    (root / ".git").mkdir(parents=True)
    skill_folders = [
        root / ".agents/skills",
        root / ".claude/skills",
        home / ".agents/skills",
        home / ".vtcode/skills",
    ]
    for n in range(SKILLS):
        folder = skill_folders[n % len(skill_folders)] / f"skill-{n:03d}"
        (folder / "scripts").mkdir(parents=True)
        (folder / "SKILL.md").write_text(
            f"---\nname: skill-{n:03d}\ndescription: Handles task {n}: use when the user asks for task {n}.\n"
            f"---\n# Skill {n}\n\n" + "Step.\n" * 40
        )
        (folder / "scripts/run.sh").write_text("#!/bin/sh\n")
    command_folders = [
        (root / ".claude/commands/group", ".md"),
        (root / ".vtcode/commands", ".md"),
        (root / ".gemini/commands/git", ".toml"),
        (home / ".codex/prompts", ".md"),
    ]
    for n in range(COMMANDS):
        folder, ext = command_folders[n % len(command_folders)]
        folder.mkdir(parents=True, exist_ok=True)
        text = f'prompt = "Do thing {n} with {{{{args}}}}"\n' if ext == ".toml" else f"Do thing {n} with $0\n"
        (folder / f"cmd-{n:03d}{ext}").write_text(text)
    # Modified an hour ago, as skills mostly are (files changed in the last seconds are never cached).
    hour_ago = time.time() - 3600
    for path in (*root.rglob("*"), *home.rglob("*")):
        os.utime(path, (hour_ago, hour_ago))
    return root, home


# (wall seconds, CPU seconds): on a machine other jobs share, CPU time varies far less than wall time.
Sample = tuple[float, float]


def child_session(root: Path, home: Path, base_url: str) -> Sample:
    """(wall seconds from `Session.open` to the server receiving the first request, CPU seconds of
    this process until the first turn ends)."""
    from vtcode.config.schema import AgentSettings, Settings
    from vtcode.protocol.events import AgentMessageItem, ItemCompleted, TurnCompleted
    from vtcode.protocol.ops import UserInput
    from vtcode.runtime.session import Session
    from vtcode.runtime.wiring import SessionOptions

    env = {
        "HOME": str(home),
        "OPENAI_API_KEY": "bench",
        "OPENAI_BASE_URL": base_url,
        "PATH": os.environ["PATH"],
    }
    settings = Settings(agent=AgentSettings(provider="openai", model="gpt-4.1", approval="full-auto"))
    options = SessionOptions(
        workspace=root, settings=settings, home=home / ".vtcode", env=env, ephemeral=True, until_idle=True
    )

    async def run() -> Sample:
        started, cpu = time.monotonic(), time.process_time()
        session = await Session.open(options)
        await session.submit(UserInput("hi"))
        received = float("nan")
        async for event in session.events():
            if isinstance(event, ItemCompleted) and isinstance(event.item, AgentMessageItem):
                received = float(event.item.text)
            if isinstance(event, TurnCompleted):
                break
        elapsed = received - started, time.process_time() - cpu
        await session.aclose()
        return elapsed

    return asyncio.run(run())


def child_discovery(root: Path, home: Path) -> Sample:
    """Seconds of discovery + catalog alone (the part skills add to start-up), with the imports a
    session makes for it (not those every session has made by then)."""
    from vtcode.config.schema import Settings
    from vtcode.runtime.session import Session  # noqa: F401  (what every session imports)

    started, cpu = time.perf_counter(), time.process_time()
    from vtcode.runtime.skills_start import session_skills

    found = session_skills(
        Settings(),
        workspace=root,
        home=home / ".vtcode",
        user_home=home,
        context_window=1_000_000,
        notice=lambda _: None,
    )
    assert found is not None
    assert found.catalog_text
    return time.perf_counter() - started, time.process_time() - cpu


def child_no_folders(root: Path, home: Path) -> Sample:
    """Seconds of what skills add to a session without any skill folder: importing the check and the
    `stat` calls it makes (everything else of a session is unchanged)."""
    import importlib

    for module in ("vtcode.config.schema", "vtcode.instructions.options"):
        importlib.import_module(module)  # every session has imported these before this point

    started, cpu = time.perf_counter(), time.process_time()
    from vtcode.config.schema import Settings
    from vtcode.runtime.skills_start import session_skills

    found = session_skills(
        Settings(),
        workspace=root,
        home=home / ".vtcode",
        user_home=home,
        context_window=1_000_000,
        notice=print,
    )
    assert found is None
    return time.perf_counter() - started, time.process_time() - cpu


def _child(kind: str, root: Path, home: Path, base_url: str, src: Path) -> Sample:
    env = {**os.environ, "PYTHONPATH": str(src), "PYTHONDONTWRITEBYTECODE": "1"}
    out = subprocess.run(
        [sys.executable, __file__, "--child", kind, str(root), str(home), base_url],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    wall, cpu = out.strip().splitlines()[-1].split()
    return float(wall), float(cpu)


def _cold_child(root: Path, home: Path, base_url: str, src: Path) -> Sample:
    """A session with skills whose start-up finds no cache (the first one, or the first after edits)."""
    shutil.rmtree(home / ".vtcode/cache", ignore_errors=True)
    return _child("session", root, home, base_url, src)


def _exec(root: Path, home: Path, base_url: str, src: Path) -> Sample:
    env = {
        **os.environ,
        "PYTHONPATH": str(src),
        "PYTHONDONTWRITEBYTECODE": "1",
        "HOME": str(home),
        "VTCODE_HOME": str(home / ".vtcode"),
        "OPENAI_API_KEY": "bench",
        "OPENAI_BASE_URL": base_url,
    }
    started, before = time.perf_counter(), resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(
        [sys.executable, "-m", "vtcode", "exec", "--provider", "openai", "--ephemeral", "hi"],
        cwd=root,
        env=env,
        capture_output=True,
        check=True,
    )
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
    return time.perf_counter() - started, cpu


def _compiled(src: Path) -> Path:
    # Compiled once, as an installed package is: otherwise every child compiles what it imports.
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(src)], check=True, capture_output=True)
    return src


def _this_tree(folder: Path) -> Path:
    """This working tree's `src` (uncommitted edits included), copied and compiled."""
    shutil.copytree(ROOT / "src", folder / "src", ignore=shutil.ignore_patterns("__pycache__"))
    return _compiled(folder / "src")


def _baseline_tree(rev: str, folder: Path) -> Path:
    """`rev`'s `src`, extracted and compiled."""
    archive = subprocess.run(["git", "archive", rev, "src"], cwd=ROOT, capture_output=True, check=True).stdout
    folder.mkdir(parents=True)
    subprocess.run(["tar", "-x", "-C", str(folder)], input=archive, check=True)
    return _compiled(folder / "src")


def _median_difference(runs: dict[str, list[Sample]], a: str, b: str, column: int) -> float:
    return statistics.median(x[column] - y[column] for x, y in zip(runs[a], runs[b], strict=True))


def _median_ratio(runs: dict[str, list[Sample]], a: str, b: str, column: int) -> float:
    return statistics.median(x[column] / y[column] for x, y in zip(runs[a], runs[b], strict=True))


def _median(runs: dict[str, list[Sample]], key: str, column: int) -> float:
    return statistics.median(sample[column] for sample in runs[key])


def _report(runs: dict[str, list[Sample]], column: int, label: str, baseline: str) -> None:
    def ms(key: str) -> float:
        return _median(runs, key, column) * 1e3

    def line(text: str, value: float, tail: str = "", digits: int = 1) -> None:
        print(f"{text:<48s}{value:8.{digits}f} ms{tail}")

    added = _median_difference(runs, "with", "without", column) * 1e3
    base_added = _median_difference(runs, "with-base", "without-base", column) * 1e3
    ratio = _median_ratio(runs, "exec-now", "exec-base", column)
    share = 1 + ms("no-folders") / ms("exec-base")
    until = "the request arrives" if column == 0 else "the first turn ends"
    print(f"-- {label} (medians; from Session.open until {until})")
    line("session, no skill folders:", ms("without"))
    line(f"session, {SKILLS} skills + {COMMANDS} commands:", ms("with"))
    line("ADDED start-up to first request, this tree:", added, f"  (target <= 10 ms: {_ok(added <= 10)})")
    line(
        "  the same without the skill cache (cold):",
        _median_difference(runs, "with-cold", "without", column) * 1e3,
    )
    line(f"added start-up to first request, {baseline}:", base_added)
    line("discovery + catalog alone, with their imports:", ms("discovery"))
    line("added by skills without folders (in process):", ms("no-folders"), f"  ({share:.4f}x of an exec)", 2)
    line(f"vtcode exec, no skill folders, {baseline}:", ms("exec-base"))
    line(
        "vtcode exec, no skill folders, this tree:",
        ms("exec-now"),
        f"  (EXEC RATIO {ratio:.3f}x; target <= 1.02x: {_ok(ratio <= 1.02)})",
    )


def _ok(met: bool) -> str:
    return "ok" if met else "OVER"


def _child_main(kind: str, root: Path, home: Path, url: str) -> None:
    if kind == "discovery":
        seconds = child_discovery(root, home)
    elif kind == "no-folders":
        seconds = child_no_folders(root, home)
    else:
        seconds = child_session(root, home, url)
    sys.stdout.write(f"{seconds[0]!r} {seconds[1]!r}\n")


def main() -> None:
    """Alternate the configurations over rounds; print medians and the paired differences and ratios."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--baseline", default="main", help="the revision to compare with (default: main)")
    parser.add_argument("--child", nargs=4, metavar=("KIND", "ROOT", "HOME", "URL"))
    args = parser.parse_args()
    if args.child:
        kind, root, home, url = args.child
        _child_main(kind, Path(root), Path(home), url)
        return
    work = Path(tempfile.mkdtemp(prefix="vtcode-skills-bench-"))
    server = ServerProcess(_SERVER)
    load = os.getloadavg()
    try:
        here = _this_tree(work / "here")
        base = _baseline_tree(args.baseline, work / "base")
        full_root, full_home = populate(work / "full")
        time.sleep(2.1)  # files changed in the last 2 s are not cached (their change time is recent)
        empty_root, empty_home = work / "empty/R", work / "empty/H"
        (empty_root / ".git").mkdir(parents=True)
        empty_home.mkdir(parents=True)
        url = server.base_url
        pairs: list[tuple[tuple[str, Callable[[], Sample]], ...]] = [
            (
                ("with", lambda: _child("session", full_root, full_home, url, here)),
                ("without", lambda: _child("session", empty_root, empty_home, url, here)),
            ),
            (
                ("with-base", lambda: _child("session", full_root, full_home, url, base)),
                ("without-base", lambda: _child("session", empty_root, empty_home, url, base)),
            ),
            (
                ("exec-now", lambda: _exec(empty_root, empty_home, url, here)),
                ("exec-base", lambda: _exec(empty_root, empty_home, url, base)),
            ),
            (("with-cold", lambda: _cold_child(full_root, full_home, url, here)),),
            (("discovery", lambda: _child("discovery", full_root, full_home, url, here)),),
            (("no-folders", lambda: _child("no-folders", empty_root, empty_home, url, here)),),
        ]
        runs: dict[str, list[Sample]] = {key: [] for pair in pairs for key, _ in pair}
        for index in range(args.rounds):
            shift = index % len(pairs)  # a different configuration goes first each round
            for pair in pairs[shift:] + pairs[:shift]:
                # Within a pair the order alternates too (ABBA), so neither side always runs second.
                for key, measure in pair if index % 2 == 0 else tuple(reversed(pair)):
                    runs[key].append(measure())
        after = os.getloadavg()
        print(
            f"{args.rounds} rounds; load average {load[0]:.1f} before, {after[0]:.1f} after "
            f"({os.cpu_count()} CPUs); baseline: {args.baseline}"
        )
        for column, label in ((1, "CPU"), (0, "wall")):
            _report(runs, column, label, args.baseline)
    finally:
        server.close()
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
