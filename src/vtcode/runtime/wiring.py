"""Everything a session is made of, built synchronously (the session runs this in a worker thread).

Config, provider choice (which may probe a local Ollama), the store (a resumed history is replayed and
repaired), the tool set, the system prompt (instruction files are read) and the turn loop.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from vtcode.config.sandbox import sandbox_policy
from vtcode.config.schema import Settings
from vtcode.core.approvals import ApprovalPolicy
from vtcode.core.compaction.envelope import PendingIntent
from vtcode.core.hooks.model import HookSet
from vtcode.core.instructions.model import Diagnostic
from vtcode.core.steering import unanswered_prompt
from vtcode.core.touched_paths import touched_paths
from vtcode.core.usage_ledger import SOURCE_COMPACTION, SOURCE_MAIN
from vtcode.exec.git_query import PendingGitQuery
from vtcode.exec.git_repo import GitAccess
from vtcode.mcp.servers import plan_servers
from vtcode.protocol.events import ThreadStarted
from vtcode.protocol.messages import UserMessage
from vtcode.providers.base import ModelClient
from vtcode.runtime.approval_port import ApprovalPort
from vtcode.runtime.checkpoint_wiring import attach_checkpoints
from vtcode.runtime.compaction_files import archive_reader
from vtcode.runtime.emitter import Emitter
from vtcode.runtime.environment import environment_context
from vtcode.runtime.file_mentions import attach_file_mentions
from vtcode.runtime.leftovers import end_leftover_groups, record_groups
from vtcode.runtime.plan_state import PlanState
from vtcode.runtime.providers import build_client, choose_provider, model_info, resumed_settings
from vtcode.runtime.session_parts import LoopSetup, Wiring
from vtcode.runtime.session_resume import (
    note_model_change,
    recover_intents,
    replay_history,
    stored_session,
)
from vtcode.runtime.skills_start import session_skills
from vtcode.runtime.stored_history import StoredHistory
from vtcode.runtime.subagent_label import labelled
from vtcode.runtime.subagents import task_tool
from vtcode.runtime.system_prompt import SystemPromptBuilder
from vtcode.runtime.tool_dispatch import ToolDispatcher
from vtcode.runtime.toolset import build_toolset
from vtcode.runtime.turn import ConversationState
from vtcode.runtime.usage_tracking import UsageTracking
from vtcode.runtime.workspace_scope import WorkspaceScope, user_home
from vtcode.store.session import SessionHandle, SessionStore
from vtcode.store.status import held_at_close
from vtcode.tools.base import TextBuffers, Tool, ToolContext
from vtcode.tools.patch_journal import JOURNAL_DIR_NAME, recover_interrupted_edits

# `Wiring` is re-exported: the session and the front ends know it as the product of `wire`.
__all__ = ["SessionOptions", "Wiring", "wire"]

if TYPE_CHECKING:
    from vtcode.runtime.callable_hooks import CallableHook
    from vtcode.runtime.lifecycle_hooks import LifecycleHooks
    from vtcode.runtime.tool_hooks import ToolHooks


@dataclass(frozen=True)
class SessionOptions:
    """What a front end decided: where, with which settings, and which session.

    `env` is the environment the front end was given: provider keys are read from it and commands
    inherit it (less keys). `headless` front ends cannot answer approvals: "ask" becomes a denial with
    the reason given to the model. `extra_tools` are offered after the built-in tools.
    """

    workspace: Path
    settings: Settings
    home: Path
    env: Mapping[str, str]
    resume: str | None = None
    continue_last: bool = False
    headless: bool = True
    extra_tools: Sequence[Tool] = field(default_factory=tuple)
    # A headless run ends once no input is pending after a turn (SPEC section 7: `vtcode exec` applies
    # every intent accepted before its last turn ends, then exits; later ones wait for `--resume`).
    until_idle: bool = False
    # Start the servers of the workspace's `.mcp.json` (`--trust-project-mcp`) without a config entry.
    trust_project_mcp: bool = False
    # Config keys that were ignored or are deprecated (LoadedConfig), shown as warning notices.
    config_warnings: tuple[str, ...] = ()
    # An editor's view of the files (ACP): `read_file` sees unsaved buffers instead of the disk.
    buffers: TextBuffers | None = None
    # Lifecycle hooks from every source, trusted or not (config.hook_sources.load_hooks).
    hooks: HookSet = field(default_factory=HookSet)
    # `--output-schema`: the JSON Schema every final answer must validate against.
    output_schema: Mapping[str, Any] | None = None
    # Which of `agent.provider` / `agent.model` a resumed session keeps from its last run (the CLI: those
    # the command line and environment do not name); the others come from `settings`.
    keep_stored: frozenset[str] = frozenset()
    # `--add-dir` folders (absolute): the file tools accept paths inside them as well as the workspace's.
    added_dirs: tuple[Path, ...] = ()
    # `--ephemeral`: store nothing under $VTCODE_HOME/sessions (no resume, no steering from elsewhere).
    ephemeral: bool = False
    # A subagent's session (runtime/subagents): it shares its parent's model client and process-group
    # registry, so closing it closes neither.
    subagent: bool = False
    # A child session (a subagent): its calls go into the parent's account and budget under this source
    # (`core.usage_ledger.subagent_source(id)`), not into an account of its own.
    usage_parent: UsageTracking | None = None
    usage_source: str = SOURCE_MAIN
    # In-process hooks of an embedding program (the SDK's typed hooks), run by the one hook dispatcher.
    callable_hooks: Sequence[CallableHook] = ()

    def scope(self, settings: Settings | None = None) -> WorkspaceScope:
        """Where a session opened with these options works from; `settings` are those in effect when they
        are not `self.settings` (a resumed session keeps some of its stored ones)."""
        return WorkspaceScope(
            settings=self.settings if settings is None else settings,
            workspace=self.workspace,
            home=self.home,
            user_home=user_home(self.env),
        )


def wire(
    options: SessionOptions,
    emitter: Emitter,
    *,
    client: ModelClient | None,
    clock: Callable[[], float],
    new_id: Callable[[], str],
) -> Wiring:
    """Build a session's parts; blocking I/O, raises `VtcodeError` for what the user must fix."""
    store = SessionStore(options.home, clock, new_id)
    # A resumed session is claimed first: one another vtcode process still writes is refused at once.
    handle = stored_session(
        store, options.workspace, resume=options.resume, continue_last=options.continue_last
    )
    # The repository vtcode's own git may run on is pinned now, before any command of this session ran.
    access = GitAccess(
        options.workspace,
        options.env,
        writable_roots=sandbox_policy(options.settings, options.env).writable_roots,
    )
    # `git status` runs while the rest is built; only the environment context, built last, needs it.
    git = PendingGitQuery(options.workspace, git=access)
    try:
        return _wire(
            options,
            emitter,
            git,
            access,
            store=store,
            handle=handle,
            client=client,
            clock=clock,
            new_id=new_id,
        )
    except BaseException:
        if handle is not None:
            handle.close()  # a caller that tries again in this process must find the session free
        raise
    finally:
        git.close()


