"""The argparse tree: the single source of `--help`, the man page and the shell completions.

Kept free of heavy imports so `vtcode --version` and `--help` stay fast.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from typing import Any

from vtcode import __version__
from vtcode.cli.exec_options import add_script_options
from vtcode.cli.subcommands import add_workspace_option

PROFILES = ("default", "minimal", "lightweight", "specialized")
APPROVALS = ("read-only", "ask", "auto-edit", "full-auto")
SANDBOX_MODES = ("read-only", "workspace-write", "off")

DESCRIPTION = """\
vtcode is a terminal coding agent: it runs an LLM (OpenAI, Anthropic, Gemini, Ollama or any
OpenAI-compatible server) in a loop with tools inside your workspace.

Without a COMMAND it opens the interactive terminal UI in the workspace (with PROMPT as the first
message; `vtcode -- PROMPT` when PROMPT starts with a command's name). The TUI needs a terminal: in
pipes and scripts use `vtcode exec`."""

EPILOG = """\
exit codes: 0 done, 1 the agent failed or hit a loop limit or its budget, 2 usage or configuration
error, 3 steering queue full, 4 provider error after retries, 129 the terminal hung up (SIGHUP),
130 interrupted, 143 terminated.

Configuration: $VTCODE_HOME/vtcode.toml (default ~/.vtcode), then the workspace's
.vtcode/vtcode.toml and vtcode.toml (which may only tighten policy), then environment, then
-c KEY=VALUE and flags. Set VTCODE_DEBUG=1 to log tracebacks."""


def _add_config_option(parser: argparse.ArgumentParser, dest: str) -> None:
    parser.add_argument(
        "-c",
        "--config",
        dest=dest,
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="override a config key by its dotted path, e.g. -c context.max_context_tokens=30000 "
        "(VALUE is TOML, else a string); repeatable",
    )


def _inherited(*, top_level: bool) -> dict[str, Any]:
    """Keyword arguments for an option that both the top level and a subcommand accept.

    A subcommand's copy defaults to SUPPRESS: argparse copies every attribute of the subcommand's
    namespace over the top level's, so a plain `None` default would silently drop a value given before
    the subcommand (`vtcode --approval read-only exec ...` ran in auto-edit). With SUPPRESS the value
    given last wins and none is lost.
    """
    return {} if top_level else {"default": argparse.SUPPRESS}


def add_agent_options(parser: argparse.ArgumentParser, *, top_level: bool = False) -> None:
    """Options shared by the interactive mode and `exec`; a subcommand's copy never drops the top's."""
    kept = _inherited(top_level=top_level)
    parser.add_argument("--provider", metavar="NAME", help="openai, anthropic, gemini, ollama, ...", **kept)
    parser.add_argument(
        "-m", "--model", metavar="NAME", help="model name, e.g. gpt-5 or claude-sonnet-4-5", **kept
    )
    parser.add_argument(
        "--base-url",
        metavar="URL",
        help="send requests to this endpoint (a local server or proxy)",
        **kept,
    )
    parser.add_argument(
        "--profile",
        choices=PROFILES,
        help="the system prompt profile (agent.system_prompt_mode; default: default); not a Codex config "
        "profile: for another set of settings use VTCODE_HOME=DIR or -c KEY=VALUE",
        **kept,
    )
    parser.add_argument(
        "--workspace",
        "-C",
        metavar="DIR",
        help="the workspace directory (default: the current one)",
        **kept,
    )
    parser.add_argument(
        "--approval",
        choices=APPROVALS,
        help="what may run without asking (default: auto-edit, reads and edits; a command needs an allow "
        "rule or full-auto)",
        **kept,
    )
    parser.add_argument(
        "--sandbox",
        choices=SANDBOX_MODES,
        help="the OS sandbox commands run in (default: workspace-write, network off; see [sandbox])",
        **kept,
    )
    parser.add_argument(
        "--add-dir",
        action="append",
        metavar="DIR",
        help="another folder commands may write in besides the workspace (repeatable; added to "
        "sandbox.writable_roots)",
        **kept,
    )
    parser.add_argument(
        "--max-turns",
        type=int,
        metavar="N",
        help="model requests allowed in one turn (default 100)",
        **kept,
    )
    parser.add_argument(
        "--max-budget-usd",
        type=float,
        metavar="USD",
        help="stop this run before the next model request once its calls cost USD at list prices "
        "(warned at 80%%; the session can be resumed)",
        **kept,
    )
    parser.add_argument(
        "--max-tokens-total",
        type=int,
        metavar="N",
        help="stop this run before the next model request once its calls used N tokens (input + output)",
        **kept,
    )
    parser.add_argument(
        "--trust-workspace-hooks",
        action="store_true",
        default=argparse.SUPPRESS,
        help="run the workspace's and imported hooks for this run without recording trust (for CI)",
    )


def _add_instruction_options(parser: argparse.ArgumentParser) -> None:
    """Options of `prompt` and `instructions`: where, which files count as touched, and JSON."""
    add_workspace_option(parser)
    parser.add_argument(
        "--path",
        action="append",
        metavar="FILE",
        help="a file or folder the agent touched (repeatable, most recent first): the AGENTS.md files "
        "of its folders and the rules matching it apply",
    )
    parser.add_argument("--json", action="store_true", help="print JSON")


def _add_mcp_parser(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    mcp = commands.add_parser("mcp", help="list, add or remove MCP servers in the user config")
    _add_config_option(mcp, "config")
    actions = mcp.add_subparsers(dest="mcp_command", metavar="ACTION")
    mcp_list = actions.add_parser(
        "list", help="configured servers: state, tool counts, last error (starts each one to check)"
    )
    mcp_list.add_argument("--json", action="store_true", help="print JSON")
    mcp_list.add_argument(
        "--trust-project-mcp",
        action="store_true",
        help="also start the servers of the workspace's .mcp.json",
    )
    add = actions.add_parser(
        "add",
        help="add a server to the user config: NAME -- CMD ARGS... (stdio) or NAME --url URL",
        description="Add [mcp_servers.NAME] to $VTCODE_HOME/vtcode.toml (at its end; the rest of the "
        "file, comments included, stays as it was).",
    )
    add.add_argument("name", metavar="NAME")
    add.add_argument("--url", help="a streamable HTTP endpoint instead of a command")
    add.add_argument(
        "--env", action="append", default=[], metavar="KEY=VALUE", help="environment for the server"
    )
    add.add_argument("--force", action="store_true", help="replace a server of the same name")
    add.add_argument("--json", action="store_true", help="print JSON")
    add.add_argument("server_command", nargs=argparse.REMAINDER, metavar="-- CMD ARGS...")
    remove = actions.add_parser("remove", help="remove a server from the user config")
    remove.add_argument("name", metavar="NAME")
    remove.add_argument("--json", action="store_true", help="print JSON")


def _add_hooks_parser(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    hooks = commands.add_parser(
        "hooks",
        help="list, trust or test the lifecycle hooks",
        description="Lifecycle hooks ([[hooks.EVENT]] in vtcode.toml, .vtcode/hooks.json, imported "
        "Claude Code / Codex / Gemini files). Hooks of the workspace or imported files run only once "
        "trusted; trust is recorded by digest in $VTCODE_HOME/vtcode.toml.",
    )
    _add_config_option(hooks, "config")
    actions = hooks.add_subparsers(dest="hooks_command", metavar="ACTION")
    listed = actions.add_parser("list", help="every hook, its source and trust state")
    listed.add_argument("--json", action="store_true", help="print JSON")
    trust = actions.add_parser(
        "trust", help="trust the workspace's untrusted hooks (all, or those whose digest starts with DIGEST)"
    )
    trust.add_argument("digest", nargs="*", metavar="DIGEST", help="a digest prefix from `hooks list`")
    test = actions.add_parser("test", help="run the trusted hooks of one EVENT with a sample input")
    test.add_argument("event", metavar="EVENT", help="PreToolUse, Stop, UserPromptSubmit, ...")
    test.add_argument(
        "--tool", metavar="NAME", help="the tool name for tool events (exec_command, Bash, ...)"
    )
    test.add_argument(
        "--input",
        metavar="JSON",
        help="fields of the event's input over the sample, e.g. "
        """'{"tool_input": {"command": "rm -rf build"}}'""",
    )
    test.add_argument("--json", action="store_true", help="print JSON")
    add_workspace_option(listed, trust, test)


class _JoinedWords(argparse.Action):
    """Stores the words of a `nargs="*"` positional as one string (None when there are none).

    `vtcode exec fix the bug` means the prompt "fix the bug", as with other agents' CLIs.
    """

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: str | Sequence[Any] | None,
        option_string: str | None = None,
    ) -> None:
        """Join the words with single spaces."""
        words = [values] if isinstance(values, str) else list(values or [])
        setattr(namespace, self.dest, " ".join(str(word) for word in words) if words else None)


def _add_resume_options(parser: argparse.ArgumentParser, *, top_level: bool = False) -> None:
    kept = _inherited(top_level=top_level)
    resume = parser.add_mutually_exclusive_group()
    resume.add_argument("--resume", metavar="ID", help="continue the stored session ID", **kept)
    resume.add_argument(
        "--continue",
        dest="continue_last",
        action="store_true",
        help="continue the most recent session of this workspace",
        **kept,
    )


def build_parser(*, exec_only: bool = False) -> argparse.ArgumentParser:
    """The whole command-line interface; with `exec_only`, the top level and `exec` alone.

    `vtcode exec ...` parses the same with either tree (only `--help` lists the other commands), and
    the other ten subcommands cost a few milliseconds to build on every headless run.
    """
    parser = argparse.ArgumentParser(
        prog="vtcode",
        usage="%(prog)s [options] [PROMPT]  |  %(prog)s [options] COMMAND ...",
        description=DESCRIPTION,
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"vtcode {__version__}")
    _add_config_option(parser, "global_config")
    add_agent_options(parser, top_level=True)
    _add_resume_options(parser, top_level=True)
    # `prog` names each command as typed (`vtcode exec`); argparse would otherwise build it from the
    # custom usage line above and print `usage: vtcode [options] [PROMPT]  |  ... COMMAND ... exec`.
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", prog="vtcode")

    exec_p = commands.add_parser(
        "exec",
        help="run one turn headless and print the final answer",
        description="Run one user turn without the TUI. Progress goes to stderr and the final answer "
        "to stdout; --json prints one JSON event per line instead.",
    )
    _add_config_option(exec_p, "config")
    add_agent_options(exec_p)
    exec_p.add_argument("--json", action="store_true", help="print one JSON event per line")
    exec_p.add_argument(
        "--json-deltas",
        action="store_true",
        help="with --json, also print item.delta events (streamed text and reasoning fragments)",
    )
    add_script_options(exec_p)
    _add_resume_options(exec_p)
    exec_p.add_argument(
        "--trust-project-mcp",
        action="store_true",
        help="start the MCP servers of the workspace's .mcp.json for this run",
    )
    exec_p.add_argument(
        "prompt",
        nargs="*",
        action=_JoinedWords,
        metavar="PROMPT",
        help="the task (quoting is optional: the remaining words are the prompt); - or none reads piped "
        "stdin, which a PROMPT gets as a <stdin> block instead",
    )
    if exec_only:
        return parser

    acp_p = commands.add_parser(
        "acp",
        help="serve the Agent Client Protocol on stdin/stdout (for editors: Zed, JetBrains, Neovim, ...)",
        description="Speak the Agent Client Protocol (JSON-RPC over stdin/stdout) so an editor can host "
        "vtcode as its agent: each editor session is a vtcode session in the folder the editor names "
        "(--workspace overrides it), stored like any other and loadable again. Approvals marked ask "
        "become the editor's permission dialogs; the editor's modes switch the approval mode. stdout "
        "carries only protocol messages; logs go to stderr.",
    )
    _add_config_option(acp_p, "config")
    add_agent_options(acp_p)
    acp_p.add_argument(
        "--trust-project-mcp",
        action="store_true",
        help="start the MCP servers of the workspace's .mcp.json in every session",
    )

    steer = commands.add_parser(
        "steer",
        help="send a follow-up to a running or stored session",
        description="Queue TEXT durably for a session and print its intent id. A running vtcode picks "
        "it up within 200 ms: mode steer delivers it inside the running turn after its current tool "
        "batch, mode queue as the next turn; a stored session applies it when resumed. Without "
        "--session: the workspace's running session, else its most recent one. Exit 3 when 16 intents "
        "already wait.",
    )
    _add_config_option(steer, "config")
    steer.add_argument("--session", metavar="ID", help="the session (a unique id prefix is enough)")
    add_workspace_option(steer, help_text="the workspace whose session to steer (default: cwd)")
    steer.add_argument(
        "--mode",
        choices=("steer", "queue"),
        default="steer",
        help="steer: inside the running turn (default); queue: as the next turn",
    )
    steer.add_argument(
        "--wait", action="store_true", help="return only once the session has applied it (durably)"
    )
    steer.add_argument("--cancel", metavar="INTENT", help="remove a pending intent instead")
    steer.add_argument("text", nargs="*", metavar="TEXT", help="the follow-up; - reads stdin")

    sessions = commands.add_parser("sessions", help="list, show or delete stored sessions")
    _add_config_option(sessions, "config")
    sessions_cmd = sessions.add_subparsers(dest="sessions_command", metavar="ACTION")
    sessions_list = sessions_cmd.add_parser("list", help="stored sessions, most recent first")
    _add_config_option(sessions_list, "sessions_config")
    sessions_list.add_argument("--json", action="store_true", help="print JSON")
    sessions_list.add_argument(
        "--workspace", dest="list_workspace", metavar="DIR", help="only the sessions run in DIR"
    )
    sessions_show = sessions_cmd.add_parser(
        "show", help="one session: its checkpoints, compactions, history and subagents"
    )
    _add_config_option(sessions_show, "sessions_config")
    sessions_show.add_argument("id", metavar="ID", help="session id (a unique prefix is enough)")
    sessions_show.add_argument("--json", action="store_true", help="print JSON")
    sessions_delete = sessions_cmd.add_parser("delete", help="delete a stored session (not a running one)")
    _add_config_option(sessions_delete, "sessions_config")
    sessions_delete.add_argument("id", metavar="ID", help="session id (a unique prefix is enough)")

    usage = commands.add_parser(
        "usage",
        help="tokens and cost of a stored session, by source and model",
        description="What a stored session's model calls used (input, output, cache read and write, "
        "reasoning tokens, API time) and cost at list prices, by source (main, compaction, subagents) "
        "and by model. Without --session: the latest session of the workspace.",
    )
    _add_config_option(usage, "config")
    usage.add_argument("--session", metavar="ID", help="session id (a unique prefix is enough)")
    add_workspace_option(usage, help_text="the workspace (default: cwd)")
    usage.add_argument("--json", action="store_true", help="print JSON")

    prompt_p = commands.add_parser(
        "prompt",
        help="print the assembled system prompt and its parts",
        description="Print the system prompt a session in this workspace would send: the static part "
        "(profile or .vtcode/prompts/system.md, append layers, runtime guidance), the project "
        "instruction appendix, estimated tokens and the static cache key.",
    )
    _add_config_option(prompt_p, "config")
    # SUPPRESS keeps a value given before the subcommand (`vtcode --profile minimal prompt`).
    prompt_p.add_argument(
        "--profile", choices=PROFILES, default=argparse.SUPPRESS, help="the system prompt profile"
    )
    _add_instruction_options(prompt_p)

    instructions_p = commands.add_parser(
        "instructions",
        help="list the instruction sources that apply, with diagnostics",
        description="List the AGENTS.md, CLAUDE.md, rule and extra instruction files that apply, in "
        "precedence order (lowest first), with scope, kind, bytes, truncation and matched rules, and "
        "why other files are skipped, excluded, shadowed, unparsable, not matching the active paths or "
        "never matching.",
    )
    _add_config_option(instructions_p, "config")
    _add_instruction_options(instructions_p)

    _add_mcp_parser(commands)
    _add_hooks_parser(commands)
    # Imported here: the exec-only parser (every `vtcode exec`) never builds these.
    from vtcode.cli.checkpoint_options import add_checkpoint_parsers
    from vtcode.cli.skills_cmd import add_skills_parser

    add_skills_parser(commands)
    add_checkpoint_parsers(commands, _add_config_option)
    from vtcode.cli.batch_options import add_batch_parser

    add_batch_parser(commands)

    sandbox_p = commands.add_parser(
        "sandbox",
        help="run one command under the configured OS sandbox, to test the rules",
        description="Run CMD ARGS... in the workspace under the sandbox commands of the agent get "
        "([sandbox] in the config, or --sandbox): writes only in the workspace, the temp folders and "
        "the writable roots; .git, .vtcode/, vtcode.toml and .mcp.json read-only; no network "
        "unless sandbox.network = true. Exits with the command's status.",
    )
    _add_config_option(sandbox_p, "config")
    add_workspace_option(sandbox_p)
    sandbox_p.add_argument(
        "--sandbox",
        choices=SANDBOX_MODES,
        default=argparse.SUPPRESS,
        help="the sandbox mode (default: from config)",
    )
    sandbox_p.add_argument("argv", nargs=argparse.REMAINDER, metavar="-- CMD ARGS", help="the command to run")

    completions = commands.add_parser("completions", help="print a shell completion script")
    completions.add_argument(
        "shell",
        choices=("bash", "zsh", "fish"),
        help="the shell the script is for (static: no vtcode run per TAB)",
    )
    commands.add_parser("man", help="print the man page (roff)")
    return parser
