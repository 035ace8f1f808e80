"""Command groups a killed vtcode left running are ended by the next start, and only those."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from vtcode.exec.group_record import EndedGroup, GroupRecord, start_ticks, sweep_recorded_groups
from vtcode.exec.process_group import SESSION_ENV

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")


@pytest.fixture
def leftover() -> Iterator[subprocess.Popen[bytes]]:
    """A background process of a command session: its own group, the session marker in its environment."""
    proc = subprocess.Popen(
        ["sleep", "300"], env={**os.environ, SESSION_ENV: "999999:run-left"}, start_new_session=True
    )
    yield proc
    if proc.poll() is None:
        proc.kill()
    proc.wait()


def _record_from_a_process_that_dies(path: Path, pgid: int, marker: str) -> None:
    """Write the record the way a vtcode does, from a process that then exits (as if killed)."""
    code = (
        "import sys; from pathlib import Path; from vtcode.exec.group_record import GroupRecord; "
        "GroupRecord(Path(sys.argv[1])).add(int(sys.argv[2]), sys.argv[3], 'python -m http.server')"
    )
    subprocess.run([sys.executable, "-c", code, str(path), str(pgid), marker], check=True)


def test_the_groups_of_a_dead_vtcode_are_ended_and_the_record_removed(
    tmp_path: Path, leftover: subprocess.Popen[bytes]
) -> None:
    record = tmp_path / "exec_groups.json"
    _record_from_a_process_that_dies(record, leftover.pid, "999999:run-left")
    ended = sweep_recorded_groups([record])
    assert ended == [EndedGroup(pgid=leftover.pid, command="python -m http.server", processes=1)]
    assert leftover.wait(timeout=10) == -9
    assert not record.exists()


def test_the_groups_of_a_running_vtcode_are_left_alone(
    tmp_path: Path, leftover: subprocess.Popen[bytes]
) -> None:
    record = GroupRecord(tmp_path / "exec_groups.json")
    record.add(leftover.pid, "999999:run-left", "sleep 300")
    assert sweep_recorded_groups([record.path]) == []
    assert leftover.poll() is None
    assert record.path.exists()
    record.close()
    assert not record.path.exists()


def test_a_process_older_than_its_recorded_group_is_not_the_same_process(
    tmp_path: Path, leftover: subprocess.Popen[bytes]
) -> None:
    record = tmp_path / "exec_groups.json"
    _record_from_a_process_that_dies(record, leftover.pid, "999999:run-left")
    body = json.loads(record.read_text())
    started = start_ticks(leftover.pid)
    assert started is not None
    # As if the recorded group had started later: the live process only reuses its marker and pid.
    body["groups"][0]["started"] = started + 1000
    record.write_text(json.dumps(body))
    assert sweep_recorded_groups([record]) == []
    assert leftover.poll() is None


def test_an_unreadable_record_is_skipped(tmp_path: Path) -> None:
    record = tmp_path / "exec_groups.json"
    record.write_text("{not json")
    assert sweep_recorded_groups([record, tmp_path / "missing.json"]) == []
