"""What a session loads only when a feature is first used, not at every start-up (the import boundary).

Every module imported before the first request is paid for by every `vtcode exec`. These stay out
until their feature runs: the web fetcher's HTTP client and HTML converters (first `web_fetch`); what
runs a subagent and, with no agent folder, the definition parsers (first `task`); the rewind machinery
(first `/rewind`); the checkpoint collector (a session over its quota); the hook readers (a workspace
with a hook source); the parsers of other subcommands.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from tests.cli.exec_probe import RUN_VTCODE, run_exec_probe

LOADED_ON_USE = (
    "bs4",
    "markdownify",
    "vtcode.providers.web_http",
    "vtcode.tools.web_page",
    "vtcode.core.web_content",
    "vtcode.core.web_address",
    "vtcode.runtime.subagent_events",
    "vtcode.core.agents.definitions",
    "vtcode.instructions.agent_files",
    "vtcode.runtime.subagent_wiring",
    "vtcode.runtime.session_rewind",
    "vtcode.runtime.rewind",
    "vtcode.runtime.checkpoint_gc",
    "vtcode.config.hook_sources",
    "vtcode.config.hook_json",
    "vtcode.core.hooks.digest",
    "vtcode.cli.skills_cmd",
    "vtcode.cli.checkpoint_options",
    "vtcode.cli.batch_options",
    "vtcode.core.policy_shadow",
    "vtcode.core.hooks.input_check",
)

_LOADED = f"[m for m in {LOADED_ON_USE!r} if m in sys.modules]"


def test_importing_the_session_loads_no_feature_machinery() -> None:
    probe = (
        f"import sys, json\nimport vtcode.runtime.session, vtcode.cli.exec_cmd\nprint(json.dumps({_LOADED}))"
    )
    out = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True, timeout=120
    ).stdout
    assert json.loads(out.strip().splitlines()[-1]) == []


def test_an_exec_turn_that_uses_no_feature_loads_none_of_them(tmp_path: Path) -> None:
    # A whole `vtcode exec` (stored session, checkpoints on) whose model answers without a tool call.
    probe = (
        "import sys, json, runpy\n"
        "sys.argv = ['vtcode', 'exec', 'hello']\n"
        f"{RUN_VTCODE}"
        f"print(json.dumps({_LOADED}), file=sys.stderr)\n"
    )
    home = tmp_path / "home"
    work = tmp_path / "work"
    work.mkdir()
    stdout, loaded = run_exec_probe(probe, cwd=work, home=home)
    assert stdout.strip() == "hi there"
    assert loaded == []
    # The session was stored with its checkpoints (what is loaded later is still recorded now).
    assert list((home / ".vtcode" / "checkpoints").glob("*/manifest.jsonl"))


def test_a_workspace_hook_file_still_loads_the_hook_readers(tmp_path: Path) -> None:
    (tmp_path / ".vtcode").mkdir()
    (tmp_path / ".vtcode" / "hooks.json").write_text("{not json")
    probe = (
        "import sys\n"
        "from pathlib import Path\n"
        "from vtcode.runtime.session_config import SessionRequest, session_options\n"
        "from vtcode.protocol.errors import ConfigError\n"
        "try:\n"
        "    request = SessionRequest(workspace=Path(sys.argv[1]))\n"
        "    options = session_options(request, env={'HOME': sys.argv[2]})\n"
        "    print('warnings', options.config_warnings)\n"
        "except ConfigError as error:\n"
        "    print('config error', error)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", probe, str(tmp_path), str(tmp_path / "home")],
        capture_output=True, text=True, check=True, timeout=120,
    ).stdout  # fmt: skip
    # The file was read (and, as no hook of this workspace is trusted, skipped with a warning).
    assert out.startswith("warnings"), out
    assert "hooks.json: invalid JSON" in out, out
