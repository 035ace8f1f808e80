"""Project instructions (SPEC section 5): discovery of AGENTS.md, CLAUDE.md, rules and imports.

The pipeline reads user and workspace files and renders the appendix that follows the static system
prompt. It never decides policy: approval mode, sandbox and tool permissions come from configuration
only, and nothing here returns or changes them.
"""

from vtcode.instructions.lint import MatchProbe
from vtcode.instructions.options import InstructionOptions, find_project_root
from vtcode.instructions.pipeline import InstructionsResult, load_instructions
from vtcode.instructions.prompt_layers import PromptLayers, read_prompt_layers
from vtcode.instructions.reader import SourceReader
from vtcode.instructions.report import InstructionsReport, SourceReport, instructions_report
from vtcode.instructions.watch import Snapshot

__all__ = [
    "InstructionOptions",
    "InstructionsReport",
    "InstructionsResult",
    "MatchProbe",
    "PromptLayers",
    "Snapshot",
    "SourceReader",
    "SourceReport",
    "find_project_root",
    "instructions_report",
    "load_instructions",
    "read_prompt_layers",
]
