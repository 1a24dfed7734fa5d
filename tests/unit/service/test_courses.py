"""Courses, join codes, assignments, submitting for one, and gradebooks (the unit layer: SQLite,
tasks judged in-process). tests/stack/test_course_deadlines_and_gradebook.py runs the same contract on PostgreSQL."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import Engine, event, select

from service import gradebook
from service.db.models import Role, User
from service.db.session import session_scope
from tests.unit.service.helpers import WRONG, error, publish, ratio_files
from tests.utils.courses import (
    API,
    assignment_body,
    at,
    csv_rows,
    join,
    new_assignment,
    new_course,
    new_user,
    send,
)
from tests.utils.service import REFERENCE, bearer
from tests.utils.service_fixtures import Tokens


def unique(prefix: str) -> str:
    return f"{prefix}-{uuid.uuid4().hex[:6]}"


def zulu(text: str) -> datetime:
    assert text.endswith("Z"), text
    return datetime.fromisoformat(text[:-1] + "+00:00")


@pytest.fixture(scope="module")
def other_problem(client: TestClient, tokens: Tokens) -> str:
    """A second published problem, for one that is not in an assignment."""
    return publish(client, tokens.instructor, "fast_course_ratio", ratio_files("fast_course_ratio"))


def test_an_instructor_makes_a_course_and_learners_join_by_its_code(client: TestClient, tokens: Tokens) -> None:
    error(client.post(f"{API}/courses", headers=bearer(tokens.learner), json={"title": "Mine"}), 403, "forbidden")
    error(client.post(f"{API}/courses", headers=bearer(tokens.instructor), json={"title": "  "}),
          422, "invalid_input")
    course = new_course(client, tokens.instructor, "  Metrics 101  ")
    assert course["title"] == "Metrics 101" and course["role"] == "instructor"
    assert course["join_url"] == f"/join/{course['join_code']}" and len(course["join_code"]) >= 16
    assert [(m["user"], m["role"]) for m in course["members"]] == [("test-instructor", "instructor")]
    assert abs(zulu(course["created_at"]) - datetime.now(UTC)) < timedelta(minutes=1)

    learner = new_user(unique("joiner"))
    first, again = join(client, learner, course["join_code"]), join(client, learner, course["join_code"])
    assert first.status_code == again.status_code == 200, (first.text, again.text)
    seen = again.json()
    assert seen["role"] == "learner" and seen["members"] is None and seen["join_code"] is None
    teacher_view = client.get(f"{API}/courses/{course['id']}", headers=bearer(tokens.instructor)).json()
    assert [m["role"] for m in teacher_view["members"]] == ["instructor", "learner"]  # joined once
    listed = client.get(f"{API}/courses", headers=bearer(learner)).json()
    assert listed == [{"id": course["id"], "title": "Metrics 101", "role": "learner", "join_url": None}]
    mine = client.get(f"{API}/courses", headers=bearer(tokens.instructor)).json()
    assert {"id": course["id"], "title": "Metrics 101", "role": "instructor",
            "join_url": course["join_url"]} in mine

    # A new code: the old link stops working, the new one works, and members stay.
    error(client.post(f"{API}/courses/{course['id']}/join-code", headers=bearer(learner)), 403, "forbidden")
    rotated = client.post(f"{API}/courses/{course['id']}/join-code", headers=bearer(tokens.instructor))
    assert rotated.status_code == 200 and rotated.json()["join_code"] != course["join_code"]
    late_comer = new_user(unique("late-comer"))
    assert "join code" in error(join(client, late_comer, course["join_code"]), 404, "not_found")
    assert join(client, late_comer, rotated.json()["join_code"]).status_code == 200
    assert len(client.get(f"{API}/courses/{course['id']}", headers=bearer(tokens.admin)).json()["members"]) == 3
    error(join(client, late_comer, "x" * 500), 422, "invalid_input")


def test_a_join_link_names_its_course_to_anyone(client: TestClient, tokens: Tokens) -> None:
    course = new_course(client, tokens.instructor, "Named by its link")
    seen = client.get(f"{API}/courses/join/{course['join_code']}")  # no credentials: before signing up
    assert seen.status_code == 200 and seen.json() == {"id": course["id"], "title": "Named by its link"}
    assert "join code" in error(client.get(f"{API}/courses/join/not-a-code"), 404, "not_found")
    error(client.get(f"{API}/courses/join/{'x' * 201}"), 422, "invalid_input")
    rotated = client.post(f"{API}/courses/{course['id']}/join-code", headers=bearer(tokens.instructor)).json()
    error(client.get(f"{API}/courses/join/{course['join_code']}"), 404, "not_found")
    assert client.get(f"{API}/courses/join/{rotated['join_code']}").json()["title"] == "Named by its link"


def test_assignment_times_are_utc_and_checked(client: TestClient, tokens: Tokens, other_problem: str) -> None:
    course = new_course(client, tokens.instructor)
    path = f"{API}/courses/{course['id']}/assignments"
    naive = {**assignment_body(["secret_lookup"]), "opens_at": "2030-01-01T09:00:00"}
    assert error(client.post(path, headers=bearer(tokens.instructor), json=naive), 422).startswith("opens_at")
    backwards = assignment_body(["secret_lookup"], opens=5, due=4)
    message = error(client.post(path, headers=bearer(tokens.instructor), json=backwards), 422, "invalid_input")
    assert message.startswith("due_at: must be after opens_at"), message
    for problems, where in [(["no_such_problem"], "problems[0]"), (["secret_lookup", "secret_lookup"], "problems[1]"),
                            ([], "problems")]:
        body = assignment_body(problems)
        assert error(client.post(path, headers=bearer(tokens.instructor), json=body), 422).startswith(where)
    bad_policy = {**assignment_body(["secret_lookup"]), "late_policy": "sometimes"}
    assert error(client.post(path, headers=bearer(tokens.instructor), json=bad_policy), 422).startswith("late_policy")

    body = {**assignment_body(["secret_lookup", other_problem]), "opens_at": "2030-01-01T09:00:00+02:00",
            "due_at": "2030-01-08T09:00:00-05:00"}
    created = client.post(path, headers=bearer(tokens.instructor), json=body)
    assert created.status_code == 201, created.text
    made = created.json()
    assert made["opens_at"] == "2030-01-01T07:00:00Z" and made["due_at"] == "2030-01-08T14:00:00Z"
    assert made["state"] == "upcoming" and made["late_policy"] == "accept"
    assert [p["slug"] for p in made["problems"]] == ["secret_lookup", other_problem]
    assert made["problems"][0]["title"] == "Fixture: look a key up" and made["problems"][0]["progress"] is None

    # PUT replaces everything, problems reordered and dropped included.
    changed = client.put(f"{API}/assignments/{made['id']}", headers=bearer(tokens.instructor),
                         json=assignment_body([other_problem, "secret_lookup"], opens=-2, due=-1, policy="refuse",
                                              title="Week 1 (again)"))
    assert changed.status_code == 200, changed.text
    assert changed.json()["state"] == "due" and changed.json()["title"] == "Week 1 (again)"
    assert [p["slug"] for p in changed.json()["problems"]] == [other_problem, "secret_lookup"]
    again = client.put(f"{API}/assignments/{made['id']}", headers=bearer(tokens.instructor),
                       json=assignment_body(["secret_lookup"]))
    assert [p["slug"] for p in again.json()["problems"]] == ["secret_lookup"] and again.json()["state"] == "open"
    backwards_put = client.put(f"{API}/assignments/{made['id']}", headers=bearer(tokens.instructor), json=backwards)
    assert error(backwards_put, 422).startswith("due_at")

    deleted = client.delete(f"{API}/assignments/{made['id']}", headers=bearer(tokens.instructor))
    assert deleted.status_code == 204
    error(client.get(f"{API}/assignments/{made['id']}", headers=bearer(tokens.instructor)), 404, "not_found")
    assert error(client.get(f"{API}/assignments/{2**70}", headers=bearer(tokens.admin)), 422,
                 "invalid_input").startswith("path.assignment_id:")


def test_submitting_for_an_assignment(client: TestClient, tokens: Tokens, other_problem: str) -> None:
    course = new_course(client, tokens.instructor)
    learner, outsider = new_user(unique("learner")), new_user(unique("outsider"))
    assert join(client, learner, course["join_code"]).status_code == 200
    upcoming = new_assignment(client, tokens.instructor, course["id"], ["secret_lookup"], opens=1, due=2)
    open_one = new_assignment(client, tokens.instructor, course["id"], ["secret_lookup"])
    accepts_late = new_assignment(client, tokens.instructor, course["id"], ["secret_lookup"], opens=-3, due=-1)
    refuses_late = new_assignment(client, tokens.instructor, course["id"], ["secret_lookup"], opens=-3, due=-1,
                                  policy="refuse")

    assert "opens at" in error(send(client, learner, REFERENCE, upcoming["id"]), 403, "not_open")
    assert "no late" in error(send(client, learner, REFERENCE, refuses_late["id"]), 403, "past_due")
    on_time = send(client, learner, REFERENCE, open_one["id"])
    assert on_time.status_code == 202 and on_time.json()["assignment"] == open_one["id"]
    assert on_time.json()["late"] is False
    late = send(client, learner, REFERENCE, accepts_late["id"])
    assert late.status_code == 202 and late.json()["late"] is True
    # Runs never count, so they are taken whenever; a late one says so.
    run = send(client, learner, REFERENCE, refuses_late["id"], mode="run")
    assert run.status_code == 202 and run.json()["late"] is True
    # Naming no assignment, it counts for the one that takes it on time (service.assignment_credit).
    plain = send(client, learner, REFERENCE, None)
    assert plain.json()["assignment"] == open_one["id"] and plain.json()["late"] is False
    listed = client.get(f"{API}/submissions?problem=secret_lookup", headers=bearer(learner)).json()["items"]
    assert {(s["assignment"], s["late"]) for s in listed} >= {(open_one["id"], False), (accepts_late["id"], True)}

    error(send(client, outsider, REFERENCE, open_one["id"]), 404, "not_found")
    error(send(client, tokens.instructor, REFERENCE, open_one["id"]), 403, "forbidden")
    error(send(client, tokens.admin, REFERENCE, open_one["id"]), 403, "forbidden")
    assert error(send(client, learner, REFERENCE, 2**70), 422, "invalid_input").startswith("assignment:")
    wrong_problem = send(client, learner, "def ratio(hits, total):\n    return 0.0\n", open_one["id"],
                         problem=other_problem)
    assert error(wrong_problem, 422, "invalid_input").startswith("assignment:")

    # The Idempotency-Key's request includes the assignment.
    first = send(client, learner, REFERENCE, open_one["id"], **{"Idempotency-Key": "course-key"})
    replay = send(client, learner, REFERENCE, open_one["id"], **{"Idempotency-Key": "course-key"})
    assert first.status_code == replay.status_code == 202 and first.json()["id"] == replay.json()["id"]
    error(send(client, learner, REFERENCE, accepts_late["id"], **{"Idempotency-Key": "course-key"}), 409, "conflict")
    error(send(client, learner, REFERENCE, None, **{"Idempotency-Key": "course-key"}), 409, "conflict")

    # Deleting an assignment keeps its submissions, sent for no assignment any more.
    assert client.delete(f"{API}/assignments/{open_one['id']}", headers=bearer(tokens.instructor)).status_code == 204
    kept = client.get(f"{API}/submissions/{on_time.json()['id']}", headers=bearer(learner))
    assert kept.status_code == 200 and kept.json()["assignment"] is None


def test_the_learners_views_and_the_gradebook(client: TestClient, tokens: Tokens, other_problem: str) -> None:
    instructor = new_user(unique("teacher"), Role.INSTRUCTOR)
    course = new_course(client, instructor, "Gradebook course")
    names = {"ann": unique("ann"), "formula": unique("=HYPERLINK(x)"), "idle": unique("zed-idle")}
    learners = {key: new_user(name) for key, name in names.items()}
    for token in learners.values():
        assert join(client, token, course["join_code"]).status_code == 200
    week = new_assignment(client, instructor, course["id"], ["secret_lookup", other_problem])
    later = new_assignment(client, instructor, course["id"], [other_problem], opens=48, due=72)

    ann, formula = learners["ann"], learners["formula"]
    assert send(client, ann, WRONG, week["id"]).status_code == 202
    accepted = send(client, ann, REFERENCE, week["id"]).json()
    send(client, ann, REFERENCE, week["id"], mode="run")  # never counted
    send(client, ann, "def ratio(hits, total):\n    return 0.0\n", None, problem=other_problem, mode="run")
    # Due now, after ann's submissions and before the formula learner's, which are late.
    moved = client.put(f"{API}/assignments/{week['id']}", headers=bearer(instructor),
                       json=assignment_body(["secret_lookup", other_problem], opens=-2, due=0))
    assert moved.status_code == 200
    assert send(client, formula, REFERENCE, week["id"]).json()["late"] is True
    assert send(client, formula, "def ratio(hits, total):\n    return 0.0\n", week["id"],
                problem=other_problem).json()["late"] is True

    mine = client.get(f"{API}/assignments/{week['id']}", headers=bearer(ann)).json()
    assert mine["role"] == "learner" and mine["state"] == "due" and mine["solved"] == 1
    progress = {p["slug"]: p["progress"] for p in mine["problems"]}
    assert progress["secret_lookup"] | {"first_accepted_at": None} == {
        "problem": "secret_lookup", "best_score": 1.0, "accepted": True, "attempts": 2,
        "first_accepted_at": None, "late": False, "submission": accepted["id"],
        "score_before_penalty": 1.0, "penalty": 0.0, "score_set_by_hand": False, "score_set_by": None,
        "score_reason": None, "open_regrade_requests": 0}
    assert progress[other_problem]["attempts"] == 0 and progress[other_problem]["best_score"] is None
    listing = client.get(f"{API}/me/assignments", headers=bearer(ann)).json()
    assert [(a["id"], a["state"], a["solved"]) for a in listing] == [(week["id"], "due", 1), (later["id"], "upcoming", 0)]
    teacher_view = client.get(f"{API}/assignments/{week['id']}", headers=bearer(instructor)).json()
    assert teacher_view["role"] == "instructor" and teacher_view["solved"] is None
    assert all(p["progress"] is None for p in teacher_view["problems"])

    book = client.get(f"{API}/assignments/{week['id']}/gradebook", headers=bearer(instructor))
    assert book.status_code == 200, book.text
    body = book.json()
    assert body["problems"] == ["secret_lookup", other_problem] and body["assignment"]["id"] == week["id"]
    assert [row["user"] for row in body["rows"]] == sorted(names.values())
    rows = {row["user"]: row for row in body["rows"]}
    ann_cells = rows[names["ann"]]["cells"]
    assert ann_cells[0]["first_accepted_at"] is not None
    assert zulu(ann_cells[0]["first_accepted_at"]) == zulu(accepted["created_at"])
    assert rows[names["ann"]]["total_score"] == 1.0 and rows[names["formula"]]["total_score"] == 1.0
    assert rows[names["idle"]]["cells"] == [
        {"problem": slug, "best_score": None, "accepted": False, "attempts": 0, "first_accepted_at": None,
         "late": False, "submission": None, "score_before_penalty": None, "penalty": 0.0,
         "score_set_by_hand": False, "score_set_by": None, "score_reason": None, "open_regrade_requests": 0}
        for slug in ("secret_lookup", other_problem)]
    assert body["max_total"] == 2.0 and rows[names["idle"]]["extension"] is None
    assert {zulu(row["due_at"]) for row in body["rows"]} == {zulu(moved.json()["due_at"])}

    exported = client.get(f"{API}/assignments/{week['id']}/gradebook.csv", headers=bearer(instructor))
    assert exported.status_code == 200 and exported.headers["content-type"] == "text/csv; charset=utf-8"
    assert exported.headers["content-disposition"] == f'attachment; filename="gradebook-{week["id"]}-Week-1.csv"'
    assert exported.text.endswith("\r\n") and "\r\n" in exported.text.rstrip("\r\n")
    first = {name: rows[name]["cells"][0]["first_accepted_at"] for name in names.values()}
    due = rows[names["ann"]]["due_at"]
    assert csv_rows(exported.text) == [
        ["learner", "problem", "best_score", "accepted", "attempts", "first_accepted_at", "late", "due_at",
         "score_before_penalty", "penalty", "score_set_by_hand", "score_set_by", "score_reason"],
        ["'" + names["formula"], "secret_lookup", "1.0", "true", "1", first[names["formula"]], "true", due,
         "1.0", "0.0", "false", "", ""],
        ["'" + names["formula"], other_problem, "0.0", "false", "1", "", "true", due, "0.0", "0.0", "false", "", ""],
        [names["ann"], "secret_lookup", "1.0", "true", "2", first[names["ann"]], "false", due, "1.0", "0.0", "false", "", ""],
        [names["ann"], other_problem, "", "false", "0", "", "false", due, "", "0.0", "false", "", ""],
        [names["idle"], "secret_lookup", "", "false", "0", "", "false", due, "", "0.0", "false", "", ""],
        [names["idle"], other_problem, "", "false", "0", "", "false", due, "", "0.0", "false", "", ""],
    ]


@contextmanager
def counted_statements(engine: Engine) -> Iterator[list[str]]:
    statements: list[str] = []

    def count(*args: Any) -> None:
        statements.append(str(args[2]))

    event.listen(engine, "before_cursor_execute", count)
    try:
        yield statements
    finally:
        event.remove(engine, "before_cursor_execute", count)


def test_a_gradebook_is_one_query_whatever_its_size(client: TestClient, tokens: Tokens) -> None:
    course = new_course(client, tokens.instructor)
    week = new_assignment(client, tokens.instructor, course["id"], ["secret_lookup"])

    def statements_for_gradebook() -> list[str]:
        with session_scope() as session:
            user = session.scalar(select(User).where(User.name == "test-instructor"))
            assert user is not None
            with counted_statements(session.get_bind().engine) as statements:
                gradebook.gradebook(session, user, week["id"])
        return statements

    few = statements_for_gradebook()
    for _ in range(4):
        learner = new_user(unique("many"))
        join(client, learner, course["join_code"])
        send(client, learner, REFERENCE, week["id"])
        send(client, learner, WRONG, week["id"])
    many = statements_for_gradebook()
    assert len(many) == len(few), many
    assert sum("GROUP BY" in s for s in many) == 1


ROUTES = [
    ("POST", f"{API}/courses", {"title": "x"}), ("GET", f"{API}/courses", None),
    ("GET", f"{API}/courses/1", None), ("POST", f"{API}/courses/1/join-code", None),
    ("POST", f"{API}/courses/join", {"code": "abc"}),
    ("POST", f"{API}/courses/1/assignments", assignment_body(["secret_lookup"])),
    ("GET", f"{API}/assignments/1", None), ("PUT", f"{API}/assignments/1", assignment_body(["secret_lookup"])),
    ("DELETE", f"{API}/assignments/1", None), ("GET", f"{API}/me/assignments", None),
    ("GET", f"{API}/assignments/1/gradebook", None), ("GET", f"{API}/assignments/1/gradebook.csv", None),
]


@pytest.mark.parametrize(("method", "path", "body"), ROUTES, ids=[f"{m} {p}" for m, p, _ in ROUTES])
def test_every_course_route_needs_a_token(client: TestClient, method: str, path: str, body: object) -> None:
    error(client.request(method, path, json=body), 401, "unauthorized")
    error(client.request(method, path, json=body, headers=bearer("jt_not-a-token")), 401, "unauthorized")


def test_times_are_answered_in_utc(client: TestClient, tokens: Tokens) -> None:
    course = new_course(client, tokens.instructor)
    made = new_assignment(client, tokens.instructor, course["id"], ["secret_lookup"], opens=-1, due=1)
    assert abs(zulu(made["due_at"]) - datetime.fromisoformat(at(1))) < timedelta(seconds=5)
