"""What `vtcode batch run` shows while it works: one live line on a terminal, plain lines otherwise."""

from __future__ import annotations

import time
from typing import TextIO

from vtcode.batch.runner import Progress
from vtcode.core.batch.summary import BatchSummary


def _eta(progress: Progress) -> str:
    remaining = progress.total - progress.skipped - progress.done
    if progress.done == 0 or remaining <= 0:
        return "-"
    seconds = (time.monotonic() - progress.started_at) / progress.done * remaining
    return f"{seconds / 60:.1f} min" if seconds >= 90 else f"{seconds:.0f} s"


def progress_line(progress: Progress) -> str:
    """`done/total, running, failed, tokens, cost, ETA` in one line."""
    finished = progress.done + progress.skipped
    return (
        f"[{finished}/{progress.total}] running {progress.running}, failed {progress.failed}, "
        f"{progress.tokens} tokens, ${progress.cost_usd:.4f}, eta {_eta(progress)}"
    )


class ProgressDisplay:
    """Renders progress on `stream`: rewritten in place on a terminal, one line per finished task else."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream
        self.live = stream.isatty()
        self._shown = False

    def update(self, progress: Progress) -> None:
        """Show the latest progress."""
        if self.live:
            self.stream.write("\r\x1b[2K" + progress_line(progress))
            self._shown = True
        elif progress.last is not None and progress.done:
            last = progress.last
            progress.last = None
            self.stream.write(
                f"[{progress.done + progress.skipped}/{progress.total}] {last.id}: {last.status} "
                f"in {last.duration_s:.1f} s\n"
            )
        self.stream.flush()

    def stopping(self, requests: int) -> None:
        """Tell the user what the Ctrl-C just did."""
        message = (
            "stopping: no new tasks; interrupting the running ones (Ctrl-C again kills them)"
            if requests == 1
            else "killing the running tasks"
        )
        self.stream.write(("\n" if self._shown else "") + f"vtcode batch: {message}\n")
        self.stream.flush()

    def finish(self) -> None:
        """End the live line."""
        if self._shown:
            self.stream.write("\n")
            self.stream.flush()


def status_text(summary: BatchSummary) -> str:
    """`vtcode batch status` for people."""
    counts = ", ".join(f"{count} {word}" for word, count in sorted(summary.counts.items()))
    usage = summary.usage
    lines = [
        f"{summary.total} tasks: {counts}",
        f"tokens: {usage.input_tokens} in, {usage.output_tokens} out; cost ${summary.cost_usd:.4f}"
        + (f" (+{summary.unpriced_tasks} tasks unpriced)" if summary.unpriced_tasks else ""),
    ]
    if summary.duration_p50_s is not None:
        lines.append(f"duration: p50 {summary.duration_p50_s:.1f} s, p95 {summary.duration_p95_s or 0:.1f} s")
    if summary.slowest:
        lines.append(
            "slowest: " + ", ".join(f"{t.id} ({t.status}, {t.duration_s:.1f} s)" for t in summary.slowest)
        )
    return "\n".join(lines) + "\n"
