"""Steering under SIGKILL, many times: every accepted intent applied exactly once, in order.

Each trial starts a real `vtcode exec` against a loopback Chat server (in a child process), sends four
follow-ups with `vtcode steer` (three with the same text, random queue/steer modes), kills the exec with
SIGKILL at a random moment, resumes the session with `vtcode exec --resume`, and compares the tagged user
messages of the history with the accepted intents. The suite runs 20 such trials
(tests/e2e/test_steering_crash_recovery.py); this script runs hundreds and prints the counts.

Run: .venv/bin/python bench/steering_crash_bench.py [--trials 500] [--seed 1]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from loopback_process import ServerProcess

SERVER = """
import sys
from vtcode.testing.script import Reply
from vtcode.testing.wire import server_for
replies = [Reply(text=f"reply {n}", chunk_size=3, delay_between=0.005) for n in range(100_000)]
with server_for("chat", replies) as server:
    print(server.base_url, flush=True)
    sys.stdin.read()
"""
TEXTS = ("run the tests", "run the tests", "fix the lint", "run the tests")


def _vtcode(*args: str) -> list[str]:
    return [sys.executable, "-m", "vtcode", *args]


def _applied(session: Path) -> list[str]:
    ids: list[str] = []
    for line in (session / "history.jsonl").read_text().splitlines():
        try:
            record = json.loads(line)
        except ValueError:
            continue
        messages = [record["message"]] if "message" in record else record.get("messages", [])
        if "messages" in record:
            ids = []
        for message in messages:
            intent = message.get("meta", {}).get("intent_id")
            if message["role"] == "user" and intent:
                ids.append(intent)
    return ids


def trial(rng: random.Random, base_url: str, root: Path) -> dict[str, int]:
    """One kill-and-resume trial; counts of accepted, applied once, lost, duplicated, misordered."""
    workspace, home = root / "ws", root / "home"
    workspace.mkdir()
    env = {
        **os.environ,
        "HOME": str(home),
        "VTCODE_HOME": str(home / ".vtcode"),
        "OPENAI_API_KEY": "bench",
        "OPENAI_BASE_URL": base_url,
        "OLLAMA_HOST": "http://127.0.0.1:9",
    }
    model = ["--provider", "openai", "--model", "gpt-4.1"]
    errors = (root / "exec.err").open("w")
    proc = subprocess.Popen(
        _vtcode("exec", *model, "start"), cwd=workspace, env=env, stdout=subprocess.DEVNULL, stderr=errors
    )
    sessions = home / ".vtcode" / "sessions"
    deadline = time.monotonic() + 30
    while not any(sessions.glob("*/history.jsonl")):
        if time.monotonic() > deadline:
            raise RuntimeError(f"exec did not create its session: {(root / 'exec.err').read_text()}")
        time.sleep(0.01)
    (session,) = (p.parent for p in sessions.glob("*/history.jsonl"))
    kill_at = time.monotonic() + rng.uniform(0.0, 1.2)
    accepted: list[str] = []
    for text in TEXTS:
        if proc.poll() is None and time.monotonic() >= kill_at:
            proc.send_signal(signal.SIGKILL)
        mode = rng.choice(("queue", "steer"))
        sent = subprocess.run(
            _vtcode("steer", "--session", session.name, "--mode", mode, text), cwd=workspace, env=env,
            capture_output=True, text=True, check=True,
        )  # fmt: skip
        accepted.append(sent.stdout.strip())
    if proc.poll() is None:
        proc.send_signal(signal.SIGKILL)
    proc.wait()
    subprocess.run(
        _vtcode("exec", "--resume", session.name, *model, "finish"), cwd=workspace, env=env,
        capture_output=True, check=True, timeout=120,
    )  # fmt: skip
    applied = _applied(session)
    mine = [i for i in applied if i in accepted]
    return {
        "accepted": len(accepted),
        "applied_once": sum(1 for i in accepted if applied.count(i) == 1),
        "lost": sum(1 for i in accepted if i not in applied),
        "duplicated": sum(1 for i in set(applied) if applied.count(i) > 1),
        "misordered_trials": int(mine != accepted),
    }


def main() -> None:
    """Run the trials and print the totals."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--trials", type=int, default=500)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    server = ServerProcess(SERVER)
    totals: dict[str, int] = {}
    started = time.monotonic()
    try:
        for n in range(args.trials):
            with tempfile.TemporaryDirectory() as tmp:
                for key, value in trial(rng, server.base_url, Path(tmp)).items():
                    totals[key] = totals.get(key, 0) + value
            if (n + 1) % 50 == 0:
                print(f"{n + 1} trials, {time.monotonic() - started:.0f} s: {totals}", flush=True)
    finally:
        server.close()
    print(f"trials: {args.trials}")
    for key, value in totals.items():
        print(f"{key}: {value}")
    ok = (
        totals["applied_once"] == totals["accepted"]
        and not totals["duplicated"]
        and not totals["misordered_trials"]
    )
    print("exactly once, in order:", "yes" if ok else "NO")


if __name__ == "__main__":
    main()
