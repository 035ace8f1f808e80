"""The error of a transport that broke: the `vtcode acp` child died or spoke nonsense."""

from __future__ import annotations

from vtcode.protocol.errors import ExitCode, VtcodeError


class TransportError(VtcodeError):
    """The subprocess transport lost its child; `returncode` is its exit status when it ended (negative:
    the signal that killed it), `stderr` the tail of what it wrote. The session id stays valid:
    `Session.resume(id)` opens the session again from its store."""

    exit_code = ExitCode.AGENT_FAILED

    def __init__(
        self, message: str, *, hint: str | None = None, returncode: int | None = None, stderr: str = ""
    ) -> None:
        super().__init__(message, hint=hint)
        self.returncode = returncode
        self.stderr = stderr
