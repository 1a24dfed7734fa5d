"""Grades sent to an LMS for an assignment placed by deep linking: held grades are not sent until
released; a score set by hand is sent again; a platform that refuses is tried again after the
back-off, then given up with its error shown to the instructor, who sends it again."""

from __future__ import annotations

import subprocess
import time
import uuid
from datetime import UTC, datetime
from typing import Any

import pytest

from service.db.models import LtiGradeSync, utcnow
from service.db.session import session_scope
from service.lti import grades
from service.lti.grade_marks import pending_values
from tests.lti.conftest import INSTRUCTOR, LEARNER, LmsBrowser, new_admin, register_by_hand
from tests.lti.platform import Platform, auto_post_form
from tests.lti.test_lti_story import RIGHT, WRONG, deep_link, hand_in, register_dynamically
from tests.utils.courses import assignment_body


def states(user: str) -> list[str]:
    with session_scope() as session:
        return [row.state for row in session.query(LtiGradeSync).all() if row.user.name == user]


def settled(user: str, wanted: str, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while states(user) != [wanted]:
        assert time.monotonic() < deadline, states(user)
        time.sleep(0.1)


def place_assignment(judge: str, lms: Platform, teacher: LmsBrowser) -> tuple[int, str]:
    """The instructor's deep-linking launch makes the course; they make an assignment there
    (holding its grades) and place it. Its id and the LMS link's id."""
    landed = teacher.launch(lms.deep_link_start_url("tess"))
    token = landed.headers["location"].rsplit("/", 1)[1]
    course_id = teacher.api("GET", f"/lti/deep-links/{token}").json()["course_id"]
    made = teacher.api("POST", f"/courses/{course_id}/assignments",
                       json=assignment_body(["secret_lookup"], held=True, title="Lookups, graded"))
    assert made.status_code == 201, made.text
    assignment: dict[str, Any] = made.json()
    csrf = teacher.request("GET", f"{judge}/api/v1/auth/session").json()["csrf_token"]
    answer = teacher.request("POST", f"{judge}/lti/deep-link/{token}",
                             data={"csrf_token": csrf, "assignment": str(assignment["id"])})
    assert answer.status_code == 200, answer.text
    before = set(lms.links)
    action, fields = auto_post_form(answer.text)
    assert teacher.request("POST", action, data=fields).status_code == 200
    [link] = [link for link in lms.links if link not in before]
    assert lms.links[link].custom == {"assignment": str(assignment["id"])}
    return int(assignment["id"]), link


def test_held_released_overridden_refused_and_sent_again(
        judge: str, grade_sender: subprocess.Popen[bytes], lms: Platform) -> None:
    register_by_hand(judge, lms, new_admin())
    ann = f"Ann Lee {uuid.uuid4().hex[:6]}"  # a name of this test's own: the database is the session's
    lms.add_user("tess", "Tess Teacher", "tess@example.org", roles=[INSTRUCTOR])
    lms.add_user("ann", ann, "ann@example.org", roles=[LEARNER])
    teacher = LmsBrowser(judge)
    assignment_id, link = place_assignment(judge, lms, teacher)
    item = str(lms.links[link].line_item_id)
    assert lms.line_items[item]["scoreMaximum"] == 1  # one problem

    learner = LmsBrowser(judge)
    assert learner.launch(lms.launch_start_url("ann", link)).headers["location"] == f"/assignments/{assignment_id}"
    submission = hand_in(learner, "secret_lookup", RIGHT)
    assert submission["held"] is True
    settled(ann, "held")
    assert lms.scores(item) == []

    released = teacher.api("POST", f"/assignments/{assignment_id}/release-grades")
    assert released.status_code == 200, released.text
    [first] = lms.wait_for_scores(item, 1)
    assert (first["userId"], first["scoreGiven"], first["scoreMaximum"]) == ("ann", 1.0, 1.0)
    assert first["comment"] == "Solved 1 of 1 on the judge"

    by_hand = teacher.api("PUT", f"/submissions/{submission['id']}/score",
                          json={"score": 0.5, "reason": "the style rules were ignored"})
    assert by_hand.status_code == 200, by_hand.text
    assert lms.wait_for_scores(item, 2)[-1]["scoreGiven"] == 0.5

    # The platform refuses every attempt: tried again after each back-off (0.5 s twice here),
    # then given up, with the platform's answer kept for the instructor.
    lms.fail_next_scores(3)
    teacher.api("PUT", f"/submissions/{submission['id']}/score", json={"score": 0.25, "reason": "late file"})
    settled(ann, "failed")
    [row] = teacher.api("GET", f"/assignments/{assignment_id}/lti-grades").json()
    assert (row["user"], row["state"], row["attempts"], row["score_given"]) == (ann, "failed", 3, 0.5)
    assert "answered 503" in row["error"]
    assert len(lms.scores(item)) == 2

    again = teacher.api("POST", f"/assignments/{assignment_id}/lti-grades/send-again", json={})
    assert again.status_code == 200 and again.json()[0]["state"] == "pending"
    assert lms.wait_for_scores(item, 3)[-1]["scoreGiven"] == 0.25
    settled(ann, "sent")
    [row] = teacher.api("GET", f"/assignments/{assignment_id}/lti-grades").json()
    assert (row["state"], row["score_given"], row["error"]) == ("sent", 0.25, None)

    # A learner reads none of it.
    assert learner.api("GET", f"/assignments/{assignment_id}/lti-grades").status_code == 403


def test_a_grade_worked_out_before_a_verdict_never_overwrites_it(
        judge: str, grade_sender: subprocess.Popen[bytes], lms: Platform) -> None:
    """A sender holds the learner's row (its launch's message) while a verdict lands: the
    verdict makes the row pending again, so the sender's outcome, worked out before the verdict,
    is not written over it, and the verdict's own message sends the score. Before, the sender's
    'idle' overwrote 'pending', the verdict's message found nothing to send, and the LMS never
    got the score (seen in CI: 0 of 1 scores in 60 s)."""
    register_dynamically(judge, lms, new_admin())
    tag = uuid.uuid4().hex[:6]
    lms.add_user("tess", f"Tess {tag}", "tess@example.org", roles=[INSTRUCTOR])
    lms.add_user("ann", f"Ann {tag}", "ann@example.org", roles=[LEARNER])
    [link] = deep_link(judge, lms, LmsBrowser(judge), ["secret_lookup"])
    learner = LmsBrowser(judge)
    assert learner.launch(lms.launch_start_url("ann", link)).status_code == 303
    me = learner.api("GET", "/me").json()
    settled(me["name"], "idle")  # the launch's message: nothing judged yet
    with session_scope() as session:
        [sync_id] = [row.id for row in session.query(LtiGradeSync).all() if row.user.name == me["name"]]
        session.query(LtiGradeSync).filter(LtiGradeSync.id == sync_id).update({"state": "pending"})
    with session_scope() as session:
        lease = grades._claim(session, sync_id, utcnow())  # a sender, in the middle of its work
    assert lease is not None
    assert hand_in(learner, "secret_lookup", RIGHT)["verdict"] == "accepted"
    with session_scope() as session:  # the sender ends, with what it worked out before
        assert not grades._settle(session, sync_id, lease, state="idle")
    [score] = lms.wait_for_scores(str(lms.links[link].line_item_id), 1)
    assert score["scoreGiven"] == 1
    settled(me["name"], "sent")


def test_a_grade_read_before_a_verdict_is_not_posted_and_a_score_is_stamped_when_read(
        judge: str, grade_sender: subprocess.Popen[bytes], lms: Platform,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A sender reads a grade, and a verdict lands before it posts: it posts nothing, and the
    verdict's own message sends the new grade, once. Before, it posted what it had read (an
    extra score, or one older than the verdict's after it; seen in CI: 0.0 after the 1.0 was
    due). A score's timestamp is the moment before its grade was read, so that a post a change
    overtook carries an older one, which a platform keeps below the newer."""
    register_dynamically(judge, lms, new_admin())
    tag = uuid.uuid4().hex[:6]
    lms.add_user("tess", f"Tess {tag}", "tess@example.org", roles=[INSTRUCTOR])
    lms.add_user("ann", f"Ann {tag}", "ann@example.org", roles=[LEARNER])
    [link] = deep_link(judge, lms, LmsBrowser(judge), ["secret_lookup"])
    item = str(lms.links[link].line_item_id)
    learner = LmsBrowser(judge)
    assert learner.launch(lms.launch_start_url("ann", link)).status_code == 303
    name = learner.api("GET", "/me").json()["name"]
    assert hand_in(learner, "secret_lookup", WRONG)["verdict"] == "wrong_answer"
    assert [s["scoreGiven"] for s in lms.wait_for_scores(item, 1)] == [0.0]
    settled(name, "sent")
    with session_scope() as session:
        [sync_id] = [row.id for row in session.query(LtiGradeSync).all() if row.user.name == name]
        session.query(LtiGradeSync).filter(LtiGradeSync.id == sync_id).update(pending_values(utcnow()))

    read = grades.grade_of
    reads: list[datetime] = []  # when each attempt began to read its grade
    verdict_meanwhile = True

    def reading(session: Any, row: LtiGradeSync) -> object:
        nonlocal verdict_meanwhile
        reads.append(datetime.now(UTC))
        grade = read(session, row)
        if verdict_meanwhile:
            verdict_meanwhile = False
            assert hand_in(learner, "secret_lookup", RIGHT)["verdict"] == "accepted"
        return grade

    monkeypatch.setattr(grades, "grade_of", reading)
    with session_scope() as session:
        assert grades.deliver(session, sync_id) == grades.SUPERSEDED
    lms.wait_for_scores(item, 2)
    settled(name, "sent")
    assert [(s["scoreGiven"], s["activityProgress"]) for s in lms.scores(item)] == [
        (0.0, "Submitted"), (1.0, "Completed")]
    assert lms.refusals == []  # nor was a stale one posted and refused

    # Sent again by hand: stamped before the grade was read, after the attempt began.
    with session_scope() as session:
        session.query(LtiGradeSync).filter(LtiGradeSync.id == sync_id).update(pending_values(utcnow()))
    began = datetime.now(UTC)
    with session_scope() as session:
        assert grades.deliver(session, sync_id) == "sent"
    stamp = datetime.fromisoformat(lms.wait_for_scores(item, 3)[-1]["timestamp"])
    assert began <= stamp <= reads[-1]
    time.sleep(0.5)  # nothing else follows
    assert len(lms.scores(item)) == 3
