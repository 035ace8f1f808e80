"""The data of the project-instruction pipeline (SPEC section 5): sources, diagnostics, segments.

Pure values shared by discovery (`instructions/`, which does the I/O) and the budget and rendering
logic in `core/`.
"""

from __future__ import annotations

from typing import Literal

import msgspec

Scope = Literal["user", "workspace", "custom"]
Kind = Literal["agents", "claude", "rule", "extra"]
Severity = Literal["info", "warning", "error"]


class Diagnostic(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """Why a source (or an import, a pattern, a budget cut) is not used as written.

    `error` means the file could not be used at all (unreadable, binary, unparsable); `warning` is a
    policy outcome the user may want to know about (excluded, shadowed, truncated, never matching);
    `info` explains an expected outcome (a path-scoped rule that no active path matches yet), shown by
    `vtcode instructions` but not announced in a session.
    """

    path: str
    severity: Severity
    reason: str


class LoadedSource(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """One instruction source after reading, frontmatter removal, comment removal and `@` imports.

    `path` is the real (canonical) path, `display` the form shown to the model and the user, `tier`
    the specificity rank used by the budget (higher gets what is left after the fair floors first).
    """

    path: str
    display: str
    scope: Scope
    kind: Kind
    text: str
    tier: int
    matched_by: tuple[str, ...] = ()

    @property
    def label(self) -> str:
        """The label of the instruction map, e.g. `workspace AGENTS` or `user matched rule`."""
        return source_label(self.scope, self.kind, matched=bool(self.matched_by))


class Segment(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A source as it is rendered: what was kept of it under the byte budget."""

    display: str
    label: str
    content: str


def source_label(scope: Scope, kind: Kind, *, matched: bool) -> str:
    """The original's labels: `<scope> AGENTS|CLAUDE|rule|matched rule|extra instructions`."""
    match kind:
        case "claude":
            return f"{scope} CLAUDE"
        case "agents":
            return f"{scope} AGENTS"
        case "extra":
            return f"{scope} extra instructions"
        case "rule":
            return f"{scope} matched rule" if matched else f"{scope} rule"
