"""Refuse a method before routing where Starlette would route the path to the wrong route.

A path such as ``/api/v1/courses/join`` (``POST`` only) also matches ``/courses/{course_id}``,
and Starlette takes any route that matches in full: ``GET`` reached the course and answered 422
for course id "join". This ASGI middleware answers such a request 405 with the path's own methods
(``api.allowed_methods``); it looks only at the few paths that are shadowed that way, so every
other request passes after a handful of regular-expression matches.
"""

from __future__ import annotations

from starlette.types import ASGIApp, Receive, Scope, Send

from api.allowed_methods import resources
from api.errors import not_allowed


class MethodCheck:
    """ASGI middleware: 405 for a method the path's most specific routes do not take."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            found = resources(scope)
            if found.shadows(scope) and scope["method"] not in found.methods(scope):
                await not_allowed(scope)(scope, receive, send)
                return
        await self.app(scope, receive, send)
