"""The OpenAPI document as a client developer reads it: chosen operationIds, and the one error
model (``api.schemas.common.ErrorBody``) on every status each route can answer.

FastAPI builds the document from the routes; ``install`` wraps ``app.openapi`` so that, once
built, each operation gets

- its operationId from ``OPERATION_IDS`` (``<subject>_<verb>``: stable, since clients generate
  method names from them; a route missing from the table gets ``<module>_<function>``);
- the error responses ``error_statuses`` derives from what the route depends on (a caller: 401;
  a role, or a change made with the session cookie: 403; a path parameter: 404; a body: 413;
  any parameter: 422; the database: 503; always 500), plus ``EXTRA_STATUSES``: the refusals a
  route's service raises (409, 429, ...), each answered as ``ErrorBody``;
- 422 as ``ErrorBody`` too: FastAPI's own HTTPValidationError and ValidationError components
  describe a body this API never answers (``api.errors`` turns every validation error into
  ``ErrorBody``), so they are dropped.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from fastapi import FastAPI
from fastapi.dependencies.models import Dependant
from fastapi.routing import APIRoute, iter_route_contexts

from api import deps
from api.schemas.common import ErrorBody

Operation = dict[str, Any]
REF = "#/components/schemas/"

# (module of api.routes, function) -> operationId. Documented in docs/using-the-api.md.
OPERATION_IDS: dict[tuple[str, str], str] = {
    ("submissions", "submit"): "submissions_create",
    ("submissions", "read"): "submissions_get",
    ("submissions", "events"): "submissions_events",
    ("submissions", "list_submissions"): "submissions_list",
    ("submission_batches", "submit_batch"): "submissions_batch_create",
    ("deliveries", "deliveries"): "submissions_deliveries_list",
    ("problems", "list_problems"): "problems_list",
    ("problems", "read_problem"): "problems_get",
    ("problems", "create_problem"): "problems_create",
    ("problems", "update_problem"): "problems_update",
    ("problems", "change_problem"): "problems_settings_set",
    ("problems", "copy_problem"): "problems_copy",
    ("problems", "publish"): "problems_publish",
    ("problems", "rejudge"): "problems_rejudge",
    ("problems", "rejudge_progress"): "problems_rejudge_progress",
    ("problems", "preview"): "problems_preview",
    ("problems", "stats"): "problems_stats",
    ("tracks", "list_tracks"): "tracks_list",
    ("tracks", "read_track"): "tracks_get",
    ("problems", "read_hints"): "hints_list",
    ("problems", "reveal_hint"): "hints_reveal",
    ("problems", "hint_reveals"): "hints_reveals_list",
    ("problems", "read_editorial"): "editorial_get",
    ("problems", "list_versions"): "versions_list",
    ("problems", "read_version"): "versions_get",
    ("problems", "version_files"): "versions_files_get",
    ("insight", "problem_insight"): "insight_get",
    ("insight", "scores_chart"): "insight_scores_svg",
    ("insight", "failing_chart"): "insight_failing_svg",
    ("insight", "similar_solutions"): "similarity_list",
    ("similarity", "side_by_side"): "similarity_compare",
    ("me", "me"): "me_get",
    ("me", "change_password"): "me_password_set",
    ("me", "list_tokens"): "tokens_list",
    ("me", "create_token"): "tokens_create",
    ("me", "revoke_token"): "tokens_revoke",
    ("me", "my_assignments"): "me_assignments_list",
    ("me", "my_invitations"): "me_invitations_list",
    ("me", "accept_invitation"): "me_invitations_accept",
    ("me", "decline_invitation"): "me_invitations_decline",
    ("me", "webhook_secret"): "me_webhook_secret_get",
    ("me", "rotate_webhook_secret"): "me_webhook_secret_rotate",
    ("accounts", "sign_in"): "auth_sign_in",
    ("accounts", "register"): "auth_register",
    ("accounts", "sign_out"): "auth_sign_out",
    ("accounts", "read_session"): "auth_session_get",
    ("users", "list_users"): "users_list",
    ("users", "create_user"): "users_create",
    ("users", "change_role"): "users_role_set",
    ("courses", "create_course"): "courses_create",
    ("courses", "my_courses"): "courses_list",
    ("courses", "join"): "courses_join",
    ("courses", "read_course"): "courses_get",
    ("courses", "rotate_join_code"): "courses_join_code_rotate",
    ("courses", "add_member"): "courses_members_add",
    ("courses", "remove_member"): "courses_members_remove",
    ("courses", "withdraw_invitation"): "courses_invitations_withdraw",
    ("courses", "create_assignment"): "assignments_create",
    ("assignments", "read_assignment"): "assignments_get",
    ("assignments", "update_assignment"): "assignments_update",
    ("assignments", "delete_assignment"): "assignments_delete",
    ("assignments", "read_gradebook"): "gradebooks_get",
    ("assignments", "gradebook_csv"): "gradebooks_csv",
    ("health", "healthz"): "health_live",
    ("health", "readyz"): "health_ready",
    ("metrics", "metrics"): "metrics_get",
}

# Refusals a route's service raises that its signature does not show: operationId -> statuses.
EXTRA_STATUSES: dict[str, set[int]] = {
    # not_open or past_due; no such problem; an Idempotency-Key used again; the quotas
    "submissions_create": {403, 404, 409, 429},
    "submissions_get": {429},  # the wait quota
    "submissions_events": {429},
    "submissions_deliveries_list": {403},  # the problem's owner reads it, not its webhooks
    "problems_create": {403, 409, 429},  # a shipped problem's slug; drafts waiting for validation
    "problems_update": {409, 429},
    "problems_copy": {409, 429},
    "problems_settings_set": {409},  # a shipped problem is always shareable
    "problems_publish": {409},  # the version did not pass validation
    "problems_rejudge": {409},  # no published version
    "hints_reveal": {409},  # no_more_hints
    "editorial_get": {403},  # not_solved
    "insight_get": {404},
    "insight_scores_svg": {404},
    "insight_failing_svg": {404},
    "similarity_list": {404},
    # bad_credentials; too_many_attempts, busy; their sessions are their own: the database's 503
    "auth_sign_in": {401, 429, 503},
    "auth_register": {404, 409, 429, 503},  # no course with the code; the name taken; busy
    "auth_sign_out": {403},  # csrf
    "me_password_set": {429},
    "users_create": {409, 429},
    "users_role_set": {409},  # last_admin
    "courses_join": {404},
    "courses_members_add": {404, 409},  # no such user; too_many_invitations
    "courses_members_remove": {409},  # last_instructor
    "assignments_create": {404},  # a problem that is not published
    "assignments_update": {404},
    "metrics_get": {503},  # it reads the database and the broker
}

DESCRIPTIONS = {
    401: "no valid API token or session (unauthorized)",
    403: "not allowed: the role or the membership it takes is missing, or a change made with the "
         "session cookie lacks X-CSRF-Token (forbidden, csrf, ...)",
    404: "no such resource, or not one you may see (not_found)",
    409: "the request conflicts with the resource's state (conflict, ...)",
    413: "the body is larger than the server takes (too_large)",
    422: "a parameter or the body is invalid: `param` names the field (invalid_input)",
    429: "a limit is reached: try again after Retry-After seconds (quota_exceeded, ...)",
    500: "the server failed; the request id finds it in the log (internal)",
    503: "a dependency (the database, the queue) is unavailable: try again shortly (unavailable)",
}
RETRY_AFTER = {"Retry-After": {"description": "seconds to wait before trying again",
                               "schema": {"type": "integer"}}}


# One event of GET /submissions/{id}/events, as an event-stream's media type describes each
# event: `status` while the submission is not done (its id, status, verdict and score), `done`
# with the whole submission; the data is JSON.
SSE_EVENT: dict[str, Any] = {
    "type": "object",
    "required": ["data"],
    "properties": {
        "event": {"type": "string", "enum": ["status", "done"]},
        "id": {"type": "string", "description": "larger for every later state; send it back as "
                                                 "Last-Event-ID"},
        "retry": {"type": "integer", "description": "milliseconds to wait before reconnecting"},
        "data": {"type": "string", "contentMediaType": "application/json", "contentSchema": {"anyOf": [
            {"$ref": REF + "SubmissionOut"},
            {"type": "object", "required": ["id", "status", "verdict", "score"], "properties": {
                "id": {"type": "integer"},
                "status": {"$ref": REF + "SubmissionStatus"},
                "verdict": {"anyOf": [{"$ref": REF + "Verdict"}, {"type": "null"}]},
                "score": {"anyOf": [{"type": "number"}, {"type": "null"}]}}}]}},
    },
}


def _calls(dependant: Dependant) -> Iterator[Callable[..., Any]]:
    for sub in dependant.dependencies:
        if sub.call is not None:
            yield sub.call
        yield from _calls(sub)


def operation_id(module: str, function: str) -> str:
    return OPERATION_IDS.get((module, function), f"{module}_{function}")


def error_statuses(route: Any, method: str, operation: Operation, op_id: str) -> set[int]:
    """Every error status the route can answer, as far as its signature and its service show."""
    calls = set(_calls(route.dependant))
    statuses = {500}
    caller = deps.current_caller in calls
    if caller:
        statuses |= {401, 503}
        if method not in deps.SAFE_METHODS:
            statuses.add(403)  # a cookie session's CSRF token
    if deps.instructor in calls or deps.admin in calls:
        statuses.add(403)
    if deps.get_session in calls:
        statuses.add(503)
    parameters = operation.get("parameters", [])
    if any(p.get("in") == "path" for p in parameters):
        statuses.add(404)
    if "requestBody" in operation:
        statuses |= {413, 422}
    if parameters:
        statuses.add(422)
    return statuses | EXTRA_STATUSES.get(op_id, set())


def _error_response(description: str, status: int) -> dict[str, Any]:
    response: dict[str, Any] = {"description": description,
                                "content": {"application/json": {"schema": {"$ref": REF + "ErrorBody"}}}}
    if status in (429, 503):
        response["headers"] = RETRY_AFTER
    return response


def example_of(node: dict[str, Any], definitions: dict[str, Any], depth: int = 0) -> Any:
    """A value that conforms to the JSON schema ``node``: the schema's own example where it has
    one, else one made from its types and bounds (the first enum value, the minimum, ...)."""
    if "$ref" in node:
        name = node["$ref"].removeprefix(REF)
        return example_of(definitions[name], definitions, depth + 1)
    if node.get("examples"):
        return node["examples"][0]
    if "example" in node:
        return node["example"]
    if "const" in node:
        return node["const"]
    if node.get("enum"):
        return node["enum"][0]
    for key in ("anyOf", "oneOf"):
        if key in node:  # the first choice that is not null, so the example shows the shape
            choices = [c for c in node[key] if c.get("type") != "null"] or node[key]
            return example_of(choices[0], definitions, depth + 1)
    if "allOf" in node:
        return example_of(node["allOf"][0], definitions, depth + 1)
    kind = node.get("type")
    if kind == "object" or "properties" in node:
        required = set(node.get("required", []))
        # Deep in a recursive shape, only what is required.
        return {name: example_of(sub, definitions, depth + 1)
                for name, sub in node.get("properties", {}).items() if depth < 6 or name in required}
    if kind == "array":
        items = node.get("prefixItems")
        if items:
            return [example_of(i, definitions, depth + 1) for i in items]
        if depth >= 6 and not node.get("minItems"):
            return []
        return [example_of(node.get("items", {}), definitions, depth + 1)] * max(1, node.get("minItems", 1))
    if kind == "string":
        if node.get("format") == "date-time":
            return "2026-03-01T09:00:00Z"
        if node.get("format") == "uri":
            return "https://hooks.example.org/judge"
        return "x" * max(node.get("minLength", 0), 1) if node.get("minLength", 1) else ""
    if kind == "integer":
        return max(node.get("minimum", 1), 0)
    if kind == "number":
        return min(max(node.get("minimum", 0.5), 0.0), node.get("maximum", 1.0))
    if kind == "boolean":
        return True
    if kind == "null":
        return None
    return None


def _examples(schema: dict[str, Any]) -> None:
    """An example on every JSON body, request or response, that has none of its own."""
    definitions = schema["components"]["schemas"]
    for item in schema["paths"].values():
        for operation in item.values():
            bodies = [operation.get("requestBody", {}), *operation.get("responses", {}).values()]
            for body in bodies:
                content = body.get("content", {}).get("application/json")
                if content and content.get("schema") and "example" not in content \
                        and "examples" not in content:
                    content["example"] = example_of(content["schema"], definitions)


def refine(schema: dict[str, Any], app: FastAPI) -> None:
    """Give ``schema`` (the document FastAPI built for ``app``) its operationIds and error responses."""
    for context in iter_route_contexts(app.routes):
        route = context.original_route
        if not isinstance(route, APIRoute) or not context.include_in_schema:
            continue
        endpoint = context.endpoint
        if endpoint is None:
            continue
        module = endpoint.__module__.rsplit(".", 1)[-1]
        for method in sorted(context.methods or ()):
            operation = schema["paths"][context.path_format].get(method.lower())
            if operation is None:
                continue
            op_id = operation_id(module, endpoint.__name__)
            operation["operationId"] = op_id
            responses = operation.setdefault("responses", {})
            for answer in responses.values():  # a CSV, an SVG, the Prometheus format: text
                for media, content in answer.get("content", {}).items():
                    if media == "text/event-stream" and not content.get("schema"):
                        content["schema"] = SSE_EVENT  # the schema of each event of the stream
                    elif media != "application/json" and not content.get("schema"):
                        content["schema"] = {"type": "string"}
            # What the route declares itself (a 409, say) is answered as ErrorBody too, unless it
            # names a body of its own (/readyz's 503).
            declared_errors = {int(s) for s, r in responses.items()
                               if s.isdigit() and int(s) >= 400 and "content" not in r}
            for status in sorted(error_statuses(context, method, operation, op_id) | declared_errors):
                declared = responses.get(str(status), {})
                # The route's own words where it has them; FastAPI's "Validation Error" is not.
                description = declared.get("description")
                if not description or description == "Validation Error":
                    description = DESCRIPTIONS.get(status, "an error (see ErrorBody.error.code)")
                answer = _error_response(description, status)
                answer["headers"] = {**answer.get("headers", {}), **declared.get("headers", {})}
                if not answer["headers"]:
                    del answer["headers"]
                responses[str(status)] = answer
            operation["responses"] = dict(sorted(responses.items()))
    definitions = schema.setdefault("components", {}).setdefault("schemas", {})
    for name in ("HTTPValidationError", "ValidationError"):
        definitions.pop(name, None)
    error = ErrorBody.model_json_schema(ref_template=REF + "{model}", mode="serialization")
    definitions.update(error.pop("$defs", {}))
    definitions["ErrorBody"] = error
    schema["components"]["schemas"] = dict(sorted(definitions.items()))
    _examples(schema)


def install(app: FastAPI) -> None:
    """Serve the refined document at /openapi.json (built once per set of routes, as FastAPI's)."""
    build = app.openapi
    refined: list[int] = []  # the id of the document last refined: FastAPI hands it back cached

    def openapi() -> dict[str, Any]:
        schema = build()
        if not refined or refined[0] != id(schema):
            refine(schema, app)
            refined[:] = [id(schema)]
        return schema

    app.openapi = openapi  # type: ignore[method-assign]
