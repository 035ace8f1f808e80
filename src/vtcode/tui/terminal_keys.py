"""Keys some terminals send in a form Textual does not read as meant."""

from __future__ import annotations

from typing import cast

from textual._ansi_sequences import ANSI_SEQUENCES_KEYS
from textual.keys import Keys

# tmux, xterm and most Linux terminals send Alt+Enter as ESC CR, which Textual reads as a bare Enter
# (the Alt is lost): Alt+Enter would queue instead of steering. Read it as Ctrl+S, the other steer key.
_ALT_ENTER = "\x1b\r"


def read_alt_enter_as_steer() -> None:
    """Make ESC CR arrive as `ctrl+s` (idempotent; a terminal that reports Alt+Enter itself is unaffected)."""
    table = cast(dict[str, tuple[Keys, ...]], ANSI_SEQUENCES_KEYS)
    table.setdefault(_ALT_ENTER, (Keys.ControlS,))
