"""The settings schema: every key of `vtcode.toml`, its type, range and default (SPEC section 3).

The Structs are the single source of truth: the loader walks their type information to reject unknown
keys, wrong types and out-of-range values with a message naming the file and key, so a constraint
written here is enforced (and described to the user) without any other code knowing about it. A range
that `msgspec.Meta` cannot express carries `extra={"accept": predicate, "expected": text}`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Literal

import msgspec

from vtcode.core.approvals import ApprovalMode
from vtcode.core.exec.environment_policy import EnvironmentPolicy
from vtcode.core.hooks.matching import matcher_error
from vtcode.core.hooks.model import SNAKE_EVENTS, HookHandler
from vtcode.core.pricing import Price
from vtcode.core.provider_settings import ProviderSettings
from vtcode.core.sandbox_policy import SandboxMode
from vtcode.protocol.model import ReasoningEffort

BUILTIN_PROVIDERS: tuple[str, ...] = ("anthropic", "gemini", "ollama", "openai", "openai-compatible")
"""Provider names that need no `[providers.<name>]` table."""

SystemPromptMode = Literal["default", "minimal", "lightweight", "specialized"]
# `[agent] wire_api` chooses between OpenAI's two formats; `[providers.X]` may also speak Anthropic's.
OpenAIWireApi = Literal["chat", "responses"]

NonNegativeInt = Annotated[int, msgspec.Meta(ge=0)]
PositiveInt = Annotated[int, msgspec.Meta(ge=1)]
PositiveFloat = Annotated[float, msgspec.Meta(gt=0)]


def _zero_or_at_least_15(value: int) -> bool:
    """Whether a long-running ceiling is 0 ("use the default ceiling") or a usable 15 s or more."""
    return value == 0 or value >= 15


# Below 15 s a "long-running" command would be cut off sooner than an ordinary one (reference
# exec-spool-release.md, timeouts table); 0 keeps its meaning of "fall back to the default ceiling".
LongRunningCeiling = Annotated[
    int,
    msgspec.Meta(
        ge=0,
        le=3600,
        extra={"accept": _zero_or_at_least_15, "expected": "0 or an integer between 15 and 3600"},
    ),
]


class HarnessSettings(msgspec.Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """`[agent.harness]`: when and how the conversation is compacted (SPEC section 6)."""

    auto_compaction_enabled: bool = True
    # None derives the threshold from the model's context window and `context.max_context_tokens`.
    auto_compaction_threshold_tokens: NonNegativeInt | None = None
    auto_compaction_instructions: str | None = None
    auto_compaction_pause_after: bool = False
    compact_on_model_switch: bool = True


class AgentSettings(msgspec.Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """`[agent]`: which model runs, how it is prompted and what it may do without asking."""

    provider: str | None = None
    model: str | None = None
    base_url: str | None = None
    wire_api: OpenAIWireApi | None = None
    system_prompt_mode: SystemPromptMode = "default"
    approval: ApprovalMode = "auto-edit"
    max_turns: PositiveInt = 100
    user_instructions: str | None = None
    instruction_files: tuple[str, ...] = ()
    instruction_excludes: tuple[str, ...] = ()
    instruction_max_bytes: NonNegativeInt = 16384
    # SPEC section 5 caps `@` import depth; 0 would make every import a diagnostic.
    instruction_import_max_depth: PositiveInt = 5
    reasoning_effort: ReasoningEffort | None = None
    max_output_tokens: PositiveInt | None = None
    include_temporal_context: bool = True
    include_working_directory: bool = True
    harness: HarnessSettings = msgspec.field(default_factory=HarnessSettings)
    # Budgets of one run (`--max-budget-usd`, `--max-tokens-total`): warned at 80 %, stopped at 100 %.
    max_budget_usd: PositiveFloat | None = None
    max_tokens_total: PositiveInt | None = None


class DynamicContextSettings(msgspec.Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """`[context.dynamic]`: persisted history artifacts and tool-output spooling."""

    enabled: bool = True
    persist_history: bool = True
    # The user's own messages kept verbatim through compaction, in estimated tokens (oldest shortened
    # first past it). Replaces the count `retained_user_messages`, still accepted but ignored.
    retained_user_tokens: NonNegativeInt = 4_000
    retained_user_messages: PositiveInt | None = None
    tool_output_threshold: Annotated[int, msgspec.Meta(ge=1024)] = 8192


class ContextSettings(msgspec.Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """`[context]`: the session's token budget."""

    # 0 means "not configured": the model's context window alone decides.
    max_context_tokens: NonNegativeInt = 160_000
    dynamic: DynamicContextSettings = msgspec.field(default_factory=DynamicContextSettings)


