"""`@path` imports inside instruction files (reference section 5.11; SPEC section 5, decision 3).

Outside code (fenced blocks and inline code spans), every `@path` token of a line imports that file
right after the line, as `[Imported from <real path>]` followed by its (recursively expanded) text. An
import resolves relative to the importing file's folder (`~/` from home) and must land inside the
project root, the workspace or, for the user's own files, a vtcode config root (`$VTCODE_HOME`,
`~/.config/vtcode`): `@~/.ssh/config` is refused. What a workspace file imports (however deep) is
read as a workspace file: inside the project and outside every configuration folder, so a
repository's `@~/.vtcode/vtcode.toml` is refused too. Exclusions apply to imports as to sources. A
file is inlined at most once per appendix, and never when it is a source of its own (`CLAUDE.md` =
`@AGENTS.md` is common): the importing text then says which section holds it. A cycle, an import
deeper than `agent.instruction_import_max_depth`, a missing file or a bad one is skipped with a
diagnostic.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

from vtcode.core.instructions.globs import ExcludePattern, excluded_by
from vtcode.core.instructions.markdown import FenceTracker
from vtcode.core.instructions.model import Diagnostic
from vtcode.core.instructions.text import import_tokens, split_frontmatter, split_lines
from vtcode.core.instructions.text import strip_html_comments as strip_comments
from vtcode.instructions.options import InstructionOptions, is_within, real
from vtcode.instructions.reader import SourceReader, Unreadable

# Imported files inside these folders are rules: their frontmatter is not instruction text.
_RULE_FOLDERS = (".vtcode/rules", ".claude/rules", ".cursor/rules", ".github/instructions")


class ImportExpander:
    """Expands the imports of every source of one discovery run, in precedence order."""

    def __init__(
        self,
        options: InstructionOptions,
        reader: SourceReader,
        excludes: Sequence[ExcludePattern],
        *,
        display: Callable[[Path], str],
        diagnostics: list[Diagnostic],
        watch: set[str],
        sources: Mapping[Path, str] | None = None,
    ) -> None:
        self._options = options
        self._reader = reader
        self._excludes = excludes
        self._display = display
        self._diagnostics = diagnostics
        self._watch = watch
        self._roots = options.import_roots()
        self._max_depth = max(options.import_max_depth, 1)
        # Shared by the whole appendix: a file is inlined once, at its first reference.
        self._imported: set[Path] = set()
        # Real path -> how the section of each source of this run is shown: those are never inlined.
        self._sources = dict(sources or {})
        self._from_workspace = False

    def expand(self, text: str, source: Path, *, from_workspace: bool = False) -> str:
        """`text` of the source at real path `source`, comments removed and imports inlined, trimmed.

        `from_workspace`: the source came with the repository, so its imports follow the workspace rule.
        """
        self._from_workspace = from_workspace
        return self._expand(strip_comments(text), source, depth=0, stack=(source,)).strip()

    def _expand(self, text: str, source: Path, *, depth: int, stack: tuple[Path, ...]) -> str:
        out: list[str] = []
        fences = FenceTracker()
        for line in split_lines(text):
            out.append(f"{line}\n")
            if fences.feed(line):
                continue
            for target in import_tokens(line):
                inlined = self._import(target, source, depth=depth, stack=stack)
                if inlined:
                    out.append(inlined)
        return "".join(out)

    def _import(self, target: str, source: Path, *, depth: int, stack: tuple[Path, ...]) -> str:
        where = self._display(source)
        if target == "~" or target.startswith("~/"):
            if self._options.user_home is None:
                self._warn(where, f"import @{target} names ~ but there is no home folder; not loaded")
                return ""
            candidate = self._options.user_home / target[2:]
        else:
            candidate = source.parent / target
        # Where it leads is checked before anything else, so nothing outside the roots is even probed.
        path = real(candidate)
        if not any(is_within(path, root) for root in self._roots):
            self._warn(
                where,
                f"import @{target} is outside the project and the vtcode config folders; not loaded",
            )
            return ""
        if self._from_workspace and not self._options.admits_workspace_file(path):
            self._warn(
                where,
                f"import @{target} leads into vtcode's or your configuration, which a workspace file may "
                "not import; not loaded",
            )
            return ""
        self._watch.add(os.fspath(candidate))
        if not os.path.lexists(candidate):
            self._warn(where, f"import @{target} not found; not loaded")
            return ""
        pattern = excluded_by(self._excludes, os.fspath(path))
        if pattern is not None:
            self._warn(where, f"import @{target} is excluded by agent.instruction_excludes {pattern!r}")
            return ""
        if path in stack:
            chain = " -> ".join(self._display(p) for p in (*stack, path))
            self._warn(where, f"import cycle {chain}; @{target} not loaded again")
            return ""
        if depth + 1 > self._max_depth:
            self._warn(
                where,
                f"import @{target} is deeper than agent.instruction_import_max_depth "
                f"({self._max_depth}); not loaded",
            )
            return ""
        if path in self._sources:
            return f"[{self._sources[path]} is loaded as its own section; not repeated here]\n\n"
        if path in self._imported:
            return ""
        text = self._reader.read(path)
        if isinstance(text, Unreadable) or text is None:
            reason = text.reason if isinstance(text, Unreadable) else "not found"
            self._diagnostics.append(Diagnostic(where, "error", f"import @{target}: {reason}; not loaded"))
            return ""
        self._imported.add(path)
        if _is_rule(path):
            text = split_frontmatter(text).body
        body = self._expand(strip_comments(text), path, depth=depth + 1, stack=(*stack, path)).strip()
        return f"[Imported from {path.as_posix()}]\n{body}\n\n" if body else ""

    def _warn(self, where: str, reason: str) -> None:
        self._diagnostics.append(Diagnostic(where, "warning", reason))


def _is_rule(path: Path) -> bool:
    posix = path.as_posix()
    return path.suffix == ".mdc" or any(f"/{folder}/" in posix for folder in _RULE_FOLDERS)
