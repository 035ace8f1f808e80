"""Real hook scripts and real `vtcode exec` runs against the loopback OpenAI server."""

from __future__ import annotations

import json
import stat
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tests.conftest import Completed, VtcodeRunner
from vtcode.testing.script import Reply, ScriptToolCall, Step
from vtcode.testing.wire import cli_args, cli_env, server_for


def call(name: str, arguments: dict[str, object], call_id: str = "c1") -> Reply:
    """A reply that makes one tool call."""
    return Reply(tool_calls=(ScriptToolCall(name, json.dumps(arguments), id=call_id),))


def script(path: Path, body: str) -> Path:
    """An executable shell script with `body`."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("#!/bin/sh\n" + body)
    path.chmod(path.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
    return path


def user_config(home: Path, text: str) -> None:
    """Append `text` to `$VTCODE_HOME/vtcode.toml`."""
    path = home / ".vtcode" / "vtcode.toml"
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("a") as handle:
        handle.write(text)


def hooks_json(path: Path, hooks: dict[str, Any]) -> Path:
    """A Claude Code shaped hook file."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"hooks": hooks}))
    return path


@dataclass(frozen=True)
class Run:
    """A finished `vtcode exec --json` and what the model server received."""

    result: Completed
    bodies: list[dict[str, Any]]

    @property
    def events(self) -> list[dict[str, Any]]:
        """The JSONL events printed."""
        return [json.loads(line) for line in self.result.stdout.splitlines() if line.strip()]

    def of(self, kind: str) -> list[dict[str, Any]]:
        """Events of one type."""
        return [e for e in self.events if e["type"] == kind]

    def tool_results(self, index: int = -1) -> list[str]:
        """The tool results in the `index`-th request body."""
        return [str(m["content"]) for m in self.bodies[index]["messages"] if m["role"] == "tool"]

    def user_texts(self, index: int = -1) -> list[str]:
        """The user messages of the `index`-th request body, as text."""
        out = []
        for message in self.bodies[index]["messages"]:
            if message["role"] != "user":
                continue
            content = message["content"]
            if isinstance(content, list):
                content = "".join(part.get("text", "") for part in content)
            out.append(str(content))
        return out


def exec_run(
    vtcode: VtcodeRunner,
    workspace: Path,
    steps: Sequence[Step],
    *extra: str,
    prompt: str = "go",
    env: dict[str, str] | None = None,
) -> Run:
    """`vtcode exec --json` in `workspace` against a chat server playing `steps`."""
    with server_for("chat", list(steps)) as server:
        result = vtcode.run(
            "exec",
            "--json",
            *cli_args("chat"),
            *extra,
            prompt,
            cwd=workspace,
            env={**cli_env("chat", server), **(env or {})},
        )
        bodies = [request.json() for request in server.requests]
    return Run(result, bodies)
