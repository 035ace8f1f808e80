"""Where rule files live and how the folders are listed (SPEC section 5, decisions 5 and 8).

| folder or file                      | files                     | base of its globs       |
| ----------------------------------- | ------------------------- | ----------------------- |
| `.vtcode/rules/`                    | `**/*.md` (not README.md) | the folder's root       |
| `.claude/rules/`                    | `**/*.md` (not README.md) | the folder's root       |
| `.cursor/rules/`                    | `**/*.mdc`                | the folder's root       |
| `<folder>/.cursor/rules/` (nested)  | `**/*.mdc`                | `<folder>` (Cursor)     |
| `.github/instructions/`             | `**/*.instructions.md`    | the folder's root       |
| `.cursorrules`, `.github/copilot-instructions.md` | always apply |                         |
| `$VTCODE_HOME/rules/`, `~/.config/vtcode/rules/` | `**/*.md`    | the workspace           |

Workspace folders are read at the project root and, when different, at the workspace root; a nested
`.cursor/rules/` is read in the folders from the root down to the active paths, and applies only below
its folder. Listing follows symlinks (a linked folder is common for shared rules) but never loops,
includes hidden files and sorts by name. Ignore files are not consulted: they govern project files, not
agent configuration (`.claude/` is commonly gitignored for the local settings file it also holds).
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path
from typing import Literal, NamedTuple

import msgspec

from vtcode.instructions.options import InstructionOptions

Flavor = Literal["vtcode", "claude", "cursor", "copilot"]


class RuleFolder(msgspec.Struct, frozen=True):
    """One rule folder: its files' suffix, whether it is searched recursively, and its globs' base."""

    path: Path
    base: Path
    flavor: Flavor
    suffix: str = ".md"
    recursive: bool = True


def workspace_rule_folders(options: InstructionOptions, levels: Sequence[Path] = ()) -> list[RuleFolder]:
    """The workspace rule folders that are switched on, project root first, nested ones last.

    `levels` are the folders from the project root down to the active paths: those that are not a
    base already contribute their own `.cursor/rules/`.
    """
    folders: list[RuleFolder] = []
    bases = options.workspace_bases()
    for base in bases:
        folders.append(RuleFolder(base / ".vtcode" / "rules", base, "vtcode"))
        if options.claude_rules:
            folders.append(RuleFolder(base / ".claude" / "rules", base, "claude"))
        if options.cursor_rules:
            folders.append(RuleFolder(base / ".cursor" / "rules", base, "cursor", ".mdc"))
        if options.copilot_instructions:
            folders.append(RuleFolder(base / ".github" / "instructions", base, "copilot", ".instructions.md"))
    if options.cursor_rules:
        folders.extend(
            RuleFolder(level / ".cursor" / "rules", level, "cursor", ".mdc")
            for level in levels
            if level not in bases
        )
    return folders


def workspace_rule_files(options: InstructionOptions) -> list[Path]:
    """The single-file rules that always apply: Cursor's legacy `.cursorrules`, Copilot's repository file."""
    files: list[Path] = []
    for base in options.workspace_bases():
        if options.cursor_rules:
            files.append(base / ".cursorrules")
        if options.copilot_instructions:
            files.append(base / ".github" / "copilot-instructions.md")
    return files


def user_rule_folders(options: InstructionOptions) -> list[RuleFolder]:
    """The user rule folders; their globs are matched against workspace-relative paths."""
    return [RuleFolder(path, options.workspace, "vtcode") for path in options.user_rule_folders()]


class RuleFile(NamedTuple):
    """A rule file as listed: the path in its folder and its real path (symlinks resolved)."""

    path: Path
    real: Path


def list_rule_files(folder: RuleFolder, *, watch: set[str]) -> list[RuleFile]:
    """The rule files of `folder` in name order (subfolders after the files beside them).

    Every folder visited (and the folder itself, even when missing) is added to `watch`, so a new
    rule file anywhere below is noticed by the next re-check.
    """
    watch.add(os.fspath(folder.path))
    if not folder.path.is_dir():
        return []
    walker = _Walker(folder, watch)
    walker.walk(folder.path)
    return walker.found


class _Walker:
    def __init__(self, folder: RuleFolder, watch: set[str]) -> None:
        self.folder = folder
        self.watch = watch
        self.found: list[RuleFile] = []
        self.seen: set[str] = set()

    def walk(self, directory: Path) -> None:
        """Collect the rule files of `directory` and, when recursive, of its subfolders."""
        real_dir = os.path.realpath(directory)
        if real_dir in self.seen:
            return  # a symlink loop, or the same folder linked twice
        self.seen.add(real_dir)
        self.watch.add(os.fspath(directory))
        try:
            entries = sorted(os.scandir(directory), key=lambda e: e.name)
        except OSError:
            return
        subdirs: list[Path] = []
        for entry in entries:
            path = Path(entry.path)
            try:
                is_dir = entry.is_dir()  # follows symlinks
            except OSError:
                is_dir = False
            if is_dir:
                if self.folder.recursive:
                    subdirs.append(path)
            elif entry.name.endswith(self.folder.suffix) and entry.name.lower() != "readme.md":
                # Only links need resolving; the real folder is already known (and cheap to join).
                real = Path(os.path.realpath(path)) if entry.is_symlink() else Path(real_dir, entry.name)
                # Dangling links and other bad entries are returned: the reader reports why they fail.
                self.found.append(RuleFile(path, real))
        for subdir in subdirs:
            self.walk(subdir)
