"""Every request gets an id (the client's X-Request-ID, or a new one), returned in the response
header and written in the log; an unhandled failure becomes a JSON 500 that names the id, and an
unreachable database a JSON 503 with Retry-After, so no 5xx ever reaches a client as plain text.

Every 5xx body names the request id (``error.request_id``), whoever made it: a route's own 503
(the queue unreachable, /readyz), a failure caught here, or one raised by a middleware outside
this one (``unhandled``, the handler of Starlette's outermost ServerErrorMiddleware). The id is
what an operator needs to find the failure in the log, and a client may have shown only the body.
"""

from __future__ import annotations

import json
import logging
import re
import uuid

from sqlalchemy.exc import InterfaceError, OperationalError
from sqlalchemy.exc import TimeoutError as PoolTimeout
from starlette.requests import ClientDisconnect, Request
from starlette.responses import Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from service import metrics
from service.log_format import REQUEST_ID

log = logging.getLogger("api")
CLIENT_ID = re.compile(r"^[A-Za-z0-9._-]{1,64}$")
# A database that is away or exhausted, which a retry may outlast; any other driver error (a
# value the database refuses, say) is the judge's own fault: a 500.
UNAVAILABLE = (OperationalError, InterfaceError, PoolTimeout)
MAX_5XX_BODY = 64 * 1024  # the judge's own 5xx bodies are small; a larger one passes untouched


def with_request_id(body: bytes, status: int, rid: str) -> bytes:
    """A 5xx body that names the request id: the JSON error shape gets ``error.request_id``,
    another JSON object a top-level ``request_id``, anything else becomes the error shape."""
    try:
        shown = json.loads(body) if body else None
    except ValueError:
        shown = None
    if isinstance(shown, dict) and isinstance(shown.get("error"), dict):
        shown["error"].setdefault("request_id", rid)
    elif isinstance(shown, dict):
        shown.setdefault("request_id", rid)
    else:
        shown = _error_shape(status, rid)
    return json.dumps(shown).encode()


def _error_shape(status: int, rid: str) -> dict[str, object]:
    code, message = ("unavailable", "the service is unavailable; try again shortly") if status == 503 \
        else ("internal", "the server failed on this request")
    return {"error": {"code": code, "message": f"{message} (request {rid})", "param": None,
                      "request_id": rid}}


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
        # For the log lines of this request (JSON lines name it), uvicorn's access line included:
        # uvicorn writes that one inside the send it gets from here.
        token = REQUEST_ID.set(rid)
        try:
            await self._answer(scope, receive, send, rid)
        finally:
            REQUEST_ID.reset(token)

    async def _answer(self, scope: Scope, receive: Receive, send: Send, rid: str) -> None:
        started = False
        held: Message | None = None  # a 5xx's start, until its body has the id
        chunks: list[bytes] = []

        async def send_with_id(message: Message) -> None:
            nonlocal started, held
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", []), (b"x-request-id", rid.encode())]
                if message["status"] >= 500:
                    held = message  # nothing is sent yet: a failure now still gets a clean answer
                    return
                started = True
            elif held is not None and message["type"] == "http.response.body":
                chunks.append(message.get("body", b""))
                size = sum(map(len, chunks))
                if message.get("more_body", False) and size <= MAX_5XX_BODY:
                    return
                start, body, held = held, b"".join(chunks), None
                if size <= MAX_5XX_BODY:
                    body = with_request_id(body, start["status"], rid)
                    start["headers"] = [(k, v) for k, v in start["headers"] if k.lower() not in (
                        b"content-length", b"content-type")] + [
                        (b"content-type", b"application/json"),
                        (b"content-length", str(len(body)).encode())]
                started = True
                await send(start)
                message = {**message, "body": body}
            await send(message)

        try:
            await self.app(scope, receive, send_with_id)
        except ClientDisconnect:
            # The client hung up before its request was whole: nothing of the server's failed,
            # and nobody is left to answer. One line, not a traceback on the 500 path.
            log.info("request %s %s %s: the client hung up before its body was complete", rid,
                     scope.get("method"), scope.get("path"))
            metrics.client_hung_up()
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
                                         "param": None, "request_id": rid}}).encode()
            headers = [(b"content-type", b"application/json"),
                       (b"content-length", str(len(body)).encode()), (b"x-request-id", rid.encode())]
            if status == 503:
                headers.append((b"retry-after", b"5"))
            await send({"type": "http.response.start", "status": status, "headers": headers})
            await send({"type": "http.response.body", "body": body})


async def unhandled(request: Request, exc: Exception) -> Response:
    """The handler of Starlette's outermost middleware, for a failure that escaped every other
    one (raised by a middleware outside RequestIds): the JSON 500 with the id, the same as a
    failure caught in RequestIds. Starlette logs the exception itself after this answer."""
    rid = request_id(request.scope) or uuid.uuid4().hex
    body = json.dumps(_error_shape(500, rid)).encode()
    return Response(body, 500, headers={"x-request-id": rid}, media_type="application/json")
