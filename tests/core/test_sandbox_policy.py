"""The sandbox policy: which folders are writable, and when a failure is explained as a sandbox denial."""

from __future__ import annotations

from vtcode.core.sandbox_policy import SandboxPolicy, denial_note, is_tighter_or_equal, writable_paths

WRITE = SandboxPolicy(mode="workspace-write", network=False, writable_roots=("/opt/cache",))


def test_workspace_write_grants_the_workspace_temp_folders_tmpdir_and_roots() -> None:
    assert writable_paths(WRITE, "/w", "/run/user/1/tmp") == (
        "/w",
        "/tmp",
        "/dev/shm",
        "/run/user/1/tmp",
        "/opt/cache",
    )
    assert writable_paths(WRITE, "/w", "/tmp") == ("/w", "/tmp", "/dev/shm", "/opt/cache")
    assert writable_paths(SandboxPolicy(mode="read-only"), "/w", "/tmp") == ()
    assert writable_paths(SandboxPolicy(mode="off"), "/w", None) == ()


def test_modes_are_ordered_strictest_first() -> None:
    assert is_tighter_or_equal("read-only", "workspace-write")
    assert is_tighter_or_equal("workspace-write", "workspace-write")
    assert not is_tighter_or_equal("off", "workspace-write")


def test_a_failed_write_under_the_sandbox_is_explained_with_the_way_to_allow_it() -> None:
    note = denial_note(WRITE, "bash: /opt/x: Permission denied\n", 1)
    assert note is not None
    assert note.startswith("the OS sandbox probably blocked this: commands may write only in the workspace")
    assert "the network is off" in note
    assert "writable_roots" in note
    assert "sandbox.network = true" in note
    assert "--sandbox off" in note


def test_no_note_for_success_running_commands_other_failures_or_no_sandbox() -> None:
    assert denial_note(WRITE, "Permission denied", 0) is None
    assert denial_note(WRITE, "Permission denied", None) is None
    assert denial_note(WRITE, "AssertionError: 2 != 3", 1) is None
    assert denial_note(SandboxPolicy(mode="off"), "Permission denied", 1) is None


def test_network_failures_are_blamed_on_the_sandbox_only_when_the_network_is_off() -> None:
    assert denial_note(WRITE, "curl: (6) Could not resolve host: example.com", 6) is not None
    with_network = SandboxPolicy(mode="workspace-write", network=True)
    assert denial_note(with_network, "curl: (6) Could not resolve host: example.com", 6) is None


def test_a_script_that_goes_on_after_a_blocked_write_still_gets_the_note() -> None:
    assert denial_note(WRITE, "sh: 1: cannot create /etc/x: Permission denied\ndone\n", 0) is not None
    assert denial_note(WRITE, "touch: cannot touch '/etc/x': Read-only file system\n", 0) is not None
    assert denial_note(WRITE, "PermissionError: [Errno 13] Permission denied: '/etc/x'\n", 0) is not None
    # Exit 0 with the words but no tool's error line (a grep, a log) is not a denial.
    assert denial_note(WRITE, "docs/errors.md: permission denied means ...", 0) is None


def test_a_refused_signal_is_explained_with_the_way_to_end_a_session() -> None:
    note = denial_note(WRITE, "sh: 1: kill: Operation not permitted\n", 2)
    assert note is not None
    assert "a command can signal only processes it started itself" in note
    assert "write_stdin action kill" in note
