"""The reference server `@modelcontextprotocol/server-everything`, run with Node.

`.ci/run` installs it into `.cache/mcp-everything`; the tests install it there too when Node is present
and it is missing (the only registry access of the suite), and skip only where Node is absent.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

VERSION = "2026.8.31"
PACKAGE = f"@modelcontextprotocol/server-everything@{VERSION}"
PREFIX = Path(__file__).resolve().parents[2] / ".cache" / "mcp-everything"
ENTRY = PREFIX / "node_modules" / "@modelcontextprotocol" / "server-everything" / "dist" / "index.js"


def everything_command() -> tuple[str, str]:
    """`node` and the server's entry script, installing it first when needed; skips without Node."""
    node = shutil.which("node")
    if node is None:
        pytest.skip("Node.js is not installed: the reference MCP server cannot run here")
    if not ENTRY.exists():
        npm = shutil.which("npm")
        if npm is None:
            pytest.skip("npm is not installed: the reference MCP server cannot be installed here")
        done = subprocess.run(
            [npm, "install", "--silent", "--no-audit", "--no-fund", "--prefix", str(PREFIX), PACKAGE],
            capture_output=True,
            text=True,
            timeout=300,
            check=False,
        )
        assert done.returncode == 0, f"npm install {PACKAGE} failed: {done.stderr}"
        assert ENTRY.exists(), f"npm install {PACKAGE} did not install {ENTRY}"
    return node, str(ENTRY)
