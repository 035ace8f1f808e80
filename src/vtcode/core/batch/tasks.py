"""The tasks file of `vtcode batch run`: one typed task per JSONL line, validated before anything runs.

A line is a `TaskSpec`; unknown fields are refused (a typo must not silently drop a setting). Every
problem is reported with its line and field (`tasks.jsonl:3: repo.commit: Expected str, got int`),
and duplicate ids are refused, so a batch never starts on a file it would half-understand.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

import msgspec

from vtcode.protocol.errors import UsageError

ID_PATTERN = re.compile(r"[A-Za-z0-9._-]+")
"""Task ids name folders (`OUT/tasks/<id>`): no slashes, no spaces (SWE-bench's `__` is fine)."""

_MAX_ID_LENGTH = 200
# Enough problems to fix a file in one go without burying the first one.
_MAX_REPORTED = 20


class RepoSpec(msgspec.Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """Where a task's workspace comes from: a folder to copy, or a git mirror checked out at `commit`."""

    path: str | None = None
    git: str | None = None
    commit: str | None = None


class EvalSpec(msgspec.Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """A command run in the workspace after the agent (same sandbox); exit 0 means passed."""

    command: str
    timeout_s: float = 600.0


class TaskSpec(msgspec.Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """One task: what to ask, in which workspace, how to prepare and check it."""

    id: str
    instruction: str
    repo: RepoSpec | None = None
    setup: tuple[str, ...] = ()
    eval: EvalSpec | None = None
    env: dict[str, str] = msgspec.field(default_factory=dict)
    metadata: dict[str, Any] = msgspec.field(default_factory=dict)
    # The SWE-bench instance this task answers (the predictions' key); the id when absent.
    instance_id: str | None = None

    @property
    def prediction_id(self) -> str:
        """The key of this task's prediction: the SWE-bench instance id, else the task id."""
        return self.instance_id or self.id


class SwebenchRow(msgspec.Struct, frozen=True, kw_only=True):
    """The fields of a SWE-bench dataset row that a batch needs (other fields are ignored)."""

    instance_id: str
    repo: str
    base_commit: str
    problem_statement: str
    version: str | None = None
    environment_setup_commit: str | None = None
    created_at: str | None = None


def _where(source: str, number: int, *, listed: bool) -> str:
    return f"{source}: item {number}" if listed else f"{source}:{number}"


def _field_of(error: msgspec.ValidationError) -> tuple[str, str]:
    """(field path, message) from msgspec's `... - at `$.repo.commit`` text."""
    text = str(error)
    message, sep, at = text.rpartition(" - at `")
    if not sep:
        return "", text
    path = at.rstrip("`").removeprefix("$").lstrip(".")
    return path, message


def _check_id(task_id: str) -> str | None:
    if not ID_PATTERN.fullmatch(task_id):
        return "id: only letters, digits, '.', '_' and '-' are allowed"
    if task_id in {".", ".."} or len(task_id) > _MAX_ID_LENGTH:
        return f"id: must not be '.' or '..' and at most {_MAX_ID_LENGTH} characters"
    return None


def _check_task(task: TaskSpec) -> str | None:
    """The first semantic problem of a decoded task, as `field: what is wrong`; None when fine."""
    problem = _check_id(task.id)
    if problem is not None:
        return problem
    if not task.instruction.strip():
        return "instruction: must not be empty"
    repo = task.repo
    if repo is not None:
        if (repo.path is None) == (repo.git is None):
            return "repo: give exactly one of `path` (a folder to copy) or `git` (a mirror) with `commit`"
        if repo.git is not None and not repo.commit:
            return "repo.commit: a git mirror needs the commit to check out"
    if task.eval is not None and task.eval.timeout_s <= 0:
        return "eval.timeout_s: must be positive"
    if task.instance_id is not None and not task.instance_id.strip():
        return "instance_id: must not be empty"
    return None


def _raw_items(data: bytes, source: str) -> tuple[list[tuple[int, bytes | Any]], bool]:
    """The file's entries with their line (or list item) numbers; a JSON array is accepted too."""
    stripped = data.lstrip()
    if stripped.startswith(b"["):
        try:
            items = msgspec.json.decode(data)
        except msgspec.DecodeError as exc:
            raise UsageError(f"{source}: not a JSON array: {exc}") from None
        if not isinstance(items, list):
            raise UsageError(f"{source}: expected a JSON array of tasks")
        return [(index + 1, item) for index, item in enumerate(items)], True
    lines = data.split(b"\n")
    return [(n + 1, line) for n, line in enumerate(lines) if line.strip()], False


def _decode(raw: bytes | Any, kind: type[Any]) -> Any:
    if isinstance(raw, bytes):
        return msgspec.json.decode(raw, type=kind)
    return msgspec.convert(raw, type=kind)


def parse_tasks(
    data: bytes, *, source: str, fmt: str = "vtcode", mirrors: Mapping[str, str] | None = None
) -> list[TaskSpec]:
    """Every task of a tasks file, or UsageError listing each bad line and field and each duplicate id.

    `fmt` is "vtcode" (TaskSpec lines) or "swebench" (dataset rows; `mirrors` maps a row's `repo` to
    the local mirror found for it, see `swebench_mirror_names`).
    """
    entries, listed = _raw_items(data, source)
    problems: list[str] = []
    tasks: list[TaskSpec] = []
    first_line: dict[str, int] = {}
    for number, raw in entries:
        where = _where(source, number, listed=listed)
        try:
            if fmt == "swebench":
                task = swebench_task(_decode(raw, SwebenchRow), mirrors or {})
            else:
                task = _decode(raw, TaskSpec)
        except msgspec.ValidationError as exc:
            field, message = _field_of(exc)
            problems.append(f"{where}: {field}: {message}" if field else f"{where}: {message}")
            continue
        except msgspec.DecodeError as exc:
            problems.append(f"{where}: not valid JSON ({exc})")
            continue
        except ValueError as exc:
            problems.append(f"{where}: {exc}")
            continue
        problem = _check_task(task)
        if problem is not None:
            problems.append(f"{where}: {problem}")
            continue
        if task.id in first_line:
            problems.append(f"{where}: id: duplicate id {task.id!r} (first on line {first_line[task.id]})")
            continue
        first_line[task.id] = number
        tasks.append(task)
    if not problems and not tasks:
        problems.append(f"{source}: no tasks")
    if problems:
        shown = problems[:_MAX_REPORTED]
        more = len(problems) - len(shown)
        if more:
            shown.append(f"... and {more} more")
        raise UsageError(
            "the tasks file has problems; nothing was run:\n  " + "\n  ".join(shown),
            hint="each line is one JSON object: id, instruction, repo {path | git + commit}, setup, "
            "eval {command, timeout_s}, env, metadata, instance_id",
        )
    return tasks


def swebench_mirror_names(repo: str) -> tuple[str, ...]:
    """Folder names under --repos-dir where the mirror of a SWE-bench `repo` ("owner/name") may live."""
    owner, _, name = repo.partition("/")
    if not name:
        return (f"{repo}.git", repo)
    flat = f"{owner}__{name}"
    return (f"{flat}.git", flat, f"{owner}/{name}.git", f"{owner}/{name}", f"{name}.git", name)


def swebench_repos(data: bytes, *, source: str) -> list[str]:
    """The distinct `repo` values of a SWE-bench file (best effort: bad rows are reported later)."""
    entries, _ = _raw_items(data, source)
    seen: dict[str, None] = {}
    for _, raw in entries:
        try:
            value = _decode(raw, dict)
        except (msgspec.ValidationError, msgspec.DecodeError):
            continue
        repo = value.get("repo")
        if isinstance(repo, str):
            seen.setdefault(repo, None)
    return list(seen)


def swebench_task(row: SwebenchRow, mirrors: Mapping[str, str]) -> TaskSpec:
    """A SWE-bench row as a task on its local mirror; ValueError when no mirror was found."""
    mirror = mirrors.get(row.repo)
    if mirror is None:
        raise ValueError(
            f"repo: no local mirror of {row.repo!r} under --repos-dir (looked for "
            f"{', '.join(swebench_mirror_names(row.repo))})"
        )
    metadata = {
        key: value
        for key, value in (
            ("repo", row.repo),
            ("version", row.version),
            ("environment_setup_commit", row.environment_setup_commit),
            ("created_at", row.created_at),
        )
        if value is not None
    }
    return TaskSpec(
        id=row.instance_id,
        instruction=row.problem_statement,
        repo=RepoSpec(git=mirror, commit=row.base_commit),
        metadata=metadata,
        instance_id=row.instance_id,
    )


def task_ids(tasks: Iterable[TaskSpec]) -> list[str]:
    """The ids in file order."""
    return [task.id for task in tasks]
