"""Classify every provider failure once, here, into a ProviderErrorKind that the runtime branches on."""

from __future__ import annotations

import json
import re

from vtcode.protocol.errors import ProviderError, ProviderErrorKind

_OVERFLOW = re.compile(
    r"context[_ ]length|maximum context|context window|prompt is too long|too many tokens|"
    r"input is too long|exceeds? the (?:model'?s? )?(?:context|maximum)|reduce the length|"
    r"request too large|token limit",
    re.IGNORECASE,
)
_QUOTA = re.compile(r"insufficient_quota|quota|billing|credit balance|exceeded your current", re.I)
_HTML = re.compile(r"^\s*(?:<!doctype html|<html|<head|<body)", re.I)
_TITLE = re.compile(r"<title[^>]*>(.*?)</title>", re.I | re.S)
# The server says it does not implement the method or protocol: asking again cannot help.
_NOT_IMPLEMENTED = frozenset({501, 505})


def error_message(body: str) -> str:
    """The human message inside an OpenAI/Anthropic-style error body, an HTML page's title, else the body."""
    if _HTML.match(body):
        title = _TITLE.search(body)
        named = _one_line(title.group(1), 80) if title else ""
        return f"an HTML page ({named})" if named else "an HTML page"
    try:
        data = json.loads(body)
    except ValueError:
        return _one_line(body) or "(empty response body)"
    if isinstance(data, dict):
        err = data.get("error", data)
        if isinstance(err, dict):
            message = err.get("message")
            if isinstance(message, str) and message:
                return _one_line(message)
        elif isinstance(err, str):
            return _one_line(err)
    return _one_line(body)


def classify_status(
    status: int, body: str, *, provider: str, api_key_env: str | None, base_url: str | None = None
) -> ProviderError:
    """Turn an HTTP error status and body into a classified ProviderError (`base_url`: named in hints)."""
    message = error_message(body)
    head = f"{provider}: HTTP {status}: {message}"
    where = f" ({base_url})" if base_url else ""
    if status in (401, 403):
        hint = f"check the API key in {api_key_env}" if api_key_env else "check the provider credentials"
        return ProviderError(ProviderErrorKind.AUTH, head, hint=hint, status=status, provider=provider)
    if status in {429, 402}:
        if status == 402 or _QUOTA.search(body):
            return ProviderError(
                ProviderErrorKind.QUOTA,
                head,
                hint="the account is out of quota or credit; check billing with the provider",
                status=status,
                provider=provider,
            )
        return ProviderError(
            ProviderErrorKind.RATE_LIMIT,
            head,
            hint="rate limited; wait and try again",
            status=status,
            provider=provider,
        )
    if status in (400, 413, 422) and _OVERFLOW.search(body):
        return ProviderError(
            ProviderErrorKind.CONTEXT_OVERFLOW,
            head,
            hint="the conversation is larger than the model's context window; compact or start anew",
            status=status,
            provider=provider,
        )
    if status in _NOT_IMPLEMENTED:
        return ProviderError(
            ProviderErrorKind.BAD_REQUEST,
            head,
            hint=f"the server{where} does not implement this API; check --base-url and the provider",
            status=status,
            provider=provider,
        )
    if status in (408, 409) or status >= 500:
        return ProviderError(
            ProviderErrorKind.SERVER,
            head,
            hint="the provider failed; try again later",
            status=status,
            provider=provider,
        )
    if status in (404, 405):
        hint = f"check --base-url{where}: an OpenAI-style API usually ends in /v1; and check the model name"
    else:
        hint = "the provider rejected the request"
    return ProviderError(ProviderErrorKind.BAD_REQUEST, head, hint=hint, status=status, provider=provider)


def stream_error(error_type: str, message: str, *, provider: str, api_key_env: str | None) -> ProviderError:
    """Classify an error delivered inside a stream (Anthropic `event: error`, OpenAI `error` chunks)."""
    status = {
        "overloaded_error": 529,
        "api_error": 500,
        "server_error": 500,
        "rate_limit_error": 429,
        "authentication_error": 401,
        "permission_error": 403,
        "invalid_request_error": 400,
        "request_too_large": 413,
        "insufficient_quota": 429,
        # OpenAI error codes (Responses `response.failed`, Chat Completions error chunks).
        "context_length_exceeded": 400,
        "rate_limit_exceeded": 429,
        "invalid_prompt": 400,
        "invalid_api_key": 401,
    }.get(error_type, 500)
    body = json.dumps({"error": {"type": error_type, "message": message}})
    return classify_status(status, body, provider=provider, api_key_env=api_key_env)


def invalid_response(provider: str, detail: str) -> ProviderError:
    """A reply that does not follow the wire format (garbled SSE, bad JSON)."""
    return ProviderError(
        ProviderErrorKind.INVALID_RESPONSE,
        f"{provider}: malformed streaming response: {detail}",
        hint="the server does not speak this wire format correctly; check --base-url and the provider",
        provider=provider,
    )


def not_a_streaming_api(provider: str, base_url: str, api: str, content_type: str) -> ProviderError:
    """A server that answered, but not as the streaming API asked for (an HTML page, plain junk).

    Not retryable: the same URL gives the same page again.
    """
    got = content_type or "no content type"
    return ProviderError(
        ProviderErrorKind.INVALID_RESPONSE,
        f"{provider}: the server at {base_url} did not answer as an {api} streaming API (got {got})",
        hint="check --base-url: it must name the API itself (usually ending in /v1), not a web page",
        provider=provider,
    )


def network_error(
    provider: str, detail: str, *, partial: bool = False, base_url: str | None = None, refused: bool = False
) -> ProviderError:
    """Connection failures, timeouts and streams that ended before completion; `base_url` is named."""
    what = "the stream broke after partial output" if partial else "network error"
    where = f" ({base_url})" if base_url else ""
    hint = "check the network and the provider's base URL"
    if refused and provider == "ollama":
        hint = "Ollama is not running there: start it with `ollama serve` (or the Ollama app)"
    elif refused:
        hint = "nothing answers at that address: is the server running, and is --base-url right?"
    return ProviderError(
        ProviderErrorKind.NETWORK, f"{provider}: {what}{where}: {detail}", hint=hint, provider=provider
    )


def _one_line(text: str, limit: int = 300) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"
