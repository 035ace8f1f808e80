"""How a usage report reads to a person: one line (exec's stderr, the status line) or a table (`/usage`,
`vtcode usage`)."""

from __future__ import annotations

from vtcode.core.pricing import format_cost
from vtcode.core.usage_ledger import by_model, by_source, summarize
from vtcode.protocol.events import UsageSummary
from vtcode.protocol.messages import Usage
from vtcode.protocol.usage import UsageReport, UsageRow


def tokens_text(usage: Usage) -> str:
    """`1,234 in (1,000 cache read, 50 cache write) · 56 out (12 reasoning)`."""
    cache = [
        f"{usage.cached_input_tokens:,} cache read" if usage.cached_input_tokens else "",
        f"{usage.cache_creation_input_tokens:,} cache write" if usage.cache_creation_input_tokens else "",
    ]
    detail = ", ".join(part for part in cache if part)
    text = f"{usage.input_tokens:,} in" + (f" ({detail})" if detail else "")
    text += f" · {usage.output_tokens:,} out"
    if usage.reasoning_tokens:
        text += f" ({usage.reasoning_tokens:,} reasoning)"
    return text


def cost_text(report: UsageReport) -> str:
    """The total cost, or why it is unknown (and what is known of it)."""
    if report.cost_usd is not None:
        return format_cost(report.cost_usd)
    known = f"; {format_cost(report.known_cost_usd)} for the rest" if report.known_cost_usd else ""
    return f"cost unknown (no price for {', '.join(report.unpriced)}{known})"


def report_of(event: UsageSummary) -> UsageReport:
    """The report a `usage` event carries."""
    return summarize(event.rows, prices_taken=event.prices_taken)


def one_line(report: UsageReport) -> str:
    """`usage: 3 requests · 1,234 in · 56 out · $0.0123`."""
    requests = f"{report.requests} request" + ("" if report.requests == 1 else "s")
    return f"usage: {requests} · {tokens_text(report.usage)} · {cost_text(report)}"


def _row_line(label: str, row: UsageRow) -> str:
    cost = format_cost(row.cost_usd)
    seconds = row.api_ms / 1000
    return f"  {label:<28} {row.requests:>4} req  {tokens_text(row.usage)}  {seconds:.1f}s API  {cost}"


def table(report: UsageReport) -> list[str]:
    """The report by source and by model, then the total and where the prices come from."""
    if not report.rows:
        return ["no model calls recorded (none made yet, or the session is older than usage records)"]
    lines = ["by source:"]
    lines += [_row_line(source, row) for source, row in by_source(report.rows).items()]
    lines.append("by model:")
    lines += [_row_line(model, row) for model, row in by_model(report.rows).items()]
    lines.append(f"total: {one_line(report).removeprefix('usage: ')} · {report.api_ms / 1000:.1f}s API")
    if report.prices_taken:
        lines.append(f'list prices of {report.prices_taken} (override them under [pricing."MODEL"])')
    return lines
