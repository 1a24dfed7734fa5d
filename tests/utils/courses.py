"""Helpers for tests of courses and assignments over HTTP (the unit layer and the real stack)."""

from __future__ import annotations

import csv
import io
from datetime import UTC, datetime, timedelta, timezone
from typing import Any

import httpx
from fastapi.testclient import TestClient

from service.db.models import Role
from service.db.session import session_scope
from service.users import create_user
from tests.utils.service import bearer

API = "/api/v1"
Client = TestClient | httpx.Client
PLUS_TWO = timezone(timedelta(hours=2))


def at(hours: float) -> str:
    """A time ``hours`` from now (negative: in the past), ISO 8601 with an offset of +02:00, so
    that every test also checks the conversion to UTC."""
    return (datetime.now(UTC) + timedelta(hours=hours)).astimezone(PLUS_TWO).isoformat()


def new_user(name: str, role: Role = Role.LEARNER) -> str:
    """A user of the service's database; its token."""
    with session_scope() as session:
        return create_user(session, name, role)[1]


def new_course(client: Client, token: str, title: str = "Metrics 101") -> dict[str, Any]:
    response = client.post(f"{API}/courses", headers=bearer(token), json={"title": title})
    assert response.status_code == 201, response.text
    body: dict[str, Any] = response.json()
    return body


def join(client: Client, token: str, code: str) -> httpx.Response:
    return client.post(f"{API}/courses/join", headers=bearer(token), json={"code": code})


def invite(client: Client, token: str, course_id: int, name: str, role: str = "learner") -> httpx.Response:
    """An instructor names a user for the course (POST /courses/{id}/members): an invitation
    (202), or for a member already, the role at once (200)."""
    return client.post(f"{API}/courses/{course_id}/members", headers=bearer(token),
                       json={"name": name, "role": role})


def my_invitations(client: Client, token: str) -> list[dict[str, Any]]:
    response = client.get(f"{API}/me/invitations", headers=bearer(token))
    assert response.status_code == 200, response.text
    found: list[dict[str, Any]] = response.json()
    return found


def accept_invitation(client: Client, token: str, course_id: int) -> dict[str, Any]:
    """The invitee accepts their pending invitation to ``course_id``; the course as they now see it."""
    invitation = next(i for i in my_invitations(client, token) if i["course"]["id"] == course_id)
    response = client.post(f"{API}/me/invitations/{invitation['id']}/accept", headers=bearer(token))
    assert response.status_code == 200, response.text
    body: dict[str, Any] = response.json()
    return body


def add_member(client: Client, token: str, course_id: int, name: str, invitee: str,
               role: str = "instructor") -> dict[str, Any]:
    """Invite ``name`` and accept as them (``invitee`` is their token): a member; the course."""
    response = invite(client, token, course_id, name, role)
    assert response.status_code == 202, response.text
    return accept_invitation(client, invitee, course_id)


def assignment_body(problems: list[str], opens: float = -1, due: float = 24, policy: str = "accept",
                    title: str = "Week 1", held: bool = False) -> dict[str, Any]:
    return {"title": title, "opens_at": at(opens), "due_at": at(due), "late_policy": policy,
            "problems": problems, "grades_held": held}


def new_assignment(client: Client, token: str, course_id: int, problems: list[str],
                   **kwargs: Any) -> dict[str, Any]:
    response = client.post(f"{API}/courses/{course_id}/assignments", headers=bearer(token),
                           json=assignment_body(problems, **kwargs))
    assert response.status_code == 201, response.text
    body: dict[str, Any] = response.json()
    return body


def send(client: Client, token: str, code: str, assignment: int | None, problem: str = "secret_lookup",
         mode: str = "submit", **headers: str) -> httpx.Response:
    body: dict[str, Any] = {"problem": problem, "code": code, "mode": mode}
    if assignment is not None:
        body["assignment"] = assignment
    return client.post(f"{API}/submissions", headers={**bearer(token), **headers}, json=body)


def csv_rows(text: str) -> list[list[str]]:
    return list(csv.reader(io.StringIO(text, newline="")))
