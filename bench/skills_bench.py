"""Start-up cost of skills and custom commands, against baselines measured in the same run.

1. Added start-up time to the first model request with 200 skills and 200 commands in the workspace
   (half project, half user; every source kind) against the same session with no skill or command
   folders: `Session.open` + the first request reaching a loopback server, in one child process per
   configuration, alternated over rounds. Also discovery + catalog alone. Target: <= 10 ms added.
   The same two sessions run on the code of `git merge-base HEAD main` too, so a change to the skills
   start-up path is given as a ratio against main measured in the same run.
2. `vtcode exec "hi"` as a whole process with no skill folders present, this tree against the code
   before skills (`git merge-base HEAD main`, extracted to a temporary folder). Target: <= 1.02x. On a
   loaded machine whole-process times vary by far more than 2 %, so the work skills add there (the
   folder check, in process) is also given as a share of the baseline exec.

Every figure is the best round, as wall time and as CPU time (the child's own, which other jobs on a
shared machine disturb far less than its wall time).
The loopback server runs in its own process (bench/loopback_process.py), so only vtcode is timed.
Run: .venv/bin/python bench/skills_bench.py [--rounds N]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import resource
import shutil
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

_SERVER = """
import sys
from vtcode.testing.openai_chat_server import OpenAIChatServer
from vtcode.testing.script import Reply
with OpenAIChatServer(responder=lambda _: Reply(text="ok")) as server:
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
    return root, home


# (wall seconds, CPU seconds): on a machine other jobs share, CPU time varies far less than wall time.
Sample = tuple[float, float]


def child_session(root: Path, home: Path, base_url: str) -> Sample:
    """Seconds from `Session.open` to the end of the first turn (one request) in this process."""
    from vtcode.config.schema import AgentSettings, Settings
    from vtcode.protocol.events import TurnCompleted
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
        started, cpu = time.perf_counter(), time.process_time()
        session = await Session.open(options)
        await session.submit(UserInput("hi"))
        async for event in session.events():
            if isinstance(event, TurnCompleted):
                break
        elapsed = time.perf_counter() - started, time.process_time() - cpu
        await session.aclose()
        return elapsed

    return asyncio.run(run())


def child_discovery(root: Path, home: Path) -> Sample:
    """Seconds of discovery + catalog alone (the part skills add to start-up)."""
    from vtcode.config.schema import Settings
    from vtcode.runtime.skills import load_session_skills

    started, cpu = time.perf_counter(), time.process_time()
    load_session_skills(
        Settings(),
        workspace=root,
        home=home / ".vtcode",
        user_home=home,
        context_window=1_000_000,
        notice=print,
    )
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


def _baseline_tree() -> Path:
    base = subprocess.run(
        ["git", "merge-base", "HEAD", "main"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.strip()
    folder = Path(tempfile.mkdtemp(prefix="vtcode-before-skills-"))
    archive = subprocess.run(
        ["git", "archive", base, "src"], cwd=ROOT, capture_output=True, check=True
    ).stdout
    subprocess.run(["tar", "-x", "-C", str(folder)], input=archive, check=True)
    # Compiled once, as this tree's own `__pycache__` is: otherwise every baseline run compiles.
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(folder / "src")], check=True)
    return folder / "src"


def _report(best: dict[str, float], label: str) -> None:
    added = (best["with"] - best["without"]) * 1e3
    base_added = (best["with-base"] - best["without-base"]) * 1e3
    ratio = best["exec-now"] / best["exec-before"]
    share = 1 + best["no-folders"] / best["exec-before"]
    print(f"-- {label}")
    print(f"open + first request, no skill folders:        {best['without'] * 1e3:8.1f} ms")
    print(f"open + first request, {SKILLS} skills + {COMMANDS} cmds:  {best['with'] * 1e3:8.1f} ms")
    print(f"added start-up time:                           {added:8.1f} ms  (target <= 10 ms)")
    print(
        f"added start-up time, merge-base with main:     {base_added:8.1f} ms  "
        f"(this tree / main: {added / base_added if base_added > 0 else float('nan'):.2f}x)"
    )
    print(
        f"with/without skills, this tree vs main:        {best['with'] / best['without']:.3f}x vs "
        f"{best['with-base'] / best['without-base']:.3f}x"
    )
    print(f"discovery + catalog alone:                     {best['discovery'] * 1e3:8.1f} ms")
    print(
        f"added by skills without folders (in process):  {best['no-folders'] * 1e3:8.2f} ms  "
        f"({share:.4f}x of the exec before skills)"
    )
    print(f"vtcode exec, no skill folders, before skills:  {best['exec-before'] * 1e3:8.1f} ms")
    print(
        f"vtcode exec, no skill folders, this tree:      {best['exec-now'] * 1e3:8.1f} ms  "
        f"({ratio:.3f}x; target <= 1.02x)"
    )


def main() -> None:
    """Alternate the configurations over rounds; print the best round of each and the ratios."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument("--child", nargs=4, metavar=("KIND", "ROOT", "HOME", "URL"))
    args = parser.parse_args()
    if args.child:
        kind, root, home, url = args.child
        if kind == "discovery":
            seconds = child_discovery(Path(root), Path(home))
        elif kind == "no-folders":
            seconds = child_no_folders(Path(root), Path(home))
        else:
            seconds = child_session(Path(root), Path(home), url)
        sys.stdout.write(f"{seconds[0]!r} {seconds[1]!r}\n")
        return
    work = Path(tempfile.mkdtemp(prefix="vtcode-skills-bench-"))
    before = _baseline_tree()
    server = ServerProcess(_SERVER)
    try:
        full_root, full_home = populate(work / "full")
        empty_root, empty_home = work / "empty/R", work / "empty/H"
        (empty_root / ".git").mkdir(parents=True)
        empty_home.mkdir(parents=True)
        here = ROOT / "src"
        runs: dict[str, list[Sample]] = {
            k: []
            for k in (
                "with", "without", "with-base", "without-base", "discovery", "no-folders", "exec-now",
                "exec-before",
            )
        }  # fmt: skip
        plan: list[tuple[str, Callable[[], Sample]]] = [
            ("with", lambda: _child("session", full_root, full_home, server.base_url, here)),
            ("without", lambda: _child("session", empty_root, empty_home, server.base_url, here)),
            ("with-base", lambda: _child("session", full_root, full_home, server.base_url, before)),
            ("without-base", lambda: _child("session", empty_root, empty_home, server.base_url, before)),
            ("discovery", lambda: _child("discovery", full_root, full_home, server.base_url, here)),
            ("no-folders", lambda: _child("no-folders", empty_root, empty_home, server.base_url, here)),
            ("exec-now", lambda: _exec(empty_root, empty_home, server.base_url, here)),
            ("exec-before", lambda: _exec(empty_root, empty_home, server.base_url, before)),
        ]
        for index in range(args.rounds):
            shift = index % len(plan)  # a different configuration goes first each round
            for key, measure in plan[shift:] + plan[:shift]:
                runs[key].append(measure())
        print("(best round of each; wall ms, then CPU ms)")
        for column, label in ((0, "wall"), (1, "CPU")):
            _report({key: min(v[column] for v in values) for key, values in runs.items()}, label)
    finally:
        server.close()
        shutil.rmtree(work, ignore_errors=True)
        shutil.rmtree(before.parent, ignore_errors=True)


if __name__ == "__main__":
    main()
