"""A tool's text result within the model's tool-output budget: the rule command output follows, for MCP
tools and the SDK's function tools alike.

Over `ToolContext.max_output_bytes`, the model gets a head + tail preview and the path of a spool file
holding the whole text (it can read parts with `read_file` or `grep_files`); events keep the whole text.
"""

from __future__ import annotations

import hashlib

from vtcode.core.preview import render_preview
from vtcode.exec.spool import write_spool_text
from vtcode.tools.base import ToolContext, ToolOutcome


def bounded(text: str, ctx: ToolContext, *, is_error: bool, name: str, spool: str) -> ToolOutcome:
    """`text` as a tool outcome, previewed for the model when it is over the output budget; the whole
    text goes to a spool file named `spool` plus a digest of the text."""
    data = text.encode("utf-8", "surrogatepass")
    limit = ctx.max_output_bytes
    if len(data) <= limit:
        return ToolOutcome(content=text, is_error=is_error)
    preview = render_preview(data, b"", len(data), text.count("\n"), limit=limit)
    digest = hashlib.sha256(data).hexdigest()[:16]
    try:
        where = write_spool_text(ctx.workspace, f"{spool}-{digest}", text)
        note = (
            f"[the whole output ({len(data)} bytes) is in {where}; "
            "read parts of it with read_file or grep_files]"
        )
    except OSError as exc:
        note = f"[output of {len(data)} bytes cut to a preview; the spool could not be written: {exc}]"
    return ToolOutcome(
        content=text, is_error=is_error, model_content=f"{preview.text}\n{note}", extra={"tool": name}
    )
