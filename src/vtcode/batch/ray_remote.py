"""What runs on a Ray worker for `vtcode batch --backend ray`: one task, and the clean-up of one task.

`run_remote` is a generator task: it first yields a `Started` (which node, which worker process), so
the driver knows when the task started running and counts its timeout from then, not from when it was
queued; then it yields the `TaskOutcome` of the same `run_task` the local backend runs. `sweep_remote`
runs on the node a task ran on, to interrupt it (SIGINT) or to kill what a force-cancelled worker left
behind, by the marker variable every process of the task inherits. Both are plain functions, so this
module imports no Ray; the driver wraps them with `ray.remote`.
"""

from __future__ import annotations

import importlib
import os
import signal
from collections.abc import Iterator

import msgspec
import psutil

from vtcode.batch.task_run import TaskJob, TaskOutcome, run_task_blocking
from vtcode.exec.marked_processes import end_process, interrupt_marked, kill_marked

RAY_TASK_ENV = "VTCODE_RAY_TASK"
"""The marker variable of one submission of one task: `<task id>:<random>`, inherited by its processes."""


class Started(msgspec.Struct, frozen=True, kw_only=True):
    """A task began running: on which node, in which worker process (pid and creation time)."""

    node_id: str
    pid: int
    create_time: float


class Sweep(msgspec.Struct, frozen=True, kw_only=True):
    """A clean-up on a node: interrupt the task's processes, or kill them once its worker is gone."""

    marker: str
    kill: bool
    worker: Started | None = None


def run_remote(job: TaskJob) -> Iterator[Started | TaskOutcome]:
    """Yield `Started`, then the task's outcome (`run_task` in an event loop of its own)."""
    # This runs in a Ray worker, where Ray is imported already.
    node_id = importlib.import_module("ray").get_runtime_context().get_node_id()
    yield Started(node_id=node_id, pid=os.getpid(), create_time=psutil.Process().create_time())
    # A Ray worker runs tasks with SIGINT blocked, and a child inherits the mask of the thread that forks
    # it: unblocked here, so `vtcode exec` can be interrupted (Ctrl-C of the batch, the task's limit).
    previous = signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
    try:
        outcome = run_task_blocking(job)
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)
    yield outcome


def sweep_remote(sweep: Sweep) -> int:
    """Interrupt or kill the marked processes of a task on this node; how many were signalled."""
    if not sweep.kill:
        return interrupt_marked(RAY_TASK_ENV, sweep.marker)
    if sweep.worker is not None:
        # Ray kills a force-cancelled worker; wait for that (or do it), so it starts nothing new.
        end_process(sweep.worker.pid, sweep.worker.create_time, wait_s=10.0)
    return kill_marked(RAY_TASK_ENV, sweep.marker)
