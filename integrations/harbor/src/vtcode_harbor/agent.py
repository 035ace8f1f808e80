"""vtcode as a Harbor installed agent: `harbor run -a vtcode_harbor.agent:VTCodeAgent --ak artifact=...`.

Install uploads the vtcode executable of a release archive (no network in the task environment); a run
is one `vtcode exec --json` in the task's working directory with only an allowlist of the host's
variables; afterwards the events give Harbor its token counts and an ATIF `trajectory.json` (converted
by `vtcode.core.atif`, vtcode's own conversion, not a copy).
"""

from __future__ import annotations

import json
import shlex
import tempfile
from pathlib import Path
from typing import Any, ClassVar, Literal

from harbor.agents.capabilities import AgentCapabilities
from harbor.agents.installed.base import (
    AgentAuthenticationError,
    ApiInternalServerError,
    ApiRateLimitError,
    ApiUsageLimitError,
    BaseInstalledAgent,
    ContextWindowExceededError,
    ErrorPattern,
    NetworkConnectionError,
    with_prompt_template,
)
from harbor.agents.options import InstalledAgentOptions
from harbor.environments.base import BaseEnvironment
from harbor.models.agent.context import AgentContext
from harbor.models.trajectories import Trajectory
from pydantic import Field, ValidationError
from vtcode.core.atif import trajectory_from_events

from vtcode_harbor.artifact import ArtifactError, executable_from, runs_on
from vtcode_harbor.results import read_events, thread_id, totals

INSTALLED = "/installed-agent/vtcode"
# Under the trial's agent log folder, so they come back with the logs (and sessions with them).
EVENTS_FILE = "vtcode.jsonl"
STDERR_FILE = "vtcode.stderr"
EXIT_FILE = "exit_code"
TRAJECTORY_FILE = "trajectory.json"
# The host variables a run may see: what vtcode's built-in providers read. Anything else stays on the
# host unless named with `--ak pass_env=NAME,...` or given explicitly with `--ae NAME=VALUE`.
PROVIDER_ENV = (
    "OPENAI_API_KEY",
    "OPENAI_BASE_URL",
    "ANTHROPIC_API_KEY",
    "ANTHROPIC_BASE_URL",
    "GEMINI_API_KEY",
    "OLLAMA_HOST",
)


class VTCodeOptions(InstalledAgentOptions):
    """The `--ak` options of VTCodeAgent."""

    artifact: str | None = Field(
        default=None,
        description="Host path of a vtcode release archive (python3 scripts/release.py) or executable.",
    )
    # `ask` is left out: nobody can answer an approval in a headless trial.
    approval: Literal["read-only", "auto-edit", "full-auto"] = Field(
        default="full-auto", description="What vtcode may run without asking."
    )
    sandbox: Literal["read-only", "workspace-write", "off"] | None = Field(
        default=None, description="The OS sandbox of vtcode's commands (default: vtcode's own)."
    )
    max_turns: int | None = Field(default=None, description="Model requests allowed in the turn.")
    pass_env: str | None = Field(
        default=None, description="More host variables to pass to vtcode, comma-separated names."
    )


