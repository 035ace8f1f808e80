"""The error of command-session calls, apart from the sessions themselves so callers load it cheaply."""

from __future__ import annotations

from vtcode.protocol.errors import ToolError


class SessionError(ToolError):
    """A call on a session could not be carried out (unknown id, closed input, limits)."""
