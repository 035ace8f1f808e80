"""`exec_command` in its run-to-completion form: a shell command with a time limit and bounded output.

The session/wait/spool machinery of SPEC section 8 replaces the executor later; the name and the
parameters the model sees stay the same.
"""

from __future__ import annotations

import json
from typing import Any

import msgspec

from vtcode.exec.run import run_command
from vtcode.protocol.errors import ToolError
from vtcode.protocol.model import ToolSpec
from vtcode.tools.arguments import parse_arguments
from vtcode.tools.base import ToolContext, ToolOutcome
from vtcode.tools.workspace import resolve

DEFAULT_MAX_OUTPUT_TOKENS = 10_000

_SPEC = ToolSpec(
    name="exec_command",
    description=(
        "Run a shell command (bash -c) in the workspace and return its exit code and merged "
        "stdout/stderr. Long output is cut in the middle: the start and the end are kept. The command "
        "runs without a terminal and without stdin; it is stopped (with its whole process group) "
        "when it exceeds the time limit. Use read_file/list_files/grep_files for reading files."
    ),
    parameters={
        "type": "object",
        "properties": {
            "cmd": {"type": "string", "description": "The shell command line."},
            "workdir": {
                "type": "string",
                "description": "Directory to run in, relative to the workspace (default: its root).",
            },
            "yield_time_ms": {
                "type": "integer",
                "minimum": 0,
                "description": "Time limit in milliseconds (default: the configured ceiling).",
            },
            "max_output_tokens": {
                "type": "integer",
                "minimum": 1,
                "description": "Bound on the returned output, in tokens (about 4 bytes each).",
            },
        },
        "required": ["cmd"],
        "additionalProperties": False,
    },
)


class _Args(msgspec.Struct, forbid_unknown_fields=True):
    cmd: str
    workdir: str | None = None
    yield_time_ms: int | None = None
    max_output_tokens: int | None = None


class ExecCommandTool:
    """Runs one command to completion in its own process group."""

    def __init__(self, default_time_limit: float = 180.0) -> None:
        self.default_time_limit = default_time_limit or 180.0

    @property
    def spec(self) -> ToolSpec:
        """The model-facing schema."""
        return _SPEC

    @property
    def read_only(self) -> bool:
        """Commands may change anything."""
        return False

    async def run(self, arguments: dict[str, Any], ctx: ToolContext) -> ToolOutcome:
        """Run the command and report exit code, wall time and a bounded preview."""
        try:
            args = parse_arguments(arguments, _Args)
            if not args.cmd.strip():
                raise ToolError("cmd is empty")
            workdir = resolve(ctx.workspace, args.workdir or ".")
            if not workdir.real.is_dir():
                raise ToolError(f"workdir {workdir.display!r} is not a directory")
        except ToolError as exc:
            return ToolOutcome(content=exc.message, is_error=True)
        limit = self.default_time_limit
        if args.yield_time_ms:
            limit = min(limit, max(0.1, args.yield_time_ms / 1000))
        max_bytes = 4 * (args.max_output_tokens or DEFAULT_MAX_OUTPUT_TOKENS)
        result = await run_command(args.cmd, cwd=workdir.real, time_limit=limit, max_output_bytes=max_bytes)
        payload = {
            "exit_code": result.exit_code,
            "wall_time": round(result.wall_time, 3),
            "output": result.output,
            "total_output_bytes": result.total_bytes,
            "timed_out": result.timed_out,
        }
        if result.timed_out:
            payload["note"] = f"stopped after {limit:g} s; the whole process group was terminated"
        return ToolOutcome(
            content=json.dumps(payload, ensure_ascii=False),
            is_error=result.timed_out or result.exit_code != 0,
            touched_paths=(workdir.display,),
            exit_code=result.exit_code,
        )
