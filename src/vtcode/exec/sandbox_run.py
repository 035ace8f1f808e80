"""`vtcode sandbox -- CMD`: one command under the configured sandbox, attached to the terminal."""

from __future__ import annotations

import signal
import subprocess
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

from vtcode.core.sandbox_policy import SandboxPolicy
from vtcode.exec.sandbox import Sandbox
from vtcode.exec.spawn import child_preexec


def run_confined(
    argv: Sequence[str],
    *,
    workspace: Path,
    env: Mapping[str, str],
    policy: SandboxPolicy,
    missing: frozenset[str] = frozenset(),
    notify: Callable[[str], None] | None = None,
) -> int:
    """Run `argv` in `workspace` under `policy` and return its exit status (128 + signal when killed).

    Raises SandboxUnavailable when the policy cannot be enforced, OSError when the program cannot start.
    """
    sandbox = Sandbox(policy, workspace, missing=missing, notify=notify)
    child_env = {key: value for key, value in env.items() if not key.endswith("_API_KEY")}
    try:
        sandbox.prepare(child_env)
        confine = sandbox.child_setup(str(sandbox.workspace))
        # The terminal's Ctrl-C reaches the command itself; vtcode only waits for it to end.
        previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
        try:
            proc = subprocess.Popen(
                list(argv),
                cwd=sandbox.workspace,
                env=child_env,
                preexec_fn=_with_default_sigint(child_preexec(confine)),  # noqa: PLW1509 - syscalls only
            )
            code = proc.wait()
        finally:
            signal.signal(signal.SIGINT, previous)
    finally:
        sandbox.close()
    return 128 - code if code < 0 else code


def _with_default_sigint(setup: Callable[[], None]) -> Callable[[], None]:
    def run() -> None:
        signal.signal(signal.SIGINT, signal.SIG_DFL)
        setup()

    return run
