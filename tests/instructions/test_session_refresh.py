"""Active paths and refresh during a session (reference cases 45-46, flipped by SPEC 5 decision 6)."""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

import msgspec

from tests.instructions.helpers import Layout, age, instruction_map, make_layout
from vtcode.config.schema import AgentSettings, Settings
from vtcode.core.instructions.model import Diagnostic
from vtcode.runtime.system_prompt import SystemPromptBuilder
from vtcode.runtime.workspace_scope import WorkspaceScope


def _builder(layout: Layout, sink: list[Diagnostic] | None = None, **agent: object) -> SystemPromptBuilder:
    settings = Settings(agent=msgspec.structs.replace(AgentSettings(), **agent))

    def collect(found: Sequence[Diagnostic]) -> None:
        if sink is not None:
            sink.extend(found)

    return SystemPromptBuilder(
        WorkspaceScope(
            settings=settings, workspace=layout.root, home=layout.vtcode_home, user_home=layout.home
        ),
        tools=[],
        on_diagnostics=collect,
    )


def _map(builder: SystemPromptBuilder) -> list[str]:
    return instruction_map(builder.result)


def test_active_file_loads_its_folder(tmp_path: Path) -> None:
    layout = make_layout(tmp_path)
    layout.write("a/AGENTS.md", "- a")
    layout.write("a/x.rs", "")
    builder = _builder(layout)
    builder.note_touched(["a/x.rs"])
    builder.build()
    assert _map(builder) == ["a/AGENTS.md (workspace AGENTS)"]


def test_every_active_path_counts_not_the_smallest(tmp_path: Path) -> None:
    # [decide] The original keeps one active folder, the lexicographically smallest activity path's;
    # SPEC decision 6 loads the chain of every path the agent touched.
    layout = make_layout(tmp_path)
    layout.write("z/AGENTS.md", "- z")
    layout.write("b/AGENTS.md", "- b")
    builder = _builder(layout)
    builder.note_touched(["z/y.rs", "b/c.rs"])
    builder.build()
    assert _map(builder) == ["b/AGENTS.md (workspace AGENTS)", "z/AGENTS.md (workspace AGENTS)"]


def test_a_touched_folder_counts_itself(tmp_path: Path) -> None:
    # [decide] The original uses a folder's parent (its own AGENTS.md is missed); decision 6 says a
    # command's workdir is an active path, so the folder itself counts.
    layout = make_layout(tmp_path)
    layout.write("d/AGENTS.md", "- d")
    builder = _builder(layout)
    builder.note_touched(["d"])
    builder.build()
    assert _map(builder) == ["d/AGENTS.md (workspace AGENTS)"]


def test_nothing_touched_means_the_workspace_root(tmp_path: Path) -> None:
    layout = make_layout(tmp_path)
    layout.write("AGENTS.md", "- root")
    layout.write("d/AGENTS.md", "- d")
    builder = _builder(layout)
    builder.build()
    assert _map(builder) == ["AGENTS.md (workspace AGENTS)"]
    assert builder.active_paths == ()


def test_an_edit_is_picked_up_at_the_next_request(tmp_path: Path) -> None:
    # [decide] The original keeps serving the stale prompt until the context hash changes; SPEC
    # decision 6 picks the edit up at the next model request.
    layout = make_layout(tmp_path)
    agents = layout.write("AGENTS.md", "- before")
    age(layout.base)
    builder = _builder(layout)
    first = builder.build()
    agents.write_text("- after")
    second = builder.build()
    assert "- before" in first.appendix
    assert "- after" in second.appendix
    assert second.static is first.static


def test_nothing_changed_means_no_rediscovery_and_the_same_prompt(tmp_path: Path) -> None:
    layout = make_layout(tmp_path)
    layout.write("AGENTS.md", "- root")
    layout.write(".vtcode/rules/r.md", "- rule")
    age(layout.base)
    builder = _builder(layout)
    first = builder.build()
    for _ in range(5):
        assert builder.build() is first
    assert builder.rebuilds == 1


