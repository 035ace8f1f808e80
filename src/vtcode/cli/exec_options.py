"""`vtcode exec` options for scripts and CI: output format and files, schema, images."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any, Literal

from vtcode.protocol.errors import UsageError

OutputFormat = Literal["text", "json", "jsonl"]


def add_script_options(parser: argparse.ArgumentParser) -> None:
    """Add the exec options scripts rely on (`--json` stays as the old name of jsonl)."""
    parser.add_argument(
        "--output-format",
        choices=("text", "json", "jsonl"),
        help="text: progress on stderr, the answer on stdout (default); json: one result object at "
        "the end; jsonl: one event per line (= --json)",
    )
    parser.add_argument(
        "-o",
        "--output-last-message",
        metavar="FILE",
        help="also write the last agent message to FILE (empty when there was none)",
    )
    parser.add_argument(
        "-i",
        "--image",
        action="append",
        metavar="PATH",
        help="attach an image (PNG, JPEG, GIF, WebP) to the prompt; repeatable",
    )
    parser.add_argument(
        "--ephemeral",
        action="store_true",
        help="store nothing: the session cannot be resumed or steered from elsewhere (it compacts in memory)",
    )
    parser.add_argument(
        "--output-schema",
        metavar="FILE",
        help="a JSON Schema the final answer must validate against (re-asked twice, then exit 1)",
    )


def output_format(args: argparse.Namespace) -> OutputFormat:
    """The chosen format: --output-format, else jsonl for --json / --json-deltas, else text."""
    chosen: OutputFormat | None = getattr(args, "output_format", None)
    if chosen is not None:
        return chosen
    if args.json or getattr(args, "json_deltas", False):
        return "jsonl"
    return "text"


def read_schema(value: str | None) -> dict[str, Any] | None:
    """The JSON Schema in the file `value` (checked), or None; UsageError naming the file when unusable."""
    if value is None:
        return None
    from vtcode.runtime.structured_output import check_schema

    try:
        raw = Path(value).read_text(encoding="utf-8")
    except OSError as exc:
        raise UsageError(f"--output-schema {value}: {exc.strerror or exc}") from None
    try:
        schema = json.loads(raw)
    except ValueError as exc:
        raise UsageError(f"--output-schema {value}: not JSON ({exc})") from None
    return dict(check_schema(schema, f"--output-schema {value}"))
