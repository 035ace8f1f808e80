"""Entry point: parse arguments, dispatch, and turn every failure into a message and an exit code."""

from __future__ import annotations

import gc
import importlib
import sys
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Final

from vtcode.protocol.errors import ExitCode, VtcodeError

if TYPE_CHECKING:
    # Annotations only: `--version` answers without loading argparse.
    import argparse


def _configure_logging() -> None:
    # Library code logs; only VTCODE_DEBUG makes it visible (with tracebacks) on stderr. Imported here,
    # after argument parsing, so `--version` and `--help` stay light.
    import logging

    from vtcode.config.environment import os_environ

    debug = os_environ().get("VTCODE_DEBUG", "").lower() in ("1", "true", "yes", "on")
    if debug:
        logging.basicConfig(level=logging.DEBUG, format="vtcode %(levelname)s %(name)s: %(message)s")
        return

    class UserFormatter(logging.Formatter):
        """A library warning reads like the CLI's own `warning: ...` lines, without the logger's name."""

        def format(self, record: logging.LogRecord) -> str:
            return f"{record.levelname.lower()}: {record.getMessage()}"

    handler = logging.StreamHandler()
    handler.setFormatter(UserFormatter())
    logging.basicConfig(level=logging.WARNING, handlers=[handler])


# Collect only every this many allocations while start-up loads modules (the default is 700). Not
# off: should a command fail before `_loaded`, it still collects, just rarely.
_START_UP_GC_THRESHOLD = 100_000


class _StartUp:
    """The collector thresholds to restore once start-up is over (None: nothing to restore)."""

    thresholds: tuple[int, int, int] | None = None


def _loaded() -> None:
    """The command's modules are in: hide start-up's objects from the collector, usual thresholds."""
    thresholds, _StartUp.thresholds = _StartUp.thresholds, None
    if thresholds is not None:
        # ~50k long-lived objects (modules, classes, functions) that a collection would only walk again;
        # the few hundred cycles of start-up garbage among them stay (a few kB).
        gc.freeze()
        gc.set_threshold(*thresholds)


def _log_debug(message: str) -> None:
    """Log with the traceback of the exception being handled; visible only with VTCODE_DEBUG."""
    if "logging" in sys.modules:
        sys.modules["logging"].getLogger("vtcode").debug(message, exc_info=True)


def _dispatch(argv: Sequence[str]) -> int:
    if list(argv) == ["--version"]:
        # The most frequent scripted call skips building the parser.
        from vtcode import __version__

        sys.stdout.write(f"vtcode {__version__}\n")
        return ExitCode.OK
    from vtcode.cli.interactive import split_prompt
    from vtcode.cli.parser import build_parser

    # `vtcode exec ...` (the scripted call) needs no other subcommand's parser; help shows them all.
    words = list(argv)
    exec_only = words[:1] == ["exec"] and not {"-h", "--help"} & set(words)
    parser = build_parser(exec_only=exec_only)
    argv, prompt = split_prompt(argv, parser)
    args = parser.parse_args(argv)
    _configure_logging()
    overrides = [
        *args.global_config,
        *getattr(args, "config", []),
        *getattr(args, "sessions_config", []),
    ]
    run = _command(args, overrides, parser, prompt)
    # Every command's modules are imported by now: one place ends start-up's collector settings.
    _loaded()
    return run()


# The commands that run as `runner(args, overrides)`: (module in vtcode.cli, runner). Only the chosen
# command's module is imported (start-up time).
COMMANDS: Final[Mapping[str, tuple[str, str]]] = {
    "exec": ("exec_cmd", "run_exec"),
    "acp": ("acp_cmd", "run_acp"),
    "steer": ("steer_cmd", "run_steer"),
    "sessions": ("sessions_cmd", "run_sessions"),
    "usage": ("usage_cmd", "run_usage"),
    "prompt": ("prompt_cmd", "run_prompt"),
    "mcp": ("mcp_cmd", "run_mcp"),
    "hooks": ("hooks_cmd", "run_hooks"),
    "skills": ("skills_cmd", "run_skills"),
    "rewind": ("rewind_cmd", "run_checkpoint_command"),
    "checkpoints": ("rewind_cmd", "run_checkpoint_command"),
    "instructions": ("instructions_cmd", "run_instructions"),
    "batch": ("batch_cmd", "run_batch_command"),
    "sandbox": ("sandbox_cmd", "run_sandbox"),
}


def command_runner(command: str) -> Callable[[argparse.Namespace, list[str]], int] | None:
    """The runner of a `COMMANDS` command, its module imported."""
    entry = COMMANDS.get(command)
    if entry is None:
        return None
    module, name = entry
    runner: Callable[[argparse.Namespace, list[str]], int] = getattr(
        importlib.import_module(f"vtcode.cli.{module}"), name
    )
    return runner


def _command(
    args: argparse.Namespace, overrides: list[str], parser: argparse.ArgumentParser, prompt: str | None
) -> Callable[[], int]:
    """The chosen command, its modules imported, ready to run."""
    if getattr(args, f"{args.command}_command", "") is None:
        # A command of actions named without one (`vtcode checkpoints`) shows its help, as git and gh do.
        parser.parse_args([args.command, "--help"])
    runner = command_runner(args.command)
    if runner is not None:
        return lambda: runner(args, overrides)
    match args.command:
        case "completions":
            from vtcode.cli.docs_cmd import completion_script

            return lambda: _print(completion_script(args.shell))
        case "man":
            from vtcode.cli.docs_cmd import man_page

            return lambda: _print(man_page())
        case _:
            from vtcode.cli.interactive import run_interactive

            return lambda: run_interactive(args, overrides, prompt)


def _print(text: str) -> int:
    sys.stdout.write(text)
    return ExitCode.OK


def main(argv: Sequence[str] | None = None) -> int:
    """Run vtcode and return its exit code (console script entry point)."""
    if argv is None:
        # Start-up creates ~50k objects that live as long as the process; collecting while they are made
        # walks them over and over (~8% of the instructions to `exec`'s first request). Rarely until
        # `_loaded`.
        _StartUp.thresholds = gc.get_threshold()
        gc.set_threshold(_START_UP_GC_THRESHOLD, *_StartUp.thresholds[1:])
    if sys.stdout is None:
        # Started with file descriptor 1 closed: every answer and event would be lost (or fail late, after
        # the model was paid), so nothing runs.
        if sys.stderr is not None:
            sys.stderr.write(
                "vtcode: standard output is closed; nothing was run\n"
                "hint: redirect it instead (>/dev/null to discard the answer)\n"
            )
        return int(ExitCode.USAGE)
    try:
        code = _dispatch(sys.argv[1:] if argv is None else argv)
    except VtcodeError as exc:
        _log_debug("failed")
        sys.stderr.write(f"vtcode: {exc.user_text()}\n")
        code = int(exc.exit_code)
    except KeyboardInterrupt:
        sys.stderr.write("vtcode: interrupted\n")
        code = ExitCode.INTERRUPTED
    except BrokenPipeError:
        # The reader went away (e.g. `| head`); nothing more to say to it.
        code = ExitCode.OK
    except Exception as exc:  # the last line of defence: never show a traceback to a user
        _log_debug("internal error")
        sys.stderr.write(
            f"vtcode: internal error: {type(exc).__name__}: {exc}\n"
            "hint: rerun with VTCODE_DEBUG=1 for details and report it\n"
        )
        code = ExitCode.AGENT_FAILED
    return int(code)


if __name__ == "__main__":
    sys.exit(main())
