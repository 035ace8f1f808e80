"""The built-in tools, as one list for the runtime to offer the model: adding a tool is one line here."""

from __future__ import annotations

from vtcode.exec.manager import SessionManager
from vtcode.tools.apply_patch import ApplyPatchTool
from vtcode.tools.base import Tool
from vtcode.tools.exec_command import ExecCommandTool
from vtcode.tools.grep_files import GrepFilesTool
from vtcode.tools.list_files import ListFilesTool
from vtcode.tools.read_file import ReadFileTool
from vtcode.tools.recall_history import ArchiveReader, RecallHistoryTool
from vtcode.tools.update_plan import PlanBoard, UpdatePlanTool
from vtcode.tools.write_file import WriteFileTool
from vtcode.tools.write_stdin import WriteStdinTool


def workspace_tools() -> list[Tool]:
    """Fresh instances of read_file, list_files, grep_files, write_file and apply_patch."""
    return [ReadFileTool(), ListFilesTool(), GrepFilesTool(), WriteFileTool(), ApplyPatchTool()]


def builtin_tools(
    sessions: SessionManager, archive: ArchiveReader | None = None, plan: PlanBoard | None = None
) -> list[Tool]:
    """Every built-in tool; the command tools share the session's command sessions.

    `archive` reads the session's compaction archive; without one there is no `recall_history`.
    `plan` keeps the session's plan; without one there is no `update_plan`.
    """
    recall = [RecallHistoryTool(archive)] if archive is not None else []
    planning = [UpdatePlanTool(plan)] if plan is not None else []
    return [*workspace_tools(), ExecCommandTool(sessions), WriteStdinTool(sessions), *recall, *planning]