def _wire(
    options: SessionOptions,
    emitter: Emitter,
    git: PendingGitQuery,
    access: GitAccess,
    *,
    store: SessionStore,
    handle: SessionHandle | None,
    client: ModelClient | None,
    clock: Callable[[], float],
    new_id: Callable[[], str],
) -> Wiring:
    settings = options.settings

    notice = emitter.warn

    def diagnostics(found: Sequence[Diagnostic]) -> None:
        for diagnostic in found:
            notice(f"instructions: {diagnostic.path}: {diagnostic.reason}")

    if handle is not None:
        settings = resumed_settings(settings, handle.info, options.keep_stored)
    choice = choose_provider(settings, options.env)
    state = ConversationState(messages=[])
    thread_id = handle.info.id if handle is not None else new_id()
    emitter.emit(
        ThreadStarted(thread_id=thread_id, workspace=str(options.workspace), resumed=handle is not None)
    )
    # After `thread.started`, which is always the first event of a run.
    for warning in options.config_warnings:
        notice(warning)
    history = StoredHistory(
        store,
        session_id=thread_id,
        workspace=options.workspace,
        model=choice.model,
        provider=choice.name,
        handle=handle,
        ephemeral=options.ephemeral,
    )
    recovered: tuple[PendingIntent, ...] = ()
    held = False
    unanswered: UserMessage | None = None
    mcp = plan_servers(settings, options.workspace, trust_project=options.trust_project_mcp)
    for text in mcp.diagnostics:
        notice(f"mcp: {text}")
    if handle is not None:
        note_model_change(handle, choice.name, choice.model, notice)
        recorded = replay_history(handle, options.workspace, state, notice)
        recovered = recover_intents(handle, state, recorded, notice)
        held = bool(recovered) and held_at_close(handle.events_path) == "interrupted"
        unanswered = unanswered_prompt(state.messages)
    info = model_info(settings, choice.model)
    if not info.known and _first_time(options.home, f"unknown-model {choice.model} {info.context_window}"):
        notice(
            f"model {choice.model!r} is not in the catalog; assuming a {info.context_window:,}-token "
            f'context window (set [models."{choice.model}"] context_window to change it); said once '
            "per model and window"
        )
    model_client = client or build_client(choice, settings, notify=labelled(notice), env=options.env)
    # Before this run records its own command groups: end what killed runs of this session or
    # workspace left running (their command sessions had no vtcode left to end them).
    ended = end_leftover_groups(store, options.workspace, thread_id)
    if ended is not None:
        notice(ended)
    # Before any tool runs: an edit set a crash interrupted is rolled back (all or nothing).
    journal_dir = options.home / JOURNAL_DIR_NAME
    for message in recover_interrupted_edits(journal_dir, options.workspace, options.added_dirs):
        notice(message)
    plan = PlanState(history, emitter)
    for problem in plan.load():
        notice(problem)
    toolset = build_toolset(
        settings,
        options.workspace,
        options.env,
        options.extra_tools,
        notify=notice,
        archive=archive_reader(history),
        plan=plan,
    )
    if not options.ephemeral:
        record_groups(toolset.sessions, store, thread_id)
    task = task_tool(options, settings, toolset.tools, notice)
    if task is not None:
        # After the built-in tools, before the front end's own (extra) ones.
        toolset.tools.insert(len(toolset.tools) - len(options.extra_tools), task)
    scope = options.scope(settings)
    skills = session_skills(scope, info.context_window, notice)
    skill_tool = skills.tool() if skills is not None else None
    if skill_tool is not None:
        toolset.tools.insert(len(toolset.tools) - len(options.extra_tools), skill_tool)
    tool_specs = [t.spec for t in toolset.tools]
    # The static prompt is composed once here; the appendix follows the instruction files and the
    # paths the tools touch, re-checked before every model request (SPEC sections 4 and 5).
    prompt = SystemPromptBuilder(
        scope,
        tools=tool_specs,
        on_diagnostics=diagnostics,
        git=access,
        catalog=skills.catalog_text if skills is not None else "",
    )
    # A resumed session keeps the instruction scope of the files it already worked on.
    prompt.note_touched(touched_paths(state.messages, str(options.workspace)))
    approvals = ApprovalPort()
    tool_hooks, lifecycle = _hooks(options, emitter, thread_id, choice.model)
    dispatcher = ToolDispatcher(
        tools=toolset.tools,
        context=ToolContext(
            workspace=options.workspace,
            buffers=options.buffers,
            git=access,
            journal_dir=journal_dir,
            extra_roots=options.added_dirs,
        ),
        policy=ApprovalPolicy(
            mode=settings.agent.approval,
            allow=tuple(settings.approvals.allow),
            deny=tuple(settings.approvals.deny),
            headless=options.headless,
        ),
        emitter=emitter,
        on_touched=prompt.note_touched,
        approvals=None if options.headless else approvals,
        hooks=tool_hooks,
    )
    dispatcher.confine_user_commands = settings.sandbox.confine_user_commands
    if tool_hooks is not None:
        tool_hooks.dispatch.permission_mode = lambda: dispatcher.policy.mode
    usage = UsageTracking(settings, model_client, history, notify=emitter.emit, parent=options.usage_parent)
    context = environment_context(settings, options.workspace, clock, git=git.result())
    wiring = Wiring.assemble(
        options,
        thread_id=thread_id,
        model=choice.model,
        provider_name=choice.name,
        info=info,
        client=model_client,
        history=history,
        state=state,
        toolset=toolset,
        prompt=prompt,
        dispatcher=dispatcher,
        approvals=approvals,
        loop=LoopSetup(
            settings=settings,
            emitter=emitter,
            clock=clock,
            client=usage.client(options.usage_source),
            max_requests=settings.agent.max_turns,
            # A child session's compactions count as the child's.
            compaction_client=usage.client(
                SOURCE_COMPACTION if options.usage_parent is None else options.usage_source
            ),
            lifecycle=lifecycle,
        ),
        usage=usage,
        environment=context,
    )
    wiring.recovered, wiring.held, wiring.unanswered = recovered, held, unanswered
    wiring.mcp, wiring.plan, wiring.skills = mcp, plan, skills
    if skills is not None:
        from vtcode.runtime.skills import attach_skills, skill_mention_hook

        attach_skills(
            skills, dispatcher=dispatcher, runner=wiring.runner, hooks=wiring.hooks,
            compactor=wiring.compactor,
            new_hooks=lambda: _hooks(options, emitter, thread_id, choice.model, always=True),
        )  # fmt: skip
        wiring.hooks.turn_start.append(skill_mention_hook(skills, emitter.inform))
        skills.warn_unknown = options.headless
    if skills is not None and skills.path_scoped:
        from vtcode.runtime.skill_paths import attach_path_skills

        attach_path_skills(
            skills, hooks=wiring.hooks, project_root=prompt.options.project_root, history=state.messages,
            inform=emitter.inform,
        )  # fmt: skip
    if options.usage_parent is None:  # a person's prompts, not a subagent's task text
        attach_file_mentions(
            wiring.hooks, options.workspace, inform=emitter.inform, touched=prompt.note_touched,
            headless=options.headless,
        )  # fmt: skip
    attach_checkpoints(
        options, thread_id=thread_id, dispatcher=dispatcher, hooks=wiring.hooks, history=history,
        access=access, emitter=emitter, clock=clock, commands=wiring.toolset.sessions,
    )  # fmt: skip
    if task is not None:
        task.bind(wiring, emitter, clock=clock, new_id=new_id)
    return wiring


