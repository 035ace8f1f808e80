"""`vtcode exec`: one headless turn, a thin front end over the session runtime."""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import io
import signal
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

import msgspec

from vtcode.cli.exec_options import OutputFormat, output_format, read_schema
from vtcode.cli.exec_result import ResultCollector, error_result, resume_line, write_last_message
from vtcode.cli.inputs import StdinKind, read_prompt, stdin_kind
from vtcode.cli.render import HumanRenderer, JsonRenderer
from vtcode.cli.session_request import session_request
from vtcode.protocol.errors import ExitCode, InterruptedByUser, Terminated, UsageError, VtcodeError
from vtcode.protocol.events import Event, ThreadCompleted, TurnFailed, encode_event
from vtcode.protocol.exec_result import encode_result
from vtcode.protocol.messages import ImagePart
from vtcode.protocol.ops import Interrupt, Shutdown, UserInput
from vtcode.runtime import turn_end
from vtcode.runtime.session import Session
from vtcode.runtime.session_config import session_options
from vtcode.runtime.wiring import SessionOptions

if TYPE_CHECKING:
    from vtcode.cli.stdin_input import StdinReader


class TurnFailure(VtcodeError):
    """A failed turn as the user sees it: the message and hint of its `turn.failed` event."""

    def __init__(self, event: TurnFailed) -> None:
        super().__init__(event.message, hint=event.hint or None)
        self.exit_code = ExitCode(event.exit_code)

    def user_text(self) -> str:
        """Provider failures on one line (read in CI logs), others with the hint below."""
        if self.exit_code == ExitCode.PROVIDER and self.hint:
            return f"{self.message} ({self.hint})"
        return super().user_text()


def run_exec(args: argparse.Namespace, overrides: list[str]) -> int:
    """Run one turn (and the follow-ups accepted meanwhile) and return the exit code."""
    fmt = output_format(args)
    try:
        kind = stdin_kind()
        # `echo task | vtcode exec`: stdin is the prompt.
        prompt = _stdin_prompt() if args.prompt is None and kind != "none" else read_prompt(args.prompt)
        schema = read_schema(getattr(args, "output_schema", None))
        images = _images(getattr(args, "image", None))
        options = session_options(session_request(args, overrides), until_idle=True, output_schema=schema)
        if getattr(args, "ephemeral", False):
            if options.resume or options.continue_last:
                raise UsageError("--ephemeral cannot continue a stored session (--resume, --continue)")
            options = dataclasses.replace(options, ephemeral=True)
    except VtcodeError as exc:
        _report_early_failure(fmt, exc)
        raise
    # `git diff | vtcode exec "write a commit message"`: stdin is context, read while the session opens.
    reader = (
        _stdin_reader(options.workspace, kind) if args.prompt not in (None, "-") and kind != "none" else None
    )
    collector = ResultCollector(schema=schema)
    render: Callable[[Event], None]
    if fmt == "jsonl":
        render = JsonRenderer(deltas=bool(getattr(args, "json_deltas", False)))
    elif fmt == "json":
        # Progress still goes to stderr (CI logs); stdout carries only the result object.
        render = HumanRenderer(out=io.StringIO())
    else:
        render = HumanRenderer()
    signals: list[int] = []
    try:
        asyncio.run(
            _run(options, UserInput(prompt, images=images), render, collector, reader=reader, signals=signals)
        )
    except VtcodeError as exc:
        if collector.completed is None:
            # Failed before the run began (an unknown session, a full queue): scripts still get JSON.
            _report_early_failure(fmt, exc)
            raise
        raise _finish(args, fmt, collector) or exc from None
    error = _finish(args, fmt, collector)
    if isinstance(error, InterruptedByUser) and signal.SIGTERM in signals:
        # The convention for a process ended by SIGTERM (128 + 15), which CI runners look for.
        raise Terminated("terminated")
    if error is not None:
        raise error
    return ExitCode.OK


def _stdin_prompt() -> str:
    """Piped stdin as the prompt; empty stdin is a missing prompt, said as such."""
    try:
        return read_prompt("-")
    except UsageError:
        raise UsageError(
            "exec needs a PROMPT: none was given and stdin was empty",
            hint="vtcode exec 'fix the failing test'  (or pipe it: echo task | vtcode exec)",
        ) from None


