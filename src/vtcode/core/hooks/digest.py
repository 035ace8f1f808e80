"""The trust digest of a hook: event, matcher, handler fields and the bytes of its script.

A workspace or imported hook runs only while the user's file records this digest as trusted; any change
to the definition or to a script inside the workspace gives a new digest, so it asks again. A script is
what the hook runs, not every file it names: a log it appends to or a file it formats changes with each
run, and hashing those made a trusted hook untrusted after its first run.
"""

from __future__ import annotations

import hashlib
import json
import posixpath
import re
import shlex
from collections.abc import Iterator, Sequence

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
    if handler.if_ is not None:
        # Only when set, so the digests of hooks without it stay as they were.
        definition["if"] = handler.if_
    digest = hashlib.sha256(json.dumps(definition, sort_keys=True).encode())
    for script in scripts:
        digest.update(b"\0script\0")
        digest.update(hashlib.sha256(script).digest())
    return digest.hexdigest()


def command_words(handler: HookHandler) -> tuple[str, ...]:
    """The words of a handler as written: exec form as given, a shell line split like a shell would.

    The caller hashes those that are workspace scripts: `program_words`, or executable files.
    """
    if handler.args is not None:
        return (handler.command, *handler.args)
    try:
        return tuple(shlex.split(handler.command))
    except ValueError:
        return tuple(handler.command.split())


# Programs that run the file named after them (`bash x.sh`, `python3 x.py`, `. ./env.sh`).
_INTERPRETER = re.compile(
    r"(?:ba|da|z|k|c|tc|fi)?sh|python[0-9.]*|pypy[0-9.]*|node(?:js)?|deno|bun|ruby|perl[0-9.]*|php|tsx"
    r"|ts-node|pwsh|lua[0-9.]*|Rscript|\.|source"
)
_OPERATOR_CHARS = frozenset(";&|()")
_REDIRECT_CHARS = frozenset("<>&")
_ASSIGNMENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*=.*")


def program_words(handler: HookHandler) -> tuple[str, ...]:
    """The words of a handler that name something it runs: each command's program and, after an
    interpreter (`bash`, `python3`, `node`, ...), its operands. Redirection targets and the operands
    of other programs (`>> hook.log`, `ruff format app.py`) are data, not script."""
    return tuple(word for word, _ in run_words(handler))


def run_words(handler: HookHandler) -> tuple[tuple[str, bool], ...]:
    """`program_words`, each with whether it is in a program's place (else an interpreter's operand)."""
    if handler.args is not None:
        return tuple(_programs([handler.command, *handler.args]))
    lexer = shlex.shlex(handler.command, posix=True, punctuation_chars=True)
    lexer.whitespace_split = True
    try:
        tokens = list(lexer)
    except ValueError:
        tokens = handler.command.split()
    return tuple(_programs(tokens))


def _programs(tokens: Sequence[str]) -> Iterator[tuple[str, bool]]:
    expect_program = True
    interpreter = False
    redirect_target = False
    for token in tokens:
        if _is_redirect(token):
            redirect_target = True
        elif token and set(token) <= _OPERATOR_CHARS:
            expect_program, interpreter, redirect_target = True, False, False
        elif redirect_target:
            redirect_target = False
        elif expect_program:
            if _ASSIGNMENT.fullmatch(token):
                continue
            expect_program = False
            interpreter = _INTERPRETER.fullmatch(posixpath.basename(token)) is not None
            yield token, True
        elif interpreter and not token.startswith("-"):
            yield token, False


def _is_redirect(token: str) -> bool:
    return bool(token) and set(token) <= _REDIRECT_CHARS and ("<" in token or ">" in token)
