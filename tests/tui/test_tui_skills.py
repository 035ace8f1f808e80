"""Skills and custom commands in the TUI: `/name args` reaches the model expanded, `/skills`, the menu."""

from __future__ import annotations

from pathlib import Path

from tests.skills.helpers import repo, write_skill
from tests.tui.tui_helpers import running_app, screen_text, type_text, until
from vtcode.testing.script import Reply
from vtcode.testing.wire import server_for
from vtcode.tui.app import VtcodeApp
from vtcode.tui.screens import TextScreen


async def test_slash_skill_and_command_reach_the_model_and_skills_shows_them(tmp_path: Path) -> None:
    root = repo(tmp_path)
    write_skill(
        root / ".agents/skills", "deploy", "Deploys.", "Ship $0 now.\n", **{"argument-hint": "VERSION"}
    )
    (root / ".claude/commands/db").mkdir(parents=True)
    (root / ".claude/commands/db/migrate.md").write_text("---\nargument-hint: NAME\n---\nMigrate $0\n")
    with server_for("chat", [Reply(text="shipped"), Reply(text="migrated")]) as server:
        async with running_app(root, tmp_path, server, size=(100, 30)) as (app, pilot):
            await type_text(pilot, "/deploy v2")
            await pilot.press("enter")
            await until(pilot, lambda: "shipped" in screen_text(app), "the first answer")
            await type_text(pilot, "/db:migrate users")
            await pilot.press("enter")
            await until(pilot, lambda: "migrated" in screen_text(app), "the second answer")
            await type_text(pilot, "/d")
            await pilot.press("tab")
            assert app.composer.completions == ["deploy", "db:migrate"]
            app.composer.clear()
            await type_text(pilot, "/skills")
            await pilot.press("enter")
            screen = app.screen
            assert isinstance(screen, TextScreen)
            body = screen.body if isinstance(screen.body, str) else screen.body.plain
        first, second = (r.json()["messages"][-1]["content"] for r in server.requests)
    assert first.startswith('<skill_content name="deploy">\nShip v2 now.')
    assert second == "Migrate users\n"
    assert "1 skills listed, 0 truncated, 0 omitted" in body
    assert "/deploy VERSION  [.agents/skills; listed]  Deploys." in body
    assert "/db:migrate NAME  [.claude/commands; command]" in body


async def test_the_slash_menu_labels_source_and_argument_hint(tmp_path: Path) -> None:
    from vtcode.tui.skills_view import menu_entries

    root = repo(tmp_path)
    write_skill(root / ".agents/skills", "deploy", "Deploys.", **{"argument-hint": "VERSION"})
    with server_for("chat", []) as server:
        async with running_app(root, tmp_path, server, size=(100, 30)) as (app, _pilot):
            assert app.session is not None
            labels = [e.label() for e in menu_entries(app.session.skills)]
    assert labels[0] == "/help (built-in)"
    assert "/skills (built-in)" in labels
    assert labels[-1] == "/deploy VERSION (skill, .agents/skills)"


async def test_skills_view_shows_the_paths_a_skill_loads_for(tmp_path: Path) -> None:
    root = repo(tmp_path)
    write_skill(root / ".agents/skills", "py-style", "Python style.", paths='"src/**/*.py, *.{ts,tsx}"')
    with server_for("chat", []) as server:
        async with running_app(root, tmp_path, server, size=(120, 30)) as (app, pilot):
            await type_text(pilot, "/skills")
            await pilot.press("enter")
            await until(pilot, lambda: isinstance(app.screen, TextScreen), "the /skills view")
            screen = app.screen
            assert isinstance(screen, TextScreen)
            body = screen.body if isinstance(screen.body, str) else screen.body.plain
    assert "/py-style  [.agents/skills; listed; paths: src/**/*.py, *.{ts,tsx}]  Python style." in body


async def test_tab_completes_a_dollar_skill_name_and_the_skill_reaches_the_model(tmp_path: Path) -> None:
    root = repo(tmp_path)
    write_skill(root / ".agents/skills", "release-notes", "Writes notes.", "Group by type.\n")
    with server_for("chat", [Reply(text="noted")]) as server:
        async with running_app(root, tmp_path, server, size=(100, 30)) as (app, pilot):
            await type_text(pilot, "draft them with $rel")
            await pilot.press("tab")
            assert app.composer.text == "draft them with $release-notes "
            await pilot.press("enter")
            await until(pilot, lambda: "noted" in screen_text(app), "the answer")
            assert "skill loaded: release-notes ($release-notes)" in screen_text(app)
    messages = server.requests[0].json()["messages"]
    assert messages[-1]["content"] == "draft them with $release-notes "
    assert messages[-2]["content"].startswith('<skill_content name="release-notes">\nGroup by type.\n')


def _menu_rows(app: VtcodeApp) -> list[str]:
    menu = app.composer.slash_menu
    if not menu.display:
        return []
    rows = []
    for index in range(menu.option_count):
        prompt = menu.get_option_at_index(index).prompt
        rows.append(" ".join(str(prompt.plain if hasattr(prompt, "plain") else prompt).split()))
    return rows


async def test_the_slash_menu_shows_as_a_name_is_typed_and_tab_takes_the_chosen_one(tmp_path: Path) -> None:
    root = repo(tmp_path)
    write_skill(root / ".agents/skills", "deploy", "Deploys the app.", **{"argument-hint": "VERSION"})
    (root / ".claude/commands").mkdir(parents=True)
    (root / ".claude/commands/fix.md").write_text(
        "---\nargument-hint: [issue] [branch]\ndescription: Fix an issue\n---\nFix $0 on $1\n"
    )
    with server_for("chat", []) as server:
        async with running_app(root, tmp_path, server, size=(100, 30)) as (app, pilot):
            composer = app.composer
            await type_text(pilot, "/")
            await until(pilot, lambda: bool(_menu_rows(app)), "the menu")
            assert _menu_rows(app)[0] == "/help keys and commands"
            assert "/deploy VERSION Deploys the app. (skill, .agents/skills)" in _menu_rows(app)
            await type_text(pilot, "f")
            assert _menu_rows(app) == ["/fix [issue] [branch] Fix an issue (command, .claude/commands)"]
            await pilot.press("backspace", "d")
            assert [row.split()[0] for row in _menu_rows(app)] == ["/deploy"]
            await pilot.press("backspace", "r")
            assert [row.split()[0] for row in _menu_rows(app)] == ["/resume", "/rewind", "/redo"]
            await pilot.press("down", "tab")
            assert composer.text == "/rewind "
            assert _menu_rows(app) == []
            await pilot.press("escape")
            composer.clear()
            await type_text(pilot, "/sta")
            assert _menu_rows(app) != []
            await pilot.press("escape")
            assert _menu_rows(app) == []
            assert composer.text == "/sta"


async def test_enter_in_the_slash_menu_runs_the_highlighted_command(tmp_path: Path) -> None:
    with server_for("chat", []) as server:
        async with running_app(tmp_path, tmp_path, server, size=(100, 30)) as (app, pilot):
            await type_text(pilot, "/sta")
            await until(pilot, lambda: bool(_menu_rows(app)), "the menu")
            await pilot.press("enter")
            await until(pilot, lambda: isinstance(app.screen, TextScreen), "the status view")
            assert "unknown command" not in screen_text(app)
            await pilot.press("escape")
            await type_text(pilot, "/nonsense")
            await pilot.press("enter")
            await until(pilot, lambda: "unknown command /nonsense" in screen_text(app), "the error")
