"""Feedback over HTTP: instructors' comments on lines and on a whole submission (Markdown rendered
safely, new to the learner until read) and scores set by hand with their trail, which the
gradebook counts. A learner never reads another learner's feedback."""

from __future__ import annotations

import uuid
from typing import Any

import pytest
from fastapi.testclient import TestClient

from service.db.models import Role
from service.feedback import MAX_COMMENTS
from tests.unit.service.helpers import WRONG, error
from tests.utils.courses import API, csv_rows, join, new_assignment, new_course, new_user, send
from tests.utils.service import REFERENCE, bearer


class Course:
    """A course with an instructor, two learners (ann and bob) and one assignment; ann and bob
    have each handed in one submission."""

    def __init__(self, client: TestClient) -> None:
        self.client = client
        self.teacher_name = f"teacher-{uuid.uuid4().hex[:6]}"
        self.teacher = new_user(self.teacher_name, Role.INSTRUCTOR)
        course = new_course(client, self.teacher, "Feedback")
        self.names = {key: f"{key}-{uuid.uuid4().hex[:6]}" for key in ("ann", "bob")}
        self.tokens = {key: new_user(name) for key, name in self.names.items()}
        for token in self.tokens.values():
            assert join(client, token, course["join_code"]).status_code == 200
        self.assignment = new_assignment(client, self.teacher, course["id"], ["secret_lookup"])
        self.sent = {key: send(client, token, code, self.assignment["id"]).json()
                     for (key, token), code in zip(self.tokens.items(), (WRONG, REFERENCE), strict=True)}

    def comment(self, key: str, token: str | None = None, **body: Any) -> Any:
        return self.client.post(f"{API}/submissions/{self.sent[key]['id']}/comments",
                                headers=bearer(token or self.teacher), json=body)

    def comments(self, key: str, token: str) -> Any:
        return self.client.get(f"{API}/submissions/{self.sent[key]['id']}/comments", headers=bearer(token))

    def score(self, key: str, token: str | None = None, **body: Any) -> Any:
        return self.client.put(f"{API}/submissions/{self.sent[key]['id']}/score",
                               headers=bearer(token or self.teacher), json=body)

    def listed(self, key: str) -> dict[str, Any]:
        items = self.client.get(f"{API}/submissions", headers=bearer(self.tokens[key])).json()["items"]
        found: dict[str, Any] = next(s for s in items if s["id"] == self.sent[key]["id"])
        return found

    def cell(self, key: str) -> dict[str, Any]:
        book = self.client.get(f"{API}/assignments/{self.assignment['id']}/gradebook",
                               headers=bearer(self.teacher)).json()
        row = next(r for r in book["rows"] if r["user"] == self.names[key])
        cell: dict[str, Any] = row["cells"][0]
        return cell


@pytest.fixture
def course(client: TestClient) -> Course:
    return Course(client)


def test_comments_on_a_line_and_on_the_whole_reach_only_their_learner(course: Course) -> None:
    on_line = course.comment("ann", body="Compare with `==`, not `is`.", line=2)
    whole = course.comment("ann", body="**Close.** See $\\frac{a}{b}$ <script>alert(1)</script> [x](javascript:alert(1))")
    assert on_line.status_code == 201 and whole.status_code == 201, (on_line.text, whole.text)
    assert on_line.json()["line"] == 2 and whole.json()["line"] is None
    html = whole.json()["html"]
    assert "<strong>Close.</strong>" in html and "<math" in html
    assert "<script>" not in html and "&lt;script&gt;" in html and 'href="javascript' not in html
    assert course.listed("ann")["new_comments"] == 2
    seen = course.comments("ann", course.tokens["ann"])
    assert seen.status_code == 200 and [c["author"] for c in seen.json()] == [course.teacher_name] * 2
    # Bob neither reads ann's comments nor learns that her submission exists.
    error(course.comments("ann", course.tokens["bob"]), 404, "not_found")
    assert course.listed("bob")["new_comments"] == 0


def test_a_comment_stays_new_until_its_learner_reads_it(course: Course) -> None:
    course.comment("ann", body="One thing to fix.")
    path = f"{API}/submissions/{course.sent['ann']['id']}/comments/read"
    # The instructor reading it does not make it read for the learner.
    error(course.client.post(path, headers=bearer(course.teacher)), 403, "forbidden")
    assert course.listed("ann")["new_comments"] == 1
    assert course.client.post(path, headers=bearer(course.tokens["ann"])).status_code == 204
    assert course.listed("ann")["new_comments"] == 0
    assert course.comments("ann", course.tokens["ann"]).json()[0]["read_at"] is not None
    course.comment("ann", body="And one more.")
    assert course.listed("ann")["new_comments"] == 1