def _hooks(
    options: SessionOptions, emitter: Emitter, thread_id: str, model: str, *, always: bool = False
) -> tuple[ToolHooks | None, LifecycleHooks | None]:
    """The session's hooks around tool calls and at its boundaries, over one dispatcher; (None, None)
    without hooks, and then none of the hook machinery is even imported. Untrusted hooks are reported
    here, once. `always`: a dispatcher even without hooks (a skill's frontmatter hooks join it)."""
    if not options.hooks and not options.callable_hooks and not always:
        return None, None
    from vtcode.runtime.hook_dispatch import HookDispatch
    from vtcode.runtime.lifecycle_hooks import LifecycleHooks
    from vtcode.runtime.tool_hooks import ToolHooks

    dispatch = HookDispatch(
        options.hooks,
        workspace=options.workspace,
        env=options.env,
        emitter=emitter,
        session_id=thread_id,
        model=model,
        transcript_path=str(options.home / "sessions" / thread_id / "history.jsonl"),
        callables=options.callable_hooks,
    )
    dispatch.report_untrusted()
    return ToolHooks(dispatch), LifecycleHooks(dispatch)


def _first_time(home: Path, what: str) -> bool:
    """True the first time `what` is asked about under this home (remembered in `notices/`)."""
    marker = home / "notices" / hashlib.sha256(what.encode()).hexdigest()[:24]
    if marker.exists():
        return False
    try:
        marker.parent.mkdir(parents=True, exist_ok=True)
        marker.write_text(what + "\n")
    except OSError:
        pass  # a read-only home: say it every time rather than never
    return True
