"""SWE-bench predictions rebuilt from per-task results, never edited in place.

`preds.json` is the SWE-agent / mini-swe-agent shape (an object keyed by instance id), `preds.jsonl`
the SWE-bench harness shape (one prediction per line); the harness reads either
(`swebench/harness/utils.py`, `get_predictions_from_file`). Only tasks with a terminal status give a
prediction: an `error` or `interrupted` task is to be run again, not graded.
"""

from __future__ import annotations

from collections.abc import Iterable

import msgspec

from vtcode.core.batch.result import TaskResult
from vtcode.core.batch.status import TERMINAL


class Prediction(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """One graded answer: the instance, who made it, and the unified diff (empty when nothing changed)."""

    instance_id: str
    model_name_or_path: str
    model_patch: str


def model_name(provider: str | None, model: str | None) -> str:
    """`vtcode/<provider>/<model>`, with `default` for what the flags left to vtcode's configuration."""
    return f"vtcode/{provider or 'default'}/{model or 'default'}"


def patch_text(patch: bytes) -> str:
    """A patch as the string a prediction holds (binary hunks are ASCII; stray bytes become U+FFFD)."""
    return patch.decode("utf-8", errors="replace")


def predictions(results: Iterable[tuple[TaskResult, bytes]], name: str) -> list[Prediction]:
    """The predictions of the terminal results among `(result, patch bytes)`, in the given order."""
    return [
        Prediction(instance_id=result.instance_id, model_name_or_path=name, model_patch=patch_text(patch))
        for result, patch in results
        if result.status in TERMINAL
    ]


def preds_json(preds: Iterable[Prediction]) -> bytes:
    """`preds.json`: {instance_id: prediction}."""
    keyed = {pred.instance_id: pred for pred in preds}
    return msgspec.json.format(msgspec.json.encode(keyed), indent=2) + b"\n"


def preds_jsonl(preds: Iterable[Prediction]) -> bytes:
    """`preds.jsonl`: one prediction per line."""
    return b"".join(msgspec.json.encode(pred) + b"\n" for pred in preds)