def _images(paths: list[str] | None) -> tuple[ImagePart, ...]:
    """`-i/--image` files; their module loads only when there are some (start-up time)."""
    if not paths:
        return ()
    from vtcode.cli.image_input import read_images

    return read_images(paths)


def _stdin_reader(workspace: Path, kind: StdinKind) -> StdinReader:
    """Start reading piped stdin next to a prompt; its module loads only then (start-up time)."""
    from vtcode.cli.stdin_input import StdinReader

    return StdinReader(workspace, kind=kind).start()


def _finish(args: argparse.Namespace, fmt: OutputFormat, collector: ResultCollector) -> VtcodeError | None:
    """Write what a script reads at the end; the error the run ended with, if any."""
    last = getattr(args, "output_last_message", None)
    if last is not None:
        write_last_message(last, collector.last_message)
    if fmt == "json":
        sys.stdout.write(encode_result(collector.result()).decode("utf-8") + "\n")
        sys.stdout.flush()
    elif fmt == "text" and collector.session_id is not None and not getattr(args, "ephemeral", False):
        sys.stderr.write(resume_line(collector.session_id))
    done = collector.completed
    if done is None or done.exit_code == ExitCode.INTERRUPTED:
        return InterruptedByUser("interrupted")
    if done.status != "completed" and collector.failure is not None:
        return TurnFailure(collector.failure)
    return None


async def _with_stdin(session: Session, prompt: str, reader: StdinReader, options: SessionOptions) -> str:
    """The prompt with the `<stdin>` block once the reader is done (never joined: it may never end)."""
    loop = asyncio.get_running_loop()
    ready = asyncio.Event()
    reader.when_done(lambda: loop.call_soon_threadsafe(ready.set))
    try:
        await ready.wait()
        from vtcode.cli.stdin_input import with_stdin

        return with_stdin(prompt, reader.result(), options.workspace)
    except BaseException as exc:
        await session.aclose()
        if isinstance(exc, OSError):
            raise VtcodeError(f"could not read stdin: {exc.strerror or exc}") from None
        raise


def _report_early_failure(fmt: OutputFormat, error: VtcodeError) -> None:
    """In the JSON formats, a run that never started still ends with JSON on stdout."""
    if fmt == "text":
        return
    event = turn_end.failed(error)
    if fmt == "json":
        line = encode_result(error_result(error, event.kind))
    else:
        ended = ThreadCompleted(status="failed", kind=event.kind, exit_code=event.exit_code)
        line = encode_event(event) + b"\n" + encode_event(ended)
    sys.stdout.write(line.decode("utf-8") + "\n")
    sys.stdout.flush()


async def _run(
    options: SessionOptions,
    prompt: UserInput,
    render: Callable[[Event], None],
    collector: ResultCollector,
    *,
    reader: StdinReader | None = None,
    signals: list[int] | None = None,
) -> None:
    session = await Session.open(options)
    if reader is not None:
        text = await _with_stdin(session, prompt.text, reader, options)
        prompt = msgspec.structs.replace(prompt, text=text)
    loop = asyncio.get_running_loop()
    signals = [] if signals is None else signals
    pending: set[asyncio.Task[None]] = set()

    def stop(signum: int) -> None:
        signals.append(signum)
        # A second signal kills command groups at once instead of waiting out their TERM grace.
        task = loop.create_task(session.submit(Interrupt(force=len(signals) > 1)))
        pending.add(task)
        task.add_done_callback(pending.discard)
        if not session.running:
            closing = loop.create_task(session.submit(Shutdown()))
            pending.add(closing)
            closing.add_done_callback(pending.discard)

    for signum in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(signum, stop, signum)
    try:
        # Intents recovered on resume run first; the session ends once nothing is pending after a turn.
        await session.submit(prompt)
        async for event in session.events():
            render(event)
            collector(event)
    finally:
        await session.aclose()
        for signum in (signal.SIGINT, signal.SIGTERM):
            loop.remove_signal_handler(signum)
