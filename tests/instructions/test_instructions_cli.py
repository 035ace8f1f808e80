"""`vtcode instructions`: the JSON shape of issue 4 (golden file) and the text listing."""

from __future__ import annotations

import argparse
import io
import json
from pathlib import Path

import pytest

from tests.conftest import VtcodeRunner
from tests.instructions.helpers import normalized, snapshot_repo
from vtcode.cli.instructions_cmd import run_instructions

GOLDEN = Path(__file__).parent / "fixtures" / "instructions.json"


def _run(repo: Path, *, as_json: bool, paths: list[str] | None = None) -> str:
    out = io.StringIO()
    args = argparse.Namespace(workspace=str(repo), path=paths, json=as_json)
    assert run_instructions(args, [], out=out) == 0
    return out.getvalue()


def test_instructions_json_matches_the_golden_file(
    tmp_path: Path, isolated_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = snapshot_repo(tmp_path, isolated_home)
    monkeypatch.chdir(repo)
    payload = json.loads(_run(repo, as_json=True, paths=["src/app.py"]))
    assert normalized(payload, repo) == json.loads(GOLDEN.read_text())


def test_instructions_text_listing(
    tmp_path: Path, isolated_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = snapshot_repo(tmp_path, isolated_home)
    monkeypatch.chdir(repo)
    text = _run(repo, as_json=False, paths=["src/app.py"])
    assert text.replace(str(repo.resolve()), "<REPO>") == (
        "project root  <REPO>\n"
        "active paths  src/app.py, .\n"
        "budget        113 of 16,384 bytes used (agent.instruction_max_bytes)\n"
        "\n"
        "sources, lowest to highest precedence:\n"
        "  1. ~/.vtcode/AGENTS.md  (user AGENTS)  20 bytes\n"
        "  2. AGENTS.md  (workspace AGENTS)  44 bytes\n"
        "  3. src/AGENTS.md  (workspace AGENTS)  31 bytes\n"
        "  4. .vtcode/rules/python.md  (workspace matched rule)  18 bytes; matched by src/**/*.py\n"
        "\n"
        "diagnostics:\n"
        "  error    CLAUDE.md: binary file (contains NUL bytes), not text; skipped\n"
        "  warning  .vtcode/rules/web.md: paths `web/**/*.ts` never match a file in the workspace\n"
    )


def test_paths_relative_to_the_current_folder(
    tmp_path: Path, isolated_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = snapshot_repo(tmp_path, isolated_home)
    monkeypatch.chdir(repo / "src")
    payload = json.loads(_run(repo, as_json=True, paths=["app.py"]))
    assert payload["active_paths"] == ["src/app.py", "."]


def test_budget_override_from_the_command_line(
    tmp_path: Path, isolated_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = snapshot_repo(tmp_path, isolated_home)
    monkeypatch.chdir(repo)
    out = io.StringIO()
    args = argparse.Namespace(workspace=None, path=None, json=True)
    run_instructions(args, ["agent.instruction_max_bytes=20"], out=out)
    payload = json.loads(out.getvalue())
    assert payload["budget_bytes"] == 20
    assert [(s["path"], s["bytes"], s["truncated"]) for s in payload["sources"]] == [
        # A fair floor of 20 // 2 bytes each; nothing is left over for the more specific one.
        ("~/.vtcode/AGENTS.md", 10, True),
        ("AGENTS.md", 10, True),
    ]


# Needs the `instructions` subparser and dispatch in cli/parser.py and cli/main.py.
def test_vtcode_instructions_json_subprocess(
    vtcode: VtcodeRunner, tmp_path: Path, isolated_home: Path
) -> None:
    repo = snapshot_repo(tmp_path, isolated_home)
    result = vtcode.run("instructions", "--json", "--path", "src/app.py", cwd=repo)
    assert result.code == 0, result.stderr
    assert normalized(json.loads(result.stdout), repo) == json.loads(GOLDEN.read_text())


@pytest.mark.parametrize("command", ["instructions", "prompt"])
@pytest.mark.parametrize("outside", ["/etc/passwd", "../elsewhere.txt"])
def test_a_path_outside_the_workspace_is_a_usage_error(
    vtcode: VtcodeRunner, tmp_path: Path, command: str, outside: str
) -> None:
    workspace = tmp_path / "ws"
    workspace.mkdir()
    (tmp_path / "elsewhere.txt").write_text("x\n")
    result = vtcode.run(command, "--path", outside, cwd=workspace)
    assert result.code == 2
    resolved = (workspace / outside).resolve()
    assert result.stderr.startswith(
        f"vtcode: --path {outside}: {resolved} is outside the workspace {workspace}"
    )
    assert "--workspace DIR" in result.stderr
    assert result.stdout == ""
