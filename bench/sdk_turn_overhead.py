"""Per-turn cost of the SDK against driving the runtime's `Session` directly, in the same process.

Both sides play the same scripted turn (one tool round trip, then a text answer) through
`ScriptedModel`, in one loop; each round opens one session per side and alternates their turns (ABBA),
so machine load and cache state hit both alike, turn by turn:
- `runtime`: `vtcode.runtime.session.Session` fed `UserInput` ops, its events read to `turn.completed`,
  the next prompt submitted once the turn is over (`Session.running`), as `run()` returns then: input
  sent while the turn still winds down is queued as an intent, two more events the SDK side never pays;
- `sdk`: `vtcode.sdk.Session.run()` on a session opened with the same options; a round fails if a
  `run()` returned while the runtime's turn was still winding down (the sides would do different work).
The default 20 turns stay below the turn (~25th) where the growing history first gets an exact token
count (~12 ms, the same on both sides, but it would dominate each round's noise).
Prints the median CPU and wall time per turn and the ratio sdk / runtime with its spread over the
rounds (median, min, max of each round's ratio; the issue's budget: 1.05x).
Run: .venv/bin/python bench/sdk_turn_overhead.py [--turns N] [--rounds R] [--stored]
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
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

# Set by `--stored`: sessions write their store (events, history) under a fresh home, as by default.
_STORED: list[Path] = []


def _script(turns: int) -> list[Reply]:
    call = json.dumps({"path": "a.txt"})
    replies: list[Reply] = []
    for n in range(turns):
        replies.append(Reply(tool_calls=(ScriptToolCall("read_file", call, id=f"c{n}"),)))
        replies.append(Reply(text=f"done {n}"))
    return replies


def _options(workspace: Path, model: ScriptedModel) -> vt.Options:
    if _STORED:
        home = Path(tempfile.mkdtemp(dir=_STORED[0]))
        env = {"HOME": str(home), "VTCODE_HOME": str(home / ".vtcode")}
        return vt.Options(workspace=str(workspace), model_client=model, env=env, approval="full-auto")
    return vt.Options(workspace=str(workspace), model_client=model, ephemeral=True, approval="full-auto")


class _RuntimeSide:
    """The runtime's own `Session`, driven as a front end does."""

    def __init__(self, session: RuntimeSession, model: ScriptedModel) -> None:
        self.session = session
        self.model = model
        self._events = session.events()

    @classmethod
    async def open(cls, workspace: Path, turns: int) -> _RuntimeSide:
        model = ScriptedModel(_script(turns))
        built = runtime_options(_options(workspace, model), session_id=lambda: "")
        return cls(await RuntimeSession.open(built, client=model), model)

    async def turn(self, n: int) -> None:
        await self.session.submit(UserInput(text=f"turn {n}"))
        async for event in self._events:
            if isinstance(event, TurnCompleted | TurnFailed):
                break
        # The runtime has no idle event to wait on; two loop iterations here, as `run()` takes.
        while self.session.running:  # noqa: ASYNC110
            await asyncio.sleep(0)

    async def aclose(self) -> None:
        await self.session.aclose()


class _SdkSide:
    """`vtcode.sdk.Session.run()`."""

    def __init__(self, session: vt.Session, model: ScriptedModel) -> None:
        self.session = session
        self.model = model
        # Turns after which the runtime was still winding down: the next prompt then queues as an
        # intent (more runtime work than the runtime side does), and the comparison is off.
        self.early = 0

    @classmethod
    async def open(cls, workspace: Path, turns: int) -> _SdkSide:
        model = ScriptedModel(_script(turns))
        return cls(await vt.Session.open(_options(workspace, model)), model)

    async def turn(self, n: int) -> None:
        result = await self.session.run(f"turn {n}")
        assert result.status == "completed", result
        self.early += self.session.runtime.running

    async def aclose(self) -> None:
        await self.session.close()


async def _round(workspace: Path, turns: int, first: str) -> dict[str, tuple[float, float]]:
    """One round: a fresh session per side, their turns alternating (ABBA), CPU and wall per turn."""
    sides: dict[str, _RuntimeSide | _SdkSide] = {
        "runtime": await _RuntimeSide.open(workspace, turns),
        "sdk": await _SdkSide.open(workspace, turns),
    }
    spent = {name: [0.0, 0.0] for name in sides}
    order = [first, *(name for name in sides if name != first)]
    gc.collect()
    for n in range(turns):
        for name in order if n % 2 == 0 else reversed(order):
            cpu, wall = time.process_time(), time.perf_counter()
            await sides[name].turn(n)
            spent[name][0] += time.process_time() - cpu
            spent[name][1] += time.perf_counter() - wall
    for side in sides.values():
        await side.aclose()
        assert len(side.model.requests) == 2 * turns, "every turn made its two requests"
    sdk = sides["sdk"]
    assert isinstance(sdk, _SdkSide)
    assert not sdk.early, f"{sdk.early} run() calls returned before the runtime's turn was over"
    return {name: (cpu / turns, wall / turns) for name, (cpu, wall) in spent.items()}


def _spread(values: list[float]) -> str:
    return f"median {statistics.median(values):.3f}x, min {min(values):.3f}x, max {max(values):.3f}x"


async def _main(turns: int, rounds: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        workspace = Path(tmp)
        (workspace / "a.txt").write_text("alpha\n" * 200)
        text_counter()("warm")  # the process-wide BPE table (~0.2 s), else the first side to count pays it
        await _round(workspace, 2, "runtime")  # warm imports and caches for both sides
        samples: dict[str, list[tuple[float, float]]] = {"runtime": [], "sdk": []}
        for n in range(rounds):
            measured = await _round(workspace, turns, "runtime" if n % 2 == 0 else "sdk")
            for side, value in measured.items():
                samples[side].append(value)
    medians = {
        side: (statistics.median(c for c, _ in values), statistics.median(w for _, w in values))
        for side, values in samples.items()
    }
    for side, (cpu, wall) in medians.items():
        print(
            f"{side:>8}: {cpu * 1000:7.3f} ms CPU, {wall * 1000:7.3f} ms wall per turn (median of {rounds})"
        )
    cpu_ratios = [s[0] / r[0] for s, r in zip(samples["sdk"], samples["runtime"], strict=True)]
    wall_ratios = [s[1] / r[1] for s, r in zip(samples["sdk"], samples["runtime"], strict=True)]
    print(f"sdk / runtime per turn, CPU:  {_spread(cpu_ratios)} (each round's ratio; budget 1.05x)")
    print(f"sdk / runtime per turn, wall: {_spread(wall_ratios)}")
    print(f"ratio of the medians: {medians['sdk'][0] / medians['runtime'][0]:.3f}x CPU")
    print(f"load average while measuring: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


def main() -> None:
    """Parse the options and run the comparison."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=20)
    parser.add_argument("--rounds", type=int, default=31)
    parser.add_argument("--stored", action="store_true", help="stored sessions instead of ephemeral ones")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as homes:
        if args.stored:
            _STORED.append(Path(homes))
        asyncio.run(_main(args.turns, args.rounds))


if __name__ == "__main__":
    main()
