"""Pasted text that holds an escape character stays one paste.

Textual's input parser ends a bracketed paste at the first ESC inside it and replays the rest as typed
keys: pasting terminal output with colour codes (`\\x1b[31m`) typed the remainder into the composer, and
each line break in it pressed Enter, sending parts of the paste as messages. Here the ESC characters
inside a paste are dropped before the parser sees them (the closing `ESC [201~` is kept), so the whole
text arrives as one paste. Input outside a paste passes unchanged: a lone ESC is the Esc key.
"""

from __future__ import annotations

from collections.abc import Iterable

from textual._xterm_parser import XTermParser
from textual.drivers import linux_driver
from textual.message import Message

_ESC = "\x1b"
_START = "\x1b[200~"
_END = "\x1b[201~"


class PasteGuard:
    """Drops ESC characters inside bracketed pastes from a stream of terminal input, chunk by chunk."""

    def __init__(self) -> None:
        self.in_paste = False
        # The start of a closing marker cut off at the end of the last chunk.
        self._carry = ""

    def clean(self, data: str) -> str:
        """`data` with the ESC characters inside pastes removed (a cut-off closing marker waits)."""
        data, self._carry = self._carry + data, ""
        out: list[str] = []
        while data:
            if not self.in_paste:
                start = data.find(_START)
                if start < 0:
                    out.append(data)
                    break
                out.append(data[: start + len(_START)])
                data = data[start + len(_START) :]
                self.in_paste = True
                continue
            end = data.find(_END)
            if end >= 0:
                out.append(data[:end].replace(_ESC, "") + _END)
                data = data[end + len(_END) :]
                self.in_paste = False
                continue
            last = data.rfind(_ESC)
            if last >= 0 and _END.startswith(data[last:]):
                data, self._carry = data[:last], data[last:]
            out.append(data.replace(_ESC, ""))
            break
        return "".join(out)


class PasteSafeParser(XTermParser):
    """Textual's parser behind a `PasteGuard`."""

    def __init__(self, debug: bool = False) -> None:
        super().__init__(debug)
        self.guard = PasteGuard()

    def feed(self, data: str) -> Iterable[Message]:
        """Parse `data` with the ESC characters inside pastes removed."""
        # An empty feed ends the input: it must reach the parser as it is.
        return super().feed(self.guard.clean(data) if data else data)


def install() -> None:
    """Make Textual's Linux driver read its input through `PasteSafeParser` (idempotent)."""
    setattr(linux_driver, "XTermParser", PasteSafeParser)  # noqa: B010 - the driver reads this name
