"""`import vtcode.sdk` loads nothing until a name is used, and using the SDK loads providers and MCP only
at `Session.open` (reference sdk.md section 6 item 19); every public name is still there, typed."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

import vtcode.sdk as vt


def _probe(code: str) -> list[str]:
    """Run `code` in a fresh interpreter; it prints a JSON list as its last line."""
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120
    ).stdout
    loaded: list[str] = json.loads(out.strip().splitlines()[-1])
    return loaded


def test_importing_the_sdk_loads_no_other_vtcode_module_nor_its_dependencies() -> None:
    loaded = _probe(
        "import sys, vtcode.sdk, json\n"
        "heavy = ('msgspec', 'asyncio', 'typing', 'vtcode.protocol', 'vtcode.runtime', 'vtcode.sdk.')\n"
        "print(json.dumps(sorted(m for m in sys.modules if m.startswith(heavy))))"
    )
    assert loaded == []


def test_building_options_and_tools_loads_no_provider_or_mcp_module() -> None:
    loaded = _probe(
        "import sys, json\n"
        "import vtcode.sdk as vt\n"
        "@vt.tool\n"
        "def ticket(key: str) -> str:\n"
        "    '''Return the title of an issue.'''\n"
        "    return key\n"
        "vt.Options(workspace='.', tools=[ticket])\n"
        "assert vt.Session and vt.SyncSession and vt.Hooks and vt.Allow\n"
        "late = ('vtcode.providers', 'vtcode.mcp', 'mcp')\n"
        "print(json.dumps(sorted(m for m in sys.modules if m.startswith(late))))"
    )
    assert loaded == []


def test_every_public_name_resolves_and_the_export_lists_agree() -> None:
    names = set(vt.__all__)
    assert {name for name in names if getattr(vt, name, None) is None} == set()
    assert names <= set(dir(vt))
    assert vt.Session.__module__ == "vtcode.sdk.session"
    assert vt.TurnCompleted.__module__ == "vtcode.protocol.events"


def test_the_tool_decorator_is_not_hidden_by_its_submodule() -> None:
    # The submodule `vtcode.sdk.tool` loads first here; `vt.tool` must still be the decorator.
    loaded = _probe(
        "import json\n"
        "import vtcode.sdk.tool\n"
        "import vtcode.sdk as vt\n"
        "from vtcode.sdk import *\n"
        "print(json.dumps([callable(vt.tool), vt.tool is tool, type(vt.tool).__name__]))"
    )
    assert loaded == [True, True, "function"]


def test_an_unknown_name_is_an_attribute_error() -> None:
    with pytest.raises(AttributeError, match="Sesion"):
        vt.Sesion  # type: ignore[attr-defined]  # noqa: B018


def test_a_subprocess_session_starts_its_child_before_this_process_loads_the_acp_library(
    tmp_path: Path,
) -> None:
    # Both processes import the ACP library (about a second of CPU): started first, the child loads it
    # while the program does. The audit hook sees the child's spawn and what was loaded at that moment.
    at_spawn = _probe(
        "import asyncio, json, sys\n"
        "seen = []\n"
        "def audit(event, args):\n"
        "    if event == 'subprocess.Popen' and 'acp' in list(args[1]):\n"
        "        seen.append(sorted(m for m in sys.modules if m == 'acp' or m.startswith('acp.')))\n"
        "sys.addaudithook(audit)\n"
        "import vtcode.sdk as vt\n"
        "from vtcode.sdk.testing import Reply, ScriptedModel\n"
        "async def main():\n"
        f"    options = vt.Options(workspace={str(tmp_path)!r}, transport='subprocess',\n"
        "                         model_client=ScriptedModel([Reply(text='hi')]), ephemeral=True)\n"
        "    async with await vt.Session.open(options) as s:\n"
        "        assert (await s.run('hello')).final_text == 'hi'\n"
        "asyncio.run(main())\n"
        "print(json.dumps(seen[0] if len(seen) == 1 else ['spawned', len(seen)]))"
    )
    assert at_spawn == []
