"""Where rule files live and how the folders are listed (SPEC section 5, decisions 5 and 8).

| folder                   | files                           | base of its globs |
| ------------------------ | ------------------------------- | ----------------- |
| `.vtcode/rules/`         | `**/*.md` (not README.md)       | the folder's root |
| `.claude/rules/`         | `**/*.md` (not README.md)       | the folder's root |
| `.cursor/rules/`         | `*.mdc`                         | the folder's root |
| `.github/instructions/`  | `*.instructions.md`             | the folder's root |
| `$VTCODE_HOME/rules/`, `~/.config/vtcode/rules/` | `**/*.md` | the workspace |

Workspace folders are read at the project root and, when different, at the workspace root. Listing
follows symlinks (a linked folder is common for shared rules) but never loops, includes hidden files,
sorts by name, and in a git repository leaves out what `.gitignore` files ignore.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Literal, NamedTuple

if TYPE_CHECKING:
    import pathspec

from vtcode.instructions.options import InstructionOptions
from vtcode.instructions.reader import SourceReader

Flavor = Literal["vtcode", "claude", "cursor", "copilot"]


@dataclass(frozen=True)
class RuleFolder:
    """One rule folder: its files' suffix, whether it is searched recursively, and its globs' base."""

    path: Path
    base: Path
    flavor: Flavor
    suffix: str = ".md"
    recursive: bool = True


def workspace_rule_folders(options: InstructionOptions) -> list[RuleFolder]:
    """The workspace rule folders that are switched on, project root first."""
    folders: list[RuleFolder] = []
    for base in options.workspace_bases():
        folders.append(RuleFolder(base / ".vtcode" / "rules", base, "vtcode"))
        if options.claude_rules:
            folders.append(RuleFolder(base / ".claude" / "rules", base, "claude"))
        if options.cursor_rules:
            folders.append(RuleFolder(base / ".cursor" / "rules", base, "cursor", ".mdc", recursive=False))
        if options.copilot_instructions:
            folders.append(
                RuleFolder(
                    base / ".github" / "instructions",
                    base,
                    "copilot",
                    ".instructions.md",
                    recursive=False,
                )
            )
    return folders


def user_rule_folders(options: InstructionOptions) -> list[RuleFolder]:
    """The user rule folders; their globs are matched against workspace-relative paths."""
    return [RuleFolder(path, options.workspace, "vtcode") for path in options.user_rule_folders()]


class RuleFile(NamedTuple):
    """A rule file as listed: the path in its folder and its real path (symlinks resolved)."""

    path: Path
    real: Path


Ignored = Callable[[Path, bool], bool]


def list_rule_files(folder: RuleFolder, *, watch: set[str], ignored: Ignored | None = None) -> list[RuleFile]:
    """The rule files of `folder` in name order (subfolders after the files beside them).

    Every folder visited (and the folder itself, even when missing) is added to `watch`, so a new
    rule file anywhere below is noticed by the next re-check.
    """
    watch.add(os.fspath(folder.path))
    if not folder.path.is_dir():
        return []
    walker = _Walker(folder, watch, ignored)
    walker.walk(folder.path)
    return walker.found


class _Walker:
    def __init__(self, folder: RuleFolder, watch: set[str], ignored: Ignored | None) -> None:
        self.folder = folder
        self.watch = watch
        self.ignored = ignored
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
            if self.ignored is not None and self.ignored(path, is_dir):
                continue
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


class GitIgnore:
    """`.gitignore` rules from the project root down to a path, for rule folders inside a git repo."""

    def __init__(self, root: Path, reader: SourceReader, watch: set[str]) -> None:
        self._root = root
        self._prefix = os.fspath(root).rstrip("/") + "/"
        self._reader = reader
        self._watch = watch
        self._specs: dict[str, pathspec.PathSpec[pathspec.Pattern] | None] = {}

    def __call__(self, path: Path, is_dir: bool) -> bool:
        """Whether git would ignore `path` (a file, or a folder when `is_dir`) below the root."""
        text = os.fspath(path)
        if not text.startswith(self._prefix):
            return False
        relative = text[len(self._prefix) :]
        parts = relative.split("/")
        verdict = False
        # The deepest .gitignore with a matching pattern decides, so a nested "!keep.md" re-includes.
        for depth in range(len(parts)):
            directory = "/".join(parts[:depth])
            spec = self._spec(directory)
            if spec is None:
                continue
            below = "/".join(parts[depth:]) + ("/" if is_dir else "")
            result = spec.check_file(below).include
            if result is not None:
                verdict = result
        return verdict

    def _spec(self, directory: str) -> pathspec.PathSpec[pathspec.Pattern] | None:
        if directory not in self._specs:
            gitignore = self._root / directory / ".gitignore" if directory else self._root / ".gitignore"
            self._watch.add(os.fspath(gitignore))
            text = self._reader.read(gitignore)
            # Imported on first use: pathspec costs ~7 ms at start-up and most rule folders do not exist.
            import pathspec

            spec = (
                pathspec.PathSpec.from_lines("gitignore", text.splitlines())
                if isinstance(text, str)
                else None
            )
            self._specs[directory] = spec
        return self._specs[directory]
