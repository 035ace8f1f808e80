"""Write docs/exec-events.schema.json from the event types (run after changing protocol/events.py)."""

from __future__ import annotations

from pathlib import Path

from vtcode.protocol.event_schema import SCHEMA_PATH, schema_text

if __name__ == "__main__":
    target = Path(__file__).resolve().parent.parent / SCHEMA_PATH
    target.write_text(schema_text(), encoding="utf-8")
    print(f"wrote {target}")