class TimeoutSettings(msgspec.Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """`[timeouts]`: ceilings for tool calls and command sessions, in seconds."""

    default_ceiling_seconds: NonNegativeInt = 180
    long_running_command_ceiling_seconds: LongRunningCeiling = 3600
    wait_default_seconds: Annotated[int, msgspec.Meta(ge=1, le=3600)] = 600


class NetworkSettings(msgspec.Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """`[network]`: provider connection timeouts and the retry budget."""

    connect_timeout_seconds: PositiveFloat = 10.0
    stream_idle_timeout_seconds: PositiveFloat = 300.0
    # Whole-response ceiling: keep-alive comments reset the idle timeout, never this one.
    response_deadline_seconds: PositiveFloat = 900.0
    max_retries: Annotated[int, msgspec.Meta(ge=0, le=20)] = 4
    # Total wall-clock budget for all retries of one request, so backoff cannot stall a turn forever.
    max_retry_seconds: PositiveFloat = 120.0


class PtySettings(msgspec.Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """`[pty]`: command sessions run in pseudo-terminals (SPEC section 8)."""

    enabled: bool = True
    default_rows: PositiveInt = 24
    default_cols: PositiveInt = 80
    max_sessions: Annotated[int, msgspec.Meta(ge=1, le=256)] = 16
    preferred_shell: str | None = None
    spool_max_bytes: PositiveInt = 512 * 1024 * 1024


class ApprovalSettings(msgspec.Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """`[approvals]`: command prefixes or globs that run without asking, and ones that never run."""

    allow: tuple[str, ...] = ()
    deny: tuple[str, ...] = ()


class ToolsSettings(msgspec.Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """`[tools]`: built-in tools that can be turned off (`web_fetch = false`)."""

    web_fetch: bool = True
    # The plan tool costs its definition in every request; models that track work without it do better.
    update_plan: bool = True


def _absolute_or_home(value: str) -> bool:
    """Whether a writable root is an absolute path or starts with `~/` (the user's home)."""
    return value.startswith("/") or value == "~" or value.startswith("~/")


WritableRoot = Annotated[
    str,
    msgspec.Meta(extra={"accept": _absolute_or_home, "expected": "an absolute path or one starting with ~/"}),
]


class SandboxSettings(msgspec.Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """`[sandbox]`: the OS sandbox every command runs in (Linux: Landlock and namespaces)."""

    mode: SandboxMode = "workspace-write"
    network: bool = False
    writable_roots: tuple[WritableRoot, ...] = ()
    # Named Unix sockets commands may still connect to with the network off (tmux, ssh-agent, ...).
    allow_unix_sockets: tuple[WritableRoot, ...] = ()
    # Commands the user types with `!cmd` run outside the sandbox (user authority) unless this is on.
    confine_user_commands: bool = False


class InstructionSourceSettings(msgspec.Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """`[instructions]`: switches for the cross-tool instruction sources of SPEC section 5 item 8."""

    claude_rules: bool = True  # .claude/rules/ and CLAUDE.local.md
    cursor_rules: bool = True  # .cursor/rules/ (nested ones too) and .cursorrules
    copilot_instructions: bool = True  # .github/instructions/ and .github/copilot-instructions.md


class SkillsSettings(msgspec.Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """`[skills]`: skills and custom commands (`paths` only from the user's own file)."""

    enabled: bool = True
    # More skill folders (each holds `<name>/SKILL.md`), searched after the user's own.
    paths: tuple[str, ...] = ()
    # The catalog's share of the context window (4 characters a token), kept within 2,000-8,000 chars.
    catalog_budget: Annotated[float, msgspec.Meta(ge=0, le=1)] = 0.02


class ModelSettings(msgspec.Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """`[models."<name>"]`: per-model overrides of the shipped model catalog."""

    context_window: PositiveInt | None = None
    max_output_tokens: PositiveInt | None = None


class McpServerSettings(msgspec.Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """`[mcp_servers.<name>]`: an MCP server started over stdio (`command`) or reached by URL (`url`)."""

    command: str | None = None
    args: tuple[str, ...] = ()
    env: dict[str, str] = msgspec.field(default_factory=dict)
    cwd: str | None = None
    url: str | None = None
    headers: dict[str, str] = msgspec.field(default_factory=dict)
    # The name of an environment variable holding a bearer token (never the token itself).
    bearer_token_env_var: str | None = None
    enabled: bool = True
    startup_timeout_seconds: PositiveFloat = 10.0
    tool_timeout_seconds: PositiveFloat = 60.0
    enabled_tools: tuple[str, ...] | None = None
    disabled_tools: tuple[str, ...] = ()


class McpSettings(msgspec.Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """`[mcp]`: how MCP servers join a session."""

    # How long the first model request waits for servers still starting before it goes without them.
    startup_grace_seconds: Annotated[float, msgspec.Meta(ge=0)] = 3.0
    # Treat tools annotated `readOnlyHint` as reads (no approval); the server says so, vtcode cannot check.
    trust_read_only_hints: bool = False


class AgentsSettings(msgspec.Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """`[agents]`: subagents started by the `task` tool (definitions in `.vtcode/agents/*.md`)."""

    # Offer the `task` tool at all.
    enabled: bool = True
    # How many children of one session run at once; further `task` calls of a batch wait for a slot.
    max_concurrent: Annotated[int, msgspec.Meta(ge=1, le=32)] = 4


class ProjectSettings(msgspec.Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """`[projects."/abs/path"]`: what the user trusts a project with."""

    # Start the servers of the project's `.mcp.json` ...
    trust_mcp: bool = False
    # ... each only while its definition hashes to the value recorded here when the user trusted it
    # (name -> "sha256:<hex>"): a server a command or a pull added or changed asks again.
    mcp_server_hashes: dict[str, str] = msgspec.field(default_factory=dict)
    # Workspace and imported hooks the user trusted, by digest (`vtcode hooks trust`).
    hooks: dict[str, Literal["trusted"]] = msgspec.field(default_factory=dict)


def _valid_matcher(value: str) -> bool:
    """Whether a hook matcher is a name, a list of names or a regular expression that compiles."""
    return matcher_error(value) is None


Matcher = Annotated[
    str,
    msgspec.Meta(
        extra={
            "accept": _valid_matcher,
            "expected": 'a tool name, a list such as "Edit|Write", or a valid regular expression',
        }
    ),
]


class HookGroupSettings(msgspec.Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """`[[hooks.EVENT]]`: a matcher and the handlers it runs."""

    matcher: Matcher = ""
    hooks: tuple[HookHandler, ...] = ()


HookImport = Literal["claude", "codex", "gemini"]
HookGroups = tuple[HookGroupSettings, ...]


class _HooksOptions(msgspec.Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """What `[hooks]` holds besides the groups: which peers' hook files to import (user file only)."""

    import_: tuple[HookImport, ...] = msgspec.field(default=(), name="import")


# `[hooks]`: `_HooksOptions` and, for each event of `core.hooks.model.HOOK_EVENTS` (the one list of event
# names), its `[[hooks.EVENT]]` groups, default none. The groups of all files add up here;
# `LoadedConfig.hook_layers` also keeps them with the file they came from, since trust depends on the
# file. They are read by event name (`config.hook_layers`), never as attributes: the type checker needs
# only `_HooksOptions`.
if TYPE_CHECKING:
    HooksSettings = _HooksOptions
else:
    HooksSettings = msgspec.defstruct(
        "HooksSettings",
        [(snake, HookGroups, msgspec.field(default=(), name=event)) for snake, event in SNAKE_EVENTS.items()],
        bases=(_HooksOptions,),
        module=__name__,
        frozen=True,
        forbid_unknown_fields=True,
        kw_only=True,
    )


class CheckpointSettings(msgspec.Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """`[checkpoints]`: tree snapshots that let a rewind undo commands too (pre-images are always kept)."""

    tree: bool = True
    # Files over this size and untracked folders with more files are left out of snapshots (warned once).
    max_file_mb: PositiveInt = 2
    max_untracked_folder_files: PositiveInt = 200
    # Disk the private snapshot repository may use before vtcode asks for `vtcode checkpoints gc`.
    quota_mb: PositiveInt = 2048
    # `vtcode checkpoints gc` drops the checkpoints of sessions not updated for this many days.
    keep_days: PositiveInt = 7


class Settings(msgspec.Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """The whole configuration after layering: what the rest of vtcode reads."""

    agent: AgentSettings = msgspec.field(default_factory=AgentSettings)
    context: ContextSettings = msgspec.field(default_factory=ContextSettings)
    timeouts: TimeoutSettings = msgspec.field(default_factory=TimeoutSettings)
    network: NetworkSettings = msgspec.field(default_factory=NetworkSettings)
    pty: PtySettings = msgspec.field(default_factory=PtySettings)
    approvals: ApprovalSettings = msgspec.field(default_factory=ApprovalSettings)
    tools: ToolsSettings = msgspec.field(default_factory=ToolsSettings)
    sandbox: SandboxSettings = msgspec.field(default_factory=SandboxSettings)
    shell_environment_policy: EnvironmentPolicy = msgspec.field(default_factory=EnvironmentPolicy)
    instructions: InstructionSourceSettings = msgspec.field(default_factory=InstructionSourceSettings)
    models: dict[str, ModelSettings] = msgspec.field(default_factory=dict)
    providers: dict[str, ProviderSettings] = msgspec.field(default_factory=dict)
    mcp: McpSettings = msgspec.field(default_factory=McpSettings)
    mcp_servers: dict[str, McpServerSettings] = msgspec.field(default_factory=dict)
    projects: dict[str, ProjectSettings] = msgspec.field(default_factory=dict)
    hooks: HooksSettings = msgspec.field(default_factory=HooksSettings)
    skills: SkillsSettings = msgspec.field(default_factory=SkillsSettings)
    agents: AgentsSettings = msgspec.field(default_factory=AgentsSettings)
    checkpoints: CheckpointSettings = msgspec.field(default_factory=CheckpointSettings)
    # `[pricing."MODEL"]`: list prices (USD per million tokens) over the shipped table.
    pricing: dict[str, Price] = msgspec.field(default_factory=dict)

    def model_settings(self, model: str) -> ModelSettings:
        """The overrides configured for `model`, or an empty override when there are none."""
        return self.models.get(model, ModelSettings())
