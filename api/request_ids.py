"""Every request gets an id (the client's X-Request-ID, or a new one), returned in the response
header and written in the log; an unhandled failure becomes a JSON 500 that names the id, and an
unreachable database a JSON 503 with Retry-After, so no 5xx ever reaches a client as plain text.
"""

from __future__ import annotations

import json
import logging
import re
import uuid

from sqlalchemy.exc import DBAPIError
from sqlalchemy.exc import TimeoutError as PoolTimeout
from starlette.types import ASGIApp, Message, Receive, Scope, Send

log = logging.getLogger("api")
CLIENT_ID = re.compile(r"^[A-Za-z0-9._-]{1,64}$")
UNAVAILABLE = (DBAPIError, PoolTimeout)


def request_id(scope: Scope) -> str:
    return str(scope.get("state", {}).get("request_id", ""))


class RequestIds:
    """ASGI middleware: ids on every request, JSON on every failure."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        given = dict(scope["headers"]).get(b"x-request-id", b"").decode("latin-1")
        rid = given if CLIENT_ID.match(given) else uuid.uuid4().hex
        scope.setdefault("state", {})["request_id"] = rid
        started = False

        async def send_with_id(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
                message["headers"] = [*message.get("headers", []), (b"x-request-id", rid.encode())]
            await send(message)

        try:
            await self.app(scope, receive, send_with_id)
        except Exception as exc:
            if isinstance(exc, UNAVAILABLE):
                log.warning("request %s: the database is unavailable: %s", rid,
                            str(exc).splitlines()[0][:200])
                status, code, message = 503, "unavailable", (
                    "the database is unavailable; try again shortly")
            else:
                log.exception("request %s %s %s failed", rid, scope.get("method"), scope.get("path"))
                status, code, message = 500, "internal", "the server failed on this request"
            if started:
                raise  # too late for a clean answer; the server closes the connection
            body = json.dumps({"error": {"code": code, "message": f"{message} (request {rid})",
                                         "request_id": rid}}).encode()
            headers = [(b"content-type", b"application/json"),
                       (b"content-length", str(len(body)).encode()), (b"x-request-id", rid.encode())]
            if status == 503:
                headers.append((b"retry-after", b"5"))
            await send({"type": "http.response.start", "status": status, "headers": headers})
            await send({"type": "http.response.body", "body": body})
