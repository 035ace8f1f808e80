"""The history copy of huge tool-call arguments: a JSON object, bounded, pointing at the whole."""

from __future__ import annotations

import json

from vtcode.core.call_arguments import ARGUMENT_LIMIT, bounded_arguments


def test_arguments_that_fit_are_kept_as_they_are() -> None:
    assert bounded_arguments(json.dumps({"path": "a", "content": "x" * 1000}), "ref") is None


def test_each_long_string_keeps_its_head_and_tail() -> None:
    content = "h" * 3000 + "m" * 100_000 + "t" * 600
    kept = json.loads(bounded_arguments(json.dumps({"path": "a.txt", "content": content}), "spool.log") or "")
    assert kept["path"] == "a.txt"
    assert kept["content"].startswith("h" * 2048)
    assert kept["content"].endswith("t" * 512)
    assert (
        "101,040 characters omitted from the history; the tool received them whole; the whole "
        in kept["content"]
    )
    assert "saved in spool.log" in kept["content"]


def test_arguments_that_are_not_an_object_become_one_note() -> None:
    raw = "[" + ",".join(["1"] * ARGUMENT_LIMIT) + "]"
    kept = json.loads(bounded_arguments(raw, None) or "")
    assert kept == {"omitted_arguments": f"[{len(raw):,} characters of arguments omitted from the history]"}
