"""`/memory`: which instruction files apply to the paths touched so far, and what went wrong reading them."""

from __future__ import annotations

from vtcode.instructions.report import InstructionsReport


def memory_text(report: InstructionsReport) -> str:
    """The `/memory` text: sources in precedence order (lowest first), then diagnostics."""
    lines = [f"project root  {report.project_root}", f"active paths  {', '.join(report.active_paths)}", ""]
    if report.sources:
        lines.append("Sources (lowest precedence first)")
        for source in report.sources:
            cut = ", truncated" if source.truncated else ""
            matched = f"  matched by {', '.join(source.matched_by)}" if source.matched_by else ""
            lines.append(f"  {source.path}  [{source.scope} {source.kind}, {source.bytes:,} B{cut}]{matched}")
    else:
        lines.append("No instruction files apply (AGENTS.md, CLAUDE.md, .vtcode/rules, ...).")
    lines.append("")
    if report.diagnostics:
        lines.append("Diagnostics")
        lines += [f"  {d.path}: {d.reason}" for d in report.diagnostics]
    else:
        lines.append("No diagnostics.")
    lines += ["", f"budget {report.budget_bytes:,} bytes", "", "Esc closes this view."]
    return "\n".join(lines)
