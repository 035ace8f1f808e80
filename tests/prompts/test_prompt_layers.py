"""`system.md` / `append-system.md` layers and the static/dynamic boundary (reference cases 3, 11-17)."""

from __future__ import annotations

from pathlib import Path

import msgspec

from tests.instructions.helpers import Layout, make_layout
from vtcode import prompts
from vtcode.config.schema import AgentSettings, Settings
from vtcode.core.prompt import CONTRACT_HEADING, compose_static, static_cache_key
from vtcode.instructions import read_prompt_layers
from vtcode.protocol.model import ToolSpec
from vtcode.runtime.system_prompt import SystemPromptBuilder
from vtcode.runtime.workspace_scope import WorkspaceScope

GUIDANCE = prompts.runtime_guidance()
DEFAULT = prompts.profile_text("default")
TOOLS = [ToolSpec("read_file", "Read a file.", {"type": "object", "properties": {}})]


def _builder(layout: Layout, **agent: object) -> SystemPromptBuilder:
    settings = Settings(agent=msgspec.structs.replace(AgentSettings(), **agent))
    return SystemPromptBuilder(
        WorkspaceScope(
            settings=settings, workspace=layout.root, home=layout.vtcode_home, user_home=layout.home
        ),
        tools=TOOLS,
    )


def _static(layout: Layout) -> str:
    return _builder(layout).static


def test_workspace_override(tmp_path: Path) -> None:
    layout = make_layout(tmp_path)
    layout.write(".vtcode/prompts/system.md", "# Workspace base\n")
    static = _static(layout)
    assert static == f"# Workspace base\n\n{GUIDANCE}"
    assert static.count(GUIDANCE) == 1


def test_user_and_workspace_layers(tmp_path: Path) -> None:
    layout = make_layout(tmp_path)
    layout.user(".vtcode/prompts/system.md", "U")
    layout.write(".vtcode/prompts/system.md", "W")
    layout.user(".vtcode/prompts/append-system.md", "UA")
    layout.write(".vtcode/prompts/append-system.md", "WA\n")
    assert _static(layout) == f"W\n\nUA\n\nWA\n\n{GUIDANCE}"


def test_user_override_applies_without_a_workspace_one(tmp_path: Path) -> None:
    layout = make_layout(tmp_path)
    layout.user(".vtcode/prompts/system.md", "U")
    assert _static(layout) == f"U\n\n{GUIDANCE}"


def test_blank_override_keeps_the_profile(tmp_path: Path) -> None:
    layout = make_layout(tmp_path)
    layout.write(".vtcode/prompts/system.md", "  \n\t\n")
    assert _static(layout) == DEFAULT


def test_blank_workspace_override_falls_back_to_the_users(tmp_path: Path) -> None:
    # [decide] In the original a blank workspace file masks a non-empty user file; SPEC section 4 says
    # a whitespace-only system.md counts as absent, so the user's applies.
    layout = make_layout(tmp_path)
    layout.write(".vtcode/prompts/system.md", "\n\n")
    layout.user(".vtcode/prompts/system.md", "U")
    assert _static(layout) == f"U\n\n{GUIDANCE}"


def test_append_only(tmp_path: Path) -> None:
    layout = make_layout(tmp_path)
    layout.write(".vtcode/prompts/append-system.md", "X")
    static = _static(layout)
    assert static == f"{DEFAULT}\n\nX"
    assert static.count(GUIDANCE) == 1
    assert static.index(GUIDANCE) < static.index(CONTRACT_HEADING)


def test_verbatim_guidance_in_override(tmp_path: Path) -> None:
    layout = make_layout(tmp_path)
    layout.write(".vtcode/prompts/system.md", f"# Mine\n\n{GUIDANCE}\n\n- more")
    assert _static(layout) == f"# Mine\n\n{GUIDANCE}\n\n- more"
    edited = GUIDANCE.replace("minimal and focused", "small")
    layout.write(".vtcode/prompts/system.md", f"# Mine\n\n{edited}")
    static = _static(layout)
    assert static == f"# Mine\n\n{edited}\n\n{GUIDANCE}"
    assert static.count(GUIDANCE) == 1


def test_override_without_title(tmp_path: Path) -> None:
    layout = make_layout(tmp_path)
    layout.write(".vtcode/prompts/system.md", "Hello")
    assert _static(layout).startswith("Hello\n\n")


def test_unreadable_layer_is_ignored_with_a_diagnostic(tmp_path: Path) -> None:
    layout = make_layout(tmp_path)
    layout.write(".vtcode/prompts/system.md", b"\x00\x01")
    layers = read_prompt_layers(layout.root, layout.vtcode_home)
    assert layers.override is None
    assert [(d.path, d.severity) for d in layers.diagnostics] == [(".vtcode/prompts/system.md", "error")]
    builder = _builder(layout)
    assert builder.static == DEFAULT
    assert [d.path for d in builder.diagnostics] == [".vtcode/prompts/system.md"]


def test_guidance_and_static_prompt_are_workspace_independent(tmp_path: Path) -> None:
    layout = make_layout(tmp_path)
    layout.write("AGENTS.md", "- MARKER-7f3a")
    builder = _builder(layout, instruction_max_bytes=4096, user_instructions="ui-marker")
    prompt = builder.build()
    for marker in ("MARKER-7f3a", "ui-marker", "### Instruction map"):
        assert marker not in prompt.static
        assert marker in prompt.appendix
    assert prompt.static == DEFAULT
    assert prompt.appendix.startswith("# INSTRUCTIONS\nui-marker\n\n--- project-doc ---\n\n")


def test_no_instructions_no_appendix(tmp_path: Path) -> None:
    prompt = _builder(make_layout(tmp_path)).build()
    assert prompt.appendix == ""
    assert "# INSTRUCTIONS" not in prompt.joined()


def test_static_is_computed_once_and_keyed_with_the_tools(tmp_path: Path) -> None:
    layout = make_layout(tmp_path)
    system = layout.write(".vtcode/prompts/system.md", "# Before")
    builder = _builder(layout)
    first = builder.build()
    system.write_text("# After")
    layout.write("AGENTS.md", "- now with instructions")
    second = builder.build()
    assert second.static is first.static is builder.static
    assert builder.static.startswith("# Before")
    assert builder.cache_key == static_cache_key(builder.static, TOOLS)
    assert builder.cache_key != static_cache_key(builder.static, [])


def test_profile_setting_selects_the_base(tmp_path: Path) -> None:
    layout = make_layout(tmp_path)
    builder = _builder(layout, system_prompt_mode="minimal")
    assert builder.profile == "minimal"
    assert builder.static == compose_static(prompts.profile_text("minimal"), GUIDANCE)
