"""Notification e-mails end to end: an instructor's feedback reaches the learner's address as a
real SMTP message, sent by the webhook worker (`judge webhook-worker`'s command) to an SMTP
server on 127.0.0.1 (aiosmtpd) that the test runs; a server that refuses first gets the same
message again after the back-off; a user who opted out, or who had the most e-mails an hour
allows, is not sent one, and the pages show every notification all the same."""

from __future__ import annotations

import email
import email.policy
import json
import subprocess
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from email.message import EmailMessage
from pathlib import Path

import pytest
from aiosmtpd.controller import Controller
from aiosmtpd.smtp import SMTP, Envelope, Session
from fastapi.testclient import TestClient

from service.cli import webhook_worker_command
from service.db.models import Notification, Role, User
from service.db.session import session_scope
from service.settings import get_settings
from tests.utils.courses import API, join, new_assignment, new_course, new_user, send
from tests.utils.service import bearer, wait_done
from tests.utils.service_fixtures import _started, _stopped, free_port

PUBLIC_URL = "https://judge.example.test"
PER_HOUR = 3
WRONG = "def lookup(key):\n    return 'nope'\n"


@dataclass
class Mailbox:
    """What the SMTP server took, and how many of the next messages it refuses (451) first."""

    port: int
    refuse: int = 0
    refused: int = 0
    messages: list[tuple[Envelope, EmailMessage]] = field(default_factory=list)
    arrived: threading.Condition = field(default_factory=threading.Condition)

    async def handle_DATA(self, server: SMTP, session: Session, envelope: Envelope) -> str:  # aiosmtpd's name
        with self.arrived:
            if self.refuse:
                self.refuse -= 1
                self.refused += 1
                return "451 4.3.0 try again later"
            raw = envelope.content if isinstance(envelope.content, bytes) else b""
            parsed = email.message_from_bytes(raw, policy=email.policy.default)
            assert isinstance(parsed, EmailMessage)
            self.messages.append((envelope, parsed))
            self.arrived.notify_all()
        return "250 OK"

    def to(self, address: str, count: int, timeout: float = 60) -> list[EmailMessage]:
        """The messages to ``address``, once there are ``count`` of them."""
        def mine() -> list[EmailMessage]:
            return [message for envelope, message in self.messages if address in envelope.rcpt_tos]

        with self.arrived:
            assert self.arrived.wait_for(lambda: len(mine()) >= count, timeout), \
                f"{len(mine())} of {count} e-mails to {address} arrived"
            return mine()


@pytest.fixture(scope="module")
def mailbox() -> Iterator[Mailbox]:
    box = Mailbox(port=free_port())
    controller = Controller(box, hostname="127.0.0.1", port=box.port)
    controller.start()
    try:
        yield box
    finally:
        controller.stop()


@pytest.fixture(scope="module")
def mail_worker(client: TestClient, mailbox: Mailbox) -> Iterator[subprocess.Popen[bytes]]:
    """The API (this process) and a webhook worker, both set for the mailbox's SMTP server."""
    settings = {"JUDGE_SMTP_HOST": "127.0.0.1", "JUDGE_SMTP_PORT": str(mailbox.port),
                "JUDGE_SMTP_FROM": "judge@judge.example.test", "JUDGE_PUBLIC_URL": PUBLIC_URL,
                "JUDGE_EMAIL_BACKOFF_SECONDS": json.dumps([0.5]), "JUDGE_MAX_EMAILS_PER_HOUR": str(PER_HOUR),
                "JUDGE_WEBHOOK_SWEEP_SECONDS": "0.2"}
    with pytest.MonkeyPatch.context() as patch:
        for name, value in settings.items():
            patch.setenv(name, value)
        get_settings.cache_clear()
        process = _started(webhook_worker_command(4), Path(get_settings().data_dir) / "mail-worker.log")
        try:
            yield process
        finally:
            _stopped(process)
    get_settings.cache_clear()


@dataclass
class Room:
    """A course with its instructor, one learner (by name and token) and an open assignment."""

    client: TestClient
    teacher: str
    name: str
    learner: str


def new_room(client: TestClient, tag: str) -> Room:
    stamp = f"{tag}-{time.monotonic_ns()}"
    teacher = new_user(f"mail-teacher-{stamp}", Role.INSTRUCTOR)
    course = new_course(client, teacher, "Mail")
    name = f"mail-ann-{stamp}"
    learner = new_user(name)
    assert join(client, learner, course["join_code"]).status_code == 200
    new_assignment(client, teacher, course["id"], ["secret_lookup"])
    return Room(client, teacher, name, learner)


