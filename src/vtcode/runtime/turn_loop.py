"""The turn loop of one session, parent or subagent: the runner and its compactor, hooked together.

Built once per session by the wiring and once per child by the subagent wiring, so both get the same
limits, request shape and compaction rules.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from vtcode.config.schema import Settings
from vtcode.protocol.model import ToolSpec
from vtcode.providers.base import ModelClient
from vtcode.providers.catalog import ModelInfo
from vtcode.runtime.bounded_calls import bounded_message
from vtcode.runtime.compaction import Compactor
from vtcode.runtime.emitter import Emitter
from vtcode.runtime.hooks import TurnHooks
from vtcode.runtime.stored_history import StoredHistory
from vtcode.runtime.system_prompt import SystemPromptBuilder
from vtcode.runtime.tool_dispatch import ToolDispatcher
from vtcode.runtime.turn import ConversationState, TurnRunner

if TYPE_CHECKING:
    from vtcode.runtime.lifecycle_hooks import LifecycleHooks


@dataclass(frozen=True)
class TurnLoop:
    """A session's turn runner, its compactor, and the hooks that join them."""

    hooks: TurnHooks
    runner: TurnRunner
    compactor: Compactor


def turn_loop(
    *,
    client: ModelClient,
    model: str,
    settings: Settings,
    info: ModelInfo,
    workspace: Path,
    prompt: SystemPromptBuilder,
    tools: Sequence[ToolSpec],
    dispatcher: ToolDispatcher,
    emitter: Emitter,
    state: ConversationState,
    history: StoredHistory,
    clock: Callable[[], float],
    max_requests: int,
    lifecycle: LifecycleHooks | None = None,
    output_schema: Mapping[str, Any] | None = None,
) -> TurnLoop:
    """The runner for `model` with `tools`, compacting `history` before requests and on overflow."""
    hooks = TurnHooks()
    runner = TurnRunner(
        model_client=client,
        model=model,
        system=prompt.build,
        tools=tools,
        dispatcher=dispatcher,
        emitter=emitter,
        state=state,
        history=history,
        clock=clock,
        max_requests=max_requests,
        context_window=info.context_window,
        max_output_tokens=settings.agent.max_output_tokens
        or settings.model_settings(model).max_output_tokens,
        reasoning_effort=settings.agent.reasoning_effort,
        cache_key=prompt.cache_key,
        images=info.images,
        hooks=hooks,
        history_copy=functools.partial(bounded_message, workspace),
        lifecycle=lifecycle,
        output_schema=output_schema,
    )
    compactor = Compactor(
        client=client,
        model=model,
        settings=settings,
        window=info.context_window,
        workspace=workspace,
        history=history,
        emitter=emitter,
        clock=clock,
        current_request=runner.build_request,
    )
    compactor.hooks = lifecycle
    hooks.before_request.append(compactor.before_request)
    hooks.context_overflow.append(compactor.on_overflow)
    return TurnLoop(hooks, runner, compactor)
