"""Credit wherever work is done: a learner's submission that names no assignment (from the problem
list, judge-client, a batch) counts for an assignment of their course that holds the problem and
takes it now by their own rules; otherwise it is practice, never refused for it."""

from __future__ import annotations

import uuid
from typing import Any

from fastapi.testclient import TestClient

from service.db.models import Role
from tests.unit.service.helpers import SUBMISSIONS
from tests.utils.courses import API, at, join, new_assignment, new_course, new_user, send
from tests.utils.service import REFERENCE, bearer


def unique(prefix: str) -> str:
    return f"{prefix}-{uuid.uuid4().hex[:6]}"


class Class:
    """A course with an instructor and two learners, ann and bob."""

    def __init__(self, client: TestClient) -> None:
        self.client = client
        self.teacher = new_user(unique("credit-teacher"), Role.INSTRUCTOR)
        self.course = new_course(client, self.teacher, "Credit")
        self.names = {key: unique(f"credit-{key}") for key in ("ann", "bob")}
        self.tokens = {key: new_user(name) for key, name in self.names.items()}
        for token in self.tokens.values():
            assert join(client, token, self.course["join_code"]).status_code == 200

    def assignment(self, **rules: Any) -> dict[str, Any]:
        return new_assignment(self.client, self.teacher, self.course["id"], ["secret_lookup"], **rules)

    def submit(self, learner: str, **fields: Any) -> dict[str, Any]:
        response = send(self.client, self.tokens[learner], REFERENCE, None, **fields)
        assert response.status_code == 202, response.text
        made: dict[str, Any] = response.json()
        return made

    def cell(self, assignment: dict[str, Any], learner: str) -> dict[str, Any]:
        book = self.client.get(f"{API}/assignments/{assignment['id']}/gradebook", headers=bearer(self.teacher)).json()
        cell: dict[str, Any] = next(r for r in book["rows"] if r["user"] == self.names[learner])["cells"][0]
        return cell

    def user_id(self, learner: str) -> int:
        members = self.client.get(f"{API}/courses/{self.course['id']}", headers=bearer(self.teacher)).json()["members"]
        found: int = next(m["user_id"] for m in members if m["user"] == self.names[learner])
        return found


def test_work_from_the_problem_list_counts_for_the_open_assignment(client: TestClient) -> None:
    room = Class(client)
    week = room.assignment()
    sent = room.submit("ann")
    assert (sent["assignment"], sent["late"], sent["penalty"]) == (week["id"], False, 0.0)
    cell = room.cell(week, "ann")
    assert (cell["attempts"], cell["accepted"], cell["best_score"], cell["submission"]) == (1, True, 1.0, sent["id"])
    assert room.cell(week, "bob")["attempts"] == 0
    # The instructor reads it as any work handed in for the course.
    assert client.get(f"{SUBMISSIONS}/{sent['id']}", headers=bearer(room.teacher)).status_code == 200


def test_runs_tries_and_other_people_never_count(client: TestClient, tokens: Any) -> None:
    room = Class(client)
    week = room.assignment()
    assert room.submit("ann", mode="run")["assignment"] is None
    tried = client.post(SUBMISSIONS, headers=bearer(room.tokens["ann"]), json={
        "problem": "secret_lookup", "code": REFERENCE, "mode": "try", "arguments": ["a"]})
    assert tried.status_code == 202 and tried.json()["assignment"] is None
    # The course's instructor, and a learner of no course with it, hand nothing in.
    own = send(client, room.teacher, REFERENCE, None).json()
    stranger = send(client, new_user(unique("credit-stranger")), REFERENCE, None).json()
    assert own["assignment"] is None and stranger["assignment"] is None
    assert room.cell(week, "ann")["attempts"] == 0


