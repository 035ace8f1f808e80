"""Backends run a batch's jobs and hand each outcome to the driver; the local one is asyncio workers.

Every backend runs the same `task_run.run_task` and reports through `on_done`, so the driver alone
writes the output folder and resume, predictions and summaries behave the same everywhere. Backends are
found by name (`make_backend`); the Ray one lives in `vtcode.batch.ray_backend`, imported only when
asked for, so `vtcode batch` never imports Ray otherwise.
"""

from __future__ import annotations

import asyncio
import importlib
import os
import random
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from vtcode import __version__
from vtcode.batch.limiter import ProviderLimiter
from vtcode.batch.task_run import TaskControl, TaskJob, TaskOutcome, run_task
from vtcode.core.batch.job import TaskError, TaskStatus
from vtcode.core.batch.result import TaskResult

OnDone = Callable[[TaskOutcome], Awaitable[None]]
"""Called by a backend, in the driver's event loop, with each finished task's outcome."""

OnStart = Callable[[TaskJob], None]
"""Called when a task starts running (for progress displays)."""

BACKENDS: dict[str, str] = {
    "local": "vtcode.batch.backend",
    "ray": "vtcode.batch.ray_backend",
}
"""Backend name -> module whose `make_backend(options)` builds it."""


class BatchStop:
    """A user's stop requests: the first stops scheduling and interrupts running tasks, the second kills."""

    def __init__(self) -> None:
        self.interrupting = asyncio.Event()
        self.killing = asyncio.Event()

    def request(self) -> int:
        """Register one more stop request (Ctrl-C); returns how many there have been (1 or 2)."""
        if not self.interrupting.is_set():
            self.interrupting.set()
            return 1
        self.killing.set()
        return 2


@dataclass(frozen=True)
class BackendOptions:
    """What a backend is built from; `extra` holds backend-specific settings (e.g. "ray_address")."""

    workers: int
    stagger_s: float = 0.3
    starts_per_minute: float | None = None
    seed: int | None = None
    extra: dict[str, str] = field(default_factory=dict)


class Backend(Protocol):
    """Runs jobs until all are done or `stop` interrupts; each outcome goes to `on_done` exactly once.

    A job not yet started when `stop.interrupting` is set is never started (it stays pending and runs
    again on the next `vtcode batch run`). Running jobs end as `interrupted` (killed outright once
    `stop.killing` is set) and are reported like any other.
    """

    name: str

    async def run(
        self, jobs: Sequence[TaskJob], on_done: OnDone, stop: BatchStop, on_start: OnStart | None = None
    ) -> None:
        """Run every job (see the class docstring)."""
        ...


def default_workers() -> int:
    """Cores minus one (one is left for the driver and the machine), at least one."""
    return max(1, (os.cpu_count() or 2) - 1)


def provider_of(job: TaskJob) -> str:
    """The provider a job talks to, as the limiter keys it (`--provider`, else "default")."""
    args = job.model_args
    for index, arg in enumerate(args[:-1]):
        if arg == "--provider":
            return args[index + 1]
    return "default"


def driver_result(
    job: TaskJob, status: TaskStatus, error: TaskError, *, ended_at: float = 0.0, ran_s: float = 0.0
) -> TaskResult:
    """The result record the driver makes for a task whose run gave none; `error` says why.

    `ran_s` is how long the task had run when the driver ended it at `ended_at` (0 and 0: never seen).
    """
    return TaskResult(
        id=job.task.id,
        instance_id=job.task.prediction_id,
        status=status,
        started_at=ended_at - ran_s,
        finished_at=ended_at,
        duration_s=ran_s,
        vtcode_version=__version__,
        backend=job.backend,
        attempt=job.attempt,
        error=error,
    )


def driver_outcome(
    job: TaskJob, status: TaskStatus, error: TaskError, *, ended_at: float = 0.0, ran_s: float = 0.0
) -> TaskOutcome:
    """The outcome the driver makes for a task whose run gave none (see `driver_result`).

    Every backend's driver-made outcome comes from here, so its task folder holds the same files
    whatever the backend: the task's instruction (and the trajectory that starts with it), no patch,
    empty logs.
    """
    result = driver_result(job, status, error, ended_at=ended_at, ran_s=ran_s)
    return TaskOutcome(result=result, instruction=job.task.instruction)


def failed_outcome(job: TaskJob, message: str, *, ended_at: float = 0.0, ran_s: float = 0.0) -> TaskOutcome:
    """An `error` outcome for a task whose run broke down outside the task (a bug, a full disk)."""
    error = TaskError(kind="internal", message=message)
    return driver_outcome(job, "error", error, ended_at=ended_at, ran_s=ran_s)


class LocalBackend:
    """N asyncio workers on this machine, each running one `vtcode exec` child at a time."""

    name = "local"

    def __init__(self, options: BackendOptions) -> None:
        self.workers = max(1, options.workers)
        self.stagger_s = options.stagger_s
        self.limiter = ProviderLimiter(options.starts_per_minute)
        self._rng = random.Random(options.seed)

    async def run(
        self, jobs: Sequence[TaskJob], on_done: OnDone, stop: BatchStop, on_start: OnStart | None = None
    ) -> None:
        """Run the jobs with at most `workers` at once (see `Backend`)."""
        pending = iter(jobs)
        control = TaskControl(interrupt=stop.interrupting, kill=stop.killing)

        async def worker(index: int) -> None:
            # Staggered start (SWE-agent's random_delay_multiplier): N children do not all import,
            # check out and send their first request in the same instant.
            delay = self.stagger_s * (index + self._rng.random()) if index else 0.0
            if delay and await _stopped_within(stop.interrupting, delay):
                return
            while not stop.interrupting.is_set():
                job = next(pending, None)
                if job is None:
                    return
                provider = provider_of(job)
                if not await self.limiter.acquire(provider, stop.interrupting):
                    return
                if on_start is not None:
                    on_start(job)
                begun = time.monotonic()
                try:
                    outcome = await run_task(job, control, on_line=self.limiter.observer(provider))
                except Exception as exc:  # one task's breakdown must not end the batch
                    message = f"{type(exc).__name__}: {exc}"
                    ran_s = time.monotonic() - begun
                    outcome = failed_outcome(job, message, ended_at=time.time(), ran_s=ran_s)
                await on_done(outcome)

        await asyncio.gather(*(worker(index) for index in range(min(self.workers, max(1, len(jobs))))))


async def _stopped_within(event: asyncio.Event, seconds: float) -> bool:
    try:
        async with asyncio.timeout(seconds):
            await event.wait()
    except TimeoutError:
        return False
    return True


def make_backend(options: BackendOptions) -> Backend:
    """The local backend (this module's entry in `BACKENDS`)."""
    return LocalBackend(options)


def backend_named(name: str, options: BackendOptions) -> Backend:
    """Build the backend `name` from its module's `make_backend`; ValueError for an unknown name.

    An ImportError (Ray not installed) propagates for the caller to explain.
    """
    module_name = BACKENDS.get(name)
    if module_name is None:
        raise ValueError(f"unknown backend {name!r} (known: {', '.join(BACKENDS)})")
    module = importlib.import_module(module_name)
    factory: Callable[[BackendOptions], Backend] = module.make_backend
    return factory(options)
