"""The trust digest of a hook: event, matcher, handler fields and the bytes of its script.

A workspace or imported hook runs only while the user's file records this digest as trusted; any change
to the definition or to a script inside the workspace gives a new digest, so it asks again.
"""

from __future__ import annotations

import hashlib
import json
import shlex
from collections.abc import Sequence

from vtcode.core.hooks.model import HookEvent, HookHandler


def hook_digest(event: HookEvent, matcher: str, handler: HookHandler, scripts: Sequence[bytes] = ()) -> str:
    """A sha256 hex digest over the definition and the bytes of the workspace files it names."""
    definition = {
        "event": event,
        "matcher": matcher,
        "command": handler.command,
        "args": list(handler.args) if handler.args is not None else None,
        "timeout": handler.timeout,
        "on_failure": handler.on_failure,
    }
    digest = hashlib.sha256(json.dumps(definition, sort_keys=True).encode())
    for script in scripts:
        digest.update(b"\0script\0")
        digest.update(hashlib.sha256(script).digest())
    return digest.hexdigest()


def command_words(handler: HookHandler) -> tuple[str, ...]:
    """The words of a handler as written: exec form as given, a shell line split like a shell would.

    Any of them may name a script (`bash .vtcode/hooks/x.sh`), so the caller hashes every one that is a
    file inside the workspace.
    """
    if handler.args is not None:
        return (handler.command, *handler.args)
    try:
        return tuple(shlex.split(handler.command))
    except ValueError:
        return tuple(handler.command.split())
