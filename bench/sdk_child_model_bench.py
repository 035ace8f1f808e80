"""The cost of a `model_client` over the SDK's subprocess transport: each model request goes back to the
program (`_vtcode/model`) instead of out to a provider.

Per turn, CPU time (user+sys) of the program plus its `vtcode acp` child, for the same one-reply turns:
- `loopback`: the child talks to a loopback OpenAI chat server (what a real provider costs locally);
- `proxied`: the child asks the program's `ScriptedModel` over the ACP connection.
Both count the model side in the program's CPU (the loopback server is a thread of this process).
Rounds are interleaved so machine load hits both alike; the figure is the ratio of the medians.
Run: .venv/bin/python bench/sdk_child_model_bench.py [--rounds N] [--turns N]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import tempfile
import time
from pathlib import Path

import psutil

import vtcode.sdk as vt
from vtcode.sdk.testing import Reply, ScriptedModel
from vtcode.testing.wire import cli_env, server_for


def _child_cpu() -> float:
    """CPU seconds of this process's `vtcode acp` children so far."""
    total = 0.0
    for child in psutil.Process().children():
        try:
            if "acp" in child.cmdline():
                times = child.cpu_times()
                total += times.user + times.system
        except psutil.NoSuchProcess:
            continue
    return total


async def _turns(options: vt.Options, turns: int) -> float:
    """CPU seconds per turn (program + child) over `turns` turns after one warm-up turn."""
    async with await vt.Session.open(options) as session:
        await session.run("warm up")
        mine, child = time.process_time(), _child_cpu()
        for i in range(turns):
            await session.run(f"turn {i}")
        spent = (time.process_time() - mine) + (_child_cpu() - child)
    return spent / turns


async def _round(workspace: Path, turns: int, proxied: bool) -> float:
    script = [Reply(text=f"answer {i}") for i in range(turns + 1)]
    if proxied:
        options = vt.Options(
            workspace=workspace, model_client=ScriptedModel(script), transport="subprocess", ephemeral=True
        )
        return await _turns(options, turns)
    with server_for("chat", script) as server:
        options = vt.Options(
            workspace=workspace,
            provider="openai",
            model="gpt-4.1",
            env=cli_env("chat", server),
            transport="subprocess",
            ephemeral=True,
        )
        return await _turns(options, turns)


async def main(rounds: int, turns: int) -> None:
    """Interleaved rounds; print the medians and their ratio."""
    samples: dict[bool, list[float]] = {False: [], True: []}
    with tempfile.TemporaryDirectory() as home:
        os.environ["VTCODE_HOME"] = str(Path(home) / ".vtcode")
        for i in range(rounds):
            for proxied in (i % 2 == 0, i % 2 != 0):
                samples[proxied].append(await _round(Path(home), turns, proxied))
    served, scripted = statistics.median(samples[False]), statistics.median(samples[True])
    print(f"per turn CPU, loopback provider: {served * 1000:.1f} ms (median of {rounds})")
    print(f"per turn CPU, proxied ScriptedModel: {scripted * 1000:.1f} ms (median of {rounds})")
    print(f"proxied / loopback: {scripted / served:.2f}x")
    print(f"load average: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--turns", type=int, default=10)
    args = parser.parse_args()
    asyncio.run(main(args.rounds, args.turns))
