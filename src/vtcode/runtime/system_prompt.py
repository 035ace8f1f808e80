"""The system prompt of a session: a static part computed once, and an appendix kept up to date.

The static part (profile or `system.md` override, appends, runtime guidance) is composed when the session
starts and is the same string object in every request, so provider prefix caches hit; its cache key also
covers the tool schemas. The project appendix is rediscovered only when a re-check (one `stat` per
watched path) sees a change or the agent touched a new path, and it is replaced only when its text
changed (SPEC section 4).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence

import msgspec

from vtcode import prompts
from vtcode.core.instructions.model import Diagnostic
from vtcode.core.instructions.render import appendix_block
from vtcode.core.prompt import compose_static, static_cache_key
from vtcode.core.tokens import byte_heuristic_tokens
from vtcode.exec.git_repo import GitAccess
from vtcode.instructions import (
    InstructionOptions,
    InstructionsReport,
    InstructionsResult,
    MatchProbe,
    Snapshot,
    SourceReader,
    instructions_report,
    load_instructions,
    read_prompt_layers,
)
from vtcode.protocol.model import SystemPrompt, ToolSpec
from vtcode.runtime.workspace_scope import WorkspaceScope
from vtcode.tools.file_set import workspace_files

DiagnosticsSink = Callable[[Sequence[Diagnostic]], None]


class TokenEstimates(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """Estimated tokens (UTF-8 bytes / 4, rounded up) of each part of the prompt."""

    static: int
    runtime_guidance: int
    appendix: int


class PromptReport(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """Everything `vtcode prompt` shows."""

    profile: str
    static: str
    runtime_guidance: str
    appendix: str
    estimated_tokens: TokenEstimates
    cache_key: str
    # The environment context item a session would open with (a user-role message, not system text).
    environment_context: str = ""


def instruction_options(scope: WorkspaceScope) -> InstructionOptions:
    """Instruction discovery options from configuration (and nothing from any instruction file)."""
    settings = scope.settings
    agent = settings.agent
    base = InstructionOptions.for_workspace(
        scope.workspace, vtcode_home=scope.home, user_home=scope.user_home
    )
    return msgspec.structs.replace(
        base,
        extra_patterns=agent.instruction_files,
        excludes=agent.instruction_excludes,
        max_bytes=agent.instruction_max_bytes,
        import_max_depth=agent.instruction_import_max_depth,
        user_instructions=agent.user_instructions,
        claude_rules=settings.instructions.claude_rules,
        cursor_rules=settings.instructions.cursor_rules,
        copilot_instructions=settings.instructions.copilot_instructions,
    )


class SystemPromptBuilder:
    """Builds the `SystemPrompt` of every request of one session."""

    def __init__(
        self,
        scope: WorkspaceScope,
        *,
        tools: Sequence[ToolSpec],
        profile: str | None = None,
        on_diagnostics: DiagnosticsSink | None = None,
        clock: Callable[[], int] = time.time_ns,
        git: GitAccess | None = None,
        catalog: str = "",
        agent_prompt: str = "",
    ) -> None:
        self.scope = scope
        workspace, settings = scope.workspace, scope.settings
        self.workspace = workspace
        # The skill catalog (runtime/skills): fixed for the session, so the appendix stays cache-stable.
        self.catalog = catalog
        self.settings = settings
        self.profile = prompts.parse_profile(profile or settings.agent.system_prompt_mode)
        self.runtime_guidance = prompts.runtime_guidance()
        self._clock = clock
        self._reader = SourceReader(clock=clock)
        layers = read_prompt_layers(workspace, scope.home, reader=self._reader, user_home=scope.user_home)
        self.static = compose_static(
            prompts.profile_text(self.profile),
            self.runtime_guidance,
            override=layers.override,
            appends=layers.appends,
        )
        if agent_prompt:
            # A subagent's definition (runtime/subagents): its role, after the shared static part.
            self.static = f"{self.static}\n\n{agent_prompt}"
        self.cache_key = static_cache_key(self.static, tools)
        self.options = instruction_options(scope)
        self._on_diagnostics = on_diagnostics
        self.probe = MatchProbe(
            self.options.project_root,
            # The session's pinned git where the project root is the workspace; a fresh one above it.
            lambda root: workspace_files(root, git if git is not None and git.workspace == root else None),
        )
        """The never-matching check: it sees the files `list_files` sees, listed once per session."""
        self._touched: dict[str, None] = {}
        self._layer_diagnostics = layers.diagnostics
        self._result: InstructionsResult | None = None
        self._snapshot: Snapshot | None = None
        self._built_for: frozenset[str] | None = None
        self._system = SystemPrompt(static=self.static)
        self._reported: set[Diagnostic] = set()
        self.rebuilds = 0
        """How many times discovery ran (tests and the benchmark check change detection with it)."""

    @property
    def on_diagnostics(self) -> DiagnosticsSink | None:
        """Where new diagnostics are reported."""
        return self._on_diagnostics

    @property
    def active_paths(self) -> tuple[str, ...]:
        """The paths the agent touched, most recent first (the workspace root is always active too)."""
        return tuple(reversed(self._touched))

    def note_touched(self, paths: Sequence[str]) -> None:
        """Record workspace-relative paths a tool call read, wrote or ran in (the first is most recent)."""
        for path in reversed(paths):
            text = path.strip()
            if text:
                self._touched.pop(text, None)
                self._touched[text] = None

    def build(self, active_paths: Sequence[str] | None = None) -> SystemPrompt:
        """The prompt for the next request; `active_paths` (if given) replace the touched paths.

        The static string is the same object every time; the appendix is recomputed only when a watched
        source changed or the set of active paths changed, and the returned `SystemPrompt` is the same
        object as long as the appendix text is unchanged.
        """
        if active_paths is not None:
            self._touched = {}
            self.note_touched(active_paths)
        wanted = frozenset(self._touched)
        # The stat re-check runs only when nothing else already forces a rebuild.
        fresh = self._snapshot is not None and wanted == self._built_for and not self._snapshot.changed()
        if self._result is None or not fresh:
            self._rebuild(wanted)
        return self._system

    def _rebuild(self, wanted: frozenset[str]) -> None:
        self.rebuilds += 1
        result = load_instructions(self.options, self.active_paths, reader=self._reader, probe=self.probe)
        self._result = result
        self._built_for = wanted
        self._snapshot = Snapshot.take(result.watch, self._clock)
        appendix = "\n\n".join(part for part in (appendix_block(result.appendix), self.catalog) if part)
        if appendix != self._system.appendix:
            self._system = SystemPrompt(static=self.static, appendix=appendix)
        # `info` only explains (a rule that does not match yet): `vtcode instructions` shows it.
        fresh = [d for d in self.diagnostics if d not in self._reported and d.severity != "info"]
        self._reported.update(fresh)
        if fresh and self._on_diagnostics is not None:
            self._on_diagnostics(fresh)

    @property
    def result(self) -> InstructionsResult:
        """The latest pipeline run (building the prompt first if it was never built)."""
        if self._result is None:
            self.build()
        assert self._result is not None
        return self._result

    @property
    def diagnostics(self) -> tuple[Diagnostic, ...]:
        """Prompt-layer problems and the diagnostics of the latest instruction discovery."""
        found = self._result.diagnostics if self._result is not None else ()
        return (*self._layer_diagnostics, *found)

    def instructions_report(self) -> InstructionsReport:
        """What `vtcode instructions` shows (prompt-layer problems included in the diagnostics)."""
        report = instructions_report(self.result)
        return msgspec.structs.replace(report, diagnostics=self.diagnostics)

    def prompt_report(self) -> PromptReport:
        """What `vtcode prompt` shows."""
        appendix = self.build().appendix
        return PromptReport(
            profile=self.profile,
            static=self.static,
            runtime_guidance=self.runtime_guidance,
            appendix=appendix,
            estimated_tokens=TokenEstimates(
                static=byte_heuristic_tokens(self.static),
                runtime_guidance=byte_heuristic_tokens(self.runtime_guidance),
                appendix=byte_heuristic_tokens(appendix),
            ),
            cache_key=self.cache_key,
        )
