"""Late work over HTTP: penalties with a floor and a last accepted time, per-learner extensions,
excused submissions, and late flags and scores derived again whenever the rules change."""

from __future__ import annotations

import uuid
from typing import Any

import pytest
from fastapi.testclient import TestClient

from service.db.models import Role
from tests.unit.service.helpers import error
from tests.utils.courses import API, assignment_body, at, csv_rows, join, new_course, new_user, send
from tests.utils.service import REFERENCE, bearer
from tests.utils.service_fixtures import Tokens


class Course:
    """A course with an instructor and two learners, ann and bob."""

    def __init__(self, client: TestClient) -> None:
        self.client = client
        self.teacher_name = f"teacher-{uuid.uuid4().hex[:6]}"
        self.teacher = new_user(self.teacher_name, Role.INSTRUCTOR)
        self.course = new_course(client, self.teacher, "Late work")
        self.names = {key: f"{key}-{uuid.uuid4().hex[:6]}" for key in ("ann", "bob")}
        self.tokens = {key: new_user(name) for key, name in self.names.items()}
        for token in self.tokens.values():
            assert join(client, token, self.course["join_code"]).status_code == 200
        members = client.get(f"{API}/courses/{self.course['id']}", headers=bearer(self.teacher)).json()["members"]
        self.ids = {key: next(m["user_id"] for m in members if m["user"] == name) for key, name in self.names.items()}

    def assignment(self, **rules: Any) -> dict[str, Any]:
        body = {**assignment_body(["secret_lookup"], opens=-100, due=rules.pop("due", 24)), **rules}
        response = self.client.post(f"{API}/courses/{self.course['id']}/assignments",
                                    headers=bearer(self.teacher), json=body)
        assert response.status_code == 201, response.text
        made: dict[str, Any] = response.json()
        return made

    def change(self, assignment: dict[str, Any], **rules: Any) -> dict[str, Any]:
        body = {**assignment_body(["secret_lookup"], opens=-100, due=rules.pop("due", 24)), **rules}
        response = self.client.put(f"{API}/assignments/{assignment['id']}", headers=bearer(self.teacher), json=body)
        assert response.status_code == 200, response.text
        changed: dict[str, Any] = response.json()
        return changed

    def submission(self, submission: dict[str, Any], token: str | None = None) -> dict[str, Any]:
        found: dict[str, Any] = self.client.get(f"{API}/submissions/{submission['id']}",
                                                headers=bearer(token or self.teacher)).json()
        return found

    def cell(self, assignment: dict[str, Any], learner: str) -> dict[str, Any]:
        book = self.client.get(f"{API}/assignments/{assignment['id']}/gradebook", headers=bearer(self.teacher)).json()
        row: dict[str, Any] = next(r for r in book["rows"] if r["user"] == self.names[learner])
        return {**row["cells"][0], "due_at": row["due_at"], "extension": row["extension"], "total": row["total_score"]}

    def extend(self, assignment: dict[str, Any], learner: str, token: str | None = None,
               **body: Any) -> Any:
        return self.client.put(f"{API}/assignments/{assignment['id']}/extensions/{self.ids[learner]}",
                               headers=bearer(token or self.teacher), json=body)


@pytest.fixture
def course(client: TestClient) -> Course:
    return Course(client)


def test_a_penalty_per_started_day_stops_at_its_floor(course: Course) -> None:
    week = course.assignment(due=-50, penalty_percent=10, penalty_floor=75)  # 50 h late: 3 days started
    assert (week["penalty_percent"], week["penalty_unit"], week["penalty_floor"]) == (10, "day", 75)
    sent = send(course.client, course.tokens["ann"], REFERENCE, week["id"])
    assert sent.status_code == 202 and sent.json()["late"] is True and sent.json()["penalty"] == 25.0
    cell = course.cell(week, "ann")
    assert (cell["best_score"], cell["score_before_penalty"], cell["penalty"], cell["late"]) == (0.75, 1.0, 0.25, True)
    # Without a floor the three started days cost 30 percent.
    course.change(week, due=-50, penalty_percent=10)
    assert course.submission(sent.json())["penalty"] == 30.0 and course.cell(week, "ann")["best_score"] == 0.7


def test_hourly_penalties_and_the_last_accepted_time(course: Course) -> None:
    hourly = course.assignment(due=-2.5, penalty_percent=5, penalty_unit="hour", late_until=at(1))
    sent = send(course.client, course.tokens["ann"], REFERENCE, hourly["id"]).json()
    assert sent["penalty"] == 15.0  # 2.5 h: three started hours
    course.change(hourly, due=-2.5, penalty_percent=5, penalty_unit="hour", late_until=at(-1))
    refusal = error(send(course.client, course.tokens["ann"], REFERENCE, hourly["id"]), 403, "past_due")
    assert "took late submissions until" in refusal
    # The submission taken before the rules were tightened stays, with its penalty.
    assert course.submission(sent)["penalty"] == 15.0 and course.cell(hourly, "ann")["best_score"] == 0.85


