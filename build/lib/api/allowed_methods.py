"""Which methods a path takes: the ``Allow`` of every 405, and which paths Starlette routes wrong.

Starlette's router answers 405 from the first route whose path matched with another method, so
``Allow`` named that route's methods only: ``/api/v1/assignments/1`` said ``GET`` while ``PUT``
and ``DELETE`` exist there (schemathesis, issue 32). And it takes any route whose path matches in
full: ``GET /api/v1/courses/join`` reached ``GET /courses/{course_id}`` and answered 422 for
course id "join", though that path exists for ``POST`` alone.

Here a path belongs to the most specific route templates that match it (a fixed segment beats a
parameter, position by position, as in most routers), and it takes their methods together.
``shadows`` names the paths where that differs from Starlette's first match, so that
``api.method_check`` looks at only those before routing.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from re import Pattern

from fastapi.routing import iter_route_contexts
from starlette.routing import BaseRoute
from starlette.types import Scope

ORDER = ("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS")
PARAMETER = re.compile(r"\{[^}]*\}")


@dataclass(frozen=True)
class Template:
    """One route's path as the router matches it, with its methods."""

    regex: Pattern[str]
    rank: tuple[int, ...]  # per segment: 1 fixed, 0 a parameter; larger is more specific
    methods: frozenset[str]
    example: str  # the path with each parameter as "1", which any parameter's convertor takes


def _template(path_format: str, regex: Pattern[str], methods: set[str]) -> Template:
    segments = path_format.strip("/").split("/")
    return Template(regex, tuple(0 if PARAMETER.search(s) else 1 for s in segments),
                    frozenset(methods), PARAMETER.sub("1", path_format))


class Resources:
    """The app's routes, grouped by the paths they serve."""

    def __init__(self, routes: Sequence[BaseRoute]) -> None:
        self.templates = [_template(c.path_format, c.path_regex, c.methods)
                          for c in iter_route_contexts(routes)
                          if c.methods and c.path_format and getattr(c, "path_regex", None) is not None]
        # A fixed template that a less specific one also matches: Starlette may route its paths
        # to that other one (whichever comes first with the method).
        self.shadowed = [t for t in self.templates
                         if any(o.rank < t.rank and o.regex.match(t.example) for o in self.templates)]

    def methods(self, scope: Scope) -> list[str]:
        """The methods the request's path takes (in ``ORDER``), none when no route matches it."""
        path = route_path(scope)
        matching = [t for t in self.templates if t.regex.match(path)]
        if not matching:
            return []
        best = max(t.rank for t in matching)
        taken = set().union(*(t.methods for t in matching if t.rank == best))
        return sorted(taken, key=lambda m: (ORDER.index(m) if m in ORDER else len(ORDER), m))

    def shadows(self, scope: Scope) -> bool:
        """Starlette might route the request's path to a less specific template than its own."""
        path = route_path(scope)
        return any(t.regex.match(path) for t in self.shadowed)


def route_path(scope: Scope) -> str:
    """The path as Starlette's router matches it: with the ASGI ``root_path`` (a mount point or a
    proxy's prefix) taken off where the path starts with it as a whole segment."""
    path: str = scope["path"]
    root: str = scope.get("root_path", "")
    if not root or not path.startswith(root):
        return path
    rest = path[len(root):]
    return rest if rest == "" or rest.startswith("/") else path


def resources(scope: Scope) -> Resources:
    """The ``Resources`` of the app serving ``scope``, built on first use (every route is
    included by then) and kept on the app's state."""
    app = scope["app"]
    found: Resources | None = getattr(app.state, "resources", None)
    if found is None:
        found = app.state.resources = Resources(app.routes)
    return found
