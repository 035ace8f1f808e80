"""`vtcode acp`: the Agent Client Protocol server, with the session options of `exec` and the TUI."""

from __future__ import annotations

import argparse
import asyncio

from vtcode.cli.exec_cmd import session_options
from vtcode.runtime.wiring import SessionOptions


def run_acp(args: argparse.Namespace, overrides: list[str]) -> int:
    """Serve ACP on stdin/stdout until the editor closes stdin; the SDK is imported only here."""
    from vtcode.acp.server import serve

    async def options(cwd: str, resume: str | None) -> SessionOptions:
        wanted = argparse.Namespace(**vars(args))
        # The editor names the folder of each session; an explicit --workspace wins.
        wanted.workspace = args.workspace or cwd
        wanted.resume = resume
        wanted.continue_last = False
        return await asyncio.to_thread(session_options, wanted, overrides, headless=False)

    return asyncio.run(serve(options))
