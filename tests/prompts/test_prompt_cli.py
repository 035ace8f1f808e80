"""`vtcode prompt`: the JSON shape of issue 4 (assembled from golden files) and the text output."""

from __future__ import annotations

import argparse
import io
import json
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import VtcodeRunner
from tests.instructions.helpers import normalized, snapshot_repo
from vtcode import prompts
from vtcode.cli.instructions_cmd import tool_specs
from vtcode.cli.prompt_cmd import run_prompt
from vtcode.config.schema import Settings
from vtcode.core.prompt import static_cache_key
from vtcode.core.tokens import byte_heuristic_tokens as estimate_tokens_bytes

FIXTURES = Path(__file__).parent / "fixtures"
INSTRUCTIONS_GOLDEN = Path(__file__).parents[1] / "instructions" / "fixtures" / "instructions.json"


def _expected(profile: str, repo: Path) -> dict[str, Any]:
    static = (FIXTURES / f"profile_{profile}.md").read_text()
    guidance = prompts.runtime_guidance()
    appendix = json.loads(INSTRUCTIONS_GOLDEN.read_text())["appendix"]
    return {
        "profile": profile,
        "static": static,
        "runtime_guidance": guidance,
        "appendix": appendix,
        "estimated_tokens": {
            "static": estimate_tokens_bytes(static),
            "runtime_guidance": estimate_tokens_bytes(guidance),
            "appendix": estimate_tokens_bytes(appendix),
        },
        # The tool schemas belong to other modules; the key is checked against them, not pinned.
        "cache_key": static_cache_key(static, tool_specs(Settings(), repo)),
    }


def _run(repo: Path, *, as_json: bool, profile: str | None = None) -> str:
    out = io.StringIO()
    args = argparse.Namespace(workspace=str(repo), path=["src/app.py"], json=as_json, profile=profile)
    assert run_prompt(args, [], out=out) == 0
    return out.getvalue()


@pytest.mark.parametrize("profile", ["default", "minimal"])
def test_prompt_json_matches_the_golden_parts(
    tmp_path: Path, isolated_home: Path, monkeypatch: pytest.MonkeyPatch, profile: str
) -> None:
    repo = snapshot_repo(tmp_path, isolated_home)
    monkeypatch.chdir(repo)
    payload = json.loads(_run(repo, as_json=True, profile=None if profile == "default" else profile))
    context = payload.pop("environment_context")
    assert context.startswith("<environment_context>\nWorking directory: ")
    assert normalized(payload, repo) == _expected(profile, repo)


def test_prompt_text_output(tmp_path: Path, isolated_home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    repo = snapshot_repo(tmp_path, isolated_home)
    monkeypatch.chdir(repo)
    expected = _expected("default", repo)
    tokens = expected["estimated_tokens"]
    text, context = _run(repo, as_json=False).split("\n===== environment context", 1)
    assert context.startswith(" (the first user-role message of a session) =====\n<environment_context>")
    assert text == (
        "profile    default\n"
        f"cache key  {expected['cache_key']}\n"
        f"tokens     static {tokens['static']:,} (runtime guidance {tokens['runtime_guidance']:,} of it), "
        f"appendix {tokens['appendix']:,}  (estimated: UTF-8 bytes / 4)\n"
        f"\n===== static prompt (sent unchanged in every request) =====\n{expected['static']}\n"
        f"\n===== runtime guidance (inside the static prompt) =====\n{expected['runtime_guidance']}\n"
        "\n===== appendix (changes only when an instruction file changes) =====\n"
        f"{expected['appendix']}\n"
    )


# Needs the `prompt` subparser and dispatch in cli/parser.py and cli/main.py.
def test_vtcode_prompt_json_subprocess(vtcode: VtcodeRunner, tmp_path: Path, isolated_home: Path) -> None:
    repo = snapshot_repo(tmp_path, isolated_home)
    result = vtcode.run("prompt", "--profile", "minimal", "--json", "--path", "src/app.py", cwd=repo)
    assert result.code == 0, result.stderr
    payload = json.loads(result.stdout)
    assert "Today: " in payload.pop("environment_context")
    assert normalized(payload, repo) == _expected("minimal", repo)


# Needs the wiring too: an unknown profile is a usage error (exit 2), never a silent fallback.
def test_vtcode_prompt_unknown_profile_subprocess(vtcode: VtcodeRunner, tmp_path: Path) -> None:
    result = vtcode.run("prompt", "-c", "agent.system_prompt_mode=fancy", cwd=tmp_path)
    assert result.code == 2
    assert "system_prompt_mode" in result.stderr
    assert "Traceback" not in result.stderr
