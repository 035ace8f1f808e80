"""`vtcode sandbox` confines the same way run by root and by an ordinary user."""

from __future__ import annotations

from tests.exec.sandbox_helpers import git_workspace, needs_landlock
from tests.unprivileged import Identity

pytestmark = [needs_landlock]


def test_the_sandbox_command_runs_as_each_user_and_denies_writes_outside(as_user: Identity) -> None:
    ws = git_workspace(as_user.tmpdir() / "ws")
    outside = as_user.tmpdir("vtcode-outside-")
    as_user.chown_tree(ws.parent)
    done = as_user.vtcode(
        "sandbox", "--", "sh", "-c", f"id -u; touch inside; touch {outside}/x; touch ~/nope", cwd=ws
    )
    assert done.stdout.splitlines() == [str(as_user.uid)], done.stderr
    assert done.code == 1, done.stderr
    assert (ws / "inside").exists()
    assert list(outside.iterdir()) == []
    assert list(as_user.home.iterdir()) == []
