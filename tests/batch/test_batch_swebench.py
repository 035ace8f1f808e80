"""--format swebench: dataset rows on local mirrors give predictions in the SWE-bench shape."""

from __future__ import annotations

import json
from pathlib import Path

from tests.batch.scripted_tasks import (
    MODEL_ARGS,
    TaskScripts,
    bare_mirror,
    batch_env,
    small_repo,
    writes_its_id,
)
from tests.conftest import VtcodeRunner
from vtcode.testing.openai_chat_server import OpenAIChatServer
from vtcode.testing.script import Reply, Step

_KEYS = {"instance_id", "model_name_or_path", "model_patch"}


def _row(instance_id: str, commit: str) -> str:
    return json.dumps(
        {
            "instance_id": instance_id,
            "repo": "octo/small",
            "base_commit": commit,
            "problem_statement": f"task {instance_id}: the add function subtracts",
            "patch": "gold patch, never shown",
            "FAIL_TO_PASS": "[]",
            "version": "1.0",
        }
    )


def test_swebench_rows_give_predictions_keyed_by_instance_id(vtcode: VtcodeRunner, tmp_path: Path) -> None:
    repo, commit = small_repo(tmp_path / "repo")
    repos_dir = tmp_path / "mirrors"
    repos_dir.mkdir()
    bare_mirror(repo, repos_dir / "octo__small.git")
    rows = tmp_path / "lite.jsonl"
    ids = ["octo__small-1", "octo__small-2"]
    rows.write_text("\n".join(_row(instance_id, commit) for instance_id in ids) + "\n")

    def script(task_id: str) -> list[Step]:
        return writes_its_id(task_id) if task_id.endswith("1") else [Reply(text="cannot reproduce")]

    out = tmp_path / "out"
    with OpenAIChatServer(responder=TaskScripts(script=script)) as server:
        result = vtcode.run(
            "batch",
            "run",
            str(rows),
            "-o",
            str(out),
            "--format",
            "swebench",
            "--repos-dir",
            str(repos_dir),
            *MODEL_ARGS,
            env=batch_env(server),
        )
        asked = [request.json()["messages"][-1]["content"] for request in server.requests]
    assert result.code == 0, result.stderr
    assert not any("gold patch" in str(content) for content in asked)
    preds = json.loads((out / "preds.json").read_text())
    assert list(preds) == ids
    for instance_id, pred in preds.items():
        assert set(pred) == _KEYS
        assert pred["instance_id"] == instance_id
        assert pred["model_name_or_path"] == "vtcode/openai/gpt-4.1"
        assert isinstance(pred["model_patch"], str)
    assert "+octo__small-1\n" in preds["octo__small-1"]["model_patch"]
    assert preds["octo__small-2"]["model_patch"] == ""
    lines = [json.loads(line) for line in (out / "preds.jsonl").read_text().splitlines()]
    assert lines == [preds[instance_id] for instance_id in ids]
    record = json.loads((out / "tasks" / "octo__small-1" / "result.json").read_text())
    assert record["instance_id"] == "octo__small-1"

    # Rebuilt from the task results alone, the predictions are the same bytes.
    before = (out / "preds.json").read_bytes(), (out / "preds.jsonl").read_bytes()
    (out / "preds.json").unlink()
    (out / "preds.jsonl").write_text("stale")
    rebuilt = vtcode.run("batch", "preds", str(out))
    assert rebuilt.code == 0, rebuilt.stderr
    assert ((out / "preds.json").read_bytes(), (out / "preds.jsonl").read_bytes()) == before


def test_a_row_without_a_local_mirror_is_refused_before_anything_runs(
    vtcode: VtcodeRunner, tmp_path: Path
) -> None:
    rows = tmp_path / "lite.jsonl"
    rows.write_text(_row("octo__small-1", "abc") + "\n")
    (tmp_path / "mirrors").mkdir()
    result = vtcode.run(
        "batch",
        "run",
        str(rows),
        "-o",
        str(tmp_path / "out"),
        "--format",
        "swebench",
        "--repos-dir",
        str(tmp_path / "mirrors"),
        *MODEL_ARGS,
    )
    assert result.code == 2
    assert f"{rows}:1: repo: no local mirror of 'octo/small' under --repos-dir" in result.stderr
    assert not (tmp_path / "out").exists()
