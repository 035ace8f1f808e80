"""README.md against the code: its config examples load, and every key, default, command, option,
slash command and hook event it should name exists and is named."""

from __future__ import annotations

import argparse
import re
import tomllib
import typing
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import msgspec
import pytest

from vtcode.cli.parser import build_parser
from vtcode.config import schema
from vtcode.config.loader import load_settings
from vtcode.core.hooks.model import HOOK_EVENTS
from vtcode.protocol.errors import FAILURE_KINDS
from vtcode.protocol.events import Event
from vtcode.tui.commands import ALIASES, COMMANDS

README = Path(__file__).resolve().parents[2] / "README.md"
TEXT = README.read_text()
TOML_BLOCKS = re.findall(r"```toml\n(.*?)```", TEXT, flags=re.DOTALL)


def _section(title: str) -> str:
    start = TEXT.index(f"\n## {title}")
    end = TEXT.find("\n## ", start + 1)
    return TEXT[start : end if end != -1 else None]


def _schema_keys(cls: type[msgspec.Struct], prefix: str = "") -> Iterator[tuple[str, Any]]:
    """Every settable key with its default; the value tables of a `[table."NAME"]` appear as `*`."""
    for field in msgspec.structs.fields(cls):
        kind, key = field.type, f"{prefix}{field.encode_name}"
        if isinstance(kind, type) and issubclass(kind, msgspec.Struct):
            yield from _schema_keys(kind, f"{key}.")
            continue
        args: tuple[object, ...] = getattr(kind, "__args__", ())
        value = args[-1] if getattr(kind, "__origin__", None) is dict else None
        if isinstance(value, type) and issubclass(value, msgspec.Struct):
            yield from _schema_keys(value, f"{key}.*.")
            continue
        default = field.default if field.default is not msgspec.NODEFAULT else None
        yield key, default


def _toml_paths(table: dict[str, Any], prefix: str = "") -> Iterator[str]:
    for key, value in table.items():
        path = f"{prefix}{key}"
        yield path
        if isinstance(value, dict):
            yield from _toml_paths(value, f"{path}.")
        elif isinstance(value, list) and value and all(isinstance(item, dict) for item in value):
            for item in value:
                yield from _toml_paths(item, f"{path}.")


def _commented_keys(block: str) -> Iterator[str]:
    """`KEY = ...` named in a TOML example's comments (`# or enabled_tools = [...]`), with its table."""
    table = ""
    for line in block.split("\n"):
        header = re.match(r"\[+([^\]]+)\]+", line)
        if header:
            table = header.group(1)
        if "#" in line:
            yield from (f"{table}.{key}" for key in re.findall(r"\b([a-z_]+) = ", line.split("#", 1)[1]))


def _documented_keys() -> set[str]:
    """Keys shown in a TOML example, written as `a.b.c` in the text, or as `[section] key`."""
    keys = {path for block in TOML_BLOCKS for path in _toml_paths(tomllib.loads(block))}
    keys |= {path for block in TOML_BLOCKS for path in _commented_keys(block)}
    keys |= set(re.findall(r"`([a-z_]+(?:\.[a-z_*\"/.-]+)+)", TEXT))
    keys |= {f"{table}.{key}" for table, key in re.findall(r"`\[([a-z_.]+)\]`? `?([a-z_]+)", TEXT)}
    # Table rows that name more keys of the same table: `agent.harness.x`, `y`.
    for first, more in re.findall(r"^\| `([a-z_.]+)`((?:, `[a-z_]+`)+) \|", TEXT, flags=re.MULTILINE):
        keys |= {f"{first.rpartition('.')[0]}.{key}" for key in re.findall(r"`([a-z_]+)`", more)}
    return keys


def _covered(key: str, documented: set[str]) -> bool:
    pattern = re.escape(key).replace(r"\*", r"[^.]+")
    return any(re.fullmatch(pattern, path.replace('"', "")) for path in documented)


