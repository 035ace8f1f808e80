"""Discovery of instruction sources in precedence order, lowest first (reference section 5.10).

1. user AGENTS files: in `~`, `$VTCODE_HOME`, `~/.config/vtcode`, each of `AGENTS.override.md`,
   `AGENTS.md` and the fallback names that exists (`~/CLAUDE.md` is not a user source);
2. user rules: unconditional ones by path, then matched ones by specificity and path;
3. `agent.instruction_files`, in configured order;
4. the workspace hierarchy, project root first, the folders of the active paths last: per folder the
   first usable of `AGENTS.override.md`, `AGENTS.md`, fallbacks (the others are shadowed), then
   `CLAUDE.md`, then Claude Code's personal `CLAUDE.local.md`;
5. workspace rules (`rule_folders`: `.vtcode/rules`, `.claude/rules`, `.cursor/rules` and nested ones,
   `.github/instructions`, `.cursorrules`, `.github/copilot-instructions.md`), unconditional ones by
   path, then matched ones by specificity and path.

A file reached twice (a symlink, a git root that is also home) counts once, at its first position.
Excluded and unusable files are skipped with a diagnostic and never hide the others. A workspace file
whose real path leaves the project and the vtcode config roots (a committed symlink to a private file)
is skipped too: the same containment as for `@` imports.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

import msgspec

from vtcode.core.instructions.frontmatter import FrontmatterError, parse_rule_scope
from vtcode.core.instructions.globs import (
    ExcludePattern,
    PathPattern,
    PatternError,
    compile_pattern,
    excluded_by,
    is_universal,
    matching_patterns,
    specificity,
)
from vtcode.core.instructions.model import Diagnostic, Kind, Scope, Severity
from vtcode.core.instructions.text import split_frontmatter
from vtcode.instructions.active import depth, hierarchy_levels, match_candidates, nearest_levels
from vtcode.instructions.extras import expand_pattern
from vtcode.instructions.options import InstructionOptions, display_path, is_within, real
from vtcode.instructions.reader import SourceReader, Unreadable
from vtcode.instructions.rule_folders import (
    RuleFolder,
    list_rule_files,
    user_rule_folders,
    workspace_rule_files,
    workspace_rule_folders,
)

OVERRIDE_NAME = "AGENTS.override.md"
AGENTS_NAME = "AGENTS.md"
CLAUDE_NAME = "CLAUDE.md"
CLAUDE_LOCAL_NAME = "CLAUDE.local.md"

# Specificity ranks for the budget (core.instructions.budget): after every source's fair floor, the rest
# goes to the highest rank first. The nearest folder files (those of the active paths' own folders),
# then matching path-scoped rules, then the other folders toward the root, then always-apply rules,
# then configured extra files and user files.
TIER_USER = 0
TIER_USER_MATCHED = 1
TIER_EXTRA = 2
TIER_ALWAYS = 3
TIER_FOLDER = 10  # + the folder's depth below the project root
TIER_MATCHED = 1_000_000
TIER_NEAREST = 2_000_000  # + the folder's depth


class Entry(msgspec.Struct, frozen=True):
    """A discovered source with its raw text (a rule's frontmatter already removed)."""

    path: Path
    display: str
    scope: Scope
    kind: Kind
    tier: int
    body: str
    matched_by: tuple[str, ...] = ()


class UnmatchedRule(msgspec.Struct, frozen=True):
    """A path-scoped rule that no active path matches (yet): explained, and checked for never matching."""

    display: str
    base: Path
    patterns: tuple[PathPattern, ...]


class Discovery(msgspec.Struct):
    """Everything one discovery run found, and what it looked at."""

    entries: list[Entry] = msgspec.field(default_factory=list)
    diagnostics: list[Diagnostic] = msgspec.field(default_factory=list)
    watch: set[str] = msgspec.field(default_factory=set)
    unmatched: list[UnmatchedRule] = msgspec.field(default_factory=list)


def family_names(fallbacks: Sequence[str]) -> list[str]:
    """Per-folder AGENTS candidates in order: the override, AGENTS.md, then the fallback names."""
    names = [OVERRIDE_NAME, AGENTS_NAME]
    for raw in fallbacks:
        name = raw.strip()
        if name and name.lower() not in (n.lower() for n in names):
            names.append(name)
    return names


def discover(
    options: InstructionOptions,
    reader: SourceReader,
    excludes: Sequence[ExcludePattern],
    active: Sequence[Path],
) -> Discovery:
    """Find, read and order every source that applies to the `active` paths."""
    return _Discoverer(options, reader, excludes, active).run()


class _Discoverer:
    def __init__(
        self,
        options: InstructionOptions,
        reader: SourceReader,
        excludes: Sequence[ExcludePattern],
        active: Sequence[Path],
    ) -> None:
        self.options = options
        self.reader = reader
        self.excludes = excludes
        self.active = active
        self.found = Discovery()
        self.seen: set[Path] = set()
        self.names = family_names(options.fallback_filenames)
        self.candidates: dict[Path, list[tuple[str, bool]]] = {}
        # Workspace files may resolve only where imports may: the project and the vtcode config roots.
        self.roots = options.import_roots()

    def run(self) -> Discovery:
        """Every group in precedence order; see the module docstring."""
        for root in self.options.user_roots():
            for name in self.names:
                self._add(self._take(root / name, "user", "agents", TIER_USER))
        self._rules(user_rule_folders(self.options), "user")
        self._extras()
        levels = hierarchy_levels(self.options, self.active)
        nearest = nearest_levels(self.options, self.active)
        for level in levels:
            below = depth(level, self.options.project_root)
            self._level(level, (TIER_NEAREST if level in nearest else TIER_FOLDER) + below)
        self._rules(workspace_rule_folders(self.options, levels), "workspace")
        return self.found

    def display(self, path: Path) -> str:
        """How `path` is shown in the map and in diagnostics."""
        return display_path(path, project_root=self.options.project_root, home=self.options.user_home)

    def _diagnose(self, path: Path | str, severity: Severity, reason: str) -> None:
        shown = path if isinstance(path, str) else self.display(path)
        self.found.diagnostics.append(Diagnostic(shown, severity, reason))

    def _add(self, entry: Entry | None) -> None:
        if entry is not None and entry.path not in self.seen:
            self.seen.add(entry.path)
            self.found.entries.append(entry)

    def _read(self, lexical: Path, scope: Scope, known_real: Path | None = None) -> tuple[Path, str] | None:
        """The real path and text of a candidate; None (with a diagnostic when due) if unusable."""
        self.found.watch.add(os.fspath(lexical))
        if known_real is None and not os.path.lexists(lexical):
            return None
        path = known_real or real(lexical)
        if scope == "workspace" and not self.options.admits_workspace_file(path):
            # A repository can commit `AGENTS.md -> ~/.ssh/id_rsa`; its files must stay inside it, out
            # of the user's and vtcode's configuration.
            self._diagnose(lexical, "error", f"links outside the project ({path.as_posix()}); skipped")
            return None
        pattern = excluded_by(self.excludes, os.fspath(path))
        if pattern is not None:
            self._diagnose(lexical, "warning", f"excluded by agent.instruction_excludes {pattern!r}")
            return None
        if path in self.seen:
            return None
        text = self.reader.read(lexical)
        if isinstance(text, Unreadable):
            self._diagnose(lexical, "error", f"{text.reason}; skipped")
            return None
        return None if text is None else (path, text)

    def _take(self, lexical: Path, scope: Scope, kind: Kind, tier: int) -> Entry | None:
        read = self._read(lexical, scope)
        if read is None:
            return None
        path, text = read
        if kind == "agents" and path.name.lower() == CLAUDE_NAME.lower():
            kind = "claude"
        return Entry(path, self.display(path), scope, kind, tier, text)

    def _level(self, level: Path, tier: int) -> None:
        chosen: Entry | None = None
        for name in self.names:
            candidate = level / name
            if chosen is None:
                chosen = self._take(candidate, "workspace", "agents", tier)
                self._add(chosen)
                continue
            self.found.watch.add(os.fspath(candidate))
            if os.path.lexists(candidate):
                self._diagnose(candidate, "warning", f"shadowed by {chosen.display}; not loaded")
        self._add(self._take(level / CLAUDE_NAME, "workspace", "claude", tier))
        if self.options.claude_rules:
            # Personal and usually gitignored; read regardless, with the scope of CLAUDE.md beside it.
            self._add(self._take(level / CLAUDE_LOCAL_NAME, "workspace", "claude", tier))

    def _extras(self) -> None:
        for pattern in self.options.extra_patterns:
            if not pattern.strip():
                continue
            expansion = expand_pattern(
                pattern,
                root=self.options.project_root,
                home=self.options.user_home,
                watch=self.found.watch,
            )
            if expansion.problem is not None:
                self._diagnose(pattern, "warning", f"agent.instruction_files entry {expansion.problem}")
            elif not expansion.files:
                self._diagnose(pattern, "warning", "agent.instruction_files entry matches no file")
            # A project-relative entry names project files; a committed symlink must not make it read
            # a private file outside (the same rule as for AGENTS.md), while `~/` and absolute
            # entries are the user's own choice.
            relative = not (pattern.startswith("~") or os.path.isabs(pattern))
            for file in expansion.files:
                target = real(file)
                if relative and not any(is_within(target, root) for root in self.roots):
                    self._diagnose(file, "error", f"links outside the project ({target.as_posix()}); skipped")
                    continue
                self._add(self._take(file, "custom", "extra", TIER_EXTRA))

    def _rules(self, folders: Sequence[RuleFolder], scope: Scope) -> None:
        unconditional: list[Entry] = []
        matched: list[tuple[int, Entry]] = []
        local: set[Path] = set()
        for folder in folders:
            for rule_file in list_rule_files(folder, watch=self.found.watch):
                read = self._read(rule_file.path, scope, rule_file.real)
                if read is None or read[0] in local:
                    continue
                local.add(read[0])
                ranked = self._rule(folder, scope, *read)
                if ranked is None:
                    continue
                if ranked[1].matched_by:
                    matched.append(ranked)
                else:
                    unconditional.append(ranked[1])
        if scope == "workspace":
            for lexical in workspace_rule_files(self.options):
                # A single always-apply file, read as it is (no frontmatter semantics).
                read = self._read(lexical, scope)
                if read is not None and read[0] not in local:
                    local.add(read[0])
                    path, text = read
                    unconditional.append(Entry(path, self.display(path), scope, "rule", TIER_ALWAYS, text))
        unconditional.sort(key=lambda e: e.path)
        matched.sort(key=lambda pair: (pair[0], pair[1].path))
        for entry in [*unconditional, *(entry for _, entry in matched)]:
            self._add(entry)

    def _rule(self, folder: RuleFolder, scope: Scope, path: Path, text: str) -> tuple[int, Entry] | None:
        """A rule that applies, with its specificity; None when it does not apply or cannot be read."""
        split = split_frontmatter(text)
        try:
            rule_scope = parse_rule_scope(split.block)
        except FrontmatterError as exc:
            self._diagnose(path, "error", f"{exc}; rule skipped")
            return None
        patterns = rule_scope.patterns
        tier = TIER_USER if scope == "user" else TIER_ALWAYS
        entry = Entry(path, self.display(path), scope, "rule", tier, split.body)
        if rule_scope.always_apply or any(is_universal(p) for p in patterns):
            return 0, entry
        if not patterns:
            if folder.flavor == "cursor":
                self._diagnose(path, "warning", _cursor_on_request(described=rule_scope.described))
                return None
            if folder.flavor == "copilot":
                reason = "no `applyTo`: Copilot uses it only when attached by hand; vtcode does not load it"
                self._diagnose(path, "warning", reason)
                return None
            return 0, entry
        compiled: list[PathPattern] = []
        for pattern in patterns:
            try:
                compiled.append(compile_pattern(pattern))
            except PatternError as exc:
                self._diagnose(path, "warning", f"{exc}; pattern ignored")
        if not compiled:
            self._diagnose(path, "warning", "no usable pattern: the rule never applies")
            return None
        matched_by = matching_patterns(compiled, self._candidates(folder.base))
        if not matched_by:
            self.found.unmatched.append(UnmatchedRule(entry.display, folder.base, tuple(compiled)))
            return None
        tier = TIER_USER_MATCHED if scope == "user" else TIER_MATCHED
        ranked = Entry(path, entry.display, scope, "rule", tier, split.body, matched_by)
        return specificity(p.text for p in compiled), ranked

    def _candidates(self, base: Path) -> list[tuple[str, bool]]:
        if base not in self.candidates:
            self.candidates[base] = match_candidates(base, self.active)
        return self.candidates[base]


def _cursor_on_request(*, described: bool) -> str:
    """Why a Cursor rule without `globs` or `alwaysApply: true` is not loaded, in Cursor's own terms."""
    if described:
        return (
            "agent-requested in Cursor (a `description`, no `globs`, no `alwaysApply: true`): Cursor's "
            "model asks for it by its description, which vtcode cannot do; not loaded"
        )
    return (
        "manual in Cursor (no `description`, `globs` or `alwaysApply: true`): used only when mentioned "
        "with @; vtcode does not load it"
    )
