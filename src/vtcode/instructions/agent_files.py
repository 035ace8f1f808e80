"""Subagent definition files: where they are, read in precedence order, one diagnostic per bad file.

Project `.vtcode/agents/*.md`, then `.claude/agents/*.md`, then Codex's `.codex/agents/*.toml`, Gemini
CLI's `.gemini/agents/*.md` and opencode's `.opencode/agent/*.md`; then the user's folders in the same
order (`$VTCODE_HOME/agents/*.md` first), then the built-ins; the first definition of a name wins. A file that
cannot be used is reported with its path and skipped; the others load.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from vtcode.core.agents.definitions import (
    BUILTIN_AGENTS,
    AgentDefinition,
    DefinitionProblem,
    by_precedence,
)
from vtcode.core.agents.foreign import parse_foreign
from vtcode.instructions.agent_folders import agent_folders

# Definition files bigger than this are not agent prompts; reading them whole would be a mistake.
MAX_DEFINITION_BYTES = 256 * 1024


@dataclass(frozen=True)
class AgentCatalog:
    """The subagent types of a session, by name, and what was wrong with the files that were skipped."""

    agents: dict[str, AgentDefinition] = field(default_factory=dict)
    diagnostics: tuple[str, ...] = ()


def load_agents(
    workspace: Path,
    vtcode_home: Path,
    user_home: Path | None,
    *,
    known_tool: Callable[[str], bool],
    known_model: Callable[[str], bool],
) -> AgentCatalog:
    """Every usable definition (the built-ins last) and a diagnostic per skipped file or dropped tool."""
    found: list[AgentDefinition] = []
    diagnostics: list[str] = []
    for folder in agent_folders(workspace, vtcode_home, user_home):
        for path in _definition_files(folder.path, folder.suffix):
            try:
                text = _read(path)
                parsed = parse_foreign(
                    text,
                    folder.dialect,
                    stem=path.stem,
                    origin=folder.origin,
                    source=str(path),
                    known_tool=known_tool,
                    known_model=known_model,
                )
            except DefinitionProblem as exc:
                diagnostics.append(f"{path}: skipped: {exc}")
                continue
            diagnostics.extend(f"{path}: {warning}" for warning in parsed.warnings)
            found.append(parsed.definition)
    chosen, notes = by_precedence([*found, *BUILTIN_AGENTS])
    return AgentCatalog(chosen, (*diagnostics, *notes))


def _definition_files(folder: Path, suffix: str) -> list[Path]:
    try:
        return sorted(p for p in folder.iterdir() if p.suffix == suffix and p.is_file())
    except OSError:
        return []  # no such folder (the usual case), or unreadable: nothing defined there


def _read(path: Path) -> str:
    try:
        data = path.read_bytes()[: MAX_DEFINITION_BYTES + 1]
    except OSError as exc:
        raise DefinitionProblem(f"cannot be read ({exc.strerror or exc})") from exc
    if len(data) > MAX_DEFINITION_BYTES:
        raise DefinitionProblem(f"larger than {MAX_DEFINITION_BYTES // 1024} KiB")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise DefinitionProblem("not UTF-8 text") from exc
