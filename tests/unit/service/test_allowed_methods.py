"""Every path answers a method it does not take with 405 and the whole ``Allow`` of the path.

The walk goes over every route of the app: each route's path, with its parameters filled in, is
asked with every method none of the routes serving that path takes. Which routes serve a path is
decided here independently of ``api.allowed_methods``: a route whose template matches the path and
whose parameters take the values in it (an id parameter never takes the word "join").
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from fastapi.routing import iter_route_contexts
from fastapi.testclient import TestClient
from starlette.convertors import IntegerConvertor

from api.allowed_methods import route_path
from api.main import app
from tests.unit.service.helpers import error

METHODS = ("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS")
PARAMETER = re.compile(r"\{([^}:]+)[^}]*\}")


@dataclass(frozen=True)
class Served:
    regex: re.Pattern[str]
    methods: frozenset[str]
    int_parameters: frozenset[str]  # the ones only an integer fills

    def serves(self, path: str) -> bool:
        found = self.regex.match(path)
        return found is not None and all(re.fullmatch(r"-?\d+", str(found.group(name)))
                                         for name in self.int_parameters)


def _int_parameters(context: Any) -> frozenset[str]:
    """The path parameters typed int (an API route's) or converted as int (a page's)."""
    dependant = getattr(context, "dependant", None)
    typed = {f.name for f in dependant.path_params if f.field_info.annotation is int} if dependant else set()
    converted = {name for name, convertor in (context.param_convertors or {}).items()
                 if isinstance(convertor, IntegerConvertor)}
    return frozenset(typed | converted)


def _filled(path_format: str, int_parameters: frozenset[str]) -> str:
    return PARAMETER.sub(lambda m: "1" if m.group(1) in int_parameters else "sample", path_format)


def _routes() -> Iterator[tuple[str, Served]]:
    for context in iter_route_contexts(app.routes):
        if context.methods and context.path_format:
            served = Served(context.path_regex, frozenset(context.methods), _int_parameters(context))
            yield _filled(context.path_format, served.int_parameters), served


ROUTES = list(_routes())
PATHS = sorted({path for path, _ in ROUTES})


def allowed(path: str) -> set[str]:
    return set().union(*(served.methods for _, served in ROUTES if served.serves(path)))


def test_the_walk_sees_the_paths_that_went_wrong() -> None:
    assert len(PATHS) > 80
    assert allowed("/api/v1/assignments/1") == {"GET", "PUT", "DELETE"}
    assert allowed("/api/v1/courses/join") == {"POST"}  # never GET /courses/{course_id}
    assert allowed("/api/v1/submissions/1/comments/read") == {"POST"}


@pytest.mark.parametrize("path", PATHS)
def test_a_method_no_route_of_the_path_takes_is_405_with_the_whole_allow(client: TestClient, path: str) -> None:
    expected = allowed(path)
    assert expected, path
    for method in sorted(set(METHODS) - expected):
        response = client.request(method, path)
        assert response.status_code == 405, (method, path, response.status_code, response.text)
        assert set(response.headers["allow"].split(", ")) == expected, (method, path)
        if method != "HEAD":  # a HEAD answer has no body
            message = error(response, 405, "method_not_allowed")
            assert message == f"{method} is not allowed on {path}; it takes {response.headers['allow']}"


@pytest.mark.parametrize(("path", "root", "matched"), [
    ("/api/v1/problems", "", "/api/v1/problems"),
    ("/judge/api/v1/problems", "/judge", "/api/v1/problems"),  # behind a proxy's prefix
    ("/judge", "/judge", ""),
    ("/judgement/x", "/judge", "/judgement/x"),  # a prefix of a segment is not the root
    ("/elsewhere", "/judge", "/elsewhere"),
])
def test_the_path_is_read_as_the_router_reads_it(path: str, root: str, matched: str) -> None:
    assert route_path({"type": "http", "path": path, "root_path": root}) == matched
