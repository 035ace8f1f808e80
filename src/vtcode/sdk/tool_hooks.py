"""Typed hooks that decide: `pre_tool` (block, allow, rewrite the arguments), `post_tool` (add what
the model reads with a result) and `pre_compact` (block a compaction).

They run in the runtime's one hook dispatcher, after the configured command hooks of the same event
(`runtime.callable_hooks`), so the two kinds combine by one rule: deny beats ask beats allow, and the
dispatcher checks rewritten arguments against the tool's schema before the call is approved as the
call it now is. Hooks of one kind run in the order given, each seeing the arguments the one before
left; a block stops the chain. A `pre_tool` hook that raises or overruns its timeout blocks the call
(fail closed); the others are reported as a warning notice and the turn goes on.
"""

from __future__ import annotations

import inspect
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Generic, Literal, TypeVar

if TYPE_CHECKING:
    from vtcode.core.hooks.outcome import HookResult as RuntimeResult
    from vtcode.runtime.callable_hooks import CallableHook
    from vtcode.sdk.hooks import Hooks

T = TypeVar("T")
DEFAULT_HOOK_TIMEOUT = 60.0


@dataclass(frozen=True)
class PreTool:
    """A tool call about to be approved and run: its tool, its arguments (as the model sent them, or as
    an earlier hook rewrote them) and the model's call id."""

    tool: str
    args: dict[str, Any]
    call_id: str
    session_id: str


@dataclass(frozen=True)
class PostTool:
    """A tool call that ran: its arguments and the result the model is about to read."""

    tool: str
    args: dict[str, Any]
    call_id: str
    session_id: str
    result: str
    is_error: bool
    exit_code: int | None = None


@dataclass(frozen=True)
class PreCompact:
    """A compaction of the history is about to run (`trigger`: "manual" or "auto")."""

    trigger: str
    session_id: str


@dataclass(frozen=True)
class HookResult:
    """What a typed hook decides. Returning None is `HookResult.proceed()`."""

    action: Literal["proceed", "allow", "block"] = "proceed"
    reason: str = ""
    # `pre_tool`: the arguments to run the call with instead (checked against the tool's schema).
    args: dict[str, Any] | None = None
    # Text the model reads with the call's result (`pre_tool`, `post_tool`).
    context: str = ""

    @classmethod
    def proceed(cls, context: str = "") -> HookResult:
        """Change nothing (the approval mode and rules decide)."""
        return cls(context=context)

    @classmethod
    def block(cls, reason: str) -> HookResult:
        """Refuse the call (or the compaction); `reason` is what the model reads."""
        return cls("block", reason)

    @classmethod
    def allow(cls, reason: str = "") -> HookResult:
        """Run the call without asking; never overrides a deny rule or the read-only mode."""
        return cls("allow", reason)

    @classmethod
    def rewrite(cls, args: dict[str, Any], reason: str = "") -> HookResult:
        """Run the call with `args` instead; approved again as the call it now is."""
        return cls("proceed", reason, args=args)


Callback = Callable[[T], "HookResult | Awaitable[HookResult | None] | None"]


@dataclass(frozen=True)
class HookSpec(Generic[T]):
    """A hook with a matcher (tool names, `a|b`, or a regular expression; "" matches all) and a timeout."""

    callback: Callback[T]
    matcher: str = ""
    timeout: float = DEFAULT_HOOK_TIMEOUT


Hook = Callback[T] | HookSpec[T]


def callable_hooks(hooks: Hooks, session_id: Callable[[], str]) -> tuple[CallableHook, ...]:
    """The runtime's in-process hooks for the deciding hooks of `hooks`."""
    from vtcode.runtime.callable_hooks import CallableHook

    made: list[CallableHook] = []
    for pre in map(_spec, hooks.pre_tool):
        name, call = hook_name("pre_tool", pre.callback), _pre_tool(pre.callback, session_id)
        made.append(CallableHook("PreToolUse", call, name, pre.matcher, pre.timeout, on_failure="block"))
    for post in map(_spec, hooks.post_tool):
        name, call = hook_name("post_tool", post.callback), _post_tool(post.callback, session_id)
        made.append(CallableHook("PostToolUse", call, name, post.matcher, post.timeout))
        made.append(CallableHook("PostToolUseFailure", call, name, post.matcher, post.timeout))
    for compact in map(_spec, hooks.pre_compact):
        name, call = hook_name("pre_compact", compact.callback), _pre_compact(compact.callback, session_id)
        made.append(CallableHook("PreCompact", call, name, compact.matcher, compact.timeout))
    return tuple(made)


def _spec(hook: Hook[T]) -> HookSpec[T]:
    return hook if isinstance(hook, HookSpec) else HookSpec(hook)


def hook_name(kind: str, callback: object) -> str:
    """How notices and logs name a Python hook: its kind and the callback's qualified name."""
    label = getattr(callback, "__qualname__", None) or type(callback).__name__
    return f"{kind} `{label}`"


async def _answer(callback: Callback[T], value: T) -> HookResult:
    answered = callback(value)
    if inspect.isawaitable(answered):
        answered = await answered
    if answered is None:
        return HookResult()
    if not isinstance(answered, HookResult):
        raise TypeError(f"a hook returns vtcode.sdk.HookResult or None, not {answered!r}")
    return answered


def _runtime(result: HookResult, *, can_block: bool = True) -> RuntimeResult:
    from vtcode.core.hooks.outcome import HookResult as RuntimeResult

    if result.action == "block" and can_block:
        return RuntimeResult("blocked", "deny", result.reason or "blocked by a hook", result.context)
    context = "\n\n".join(filter(None, [result.reason if result.action == "block" else "", result.context]))
    if result.action == "allow":
        return RuntimeResult("success", "allow", result.reason, context, result.args)
    return RuntimeResult("success", None, result.reason, context, result.args)


def _arguments(payload: Mapping[str, Any]) -> dict[str, Any]:
    from vtcode.runtime.tool_hooks import tool_arguments

    return tool_arguments(str(payload.get("tool_name", "")), dict(payload.get("tool_input") or {}))


def _pre_tool(callback: Callback[PreTool], session_id: Callable[[], str]) -> Any:
    async def call(payload: Mapping[str, Any]) -> RuntimeResult:
        seen = PreTool(
            str(payload["tool_name"]), _arguments(payload), str(payload["tool_use_id"]), session_id()
        )
        return _runtime(await _answer(callback, seen))

    return call


def _post_tool(callback: Callback[PostTool], session_id: Callable[[], str]) -> Any:
    async def call(payload: Mapping[str, Any]) -> RuntimeResult:
        response = payload.get("tool_response") or {}
        seen = PostTool(
            str(payload["tool_name"]),
            _arguments(payload),
            str(payload["tool_use_id"]),
            session_id(),
            str(response.get("content", "")),
            bool(response.get("is_error", False)),
            response.get("exit_code"),
        )
        # The call already ran: a block is only more text for the model.
        return _runtime(await _answer(callback, seen), can_block=False)

    return call


def _pre_compact(callback: Callback[PreCompact], session_id: Callable[[], str]) -> Any:
    async def call(payload: Mapping[str, Any]) -> RuntimeResult:
        return _runtime(await _answer(callback, PreCompact(str(payload.get("trigger", "")), session_id())))

    return call
