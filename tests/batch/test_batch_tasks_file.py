"""The tasks file is checked whole before anything runs: each bad line named with its field."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.batch.scripted_tasks import MODEL_ARGS, TaskScripts, batch_env
from tests.conftest import VtcodeRunner
from vtcode.core.batch.tasks import RepoSpec, SwebenchRow, TaskSpec, parse_tasks, swebench_task
from vtcode.protocol.errors import UsageError
from vtcode.testing.openai_chat_server import OpenAIChatServer


def _problems(text: str) -> str:
    with pytest.raises(UsageError) as caught:
        parse_tasks(text.encode(), source="tasks.jsonl")
    return caught.value.message


def test_a_valid_file_gives_every_task_in_order() -> None:
    text = "\n".join(
        [
            json.dumps({"id": "a-1", "instruction": "fix it", "repo": {"path": "/src/app"}}),
            "",
            json.dumps(
                {
                    "id": "django__django-11099",
                    "instruction": "x",
                    "repo": {"git": "/m/app.git", "commit": "abc"},
                    "setup": ["pip install -e ."],
                    "eval": {"command": "pytest -q", "timeout_s": 60},
                    "env": {"FOO": "1"},
                    "metadata": {"k": [1]},
                    "instance_id": "django__django-11099",
                }
            ),
        ]
    )
    tasks = parse_tasks(text.encode(), source="t.jsonl")
    assert [task.id for task in tasks] == ["a-1", "django__django-11099"]
    assert tasks[0].repo == RepoSpec(path="/src/app")
    assert tasks[1].eval is not None
    assert tasks[1].eval.timeout_s == 60
    assert tasks[1].prediction_id == "django__django-11099"
    assert tasks[0].prediction_id == "a-1"


def test_each_bad_line_is_named_with_its_field() -> None:
    lines = [
        json.dumps({"id": "ok", "instruction": "fine"}),
        json.dumps({"id": "t2", "instruction": 5}),
        json.dumps({"id": "t3", "instruction": "x", "repo": {"git": "/m.git"}}),
        '{"id": "t4", "instruction": ',
        json.dumps({"id": "t5", "instruction": "x", "repos": {}}),
        json.dumps({"id": "bad id/../x", "instruction": "x"}),
        json.dumps({"id": "t7", "instruction": "x", "repo": {"path": "/a", "git": "/b", "commit": "c"}}),
        json.dumps({"id": "t8", "instruction": "x", "eval": {"command": "true", "timeout_s": "soon"}}),
        json.dumps({"instruction": "x"}),
    ]
    message = _problems("\n".join(lines))
    assert message.splitlines()[1:] == [
        "  tasks.jsonl:2: instruction: Expected `str`, got `int`",
        "  tasks.jsonl:3: repo.commit: a git mirror needs the commit to check out",
        "  tasks.jsonl:4: not valid JSON (Input data was truncated)",
        "  tasks.jsonl:5: Object contains unknown field `repos`",
        "  tasks.jsonl:6: id: only letters, digits, '.', '_' and '-' are allowed",
        "  tasks.jsonl:7: repo: give exactly one of `path` (a folder to copy) or `git` (a mirror) "
        "with `commit`",
        "  tasks.jsonl:8: eval.timeout_s: Expected `float`, got `str`",
        "  tasks.jsonl:9: Object missing required field `id`",
    ]


def test_duplicate_ids_are_refused_naming_both_lines() -> None:
    text = "\n".join(json.dumps({"id": task_id, "instruction": "x"}) for task_id in ("a", "b", "a"))
    assert "tasks.jsonl:3: id: duplicate id 'a' (first on line 1)" in _problems(text)


def test_an_empty_file_is_refused() -> None:
    assert "tasks.jsonl: no tasks" in _problems("\n\n")


def test_a_swebench_row_becomes_a_task_on_its_local_mirror() -> None:
    row = SwebenchRow(instance_id="o__r-1", repo="o/r", base_commit="abc", problem_statement="It breaks.")
    task = swebench_task(row, {"o/r": "/mirrors/o__r.git"})
    assert task == TaskSpec(
        id="o__r-1",
        instruction="It breaks.",
        repo=RepoSpec(git="/mirrors/o__r.git", commit="abc"),
        metadata={"repo": "o/r"},
        instance_id="o__r-1",
    )
    message = ""
    with pytest.raises(UsageError) as caught:
        parse_tasks(
            json.dumps(
                {"instance_id": "o__r-1", "repo": "o/r", "base_commit": "a", "problem_statement": "p"}
            ).encode(),
            source="rows.jsonl",
            fmt="swebench",
            mirrors={},
        )
    message = caught.value.message
    assert (
        "rows.jsonl:1: repo: no local mirror of 'o/r' under --repos-dir (looked for o__r.git, o__r,"
        in message
    )


def test_a_bad_tasks_file_runs_nothing_and_creates_no_folder(vtcode: VtcodeRunner, tmp_path: Path) -> None:
    tasks = tmp_path / "tasks.jsonl"
    tasks.write_text(
        json.dumps({"id": "a", "instruction": "task a: x"})
        + "\n"
        + json.dumps({"id": "a", "instruction": "task a: again", "repo": {"path": 3}})
        + "\n"
    )
    with OpenAIChatServer(responder=TaskScripts()) as server:
        result = vtcode.run(
            "batch", "run", str(tasks), "-o", str(tmp_path / "out"), *MODEL_ARGS, env=batch_env(server)
        )
        requests = len(server.requests)
    assert result.code == 2
    assert f"{tasks}:2: repo.path: Expected `str | null`, got `int`" in result.stderr
    assert "nothing was run" in result.stderr
    assert "Traceback" not in result.stderr
    assert requests == 0
    assert not (tmp_path / "out").exists()
