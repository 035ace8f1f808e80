"""`@path` in a prompt attaches that workspace file (or folder listing) to the turn, as Claude Code,
Gemini CLI and opencode do, so the model does not spend a request reading what the user pointed at.

The attachment is a context message before the prompt (the prompt stays as typed), bounded like a
command's `@path` include: 32 KiB a file (the head, with a note to `read_file` the rest), 128 KiB in
all, 200 entries a folder. Only paths inside the workspace that exist are attached; binary files are
left to the TUI's image mentions and `read_file`. A notice names what was attached. The files count as
touched, so their path-scoped instructions load as they would for `read_file`.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Callable, Sequence
from pathlib import Path

import msgspec

from vtcode.core.image_kind import HEADER_BYTES, image_type
from vtcode.protocol.messages import Message, MessageMeta, UserMessage
from vtcode.runtime.hooks import TurnHooks, TurnStart

FILE_MAX_BYTES = 32 * 1024
TOTAL_MAX_BYTES = 128 * 1024
LISTING_MAX_ENTRIES = 200


def _inside(root: Path, raw: str) -> Path | None:
    """The real path `raw` names inside `root` (relative to it, or absolute), if it exists there."""
    path = Path(os.path.realpath(root / Path(raw).expanduser()))
    if root != path and root not in path.parents:
        return None
    return path if path.exists() else None


def _listing(path: Path) -> str:
    entries = sorted(path.iterdir(), key=lambda p: p.name)
    names = [f"{p.name}/" if p.is_dir() else p.name for p in entries if p.name != ".git"]
    shown = names[:LISTING_MAX_ENTRIES]
    more = len(names) - len(shown)
    return "\n".join(shown) + (f"\n[{more} more entries: list_files shows them]" if more > 0 else "")


def _file(path: Path, budget: int) -> tuple[str, int] | str:
    """The text of `path` within `budget` bytes and the bytes used; for a file that is not text, what
    it is (`image` or `binary`)."""
    size = path.stat().st_size
    with path.open("rb") as handle:
        data = handle.read(min(FILE_MAX_BYTES, budget))
    if image_type(data[:HEADER_BYTES]) is not None:
        return "image"
    if b"\0" in data:
        return "binary"
    text = data.decode("utf-8", errors="replace").removesuffix("\n")
    if size > len(data):
        text += f"\n[cut: {len(data):,} of {size:,} bytes shown; read_file reads the rest]"
    return text, len(data)


class Attachments(msgspec.Struct):
    """What the `@path` mentions of a prompt attach: the text (None when nothing), the workspace paths
    attached, and the mentioned files left out for not being text (images, other binaries)."""

    text: str | None = None
    attached: list[str] = msgspec.field(default_factory=list)
    images: list[str] = msgspec.field(default_factory=list)
    binary: list[str] = msgspec.field(default_factory=list)


def mention_attachments(text: str, workspace: Path) -> Attachments:
    """What the `@path` mentions of `text` attach."""
    # Imported with the first prompt that holds an `@`: the others never need the mention parser.
    from vtcode.core.mentions import find_mentions

    root = Path(os.path.realpath(workspace))
    budget = TOTAL_MAX_BYTES
    blocks: list[str] = []
    found = Attachments()
    attached = found.attached
    seen: set[Path] = set()
    for mention in find_mentions(text):
        for raw in mention.candidates():
            path = _inside(root, raw)
            if path is None:
                continue
            if path in seen:
                break
            seen.add(path)
            shown = path.relative_to(root).as_posix() or "."
            try:
                if budget <= 0:
                    break
                if path.is_dir():
                    listing = _listing(path)
                    budget -= len(listing.encode())
                    blocks.append(f'<directory path="{shown}">\n{listing}\n</directory>')
                    attached.append(f"{shown}/")
                    break
                if not path.is_file():
                    break  # a FIFO or a device would block the read (or never end)
                read = _file(path, budget)
            except OSError:
                break
            if isinstance(read, str):
                (found.images if read == "image" else found.binary).append(shown)
            else:
                body, used = read
                budget -= used
                blocks.append(f'<file path="{shown}">\n{body}\n</file>')
                attached.append(shown)
            break
    if blocks:
        head = "Files the user mentioned with @ (their contents as of this prompt):"
        found.text = "\n".join([head, *blocks])
    return found


def attach_file_mentions(
    hooks: TurnHooks,
    workspace: Path,
    *,
    inform: Callable[[str], None],
    touched: Callable[[Sequence[str]], None],
    headless: bool = False,
) -> None:
    """Attach what each prompt's `@path` mentions name, at the start of its turn. `headless` (exec)
    says an image was not attached; the TUI attaches mentioned images itself."""

    async def turn_start(start: TurnStart) -> Sequence[Message]:
        if "@" not in start.text or start.text.lstrip().startswith("!"):
            return []  # most prompts; a `!cmd` is the user's shell line
        found = await asyncio.to_thread(mention_attachments, start.text, workspace)
        if headless:
            for name in found.images:
                inform(f"not attached: {name} is an image (`-i {name}` attaches it)")
        for name in found.binary:
            inform(f"not attached: {name} is not text")
        if found.text is None:
            return []
        touched([path for path in found.attached if not path.endswith("/")])
        inform(f"attached: {', '.join(found.attached)}")
        return [UserMessage(found.text, meta=MessageMeta(kind="context", turn=start.turn))]

    hooks.turn_start.append(turn_start)
