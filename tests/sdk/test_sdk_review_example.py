"""`examples/sdk_review_diff.py` reviews a real git diff with its custom tool and returns a typed verdict."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import msgspec

import vtcode.sdk as vt
from vtcode.protocol.messages import ToolResultMessage
from vtcode.sdk.testing import Reply, ScriptedModel, ScriptToolCall
from vtcode.sdk.transport import TransportName

EXAMPLE = Path(__file__).parents[2] / "examples" / "sdk_review_diff.py"


def _example() -> ModuleType:
    spec = importlib.util.spec_from_file_location("sdk_review_diff", EXAMPLE)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def _repo(path: Path) -> Path:
    path.mkdir()
    for argv in (
        ["git", "init", "-q"],
        ["git", "config", "user.email", "t@t"],
        ["git", "config", "user.name", "t"],
    ):
        subprocess.run(argv, cwd=path, check=True)
    (path / "calc.py").write_text("def add(a, b):\n    return a + b\n")
    subprocess.run(["git", "add", "."], cwd=path, check=True)
    subprocess.run(["git", "commit", "-qm", "init"], cwd=path, check=True)
    (path / "calc.py").write_text("def add(a, b):\n    return a - b\n")
    return path


async def test_the_review_example_reads_the_diff_and_returns_a_typed_verdict(
    tmp_path: Path, transport: TransportName
) -> None:
    example = _example()
    repo = _repo(tmp_path / "repo")
    verdict = {"verdict": "request_changes", "findings": [{"path": "calc.py", "problem": "add subtracts"}]}
    model = ScriptedModel(
        [
            Reply(tool_calls=(ScriptToolCall("git_diff", json.dumps({"path": None}), id="c1"),)),
            Reply(text=json.dumps(verdict)),
        ]
    )
    review = await example.review(repo, vt.Options(model_client=model, transport=transport))
    assert review == example.Review(
        verdict="request_changes", findings=[example.Finding(path="calc.py", problem="add subtracts")]
    )
    diff = [m.content for m in model.requests[1].messages if isinstance(m, ToolResultMessage)]
    assert len(diff) == 1
    assert "-    return a + b\n+    return a - b" in diff[0]
    # The verdict's schema was stated to the model.
    first = msgspec.json.encode(model.requests[0].messages).decode()
    assert "<output_schema>" in first
    assert "request_changes" in first
