"""What `vtcode exec` tells a script at the end: the result object, the last message file, the session."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from vtcode.core.usage_ledger import by_model
from vtcode.protocol.errors import ExitCode, VtcodeError
from vtcode.protocol.events import (
    AgentMessageItem,
    Event,
    ItemCompleted,
    ThreadCompleted,
    ThreadStarted,
    TurnFailed,
    TurnStarted,
    UsageSummary,
)
from vtcode.protocol.exec_result import ExecResult


class ResultCollector:
    """An event sink keeping what the result needs: the session id, the last answer, how it ended."""

    def __init__(self, *, schema: dict[str, Any] | None = None) -> None:
        self.schema = schema
        self.session_id: str | None = None
        self.last_message: str | None = None
        self.failure: TurnFailed | None = None
        self.completed: ThreadCompleted | None = None
        self.usage: UsageSummary | None = None

    def __call__(self, event: Event) -> None:
        """Observe one event."""
        match event:
            case ThreadStarted(thread_id=thread_id):
                self.session_id = thread_id
            case TurnStarted():
                self.failure = None
            case ItemCompleted(item=AgentMessageItem(text=text)):
                self.last_message = text
            case TurnFailed():
                self.failure = event
            case ThreadCompleted():
                self.completed = event
            case UsageSummary():
                self.usage = event
            case _:
                pass

    def result(self) -> ExecResult:
        """The result object of a run that reached its end (`thread.completed`)."""
        done = self.completed or ThreadCompleted(
            status="interrupted", kind="interrupted", exit_code=int(ExitCode.INTERRUPTED)
        )
        failed = done.status != "completed"
        return ExecResult(
            session_id=self.session_id,
            status=done.status,
            is_error=failed,
            kind=done.kind or None,
            exit_code=done.exit_code,
            message=self.failure.message if failed and self.failure is not None else None,
            result=self.last_message,
            num_turns=done.turns,
            usage=done.usage,
            total_cost_usd=self.usage.cost_usd if self.usage is not None else None,
            model_usage=by_model(self.usage.rows) if self.usage is not None else {},
            structured_output=self._structured() if not failed else None,
        )

    def _structured(self) -> Any:
        if self.schema is None or self.last_message is None:
            return None
        from vtcode.runtime.structured_output import parse_answer

        try:
            return parse_answer(self.last_message)
        except ValueError:
            return None


def error_result(error: VtcodeError, kind: str) -> ExecResult:
    """The result object of a run that could not start (bad usage or configuration, unknown session)."""
    return ExecResult(
        status="failed", is_error=True, kind=kind, exit_code=int(error.exit_code), message=error.user_text()
    )


def write_last_message(path: str, text: str | None) -> None:
    """`-o FILE`: the last agent message (an empty file when there was none, so no stale answer stays)."""
    try:
        Path(path).write_text(text or "", encoding="utf-8")
    except OSError as exc:
        raise VtcodeError(f"--output-last-message {path}: {exc.strerror or exc}") from None


def resume_line(session_id: str) -> str:
    """The line human mode ends with on stderr."""
    return f"session: {session_id}  (resume with vtcode exec --resume {session_id} ...)\n"
