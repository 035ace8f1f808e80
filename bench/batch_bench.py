"""`vtcode batch`: throughput at 1, 2 and 4 workers, the scheduler's own CPU share, disk per task.

N scripted tasks (default 100), each five tool round trips (list, read, run, patch, run) on a small git
repository, against a loopback Chat Completions server in a child process. The driver runs in this
process, so its CPU (`RUSAGE_SELF`) is the scheduler's alone and the tasks' (`vtcode exec` children,
their commands, git) is `RUSAGE_CHILDREN`. Baseline, measured in the same run right before each batch
(so a shared machine's load hits both alike): the same task as a plain sequential `vtcode exec` loop
(no batch, no workspace copy), per task.
Run: .venv/bin/python bench/batch_bench.py [--tasks N] [--workers 1,2,4] [--backend local|ray|local,ray]
     [--ray-address HOST:PORT]

With `ray` among the backends and no --ray-address, the benchmark starts its own cluster (a head with no
CPUs and one worker node with as many CPUs as the most workers asked) inside a network namespace holding
only `lo` (Ray otherwise binds the host's interfaces), and runs itself inside it, so the driver, the
model server and the tasks all live on 127.0.0.1. The Ray rows also show their rate against the local
backend's at the same worker count. Their "tasks CPU" is not measured (the tasks run in Ray's worker
processes, not children of this one); their "scheduler CPU" column shows the driver's CPU seconds,
Ray's driver-side client included.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from loopback_process import ServerProcess

from vtcode.batch.backend import BatchStop
from vtcode.batch.runner import BatchConfig, run_batch
from vtcode.core.batch.env import task_environment
from vtcode.core.batch.run_record import ModelFlags
from vtcode.testing.loopback_netns import LoopbackNamespace
from vtcode.testing.ray_cluster import RayCluster

# Runs in a child process: per task (named in its first user message), five tool calls then "done".
_SERVER = r"""
import json, re, sys, threading, time
from vtcode.testing.openai_chat_server import OpenAIChatServer
from vtcode.testing.script import Reply, ScriptToolCall
PATCH = ("*** Begin Patch\n*** Update File: calc.py\n@@ def add(a, b):\n-    return a - b\n"
         "+    return a + b\n*** End Patch\n")
STEPS = [
    ("list_files", {}),
    ("read_file", {"path": "calc.py"}),
    ("exec_command", {"cmd": "python3 check.py || true"}),
    ("apply_patch", {"patch": PATCH}),
    ("exec_command", {"cmd": "python3 check.py"}),
]
def respond(request):
    body = request.json()
    done = sum(1 for m in body["messages"] if m.get("role") == "tool")
    if done >= len(STEPS):
        return Reply(text="Fixed add; check.py passes.")
    name, args = STEPS[done]
    return Reply(tool_calls=(ScriptToolCall(name, json.dumps(args), id=f"c{done}"),))
server = OpenAIChatServer(responder=respond).start()
print(server.base_url, flush=True)
def trim():
    while True:
        time.sleep(0.5)
        server.requests.clear()
