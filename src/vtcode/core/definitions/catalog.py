"""The skill catalog of the system prompt (pure): sorted, budgeted, byte-stable for the same skills.

Only names, descriptions and locations enter the prompt (progressive disclosure); bodies come through
the `skill` tool. The catalog has a character budget (a share of the context window with a floor and a
cap); when it does not fit, the longest descriptions are shortened first (to one common length), and
only when even short descriptions do not fit are skills left out, last names first. What was cut is
reported so `/skills` and `vtcode skills list` can show it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from vtcode.core.definitions.model import Definition

ENTRY_DESCRIPTION_MAX = 1536
BUDGET_FLOOR = 2000
BUDGET_CAP = 8000
BUDGET_SHARE = 0.02
_SHORTEST = 40
_ELLIPSIS = "…"

CATALOG_HEADING = "## Skills"
CATALOG_INTRO = (
    "Skills are folders of instructions, scripts and references for specific tasks. When a task matches "
    "a skill's description, call the `skill` tool with its name before you start: it returns the "
    "instructions and lists the skill's files."
)


@dataclass(frozen=True)
class Catalog:
    """The catalog text (empty when no skill is offered) and what its budget did."""

    text: str
    budget: int
    listed: tuple[str, ...] = ()
    truncated: tuple[str, ...] = ()
    omitted: tuple[str, ...] = ()


def catalog_budget(context_window: int, share: float = BUDGET_SHARE) -> int:
    """Characters the catalog may take: `share` of the window (4 characters a token), 2k to 8k."""
    return max(BUDGET_FLOOR, min(BUDGET_CAP, int(context_window * share * 4)))


def build_catalog(skills: Sequence[Definition], budget: int) -> Catalog:
    """The `<available_skills>` block of the model-invocable `skills`, within `budget` characters."""
    offered = sorted((s for s in skills if s.model_invocable), key=lambda s: s.name)
    if not offered:
        return Catalog("", budget)
    full = {s.name: _clip(s.catalog_text, ENTRY_DESCRIPTION_MAX) for s in offered}
    kept = list(offered)
    while kept:
        limit = _fitting_limit(kept, full, budget)
        if limit is not None:
            text = _render(kept, {s.name: _clip(full[s.name], limit) for s in kept})
            truncated = tuple(s.name for s in kept if len(full[s.name]) > limit)
            omitted = tuple(s.name for s in offered[len(kept) :])
            return Catalog(text, budget, tuple(s.name for s in kept), truncated, omitted)
        kept.pop()
    return Catalog("", budget, omitted=tuple(s.name for s in offered))


def _fitting_limit(kept: Sequence[Definition], full: dict[str, str], budget: int) -> int | None:
    """The largest description length that makes the catalog fit (None: not even the shortest)."""
    longest = max(len(full[s.name]) for s in kept)
    if _size(kept, full, longest) <= budget:
        return longest
    low, high = _SHORTEST, longest
    if _size(kept, full, low) > budget:
        return None
    while low < high:  # the largest limit that fits: sizes grow with the limit
        middle = (low + high + 1) // 2
        if _size(kept, full, middle) <= budget:
            low = middle
        else:
            high = middle - 1
    return low


def _size(kept: Sequence[Definition], full: dict[str, str], limit: int) -> int:
    return len(_render(kept, {s.name: _clip(full[s.name], limit) for s in kept}))


def _clip(text: str, limit: int) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: max(0, limit - 1)].rstrip() + _ELLIPSIS


def _render(kept: Sequence[Definition], descriptions: dict[str, str]) -> str:
    lines = [CATALOG_HEADING, "", CATALOG_INTRO, "", "<available_skills>"]
    for skill in kept:
        lines.append(
            f"<skill><name>{escape(skill.name)}</name>"
            f"<description>{escape(descriptions[skill.name])}</description>"
            f"<location>{escape(skill.path)}</location></skill>"
        )
    lines.append("</available_skills>")
    return "\n".join(lines)


def escape(text: str) -> str:
    """`text` safe inside XML element content and attribute values."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")


def skill_content(skill: Definition, body: str, resources: Sequence[str], total: int) -> str:
    """What activating a skill returns: the body (frontmatter removed), its folder and its files."""
    listing = "\n".join(resources)
    more = f"\n({total - len(resources)} more files not listed)" if total > len(resources) else ""
    return (
        f'<skill_content name="{escape(skill.name)}">\n{body.strip()}\n</skill_content>\n'
        f"Skill folder: {skill.folder}\n"
        f"<skill_resources>\n{listing}{more}\n</skill_resources>"
    )
