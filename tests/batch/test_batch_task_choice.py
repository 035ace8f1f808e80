"""`batch run --filter/--slice/--shuffle`: which tasks of the file run now, in which order."""

from __future__ import annotations

import json
import random
from pathlib import Path

from tests.batch.scripted_tasks import (
    MODEL_ARGS,
    TaskScripts,
    batch_env,
    requests_by_task,
    task_of,
    tasks_file,
)
from tests.conftest import VtcodeRunner
from vtcode.testing.openai_chat_server import OpenAIChatServer


def _task_folders(out: Path) -> set[str]:
    return {path.name for path in (out / "tasks").iterdir()} if (out / "tasks").is_dir() else set()


def _run_order(requests: list[str]) -> list[str]:
    """Tasks in the order of their first model request (one worker: the order they ran)."""
    return list(dict.fromkeys(requests))


def test_filter_and_slice_run_only_the_chosen_tasks_and_the_folder_keeps_the_whole_file(
    vtcode: VtcodeRunner, tmp_path: Path
) -> None:
    tasks = tasks_file(tmp_path / "tasks.jsonl", ["a1", "a2", "a3", "b1", "b2"])
    out = tmp_path / "out"
    argv = ("batch", "run", str(tasks), "-o", str(out), *MODEL_ARGS)
    with OpenAIChatServer(responder=TaskScripts()) as server:
        env = batch_env(server)
        first = vtcode.run(*argv, "--filter", "a", "--slice", "1:", env=env, timeout=300)
        assert first.code == 0, first.stderr  # every chosen task completed; the others wait
        assert set(requests_by_task(server.requests)) == {"a2", "a3"}
        assert _task_folders(out) == {"a2", "a3"}
        status = json.loads(vtcode.run("batch", "status", str(out), "--json").stdout)
        assert status["counts"] == {"completed": 2, "pending": 3}

        mark = len(server.requests)
        second = vtcode.run(*argv, "--filter", "b", env=env, timeout=300)
        assert second.code == 0, second.stderr
        assert set(requests_by_task(server.requests[mark:])) == {"b1", "b2"}

        mark = len(server.requests)
        rest = vtcode.run(*argv, env=env, timeout=300)
        assert rest.code == 0, rest.stderr
        assert set(requests_by_task(server.requests[mark:])) == {"a1"}
    # The predictions gather every run's tasks, in file order.
    preds = json.loads((out / "preds.json").read_text())
    assert list(preds) == ["a1", "a2", "a3", "b1", "b2"]


def _mini_swe_agent_order(ids: list[str], seed: int) -> list[str]:
    """The documented --shuffle order: sorted by id, then `random.shuffle` with the seed."""
    order = sorted(ids)
    random.Random(seed).shuffle(order)
    return order


def test_shuffle_chooses_and_runs_tasks_in_the_seeded_order(vtcode: VtcodeRunner, tmp_path: Path) -> None:
    ids = [f"t{n}" for n in range(8)]
    tasks = tasks_file(tmp_path / "tasks.jsonl", ids)
    with OpenAIChatServer(responder=TaskScripts()) as server:
        env = batch_env(server)
        runs: dict[int | None, list[str]] = {}
        for seed in (None, 7):
            mark = len(server.requests)
            out = tmp_path / f"out-{seed}"
            seeded = () if seed is None else ("--seed", str(seed))
            argv = ("batch", "run", str(tasks), "-o", str(out), "--workers", "1", *MODEL_ARGS)
            done = vtcode.run(*argv, "--shuffle", *seeded, "--slice", ":3", env=env, timeout=300)
            assert done.code == 0, done.stderr
            asked = [task_of(request.json()) or "?" for request in server.requests[mark:]]
            runs[seed] = _run_order(asked)
            assert _task_folders(out) == set(runs[seed])
    assert runs[None] == _mini_swe_agent_order(ids, 42)[:3]
    assert runs[7] == _mini_swe_agent_order(ids, 7)[:3]
    # Not the file's first three, and another seed chooses others.
    assert runs[None] != ids[:3]
    assert runs[7] != runs[None]


def test_bad_choices_are_refused_before_the_folder_is_touched(vtcode: VtcodeRunner, tmp_path: Path) -> None:
    tasks = tasks_file(tmp_path / "tasks.jsonl", ["a", "b"])
    out = tmp_path / "out"
    cases = {
        ("--filter", "("): "--filter '(': not a valid regular expression",
        ("--slice", "a:b"): "--slice 'a:b': each part is a whole number or empty",
        ("--slice", "5"): "--slice '5': expected START:STOP or START:STOP:STEP",
        ("--slice", "::0"): "the step cannot be 0",
        ("--filter", "zzz"): "--filter/--slice left none of the 2 tasks to run",
        ("--seed", "3"): "--seed goes with --shuffle",
    }
    for flags, message in cases.items():
        refused = vtcode.run("batch", "run", str(tasks), "-o", str(out), *MODEL_ARGS, *flags)
        assert refused.code == 2, (flags, refused.stderr)
        assert message in refused.stderr, (flags, refused.stderr)
        assert "Traceback" not in refused.stderr
        assert not out.exists()
