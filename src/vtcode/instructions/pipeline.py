"""The instruction pipeline end to end: discover, expand imports, apply the budget, render the appendix.

`load_instructions` is what the runtime calls whenever a re-check says something changed, and what
`vtcode instructions` shows. Nothing here raises for a bad file: every problem is a diagnostic.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from vtcode.core.instructions.budget import Allocation, fit_sources
from vtcode.core.instructions.globs import compile_excludes
from vtcode.core.instructions.model import Diagnostic, LoadedSource
from vtcode.core.instructions.render import render_appendix, truncation_note
from vtcode.instructions.active import resolve_active
from vtcode.instructions.discovery import discover
from vtcode.instructions.imports import ImportExpander
from vtcode.instructions.lint import MatchProbe
from vtcode.instructions.options import InstructionOptions, display_path
from vtcode.instructions.reader import SourceReader


@dataclass(frozen=True)
class InstructionsResult:
    """One run of the pipeline: the sources in precedence order, what the budget kept, the appendix."""

    options: InstructionOptions
    active_paths: tuple[str, ...]
    sources: tuple[LoadedSource, ...]
    allocations: tuple[Allocation, ...]
    diagnostics: tuple[Diagnostic, ...]
    # The rendered appendix without its `# INSTRUCTIONS` heading; None when there is nothing to say.
    appendix: str | None
    watch: frozenset[str]

    @property
    def budget(self) -> int:
        """The byte budget the sources were fitted into."""
        return self.options.max_bytes


def load_instructions(
    options: InstructionOptions,
    active_paths: Sequence[str] = (),
    *,
    reader: SourceReader | None = None,
    probe: MatchProbe | None = None,
) -> InstructionsResult:
    """Discover and render the instructions for `active_paths` (workspace-relative or absolute).

    `reader` and `probe` carry caches between runs of one session; `probe` also enables the check for
    path-scoped rules that can never match (without it such rules are only said not to match yet).
    """
    reader = reader or SourceReader()
    if options.max_bytes <= 0:
        # A zero budget switches file-based instructions off; user_instructions still render.
        appendix = render_appendix(options.user_instructions, [])
        return InstructionsResult(options, tuple(active_paths), (), (), (), appendix, frozenset())
    excludes, problems = compile_excludes(
        options.excludes,
        root=os.fspath(options.project_root),
        home=os.fspath(options.user_home) if options.user_home else None,
    )
    active = resolve_active(options, active_paths)
    found = discover(options, reader, excludes, active)
    diagnostics = [Diagnostic("agent.instruction_excludes", "error", p) for p in problems]
    diagnostics.extend(found.diagnostics)

    def display(path: Path) -> str:
        return display_path(path, project_root=options.project_root, home=options.user_home)

    expander = ImportExpander(
        options,
        reader,
        excludes,
        display=display,
        diagnostics=diagnostics,
        watch=found.watch,
        sources={entry.path: entry.display for entry in found.entries},
    )
    sources: list[LoadedSource] = []
    for entry in found.entries:
        text = expander.expand(entry.body, entry.path, from_workspace=entry.scope == "workspace")
        if not text:
            diagnostics.append(Diagnostic(entry.display, "warning", "empty after removing comments; skipped"))
            continue
        sources.append(
            LoadedSource(
                path=entry.path.as_posix(),
                display=entry.display,
                scope=entry.scope,
                kind=entry.kind,
                text=text,
                tier=entry.tier,
                matched_by=entry.matched_by,
            )
        )
    for rule in found.unmatched:
        shown = ", ".join(f"`{p.text}`" for p in rule.patterns)
        if probe is not None and not probe.any_match(rule.base, rule.patterns):
            diagnostics.append(
                Diagnostic(rule.display, "warning", f"paths {shown} never match a file in the workspace")
            )
        else:
            reason = f"paths {shown} match none of the active paths; not loaded"
            diagnostics.append(Diagnostic(rule.display, "info", reason))
    allocations, segments, cuts = fit_sources(sources, options.max_bytes)
    for source, allocation in zip(sources, allocations, strict=True):
        if allocation.truncated:
            diagnostics.append(Diagnostic(source.display, "warning", _cut_reason(allocation, options)))
    note = truncation_note(cuts, options.max_bytes) if cuts else None
    return InstructionsResult(
        options=options,
        active_paths=tuple(active_paths),
        sources=tuple(sources),
        allocations=tuple(allocations),
        # The same import problem is met again when its file is also inlined elsewhere: report once.
        diagnostics=tuple(dict.fromkeys(diagnostics)),
        appendix=render_appendix(options.user_instructions, segments, note),
        watch=frozenset(found.watch),
    )


def _cut_reason(allocation: Allocation, options: InstructionOptions) -> str:
    budget = f"agent.instruction_max_bytes ({options.max_bytes} bytes)"
    if allocation.dropped:
        return f"omitted ({allocation.total_bytes} bytes): no room left in {budget}"
    return f"truncated to {allocation.kept_bytes} of {allocation.total_bytes} bytes to fit {budget}"
