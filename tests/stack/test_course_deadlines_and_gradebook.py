"""Courses, assignments and gradebooks through HTTP on the real stack (PostgreSQL, Redis, a
Celery worker judging in Docker): who may reach which route, late work accepted and refused, an
assignment not yet open, join codes, and the gradebook's CSV row by row."""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any

import pytest
from fastapi.testclient import TestClient

from service.db.models import Role
from tests.utils.courses import (
    API,
    assignment_body,
    csv_rows,
    join,
    new_assignment,
    new_course,
    new_user,
    send,
)
from tests.utils.service import REFERENCE, bearer, wait_done
from tests.utils.service_fixtures import Tokens

WRONG = "def lookup(key):\n    return 'zq-secret-1O1'\n"  # a letter O for a zero: wrong everywhere
ROLES = ["course_instructor", "other_instructor", "course_learner", "other_learner", "admin", "none"]


def unique(prefix: str) -> str:
    return f"{prefix}-{uuid.uuid4().hex[:6]}"


@pytest.fixture(scope="module")
def world(client: TestClient, tokens: Tokens) -> dict[str, Any]:
    """A course taught by `instructor` that `learner` takes, with one open assignment."""
    course = new_course(client, tokens.instructor, "Authorization course")
    assert join(client, tokens.learner, course["join_code"]).status_code == 200
    assignment = new_assignment(client, tokens.instructor, course["id"], ["secret_lookup"])
    return {"course": course, "assignment": assignment}


def headers_of(tokens: Tokens, role: str) -> dict[str, str]:
    token = {"course_instructor": tokens.instructor, "other_instructor": tokens.other_instructor,
             "course_learner": tokens.learner, "other_learner": tokens.other_learner,
             "admin": tokens.admin}.get(role)
    return bearer(token) if token else {}


# route -> the status each role gets, in the order of ROLES.
MATRIX: dict[str, list[int]] = {
    "GET /courses/{course}": [200, 404, 200, 404, 200, 401],
    "POST /courses/{course}/join-code": [200, 404, 403, 403, 200, 401],
    "POST /courses/{course}/assignments": [201, 404, 403, 403, 201, 401],
    "GET /assignments/{assignment}": [200, 404, 200, 404, 200, 401],
    "PUT /assignments/{assignment}": [200, 404, 403, 403, 200, 401],
    "DELETE /assignments/{fresh}": [204, 404, 403, 403, 204, 401],
    "GET /assignments/{assignment}/gradebook": [200, 404, 403, 403, 200, 401],
    "GET /assignments/{assignment}/gradebook.csv": [200, 404, 403, 403, 200, 401],
    "POST /courses": [201, 201, 403, 403, 201, 401],
    "GET /courses": [200, 200, 200, 200, 200, 401],
    "GET /me/assignments": [200, 200, 200, 200, 200, 401],
    "POST /submissions {assignment}": [403, 404, 202, 404, 403, 401],
}
CASES = [(route, role, statuses[ROLES.index(role)]) for route, statuses in MATRIX.items() for role in ROLES]


@pytest.mark.parametrize(("route", "role", "status"), CASES, ids=[f"{r} as {who}" for r, who, _ in CASES])
def test_who_may_reach_each_route(client: TestClient, tokens: Tokens, world: dict[str, Any], route: str,
                                  role: str, status: int) -> None:
    method, template = route.split(" ", 1)
    course_id, assignment_id = world["course"]["id"], world["assignment"]["id"]
    body: Any = None
    if "{fresh}" in template:  # each role deletes one of its own, so an allowed delete leaves the rest
        assignment_id = new_assignment(client, tokens.instructor, course_id, ["secret_lookup"])["id"]
    if template == "/submissions {assignment}":
        template, body = "/submissions", {"problem": "secret_lookup", "code": WRONG, "assignment": assignment_id}
    elif method == "PUT" or (method == "POST" and template.endswith("/assignments")):
        body = assignment_body(["secret_lookup"])
    elif template == "/courses":
        body = {"title": "A course of my own"}
    path = API + template.format(course=course_id, assignment=assignment_id, fresh=assignment_id)
    response = client.request(method, path, headers=headers_of(tokens, role), json=body)
    assert response.status_code == status, response.text
    if status >= 400:
        assert response.json()["error"]["code"] in {401: "unauthorized", 403: "forbidden", 404: "not_found"}[status]
        assert world["course"]["join_code"] not in response.text and "test-learner" not in response.text


def test_what_each_role_is_shown(client: TestClient, tokens: Tokens, world: dict[str, Any]) -> None:
    course_id = world["course"]["id"]
    for role in ("course_instructor", "admin"):
        seen = client.get(f"{API}/courses/{course_id}", headers=headers_of(tokens, role)).json()
        assert seen["join_url"] == f"/join/{seen['join_code']}" and "test-learner" in {m["user"] for m in seen["members"]}
    learner_view = client.get(f"{API}/courses/{course_id}", headers=headers_of(tokens, "course_learner")).json()
    assert learner_view["members"] is None and learner_view["join_code"] is None and learner_view["join_url"] is None
    assert world["assignment"]["id"] in [a["id"] for a in learner_view["assignments"]]
    for role, listed in [("course_learner", True), ("other_learner", False), ("other_instructor", False)]:
        ids = [a["id"] for a in client.get(f"{API}/me/assignments", headers=headers_of(tokens, role)).json()]
        assert (world["assignment"]["id"] in ids) is listed
        courses = [c["id"] for c in client.get(f"{API}/courses", headers=headers_of(tokens, role)).json()]
        assert (course_id in courses) is listed


