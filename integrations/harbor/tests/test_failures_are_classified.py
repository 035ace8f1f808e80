"""A vtcode run that fails for a provider reason fails the trial with Harbor's matching error type, so
`--retry-include`/`--retry-exclude` rules apply: the class is read from the run's last event."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from harbor.agents.installed.base import AgentAuthenticationError
from harbor.environments.base import ExecResult
from vtcode.testing.anthropic_server import AnthropicServer
from vtcode.testing.script import HttpError

from vtcode_harbor.agent import VTCodeAgent


def test_a_rejected_key_is_an_authentication_error(tmp_path: Path) -> None:
    with AnthropicServer([HttpError(401, "invalid x-api-key", error_type="authentication_error")]) as server:
        env = {
            "PATH": os.environ["PATH"],
            "HOME": str(tmp_path),
            "VTCODE_HOME": str(tmp_path / "vtcode-home"),
            "ANTHROPIC_API_KEY": "wrong",
            "ANTHROPIC_BASE_URL": server.base_url,
        }
        run = subprocess.run(
            [sys.executable, "-m", "vtcode", "exec", "--json", "--provider", "anthropic", "--model",
             "claude-sonnet-4-5", "--", "hi"],
            capture_output=True, text=True, env=env, cwd=tmp_path, timeout=120, check=False,
        )  # fmt: skip
    assert run.returncode == 4, run.stderr
    # What the run command writes to stderr on a failure: the last event, then the end of vtcode's stderr.
    last_event = run.stdout.strip().splitlines()[-1]
    agent = VTCodeAgent(logs_dir=tmp_path, model_name="anthropic/claude-sonnet-4-5", version="0.1.0")
    error = agent._classify_exec_error(
        "vtcode exec", ExecResult(stderr=f"{last_event}\n{run.stderr}", return_code=4)
    )
    assert isinstance(error, AgentAuthenticationError)
