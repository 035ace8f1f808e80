"""The environment a batch task's `vtcode exec` child gets: an allowlist of the driver's, never all of it.

A task's commands see this environment (minus API keys, which vtcode drops for commands), so only what
vtcode needs to reach its provider and run programs goes through: PATH, HOME, locale, temp folder,
proxies and certificates, the provider variables (`*_API_KEY`, `*_BASE_URL`, `OLLAMA_HOST`, `VTCODE_*`
selections), and what the user names with `--pass-env`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

ALLOWED: frozenset[str] = frozenset(
    {
        "PATH",
        "HOME",
        "USER",
        "LOGNAME",
        "SHELL",
        "LANG",
        "LC_ALL",
        "LC_CTYPE",
        "TZ",
        "TMPDIR",
        "HTTP_PROXY",
        "HTTPS_PROXY",
        "NO_PROXY",
        "http_proxy",
        "https_proxy",
        "no_proxy",
        "SSL_CERT_FILE",
        "SSL_CERT_DIR",
        "OLLAMA_HOST",
        "VTCODE_PROVIDER",
        "VTCODE_MODEL",
        "VTCODE_PROFILE",
        "VTCODE_DEBUG",
        "VTCODE_SANDBOX_PRETEND_MISSING",
    }
)
"""Variables passed by name."""

ALLOWED_SUFFIXES: tuple[str, ...] = ("_API_KEY", "_BASE_URL")
"""Provider variables passed by suffix (OPENAI_API_KEY, ANTHROPIC_BASE_URL, ...)."""


def task_environment(env: Mapping[str, str], passed: Iterable[str] = ()) -> dict[str, str]:
    """The allowlisted part of `env`, plus the variables named in `passed`."""
    extra = set(passed)
    return {
        name: value
        for name, value in env.items()
        if name in ALLOWED or name in extra or name.endswith(ALLOWED_SUFFIXES)
    }
