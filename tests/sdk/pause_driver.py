"""A program in its own process that resumes a paused session (tests/sdk/test_sdk_pause.py drives it).

argv: the options as JSON, the session id, and the step: `approve` (approve every paused call, say so,
then wait to be killed) or `continue` (run the next turn and print how it ended).
"""

from __future__ import annotations

import asyncio
import json
import sys

import vtcode.sdk as vt


async def main(options: vt.Options, session_id: str, step: str) -> None:
    """Do `step` on the resumed session."""
    async with await vt.Session.resume(session_id, options) as session:
        print(json.dumps({"pending": [p.display for p in session.pending_approvals]}), flush=True)
        if step == "approve":
            for paused in session.pending_approvals:
                await session.approve(paused.request_id, vt.Allow())
            print("approved", flush=True)
            await asyncio.sleep(3600)
        else:
            result = await session.run("continue")
            print(json.dumps({"status": result.status, "text": result.final_text}), flush=True)


if __name__ == "__main__":
    fields = json.loads(sys.argv[1])
    asyncio.run(main(vt.Options(**fields), sys.argv[2], sys.argv[3]))
