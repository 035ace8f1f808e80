"""CPU time and modules of `vtcode exec` up to its first connection, for several source trees at once.

On a machine other jobs share, wall times to the first request byte (bench/startup.py) move by tens of
per cent between runs; the CPU time a launch spends and the modules it imports move far less. Each
sample runs `vtcode exec "hi"` from one tree (PYTHONPATH) with a probe that notes the process's CPU time
after the CLI's imports and at the first connect to 127.0.0.1, then exits. The trees are interleaved,
a different one first each round; ratios are to the first tree.
Run: .venv/bin/python bench/startup_cpu.py [--runs N] [--args "..."] SRC [SRC...]
(e.g. this tree's `src` and `git archive OLD src | tar -x -C /tmp/old` as `/tmp/old/src`).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile

_PROBE = """
import os, socket, sys, time
started = time.process_time()
import vtcode.cli.main, vtcode.cli.exec_cmd
imported = time.process_time()
connect = socket.socket.connect
def first(self, address):
    if isinstance(address, tuple) and address[0] == "127.0.0.1":
        now = time.process_time()
        sys.__stderr__.write(f"PROBE {imported - started} {now - imported} {len(sys.modules)}\\n")
        sys.__stderr__.flush()
        os._exit(0)
    return connect(self, address)
socket.socket.connect = first
import runpy
sys.argv = ["vtcode", "exec", "-c", "network.max_retries=0", *sys.argv[1:], "hi"]
runpy.run_module("vtcode", run_name="__main__")
"""
# An installed vtcode has its .pyc files; an editable checkout under PYTHONDONTWRITEBYTECODE would not.
_BASE_ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}

Sample = tuple[float, float, int]


def sample(src: str, args: list[str]) -> Sample | None:
    """(CPU seconds importing the CLI, CPU seconds from there to the first connect, modules loaded)."""
    home = tempfile.mkdtemp()
    env = dict(
        _BASE_ENV,
        PYTHONPATH=src,
        HOME=home,
        VTCODE_HOME=os.path.join(home, ".vtcode"),
        OPENAI_API_KEY="bench",
        OPENAI_BASE_URL="http://127.0.0.1:9/v1",
    )
    out = subprocess.run(
        [sys.executable, "-c", _PROBE, *args],
        cwd=tempfile.mkdtemp(),
        env=env,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        check=False,
    ).stderr
    for line in out.splitlines():
        if line.startswith("PROBE "):
            _, imports, rest, modules = line.split()
            return float(imports), float(rest), int(modules)
    return None


def main() -> None:
    """Interleave the trees, then print quantiles and ratios to the first tree."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--args", default="", help="exec options, e.g. '--output-format json'")
    parser.add_argument("trees", nargs="+", help="src folders; the first is the baseline of the ratios")
    options = parser.parse_args()
    trees: list[str] = options.trees
    samples: dict[str, list[Sample]] = {tree: [] for tree in trees}
    for index in range(options.runs):
        shift = index % len(trees)
        for tree in trees[shift:] + trees[:shift]:
            got = sample(tree, options.args.split())
            if got is not None:
                samples[tree].append(got)

    def quartile(values: list[float]) -> float:
        return sorted(values)[len(values) // 4]

    totals = {tree: [(i + r) * 1e3 for i, r, _ in samples[tree]] for tree in trees if samples[tree]}
    base = totals[trees[0]]
    for tree, total in totals.items():
        imports = [i * 1e3 for i, _, _ in samples[tree]]
        print(
            f"{tree}: n={len(total)} modules={samples[tree][0][2]}  CPU to first connect "
            f"min {min(total):.1f} q1 {quartile(total):.1f} median {statistics.median(total):.1f} ms "
            f"(imports median {statistics.median(imports):.1f})  vs first tree: "
            f"min {min(total) / min(base):.3f}x q1 {quartile(total) / quartile(base):.3f}x "
            f"median {statistics.median(total) / statistics.median(base):.3f}x"
        )


if __name__ == "__main__":
    main()
