"""New task starts wait out the Retry-After a running task's provider asked for."""

from __future__ import annotations

import asyncio
from pathlib import Path

from tests.conftest import VtcodeRunner
from vtcode.batch.limiter import ProviderLimiter
from vtcode.core.batch.events_digest import rate_limit_delay
from vtcode.testing.openai_chat_server import OpenAIChatServer
from vtcode.testing.script import HttpError, Reply, Step


def test_the_retry_notice_of_a_real_exec_run_names_the_servers_retry_after(
    vtcode: VtcodeRunner, tmp_path: Path
) -> None:
    script: list[Step] = [HttpError(429, "slow down", headers={"retry-after": "1"}), Reply(text="done")]
    with OpenAIChatServer(script) as server:
        result = vtcode.run(
            "exec",
            "--json",
            "--provider",
            "openai",
            "--model",
            "gpt-4.1",
            "hi",
            cwd=tmp_path,
            env={"OPENAI_API_KEY": "k", "OPENAI_BASE_URL": server.base_url},
        )
    assert result.code == 0, result.stderr
    delays = [rate_limit_delay(line.encode()) for line in result.stdout.splitlines()]
    assert [delay for delay in delays if delay is not None] == [1.0]


class _Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_a_429_notice_pauses_starts_for_that_provider_only() -> None:
    clock = _Clock()
    limiter = ProviderLimiter(clock=clock)
    notice = (
        b'{"type":"notice","level":"info","message":"openai: HTTP 429: slow; retrying in 2.5s (attempt 2)"}'
    )
    limiter.observer("openai")(notice)
    limiter.observer("openai")(b'{"type":"notice","message":"openai: HTTP 500: x; retrying in 9.0s"}')
    assert limiter.wait_time("openai") == 2.5
    assert limiter.wait_time("anthropic") == 0.0
    clock.now += 2.5
    assert limiter.wait_time("openai") == 0.0


async def test_a_paused_start_goes_ahead_after_the_pause_or_gives_way_to_a_stop() -> None:
    limiter = ProviderLimiter()
    stop = asyncio.Event()
    limiter.pause("openai", 0.2)
    assert await limiter.acquire("openai", stop)
    limiter.pause("openai", 60)
    waiting = asyncio.create_task(limiter.acquire("openai", stop))
    await asyncio.sleep(0.05)
    stop.set()
    assert await asyncio.wait_for(waiting, 10) is False


def test_a_start_rate_spaces_starts_out() -> None:
    clock = _Clock()
    limiter = ProviderLimiter(starts_per_minute=30, clock=clock)
    assert asyncio.run(limiter.acquire("openai", asyncio.Event()))
    assert limiter.wait_time("openai") == 2.0
