"""Run inside a fresh network namespace (only `lo`): a scripted model on 127.0.0.1, `harbor run` of the
local task with VTCodeAgent in LocalNsEnvironment, then `harbor job resume` of the finished job.

Usage: python netns_driver.py SUMMARY.json -- HARBOR RUN ARGUMENTS (the job dir is `-o JOBS --job-name`).
Writes SUMMARY.json: both exit codes, their output tails, and the model requests counted after each.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from vtcode.testing.openai_chat_server import OpenAIChatServer
from vtcode.testing.script import RecordedRequest, Reply, ScriptToolCall, Step

WRITE_HELLO = ScriptToolCall("exec_command", json.dumps({"cmd": "echo hello > hello.txt"}), id="call_hello")
# Set in Harbor's own environment: the agent's allowlist must keep it from the task environment.
CANARY = "VTCODE_HARBOR_CANARY"


def respond(request: RecordedRequest) -> Step:
    """First request of a trial: write the file; once a tool result came back: answer."""
    messages = request.json().get("messages", [])
    if any(m.get("role") == "tool" for m in messages):
        return Reply(text="Wrote hello.txt.", input_tokens=30, output_tokens=6, cached_input_tokens=10)
    return Reply(tool_calls=(WRITE_HELLO,), input_tokens=20, output_tokens=4)


def _tail(text: str) -> str:
    return text[-4000:]


def main(argv: list[str]) -> int:
    """Drive both commands; the summary says what happened."""
    summary_path, separator, *run_args = argv
    assert separator == "--", "usage: netns_driver.py SUMMARY.json -- HARBOR RUN ARGUMENTS"
    harbor = str(Path(sys.executable).with_name("harbor"))
    jobs = Path(run_args[run_args.index("-o") + 1]) / run_args[run_args.index("--job-name") + 1]
    summary: dict[str, object] = {}
    with OpenAIChatServer(responder=respond) as server:
        env = {
            **os.environ,
            "OPENAI_API_KEY": "test-key",
            "OPENAI_BASE_URL": server.base_url,
            CANARY: "must-not-reach-the-task",
            # Harbor's LiteLLM would fetch its price map from the internet at start.
            "LITELLM_LOCAL_MODEL_COST_MAP": "True",
        }
        for name, argv_ in (
            ("run", [harbor, "run", *run_args]),
            ("resume", [harbor, "job", "resume", "-p", str(jobs)]),
        ):
            proc = subprocess.run(argv_, env=env, capture_output=True, text=True, timeout=1200, check=False)
            summary[name] = {
                "code": proc.returncode,
                "stdout": _tail(proc.stdout),
                "stderr": _tail(proc.stderr),
                "requests": len(server.requests),
            }
    Path(summary_path).write_text(json.dumps(summary, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
