"""The Ray backend of `vtcode batch`: each task is a Ray task on a cluster, the driver writes every result.

Each task is `ray.remote(num_cpus=1, max_retries=0)` of `ray_remote.run_remote`, which runs the same
`run_task` as the local backend on a worker node and hands back its outcome; the driver (this process)
passes it to `on_done`, which writes `OUT/tasks/<id>/`, so resume, predictions and summaries behave as
locally. Ray never retries a task by itself: a task's failure is a result. A node that dies under a
task (`NodeDiedError`, a crashed worker, a lost result) is an infrastructure fault: the task is queued
again, at most `MAX_REQUEUES` times, then it ends `error`. The task's own timeout acts on its worker;
the driver adds a backstop (timeout, grace and a margin after the task *started*) that force-cancels
a task whose worker did not end it (a hung or frozen worker), then kills what it left on its node.
Provider keys travel only in the task's arguments (`TaskJob.env`), never in the cluster's runtime_env.
Ray is imported here only, and only for `--backend ray`.
"""

from __future__ import annotations

import asyncio
import importlib
import logging
import socket
import time
import uuid
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass
from types import ModuleType
from typing import Any

import msgspec

from vtcode.batch.backend import BackendOptions, BatchStop, OnDone, OnStart, driver_outcome
from vtcode.batch.ray_remote import RAY_TASK_ENV, Started, Sweep, run_remote, sweep_remote
from vtcode.batch.task_run import TaskJob, TaskOutcome
from vtcode.core.batch.job import TaskError, TaskStatus
from vtcode.protocol.errors import UsageError

MAX_REQUEUES = 2
"""How many times a task whose node died is queued again before it ends `error`."""

RAY_START_HINT = (
    "start a cluster with `ray start --head --node-ip-address=127.0.0.1 --port=6379` (add nodes with "
    "`ray start --address=HEAD:6379`), then pass --ray-address HEAD:6379 (or set RAY_ADDRESS); with "
    "token authentication set RAY_AUTH_MODE=token and the cluster's token (~/.ray/auth_token or "
    "RAY_AUTH_TOKEN)"
)
INSTALL_HINT = "pip install 'vtcode[ray]' (or scripts/install-ray.sh in a checkout)"

_POLL_S = 0.05
_PROBE_S = 5.0
_SWEEP_WAIT_S = 30.0


def import_ray() -> ModuleType:
    """The `ray` module; ImportError saying how to install it when it is missing."""
    try:
        return importlib.import_module("ray")
    except ImportError as exc:
        raise ImportError(f"Ray is not installed ({exc}); {INSTALL_HINT}") from None


def backstop_s(job: TaskJob) -> float:
    """How long after it started the driver lets a task run before force-cancelling it."""
    evaluation = job.task.eval.timeout_s + job.grace_s if job.task.eval is not None else 0.0
    return job.timeout_s + job.grace_s + evaluation + 10.0 + 0.1 * job.timeout_s


def _probe(address: str) -> None:
    """Fail fast when nothing listens at HOST:PORT (Ray itself retries for minutes)."""
    host, _, port = address.rpartition(":")
    if not host or not port.isdigit():
        raise UsageError(f"--ray-address {address!r} is not HOST:PORT", hint=RAY_START_HINT)
    try:
        # A plain TCP connect to the cluster's GCS port: Ray's own client would retry for minutes.
        with socket.create_connection((host.strip("[]"), int(port)), timeout=_PROBE_S):
            pass
    except OSError as exc:
        raise UsageError(f"no Ray cluster at {address}: {exc.strerror or exc}", hint=RAY_START_HINT) from None


