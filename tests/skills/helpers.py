"""Skill and command folders on disk for the tests: a repository `R/` and a user home `H/`."""

from __future__ import annotations

import dataclasses
import shutil
from pathlib import Path

import msgspec

from tests.runtime.session_helpers import Reader
from vtcode.config.schema import ProjectSettings
from vtcode.instructions.definition_folders import DefinitionRoots
from vtcode.instructions.definitions import Discovery, discover
from vtcode.protocol.events import TurnCompleted
from vtcode.protocol.ops import UserInput
from vtcode.runtime.session import Session
from vtcode.runtime.wiring import SessionOptions

FIXTURES = Path(__file__).parent / "fixtures"


def write_skill(
    folder: Path, name: str, description: str = "Does x.", body: str = "Body.\n", **extra: str
) -> Path:
    """`folder/name/SKILL.md` with frontmatter; returns the file."""
    lines = [f"name: {name}", f"description: {description}", *(f"{k}: {v}" for k, v in extra.items())]
    path = folder / name / "SKILL.md"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("---\n" + "\n".join(lines) + "\n---\n" + body, encoding="utf-8")
    return path


def copy_fixture_skills(skills_folder: Path) -> None:
    """The two realistic fixture skills (SKILL.md, scripts/, references/) into `skills_folder`."""
    for name in ("pdf-forms", "release-notes"):
        shutil.copytree(FIXTURES / name, skills_folder / name)


def repo(base: Path) -> Path:
    """`base/R`, a git repository root (it holds `.git`)."""
    root = base / "R"
    (root / ".git").mkdir(parents=True, exist_ok=True)
    return root


def discover_in(base: Path, workspace: Path | None = None) -> Discovery:
    """Discovery for `R/` (or `workspace` inside it) with `H/` as the home and `H/.vtcode` as vtcode's."""
    root = repo(base)
    home = base / "H"
    return discover(
        DefinitionRoots(workspace=workspace or root, vtcode_home=home / ".vtcode", user_home=home)
    )


def trusted(opts: SessionOptions, workspace: Path) -> SessionOptions:
    """`opts` with `workspace` trusted (the MCP trust record), so its hooks and grants take effect."""
    projects = {str(workspace): ProjectSettings(trust_mcp=True)}
    return dataclasses.replace(opts, settings=msgspec.structs.replace(opts.settings, projects=projects))


async def run_turns(opts: SessionOptions, *inputs: str) -> Reader:
    """Open a session, run one turn per input to its end, close it; the events it emitted."""
    session = await Session.open(opts)
    reader = Reader(session)
    for text in inputs:
        seen = len(reader.events)
        await session.submit(UserInput(text))
        await reader.wait_for(TurnCompleted, after=seen)
    await reader.close()
    return reader
