"""`/jobs`: the session's command sessions; show output, wait for one, kill one."""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from vtcode.exec.spool import spool_relpath
from vtcode.protocol.errors import VtcodeError
from vtcode.runtime.jobs import Job, Jobs
from vtcode.tui.output_view import bounded_output
from vtcode.tui.safe import safe_text
from vtcode.tui.screens import TextScreen
from vtcode.tui.transcript import exit_text

# How long `w` waits for a job before showing its state again.
WAIT_SECONDS = 30.0


def job_label(job: Job) -> Text:
    """One line: id, state, output size, command."""
    text = Text()
    text.append(f"{job.id}  ")
    if job.running:
        text.append("running ", style="cyan")
    else:
        ended = exit_text(job.exit_code) if job.exit_code is not None else "ended"
        text.append(f"{ended:<8} ", style="green" if job.exit_code == 0 else "red")
    text.append(f"{job.output_bytes:>9,} B  ", style="dim")
    command = safe_text(job.command).replace("\n", " ")
    text.append(command if len(command) <= 60 else command[:59] + "…", style="bold")
    return text


class JobsScreen(ModalScreen[None]):
    """The job list; keys act on the highlighted job."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q", "close", "close"),
        Binding("s,enter", "show", "show output"),
        Binding("w", "wait", "wait"),
        Binding("k", "kill", "kill"),
        Binding("r", "refresh", "refresh"),
    ]

    def __init__(self, jobs: Jobs) -> None:
        super().__init__(classes="text-screen")
        self.jobs = jobs
        self.shown: tuple[Job, ...] = ()

    def compose(self) -> ComposeResult:
        """Title, keys, and the list."""
        with VerticalScroll(classes="panel"):
            yield Static(
                Text("Jobs  (s show output · w wait · k kill · r refresh · Esc close)", style="bold")
            )
            yield OptionList(id="job-list")
            yield Static("", id="job-note")

    def on_mount(self) -> None:
        """Fill the list."""
        self.action_refresh()

    def action_refresh(self) -> None:
        """Read the jobs again."""
        self.shown = self.jobs.list()
        options = self.query_one("#job-list", OptionList)
        highlighted = options.highlighted
        options.clear_options()
        options.add_options([Option(job_label(job), id=job.id) for job in self.shown])
        if self.shown:
            options.highlighted = min(highlighted or 0, len(self.shown) - 1)
        else:
            self._note("no command sessions")

    def _selected(self) -> Job | None:
        index = self.query_one("#job-list", OptionList).highlighted
        return self.shown[index] if index is not None and index < len(self.shown) else None

    def _note(self, text: str) -> None:
        self.query_one("#job-note", Static).update(Text(text, style="dim"))

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        """Enter shows the output."""
        event.stop()
        self.action_show()

    def action_show(self) -> None:
        """The end of the highlighted job's output."""
        job = self._selected()
        if job is None:
            return
        try:
            output = self.jobs.output(job.id)
        except VtcodeError as exc:
            self._note(exc.user_text())
            return
        shown = bounded_output(output, spool_relpath(job.id))
        self.app.push_screen(TextScreen(f"{job.id}: {job.command}", shown or "(no output yet)"))

    def action_wait(self) -> None:
        """Wait for the highlighted job to exit (up to WAIT_SECONDS), keys still working meanwhile."""
        job = self._selected()
        if job is not None:
            self.run_worker(self._wait(job), group="jobs-wait")

    async def _wait(self, job: Job) -> None:
        self._note(f"waiting for {job.id}…")
        try:
            done = await self.jobs.wait(job.id, WAIT_SECONDS)
        except VtcodeError as exc:
            self._note(exc.user_text())
            return
        ended = exit_text(done.exit_code) if done.exit_code is not None else "ended"
        self._note(f"{done.id} still running" if done.running else f"{done.id}: {ended}")
        self.action_refresh()

    async def action_kill(self) -> None:
        """End the highlighted job's process group."""
        job = self._selected()
        if job is None:
            return
        try:
            done = await self.jobs.kill(job.id)
        except VtcodeError as exc:
            self._note(exc.user_text())
            return
        ended = exit_text(done.exit_code) if done.exit_code is not None else "still running"
        self._note(f"{done.id}: {ended}")
        self.action_refresh()

    def action_close(self) -> None:
        """Back to the transcript."""
        self.dismiss(None)
