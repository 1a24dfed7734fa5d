"""Notifications over HTTP: a learner is told of feedback, a regrade's answer and released grades
(once each), reads them, marks them read (never another's), keeps the newest 200; and sets where
they are e-mailed, with a bad address refused and saying why."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from service import notifications
from service.db.models import EmailState, Notification, NotificationKind, User
from service.db.session import session_scope
from tests.unit.service.helpers import SUBMISSIONS, WRONG, error
from tests.unit.service.test_assignment_credit import Class
from tests.utils.courses import API, send
from tests.utils.service import bearer


@pytest.fixture
def room(client: TestClient) -> Class:
    return Class(client)


def inbox(room: Class, learner: str = "ann", **params: Any) -> dict[str, Any]:
    response = room.client.get(f"{API}/me/notifications", headers=bearer(room.tokens[learner]), params=params)
    assert response.status_code == 200, response.text
    body: dict[str, Any] = response.json()
    return body


def test_feedback_and_a_regrade_answer_are_told_once_each(room: Class) -> None:
    room.assignment()
    sent = send(room.client, room.tokens["ann"], WRONG, None).json()
    teacher = bearer(room.teacher)
    assert room.client.post(f"{SUBMISSIONS}/{sent['id']}/comments", headers=teacher,
                            json={"body": "Look at test 2.", "line": 1}).status_code == 201
    assert room.client.put(f"{SUBMISSIONS}/{sent['id']}/score", headers=teacher,
                           json={"score": 0.5, "reason": "partly right"}).status_code == 200
    asked = room.client.post(f"{SUBMISSIONS}/{sent['id']}/regrade-requests", headers=bearer(room.tokens["ann"]),
                             json={"reason": "test 2 is ambiguous"}).json()
    assert room.client.post(f"{SUBMISSIONS}/{sent['id']}/regrade-requests/{asked['id']}/answer", headers=teacher,
                            json={"answer": "Agreed.", "score": 0.8}).status_code == 200
    box = inbox(room)
    assert (box["unread"], box["total"]) == (3, 3)
    assert [(n["kind"], n["text"], n["link"]) for n in box["items"]] == [
        ("regrade_answer", f"Your regrade request on submission {sent['id']} (secret_lookup) was answered: "
                           "score changed", f"/submissions/{sent['id']}"),
        ("feedback", f"Your score on submission {sent['id']} (secret_lookup) was changed", f"/submissions/{sent['id']}"),
        ("feedback", f"New feedback on your submission {sent['id']} (secret_lookup)", f"/submissions/{sent['id']}")]
    assert inbox(room, "bob")["total"] == 0  # a classmate is told nothing
    # Not configured for e-mail (no JUDGE_SMTP_HOST): nothing is queued to be sent.
    with session_scope() as session:
        states = {n.email_state for n in session.query(Notification).filter(
            Notification.id.in_([n["id"] for n in box["items"]]))}
    assert states == {EmailState.NONE.value}


def test_marked_read_one_or_all_and_never_anothers(room: Class) -> None:
    with session_scope() as session:
        ann, bob = (session.query(User).filter_by(name=room.names[key]).one() for key in ("ann", "bob"))
        for index in range(3):
            notifications.notify(session, [ann, bob], NotificationKind.FEEDBACK, f"note {index}", "/submissions")
        session.commit()
    first = inbox(room)["items"][0]
    bobs = inbox(room, "bob")["items"]
    read = room.client.post(f"{API}/me/notifications/read", headers=bearer(room.tokens["ann"]),
                            json={"ids": [first["id"], bobs[0]["id"]]})
    assert read.json() == {"marked": 1}
    assert inbox(room)["unread"] == 2 and inbox(room, "bob")["unread"] == 3
    assert room.client.post(f"{API}/me/notifications/read", headers=bearer(room.tokens["ann"]),
                            json={}).json() == {"marked": 2}
    assert inbox(room)["unread"] == 0 and all(n["read"] for n in inbox(room)["items"])
    for ids in (list(range(1, 202)), [2**63], [0]):
        error(room.client.post(f"{API}/me/notifications/read", headers=bearer(room.tokens["ann"]),
                               json={"ids": ids}), 422)
    page = inbox(room, limit=1, offset=1)
    assert [n["text"] for n in page["items"]] == ["note 1"] and page["total"] == 3


def test_a_user_keeps_the_newest_200(room: Class) -> None:
    with session_scope() as session:
        ann = session.query(User).filter_by(name=room.names["ann"]).one()
        for index in range(notifications.MAX_KEPT + 5):
            notifications.notify(session, [ann], NotificationKind.FEEDBACK, f"note {index}", "/submissions")
        session.commit()
    box = inbox(room, limit=1)
    assert box["total"] == notifications.MAX_KEPT
    assert box["items"][0]["text"] == f"note {notifications.MAX_KEPT + 4}"
    assert inbox(room, offset=notifications.MAX_KEPT - 1)["items"][0]["text"] == "note 5"


def test_a_text_is_one_line_and_bounded(room: Class) -> None:
    with session_scope() as session:
        ann = session.query(User).filter_by(name=room.names["ann"]).one()
        notifications.notify(session, [ann], NotificationKind.GRADES_RELEASED,
                             "Grades released:\r\nBcc: eve@example.org\x00" + "x" * 400, "/courses")
        session.commit()
    [item] = inbox(room)["items"]
    assert item["text"].startswith("Grades released: Bcc: eve@example.org\\x00x")
    assert "\n" not in item["text"] and "\r" not in item["text"] and len(item["text"]) == notifications.MAX_TEXT


@pytest.mark.parametrize("address", ["ada", "ada@localhost", "ada@example.org, eve@example.org",
                                     "ada@example.org\r\nBcc: eve@example.org", "Ada <ada@example.org>",
                                     "adé@example.org", "ada\x00@example.org", "ada\x7f@example.org",
                                     "a" * 250 + "@x.org"])
def test_a_bad_address_is_refused_and_says_why(room: Class, address: str) -> None:
    response = room.client.put(f"{API}/me/email", headers=bearer(room.tokens["ann"]),
                               json={"email": address, "email_notifications": True})
    message = error(response, 422, "invalid_input")
    assert message.startswith(("email: one address such as ada@example.org",
                               "email: String should have at most 254 characters")), message
    me = room.client.get(f"{API}/me", headers=bearer(room.tokens["ann"])).json()
    assert me["email"] is None  # nothing changed


def test_an_address_is_set_changed_and_removed(room: Class) -> None:
    token = bearer(room.tokens["ann"])
    set_ = room.client.put(f"{API}/me/email", headers=token,
                           json={"email": "  ann@example.org ", "email_notifications": False})
    assert set_.status_code == 200, set_.text
    assert (set_.json()["email"], set_.json()["email_notifications"]) == ("ann@example.org", False)
    cleared = room.client.put(f"{API}/me/email", headers=token, json={"email": "", "email_notifications": True})
    assert (cleared.json()["email"], cleared.json()["email_notifications"]) == (None, True)
