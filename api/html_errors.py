"""Error pages for browsers: an error on a page path becomes a small HTML page, not raw JSON.

Every error is first made JSON (``api.errors``, ``api.request_ids``); this ASGI middleware sits
outside them and, only when all of these hold, renders that JSON error as HTML instead:

- the path is not under ``/api/`` (the API answers JSON whatever the client accepts), nor one of
  the machine endpoints (``/healthz``, ``/readyz``, ``/metrics``, ``/openapi.json``);
- the client asked for ``text/html`` by name (a browser's navigation does; ``*/*`` from curl or
  an HTTP library does not, so scripts keep getting JSON);
- the answer is a 4xx or 5xx whose body is the JSON error shape ``{"error": {"code", "message"}}``.

The status, the request id and any other header are kept; the page carries the same strict
Content-Security-Policy as the pages themselves.
"""

from __future__ import annotations

import html
import json

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from api.routes.web import PAGE_HEADERS, page_headers

MACHINE_PATHS = ("/api/", "/healthz", "/readyz", "/metrics", "/openapi.json", "/docs", "/redoc")
TITLES = {404: "Page not found", 403: "Not allowed", 401: "Sign in needed", 405: "Not allowed here",
          422: "Page not found", 503: "The judge is unavailable", 500: "Something went wrong"}
REPLACED = {b"content-type", b"content-length", *(k.lower().encode() for k in PAGE_HEADERS)}


def wants_html(scope: Scope) -> bool:
    path = str(scope.get("path", ""))
    if path.startswith(MACHINE_PATHS) or path in ("/api",):
        return False
    accept = dict(scope.get("headers", [])).get(b"accept", b"").decode("latin-1").lower()
    return "text/html" in accept


def error_page(status: int, message: str, request_id: str) -> bytes:
    """The page for one error: what happened, in words, and a way back."""
    # A path that does not parse (e.g. /submissions/latest) is a page that does not exist.
    title = TITLES.get(status, "Something went wrong" if status >= 500 else "That did not work")
    detail = "There is no page at this address." if status in (404, 422) else message
    rid = f'<p class="muted">Request {html.escape(request_id)}</p>' if request_id else ""
    return f"""<!DOCTYPE html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>{html.escape(title)} · Metrics judge</title>
  <link rel="icon" href="/static/favicon.svg" type="image/svg+xml">
  <link rel="stylesheet" href="/static/app.css">
</head>
<body>
  <header class="site"><a class="brand" href="/">Metrics judge</a></header>
  <main class="error-page">
    <h1>{html.escape(title)}</h1>
    <p>{html.escape(detail)} <span class="muted">(HTTP {status})</span></p>
    <p><a href="/">Go to the problem list</a> · <a href="/submissions">My submissions</a></p>
    {rid}
  </main>
</body>
</html>
""".encode()


class HtmlErrors:
    """ASGI middleware: JSON errors on page paths become HTML pages for browsers."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or not wants_html(scope):
            await self.app(scope, receive, send)
            return
        start: Message | None = None
        chunks: list[bytes] = []

        async def capture(message: Message) -> None:
            nonlocal start
            if message["type"] == "http.response.start":
                headers = dict(message.get("headers", []))
                is_json = headers.get(b"content-type", b"").startswith(b"application/json")
                if message["status"] >= 400 and is_json:
                    start = message  # held back until the whole body is in
                    return
                await send(message)
            elif start is not None and message["type"] == "http.response.body":
                chunks.append(message.get("body", b""))
                if not message.get("more_body", False):
                    await send_page(start, b"".join(chunks))
            else:
                await send(message)

        async def send_page(held: Message, body: bytes) -> None:
            try:
                error = json.loads(body)["error"]
                message, rid = str(error["message"]), str(error.get("request_id", ""))
            except (ValueError, KeyError, TypeError):
                await send(held)  # not the error shape: pass it on untouched
                await send({"type": "http.response.body", "body": body})
                return
            page = error_page(held["status"], message, rid)
            kept = [(k, v) for k, v in held.get("headers", []) if k.lower() not in REPLACED]
            headers = [*kept, (b"content-type", b"text/html; charset=utf-8"),
                       (b"content-length", str(len(page)).encode()),
                       *((k.lower().encode(), v.encode()) for k, v in page_headers().items())]
            await send({**held, "headers": headers})
            await send({"type": "http.response.body", "body": page})

        await self.app(scope, receive, capture)
