"""Held grades over HTTP: while an assignment holds its grades, its learner sees judged work and
nothing of its result on any route (the submission, its summary, listings and their filters,
the problem list, the assignment, comments, score trail, regrade requests, the editorial, the
webhook body); its instructors see everything; releasing shows it all and tells the learners."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from service.db.models import Submission
from service.db.session import session_scope
from service.webhooks.outbox import submission_summary
from tests.unit.service.helpers import RATIO, SUBMISSIONS, error, publish, ratio_files, read
from tests.unit.service.test_assignment_credit import Class, unique
from tests.utils.courses import API, new_assignment, new_user
from tests.utils.service import bearer
from tests.utils.service_fixtures import Tokens

SLUG = "held_editorial_ratio"


@pytest.fixture(scope="module")
def problem(client: TestClient, tokens: Tokens) -> str:
    return publish(client, tokens.instructor, SLUG, ratio_files(SLUG))


@pytest.fixture
def room(client: TestClient) -> Class:
    return Class(client)


def held_week(room: Class, problem: str) -> dict[str, Any]:
    return new_assignment(room.client, room.teacher, room.course["id"], [problem], held=True)


def hand_in(room: Class, problem: str, learner: str = "ann") -> dict[str, Any]:
    response = room.client.post(SUBMISSIONS, headers=bearer(room.tokens[learner]),
                                json={"problem": problem, "code": RATIO, "mode": "submit"})
    assert response.status_code == 202, response.text
    made: dict[str, Any] = response.json()
    return made


def get(room: Class, path: str, token: str, **params: Any) -> Any:
    response = room.client.get(f"{API}{path}", headers=bearer(token), params=params)
    assert response.status_code == 200, response.text
    return response.json()


def notifications(room: Class, learner: str = "ann") -> list[dict[str, Any]]:
    items: list[dict[str, Any]] = get(room, "/me/notifications", room.tokens[learner])["items"]
    return items


def test_a_held_result_is_nowhere_for_its_learner_and_everywhere_for_the_course(
        room: Class, problem: str) -> None:
    week = held_week(room, problem)
    assert week["grades_held"] is True and week["released_at"] is None
    sent = hand_in(room, problem)
    ann, teacher = room.tokens["ann"], room.teacher
    assert sent["assignment"] == week["id"]

    mine = read(room.client, ann, sent["id"]).json()
    assert (mine["status"], mine["held"], mine["verdict"], mine["score"]) == ("done", True, None, None)
    assert (mine["tests"], mine["hidden"], mine["message"]) == ([], None, None)
    assert mine["code"] == RATIO  # their own code stays theirs to read
    brief = read(room.client, ann, sent["id"], view="summary").json()
    assert (brief["held"], brief["verdict"], brief["score"], brief["passed"]) == (True, None, None, None)
    listed = get(room, "/submissions", ann, problem=problem)["items"]
    assert [(s["id"], s["held"], s["verdict"]) for s in listed] == [(sent["id"], True, None)]
    # Filtering on the verdict would tell it.
    assert get(room, "/submissions", ann, problem=problem, verdict="accepted")["total"] == 0
    [row] = [p for p in get(room, "/problems", ann) if p["slug"] == problem]
    assert (row["progress"], row["best_score"]) == ("attempted", None)
    # The public acceptance counts would tell it too (before and after): held work is not in them.
    stats = get(room, f"/problems/{problem}/stats", ann)
    assert (stats["submissions"], stats["accepted"]) == (0, 0)
    assignment = get(room, f"/assignments/{week['id']}", ann)
    [cell] = [p["progress"] for p in assignment["problems"]]
    assert (cell["accepted"], cell["best_score"], cell["attempts"], cell["submission"]) == (False, None, 1, sent["id"])
    assert assignment["solved"] == 0 and assignment["grades_held"] is True
    error(room.client.get(f"{API}/problems/{problem}/editorial", headers=bearer(ann)), 403, "not_solved")
    # The webhook body goes to the learner's own receiver: held there too.
    with session_scope() as session:
        body = submission_summary(session.get(Submission, sent["id"]))
    assert (body["held"], body["verdict"], body["score"], body["message"]) == (True, None, None, None)

    # The course's instructor sees the result, comments and sets a score; the learner sees none of it.
    theirs = read(room.client, teacher, sent["id"]).json()
    assert (theirs["held"], theirs["verdict"], theirs["score"]) == (False, "accepted", 1.0)
    assert room.cell(week, "ann")["best_score"] == 1.0
    said = room.client.post(f"{SUBMISSIONS}/{sent['id']}/comments", headers=bearer(teacher),
                            json={"body": "Tidy, but name the variables."})
    assert said.status_code == 201, said.text
    scored = room.client.put(f"{SUBMISSIONS}/{sent['id']}/score", headers=bearer(teacher),
                             json={"score": 0.9, "reason": "naming"})
    assert scored.status_code == 200 and scored.json()["score_override"] == 0.9
    assert get(room, f"/submissions/{sent['id']}/comments", ann) == []
    assert get(room, f"/submissions/{sent['id']}/score-changes", ann) == []
    assert get(room, "/submissions", ann, problem=problem)["items"][0]["new_comments"] == 0
    assert "held until" in error(room.client.post(f"{SUBMISSIONS}/{sent['id']}/regrade-requests",
                                                  headers=bearer(ann), json={"reason": "why?"}), 409)
    assert notifications(room) == []  # feedback on held work is told by the release
    assert get(room, "/me", ann)["unread_notifications"] == 0

    # Released: everything at once, and one notification says so.
    released = room.client.post(f"{API}/assignments/{week['id']}/release-grades", headers=bearer(teacher))
    assert released.status_code == 200, released.text
    assert released.json()["grades_held"] is False and released.json()["released_at"]
    error(room.client.post(f"{API}/assignments/{week['id']}/release-grades", headers=bearer(teacher)), 409)
    mine = read(room.client, ann, sent["id"]).json()
    assert (mine["held"], mine["verdict"], mine["score"], mine["score_override"]) == (False, "accepted", 1.0, 0.9)
    assert mine["tests"] and mine["hidden"]["total"] > 0
    assert [c["body"] for c in get(room, f"/submissions/{sent['id']}/comments", ann)] == [
        "Tidy, but name the variables."]
    assert get(room, "/submissions", ann, problem=problem)["items"][0]["new_comments"] == 1
    [row] = [p for p in get(room, "/problems", ann) if p["slug"] == problem]
    assert row["progress"] == "solved"
    assert get(room, f"/problems/{problem}/stats", ann)["accepted"] == 1
    assert room.client.get(f"{API}/problems/{problem}/editorial", headers=bearer(ann)).status_code == 200
    for learner in ("ann", "bob"):  # every learner of the course is told
        [told] = notifications(room, learner)
        assert (told["kind"], told["text"], told["link"], told["read"]) == (
            "grades_released", "Grades released: Week 1", f"/assignments/{week['id']}", False)
    assert get(room, "/me", ann)["unread_notifications"] == 1


def test_only_the_courses_instructors_release_and_a_put_holds_or_releases(
        room: Class, problem: str, tokens: Tokens) -> None:
    week = held_week(room, problem)
    release = f"{API}/assignments/{week['id']}/release-grades"
    error(room.client.post(release, headers=bearer(room.tokens["ann"])), 403, "forbidden")
    error(room.client.post(release, headers=bearer(tokens.other_instructor)), 404, "not_found")
    body = {k: week[k] for k in ("title", "opens_at", "due_at", "late_policy")} | {
        "problems": [problem], "grades_held": False}
    put = room.client.put(f"{API}/assignments/{week['id']}", headers=bearer(room.teacher), json=body)
    assert put.status_code == 200 and put.json()["grades_held"] is False and put.json()["released_at"]
    assert [n["kind"] for n in notifications(room)] == ["grades_released"]
    # Held again: hidden again, nothing lost, nobody told.
    sent = hand_in(room, problem)
    put = room.client.put(f"{API}/assignments/{week['id']}", headers=bearer(room.teacher),
                          json=body | {"grades_held": True})
    assert put.json()["grades_held"] is True
    assert read(room.client, room.tokens["ann"], sent["id"]).json()["verdict"] is None
    assert len(notifications(room)) == 1


def test_runs_and_other_assignments_are_never_held(room: Class, problem: str) -> None:
    held_week(room, problem)
    run = room.client.post(SUBMISSIONS, headers=bearer(room.tokens["ann"]),
                           json={"problem": problem, "code": RATIO, "mode": "run"}).json()
    assert read(room.client, room.tokens["ann"], run["id"]).json()["verdict"] == "accepted"
    # secret_lookup is in an assignment that holds nothing.
    room.assignment()
    sent = room.submit("ann")
    assert read(room.client, room.tokens["ann"], sent["id"]).json()["verdict"] == "accepted"
    # Work for no assignment at all, while some assignment holds its grades: solved as ever (SQL's
    # NULL IN (...) is not false, and once hid every such submission from its learner's progress).
    stranger = new_user(unique("held-stranger"))
    alone = room.client.post(SUBMISSIONS, headers=bearer(stranger),
                             json={"problem": problem, "code": RATIO, "mode": "submit"}).json()
    assert alone["assignment"] is None
    [row] = [p for p in get(room, "/problems", stranger) if p["slug"] == problem]
    assert (row["progress"], row["best_score"]) == ("solved", 1.0)
    assert get(room, "/submissions", stranger, verdict="accepted")["total"] == 1
