"""`vtcode acp`: the Agent Client Protocol server, with the session options of `exec` and the TUI."""

from __future__ import annotations

import argparse
import asyncio
import os

# At module level, not in `run_acp`: `cli.main` imports a command's module before it ends start-up's
# collector settings, so the ACP library's ~300 schema classes are built without collections walking
# them and are then frozen with the rest of start-up's objects.
from vtcode.acp.server import serve
from vtcode.cli.session_request import session_request
from vtcode.runtime.providers import takes_images
from vtcode.runtime.session_config import session_options
from vtcode.runtime.wiring import SessionOptions


def run_acp(args: argparse.Namespace, overrides: list[str]) -> int:
    """Serve ACP on stdin/stdout until the editor closes stdin."""

    async def options(cwd: str, resume: str | None) -> SessionOptions:
        wanted = argparse.Namespace(**vars(args))
        # The editor names the folder of each session; an explicit --workspace wins.
        wanted.workspace = args.workspace or cwd
        wanted.resume = resume
        wanted.continue_last = False
        return await asyncio.to_thread(_options, wanted, overrides)

    async def images() -> bool:
        # The model a session opened here would use: the launch directory's config, as `exec` reads it.
        start = await options(os.getcwd(), None)
        return await asyncio.to_thread(takes_images, start.settings, start.env)

    return asyncio.run(serve(options, images))


def _options(args: argparse.Namespace, overrides: list[str]) -> SessionOptions:
    # The editor answers approvals (not headless).
    return session_options(session_request(args, overrides), headless=False)
