"""The skill catalog of the system prompt (pure): sorted, budgeted, byte-stable for the same skills.

Only names, descriptions and locations enter the prompt (progressive disclosure); bodies come through
the `skill` tool. The catalog has a character budget (a share of the context window with a floor and a
cap); when it does not fit, the longest descriptions are shortened first (to one common length), and
only when even short descriptions do not fit are skills left out, last names first. What was cut is
reported so `/skills` and `vtcode skills list` can show it.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Literal

import msgspec

from vtcode.core.definitions.model import Definition

ENTRY_DESCRIPTION_MAX = 1536
BUDGET_FLOOR = 2000
BUDGET_CAP = 8000
BUDGET_SHARE = 0.02
_SHORTEST = 40
_ELLIPSIS = "…"
_SPECIAL = re.compile(r'[&<>"]')

# A command is never in the catalog; a hidden skill is not model-invocable; an omitted one did not fit the
# budget; a truncated one is listed with a shortened description.
CatalogState = Literal["command", "hidden", "omitted", "truncated", "listed"]

CATALOG_HEADING = "## Skills"
CATALOG_INTRO = (
    "Skills are folders of instructions, scripts and references for specific tasks. When a task matches "
    "a skill's description, call the `skill` tool with its name before you start: it returns the "
    "instructions and lists the skill's files."
)


class Catalog(msgspec.Struct, frozen=True):
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
    full = [_clip(s.catalog_text, ENTRY_DESCRIPTION_MAX) for s in offered]
    fixed = [len(_entry(s, "")) + 1 for s in offered]  # an entry without its description, and a newline
    plain = [not _SPECIAL.search(text) for text in full]  # escaping leaves these lengths as they are
    base = len(_render([], []))

    def entry(i: int, limit: int) -> int:
        # `full` is flat already: cut, not clipped again (the search asks for many sizes).
        return fixed[i] + (len(_cut(full[i], limit)) if plain[i] else len(escape(_cut(full[i], limit))))

    def size(count: int, limit: int) -> int:
        return base + sum(entry(i, limit) for i in range(count))

    # The most skills that fit with the shortest descriptions (sizes grow with the count) ...
    count, used = 0, base
    while count < len(offered):
        step = entry(count, _SHORTEST)
        if used + step > budget:
            break
        used, count = used + step, count + 1
    if count == 0:
        return Catalog("", budget, omitted=tuple(s.name for s in offered))
    # ... then the longest description length at which those skills fit (sizes grow with the limit).
    longest = max(len(text) for text in full[:count])
    limit = _largest_fitting(min(_SHORTEST, longest), longest, lambda n: size(count, n) <= budget)
    kept = offered[:count]
    descriptions = [_cut(full[i], limit) for i in range(count)]
    return Catalog(
        _render(kept, descriptions),
        budget,
        tuple(s.name for s in kept),
        tuple(s.name for i, s in enumerate(kept) if len(full[i]) > limit),
        tuple(s.name for s in offered[count:]),
    )


def catalog_state(definition: Definition, catalog: Catalog) -> CatalogState:
    """Where a definition stands in the model's catalog (what `/skills` and `vtcode skills list` show)."""
    if definition.kind == "command":
        return "command"
    if not definition.model_invocable:
        return "hidden"
    if definition.name in catalog.omitted:
        return "omitted"
    if definition.name in catalog.truncated:
        return "truncated"
    return "listed"


def _largest_fitting(low: int, high: int, fits: Callable[[int], bool]) -> int:
    """The largest n in [low, high] that `fits` (which holds for every n up to some point), else low."""
    while low < high:
        middle = (low + high + 1) // 2
        if fits(middle):
            low = middle
        else:
            high = middle - 1
    return low


def _clip(text: str, limit: int) -> str:
    return _cut(" ".join(text.split()), limit)


def _cut(flat: str, limit: int) -> str:
    return flat if len(flat) <= limit else flat[: max(0, limit - 1)].rstrip() + _ELLIPSIS


def _entry(skill: Definition, description: str) -> str:
    return (
        f"<skill><name>{escape(skill.name)}</name>"
        f"<description>{escape(description)}</description>"
        f"<location>{escape(skill.path)}</location></skill>"
    )


def _render(kept: Sequence[Definition], descriptions: Sequence[str]) -> str:
    lines = [CATALOG_HEADING, "", CATALOG_INTRO, "", "<available_skills>"]
    lines += [_entry(skill, text) for skill, text in zip(kept, descriptions, strict=True)]
    lines.append("</available_skills>")
    return "\n".join(lines)


def escape(text: str) -> str:
    """`text` safe inside XML element content and attribute values."""
    if not _SPECIAL.search(text):
        return text  # most names, descriptions and paths: one scan instead of four replaces
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