def test_moving_the_due_time_derives_late_flags_again(course: Course) -> None:
    week = course.assignment(due=-1, penalty_percent=50)
    sent = send(course.client, course.tokens["ann"], REFERENCE, week["id"]).json()
    assert sent["late"] is True and course.cell(week, "ann")["best_score"] == 0.5
    course.change(week, due=5, penalty_percent=50)
    after = course.submission(sent)
    assert (after["late"], after["penalty"]) == (False, 0.0)
    cell = course.cell(week, "ann")
    assert (cell["late"], cell["best_score"], cell["penalty"]) == (False, 1.0, 0.0)


def test_an_extension_is_one_learners_own_due_time(course: Course) -> None:
    week = course.assignment(due=-1, penalty_percent=20)
    granted = course.extend(week, "bob", due_at=at(2), reason="  ill for two days  ")
    assert granted.status_code == 200, granted.text
    extension = granted.json()
    assert extension["reason"] == "ill for two days" and extension["user"] == course.names["bob"]
    bob = send(course.client, course.tokens["bob"], REFERENCE, week["id"]).json()
    ann = send(course.client, course.tokens["ann"], REFERENCE, week["id"]).json()
    assert (bob["late"], bob["penalty"], ann["late"], ann["penalty"]) == (False, 0.0, True, 20.0)
    # Each learner sees their own due time; nobody sees another's extension.
    seen = {key: course.client.get(f"{API}/assignments/{week['id']}", headers=bearer(token)).json()
            for key, token in course.tokens.items()}
    assert seen["bob"]["state"] == "open" and seen["bob"]["extension"]["reason"] == "ill for two days"
    assert seen["ann"]["state"] == "due" and seen["ann"]["extension"] is None
    mine = course.client.get(f"{API}/me/assignments", headers=bearer(course.tokens["ann"])).json()
    assert all(a["extension"] is None for a in mine)
    error(course.client.get(f"{API}/assignments/{week['id']}/extensions", headers=bearer(course.tokens["bob"])),
          403, "forbidden")
    error(course.extend(week, "ann", token=course.tokens["ann"], due_at=at(9), reason="me"), 403, "forbidden")
    listed = course.client.get(f"{API}/assignments/{week['id']}/extensions", headers=bearer(course.teacher)).json()
    assert [e["user_id"] for e in listed] == [course.ids["bob"]]
    cell = course.cell(week, "bob")
    assert cell["extension"] == "ill for two days" and cell["due_at"] == extension["due_at"]
    exported = course.client.get(f"{API}/assignments/{week['id']}/gradebook.csv", headers=bearer(course.teacher))
    bob_row = next(r for r in csv_rows(exported.text) if r[0] == course.names["bob"])
    assert bob_row[7:] == [extension["due_at"], "1.0", "0.0", "false", "", ""]

    # Revoked: bob is back on the assignment's rules, and his submission is late.
    assert course.client.delete(f"{API}/assignments/{week['id']}/extensions/{course.ids['bob']}",
                                headers=bearer(course.teacher)).status_code == 204
    assert (course.submission(bob)["late"], course.submission(bob)["penalty"]) == (True, 20.0)
    error(course.client.delete(f"{API}/assignments/{week['id']}/extensions/{course.ids['bob']}",
                               headers=bearer(course.teacher)), 404, "not_found")


def test_an_extension_past_the_refusal_lets_one_learner_in(course: Course) -> None:
    closed = course.assignment(due=-1, late_policy="refuse")
    error(send(course.client, course.tokens["bob"], REFERENCE, closed["id"]), 403, "past_due")
    extension = course.extend(closed, "bob", due_at=at(1), reason="exam clash").json()
    assert send(course.client, course.tokens["bob"], REFERENCE, closed["id"]).status_code == 202
    error(send(course.client, course.tokens["ann"], REFERENCE, closed["id"]), 403, "past_due")
    # Without a last accepted time of its own the extension keeps the refusal, at its own due time.
    seen = course.client.get(f"{API}/assignments/{closed['id']}", headers=bearer(course.tokens["bob"])).json()
    assert seen["your_due_at"] == seen["your_late_until"] == extension["due_at"]
    course.extend(closed, "bob", due_at=at(-0.5), reason="exam clash, over")
    error(send(course.client, course.tokens["bob"], REFERENCE, closed["id"]), 403, "past_due")
    # On an assignment that takes late work until a time, it is taken until the later of the two.
    open_late = course.assignment(due=-1, late_until=at(3))
    extension = course.extend(open_late, "bob", due_at=at(1), reason="r").json()
    seen = course.client.get(f"{API}/assignments/{open_late['id']}", headers=bearer(course.tokens["bob"])).json()
    assert (seen["your_due_at"], seen["your_late_until"]) == (extension["due_at"], open_late["late_until"])
    ann = course.client.get(f"{API}/assignments/{open_late['id']}", headers=bearer(course.tokens["ann"])).json()
    assert (ann["your_due_at"], ann["your_late_until"]) == (open_late["due_at"], open_late["late_until"])