threading.Thread(target=trim, daemon=True).start()
sys.stdin.read()
server.stop()
"""

MODEL = ("--provider", "openai", "--model", "gpt-4.1")


def _repo(path: Path) -> Path:
    path.mkdir(parents=True)
    (path / "calc.py").write_text("def add(a, b):\n    return a - b\n")
    (path / "check.py").write_text("import calc\nassert calc.add(2, 3) == 5\nprint('ok')\n")
    (path / "README.md").write_text("# calc\n" + "text\n" * 200)
    ident = ["-c", "user.email=b@example.com", "-c", "user.name=b"]
    subprocess.run(["git", "init", "-q"], cwd=path, check=True)
    subprocess.run(["git", "add", "."], cwd=path, check=True)
    subprocess.run(["git", *ident, "commit", "-qm", "init"], cwd=path, check=True)
    return path


def _env(root: Path, base_url: str) -> dict[str, str]:
    home = root / "home"
    home.mkdir(exist_ok=True)
    env = dict(os.environ, HOME=str(home), OPENAI_API_KEY="bench", OPENAI_BASE_URL=base_url)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    return env


def _cpu(who: int) -> float:
    usage = resource.getrusage(who)
    return usage.ru_utime + usage.ru_stime


def _size(path: Path) -> int:
    return sum(
        entry.stat().st_size for entry in path.rglob("*") if entry.is_file() and not entry.is_symlink()
    )


@dataclass(frozen=True)
class Measured:
    """One batch run."""

    workers: int
    seconds: float
    driver_cpu: float
    tasks_cpu: float
    completed: int
    disk_per_task: int
    work_left: int

    def per_minute(self, tasks: int) -> float:
        """Tasks finished per minute of wall time."""
        return tasks / self.seconds * 60


def run_once(
    root: Path, repo: Path, base_url: str, tasks: int, *, workers: int, backend: str, extra: dict[str, str]
) -> Measured:
    """Run the N-task batch once into a fresh folder."""
    tasks_path = root / f"tasks-{workers}-{backend}.jsonl"
    lines = [
        json.dumps({"id": f"b{n:03d}", "instruction": f"task b{n:03d}: fix add", "repo": {"path": str(repo)}})
        for n in range(tasks)
    ]
    tasks_path.write_text("\n".join(lines) + "\n")
    out = root / f"out-{workers}-{backend}"
    env = _env(root, base_url)
    config = BatchConfig(
        tasks_path=tasks_path,
        out_dir=out,
        vtcode_argv=(sys.executable, "-m", "vtcode"),
        env={**task_environment(env), "VTCODE_HOME": str(root / "home" / ".vtcode")},
        flags=ModelFlags(provider="openai", model="gpt-4.1"),
        backend=backend,
        workers=workers,
        timeout_s=600,
        extra=extra,
    )
    self_before, children_before = _cpu(resource.RUSAGE_SELF), _cpu(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    report = asyncio.run(run_batch(config, BatchStop()))
    seconds = time.perf_counter() - start
    driver = _cpu(resource.RUSAGE_SELF) - self_before
    children = _cpu(resource.RUSAGE_CHILDREN) - children_before
    work = out / "work"
    return Measured(
        workers=workers,
        seconds=seconds,
        driver_cpu=driver,
        tasks_cpu=children,
        completed=report.summary.counts.get("completed", 0),
        disk_per_task=_size(out) // max(1, tasks),
        work_left=_size(work) if work.exists() else 0,
    )


def plain_exec(root: Path, repo: Path, base_url: str, runs: int) -> float:
    """Seconds per task of a sequential `vtcode exec` loop on fresh copies (the no-batch baseline)."""
    root.mkdir(parents=True, exist_ok=True)
    env = _env(root, base_url)
    env["VTCODE_HOME"] = str(root / "home" / ".vtcode")
    total = 0.0
    for n in range(runs):
        copy = root / f"plain-{n}"
        shutil.copytree(repo, copy)
        start = time.perf_counter()
        subprocess.run(
            [
                sys.executable,
                "-m",
                "vtcode",
                "exec",
                "--json",
                "--approval",
                "full-auto",
                *MODEL,
                f"task p{n}: fix add",
            ],
            cwd=copy,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            check=True,
        )
        total += time.perf_counter() - start
    return total / runs


def in_ray_namespace(counts: list[int]) -> int:
    """Start a Ray cluster in a loopback namespace and run this benchmark again inside it."""
    base = Path(tempfile.mkdtemp(prefix="vtray-bench-"))
    with LoopbackNamespace() as namespace:
        cluster = RayCluster(namespace, Path(sys.executable).with_name("ray"), base)
        start = time.perf_counter()
        cluster.start_head()
        head = time.perf_counter() - start
        cluster.add_node("node2", max(counts))
        print(
            f"ray cluster: head {head:.1f} s, + worker node {time.perf_counter() - start - head:.1f} s "
            f"(not in the rates below)",
            flush=True,
        )
        argv = [sys.executable, *sys.argv, "--ray-address", cluster.address]
        env = dict(os.environ, **{k: v for k, v in cluster.env.items() if k.startswith("RAY_")})
        code = subprocess.run(namespace.argv(argv), env=env, check=False).returncode
    shutil.rmtree(base, ignore_errors=True)
    return code


def main() -> None:
    """Measure and print the figures."""
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--tasks", type=int, default=100)
    parser.add_argument("--workers", default="1,2,4")
    parser.add_argument("--backend", default="local", help="local, ray, or both as local,ray")
    parser.add_argument("--ray-address", help="the Ray cluster for --backend ray (default: one of its own)")
    parser.add_argument("--baseline-runs", type=int, default=10)
    args = parser.parse_args()
    counts = [int(part) for part in args.workers.split(",")]
    backends = args.backend.split(",")
    if "ray" in backends and not args.ray_address:
        sys.exit(in_ray_namespace(counts))
    extra = {"ray_address": args.ray_address} if args.ray_address else {}
    root = Path(tempfile.mkdtemp(prefix="vtcode-batch-bench-"))
    server = ServerProcess(_SERVER)
    try:
        repo = _repo(root / "repo")
        print(f"{args.tasks} tasks, 5 tool round trips each, on {os.cpu_count()} cores")
        print(
            "backend  workers  tasks/min  vs exec loop  vs 1 worker  vs local  scheduler CPU  tasks CPU s  "
            "disk/task  work left"
        )
        first: dict[str, float] = {}
        local: dict[int, float] = {}
        for backend in backends:
            for workers in counts:
                baseline = plain_exec(
                    root / f"plain-{backend}-{workers}", repo, server.base_url, args.baseline_runs
                )
                m = run_once(
                    root, repo, server.base_url, args.tasks, workers=workers, backend=backend, extra=extra
                )
                rate = m.per_minute(args.tasks)
                first.setdefault(backend, rate)
                if backend == "local":
                    local[workers] = rate
                versus = f"{rate / local[workers]:7.2f}x" if workers in local else "      -"
                share = f"{m.driver_cpu / max(1e-9, m.driver_cpu + m.tasks_cpu):12.1%}"
                tasks_cpu = f"{m.tasks_cpu:11.1f}"
                if backend != "local":
                    # The tasks ran in Ray's workers: only the driver's own CPU seconds are known here.
                    share, tasks_cpu = f"{m.driver_cpu:8.1f} s drv", "        n/a"
                print(
                    f"{backend:7}  {workers:7}  {rate:9.1f}  {rate / (60 / baseline):11.2f}x  "
                    f"{rate / first[backend]:10.2f}x  {versus}  {share}  {tasks_cpu}  "
                    f"{m.disk_per_task / 1024:7.1f} KiB  {m.work_left} B  (exec loop {60 / baseline:.1f}/min)"
                    + ("" if m.completed == args.tasks else f"  ({m.completed} completed!)"),
                    flush=True,
                )
    finally:
        server.close()
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()
