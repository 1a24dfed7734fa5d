"""Numbers and times past what the database and the clock hold are refused by the schema.

The test walks the API's own OpenAPI document, so a route added later is covered without being
named here: every integer in a path, a query or a JSON body gets 2**31 (one past PostgreSQL's
INTEGER, the ids' type), 2**63, 2**64 and -1 (a body's also true and "1"), and every time in a body gets instants whose conversion to UTC leaves the
years 1 to 9999. Each must be a 422 that names the field, in the service's error shape, never a
5xx; floats get NaN, infinities and 1e309, and must not be a 5xx either; so must every text
(a path, a query or a body string) holding a NUL, which PostgreSQL refuses to store. tests/stack runs
the same walk on PostgreSQL, whose INTEGER is narrower than SQLite's.
"""

from __future__ import annotations

import copy
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.unit.service.helpers import error
from tests.utils.service import bearer
from tests.utils.service_fixtures import Tokens

BAD_INTEGERS = [2**31, 2**63, 2**64, -1]  # 2**31: one past PostgreSQL's INTEGER, the ids' columns
BAD_BODY_INTEGERS = [*BAD_INTEGERS, True, "1"]  # a JSON body's id is a JSON integer, not read into one
BAD_FLOATS = ["nan", "inf", "-inf", "1e309"]
# Each is a valid ISO 8601 instant whose UTC form is in year 0 or year 10000.
OVERFLOWING_TIMES = ["0001-01-01T00:00:00+02:04", "9999-12-31T23:59:59-01:00"]
GOOD_TIME = "2031-05-04T09:00:00Z"
PATH_VALUES = {"slug": "secret_lookup", "version": "0" * 12}  # anything else: 1


@dataclass
class Operation:
    method: str
    path: str
    parameters: list[dict[str, Any]]
    body: dict[str, Any] | None = None  # a schema-valid JSON body, when the route takes one
    body_schema: dict[str, Any] = field(default_factory=dict)


def _resolve(doc: dict[str, Any], schema: dict[str, Any]) -> dict[str, Any]:
    while "$ref" in schema:
        schema = doc["components"]["schemas"][schema["$ref"].rsplit("/", 1)[1]]
    return schema


def _choices(schema: dict[str, Any]) -> list[dict[str, Any]]:
    return schema.get("anyOf") or schema.get("oneOf") or [schema]


def _example(doc: dict[str, Any], schema: dict[str, Any]) -> Any:
    """A value the schema accepts (the shape only: no row need exist for it)."""
    schema = _resolve(doc, schema)
    options = [_resolve(doc, s) for s in _choices(schema)]
    chosen = next((s for s in options if s.get("type") != "null"), options[0])
    if "enum" in chosen:
        return chosen["enum"][0]
    kind = chosen.get("type")
    if kind == "object":
        return {name: _example(doc, sub) for name, sub in chosen.get("properties", {}).items()
                if name in chosen.get("required", [])}
    if kind == "array":
        return [_example(doc, chosen.get("items", {})) for _ in range(chosen.get("minItems", 0))]
    if kind == "string":
        return GOOD_TIME if chosen.get("format") == "date-time" else "x" * max(chosen.get("minLength", 1), 1)
    if kind == "integer":
        return max(chosen.get("minimum", 1), 1)
    if kind == "number":
        return chosen.get("minimum", 0)
    if kind == "boolean":
        return False
    return None


def _leaves(doc: dict[str, Any], schema: dict[str, Any], at: tuple[str, ...] = ()
            ) -> Iterator[tuple[tuple[str, ...], str]]:
    """Where the body holds an integer or a time, and which: ("integer" or "date-time")."""
    schema = _resolve(doc, schema)
    for option in (_resolve(doc, s) for s in _choices(schema)):
        if option.get("type") == "integer":
            yield at, "integer"
        elif option.get("format") == "date-time":
            yield at, "date-time"
        for name, sub in option.get("properties", {}).items():
            yield from _leaves(doc, sub, (*at, name))


def _operations(client: TestClient) -> list[Operation]:
    doc: dict[str, Any] = client.get("/openapi.json").json()
    found = []
    for path, methods in doc["paths"].items():
        for method, spec in methods.items():
            operation = Operation(method.upper(), path, spec.get("parameters", []))
            content = spec.get("requestBody", {}).get("content", {})
            if "application/json" in content:
                operation.body_schema = _resolve(doc, content["application/json"]["schema"])
                operation.body = _example(doc, operation.body_schema)
            found.append(operation)
    return found


def _numeric(parameter: dict[str, Any], kind: str) -> bool:
    return any(option.get("type") == kind for option in _choices(parameter["schema"]))


def _send(client: TestClient, token: str, operation: Operation, path: dict[str, Any],
          query: dict[str, Any], body: Any) -> Any:
    url = operation.path
    for parameter in operation.parameters:
        if parameter["in"] == "path":
            name = parameter["name"]
            url = url.replace("{" + name + "}", str(path.get(name, PATH_VALUES.get(name, 1))))
    return client.request(operation.method, url, params=query, headers=bearer(token),
                          json=body if operation.body is not None else None)


