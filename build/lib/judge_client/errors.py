"""The failures the client reports: ``ClientError`` (what happened, what to do about it), and
what to tell the user about an error answer of the judge's (or of whatever answers at its URL)."""

from __future__ import annotations

import json
from typing import Any

import httpx

from judge_client.config import TOKEN_VARIABLE

# An error's message as shown: enough for any message of the judge's, and a bound on what a
# hostile server can put on the screen through it.
MESSAGE_CHARS = 300


class ClientError(Exception):
    """A failure the user can act on: ``message`` says what, ``hint`` what to do."""

    def __init__(self, message: str, hint: str = "", *, status: int | None = None, code: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.hint = hint
        self.status = status
        self.code = code

    def as_json(self) -> dict[str, Any]:
        return {"error": {"code": self.code or "client_error", "status": self.status,
                          "message": self.message, "hint": self.hint or None}}


def _server_error(body: bytes, reason: str) -> tuple[str, str, str | None]:
    """(code, message, request id) of an error answer; the raw text when it is not the judge's
    ``{"error": {...}}`` (a proxy's page, another service at that URL)."""
    try:
        error = json.loads(body)["error"]
        request_id = error.get("request_id")
        return (str(error["code"])[:MESSAGE_CHARS], str(error["message"])[:MESSAGE_CHARS],
                None if request_id is None else str(request_id)[:MESSAGE_CHARS])
    except (ValueError, KeyError, TypeError, AttributeError, RecursionError):
        text = " ".join(body.decode("utf-8", errors="replace").split())[:200]
        return "", text or reason, None


def error_for(response: httpx.Response, body: bytes, base_url: str) -> ClientError:
    """What to tell the user about an answer of status 400 or more, whose body (or its start)
    is ``body``."""
    status = response.status_code
    code, message, request_id = _server_error(body, response.reason_phrase)
    where = f" (request id {request_id})" if request_id else ""
    if status == 401:
        return ClientError(
            f"the judge at {base_url} refused the token: {message}",
            f"set a valid one with `judge-client configure --token jt_...` or {TOKEN_VARIABLE}; "
            f"make one on your account page, {base_url}/account (API tokens), or ask an admin "
            "(`judge users create NAME`)", status=status, code=code or "unauthorized")
    if status == 403:
        return ClientError(f"not allowed: {message}", status=status, code=code)
    if status == 404:
        return ClientError(f"not found: {message}", "check the name or id (`judge-client list` shows yours)",
                           status=status, code=code)
    if status == 413:
        return ClientError(f"too large: {message}", status=status, code=code)
    if status == 422:
        return ClientError(f"the judge rejected the request: {message}", status=status, code=code)
    if status == 429:
        after = response.headers.get("Retry-After", "")[:20]
        hint = f"try again in {after} s (Retry-After)" if after else "try again later"
        return ClientError(f"too many requests: {message}", hint, status=status, code=code)
    if status >= 500:
        return ClientError(f"the judge failed with HTTP {status}: {message}{where}",
                           "try again later; if it persists, give the request id to whoever runs the judge",
                           status=status, code=code)
    return ClientError(f"HTTP {status}: {message}{where}", status=status, code=code)
