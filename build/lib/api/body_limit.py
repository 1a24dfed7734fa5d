"""Refuse request bodies over a size cap before they are read into memory.

The code-size check (413) runs on the parsed body; without this, a learner could make the API
buffer and parse an arbitrarily large JSON document first.
"""

from __future__ import annotations

import json

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from api.request_ids import request_id


class BodyLimit:
    """ASGI middleware: a 413 JSON error when Content-Length or the streamed body exceeds ``cap``."""

    def __init__(self, app: ASGIApp, cap: int) -> None:
        self.app = app
        self.cap = cap

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = dict(scope["headers"]).get(b"content-length")
        if declared is not None and declared.isdigit() and int(declared) > self.cap:
            await self._refuse(scope, send)
            return
        seen = 0
        over = False

        async def counting_receive() -> Message:
            nonlocal seen, over
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > self.cap:
                    # End the body here; the app's answer to the truncated body is replaced below.
                    over = True
                    return {"type": "http.request", "body": b"", "more_body": False}
            return message

        async def replacing_send(message: Message) -> None:
            if not over:
                await send(message)
            elif message["type"] == "http.response.start":
                await self._refuse(scope, send)

        await self.app(scope, counting_receive, replacing_send)

    async def _refuse(self, scope: Scope, send: Send) -> None:
        # Inside RequestIds, so the request already has its id; the body is refused as a whole.
        body = json.dumps({"error": {"code": "too_large",
                                     "message": f"the request body is over {self.cap} bytes",
                                     "param": None, "request_id": request_id(scope)}}).encode()
        await send({"type": "http.response.start", "status": 413,
                    "headers": [(b"content-type", b"application/json"),
                                (b"content-length", str(len(body)).encode())]})
        await send({"type": "http.response.body", "body": body})
