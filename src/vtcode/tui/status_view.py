"""`/status`: the session's provider, model, tokens, context pressure and cost."""

from __future__ import annotations

from vtcode.core.usage_text import table
from vtcode.protocol.usage import UsageReport
from vtcode.runtime.status import SessionStatus


def status_details(status: SessionStatus) -> str:
    """The `/status` text."""
    usage = status.usage
    cost = f"${status.cost:.4f}" if status.cost is not None else "unknown (a model's price is not known)"
    lines = [
        f"session        {status.session_id}",
        f"provider       {status.provider}",
        f"model          {status.model}",
        f"profile        {status.profile}",
        f"state          {'running a turn' if status.running else 'idle'}",
        f"approval mode  {status.approval_mode}",
        f"sandbox        {status.sandbox_mode}",
        "granted        " + ("; ".join(status.grants) if status.grants else "nothing for this session yet"),
        "",
        f"tokens in      {usage.input_tokens:,} (cached {usage.cached_input_tokens:,})",
        f"tokens out     {usage.output_tokens:,} (reasoning {usage.reasoning_tokens:,})",
        f"cost           {cost}",
        "",
        f"context        {status.context_tokens:,} tokens of a {status.context_window:,}-token window",
        f"soft threshold {_amount(status.thresholds.soft)} (compaction planned)",
        f"hard threshold {_amount(status.thresholds.hard)} (compaction before the next request)",
        f"pressure       {status.pressure:.0%} of the hard threshold",
        f"token ratio    {status.calibration_ratio:.2f} provider tokens per estimated token",
        "",
        f"running jobs   {status.running_jobs}",
        f"pending input  {status.pending_intents}",
        "",
        "Esc closes this view.",
    ]
    return "\n".join(lines)


def _amount(tokens: int | None) -> str:
    return f"{tokens:,}" if tokens is not None else "none (the window is not known)"


def usage_details(report: UsageReport) -> str:
    """The `/usage` text: the session's calls by source and by model, the total, the prices' date."""
    return "\n".join([*table(report), "", "Esc closes this view."])
