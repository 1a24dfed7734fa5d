"""Calls to a platform: bounded in time and in bytes, never following a redirect, https unless
JUDGE_LTI_ALLOW_HTTP, and to public addresses unless JUDGE_LTI_ALLOW_PRIVATE. Every failure is a
``PlatformError`` that says which call failed and why, in a line fit to show an admin or an
instructor.

The address check matters because a launch names URLs the judge then calls (a line item's, a
roster's): a platform, or whoever holds its keys, must not turn the judge's webhook worker on
its own network. It is the webhooks' rule (``service.webhooks.addresses``), checked before the
call; unlike a webhook, the call then connects by name, so a name that resolves elsewhere a
moment later is not caught (platforms are registered by an admin; learners name no URL here)."""

from __future__ import annotations

import ipaddress
import json
from typing import Any
from urllib.parse import urlsplit

import httpx

from service.errors import PlatformError
from service.settings import get_settings
from service.webhooks import addresses


def checked_url(url: object, what: str) -> str:
    """``url`` when it is an absolute URL of a scheme the settings allow; ValueError otherwise,
    which callers turn into the refusal that fits (bad input, or a platform's bad answer)."""
    if not isinstance(url, str) or len(url) > 1000:
        raise ValueError(f"{what}: an absolute URL of at most 1000 characters")
    parts = urlsplit(url)
    allowed = ("https", "http") if get_settings().lti_allow_http else ("https",)
    if parts.scheme not in allowed or not parts.hostname:
        raise ValueError(f"{what}: {url!r} is not an absolute {' or '.join(allowed)} URL"
                         + ("" if "http" in allowed else " (JUDGE_LTI_ALLOW_HTTP allows http)"))
    return url


def _public(url: str, what: str) -> None:
    parts = urlsplit(url)
    host = parts.hostname or ""
    try:
        port = parts.port or (443 if parts.scheme == "https" else 80)
        found = addresses.system_resolver(host, port)
    except (OSError, ValueError) as exc:
        raise PlatformError(f"{what}: {url} could not be reached: its host does not resolve") from exc
    for address in found:
        reason = addresses.why_not_public(ipaddress.ip_address(address.split("%", 1)[0]))
        if reason is not None:
            raise PlatformError(f"{what}: {url} is not at a public address ({reason}); "
                                "JUDGE_LTI_ALLOW_PRIVATE lets the judge call a platform on its own network")


def call(method: str, url: str, what: str, *, headers: dict[str, str] | None = None,
         data: dict[str, str] | None = None, body: Any = None, content_type: str | None = None,
         ok: tuple[int, ...] = (200,)) -> httpx.Response:
    """One request; the answer when its status is in ``ok``, whose body is read whole (at most
    JUDGE_LTI_MAX_RESPONSE_BYTES)."""
    settings = get_settings()
    try:
        checked_url(url, what)
    except ValueError as exc:
        raise PlatformError(str(exc)) from exc
    if not settings.lti_allow_private:
        _public(url, what)
    sent = dict(headers or {})
    content = None
    if body is not None:
        content = json.dumps(body).encode()
        sent["Content-Type"] = content_type or "application/json"
    limit = settings.lti_max_response_bytes
    try:
        with httpx.Client(timeout=settings.lti_http_timeout_seconds, follow_redirects=False) as client, \
                client.stream(method, url, headers=sent, data=data, content=content) as streamed:
            chunks: list[bytes] = []
            size = 0
            for chunk in streamed.iter_bytes():
                size += len(chunk)
                if size > limit:
                    raise PlatformError(f"{what}: the answer from {url} is larger than {limit} bytes")
                chunks.append(chunk)
            # Read whole and bounded (and decoded: its encoding headers go), the answer callers get.
            kept = [(k, v) for k, v in streamed.headers.multi_items()
                    if k.lower() not in ("content-encoding", "content-length", "transfer-encoding")]
            answer = httpx.Response(streamed.status_code, headers=kept, content=b"".join(chunks),
                                    request=streamed.request)
    except httpx.HTTPError as exc:
        raise PlatformError(f"{what}: {url} could not be reached: {type(exc).__name__}: {exc}"[:300]) from exc
    if answer.status_code not in ok:
        snippet = answer.text[:160].replace("\n", " ")
        raise PlatformError(f"{what}: {url} answered {answer.status_code}: {snippet}"[:300])
    return answer


def json_of(answer: httpx.Response, what: str) -> Any:
    try:
        return answer.json()
    except ValueError as exc:
        raise PlatformError(f"{what}: the answer from {answer.request.url} is not JSON") from exc


def get_json(url: str, what: str, headers: dict[str, str] | None = None) -> Any:
    return json_of(call("GET", url, what, headers=headers), what)
