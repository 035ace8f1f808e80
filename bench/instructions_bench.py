"""Instruction discovery cost on generated repositories of 5,000 and 50,000 files (issue 4).

Each repository has an active path 8 folders deep with an AGENTS.md at every level, 200 rule files
(120 unconditional, 60 scoped to paths that exist, 20 scoped to folders that do not), and the rest of
its files spread over ordinary package folders. Measured, as medians:

- discovery + render, cold (a new reader: every instruction file is read): the cost must follow the
  ancestor chain and the rule folders, not the size of the tree (target: 50k/5k ratio <= 1.3);
- the same with the never-matching rule check on;
- the re-check before each model request when nothing changed (target <= 5 ms);
- a rebuild after one instruction file changed (warm reader cache);
- `vtcode instructions` (in process, and as a child process) on a git repository of 6,000 files and
  on its twin holding also a gitignored `node_modules/` of 250,000 files, runs alternating between
  the two: the never-matching check lists the files `list_files` sees, so the ignored tree must cost
  next to nothing (target: with/without ratio <= 1.3).

Figures are also given as ratios to baselines measured in the same run on the same tree: reading the
instruction files themselves (open + read, the I/O any implementation needs) and walking the whole
tree with `os.walk` (what a tree-sized implementation would pay).

Run: .venv/bin/python bench/instructions_bench.py [--runs N]
"""

from __future__ import annotations

import argparse
import io
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from vtcode.cli.instructions_cmd import run_instructions
from vtcode.config.schema import Settings
from vtcode.core.instructions.frontmatter import parse_rule_scope
from vtcode.core.instructions.globs import compile_pattern
from vtcode.instructions import InstructionOptions, MatchProbe, SourceReader, load_instructions
from vtcode.runtime.system_prompt import SystemPromptBuilder
from vtcode.tools.file_set import workspace_files

DEPTH = 8
RULES = 200
CHAIN = [f"level{n}" for n in range(1, DEPTH + 1)]
ACTIVE = "/".join(CHAIN) + "/leaf.py"


def generate(base: Path, total_files: int) -> Path:
    """A repository with `total_files` files in all (instruction files included)."""
    root = base / f"repo-{total_files}"
    (root / ".git").mkdir(parents=True)
    written = 0

    def write(relative: str, text: str) -> None:
        nonlocal written
        path = root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
        written += 1

    write(".gitignore", "build/\n*.log\n")
    write("AGENTS.md", "# Repo\n\n- Run the tests before committing.\n" + "Details.\n" * 20)
    chain = ""
    for level in CHAIN:
        chain = f"{chain}{level}/"
        write(f"{chain}AGENTS.md", f"- Rules for {chain}\n" + "More detail.\n" * 10)
    write(ACTIVE, "print('leaf')\n")
    for n in range(RULES):
        folder = f"group{n % 10}/" if n % 3 == 0 else ""
        if n < 120:
            head = ""
        elif n < 180:
            head = f"---\npaths: {'level1/**/*.py' if n % 2 else '**/*.py'}\n---\n"
        else:
            head = f"---\npaths: legacy{n}/**/*.rb\n---\n"
        write(f".vtcode/rules/{folder}rule{n:03}.md", f"{head}- Rule {n}: keep it tidy.\n")
    package = 0
    while written < total_files:
        for module in range(50):
            if written >= total_files:
                break
            write(f"pkg{package:04}/sub{module % 5}/mod{module}.py", "x = 1\n")
        package += 1
    backdate(base)
    return root


def backdate(tree: Path) -> None:
    """Old timestamps: nothing is too recent to trust, so re-checks measure the steady state."""
    past = time.time() - 3600
    for directory, dirnames, filenames in os.walk(tree):
        for name in [*dirnames, *filenames]:
            os.utime(os.path.join(directory, name), (past, past))
    os.utime(tree, (past, past))


def median_ms(action: Callable[[], object], runs: int) -> float:
    """Median wall time of `action` in milliseconds (after one warm-up call)."""
    action()
    samples = []
    for _ in range(runs):
        started = time.perf_counter()
        action()
        samples.append(time.perf_counter() - started)
    return statistics.median(samples) * 1000