def test_the_course_page_shows_each_learner_their_own_due_time(course: Course) -> None:
    week = course.assignment(due=-1, late_until=at(3))
    extension = course.extend(week, "bob", due_at=at(1), reason="exam clash").json()

    def listed(token: str) -> dict[str, Any]:
        page = course.client.get(f"{API}/courses/{course.course['id']}", headers=bearer(token)).json()
        found: dict[str, Any] = next(a for a in page["assignments"] if a["id"] == week["id"])
        return found

    bob, ann, teacher = listed(course.tokens["bob"]), listed(course.tokens["ann"]), listed(course.teacher)
    assert (bob["state"], bob["your_due_at"], bob["your_late_until"]) == ("open", extension["due_at"], week["late_until"])
    assert (ann["state"], ann["your_due_at"], ann["your_late_until"]) == ("due", week["due_at"], week["late_until"])
    assert (teacher["state"], teacher["your_due_at"], teacher["your_late_until"]) == ("due", None, None)
    assert bob["due_at"] == ann["due_at"] == teacher["due_at"] == week["due_at"]


def test_a_score_set_by_hand_is_the_score_not_a_late_penalty(course: Course) -> None:
    week = course.assignment(due=-1, penalty_percent=20)
    late = send(course.client, course.tokens["ann"], REFERENCE, week["id"]).json()
    assert (late["late"], late["penalty"], course.cell(week, "ann")["best_score"]) == (True, 20.0, 0.8)
    set_by_hand = course.client.put(f"{API}/submissions/{late['id']}/score", headers=bearer(course.teacher),
                                    json={"score": 0.9, "reason": "the tokenizer note was unclear"})
    assert set_by_hand.status_code == 200, set_by_hand.text

    # The gradebook, the learner's own page and the CSV: 0.90 as set, no lateness taken from it.
    cell = course.cell(week, "ann")
    mine = course.client.get(f"{API}/assignments/{week['id']}", headers=bearer(course.tokens["ann"])).json()
    progress = mine["problems"][0]["progress"]
    for shown in (cell, progress):
        assert (shown["best_score"], shown["score_before_penalty"], shown["penalty"]) == (0.9, 0.9, 0.0)
        assert (shown["score_set_by_hand"], shown["score_set_by"], shown["score_reason"]) == (
            True, course.teacher_name, "the tokenizer note was unclear")
    text = course.client.get(f"{API}/assignments/{week['id']}/gradebook.csv", headers=bearer(course.teacher)).text
    header, *rows = csv_rows(text)
    ann = dict(zip(header, next(r for r in rows if r[0] == course.names["ann"]), strict=True))
    assert (ann["best_score"], ann["score_before_penalty"], ann["penalty"]) == ("0.9", "0.9", "0.0")
    assert (ann["score_set_by_hand"], ann["score_set_by"], ann["score_reason"]) == (
        "true", course.teacher_name, "the tokenizer note was unclear")

    # A judged score that counts for more wins again, with its own penalty, and names no one.
    course.change(week, due=1, penalty_percent=20)  # ann's next submission is on time
    on_time = send(course.client, course.tokens["ann"], REFERENCE, week["id"]).json()
    assert on_time["late"] is False
    cell = course.cell(week, "ann")
    assert (cell["best_score"], cell["penalty"], cell["score_set_by"], cell["score_reason"]) == (1.0, 0.0, None, None)
    assert cell["score_set_by_hand"] is True  # one of the cell's submissions still has a score set by hand


def test_the_wide_csv_is_one_row_per_learner_with_the_total(course: Course) -> None:
    week = course.assignment(due=-1, penalty_percent=20)
    assert send(course.client, course.tokens["ann"], REFERENCE, week["id"]).json()["penalty"] == 20.0
    path = f"{API}/assignments/{week['id']}/gradebook.csv"
    wide = course.client.get(path, params={"form": "wide"}, headers=bearer(course.teacher))
    assert wide.status_code == 200 and wide.headers["content-type"] == "text/csv; charset=utf-8"
    assert wide.headers["content-disposition"] == f'attachment; filename="gradebook-{week["id"]}-Week-1-wide.csv"'
    assert csv_rows(wide.text) == [
        ["learner", "secret_lookup", "total"],
        [course.names["ann"], "0.8", "0.8"],
        [course.names["bob"], "", "0.0"],
    ]
    assert wide.text.endswith("\r\n")
    long = course.client.get(path, headers=bearer(course.teacher))
    assert long.text == course.client.get(path, params={"form": "long"}, headers=bearer(course.teacher)).text
    assert "form" in error(course.client.get(path, params={"form": "tall"}, headers=bearer(course.teacher)), 422)
    error(course.client.get(path, params={"form": "wide"}, headers=bearer(course.tokens["ann"])), 403)


