"""The rewind planner: targets from the earliest change since the turn, conflicts from the latest."""

from __future__ import annotations

from vtcode.core.rewind_plan import Change, FileState, PlannedPath, plan, summary, targets

V0, V1, V2, HAND = (FileState(oid) for oid in ("v0", "v1", "v2", "hand"))


def test_the_target_is_the_state_before_the_first_change_since_the_turn() -> None:
    changes = [
        Change(1, 1, "p1", "a", V0, V1),
        Change(2, 2, "p2", "a", V1, V2),
        Change(3, 2, "c1", "new", None, V0),
    ]
    assert targets(changes, 2) == {"a": (V1, V2), "new": (None, V0)}
    assert targets(changes, 1) == {"a": (V0, V2), "new": (None, V0)}
    assert targets(changes, 3) == {}


def test_a_rewind_moves_the_expected_state_but_never_picks_a_target() -> None:
    changes = [Change(1, 1, "p1", "a", V0, V1), Change(2, 1, "rewind", "a", V1, V0)]
    assert targets(changes, 1) == {"a": (V0, V0)}


def test_a_file_not_as_vtcode_left_it_is_a_conflict_and_one_already_back_is_skipped() -> None:
    wanted = {"a": (V0, V1), "b": (V0, V1), "c": (None, V1), "d": (V0, V1)}
    current = {"a": V1, "b": HAND, "c": V1, "d": V0}
    planned = plan(wanted, current)
    assert planned == [
        PlannedPath("a", V0, V1, V1, conflict=False),
        PlannedPath("b", V0, V1, HAND, conflict=True),
        PlannedPath("c", None, V1, V1, conflict=False),
    ]
    assert summary(planned) == {"modify": 2, "create": 0, "delete": 1}


def test_only_the_executable_bit_counts_when_comparing_modes() -> None:
    assert FileState("x", 0o644).same(FileState("x", 0o600))
    assert not FileState("x", 0o644).same(FileState("x", 0o755))
