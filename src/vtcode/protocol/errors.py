"""The error tree: one root, a subtree per boundary, each with an exit code and a user hint."""

from __future__ import annotations

import enum


class ExitCode(enum.IntEnum):
    """Process exit codes of SPEC section 2."""

    OK = 0
    AGENT_FAILED = 1
    USAGE = 2
    QUEUE_FULL = 3
    PROVIDER = 4
    INTERRUPTED = 130
    TERMINATED = 143


class VtcodeError(Exception):
    """Root of the errors vtcode raises on purpose; the CLI prints `message` and `hint`, no traceback."""

    exit_code: ExitCode = ExitCode.AGENT_FAILED

    def __init__(self, message: str, *, hint: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.hint = hint

    def user_text(self) -> str:
        """The one or two lines a user sees."""
        if self.hint:
            return f"{self.message}\nhint: {self.hint}"
        return self.message

    def __reduce__(self) -> tuple[object, ...]:
        """Pickle every field: subclasses take keyword-only arguments `Exception` pickling would drop."""
        return (_rebuild, (type(self), self.args, dict(self.__dict__)))


def _rebuild(cls: type[VtcodeError], args: tuple[object, ...], state: dict[str, object]) -> VtcodeError:
    """An error unpickled without calling its `__init__` (whose signature differs per subclass)."""
    error = cls.__new__(cls)
    Exception.__init__(error, *args)
    error.__dict__.update(state)
    return error


class UsageError(VtcodeError):
    """Bad command-line usage."""

    exit_code = ExitCode.USAGE


class ConfigError(VtcodeError):
    """Invalid configuration: `file:key: what is wrong, what is expected`."""

    exit_code = ExitCode.USAGE


class ProviderErrorKind(enum.StrEnum):
    """How a provider failure is classified, once, at the adapter; callers branch on this."""

    AUTH = "auth"
    QUOTA = "quota"
    RATE_LIMIT = "rate_limit"
    CONTEXT_OVERFLOW = "context_overflow"
    BAD_REQUEST = "bad_request"
    SERVER = "server"
    NETWORK = "network"
    INVALID_RESPONSE = "invalid_response"


AGENT_FAILURE_KINDS: tuple[str, ...] = (
    "max_turns",  # the request limit of one turn (--max-turns) was reached without a final answer
    "loop_guard",  # the model repeated the same tool call too often
    "empty_answer",  # the model answered nothing
    "invalid_output",  # the answer did not validate against --output-schema after the re-asks
    "budget",  # the run reached --max-budget-usd or --max-tokens-total (the session can be resumed)
    "agent_failed",  # any other failure of the agent (e.g. compaction could not gain)
)
OTHER_FAILURE_KINDS: tuple[str, ...] = ("config", "usage", "store", "queue_full", "interrupted", "internal")
FAILURE_KINDS: tuple[str, ...] = (
    *AGENT_FAILURE_KINDS,
    *(kind.value for kind in ProviderErrorKind),
    *OTHER_FAILURE_KINDS,
)
"""Every `turn.failed` / result `kind` (a closed set, documented in README "Scripts and CI")."""


class ProviderError(VtcodeError):
    """A model request failed after retries (or without them, when retrying could not help)."""

    exit_code = ExitCode.PROVIDER

    def __init__(
        self,
        kind: ProviderErrorKind,
        message: str,
        *,
        hint: str | None = None,
        status: int | None = None,
        provider: str = "",
        retry_after: float | None = None,
    ) -> None:
        super().__init__(message, hint=hint)
        self.kind = kind
        self.status = status
        self.provider = provider
        # Seconds the server asked us to wait before retrying, when it said so.
        self.retry_after = retry_after

    def user_text(self) -> str:
        """One line: provider failures are often read in CI logs, one per run."""
        return f"{self.message} ({self.hint})" if self.hint else self.message

    @property
    def retryable(self) -> bool:
        """Whether the same request may succeed later without any change."""
        if self.status in (408, 409, 529):
            return True
        return self.kind in {
            ProviderErrorKind.RATE_LIMIT,
            ProviderErrorKind.SERVER,
            ProviderErrorKind.NETWORK,
        }


class ToolError(VtcodeError):
    """A tool could not run; returned to the model as an error result, never raised to the user."""


class StoreError(VtcodeError):
    """Session storage could not be read or written."""


class QueueFullError(VtcodeError):
    """The steering queue already holds its maximum of pending intents (`vtcode steer`, exit 3)."""

    exit_code = ExitCode.QUEUE_FULL


class AgentFailedError(VtcodeError):
    """The agent could not finish the task (a loop limit, a failed compaction).

    `kind` is the `turn.failed` kind: one of `FAILURE_KINDS`.
    """

    exit_code = ExitCode.AGENT_FAILED
    default_kind = "agent_failed"

    def __init__(self, message: str, *, hint: str | None = None, kind: str | None = None) -> None:
        super().__init__(message, hint=hint)
        self.kind = kind or self.default_kind


class InvalidOutputError(AgentFailedError):
    """The final answer did not validate against `--output-schema`, also after the re-asks."""

    default_kind = "invalid_output"


class BudgetExceededError(AgentFailedError):
    """The run spent its budget (`--max-budget-usd`, `--max-tokens-total`); stopped at a boundary."""

    default_kind = "budget"


class InterruptedByUser(VtcodeError):
    """The user interrupted the turn (Ctrl-C)."""

    exit_code = ExitCode.INTERRUPTED


class Terminated(InterruptedByUser):
    """vtcode was asked to stop (SIGTERM: a CI job cancelled, a container stopped); exit 128 + 15."""

    exit_code = ExitCode.TERMINATED