def _cases(client: TestClient) -> Iterator[tuple[Operation, str, str, dict[str, Any], dict[str, Any], Any]]:
    """(operation, where, the field's name in the error, path values, query values, body)."""
    doc: dict[str, Any] = client.get("/openapi.json").json()
    for operation in _operations(client):
        for parameter in operation.parameters:
            where, name = parameter["in"], parameter["name"]
            if where not in ("path", "query") or not _numeric(parameter, "integer"):
                continue
            for value in BAD_INTEGERS:
                values = {name: value}
                yield (operation, f"{where}.{name}={value}", f"{where}.{name}",
                       values if where == "path" else {}, values if where == "query" else {}, operation.body)
        for at, kind in _leaves(doc, operation.body_schema):
            for value in BAD_BODY_INTEGERS if kind == "integer" else OVERFLOWING_TIMES:
                body = copy.deepcopy(operation.body)
                target = body
                for key in at[:-1]:
                    target = target.setdefault(key, {})
                target[at[-1]] = value
                yield operation, f"body.{'.'.join(at)}={value}", ".".join(at), {}, {}, body


def test_every_integer_and_time_out_of_range_is_a_422_naming_the_field(client: TestClient, tokens: Tokens) -> None:
    tried, wrong = 0, []
    for operation, what, name, path, query, body in _cases(client):
        tried += 1
        response = _send(client, tokens.admin, operation, path, query, body)
        label = f"{operation.method} {operation.path} {what}"
        if response.status_code != 422:
            wrong.append(f"{label}: {response.status_code} {response.text[:200]}")
            continue
        message = error(response, 422, "invalid_input")
        if not message.startswith(f"{name}:"):
            wrong.append(f"{label}: the message does not name {name}: {message}")
    assert tried > 100, tried  # the walk found the routes (about 30 integer fields, 4 values each)
    assert not wrong, "\n".join(wrong)


def test_no_float_parameter_is_a_5xx(client: TestClient, tokens: Tokens) -> None:
    tried, wrong = 0, []
    for operation in _operations(client):
        for parameter in operation.parameters:
            if parameter["in"] != "query" or not _numeric(parameter, "number"):
                continue
            for value in BAD_FLOATS:
                tried += 1
                response = _send(client, tokens.admin, operation, {}, {parameter["name"]: value}, operation.body)
                if response.status_code >= 500:
                    wrong.append(f"{operation.method} {operation.path} {parameter['name']}={value}: "
                                 f"{response.status_code} {response.text[:200]}")
    assert tried >= 8, tried
    assert not wrong, "\n".join(wrong)


@pytest.mark.parametrize("moment", OVERFLOWING_TIMES)
def test_an_assignment_time_whose_utc_form_overflows_names_its_field(client: TestClient, tokens: Tokens,
                                                                     moment: str) -> None:
    course = client.post("/api/v1/courses", headers=bearer(tokens.instructor), json={"title": "Bounds"}).json()
    body = {"title": "Week", "opens_at": GOOD_TIME, "due_at": moment, "problems": ["secret_lookup"]}
    response = client.post(f"/api/v1/courses/{course['id']}/assignments", headers=bearer(tokens.instructor),
                           json=body)
    message = error(response, 422, "invalid_input")
    assert message.startswith("due_at:") and "1970" in message and "9999" in message, message


def _strings(doc: dict[str, Any], schema: dict[str, Any], at: tuple[str, ...] = ()) -> Iterator[tuple[str, ...]]:
    """Where the body holds a string (not a time or an enum: those are parsed, never stored as sent)."""
    schema = _resolve(doc, schema)
    for option in (_resolve(doc, s) for s in _choices(schema)):
        if option.get("type") == "string" and option.get("format") != "date-time" and "enum" not in option:
            yield at
        for name, sub in option.get("properties", {}).items():
            yield from _strings(doc, sub, (*at, name))


def test_no_text_holding_a_nul_is_a_5xx(client: TestClient, tokens: Tokens) -> None:
    doc: dict[str, Any] = client.get("/openapi.json").json()
    tried, wrong = 0, []
    for operation in _operations(client):
        cases: list[tuple[str, dict[str, Any], dict[str, Any], Any]] = []
        for parameter in operation.parameters:
            if parameter["in"] in ("path", "query") and _numeric(parameter, "string"):
                values = {parameter["name"]: "a%00b" if parameter["in"] == "path" else "a\x00b"}
                cases.append((f"{parameter['in']}.{parameter['name']}", values if parameter["in"] == "path" else {},
                              values if parameter["in"] == "query" else {}, operation.body))
        for at in _strings(doc, operation.body_schema):
            body = copy.deepcopy(operation.body)
            target = body
            for key in at[:-1]:
                target = target.setdefault(key, {})
            target[at[-1]] = "a\x00b"
            cases.append((f"body.{'.'.join(at)}", {}, {}, body))
        for what, path, query, body in cases:
            tried += 1
            response = _send(client, tokens.admin, operation, path, query, body)
            if response.status_code >= 500:
                wrong.append(f"{operation.method} {operation.path} {what}: {response.status_code} "
                             f"{response.text[:200]}")
    assert tried > 40, tried
    assert not wrong, "\n".join(wrong)