def test_touching_a_folder_without_instructions_keeps_the_prompt(tmp_path: Path) -> None:
    layout = make_layout(tmp_path)
    layout.write("AGENTS.md", "- root")
    layout.write("src/app.py", "")
    age(layout.base)
    builder = _builder(layout)
    first = builder.build()
    builder.note_touched(["src/app.py"])
    assert builder.build() is first
    assert builder.rebuilds == 2


def test_new_nested_file_rule_and_deletion_are_noticed(tmp_path: Path) -> None:
    layout = make_layout(tmp_path)
    root_agents = layout.write("AGENTS.md", "- root")
    layout.write("src/app.py", "")
    age(layout.base)
    builder = _builder(layout)
    builder.note_touched(["src/app.py"])
    builder.build()
    layout.write("src/AGENTS.md", "- src")
    assert "- src" in builder.build().appendix
    layout.write(".vtcode/rules/new.md", "- new rule")
    assert "- new rule" in builder.build().appendix
    root_agents.unlink()
    builder.build()
    assert _map(builder) == ["src/AGENTS.md (workspace AGENTS)", ".vtcode/rules/new.md (workspace rule)"]


def test_touch_order_does_not_change_the_appendix(tmp_path: Path) -> None:
    layout = make_layout(tmp_path)
    layout.write("a/AGENTS.md", "- a")
    layout.write("b/AGENTS.md", "- b")
    builder = _builder(layout)
    builder.note_touched(["a/x.py", "b/y.py"])
    first = builder.build().appendix
    builder.note_touched(["b/y.py"])
    assert builder.active_paths == ("b/y.py", "a/x.py")
    assert builder.build().appendix == first


def test_new_diagnostics_are_reported_once(tmp_path: Path) -> None:
    layout = make_layout(tmp_path)
    layout.write("AGENTS.md", b"\x00binary")
    seen: list[Diagnostic] = []
    builder = _builder(layout, seen)
    builder.build()
    builder.note_touched(["src"])
    builder.build()
    assert seen == [Diagnostic("AGENTS.md", "error", "binary file (contains NUL bytes), not text; skipped")]
    os.remove(layout.root / "AGENTS.md")
    layout.write("AGENTS.override.md", b"\x00again")
    builder.build()
    assert [d.path for d in seen] == ["AGENTS.md", "AGENTS.override.md"]


def test_rules_not_matching_yet_are_explained_but_not_announced(tmp_path: Path) -> None:
    layout = make_layout(tmp_path)
    layout.write("web/app.ts", "")
    layout.write(".vtcode/rules/web.md", "---\npaths: web/**\n---\n- web")
    layout.write(".vtcode/rules/gone.md", "---\npaths: legacy/**\n---\n- gone")
    seen: list[Diagnostic] = []
    builder = _builder(layout, seen)
    builder.build()
    # A session announces only what needs attention: the rule that can never apply.
    assert [(d.path, d.severity) for d in seen] == [(".vtcode/rules/gone.md", "warning")]
    explained = [(d.path, d.severity) for d in builder.instructions_report().diagnostics]
    assert explained == [(".vtcode/rules/gone.md", "warning"), (".vtcode/rules/web.md", "info")]


def test_the_workspace_file_set_is_listed_once_per_session(tmp_path: Path) -> None:
    layout = make_layout(tmp_path)
    layout.write("src/a.py", "")
    layout.write(".vtcode/rules/one.md", "---\npaths: legacy/**\n---\n- one")
    layout.write(".vtcode/rules/two.md", "---\npaths: old/**/*.rb\n---\n- two")
    builder = _builder(layout)
    builder.build()
    builder.note_touched(["src/a.py"])
    builder.build()
    assert builder.rebuilds == 2
    assert builder.probe.listings == 1
