"""The tools that read and edit the workspace, as one list for the runtime to offer the model."""

from __future__ import annotations

from vtcode.tools.apply_patch import ApplyPatchTool
from vtcode.tools.base import Tool
from vtcode.tools.grep_files import GrepFilesTool
from vtcode.tools.list_files import ListFilesTool
from vtcode.tools.read_file import ReadFileTool
from vtcode.tools.write_file import WriteFileTool


def workspace_tools() -> list[Tool]:
    """Fresh instances of read_file, list_files, grep_files, write_file and apply_patch."""
    return [ReadFileTool(), ListFilesTool(), GrepFilesTool(), WriteFileTool(), ApplyPatchTool()]
