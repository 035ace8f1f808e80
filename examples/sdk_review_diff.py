"""Review the uncommitted changes of a git repository with vtcode, and get a typed verdict back.

The model reads the diff through a custom tool (`git_diff`) and answers with a `Review`; vtcode checks
the answer against the schema and re-asks when it does not fit.

Run: python examples/sdk_review_diff.py PATH/TO/REPO   (with a provider configured as for `vtcode`)
"""

from __future__ import annotations

import asyncio
import dataclasses
import subprocess
import sys
from pathlib import Path
from typing import Literal

import msgspec

import vtcode.sdk as vt


class Finding(msgspec.Struct):
    """One problem in the diff."""

    path: str
    problem: str


class Review(msgspec.Struct):
    """The verdict on a diff."""

    verdict: Literal["approve", "request_changes"]
    findings: list[Finding]


def diff_tool(repo: Path) -> vt.FunctionTool:
    """A read-only tool that shows the repository's uncommitted changes."""

    @vt.tool(read_only=True)
    def git_diff(path: str | None = None) -> str:
        """Show the uncommitted changes (`git diff HEAD`).

        Args:
            path: only the changes of this file
        """
        argv = ["git", "diff", "HEAD", "--", path] if path else ["git", "diff", "HEAD"]
        done = subprocess.run(argv, cwd=repo, capture_output=True, text=True, check=False)
        if done.returncode != 0:
            raise vt.ToolError(f"git diff failed: {done.stderr.strip()}")
        return done.stdout or "(no changes)"

    return git_diff


async def review(repo: Path, base: vt.Options | None = None) -> Review:
    """Review `repo`'s uncommitted changes; `base` chooses the provider and model (default: the config)."""
    opts = dataclasses.replace(
        base or vt.Options(),
        workspace=repo,
        approval="read-only",
        tools=[diff_tool(repo)],
        output_type=Review,
    )
    async with await vt.Session.open(opts) as session:
        result = await session.run("Review the uncommitted changes (use git_diff). Be brief.")
    result.raise_for_status()
    verdict: Review = result.output
    return verdict


def main() -> None:
    """Print the verdict and the findings; exit 1 when changes are requested."""
    repo = Path(sys.argv[1] if len(sys.argv) > 1 else ".").resolve()
    verdict = asyncio.run(review(repo))
    print(verdict.verdict)
    for finding in verdict.findings:
        print(f"- {finding.path}: {finding.problem}")
    sys.exit(0 if verdict.verdict == "approve" else 1)


if __name__ == "__main__":
    main()