def test_join_codes(client: TestClient, tokens: Tokens) -> None:
    course = new_course(client, tokens.instructor, "Join codes")
    learner = new_user(unique("joiner"))
    twice = [join(client, learner, course["join_code"]) for _ in range(2)]
    assert [r.status_code for r in twice] == [200, 200] and twice[1].json()["role"] == "learner"
    members = client.get(f"{API}/courses/{course['id']}", headers=bearer(tokens.instructor)).json()["members"]
    assert sorted(m["role"] for m in members) == ["instructor", "learner"]  # one membership, not two
    rotated = client.post(f"{API}/courses/{course['id']}/join-code", headers=bearer(tokens.instructor)).json()
    assert rotated["join_code"] != course["join_code"]
    newcomer = new_user(unique("newcomer"))
    refused = join(client, newcomer, course["join_code"])
    assert refused.status_code == 404 and refused.json()["error"]["code"] == "not_found"
    assert join(client, newcomer, rotated["join_code"]).status_code == 200
    assert join(client, learner, rotated["join_code"]).json()["role"] == "learner"  # still in, once


def judged(client: TestClient, token: str, code: str, assignment: int) -> dict[str, Any]:
    response = send(client, token, code, assignment)
    assert response.status_code == 202, response.text
    return wait_done(client, token, response.json()["id"])


def test_late_work_not_yet_open_and_the_gradebook(client: TestClient) -> None:
    teacher = new_user(unique("teacher"), Role.INSTRUCTOR)
    course = new_course(client, teacher, "Week by week")
    names = {"ann": unique("ann"), "formula": unique("=SUM(A1:A9)"), "idle": unique("idle")}
    tokens = {key: new_user(name) for key, name in names.items()}
    for token in tokens.values():
        assert join(client, token, course["join_code"]).status_code == 200
    ann, formula = tokens["ann"], tokens["formula"]

    upcoming = new_assignment(client, teacher, course["id"], ["secret_lookup"], opens=2, due=3)
    refused = send(client, ann, REFERENCE, upcoming["id"])
    assert refused.status_code == 403 and refused.json()["error"]["code"] == "not_open", refused.text

    week = new_assignment(client, teacher, course["id"], ["secret_lookup"], title="Week 1: lookups")
    assert judged(client, ann, WRONG, week["id"])["verdict"] == "wrong_answer"
    on_time = judged(client, ann, REFERENCE, week["id"])
    assert on_time["verdict"] == "accepted" and on_time["late"] is False and on_time["assignment"] == week["id"]

    # Due now (after ann's submissions, which stay on time), late work accepted: judged and marked late.
    past_due = client.put(f"{API}/assignments/{week['id']}", headers=bearer(teacher),
                          json=assignment_body(["secret_lookup"], opens=-3, due=0, title="Week 1: lookups"))
    assert past_due.status_code == 200 and past_due.json()["state"] == "due"
    late = judged(client, formula, REFERENCE, week["id"])
    assert late["verdict"] == "accepted" and late["late"] is True
    # Past due, late work refused: nothing is stored.
    client.put(f"{API}/assignments/{week['id']}", headers=bearer(teacher),
               json={**assignment_body(["secret_lookup"], opens=-3, policy="refuse", title="Week 1: lookups"),
                     "due_at": past_due.json()["due_at"]})
    refused = send(client, formula, WRONG, week["id"])
    assert refused.status_code == 403 and refused.json()["error"]["code"] == "past_due", refused.text

    mine = client.get(f"{API}/assignments/{week['id']}", headers=bearer(ann)).json()
    assert mine["solved"] == 1 and mine["problems"][0]["progress"]["attempts"] == 2
    book = client.get(f"{API}/assignments/{week['id']}/gradebook", headers=bearer(teacher)).json()
    rows = {row["user"]: row for row in book["rows"]}
    assert list(rows) == sorted(names.values()) and book["problems"] == ["secret_lookup"]
    first = {name: rows[name]["cells"][0]["first_accepted_at"] for name in names.values()}
    # Every time the API answers carries its offset as Z, the submission's as the gradebook's.
    assert first[names["ann"]] == on_time["created_at"] and first[names["formula"]] == late["created_at"]
    assert first[names["ann"]].endswith("Z")
    assert datetime.fromisoformat(first[names["ann"]]) < datetime.fromisoformat(first[names["formula"]])

    exported = client.get(f"{API}/assignments/{week['id']}/gradebook.csv", headers=bearer(teacher))
    assert exported.status_code == 200 and exported.headers["content-type"].startswith("text/csv")
    assert exported.headers["content-disposition"] == (
        f'attachment; filename="gradebook-{week["id"]}-Week-1-lookups.csv"')
    due = book["rows"][0]["due_at"]
    assert csv_rows(exported.text) == [
        ["learner", "problem", "best_score", "accepted", "attempts", "first_accepted_at", "late", "due_at",
         "score_before_penalty", "penalty", "score_set_by_hand", "score_set_by", "score_reason"],
        ["'" + names["formula"], "secret_lookup", "1.0", "true", "1", first[names["formula"]], "true", due,
         "1.0", "0.0", "false", "", ""],
        [names["ann"], "secret_lookup", "1.0", "true", "2", first[names["ann"]], "false", due, "1.0", "0.0",
         "false", "", ""],
        [names["idle"], "secret_lookup", "", "false", "0", "", "false", due, "", "0.0", "false", "", ""],
    ]
