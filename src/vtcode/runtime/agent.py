"""One agent session: wiring of config, provider, tools, store and the turn loop."""

from __future__ import annotations

import os
import time
import uuid
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from vtcode.config.schema import Settings
from vtcode.core.approvals import ApprovalPolicy
from vtcode.core.history_repair import missing_results
from vtcode.core.instructions_model import Diagnostic
from vtcode.core.touched_paths import touched_paths
from vtcode.protocol.errors import UsageError
from vtcode.protocol.events import Event, Notice, ThreadStarted
from vtcode.protocol.messages import Message
from vtcode.providers.base import ModelClient
from vtcode.runtime.emitter import Emitter
from vtcode.runtime.providers import build_client, choose_provider, model_info
from vtcode.runtime.system_prompt import SystemPromptBuilder, user_home
from vtcode.runtime.tool_dispatch import ToolDispatcher
from vtcode.runtime.toolset import build_toolset
from vtcode.runtime.turn import ConversationState, TurnOutcome, TurnRunner
from vtcode.store.session import SessionHandle, SessionStore
from vtcode.tools.base import ToolContext


@dataclass(frozen=True)
class AgentOptions:
    """What a front end decided: where, with which settings, and which session."""

    workspace: Path
    settings: Settings
    home: Path
    env: Mapping[str, str]
    resume: str | None = None
    continue_last: bool = False
    # Headless runs cannot ask: "ask" decisions become denials with the reason given to the model.
    headless: bool = True
    # Config keys that were ignored (LoadedConfig.warnings), shown as warning notices.
    config_warnings: tuple[str, ...] = ()


class Agent:
    """A session ready to run turns; front ends subscribe to its emitter."""

    def __init__(
        self,
        options: AgentOptions,
        emitter: Emitter,
        *,
        client: ModelClient | None = None,
        clock: Callable[[], float] = time.time,
        new_id: Callable[[], str] = lambda: str(uuid.uuid4()),
    ) -> None:
        settings = options.settings
        self.options = options
        self.emitter = emitter
        for warning in options.config_warnings:
            self._notice(warning)
        choice = choose_provider(settings, options.env)
        self.model = choice.model
        self.provider_name = choice.name
        self.client = client or build_client(choice, settings, notify=self._notice)
        self.info = model_info(settings, self.model)
        self.store = SessionStore(options.home, clock, new_id)
        self.handle: SessionHandle | None = None
        self.state = ConversationState(messages=[])
        self._resumed = False
        session_id = options.resume
        if options.continue_last:
            session_id = self.store.latest_for_workspace(options.workspace)
            if session_id is None:
                raise UsageError(
                    f"no stored session for {options.workspace}",
                    hint="start one with `vtcode exec PROMPT`, or list them with `vtcode sessions list`",
                )
        if session_id is not None:
            self.handle = self.store.open(session_id)
            loaded = self.handle.load()
            self.state = ConversationState(messages=list(loaded.messages), turns=self.handle.info.turns)
            self._resumed = True
            if os.path.realpath(self.handle.info.workspace) != os.path.realpath(options.workspace):
                self._notice(
                    f"session {self.handle.info.id} ran in {self.handle.info.workspace}; it continues here "
                    f"in {options.workspace}, so paths in its history may not match"
                )
            for notice in loaded.notices:
                self._notice(notice)
            repairs = missing_results(self.state.messages)
            if repairs:
                self._checkpoint(repairs, self.state.turns)
                self.state.messages.extend(repairs)
                self._notice(
                    f"the last session stopped while {len(repairs)} tool call(s) ran; they are recorded "
                    "as not finished"
                )
        self.toolset = build_toolset(settings, options.workspace, emitter)
        tools = self.toolset.tools
        self.tool_specs = [t.spec for t in tools]
        # The static prompt is composed once here; the appendix follows the instruction files and the
        # paths the tools touch, re-checked before every model request (SPEC sections 4 and 5).
        self.prompt = SystemPromptBuilder(
            workspace=options.workspace,
            home=options.home,
            settings=settings,
            tools=self.tool_specs,
            user_home=user_home(options.env),
            on_diagnostics=self._instruction_diagnostics,
        )
        self.cache_key = self.prompt.cache_key
        # A resumed session keeps the instruction scope of the files it already worked on.
        self.prompt.note_touched(touched_paths(self.state.messages, str(options.workspace)))
        self.dispatcher = ToolDispatcher(
            tools=tools,
            context=ToolContext(workspace=options.workspace),
            policy=ApprovalPolicy(
                mode=settings.agent.approval,
                allow=tuple(settings.approvals.allow),
                deny=tuple(settings.approvals.deny),
                headless=options.headless,
            ),
            emitter=emitter,
            on_touched=self.prompt.note_touched,
        )
        self.runner = TurnRunner(
            model_client=self.client,
            model=self.model,
            system=self.prompt.build,
            tools=self.tool_specs,
            dispatcher=self.dispatcher,
            emitter=emitter,
            state=self.state,
            checkpoint=self._checkpoint,
            clock=clock,
            max_requests=settings.agent.max_turns,
            max_output_tokens=settings.agent.max_output_tokens
            or settings.model_settings(self.model).max_output_tokens,
            reasoning_effort=settings.agent.reasoning_effort,
            cache_key=self.cache_key,
        )
        emitter.subscribe(self._record_event)

    def _notice(self, message: str) -> None:
        self.emitter.emit(Notice(level="warning", message=message))

    def _instruction_diagnostics(self, found: Sequence[Diagnostic]) -> None:
        for diagnostic in found:
            self._notice(f"instructions: {diagnostic.path}: {diagnostic.reason}")

    def _record_event(self, event: Event) -> None:
        if self.handle is not None:
            self.handle.append_event(event)

    def _checkpoint(self, messages: Sequence[Message], turn: int) -> None:
        assert self.handle is not None
        self.handle.append_messages(messages, turn)

    @property
    def session_id(self) -> str | None:
        """The stored session's id once it exists."""
        return self.handle.info.id if self.handle else None

    async def run(self, prompt: str) -> TurnOutcome:
        """Run one user turn, creating the stored session on the first one."""
        if self.handle is None:
            self.handle = self.store.create(
                self.options.workspace, prompt, model=self.model, provider=self.provider_name
            )
        self.emitter.emit(
            ThreadStarted(
                thread_id=self.handle.info.id,
                workspace=str(self.options.workspace),
                resumed=self._resumed,
            )
        )
        if not self.info.known:
            self._notice(
                f"model {self.model!r} is not in the catalog; assuming a {self.info.context_window:,}-token "
                f'context window (set [models."{self.model}"] context_window to change it)'
            )
        return await self.runner.run(prompt)

    async def aclose(self) -> None:
        """Release command sessions, the provider connection and the store."""
        await self.toolset.aclose()
        await self.client.aclose()
        if self.handle is not None:
            self.handle.close()
