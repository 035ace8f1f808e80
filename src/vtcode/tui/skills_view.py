"""The `/` menu entries of custom commands and skills, and the `/skills` text (no I/O: session data)."""

from __future__ import annotations

from dataclasses import dataclass

from vtcode.core.definitions.catalog import CatalogState, catalog_state
from vtcode.core.definitions.model import Definition
from vtcode.runtime.skills import SessionSkills
from vtcode.tui.commands import COMMANDS

_STATE_TEXT: dict[CatalogState, str] = {
    "hidden": "hidden from the model",
    "omitted": "omitted from the catalog",
    "truncated": "description shortened",
}


@dataclass(frozen=True)
class MenuEntry:
    """One `/name` the composer can complete: its argument hint and where it comes from."""

    name: str
    hint: str
    source: str
    description: str = ""

    def label(self) -> str:
        """`/name HINT (source)` for the menu."""
        hint = f" {self.hint}" if self.hint else ""
        return f"/{self.name}{hint} ({self.source})"


def menu_entries(skills: SessionSkills | None) -> list[MenuEntry]:
    """Built-ins first (in /help order), then user-invocable skills and commands by name."""
    entries = [MenuEntry(name, "", "built-in", what) for name, what in COMMANDS.items()]
    if skills is None:
        return entries
    for definition in skills.discovery.everything():
        if definition.name in COMMANDS or (definition.kind == "skill" and not definition.user_invocable):
            continue
        entries.append(
            MenuEntry(
                definition.name,
                definition.argument_hint or "",
                f"{definition.kind}, {definition.source}",
                definition.description,
            )
        )
    return entries


def _patterns(definition: Definition) -> list[str]:
    # Imported when a skill has `paths`: the glob reader is not needed to draw the rest.
    from vtcode.core.definitions.path_scope import patterns_of

    return patterns_of(definition)


def skills_text(skills: SessionSkills | None) -> str:
    """What `/skills` shows: every definition, the catalog's budget use, what it cut, and trust."""
    if skills is None:
        return "No skills or commands found (or [skills] enabled = false)."
    catalog = skills.catalog
    lines = [
        f"Catalog: {len(catalog.text)} of {catalog.budget} characters; {len(catalog.listed)} skills listed, "
        f"{len(catalog.truncated)} truncated, {len(catalog.omitted)} omitted",
        "",
    ]
    for definition in skills.discovery.everything():
        state = catalog_state(definition, catalog)
        shown = _STATE_TEXT.get(state, state)
        hint = f" {definition.argument_hint}" if definition.argument_hint else ""
        paths = f"; paths: {', '.join(_patterns(definition))}" if definition.paths else ""
        lines.append(
            f"/{definition.name}{hint}  [{definition.source}; {shown}{paths}]  {definition.description}"
        )
    if len(lines) == 2:
        lines.append(
            "No skills or commands found (.agents/skills/NAME/SKILL.md, .vtcode/commands/NAME.md, ...)."
        )
    if not skills.trusted:
        lines += [
            "",
            "This workspace is not trusted: project shell blocks, hooks and allowed-tools do nothing.",
        ]
    problems = list(skills.discovery.diagnostics)  # notes too: `/skills` is where they are read
    if problems:
        lines += ["", "Problems", *(f"  {d.severity}: {d.path}: {d.reason}" for d in problems)]
    lines += ["", "Esc closes this view."]
    return "\n".join(lines)