def test_an_instructor_excuses_late_work(course: Course, client: TestClient, tokens: Tokens) -> None:
    week = course.assignment(due=-30, penalty_percent=40)
    late = send(client, course.tokens["ann"], REFERENCE, week["id"]).json()
    path = f"{API}/submissions/{late['id']}/excuse"
    # ann may read her submission, not excuse it; another course's instructor may not even read it.
    assert "instructors" in error(client.put(path, headers=bearer(course.tokens["ann"]), json={"excused": True}),
                                  403, "forbidden")
    error(client.put(path, headers=bearer(tokens.instructor), json={"excused": True}), 404, "not_found")
    excused = client.put(path, headers=bearer(course.teacher), json={"excused": True})
    assert excused.status_code == 200, excused.text
    assert (excused.json()["excused"], excused.json()["penalty"]) == (True, 0.0)
    cell = course.cell(week, "ann")
    assert (cell["late"], cell["best_score"]) == (False, 1.0)
    # The excuse survives a change of rules, and can be taken back.
    course.change(week, due=-30, penalty_percent=60)
    assert course.submission(late)["penalty"] == 0.0
    back = client.put(path, headers=bearer(course.teacher), json={"excused": False}).json()
    assert (back["excused"], back["penalty"], course.cell(week, "ann")["best_score"]) == (False, 100.0, 0.0)  # 2 days x 60, capped
    plain = send(client, course.tokens["ann"], REFERENCE, None, mode="run").json()
    # A run is never handed in for an assignment: ann's own, so the teacher cannot read it at all.
    error(client.put(f"{API}/submissions/{plain['id']}/excuse", headers=bearer(course.teacher),
                     json={"excused": True}), 404, "not_found")
    assert "not handed in for an assignment" in error(
        client.put(f"{API}/submissions/{plain['id']}/excuse", headers=bearer(tokens.admin), json={"excused": True}),
        422, "invalid_input")


@pytest.mark.parametrize(("rules", "param", "words"), [
    ({"penalty_percent": 150}, "penalty_percent", "less than or equal to 100"),
    ({"penalty_floor": -1}, "penalty_floor", "greater than or equal to 0"),
    ({"penalty_unit": "week"}, "penalty_unit", "hour"),
    ({"late_until": at(1)}, "late_until", "must not be before due_at"),
    ({"late_policy": "refuse", "late_until": at(48)}, "late_until", "refuses late work"),
    ({"late_policy": "refuse", "penalty_percent": 10}, "penalty_percent", "no late penalty"),
])
def test_late_rules_are_checked(course: Course, rules: dict[str, Any], param: str, words: str) -> None:
    body = {**assignment_body(["secret_lookup"]), **rules}
    response = course.client.post(f"{API}/courses/{course.course['id']}/assignments",
                                  headers=bearer(course.teacher), json=body)
    message = error(response, 422, "invalid_input")
    assert response.json()["error"]["param"].endswith(param) and words in message, message


def test_extensions_are_checked(course: Course, tokens: Tokens) -> None:
    week = course.assignment()
    assert "reason" in error(course.extend(week, "ann", due_at=at(1), reason="   "), 422, "invalid_input")
    assert "reason" in error(course.extend(week, "ann", due_at=at(1), reason="x" * 501), 422, "invalid_input")
    assert "before due_at" in error(course.extend(week, "ann", due_at=at(5), late_until=at(1), reason="r"),
                                    422, "invalid_input")
    assert "timezone" in error(course.extend(week, "ann", due_at="2026-03-01T09:00:00", reason="r"), 422)
    stranger = course.client.put(f"{API}/assignments/{week['id']}/extensions/999999", headers=bearer(course.teacher),
                                 json={"due_at": at(1), "reason": "r"})
    assert "not a learner" in error(stranger, 404, "not_found")
    # Another course's instructor does not learn that the assignment exists.
    error(course.extend(week, "ann", token=tokens.instructor, due_at=at(1), reason="r"), 404, "not_found")
    # Granting twice replaces the first.
    course.extend(week, "ann", due_at=at(1), reason="first")
    assert course.extend(week, "ann", due_at=at(2), reason="second").json()["reason"] == "second"
    listed = course.client.get(f"{API}/assignments/{week['id']}/extensions", headers=bearer(course.teacher)).json()
    assert [e["reason"] for e in listed] == ["second"]
