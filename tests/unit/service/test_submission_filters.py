"""Finding whose work it is: GET /submissions filtered by learner, problem, assignment, verdict
and lateness, combined, for a course's instructors; a learner's filters never reach past their
own submissions."""

from __future__ import annotations

import uuid
from typing import Any

import pytest
from fastapi.testclient import TestClient

from service.db.models import Role
from tests.unit.service.helpers import WRONG, error
from tests.utils.courses import API, join, new_assignment, new_course, new_user, send
from tests.utils.service import REFERENCE, bearer


class Course:
    """ann hands in a wrong and then a right answer for week 1 and one late for week 0 (past
    due); bob one right answer for week 1, and a run outside any assignment."""

    def __init__(self, client: TestClient) -> None:
        self.client = client
        self.teacher = new_user(f"teacher-{uuid.uuid4().hex[:6]}", Role.INSTRUCTOR)
        course = new_course(client, self.teacher, "Filters")
        self.names = {key: f"{key}-{uuid.uuid4().hex[:6]}" for key in ("ann", "bob")}
        self.tokens = {key: new_user(name) for key, name in self.names.items()}
        for token in self.tokens.values():
            assert join(client, token, course["join_code"]).status_code == 200
        self.week1 = new_assignment(client, self.teacher, course["id"], ["secret_lookup"])
        self.week0 = new_assignment(client, self.teacher, course["id"], ["secret_lookup"], opens=-48, due=-24)
        ann, bob = self.tokens["ann"], self.tokens["bob"]
        self.ids = {
            "ann_wrong": send(client, ann, WRONG, self.week1["id"]).json()["id"],
            "ann_right": send(client, ann, REFERENCE, self.week1["id"]).json()["id"],
            "ann_late": send(client, ann, REFERENCE, self.week0["id"]).json()["id"],
            "bob_right": send(client, bob, REFERENCE, self.week1["id"]).json()["id"],
        }

    def listed(self, token: str | None = None, **params: Any) -> list[int]:
        response = self.client.get(f"{API}/submissions", headers=bearer(token or self.teacher),
                                   params={"limit": 100, **params})
        assert response.status_code == 200, response.text
        return [s["id"] for s in response.json()["items"]]


@pytest.fixture
def course(client: TestClient) -> Course:
    return Course(client)


def test_an_instructor_finds_one_learners_work(course: Course) -> None:
    ids = course.ids
    assert course.listed(learner=course.names["ann"]) == [ids["ann_late"], ids["ann_right"], ids["ann_wrong"]]
    assert course.listed(learner=course.names["bob"], problem="secret_lookup") == [ids["bob_right"]]
    assert course.listed(assignment=course.week0["id"]) == [ids["ann_late"]]
    assert course.listed(verdict="wrong_answer", assignment=course.week1["id"]) == [ids["ann_wrong"]]
    assert course.listed(late="true") == [ids["ann_late"]]
    assert ids["ann_late"] not in course.listed(late="false", learner=course.names["ann"])
    assert course.listed(learner="nobody-of-that-name") == []


def test_an_excused_submission_is_not_listed_as_late(course: Course) -> None:
    excused = course.client.put(f"{API}/submissions/{course.ids['ann_late']}/excuse",
                                headers=bearer(course.teacher), json={"excused": True})
    assert excused.status_code == 200, excused.text
    assert course.listed(late="true", learner=course.names["ann"]) == []
    assert course.ids["ann_late"] in course.listed(late="false", learner=course.names["ann"])


def test_a_learners_filters_stay_within_their_own_work(course: Course) -> None:
    ann = course.tokens["ann"]
    assert course.listed(ann, learner=course.names["bob"]) == []
    assert course.listed(ann, verdict="accepted") == [course.ids["ann_late"], course.ids["ann_right"]]


def test_bad_filters_are_refused_with_the_parameter_named(course: Course) -> None:
    for params, name in (({"verdict": "great"}, "verdict"), ({"late": "maybe"}, "late"),
                         ({"assignment": "0"}, "assignment"), ({"learner": "x" * 101}, "learner")):
        response = course.client.get(f"{API}/submissions", headers=bearer(course.teacher), params=params)
        assert name in error(response, 422), params
