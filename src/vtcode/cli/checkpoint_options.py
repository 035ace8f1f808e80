"""The command-line options of `vtcode rewind` and `vtcode checkpoints`."""

from __future__ import annotations

import argparse
from collections.abc import Callable

AddConfig = Callable[[argparse.ArgumentParser, str], None]


def add_checkpoint_parsers(
    commands: argparse._SubParsersAction[argparse.ArgumentParser], add_config: AddConfig
) -> None:
    """Add `rewind` and `checkpoints` to the subcommands."""
    rewind = commands.add_parser(
        "rewind",
        help="undo the file changes and/or the conversation of a session's turns",
        description="List a session's user turns, or put its files and/or its conversation back to "
        "how they were before turn TURN. Only files vtcode or its commands changed since then are "
        "touched; a file edited by hand since vtcode last wrote it is a conflict and is kept unless "
        "--force. Without --yes, only the preview is printed. Rewinding the conversation forks the "
        "session: the old one stays resumable. A restore interrupted by a crash is completed by the "
        "next rewind.",
    )
    add_config(rewind, "config")
    rewind.add_argument(
        "--session",
        metavar="ID",
        help="the session (a unique prefix is enough; default: the workspace's last)",
    )
    action = rewind.add_mutually_exclusive_group(required=True)
    action.add_argument("--list", action="store_true", help="list the session's checkpointed user turns")
    action.add_argument("--to", type=int, metavar="TURN", help="rewind to the start of user turn TURN")
    action.add_argument("--redo", action="store_true", help="undo the last rewind's file changes")
    scope = rewind.add_mutually_exclusive_group()
    scope.add_argument("--code", dest="scope", action="store_const", const="code", help="files only")
    scope.add_argument(
        "--conversation", dest="scope", action="store_const", const="conversation", help="conversation only"
    )
    scope.add_argument(
        "--both", dest="scope", action="store_const", const="both", help="files and conversation (default)"
    )
    rewind.add_argument("--yes", "-y", action="store_true", help="apply (default: print the preview only)")
    rewind.add_argument(
        "--force", action="store_true", help="also overwrite files edited by hand (conflicts)"
    )
    rewind.add_argument("--json", action="store_true", help="print JSON")

    checkpoints = commands.add_parser(
        "checkpoints",
        help="disk use of checkpoints, and their clean-up",
        description="Checkpoints live under $VTCODE_HOME/checkpoints (pre-images, per session) and "
        "$VTCODE_HOME/snapshots (a private git directory per workspace, never the workspace's .git).",
    )
    add_config(checkpoints, "config")
    actions = checkpoints.add_subparsers(dest="checkpoints_command", metavar="ACTION")
    actions.add_parser(
        "gc",
        help="drop checkpoints of sessions idle for [checkpoints] keep_days and prune snapshot objects",
    )
