"""A skill's body is read when the skill is used, not at start-up: the catalog needs only the frontmatter.

What the model gets is the body as the file holds it at that moment; a body that can no longer be read
is an error the model sees (and a notice for `/name`), and `vtcode skills list` reads whole files, so it
reports every problem a `SKILL.md` has.
"""

from __future__ import annotations

import json
from pathlib import Path

from tests.conftest import VtcodeRunner
from tests.runtime.session_helpers import Reader, options
from tests.skills.helpers import repo, write_skill
from vtcode.core.instructions.text import Frontmatter, split_frontmatter
from vtcode.protocol.events import Notice, TurnCompleted
from vtcode.protocol.ops import UserInput
from vtcode.runtime.session import Session
from vtcode.testing.script import Reply, ScriptToolCall
from vtcode.testing.wire import server_for

# Past the first 8 KB a discovery reads of a `SKILL.md`.
_LONG = "Filler line of the skill body.\n" * 400


def _tool_result(body: dict[str, object]) -> str:
    messages = body["messages"]
    assert isinstance(messages, list)
    return str(next(m for m in messages if m["role"] == "tool")["content"])


async def test_the_skill_tool_returns_the_body_the_file_holds_when_it_is_used(tmp_path: Path) -> None:
    root = repo(tmp_path)
    path = write_skill(root / ".agents/skills", "guide", "Guides.", "Old step.\n" + _LONG + "Old end.\n")
    call = ScriptToolCall("skill", json.dumps({"name": "guide"}), id="s1")
    with server_for("chat", [Reply(text="hello"), Reply(tool_calls=(call,)), Reply(text="done")]) as server:
        session = await Session.open(options(root, tmp_path, server))
        reader = Reader(session)
        await session.submit(UserInput("hi"))
        await reader.wait_for(TurnCompleted)
        path.write_text(path.read_text().replace("Old end.", "New end."))  # edited after start-up
        await session.submit(UserInput("follow the guide"))
        await reader.wait_for(TurnCompleted, after=len(reader.events))
        await reader.close()
        first, _, third = (r.json() for r in server.requests)
    assert "<name>guide</name>" in json.dumps(first)
    assert "Old step." not in json.dumps(first)
    result = _tool_result(third)
    assert result.startswith('<skill_content name="guide">\nOld step.\nFiller line')
    assert "New end." in result
    assert "Old end." not in result


async def test_a_body_that_is_not_utf8_past_the_frontmatter_is_an_error_when_used(tmp_path: Path) -> None:
    root = repo(tmp_path)
    write_skill(root / ".agents/skills", "good", "Still fine.")
    bad = root / ".agents/skills/latin/SKILL.md"
    bad.parent.mkdir(parents=True)
    bad.write_bytes(b"---\nname: latin\ndescription: Old notes.\n---\n" + _LONG.encode() + b"caf\xe9\n")
    calls = (ScriptToolCall("skill", json.dumps({"name": "latin"}), id="s1"),)
    with server_for("chat", [Reply(tool_calls=calls), Reply(text="noted")]) as server:
        session = await Session.open(options(root, tmp_path, server))
        reader = Reader(session)
        await session.submit(UserInput("/latin"))  # typed by a person: a notice, the text goes on as is
        await reader.wait_for(TurnCompleted)
        await reader.close()
        first, second = (r.json() for r in server.requests)
    assert "<name>latin</name>" in json.dumps(first)  # the frontmatter was fine at start-up
    notices = [n.message for n in reader.of(Notice)]
    assert f"/latin: {bad} cannot be used (not UTF-8 text)" in notices
    assert json.dumps("/latin") in json.dumps(first["messages"])
    assert _tool_result(second) == f"ERROR: skill 'latin' cannot be loaded: {bad}: not UTF-8 text"


def test_skills_list_reads_whole_files_and_reports_a_bad_body(vtcode: VtcodeRunner, tmp_path: Path) -> None:
    root = repo(tmp_path)
    write_skill(root / ".agents/skills", "good", "Still fine.")
    bad = root / ".agents/skills/latin/SKILL.md"
    bad.parent.mkdir(parents=True)
    bad.write_bytes(b"---\nname: latin\ndescription: Old notes.\n---\n" + _LONG.encode() + b"caf\xe9\n")
    huge = root / ".agents/skills/huge/SKILL.md"
    huge.parent.mkdir(parents=True)
    huge.write_text("---\nname: huge\ndescription: big\n---\n" + "x" * (5 * 1024 * 1024))
    result = vtcode.run("skills", "list", "--json", cwd=root)
    assert result.code == 0, result.stderr
    report = json.loads(result.stdout)
    assert [d["name"] for d in report["definitions"]] == ["good"]
    reasons = {Path(d["path"]).parent.name: d["reason"] for d in report["diagnostics"]}
    assert reasons["latin"] == "not UTF-8 text"
    assert reasons["huge"].startswith("too large (")


def test_frontmatter_splits_as_whole_lines_do_however_long_the_body() -> None:
    def by_lines(text: str) -> Frontmatter:  # what the split always meant: whole lines, `splitlines`
        lines = text.splitlines(keepends=True)
        if not lines or lines[0].rstrip() != "---":
            return Frontmatter(None, text)
        for index in range(1, len(lines)):
            if lines[index].rstrip() in ("---", "..."):
                return Frontmatter("".join(lines[1:index]), "".join(lines[index + 1 :]))
        return Frontmatter(None, text)

    long_block = "".join(f"key{n}: value {n}\r\n" for n in range(300))
    texts = [
        "---\nname: a\n---\n" + _LONG,
        "---\r\n" + long_block + "---\r\n" + _LONG,
        "---\n" + "x" * 1023 + "\r\n---\nbody",  # a `\r\n` across the first slice's end
        "---\n" + "x" * 5000 + "\u2028---\u2028body",  # a Unicode line separator
        "---\n" + long_block + "...  \nbody",
        "---\n" + long_block,  # never closed: all body
        "---x\nname: a\n---\n",
        "--\n---\n",
    ]
    for text in texts:
        assert split_frontmatter(text) == by_lines(text)