def connect(ray: Any, address: str | None) -> None:
    """Join the cluster at `address` (else RAY_ADDRESS, which Ray reads); UsageError when it cannot."""
    if address:
        _probe(address)
    try:
        # "auto": RAY_ADDRESS, or a cluster started on this machine; never a new local instance.
        ray.init(
            address=address or "auto",
            log_to_driver=False,
            logging_level=logging.WARNING,
            configure_logging=True,
        )
    except ConnectionError as exc:
        raise UsageError(f"no Ray cluster to join: {exc}", hint=RAY_START_HINT) from None
    except ray.exceptions.AuthenticationError as exc:
        raise UsageError(f"the Ray cluster refused this driver: {exc}", hint=RAY_START_HINT) from None


@dataclass
class _Flight:
    """One submission of one task."""

    job: TaskJob
    marker: str
    ref: Any
    requeues: int
    started: Started | None = None
    started_at: float = 0.0
    # Why the driver cancelled it: "timeout" or "stop" (None: not cancelled); `forced`: Ray kills it.
    cancelled: str | None = None
    forced: bool = False
    interrupted_at: float | None = None
    sweep: Any = None


class RayBackend:
    """Runs a batch's jobs as Ray tasks on the cluster this driver joined (see the module docstring)."""

    name = "ray"

    def __init__(self, ray: Any, options: BackendOptions) -> None:
        self.ray = ray
        self.workers = max(1, options.workers)
        self._task = ray.remote(num_cpus=1, max_retries=0)(run_remote)
        self._sweep = ray.remote(num_cpus=0, max_retries=0)(sweep_remote)
        errors = ray.exceptions
        self._node_faults = (
            errors.NodeDiedError,
            errors.WorkerCrashedError,
            errors.LocalRayletDiedError,
            errors.ObjectLostError,
        )

    async def run(
        self, jobs: Sequence[TaskJob], on_done: OnDone, stop: BatchStop, on_start: OnStart | None = None
    ) -> None:
        """Run the jobs with at most `workers` in flight on the cluster (see `backend.Backend`)."""
        queue: deque[tuple[TaskJob, int]] = deque((job, 0) for job in jobs)
        flights: list[_Flight] = []
        stopping = False
        try:
            while queue or flights:
                if stop.interrupting.is_set():
                    # Not started (or sent back by a node's death): they stay pending for the next run.
                    queue.clear()
                    if not stopping:
                        stopping = True
                        for flight in flights:
                            self._interrupt(flight)
                while queue and len(flights) < self.workers:
                    job, requeues = queue.popleft()
                    flights.append(self._submit(job, requeues))
                if not flights:
                    break
                for flight in self._ready(flights):
                    await self._advance(flight, flights, queue, on_done, on_start)
                now = time.monotonic()
                for flight in flights:
                    self._enforce(flight, now, stop)
                await asyncio.sleep(_POLL_S)
        finally:
            self.ray.shutdown()

    def _submit(self, job: TaskJob, requeues: int) -> _Flight:
        marker = f"{job.task.id}:{uuid.uuid4().hex}"
        marked = msgspec.structs.replace(job, env={**job.env, RAY_TASK_ENV: marker})
        return _Flight(job=job, marker=marker, ref=self._task.remote(marked), requeues=requeues)

    def _ready(self, flights: list[_Flight]) -> list[_Flight]:
        refs = [flight.ref for flight in flights]
        ready, _ = self.ray.wait(refs, num_returns=len(refs), timeout=0)
        ready_ids = {id(ref) for ref in ready}
        return [flight for flight in flights if id(flight.ref) in ready_ids]

    async def _advance(
        self,
        flight: _Flight,
        flights: list[_Flight],
        queue: deque[tuple[TaskJob, int]],
        on_done: OnDone,
        on_start: OnStart | None,
    ) -> None:
        """Take the next item a task yielded (its start, then its outcome) or the error that ended it."""
        try:
            item = self.ray.get(next(flight.ref))
        except StopIteration:
            item = None
        except self.ray.exceptions.TaskCancelledError:
            item = self._cancelled_outcome(flight)
        except self._node_faults as exc:
            if flight.cancelled is not None:
                item = self._cancelled_outcome(flight)
            elif flight.requeues < MAX_REQUEUES:
                flights.remove(flight)
                queue.appendleft((flight.job, flight.requeues + 1))
                return
            else:
                item = self._outcome(
                    flight,
                    "error",
                    "node_died",
                    f"its node failed {flight.requeues + 1} times; last: {_first_line(exc)}",
                )
        except self.ray.exceptions.RayError as exc:
            item = self._outcome(flight, "error", "internal", _first_line(exc))
        if isinstance(item, Started):
            flight.started, flight.started_at = item, time.monotonic()
            if flight.cancelled == "stop":
                self._interrupt(flight)  # the stop came while it was starting
            elif on_start is not None:
                on_start(flight.job)
            return
        flights.remove(flight)
        if flight.sweep is not None:
            await asyncio.to_thread(self.ray.wait, [flight.sweep], timeout=_SWEEP_WAIT_S)
        if isinstance(item, TaskOutcome):
            await on_done(item)

    def _cancelled_outcome(self, flight: _Flight) -> TaskOutcome | None:
        if flight.started is None:
            return None  # stopped before it started: it stays pending
        if flight.cancelled == "timeout":
            limit = backstop_s(flight.job)
            return self._outcome(
                flight,
                "timeout",
                "timeout",
                f"the task ran past its {flight.job.timeout_s:g} s limit and its worker did not end "
                f"it; the driver cancelled it after {limit:g} s",
            )
        return self._outcome(flight, "interrupted", "interrupted", "the batch was stopped")

    def _outcome(self, flight: _Flight, status: TaskStatus, kind: str, message: str) -> TaskOutcome:
        job = flight.job
        now = time.time()
        duration = time.monotonic() - flight.started_at if flight.started is not None else 0.0
        error = TaskError(kind=kind, message=message)
        return driver_outcome(job, status, error, ended_at=now, ran_s=duration)

    def _enforce(self, flight: _Flight, now: float, stop: BatchStop) -> None:
        """The driver's backstop timeout, and escalation of a stop the task did not obey in time."""
        if flight.started is None or flight.forced:
            return
        job = flight.job
        if stop.killing.is_set():
            self._force(flight, "stop")
        elif flight.interrupted_at is not None:
            if now - flight.interrupted_at > job.grace_s + 10.0:
                self._force(flight, "stop")
        elif now - flight.started_at > backstop_s(job):
            self._force(flight, "timeout")

    def _interrupt(self, flight: _Flight) -> None:
        """First stop: a queued task is cancelled; a running one gets SIGINT, as the local backend does."""
        if flight.started is None:
            self.ray.cancel(flight.ref, force=False)
            flight.cancelled = "stop"
            return
        flight.interrupted_at = time.monotonic()
        self._sweep_node(flight, Sweep(marker=flight.marker, kill=False))

    def _force(self, flight: _Flight, reason: str) -> None:
        """Force-cancel (Ray kills the worker) and kill whatever of the task is left on its node."""
        flight.forced = True
        flight.cancelled = flight.cancelled or reason
        self.ray.cancel(flight.ref, force=True)
        flight.sweep = self._sweep_node(flight, Sweep(marker=flight.marker, kill=True, worker=flight.started))

    def _sweep_node(self, flight: _Flight, sweep: Sweep) -> Any:
        assert flight.started is not None
        strategy = self.ray.util.scheduling_strategies.NodeAffinitySchedulingStrategy(
            node_id=flight.started.node_id, soft=False
        )
        return self._sweep.options(scheduling_strategy=strategy).remote(sweep)


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip()
    return f"{type(exc).__name__}: {text.splitlines()[0] if text else ''}".rstrip(": ")


def make_backend(options: BackendOptions) -> RayBackend:
    """Join the Ray cluster (`options.extra["ray_address"]`, else RAY_ADDRESS) and build the backend."""
    ray = import_ray()
    importlib.import_module("ray.util.scheduling_strategies")
    connect(ray, options.extra.get("ray_address"))
    return RayBackend(ray, options)