def test_each_learners_own_window_decides(client: TestClient) -> None:
    room = Class(client)
    closed = room.assignment(opens=-48, due=-1, policy="refuse")
    extended = client.put(f"{API}/assignments/{closed['id']}/extensions/{room.user_id('bob')}",
                          headers=bearer(room.teacher), json={"due_at": at(1), "reason": "a late bus"})
    assert extended.status_code == 200, extended.text
    # bob's extension runs: on time. ann is past the refusal: practice, taken, not refused.
    bob, ann = room.submit("bob"), room.submit("ann")
    assert (bob["assignment"], bob["late"]) == (closed["id"], False)
    assert (ann["assignment"], ann["late"]) == (None, False)
    assert room.cell(closed, "ann")["attempts"] == 0 and room.cell(closed, "bob")["accepted"] is True


def test_late_work_counts_late_with_its_penalty_and_nothing_before_the_opening(client: TestClient) -> None:
    room = Class(client)
    upcoming = room.assignment(opens=24, due=48)
    assert room.submit("ann")["assignment"] is None
    overdue = client.post(f"{API}/courses/{room.course['id']}/assignments", headers=bearer(room.teacher), json={
        "title": "Overdue", "opens_at": at(-48), "due_at": at(-1), "late_policy": "accept",
        "penalty_percent": 20, "problems": ["secret_lookup"]}).json()
    sent = room.submit("ann")
    assert (sent["assignment"], sent["late"], sent["penalty"]) == (overdue["id"], True, 20.0)
    assert room.cell(overdue, "ann")["best_score"] == 0.8
    assert room.cell(upcoming, "ann")["attempts"] == 0


def test_of_several_it_counts_for_the_one_on_time_then_the_one_due_first(client: TestClient) -> None:
    room = Class(client)
    overdue = room.assignment(opens=-48, due=-1, title="Overdue, late work taken")
    later = room.assignment(due=72, title="Due in three days")
    sooner = room.assignment(due=24, title="Due tomorrow")
    assert room.submit("ann")["assignment"] == sooner["id"]
    assert [room.cell(a, "ann")["attempts"] for a in (overdue, later, sooner)] == [0, 0, 1]


def test_a_batch_item_counts_as_a_single_submission_would(client: TestClient) -> None:
    room = Class(client)
    week = room.assignment()
    response = client.post(f"{SUBMISSIONS}/batch", headers=bearer(room.tokens["ann"]), json={"items": [
        {"problem": "secret_lookup", "code": REFERENCE, "mode": "submit"},
        {"problem": "secret_lookup", "code": REFERENCE, "mode": "run"}]})
    assert response.status_code == 200, response.text
    assert [r["submission"]["assignment"] for r in response.json()["results"]] == [week["id"], None]


def test_the_problem_says_what_the_work_counts_for_and_by_when(client: TestClient) -> None:
    room = Class(client)
    later = room.assignment(due=72, title="Due in three days")
    sooner = room.assignment(due=24, title="Due tomorrow")
    extension = client.put(f"{API}/assignments/{sooner['id']}/extensions/{room.user_id('bob')}",
                           headers=bearer(room.teacher), json={"due_at": at(30), "reason": "exam clash"}).json()

    def counts_for(token: str) -> list[dict[str, Any]]:
        found: list[dict[str, Any]] = client.get(f"{API}/problems/secret_lookup", headers=bearer(token)).json()[
            "counts_for"]
        return found

    ann, bob = counts_for(room.tokens["ann"]), counts_for(room.tokens["bob"])
    assert [(c["id"], c["state"], c["counts_now"]) for c in ann] == [(sooner["id"], "open", True),
                                                                     (later["id"], "open", False)]
    assert ann[0]["course"] == {"id": room.course["id"], "title": "Credit"} and ann[0]["title"] == "Due tomorrow"
    assert (ann[0]["due_at"], bob[0]["id"], bob[0]["due_at"]) == (sooner["due_at"], sooner["id"], extension["due_at"])
    assert counts_for(room.teacher) == []
