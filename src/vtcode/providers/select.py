"""Which provider to talk to, where, with which key and wire format (SPEC section 3)."""

from __future__ import annotations

import urllib.parse
from collections.abc import Mapping

import msgspec

from vtcode.core.provider_settings import ProviderSettings
from vtcode.protocol.errors import ConfigError
from vtcode.protocol.model import WireApi

OLLAMA_DEFAULT_HOST = "http://localhost:11434"


class BuiltinProvider(msgspec.Struct, frozen=True):
    """Defaults of a provider vtcode knows by name."""

    base_url: str
    api_key_env: str | None
    wire_api: WireApi
    default_model: str
    key_required: bool = True


BUILTIN: Mapping[str, BuiltinProvider] = {
    "openai": BuiltinProvider("https://api.openai.com/v1", "OPENAI_API_KEY", "responses", "gpt-5"),
    "anthropic": BuiltinProvider(
        "https://api.anthropic.com/v1", "ANTHROPIC_API_KEY", "anthropic", "claude-sonnet-4-5"
    ),
    "gemini": BuiltinProvider(
        "https://generativelanguage.googleapis.com/v1beta/openai",
        "GEMINI_API_KEY",
        "chat",
        "gemini-2.5-flash",
    ),
    "ollama": BuiltinProvider(OLLAMA_DEFAULT_HOST + "/v1", None, "chat", "gpt-oss:20b", key_required=False),
    # Any OpenAI-compatible server (vLLM, LM Studio, llama.cpp, OpenRouter) reached by --base-url.
    "openai-compatible": BuiltinProvider("", "OPENAI_API_KEY", "chat", "default", key_required=False),
}


class ProviderRequest(msgspec.Struct, frozen=True):
    """Everything selection looks at; built by the runtime from config, environment and flags."""

    provider: str | None
    model: str | None
    base_url: str | None
    wire_api: WireApi | None
    env: Mapping[str, str]
    custom: Mapping[str, ProviderSettings] = msgspec.field(default_factory=dict)


class ProviderChoice(msgspec.Struct, frozen=True):
    """The resolved provider."""

    name: str
    wire_api: WireApi
    base_url: str
    model: str
    api_key: str | None
    api_key_env: str | None

    def headers(self) -> dict[str, str]:
        """Authentication and version headers for this provider's wire format."""
        if self.wire_api == "anthropic":
            headers = {"anthropic-version": "2023-06-01"}
            if self.api_key:
                headers["x-api-key"] = self.api_key
            return headers
        return {"authorization": f"Bearer {self.api_key}"} if self.api_key else {}


NO_PROVIDER_HINT = (
    "set ANTHROPIC_API_KEY, OPENAI_API_KEY or GEMINI_API_KEY, start Ollama on localhost:11434, "
    "or pass --provider NAME with --base-url URL"
)


def ollama_available(host: str, timeout: float = 0.3) -> bool:
    """Whether an Ollama server answers at `host` (a quick local probe)."""
    return ollama_models(host, timeout) is not None


def ollama_models(host: str, timeout: float = 0.3) -> list[str] | None:
    """The models installed in the Ollama server at `host`, or None when it does not answer."""
    import httpx2  # only a probe needs it; a configured provider never does (start-up time)

    try:
        response = httpx2.get(host.rstrip("/") + "/api/tags", timeout=timeout)
    except httpx2.HTTPError:
        return None
    if response.status_code != 200:
        return None
    try:
        models = response.json().get("models", [])
        return [str(m["name"]) for m in models if isinstance(m, dict) and m.get("name")]
    except (ValueError, AttributeError):
        return []


def ollama_host(env: Mapping[str, str]) -> str:
    """`OLLAMA_HOST` as a URL: Ollama's own form `127.0.0.1:11434` has no scheme; the default otherwise."""
    host = env.get("OLLAMA_HOST") or OLLAMA_DEFAULT_HOST
    return host if "://" in host else f"http://{host}"


def auto_provider(env: Mapping[str, str]) -> str | None:
    """The first provider whose credentials are present (SPEC section 3 order), else a live Ollama."""
    for name, var in (
        ("anthropic", "ANTHROPIC_API_KEY"),
        ("openai", "OPENAI_API_KEY"),
        ("gemini", "GEMINI_API_KEY"),
    ):
        if env.get(var):
            return name
    if ollama_available(ollama_host(env)):
        return "ollama"
    return None


