"""Per-turn cost of the SDK against driving the runtime's `Session` directly, in the same process.

Both sides play the same scripted turn (one tool round trip, then a text answer) through
`ScriptedModel`, in one loop, interleaved in rounds so machine load hits both alike:
- `runtime`: `vtcode.runtime.session.Session` fed `UserInput` ops, its events read to `turn.completed`;
- `sdk`: `vtcode.sdk.Session.run()` on a session opened with the same options.
Prints the median CPU and wall time per turn and the ratio sdk / runtime (the issue's budget: 1.05x).
Run: .venv/bin/python bench/sdk_turn_overhead.py [--turns N] [--rounds R]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import tempfile
import time
from pathlib import Path

import vtcode.sdk as vt
from vtcode.protocol.events import TurnCompleted, TurnFailed
from vtcode.protocol.ops import UserInput
from vtcode.runtime.session import Session as RuntimeSession
from vtcode.sdk.options import runtime_options
from vtcode.sdk.testing import Reply, ScriptedModel, ScriptToolCall
from vtcode.tokens.encoding import text_counter


def _script(turns: int) -> list[Reply]:
    call = json.dumps({"path": "a.txt"})
    replies: list[Reply] = []
    for n in range(turns):
        replies.append(Reply(tool_calls=(ScriptToolCall("read_file", call, id=f"c{n}"),)))
        replies.append(Reply(text=f"done {n}"))
    return replies


def _options(workspace: Path, model: ScriptedModel) -> vt.Options:
    return vt.Options(workspace=str(workspace), model_client=model, ephemeral=True, approval="full-auto")


async def _runtime_side(workspace: Path, turns: int) -> tuple[float, float]:
    model = ScriptedModel(_script(turns))
    built = runtime_options(_options(workspace, model), session_id=lambda: "")
    session = await RuntimeSession.open(built, client=model)
    events = session.events()
    cpu, wall = time.process_time(), time.perf_counter()
    for n in range(turns):
        await session.submit(UserInput(text=f"turn {n}"))
        async for event in events:
            if isinstance(event, TurnCompleted | TurnFailed):
                break
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    await session.aclose()
    assert len(model.requests) == 2 * turns, "every turn made its two requests"
    return cpu / turns, wall / turns


async def _sdk_side(workspace: Path, turns: int) -> tuple[float, float]:
    model = ScriptedModel(_script(turns))
    async with await vt.Session.open(_options(workspace, model)) as session:
        cpu, wall = time.process_time(), time.perf_counter()
        for n in range(turns):
            result = await session.run(f"turn {n}")
            assert result.status == "completed", result
        cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    assert len(model.requests) == 2 * turns, "every turn made its two requests"
    return cpu / turns, wall / turns


async def _main(turns: int, rounds: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        workspace = Path(tmp)
        (workspace / "a.txt").write_text("alpha\n" * 200)
        text_counter()("warm")  # the process-wide BPE table (~0.2 s), else the first side to count pays it
        await _runtime_side(workspace, 2)  # warm imports and caches for both sides
        await _sdk_side(workspace, 2)
        samples: dict[str, list[tuple[float, float]]] = {"runtime": [], "sdk": []}
        for _ in range(rounds):
            samples["runtime"].append(await _runtime_side(workspace, turns))
            samples["sdk"].append(await _sdk_side(workspace, turns))
    medians = {
        side: (statistics.median(c for c, _ in values), statistics.median(w for _, w in values))
        for side, values in samples.items()
    }
    for side, (cpu, wall) in medians.items():
        print(
            f"{side:>8}: {cpu * 1000:7.2f} ms CPU, {wall * 1000:7.2f} ms wall per turn (median of {rounds})"
        )
    cpu_ratio = medians["sdk"][0] / medians["runtime"][0]
    wall_ratio = medians["sdk"][1] / medians["runtime"][1]
    print(f"sdk / runtime per turn: {cpu_ratio:.3f}x CPU, {wall_ratio:.3f}x wall (budget 1.05x)")


def main() -> None:
    """Parse the options and run the comparison."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=20)
    parser.add_argument("--rounds", type=int, default=7)
    args = parser.parse_args()
    asyncio.run(_main(args.turns, args.rounds))


if __name__ == "__main__":
    main()