def test_bad_comments_are_refused_with_the_field_named(course: Course) -> None:
    assert "line" in error(course.comment("ann", body="x", line=99), 422, "invalid_input")
    assert "line" in error(course.comment("ann", body="x", line=0), 422)
    assert "body" in error(course.comment("ann", body="   "), 422, "invalid_input")
    error(course.comment("ann", body="x" * 5001), 422)
    error(course.comment("ann", body="x", line="2"), 422)  # a line is a JSON integer
    # Learners never comment, not even on their own work.
    error(course.comment("ann", course.tokens["ann"], body="self-praise"), 403, "forbidden")
    error(course.comment("ann", course.tokens["bob"], body="hello"), 404, "not_found")


def test_comments_per_submission_are_bounded(course: Course) -> None:
    for n in range(MAX_COMMENTS):
        assert course.comment("bob", body=f"note {n}").status_code == 201
    assert "delete one" in error(course.comment("bob", body="one too many"), 409, "conflict")
    first = course.comments("bob", course.teacher).json()[0]["id"]
    path = f"{API}/submissions/{course.sent['bob']['id']}/comments"
    error(course.client.delete(f"{path}/{first}", headers=bearer(course.tokens["bob"])), 403, "forbidden")
    assert course.client.delete(f"{path}/{first}", headers=bearer(course.teacher)).status_code == 204
    error(course.client.delete(f"{path}/{first}", headers=bearer(course.teacher)), 404, "not_found")
    assert course.comment("bob", body="room again").status_code == 201


def test_a_score_set_by_hand_counts_in_the_gradebook_with_its_trail(course: Course) -> None:
    assert course.cell("ann")["best_score"] == 0.0
    changed = course.score("ann", score=0.6, reason="right idea; the test used an old tokenizer")
    assert changed.status_code == 200, changed.text
    assert changed.json()["score_override"] == 0.6 and changed.json()["score"] == 0.0
    cell = course.cell("ann")
    assert (cell["best_score"], cell["score_set_by_hand"], cell["penalty"]) == (0.6, True, 0.0)
    assert course.score("ann", score=0.6, reason="again").status_code == 200  # no change, no trail
    course.score("ann", score=None, reason="back to the judge")
    assert course.cell("ann")["best_score"] == 0.0 and course.cell("ann")["score_set_by_hand"] is False
    trail = course.client.get(f"{API}/submissions/{course.sent['ann']['id']}/score-changes",
                              headers=bearer(course.tokens["ann"])).json()
    assert [(t["previous"], t["score"], t["reason"]) for t in trail] == [
        (0.0, 0.6, "right idea; the test used an old tokenizer"), (0.6, None, "back to the judge")]
    assert all(t["changed_by"] == course.teacher_name for t in trail)
    error(course.client.get(f"{API}/submissions/{course.sent['ann']['id']}/score-changes",
                            headers=bearer(course.tokens["bob"])), 404)


def test_the_gradebook_csv_says_which_scores_were_set_by_hand(course: Course) -> None:
    course.score("bob", score=0.5, reason="copied the editorial")
    text = course.client.get(f"{API}/assignments/{course.assignment['id']}/gradebook.csv",
                             headers=bearer(course.teacher)).text
    header, *rows = csv_rows(text)
    by_learner = {row[0]: dict(zip(header, row, strict=True)) for row in rows}
    bob, ann = by_learner[course.names["bob"]], by_learner[course.names["ann"]]
    assert (bob["best_score"], bob["score_set_by_hand"]) == ("0.5", "true")
    assert ann["score_set_by_hand"] == "false"


def test_bad_scores_and_strangers_are_refused(course: Course) -> None:
    assert "score" in error(course.score("ann", score=1.5, reason="too generous"), 422)
    error(course.score("ann", score=-0.1, reason="x"), 422)
    error(course.score("ann", score=0.5, reason=""), 422)
    error(course.score("ann", score=0.5), 422)
    error(course.score("ann", course.tokens["ann"], score=1.0, reason="I deserve it"), 403, "forbidden")
    error(course.score("ann", course.tokens["bob"], score=0.0, reason="spite"), 404, "not_found")
    stranger = new_user(f"stranger-{uuid.uuid4().hex[:6]}", Role.INSTRUCTOR)
    error(course.score("ann", stranger, score=1.0, reason="not my course"), 404, "not_found")
    assert course.cell("ann")["best_score"] == 0.0


def test_feedback_belongs_to_handed_in_work(course: Course, client: TestClient) -> None:
    """A run or a submission outside any assignment has no course whose instructors could judge it."""
    own = send(client, course.tokens["ann"], REFERENCE, None, mode="run").json()
    admin = new_user(f"admin-{uuid.uuid4().hex[:6]}", Role.ADMIN)
    refused = client.post(f"{API}/submissions/{own['id']}/comments", headers=bearer(admin), json={"body": "hi"})
    assert "not handed in for an assignment" in error(refused, 403, "forbidden")
    # An admin may give feedback on what was handed in for any course.
    assert course.comment("ann", admin, body="From the admin.").status_code == 201
