"""`vtcode prompt [--profile P] [--path FILE]... [--json]`: the assembled system prompt and its parts."""

from __future__ import annotations

import argparse
import sys
import time
from typing import TextIO

import msgspec

from vtcode.cli.instructions_cmd import prompt_builder, write_report
from vtcode.runtime.environment import environment_context
from vtcode.runtime.system_prompt import PromptReport


def run_prompt(args: argparse.Namespace, overrides: list[str], *, out: TextIO | None = None) -> int:
    """Print the static prompt, the runtime guidance and the appendix with token estimates."""
    out = out or sys.stdout
    builder = prompt_builder(args, overrides, profile=getattr(args, "profile", None))
    context = environment_context(builder.settings, builder.workspace, time.time)
    report = msgspec.structs.replace(builder.prompt_report(), environment_context=context)
    return write_report(args, report, out, format_prompt)


def format_prompt(report: PromptReport) -> str:
    """The prompt as text for a person: a summary, then each part under a marked heading."""
    tokens = report.estimated_tokens
    return (
        f"profile    {report.profile}\n"
        f"cache key  {report.cache_key}\n"
        f"tokens     static {tokens.static:,} (runtime guidance {tokens.runtime_guidance:,} of it), "
        f"appendix {tokens.appendix:,}  (estimated: UTF-8 bytes / 4)\n"
        f"\n===== static prompt (sent unchanged in every request) =====\n{report.static}\n"
        f"\n===== runtime guidance (inside the static prompt) =====\n{report.runtime_guidance}\n"
        f"\n===== appendix (changes only when an instruction file changes) =====\n"
        f"{report.appendix or '(none: no instruction sources apply)'}\n"
        f"\n===== environment context (the first user-role message of a session) =====\n"
        f"{report.environment_context}\n"
    )