def select_provider(request: ProviderRequest) -> ProviderChoice:
    """Resolve the provider, or raise ConfigError (exit 2) saying what to set."""
    env = request.env
    name = request.provider or auto_provider(env)
    if name is None:
        raise ConfigError("no model provider is configured", hint=NO_PROVIDER_HINT)
    custom = request.custom.get(name)
    builtin = BUILTIN.get(name)
    if custom is None and builtin is None:
        known = ", ".join([*BUILTIN, *request.custom])
        raise ConfigError(
            f"unknown provider {name!r}", hint=f"use one of: {known}, or add [providers.{name}]"
        )
    base_url = request.base_url or (custom.base_url if custom else None)
    if base_url is None:
        base_url = _env_base_url(name, env) or (builtin.base_url if builtin else "")
    if not base_url:
        raise ConfigError(
            f"provider {name!r} needs a base URL", hint="pass --base-url URL or set OPENAI_BASE_URL"
        )
    _check_base_url(base_url)
    key_env = (custom.api_key_env if custom else None) or (builtin.api_key_env if builtin else None)
    api_key = env.get(key_env) if key_env else None
    if custom is not None and custom.api_key_env and not api_key:
        # A key the user named for this provider: sending requests without it only fails later, as 401.
        raise ConfigError(
            f"provider {name!r} needs an API key but {custom.api_key_env} is not set "
            f"([providers.{name}] api_key_env)",
            hint=f"export {custom.api_key_env}=..., or remove api_key_env for a server without keys",
        )
    if builtin is not None and builtin.key_required and custom is None and not api_key:
        raise ConfigError(
            f"provider {name!r} needs an API key but {key_env} is not set",
            hint=f"export {key_env}=... or choose another provider with --provider",
        )
    wire = request.wire_api or (custom.wire_api if custom else None)
    if wire is None:
        wire = builtin.wire_api if builtin else "chat"
        # A custom base URL for "openai" usually means a compatible server, which speaks Chat
        # Completions; the Responses API stays the default only for OpenAI itself.
        if name == "openai" and base_url != BUILTIN["openai"].base_url:
            wire = "chat"
    model = request.model or (custom.default_model if custom else None)
    if model is None and name == "ollama":
        # Without --model, use what is installed: the default may not be pulled on this machine.
        installed = ollama_models(base_url.removesuffix("/").removesuffix("/v1")) or []
        if installed and BUILTIN["ollama"].default_model not in installed:
            model = installed[0]
    if model is None and (name == "openai-compatible" or (builtin is None and wire != "anthropic")):
        # Such a server has no default vtcode could know; sending "default" only fails later.
        model = _only_served_model(name, base_url, api_key)
    model = model or (builtin.default_model if builtin else "default")
    return ProviderChoice(
        name=name,
        wire_api=wire,
        base_url=base_url,
        model=model,
        api_key=api_key or None,
        api_key_env=key_env,
    )


def served_models(base_url: str, api_key: str | None, timeout: float = 5.0) -> list[str]:
    """The model ids `GET {base_url}/models` lists; raises ValueError saying why there is no list."""
    import httpx2  # only when the server must name its model (start-up time)

    headers = {"authorization": f"Bearer {api_key}"} if api_key else {}
    try:
        response = httpx2.get(base_url.rstrip("/") + "/models", headers=headers, timeout=timeout)
    except httpx2.HTTPError as exc:
        raise ValueError(f"could not be reached to list its models ({exc or type(exc).__name__})") from exc
    if response.status_code != 200:
        raise ValueError(f"answered HTTP {response.status_code} at /models")
    try:
        data = response.json().get("data")
    except (ValueError, AttributeError):
        data = None
    if not isinstance(data, list):
        raise ValueError("did not list its models at /models")
    return [str(entry["id"]) for entry in data if isinstance(entry, dict) and entry.get("id")]


def _only_served_model(name: str, base_url: str, api_key: str | None) -> str:
    """The one model the server serves; otherwise a ConfigError asking for --model."""
    try:
        models = served_models(base_url, api_key)
    except ValueError as exc:
        found = str(exc)
    else:
        if len(models) == 1:
            return models[0]
        if not models:
            found = "lists no models at /models"
        else:
            shown = ", ".join(models[:10]) + (", …" if len(models) > 10 else "")
            found = f"serves {len(models)} models ({shown})"
    raise ConfigError(
        f"provider {name!r} needs --model: the server at {base_url} {found}",
        hint="pass --model NAME (or set agent.model in vtcode.toml)",
    )


def _env_base_url(name: str, env: Mapping[str, str]) -> str | None:
    if name in ("openai", "openai-compatible"):
        return env.get("OPENAI_BASE_URL") or None
    if name == "anthropic":
        return env.get("ANTHROPIC_BASE_URL") or None
    if name == "ollama" and env.get("OLLAMA_HOST"):
        return ollama_host(env).rstrip("/") + "/v1"
    return None


def _check_base_url(base_url: str) -> None:
    """An endpoint must be an http(s) URL with a host; anything else would only fail after retries."""
    parsed = urllib.parse.urlsplit(base_url)
    if parsed.scheme not in ("http", "https") or not parsed.netloc:
        raise ConfigError(
            f"invalid base URL {base_url!r}",
            hint="use an http:// or https:// URL, e.g. http://localhost:11434/v1",
        )