def measure(root: Path, home: Path, runs: int) -> dict[str, float]:
    """Every figure for one repository."""
    options = InstructionOptions.for_workspace(root, vtcode_home=home / ".vtcode", user_home=home)
    instruction_files = [root / "AGENTS.md", *(root.joinpath(*CHAIN[:n], "AGENTS.md") for n in range(1, 9))]
    instruction_files += sorted((root / ".vtcode" / "rules").rglob("*.md"))

    def read_all() -> None:
        for path in instruction_files:
            with open(path, "rb") as handle:
                handle.read()

    def walk_tree() -> None:
        for _ in os.walk(root):
            pass

    def cold() -> None:
        # Nothing cached: every file is read, every frontmatter parsed, every pattern compiled.
        compile_pattern.cache_clear()
        parse_rule_scope.cache_clear()
        load_instructions(options, [ACTIVE], reader=SourceReader())

    def cold_with_lint() -> None:
        compile_pattern.cache_clear()
        parse_rule_scope.cache_clear()
        probe = MatchProbe(root, workspace_files)
        load_instructions(options, [ACTIVE], reader=SourceReader(), probe=probe)

    builder = SystemPromptBuilder(
        workspace=root, home=home / ".vtcode", settings=Settings(), tools=[], user_home=home
    )
    builder.note_touched([ACTIVE])
    builder.build()
    rebuilds = builder.rebuilds
    recheck = median_ms(builder.build, runs * 10)
    assert builder.rebuilds == rebuilds, "a re-check without changes must not rediscover"
    result = builder.result
    assert len(result.sources) == 1 + DEPTH + 1 + 120 + 60, len(result.sources)
    nested = root.joinpath(*CHAIN, "AGENTS.md")

    def changed() -> None:
        stamp = time.time() - 3600 + len(builder.active_paths) + builder.rebuilds
        os.utime(nested, (stamp, stamp))  # a different mtime: the re-check sees a change
        builder.build()

    never = compile_pattern("**/*.nomatch")

    def full_lint_walk() -> None:
        MatchProbe(root, workspace_files).any_match(root, (never,))

    return {
        "read_baseline": median_ms(read_all, runs),
        "walk_baseline": median_ms(walk_tree, max(3, runs // 5)),
        "cold": median_ms(cold, runs),
        "cold_lint": median_ms(cold_with_lint, runs),
        "recheck": recheck,
        "rebuild": median_ms(changed, runs),
        "watched": float(len(result.watch)),
        "worst_lint": median_ms(full_lint_walk, max(3, runs // 5)),
    }


IGNORED_PACKAGES = 2_500
IGNORED_FILES_EACH = 100


def interleaved_ms(actions: dict[str, Callable[[], object]], runs: int) -> dict[str, float]:
    """Median wall time of each action in milliseconds, run in turn so that load drift hits them alike."""
    samples: dict[str, list[float]] = {name: [] for name in actions}
    for action in actions.values():
        action()  # warm-up
    for _ in range(runs):
        for name, action in actions.items():
            started = time.perf_counter()
            action()
            samples[name].append(time.perf_counter() - started)
    return {name: statistics.median(values) * 1000 for name, values in samples.items()}


def ignored_tree_case(base: Path, home: Path, runs: int) -> dict[str, float]:
    """`vtcode instructions` on a 6k-file git repository and on its twin with a 250k-file ignored tree."""
    plain = generate(base / "plain", 6_000)
    shutil.rmtree(plain / ".git")
    (plain / ".gitignore").write_text("build/\n*.log\nnode_modules/\n")
    git = ["git", "-c", "core.autocrlf=false"]
    subprocess.run([*git, "init", "-q"], cwd=plain, check=True)
    subprocess.run([*git, "add", "-A"], cwd=plain, check=True)
    heavy = base / "heavy"
    shutil.copytree(plain, heavy, symlinks=True)
    started = time.perf_counter()
    for package in range(IGNORED_PACKAGES):
        folder = heavy / "node_modules" / f"pkg{package:04}" / "lib"
        folder.mkdir(parents=True)
        for n in range(IGNORED_FILES_EACH):
            (folder / f"m{n}.js").touch()
    total = IGNORED_PACKAGES * IGNORED_FILES_EACH
    print(f"added {total:,} ignored files to the twin in {time.perf_counter() - started:.1f} s")
    backdate(base)
    os.environ["HOME"] = os.fspath(home)
    os.environ["VTCODE_HOME"] = os.fspath(home / ".vtcode")

    def in_process(root: Path) -> Callable[[], None]:
        args = argparse.Namespace(workspace=os.fspath(root), path=[ACTIVE], json=True)

        def run() -> None:
            compile_pattern.cache_clear()
            parse_rule_scope.cache_clear()
            run_instructions(args, [], out=io.StringIO())

        return run

    def child(root: Path) -> Callable[[], None]:
        command = [sys.executable, "-m", "vtcode", "instructions", "--path", ACTIVE, "--json"]

        def run() -> None:
            subprocess.run(command, cwd=root, check=True, capture_output=True)

        return run

    figures = interleaved_ms({"without": in_process(plain), "with": in_process(heavy)}, runs)
    children = interleaved_ms({"without": child(plain), "with": child(heavy)}, max(5, runs // 2))
    figures.update({"child_without": children["without"], "child_with": children["with"]})
    return figures


def main() -> None:
    """Generate both repositories, measure, print the table."""
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--runs", type=int, default=30)
    args = parser.parse_args()
    base = Path(tempfile.mkdtemp(prefix="vtcode-instructions-bench-"))
    home = base / "home"
    (home / ".vtcode").mkdir(parents=True)
    (home / ".vtcode" / "AGENTS.md").write_text("- Answer in English.\n")
    try:
        figures = {}
        for size in (5_000, 50_000):
            started = time.perf_counter()
            root = generate(base, size)
            print(f"generated {size:,} files in {time.perf_counter() - started:.1f} s")
            figures[size] = measure(root, home, args.runs)
        small, large = figures[5_000], figures[50_000]
        print(f"\n{RULES} rules, AGENTS.md at {DEPTH + 1} levels, active path {ACTIVE}")
        print(f"watched paths per re-check: {large['watched']:.0f} (5k: {small['watched']:.0f})\n")
        header = f"{'median':<38}{'5k files':>10}{'50k files':>11}{'50k/5k':>8}{'x read':>9}{'x walk':>9}"
        print(header)
        print("-" * len(header))
        rows = [
            ("baseline: read the instruction files", "read_baseline"),
            ("baseline: os.walk the whole tree", "walk_baseline"),
            ("discovery + render, cold", "cold"),
            ("discovery + render + never-match check", "cold_lint"),
            ("re-check before a request (no change)", "recheck"),
            ("rebuild after one file changed (warm)", "rebuild"),
            ("list the file set, match `**/*.nomatch`", "worst_lint"),
        ]
        for label, key in rows:
            ratio = large[key] / small[key]
            print(
                f"{label:<38}{small[key]:>8.2f}ms{large[key]:>9.2f}ms{ratio:>8.2f}"
                f"{large[key] / large['read_baseline']:>9.2f}{large[key] / large['walk_baseline']:>9.3f}"
            )
        verdict = large["cold"] / small["cold"]
        print(
            f"\ncold discovery 50k/5k ratio {verdict:.2f} (target <= 1.3); "
            f"re-check {large['recheck']:.2f} ms (target <= 5)"
        )
        ignored = ignored_tree_case(base, home, args.runs)
        print(f"\n`vtcode instructions --path {ACTIVE}` on a 6k-file git repository, median:")
        print(f"{'':<28}{'6k files':>10}{'+250k ignored':>15}{'ratio':>8}")
        for label, without, with_ in (
            ("in process", "without", "with"),
            ("child process", "child_without", "child_with"),
        ):
            ratio = ignored[with_] / ignored[without]
            print(f"{label:<28}{ignored[without]:>8.1f}ms{ignored[with_]:>13.1f}ms{ratio:>8.2f}")
        verdict = ignored["with"] / ignored["without"]
        print(f"with/without ignored tree ratio {verdict:.2f} (target <= 1.3)")
    finally:
        shutil.rmtree(base, ignore_errors=True)


if __name__ == "__main__":
    main()
