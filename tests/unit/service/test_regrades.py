"""Regrade requests over HTTP: the learner asks with a reason, an instructor of the course answers
and changes the score or keeps it, both read the thread, the gradebook shows what is open; and
everyone else is refused, with every bound held."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from service.db.models import Role
from service.regrades import MAX_REASON, MAX_REQUESTS
from tests.unit.service.helpers import SUBMISSIONS, WRONG, error
from tests.unit.service.test_assignment_credit import Class, unique
from tests.utils.courses import new_user, send
from tests.utils.service import bearer


@pytest.fixture
def room(client: TestClient) -> Class:
    return Class(client)


def handed_in(room: Class, learner: str = "ann", code: str = WRONG) -> dict[str, Any]:
    week = room.assignment()
    made: dict[str, Any] = send(room.client, room.tokens[learner], code, week["id"]).json()
    return {**made, "week": week}


def regrades(room: Class, submission: int, token: str) -> Any:
    return room.client.get(f"{SUBMISSIONS}/{submission}/regrade-requests", headers=bearer(token))


def ask(room: Class, submission: int, token: str, reason: str = "test three expects the old tokenizer") -> Any:
    return room.client.post(f"{SUBMISSIONS}/{submission}/regrade-requests", headers=bearer(token),
                            json={"reason": reason})


def answer(room: Class, submission: int, request: int, token: str, **body: Any) -> Any:
    return room.client.post(f"{SUBMISSIONS}/{submission}/regrade-requests/{request}/answer",
                            headers=bearer(token), json=body)


def test_asked_answered_with_a_new_score_and_read_by_both(room: Class) -> None:
    sent = handed_in(room)
    cell = room.cell(sent["week"], "ann")
    assert (cell["best_score"], cell["open_regrade_requests"]) == (0.0, 0)
    asked = ask(room, sent["id"], room.tokens["ann"])
    assert asked.status_code == 201, asked.text
    request = asked.json()
    assert (request["outcome"], request["requested_by"], request["answer"]) == ("open", room.names["ann"], None)
    assert room.cell(sent["week"], "ann")["open_regrade_requests"] == 1
    error(ask(room, sent["id"], room.tokens["ann"]), 409, "conflict")  # one open at a time

    answered = answer(room, sent["id"], request["id"], room.teacher, answer="Right: that test was wrong.", score=0.9)
    assert answered.status_code == 200, answered.text
    assert answered.json()["outcome"] == "changed" and answered.json()["answered_at"]
    cell = room.cell(sent["week"], "ann")
    assert (cell["best_score"], cell["open_regrade_requests"], cell["score_reason"]) == (
        0.9, 0, f"regrade request {request['id']}: Right: that test was wrong.")
    for token in (room.tokens["ann"], room.teacher):  # both read the thread
        [thread] = regrades(room, sent["id"], token).json()
        assert (thread["reason"], thread["answer"], thread["outcome"]) == (
            "test three expects the old tokenizer", "Right: that test was wrong.", "changed")
    error(answer(room, sent["id"], request["id"], room.teacher, answer="again"), 409, "conflict")

    # Asked again: answered with no score, the score stands.
    again = ask(room, sent["id"], room.tokens["ann"], "and test four?").json()
    kept = answer(room, sent["id"], again["id"], room.teacher, answer="Test four is right.").json()
    assert kept["outcome"] == "kept" and room.cell(sent["week"], "ann")["best_score"] == 0.9


def test_only_the_learner_asks_and_only_the_course_answers(room: Class, tokens: Any) -> None:
    sent = handed_in(room)
    error(ask(room, sent["id"], room.tokens["bob"]), 404, "not_found")  # a classmate's is not there
    error(ask(room, sent["id"], room.teacher), 403, "forbidden")
    request = ask(room, sent["id"], room.tokens["ann"]).json()
    error(answer(room, sent["id"], request["id"], room.tokens["ann"], answer="yes, me"), 403, "forbidden")
    stranger = new_user(unique("regrade-stranger"), Role.INSTRUCTOR)
    error(answer(room, sent["id"], request["id"], stranger, answer="not mine"), 404, "not_found")
    error(regrades(room, sent["id"], stranger), 404, "not_found")
    error(answer(room, sent["id"], 10**9, room.teacher, answer="no such"), 404, "not_found")
    # An admin answers for any course.
    assert answer(room, sent["id"], request["id"], tokens.admin, answer="Looked at it.").status_code == 200


def test_work_not_handed_in_and_bad_input_are_refused(room: Class) -> None:
    run = send(room.client, room.tokens["ann"], WRONG, None, mode="run").json()
    assert "not handed in for an assignment" in error(ask(room, run["id"], room.tokens["ann"]), 403, "forbidden")
    sent = handed_in(room)
    error(ask(room, sent["id"], room.tokens["ann"], ""), 422)
    error(ask(room, sent["id"], room.tokens["ann"], "x" * (MAX_REASON + 1)), 422)
    request = ask(room, sent["id"], room.tokens["ann"]).json()
    error(answer(room, sent["id"], request["id"], room.teacher, answer="ok", score=1.5), 422)
    error(answer(room, sent["id"], request["id"], room.teacher, answer="  "), 422)
    assert regrades(room, sent["id"], room.tokens["ann"]).json()[0]["outcome"] == "open"  # nothing changed


def test_a_submission_holds_a_bounded_number_of_requests(room: Class) -> None:
    sent = handed_in(room)
    for n in range(MAX_REQUESTS):
        request = ask(room, sent["id"], room.tokens["ann"], f"reason {n}").json()
        assert answer(room, sent["id"], request["id"], room.teacher, answer="no").status_code == 200
    assert f"{MAX_REQUESTS} regrade requests" in error(ask(room, sent["id"], room.tokens["ann"]), 409, "conflict")
    assert len(regrades(room, sent["id"], room.tokens["ann"]).json()) == MAX_REQUESTS
