"""Bad input never crashes and never drops other sources (reference case 42, flipped by SPEC 5.2)."""

from __future__ import annotations

import builtins
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.instructions.helpers import Layout, bodies, make_layout, reasons


def _binary(layout: Layout) -> None:
    layout.write("AGENTS.md", b"\x89PNG\r\n\x1a\n\x00\x00binary")


def _not_utf8(layout: Layout) -> None:
    layout.write("AGENTS.md", "caf\u00e9".encode("latin-1"))


def _huge(layout: Layout) -> None:
    layout.write("AGENTS.md", "- line\n" * (5 * 1024 * 1024 // 7))


def _dangling(layout: Layout) -> None:
    os.symlink(layout.root / "gone.md", layout.root / "AGENTS.md")


def _loop(layout: Layout) -> None:
    os.symlink(layout.root / "AGENTS.md", layout.root / "other.md")
    os.symlink(layout.root / "other.md", layout.root / "AGENTS.md")


def _directory(layout: Layout) -> None:
    (layout.root / "AGENTS.md").mkdir()


@pytest.mark.parametrize(
    ("make_bad", "reason"),
    [
        (_binary, "binary file (contains NUL bytes), not text; skipped"),
        (_not_utf8, "not UTF-8 text (invalid byte at offset 3); skipped"),
        (_huge, "too large: 5242874 bytes (files over 1048576 bytes are skipped); skipped"),
        (_dangling, "dangling symlink: its target does not exist; skipped"),
        (_loop, "symlink loop; skipped"),
        (_directory, "is a directory, not a file; skipped"),
    ],
)
def test_bad_agents_file_is_skipped_and_the_rest_loads(
    tmp_path: Path, make_bad: Callable[[Layout], None], reason: str
) -> None:
    # [decide] The original returns no project docs at all; SPEC section 5 decision 2 skips one file.
    layout = make_layout(tmp_path)
    make_bad(layout)
    layout.write("CLAUDE.md", "- claude")
    layout.user(".vtcode/AGENTS.md", "- user")
    result = layout.load(user_instructions="ui")
    assert bodies(result) == ["- user", "- claude"]
    assert reasons(result) == [("AGENTS.md", "error", reason)]
    assert result.appendix is not None
    assert result.appendix.startswith("ui\n\n--- project-doc ---")


def test_broken_yaml_rule_is_skipped(tmp_path: Path) -> None:
    layout = make_layout(tmp_path)
    layout.write(".vtcode/rules/bad.md", "---\npaths: [\n---\n- bad")
    layout.write(".vtcode/rules/good.md", "- good")
    layout.write("AGENTS.md", "- root")
    result = layout.load()
    assert bodies(result) == ["- root", "- good"]
    assert reasons(result) == [
        (
            ".vtcode/rules/bad.md",
            "error",
            "`paths` is not valid YAML (while parsing a flow node); rule skipped",
        )
    ]


def test_unreadable_file_is_skipped(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    layout = make_layout(tmp_path)
    locked = layout.write("AGENTS.md", "- secret")
    layout.write("CLAUDE.md", "- claude")
    real_open = builtins.open

    # Tests may run as root, which reads any mode; the permission error is made explicit instead.
    def guarded(file: Any, *args: Any, **kwargs: Any) -> Any:
        if os.fspath(file) == os.fspath(locked):
            raise PermissionError(13, "Permission denied", os.fspath(file))
        return real_open(file, *args, **kwargs)

    monkeypatch.setattr(builtins, "open", guarded)
    result = layout.load()
    assert bodies(result) == ["- claude"]
    assert reasons(result) == [("AGENTS.md", "error", "unreadable: permission denied; skipped")]


def test_import_of_ssh_config_is_refused(tmp_path: Path) -> None:
    layout = make_layout(tmp_path)
    layout.user(".ssh/config", "Host secret\n  IdentityFile ~/.ssh/id_ed25519")
    layout.write("AGENTS.md", "- root\n@~/.ssh/config")
    result = layout.load()
    assert bodies(result) == ["- root\n@~/.ssh/config"]
    assert reasons(result) == [
        (
            "AGENTS.md",
            "warning",
            "import @~/.ssh/config is outside the project and the vtcode config folders; not loaded",
        )
    ]


def test_bad_import_target_is_skipped(tmp_path: Path) -> None:
    layout = make_layout(tmp_path)
    layout.write("docs/blob.md", b"\x00\x01")
    layout.write("AGENTS.md", "- root\n@docs/blob.md")
    result = layout.load()
    assert bodies(result) == ["- root\n@docs/blob.md"]
    assert reasons(result) == [
        ("AGENTS.md", "error", "import @docs/blob.md: binary file (contains NUL bytes), not text; not loaded")
    ]


def test_every_bad_input_at_once(tmp_path: Path) -> None:
    layout = make_layout(tmp_path)
    _binary(layout)
    layout.write("a/AGENTS.md", "- a\n@../b/AGENTS.md")
    layout.write("b/AGENTS.md", "- b\n@../a/AGENTS.md\n@~/.ssh/config")
    layout.user(".ssh/config", "secret")
    (layout.root / "c" / "CLAUDE.md").mkdir(parents=True)
    os.symlink(layout.root / "nowhere", layout.root / "c" / "AGENTS.md")
    layout.write(".vtcode/rules/bad.md", "---\npaths: [\n---\n- bad")
    layout.write(".vtcode/rules/huge.md", "x" * 2_000_000)
    layout.write(".vtcode/rules/ok.md", "- ok")
    layout.write("CLAUDE.md", "- claude")
    result = layout.load(["a", "b", "c"])
    assert [s.display for s in result.sources] == [
        "CLAUDE.md",
        "a/AGENTS.md",
        "b/AGENTS.md",
        ".vtcode/rules/ok.md",
    ]
    assert "secret" not in (result.appendix or "")
    assert [(path, severity) for path, severity, _ in reasons(result)] == [
        ("AGENTS.md", "error"),  # binary
        ("c/AGENTS.md", "error"),  # dangling symlink
        ("c/CLAUDE.md", "error"),  # a directory
        (".vtcode/rules/bad.md", "error"),  # broken YAML
        (".vtcode/rules/huge.md", "error"),  # too large
        # a and b import each other, but both are sources of their own: neither is inlined, so
        # there is no cycle to report, only the refused import.
        ("b/AGENTS.md", "warning"),  # ~/.ssh/config
    ]


def test_workspace_symlink_to_a_private_file_is_refused(tmp_path: Path) -> None:
    layout = make_layout(tmp_path)
    secret = layout.user(".ssh/id_ed25519", "-----BEGIN OPENSSH PRIVATE KEY-----")
    os.symlink(secret, layout.root / "AGENTS.md")
    os.symlink(secret, layout.write(".vtcode/rules/keep.md", "- keep").parent / "key.md")
    layout.write("CLAUDE.md", "- claude")
    result = layout.load()
    assert bodies(result) == ["- claude", "- keep"]
    assert "PRIVATE KEY" not in (result.appendix or "")
    shown = secret.resolve().as_posix()
    assert reasons(result) == [
        ("AGENTS.md", "error", f"links outside the project ({shown}); skipped"),
        (".vtcode/rules/key.md", "error", f"links outside the project ({shown}); skipped"),
    ]


def test_rule_folder_linked_into_the_vtcode_home_is_refused(tmp_path: Path) -> None:
    # Workspace files never lead into vtcode's or the user's configuration, linked or imported.
    layout = make_layout(tmp_path)
    shared = layout.user(".vtcode/shared-rules/team.md", "- team").parent
    (layout.root / ".vtcode" / "rules").mkdir(parents=True)
    os.symlink(shared, layout.root / ".vtcode" / "rules" / "team")
    result = layout.load()
    assert bodies(result) == []
    assert [severity for _, severity, _ in reasons(result)] == ["error"]


def test_relative_extra_file_linking_outside_the_project_is_refused(tmp_path: Path) -> None:
    layout = make_layout(tmp_path)
    secret = layout.user(".aws/credentials", "aws_secret_access_key = SECRET")
    layout.write("docs/ok.md", "- ok")
    os.symlink(secret, layout.root / "docs" / "notes.md")
    result = layout.load(extra_patterns=("docs/*.md",))
    assert bodies(result) == ["- ok"]
    assert "SECRET" not in (result.appendix or "")
    shown = secret.resolve().as_posix()
    assert reasons(result) == [("docs/notes.md", "error", f"links outside the project ({shown}); skipped")]


def test_users_home_extra_file_is_the_users_choice(tmp_path: Path) -> None:
    layout = make_layout(tmp_path)
    layout.user("notes/team.md", "- team")
    assert bodies(layout.load(extra_patterns=("~/notes/team.md",))) == ["- team"]
