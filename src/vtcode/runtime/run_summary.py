"""What a headless run did, told once at its end as `thread.completed`."""

from __future__ import annotations

from vtcode.protocol.errors import ExitCode
from vtcode.protocol.events import Event, ThreadCompleted, TurnCompleted, TurnFailed, TurnStarted
from vtcode.protocol.messages import Usage


class RunSummary:
    """An event sink counting the run's turns and usage and keeping how the last turn ended."""

    def __init__(self) -> None:
        self.turns = 0
        self.usage = Usage()
        self.last: TurnCompleted | TurnFailed | None = None

    def __call__(self, event: Event) -> None:
        """Observe one event of the session."""
        match event:
            case TurnStarted():
                self.turns += 1
            case TurnCompleted(usage=usage):
                self.usage = self.usage + usage
                self.last = event
            case TurnFailed(usage=usage):
                # A failed turn's calls were made (and billed) all the same.
                self.usage = self.usage + usage
                self.last = event
            case _:
                pass

    def completed(self, thread_id: str) -> ThreadCompleted:
        """The closing event; a run that ended before any turn ended counts as interrupted."""
        last = self.last
        if isinstance(last, TurnCompleted):
            return ThreadCompleted(thread_id=thread_id, turns=self.turns, usage=self.usage)
        if last is None:
            return ThreadCompleted(
                thread_id=thread_id,
                status="interrupted",
                kind="interrupted",
                exit_code=int(ExitCode.INTERRUPTED),
                turns=self.turns,
                usage=self.usage,
            )
        return ThreadCompleted(
            thread_id=thread_id,
            status="interrupted" if last.exit_code == ExitCode.INTERRUPTED else "failed",
            kind=last.kind,
            exit_code=last.exit_code,
            turns=self.turns,
            usage=self.usage,
        )
