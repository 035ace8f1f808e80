"""Rendering of the project appendix (pure), byte for byte in the original's layout (reference 5.13).

```
[user_instructions]
[--- project-doc ---]
## PROJECT DOCUMENTATION
<precedence sentence>
### Instruction map      numbered `display (label)` lines
### Key points           up to six highlights
### N. display (label)   each kept segment
_truncation note_        only when the budget cut something
```

The appendix is sent after the static prompt as its own block, under `# INSTRUCTIONS`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from vtcode.core.instructions.markdown import close_open_fence
from vtcode.core.instructions.model import Segment
from vtcode.core.instructions.text import split_lines

APPENDIX_HEADING = "# INSTRUCTIONS"
PROJECT_DOCS_HEADING = "## PROJECT DOCUMENTATION"
PROJECT_DOC_SEPARATOR = "\n\n--- project-doc ---\n\n"
PRECEDENCE_SENTENCE = (
    "Entries are listed from lowest to highest precedence; when two entries conflict, follow the later one."
)
KEY_POINTS_LIMIT = 6


class Cut(NamedTuple):
    """A budget cut: `kept` of the `total` bytes of the source shown as `display`."""

    display: str
    kept: int
    total: int


def key_points(contents: Sequence[str], limit: int = KEY_POINTS_LIMIT) -> list[str]:
    """Up to `limit` highlights: `-` bullets in order; a segment without any gives its first line."""
    points: list[str] = []
    for content in contents:
        bullets = 0
        for line in split_lines(content):
            stripped = line.strip()
            if stripped.startswith("-"):
                point = stripped.lstrip("-").strip()
                if point:
                    bullets += 1
                    points.append(point)
                    if len(points) >= limit:
                        return points
        if bullets == 0:
            first = next((ln.strip().lstrip("#").strip() for ln in split_lines(content) if _text(ln)), "")
            if first:
                points.append(first)
                if len(points) >= limit:
                    return points
    return points


def _text(line: str) -> bool:
    return bool(line.strip().lstrip("#").strip())


def truncation_note(cuts: Sequence[Cut], budget: int) -> str:
    """The italic note naming every source the budget cut, and the key that raises it."""
    parts = [
        f"{display} omitted" if kept == 0 else f"{display} cut to {kept} of {total} bytes"
        for display, kept, total in cuts
    ]
    return (
        f"Project instructions were cut to fit agent.instruction_max_bytes ({budget} bytes): "
        f"{'; '.join(parts)}. Raise agent.instruction_max_bytes to include them."
    )


def render_project_docs(segments: Sequence[Segment], note: str | None = None) -> str:
    """The `## PROJECT DOCUMENTATION` section for the kept segments (right-trimmed)."""
    out = [f"{PROJECT_DOCS_HEADING}\n\n{PRECEDENCE_SENTENCE}\n\n### Instruction map\n"]
    out.extend(f"- {n}. {s.display} ({s.label})\n" for n, s in enumerate(segments, 1))
    points = key_points([s.content for s in segments])
    if points:
        out.append("\n### Key points\n")
        out.extend(f"- {point}\n" for point in points)
    # A fence left open (by a cut, or by its author) would turn every later heading into code.
    out.extend(
        f"\n### {n}. {s.display} ({s.label})\n\n{close_open_fence(s.content).strip()}\n"
        for n, s in enumerate(segments, 1)
    )
    if note:
        out.append(f"\n_{note}_\n")
    out.append("\n")
    return "".join(out).rstrip()


def render_appendix(
    user_instructions: str | None, segments: Sequence[Segment], note: str | None = None
) -> str | None:
    """User instructions, then the project documentation; None when both are absent."""
    parts: list[str] = []
    if user_instructions and user_instructions.strip():
        parts.append(user_instructions.strip())
    if segments:
        parts.append(render_project_docs(segments, note))
    elif note:
        parts.append(f"_{note}_")
    return PROJECT_DOC_SEPARATOR.join(parts) if parts else None


def appendix_block(appendix: str | None) -> str:
    """The appendix as sent to the model: under `# INSTRUCTIONS`, or empty when there is none."""
    return f"{APPENDIX_HEADING}\n{appendix}" if appendix else ""
