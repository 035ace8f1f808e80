"""What the instruction pipeline is told about a session: roots, folders and the `[agent]` settings.

Built by the runtime from `Settings` (this package does not read configuration or the environment), so
tests and `vtcode instructions` can describe any layout directly.
"""

from __future__ import annotations

import os
from pathlib import Path

import msgspec

DEFAULT_MAX_BYTES = 16_384
DEFAULT_IMPORT_DEPTH = 5


def real(path: Path | str) -> Path:
    """`path` with every symlink resolved (a missing tail is kept as written).

    A link swapped while it is resolved makes `realpath` fail (EINVAL from readlink on what is no
    longer a link); a command running in the workspace can do that at any time, so the lookup is
    retried and finally falls back to the lexical path, instead of failing the whole turn.
    """
    for _ in range(3):
        try:
            return Path(os.path.realpath(path))
        except OSError:
            continue
    return Path(os.path.abspath(path))


def find_project_root(workspace: Path) -> Path:
    """The nearest ancestor of `workspace` (itself included) holding `.git`, else the workspace itself.

    `.git` may be a directory or a `gitdir:` file (worktrees, submodules). Without one the workspace is
    the root, never `/` (SPEC section 5, decision 1), so nothing above it is ever read.
    """
    start = real(workspace)
    for directory in (start, *start.parents):
        if os.path.lexists(directory / ".git"):
            return directory
    return start


class InstructionOptions(msgspec.Struct, frozen=True):
    """Inputs of discovery; paths are real (symlinks resolved) so they compare with discovered ones."""

    workspace: Path
    project_root: Path
    vtcode_home: Path
    user_home: Path | None = None
    extra_patterns: tuple[str, ...] = ()
    excludes: tuple[str, ...] = ()
    fallback_filenames: tuple[str, ...] = ()
    max_bytes: int = DEFAULT_MAX_BYTES
    import_max_depth: int = DEFAULT_IMPORT_DEPTH
    user_instructions: str | None = None
    claude_rules: bool = True
    cursor_rules: bool = True
    copilot_instructions: bool = True

    @classmethod
    def for_workspace(
        cls,
        workspace: Path,
        *,
        vtcode_home: Path,
        user_home: Path | None = None,
        project_root: Path | None = None,
    ) -> InstructionOptions:
        """Defaults for `workspace`, its project root found by `find_project_root` unless given.

        Settings go on with `msgspec.structs.replace`.
        """
        root = real(project_root) if project_root is not None else find_project_root(workspace)
        return cls(
            workspace=real(workspace),
            project_root=root,
            vtcode_home=real(vtcode_home),
            user_home=real(user_home) if user_home is not None else None,
        )

    @property
    def user_config_root(self) -> Path | None:
        """`~/.config/vtcode`, the second user config root of SPEC section 5."""
        return real(self.user_home / ".config" / "vtcode") if self.user_home is not None else None

    def user_roots(self) -> list[Path]:
        """Folders searched for user AGENTS files: home, `$VTCODE_HOME`, `~/.config/vtcode`."""
        roots = [p for p in (self.user_home, self.vtcode_home, self.user_config_root) if p is not None]
        return _dedup(roots)

    def user_rule_folders(self) -> list[Path]:
        """`$VTCODE_HOME/rules` and `~/.config/vtcode/rules` (never `~/rules`, decision 5)."""
        return _dedup([root / "rules" for root in (self.vtcode_home, self.user_config_root) if root])

    def import_roots(self) -> list[Path]:
        """Where `@` imports may resolve: the project, the workspace and the vtcode config roots."""
        roots = [self.project_root, self.workspace, self.vtcode_home, self.user_config_root]
        return _dedup([root for root in roots if root is not None])

    def workspace_roots(self) -> list[Path]:
        """Where a workspace file (or what it imports) may resolve: the project and the workspace."""
        return _dedup([self.project_root, self.workspace])

    def admits_workspace_file(self, path: Path) -> bool:
        """Whether a workspace file, a prompt layer or a workspace import may be read at real `path`.

        It must resolve inside the project, and never into vtcode's or the user's configuration: a
        repository chooses these files, so a symlink or `@~/...` must not send `$VTCODE_HOME/vtcode.toml`
        (MCP bearer headers), `~/.config/gh/hosts.yml` or `~/.ssh/...` to the provider. The dot-folders
        and dotfiles of home count as private even when the project holds home (a dotfiles repository).
        """
        if not any(is_within(path, root) for root in self.workspace_roots()):
            return False
        private = [self.vtcode_home, self.user_config_root]
        if self.user_home is not None and is_within(path, self.user_home) and path != self.user_home:
            first = relative_posix(path, self.user_home).split("/", 1)[0]
            if first.startswith("."):
                private.append(self.user_home / first)
        # A folder that holds the workspace itself (a project kept under ~/.local) is not private to it.
        return not any(
            folder is not None and is_within(path, folder) and not is_within(self.workspace, folder)
            for folder in private
        )

    def workspace_bases(self) -> list[Path]:
        """Folders whose rule folders are read: the project root and, when different, the workspace."""
        return _dedup([self.project_root, self.workspace])


def _dedup(paths: list[Path]) -> list[Path]:
    return list(dict.fromkeys(paths))


def is_within(path: Path, root: Path) -> bool:
    """Whether `path` is `root` or below it (both absolute and normalized)."""
    # String prefixes: this runs for every candidate of every rebuild, and pathlib is slow at it.
    inner, outer = os.fspath(path), os.fspath(root)
    return inner == outer or inner.startswith(outer.rstrip("/") + "/")


def relative_posix(path: Path, root: Path) -> str:
    """`path` relative to `root` (which contains it) as a POSIX string, `.` for the root itself."""
    inner, outer = os.fspath(path), os.fspath(root).rstrip("/")
    if inner == outer:
        return "."
    return inner[len(outer) + 1 :]


def display_path(path: Path, *, project_root: Path, home: Path | None) -> str:
    """How a source is shown: relative to the project root, `~/...` under home, else absolute."""
    if is_within(path, project_root):
        relative = relative_posix(path, project_root)
        return path.name if relative == "." else relative
    if home is not None and is_within(path, home):
        relative = relative_posix(path, home)
        return "~" if relative == "." else f"~/{relative}"
    return path.as_posix()
