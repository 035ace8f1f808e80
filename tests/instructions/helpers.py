"""A fake home and repository for instruction tests, and shortcuts to run the pipeline on them.

`R/` is a git repository (it holds `.git`), `H/` the user's home with `H/.vtcode` as `$VTCODE_HOME`,
as in the notation of the reference's acceptance cases.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import msgspec

from vtcode.instructions import InstructionOptions, InstructionsResult, MatchProbe, load_instructions
from vtcode.tools.file_set import workspace_files

PRECEDENCE = (
    "Entries are listed from lowest to highest precedence; when two entries conflict, follow the later one."
)


@dataclass(frozen=True)
class Layout:
    """A repository `root` and a user `home` under one temporary folder."""

    base: Path

    @property
    def root(self) -> Path:
        """`R/`, the project root."""
        return self.base / "R"

    @property
    def home(self) -> Path:
        """`H/`, the user's home folder."""
        return self.base / "H"

    @property
    def vtcode_home(self) -> Path:
        """`H/.vtcode`, `$VTCODE_HOME`."""
        return self.home / ".vtcode"

    def write(self, relative: str, content: str | bytes, *, under: Path | None = None) -> Path:
        """Write a file below `under` (default: the root), creating folders."""
        path = (under or self.root) / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, encoding="utf-8")
        return path

    def user(self, relative: str, content: str | bytes) -> Path:
        """Write a file below the home folder."""
        return self.write(relative, content, under=self.home)

    def options(self, workspace: Path | None = None, **changes: Any) -> InstructionOptions:
        """Options for the workspace (default: the root) with `changes` applied."""
        base = InstructionOptions.for_workspace(
            workspace or self.root, vtcode_home=self.vtcode_home, user_home=self.home
        )
        return msgspec.structs.replace(base, **changes)

    def load(
        self, active: Sequence[str] = (), *, workspace: Path | None = None, **changes: Any
    ) -> InstructionsResult:
        """Run the whole pipeline, with the never-matching check on."""
        options = self.options(workspace, **changes)
        probe = MatchProbe(options.project_root, workspace_files)
        return load_instructions(options, active, probe=probe)


def make_layout(tmp_path: Path, *, git: bool = True) -> Layout:
    """A fresh layout; `R/.git` exists unless `git` is False."""
    layout = Layout(tmp_path)
    layout.root.mkdir(parents=True)
    layout.home.mkdir(parents=True)
    if git:
        (layout.root / ".git").mkdir()
    return layout


def instruction_map(result: InstructionsResult) -> list[str]:
    """The `### Instruction map` entries without numbering, e.g. `AGENTS.md (workspace AGENTS)`."""
    if result.appendix is None:
        return []
    section = result.appendix.split("### Instruction map\n", 1)[1].split("\n\n", 1)[0]
    return [line.split(". ", 1)[1] for line in section.splitlines()]


def bodies(result: InstructionsResult) -> list[str]:
    """The text of each loaded source, in precedence order."""
    return [source.text for source in result.sources]


def reasons(result: InstructionsResult) -> list[tuple[str, str, str]]:
    """Diagnostics as `(path, severity, reason)` tuples."""
    return [(d.path, d.severity, d.reason) for d in result.diagnostics]


def age(tree: Path, seconds: int = 3600) -> None:
    """Backdate every file and folder below `tree`, so no timestamp is too fresh to trust.

    Change detection re-checks anything modified in the last two seconds (a second write in the
    same timestamp tick could otherwise go unseen); tests about "nothing changed" start from old files.
    """
    import os
    import time

    past = time.time() - seconds
    for directory, dirnames, filenames in os.walk(tree):
        for name in [*dirnames, *filenames]:
            os.utime(os.path.join(directory, name), (past, past), follow_symlinks=False)
    os.utime(tree, (past, past))


def snapshot_repo(base: Path, home: Path) -> Path:
    """The repository of the CLI snapshot tests; `home` is the test's (isolated) HOME."""
    repo = base / "repo"
    (repo / ".git").mkdir(parents=True)
    files: dict[str, str | bytes] = {
        "AGENTS.md": "# Repo\n\n- Run `pytest -q` before committing.\n<!-- maintainers only -->\n",
        "src/AGENTS.md": "- Keep modules under 400 lines.\n",
        "src/app.py": "print('hi')\n",
        ".vtcode/rules/python.md": "---\npaths: src/**/*.py\n---\n- Type everything.\n",
        ".vtcode/rules/web.md": "---\npaths: web/**/*.ts\n---\n- Use strict mode.\n",
        "CLAUDE.md": b"\x00\x01 not text",
    }
    for relative, content in files.items():
        path = repo / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content)
    user = home / ".vtcode" / "AGENTS.md"
    user.parent.mkdir(parents=True, exist_ok=True)
    user.write_text("- Answer in English.\n")
    return repo


def normalized(payload: Any, repo: Path) -> Any:
    """`payload` with the temporary repository path replaced by `<REPO>`, for golden comparison."""
    import json

    text = json.dumps(payload).replace(json.dumps(str(repo.resolve()))[1:-1], "<REPO>")
    return json.loads(text)
