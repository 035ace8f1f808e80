"""The `vtcode instructions --json` shape: the sources that apply, diagnostics, budget and appendix."""

from __future__ import annotations

import msgspec

from vtcode.core.instructions.model import Diagnostic, Kind, Scope
from vtcode.core.instructions.render import appendix_block
from vtcode.instructions.pipeline import InstructionsResult


class SourceReport(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """One source as listed: `bytes` is what the appendix kept of it, `truncated` whether any was cut."""

    path: str
    scope: Scope
    kind: Kind
    label: str
    matched_by: tuple[str, ...]
    bytes: int
    truncated: bool


class InstructionsReport(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """Everything `vtcode instructions` shows; sources in precedence order, lowest first."""

    project_root: str
    active_paths: tuple[str, ...]
    sources: tuple[SourceReport, ...]
    diagnostics: tuple[Diagnostic, ...]
    budget_bytes: int
    appendix: str


def instructions_report(result: InstructionsResult) -> InstructionsReport:
    """The report of one pipeline run; `appendix` is the block as the model receives it."""
    sources = tuple(
        SourceReport(
            path=source.display,
            scope=source.scope,
            kind=source.kind,
            label=source.label,
            matched_by=source.matched_by,
            bytes=allocation.kept_bytes,
            truncated=allocation.truncated,
        )
        for source, allocation in zip(result.sources, result.allocations, strict=True)
    )
    active = tuple(dict.fromkeys([*result.active_paths, "."]))
    return InstructionsReport(
        project_root=result.options.project_root.as_posix(),
        active_paths=active,
        sources=sources,
        diagnostics=result.diagnostics,
        budget_bytes=result.budget,
        appendix=appendix_block(result.appendix),
    )
