"""The state of a git work tree as counts, parsed from `git status --porcelain=v2 --branch`.

Counts, never file lists: the environment context tells the model whether the tree is dirty, and the
model asks git itself when it needs the files.
"""

from __future__ import annotations

import msgspec


class GitState(msgspec.Struct, frozen=True):
    """A repository's current branch and how many paths differ from it."""

    # None on a detached HEAD (then `commit` names where it points).
    branch: str | None
    commit: str | None = None
    staged: int = 0
    modified: int = 0
    untracked: int = 0
    conflicted: int = 0

    @property
    def clean(self) -> bool:
        """Nothing staged, modified, untracked or conflicted."""
        return not (self.staged or self.modified or self.untracked or self.conflicted)


def parse_porcelain_v2(text: str) -> GitState:
    """Count the entries of `git status --porcelain=v2 --branch` output (newline-separated)."""
    branch: str | None = None
    commit: str | None = None
    staged = modified = untracked = conflicted = 0
    for line in text.splitlines():
        if line.startswith("# branch.head "):
            head = line.removeprefix("# branch.head ")
            branch = None if head == "(detached)" else head
        elif line.startswith("# branch.oid "):
            oid = line.removeprefix("# branch.oid ")
            commit = None if oid == "(initial)" else oid[:12]
        elif line.startswith(("1 ", "2 ")):
            # "1 XY ..." / "2 XY ..." (renames): X is the index, Y the work tree, "." unchanged.
            xy = line[2:4]
            staged += xy[0] != "."
            modified += xy[1] != "."
        elif line.startswith("u "):
            conflicted += 1
        elif line.startswith("? "):
            untracked += 1
    return GitState(
        branch=branch,
        commit=commit,
        staged=staged,
        modified=modified,
        untracked=untracked,
        conflicted=conflicted,
    )