@pytest.mark.parametrize("block", TOML_BLOCKS, ids=lambda block: block.split("\n", 1)[0])
def test_every_toml_example_of_the_readme_is_a_valid_user_config(block: str, tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    (home / "vtcode.toml").write_text(block)
    workspace = tmp_path / "ws"
    workspace.mkdir()
    load_settings(workspace=workspace, env={"VTCODE_HOME": str(home), "HOME": str(tmp_path)})


def test_every_config_key_of_the_schema_is_named_with_its_table() -> None:
    documented = _documented_keys()
    # `hooks.EVENT` tables are the hook events, checked against the Hooks section's list below.
    missing = [
        key
        for key, _ in _schema_keys(schema.Settings)
        if key.rpartition(".")[2] not in HOOK_EVENTS and not _covered(key, documented)
    ]
    assert missing == []


def test_the_other_keys_table_shows_the_schema_defaults() -> None:
    defaults = dict(_schema_keys(schema.Settings))
    table = TEXT.split("Other keys (defaults shown):", 1)[1].split("\n\n", 2)[1]
    rows = re.findall(r"^\| `([a-z_.]+)`(?:, `?([a-z_]+)`?)? \| ([^|]+) \|", table, flags=re.MULTILINE)
    assert len(rows) > 10
    wrong = []
    for key, second, shown in rows:
        table = key.rpartition(".")[0]
        written = [value.strip(" `") for value in shown.split(",")]
        for name, text in zip([key, *([f"{table}.{second}"] if second else [])], written, strict=False):
            value = defaults[name]
            if text in ("none", "model's"):
                ok = value is None
            elif text == "[]":
                ok = value == ()
            else:
                ok = tomllib.loads(f"v = {text}")["v"] == value
            if not ok:
                wrong.append((name, text, value))
    assert wrong == []


def _commands(parser: argparse.ArgumentParser, path: str = "vtcode") -> Iterator[str]:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, child in action.choices.items():
                yield f"{path} {name}"
                yield from _commands(child, f"{path} {name}")


def test_the_commands_table_names_every_command() -> None:
    table = _section("Commands").split("\n\n", 2)[1]
    named = set(re.findall(r"`vtcode ([a-z]+)", table)) | set(
        re.findall(r"(?:^|[`/] ?)`?([a-z]+) [A-Z\[]", table)
    )
    missing = [
        path for path in _commands(build_parser()) if path.count(" ") == 1 and path.split()[1] not in named
    ]
    assert missing == []


def test_every_long_option_of_every_command_is_named_in_the_readme() -> None:
    parser = build_parser()
    subparsers = {"vtcode": parser}
    for path in _commands(parser):
        found = parser
        for word in path.split()[1:]:
            found = next(
                action.choices[word]
                for action in found._actions
                if isinstance(action, argparse._SubParsersAction)
            )
        subparsers[path] = found
    missing = sorted(
        {
            option
            for sub in subparsers.values()
            for action in sub._actions
            for option in action.option_strings
            if option.startswith("--") and option != "--help"
            if not re.search(re.escape(option) + r"(?![\w-])", TEXT)
        }
    )
    assert missing == []


def test_every_slash_command_and_alias_is_in_the_readme_list_and_every_listed_one_exists() -> None:
    paragraph = next(
        p for p in _section("The interactive TUI").split("\n\n") if p.startswith("Slash commands:")
    )
    listed = set(re.findall(r"`/([a-z]+)", paragraph))
    assert listed - set(COMMANDS) - set(ALIASES) == set()
    assert (set(COMMANDS) | set(ALIASES)) - listed == set()


def test_the_hooks_section_lists_every_hook_event() -> None:
    events = _section("Hooks").split("Events:", 1)[1].split("```", 1)[0]
    listed = set(re.findall(r"`([A-Za-z]+)`", events))
    assert listed == set(HOOK_EVENTS)


def test_the_failure_kinds_listed_are_the_ones_the_code_reports() -> None:
    listed = TEXT.split("`kind` is one of", 1)[1].split("The JSON Schema", 1)[0]
    assert re.findall(r"`([a-z_]+)`", listed) == list(FAILURE_KINDS)


def test_every_event_type_is_named_in_the_readme_or_the_sdk_guide() -> None:
    sdk_guide = (README.parent / "docs" / "sdk.md").read_text()
    missing = [
        kind.__name__
        for kind in typing.get_args(Event)
        if f"`{kind.__struct_config__.tag}`" not in TEXT and f"vt.{kind.__name__}" not in sdk_guide
    ]
    assert missing == []


@pytest.mark.parametrize(
    ("command", "section"),
    [
        ("exec", "Commands"),
        ("acp", "Editors: the Agent Client Protocol (`vtcode acp`)"),
        ("steer", "Follow-ups while the agent works: `vtcode steer`"),
        ("rewind", "Checkpoints and rewind"),
    ],
)
def test_the_section_of_a_command_names_each_of_its_options(command: str, section: str) -> None:
    parser = next(
        action.choices[command]
        for action in build_parser()._actions
        if isinstance(action, argparse._SubParsersAction)
    )
    text = _section(section)
    missing = [
        option
        for action in parser._actions
        for option in action.option_strings
        if option.startswith("--") and option not in ("--help", "--config")  # `-c KEY=VALUE` stands for it
        if not re.search(re.escape(option) + r"(?![\w-])", text)
    ]
    assert missing == []


def _slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def test_every_link_to_a_readme_section_finds_its_heading() -> None:
    anchors = {_slug(h) for h in re.findall(r"^#{1,6} (.+)$", TEXT, flags=re.MULTILINE)}
    assert anchors >= {"editors-the-agent-client-protocol-vtcode-acp", "checkpoints-and-rewind"}
    assert [link for link in re.findall(r"\]\(#([^)]+)\)", TEXT) if link not in anchors] == []