def set_address(room: Room, address: str, on: bool = True) -> None:
    response = room.client.put(f"{API}/me/email", headers=bearer(room.learner),
                               json={"email": address, "email_notifications": on})
    assert response.status_code == 200, response.text


def handed_in(room: Room) -> int:
    sent = send(room.client, room.learner, WRONG, None).json()
    assert sent["assignment"] is not None, sent
    wait_done(room.client, room.learner, sent["id"])
    return int(sent["id"])


def comment(room: Room, submission_id: int, text: str = "Look at test 2 again.") -> None:
    said = room.client.post(f"{API}/submissions/{submission_id}/comments", headers=bearer(room.teacher),
                            json={"body": text})
    assert said.status_code == 201, said.text


def email_states(room: Room) -> list[str]:
    with session_scope() as session:
        user = session.query(User).filter_by(name=room.name).one()
        return [n.email_state for n in
                session.query(Notification).filter_by(user_id=user.id).order_by(Notification.id)]


def settled(room: Room, count: int, timeout: float = 30) -> list[str]:
    """The learner's e-mail states once ``count`` notifications are no longer pending."""
    deadline = time.monotonic() + timeout
    while True:
        found = email_states(room)
        if len(found) >= count and "pending" not in found:
            return found
        assert time.monotonic() < deadline, found
        time.sleep(0.1)


def test_feedback_arrives_as_an_email_with_a_link_and_a_way_out(
        client: TestClient, mailbox: Mailbox, mail_worker: subprocess.Popen[bytes]) -> None:
    room = new_room(client, "feedback")
    set_address(room, "ann@school.example")
    submission_id = handed_in(room)
    comment(room, submission_id)
    [message] = mailbox.to("ann@school.example", 1)
    assert message["To"] == f"{room.name} <ann@school.example>"
    assert message["From"] == "judge@judge.example.test"
    assert message["Subject"] == f"New feedback on your submission {submission_id} (secret_lookup)"
    assert message["Auto-Submitted"] == "auto-generated"
    body = message.get_content()
    assert f"{PUBLIC_URL}/submissions/{submission_id}" in body and f"{PUBLIC_URL}/account" in body
    assert settled(room, 1) == ["sent"]
    # The page shows it too.
    box = client.get(f"{API}/me/notifications", headers=bearer(room.learner)).json()
    assert [n["kind"] for n in box["items"]] == ["feedback"] and box["unread"] == 1


def test_a_server_that_refuses_first_gets_the_same_email_again(
        client: TestClient, mailbox: Mailbox, mail_worker: subprocess.Popen[bytes]) -> None:
    room = new_room(client, "refused")
    set_address(room, "refused@school.example")
    submission_id = handed_in(room)
    mailbox.refuse, mailbox.refused = 1, 0
    comment(room, submission_id)
    [message] = mailbox.to("refused@school.example", 1)
    assert mailbox.refused == 1 and message["Subject"].startswith("New feedback")
    assert settled(room, 1) == ["sent"]
    with session_scope() as session:
        row = session.query(Notification).join(User).filter(User.name == room.name).one()
        assert (row.email_attempts, row.email_error) == (2, None)


def test_an_opt_out_and_the_hourly_cap_keep_emails_from_being_sent(
        client: TestClient, mailbox: Mailbox, mail_worker: subprocess.Popen[bytes]) -> None:
    quiet = new_room(client, "opted-out")
    set_address(quiet, "quiet@school.example", on=False)
    comment(quiet, handed_in(quiet))
    assert settled(quiet, 1) == ["none"]

    busy = new_room(client, "capped")
    set_address(busy, "busy@school.example")
    submission_id = handed_in(busy)
    for index in range(PER_HOUR + 2):
        comment(busy, submission_id, f"point {index}")
    assert sorted(settled(busy, PER_HOUR + 2)) == ["capped"] * 2 + ["sent"] * PER_HOUR
    assert len(mailbox.to("busy@school.example", PER_HOUR)) == PER_HOUR
    assert mailbox.to("quiet@school.example", 0) == []
    box = client.get(f"{API}/me/notifications", headers=bearer(busy.learner)).json()
    assert box["total"] == PER_HOUR + 2  # every one is on the pages
