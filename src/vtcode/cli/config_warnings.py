"""Showing the config keys that were ignored to a user of a command without an event stream."""

from __future__ import annotations

import sys
from collections.abc import Sequence


def show_config_warnings(warnings: Sequence[str]) -> None:
    """One `warning:` line per ignored key on stderr, the form `exec` gives its warning notices."""
    for warning in warnings:
        sys.stderr.write(f"warning: {warning}\n")