class VTCodeAgent(BaseInstalledAgent):
    """The vtcode terminal coding agent, run headless with `vtcode exec --json`."""

    capabilities = AgentCapabilities(atif=True)
    options_model = VTCodeOptions
    options: VTCodeOptions
    # Matched against the failed run's `thread.completed` event, which the run command echoes.
    ERROR_PATTERNS: ClassVar[list[ErrorPattern]] = [
        ErrorPattern(r'"kind":"rate_limit"', ApiRateLimitError),
        ErrorPattern(r'"kind":"quota"', ApiUsageLimitError),
        ErrorPattern(r'"kind":"auth"', AgentAuthenticationError),
        ErrorPattern(r'"kind":"context_overflow"', ContextWindowExceededError),
        ErrorPattern(r'"kind":"network"', NetworkConnectionError),
        ErrorPattern(r'"kind":"server"', ApiInternalServerError),
    ]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._instruction: str | None = None

    @staticmethod
    def name() -> str:
        """The agent's name in Harbor's results."""
        return "vtcode"

    def get_version_command(self) -> str | None:
        """The command whose output names the installed version."""
        return f"{INSTALLED} --version"

    def parse_version(self, stdout: str) -> str:
        """`vtcode 0.1.0` -> `0.1.0`."""
        return stdout.strip().removeprefix("vtcode").strip()

    async def install(self, environment: BaseEnvironment) -> None:
        """Upload the executable of the release archive to /installed-agent/vtcode; no network needed."""
        if not self.options.artifact:
            raise ArtifactError(
                "vtcode-harbor installs vtcode from a release archive: pass --ak artifact=/abs/path/"
                "vtcode-<version>-<os>-<arch>.tar.gz (build one with `python3 scripts/release.py`)"
            )
        artifact = self._artifact()
        uname = await environment.exec("uname -sm", user="root")
        if uname.return_code == 0 and not runs_on(artifact, uname.stdout or ""):
            raise ArtifactError(
                f"{artifact.name} does not run on this environment ({(uname.stdout or '').strip()})"
            )
        with tempfile.TemporaryDirectory(prefix="vtcode-harbor-") as scratch:
            executable = executable_from(artifact, Path(scratch))
            await environment.upload_file(executable, INSTALLED)
        await self.exec_as_root(environment, f"chmod 755 {INSTALLED}")

    def _artifact(self) -> Path:
        return Path(self.options.artifact or "").expanduser()

    def _run_env(self) -> dict[str, str]:
        """The allowlisted host variables, and where vtcode keeps its sessions."""
        names = list(PROVIDER_ENV)
        if self.options.pass_env:
            names += [n.strip() for n in self.options.pass_env.split(",") if n.strip()]
        env = {name: value for name in names if (value := self._get_env(name)) is not None}
        env["VTCODE_HOME"] = f"{self.environment_logs_dir}/vtcode-home"
        return env

    def _command(self, instruction: str) -> str:
        logs = self.environment_logs_dir
        args = ["exec", "--json", "--approval", self.options.approval]
        if self.options.sandbox:
            args += ["--sandbox", self.options.sandbox]
        if self.options.max_turns is not None:
            args += ["--max-turns", str(self.options.max_turns)]
        if self.model_name:
            provider, _, model = self.model_name.rpartition("/")
            args += [*(["--provider", provider] if provider else []), "--model", model]
        quoted = " ".join(shlex.quote(a) for a in args)
        events, stderr = shlex.quote(f"{logs}/{EVENTS_FILE}"), shlex.quote(f"{logs}/{STDERR_FILE}")
        # Exit 1 (the agent did not finish the task) is an outcome for the verifier to judge; other
        # failures (2 usage or config, 4 provider, 130 interrupted) fail the trial, classified by the
        # kind in the last event.
        return (
            f'mkdir -p "$VTCODE_HOME" && {INSTALLED} {quoted} -- {shlex.quote(instruction)} '
            f"> {events} 2> {stderr}; status=$?; echo $status > {shlex.quote(f'{logs}/{EXIT_FILE}')}; "
            f"case $status in 0|1) exit 0;; esac; "
            f'tail -n 1 {events} >&2; tail -c 2000 {stderr} >&2; exit "$status"'
        )

    @with_prompt_template
    async def run(self, instruction: str, environment: BaseEnvironment, context: AgentContext) -> None:
        """One `vtcode exec --json` run of the instruction; results are read after the logs sync."""
        self._instruction = instruction
        await self.exec_as_agent(environment, self._command(instruction), env=self._run_env())

    def populate_context_post_run(self, context: AgentContext) -> None:
        """Token counts and cost from the events; `trajectory.json` (ATIF) beside them."""
        events = read_events(self.logs_dir / EVENTS_FILE)
        if not events:
            return
        used = totals(events)
        context.n_input_tokens = used.input_tokens
        context.n_cache_tokens = used.cached_tokens
        context.n_output_tokens = used.output_tokens
        context.cost_usd = used.cost_usd
        session = thread_id(events) or self.session_id or "unknown"
        exit_file = self.logs_dir / EXIT_FILE
        exit_code = exit_file.read_text().strip() if exit_file.is_file() else ""
        context.metadata = {"vtcode_session_id": session, "vtcode_exit_code": exit_code}
        trajectory = trajectory_from_events(
            events,
            session_id=session,
            agent_version=self.version() or "unknown",
            model_name=self.model_name,
            instruction=self._instruction,
        )
        try:
            data: dict[str, Any] = Trajectory.model_validate(trajectory).to_json_dict()
        except ValidationError as exc:  # kept as converted: the run's record matters more than its form
            self.logger.warning(f"vtcode trajectory does not validate as ATIF: {exc}")
            data = dict(trajectory)
        (self.logs_dir / TRAJECTORY_FILE).write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
