"""Which path-scoped skills (`paths:` in the frontmatter) apply to the files a session worked on (pure).

A skill's `paths` globs follow the path-scoped rules (`core.instructions.globs`): `*` stays within a
folder, `**` spans folders, `{a,b}` alternates, and a pattern without `/` matches the file name at any
depth. They are matched against the file's path relative to the project root, so one skill reads the
same wherever it is installed (project or user folder).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from vtcode.core.definitions.model import Definition
from vtcode.core.instructions.globs import PathPattern, PatternError, compile_pattern, split_patterns


@dataclass(frozen=True)
class PathScope:
    """A skill and its compiled `paths` patterns."""

    skill: Definition
    patterns: tuple[PathPattern, ...]

    def first_match(self, relatives: Iterable[str]) -> str | None:
        """The first project-relative POSIX file path that one of the patterns matches, or None."""
        for path in relatives:
            if path and path != "." and any(pattern.matches(path) for pattern in self.patterns):
                return path
        return None


@dataclass(frozen=True)
class Scopes:
    """The path-scoped skills of a session, and why some patterns could not be used."""

    scopes: tuple[PathScope, ...]
    problems: tuple[str, ...] = ()


def path_scopes(skills: Iterable[Definition]) -> Scopes:
    """The skills that load themselves for matching files: those with `paths` the model may load.

    A skill hidden from the model (`disable-model-invocation: true`) is only ever loaded by a person
    typing `/name`, so its `paths` do nothing.
    """
    scopes: list[PathScope] = []
    problems: list[str] = []
    for skill in sorted(skills, key=lambda s: s.name):
        if skill.kind != "skill" or not skill.paths or not skill.model_invocable:
            continue
        patterns: list[PathPattern] = []
        for text in patterns_of(skill):
            try:
                patterns.append(compile_pattern(text))
            except PatternError as error:
                problems.append(f"{skill.path}: paths: {error} (ignored)")
        if patterns:
            scopes.append(PathScope(skill, tuple(patterns)))
    return Scopes(tuple(scopes), tuple(problems))


def patterns_of(skill: Definition) -> list[str]:
    """The `paths` patterns as the rules read them: `*.{ts,tsx}` is one pattern, not two.

    The loader splits a `paths` string at every comma; joining the pieces back and splitting outside
    braces gives the rules' reading without touching the loader.
    """
    return split_patterns(",".join(skill.paths))
