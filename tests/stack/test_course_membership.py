"""A course's members through HTTP on the real stack (PostgreSQL, a worker judging in Docker):
who may invite (a member only once the invitee accepts) and remove them, the last instructor
kept, the cap on pending invitations under concurrent invitations, and a course instructor
opening the submissions their learners sent for the course's assignments (hidden tests as
learners see them, since the problem is not theirs), in the detail and in the listing alike."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from fastapi.testclient import TestClient

from service.course_invitations import MAX_PENDING
from service.db.models import Role
from tests.utils.accounts import Account, make_account
from tests.utils.courses import (
    API,
    accept_invitation,
    add_member,
    invite,
    join,
    new_assignment,
    new_course,
    send,
)
from tests.utils.service import REFERENCE, bearer, wait_done
from tests.utils.service_fixtures import Tokens

WRONG = "def lookup(key):\n    return 'zq-secret-1O1'\n"
HIDDEN_MARK = "zq-secret-2"  # every hidden expected value of secret_lookup starts with this
ROLES = ["course_instructor", "other_instructor", "course_learner", "other_learner", "admin", "none"]


def ok(response: Any, status: int = 200) -> Any:
    assert response.status_code == status, response.text
    return response.json() if response.content else None


@pytest.fixture(scope="module")
def world(client: TestClient) -> dict[str, Any]:
    people = {"course_instructor": make_account(Role.INSTRUCTOR, prefix="members-teacher"),
              "other_instructor": make_account(Role.INSTRUCTOR, prefix="members-stranger"),
              "course_learner": make_account(Role.LEARNER, prefix="members-learner"),
              "other_learner": make_account(Role.LEARNER, prefix="members-outsider"),
              "admin": make_account(Role.ADMIN, prefix="members-admin")}
    course = new_course(client, people["course_instructor"].token, "Members")
    assert join(client, people["course_learner"].token, course["join_code"]).status_code == 200
    return {"people": people, "course": course}


def headers(world: dict[str, Any], role: str) -> dict[str, str]:
    return bearer(world["people"][role].token) if role != "none" else {}


# Learners are stopped by their role (403) before the course is looked at; an instructor of
# another course does not see this one (404).
ADD = dict(zip(ROLES, [202, 404, 403, 403, 202, 401], strict=True))
REMOVE = dict(zip(ROLES, [204, 404, 403, 403, 204, 401], strict=True))


@pytest.mark.parametrize("role", ROLES)
def test_who_may_invite_and_remove_members(client: TestClient, world: dict[str, Any], role: str) -> None:
    course = world["course"]["id"]
    newcomer = make_account(Role.INSTRUCTOR, prefix="members-new")
    added = client.post(f"{API}/courses/{course}/members", headers=headers(world, role),
                        json={"name": newcomer.name, "role": "instructor"})
    assert added.status_code == ADD[role], added.text
    if added.status_code == 202:  # an invitation, not yet a member
        assert {"user": newcomer.name, "user_id": newcomer.id, "role": "instructor"}.items() <= next(
            i for i in added.json()["course"]["invitations"] if i["user"] == newcomer.name).items()
        assert newcomer.name not in {m["user"] for m in added.json()["course"]["members"]}
    else:  # nothing about the course leaks
        assert world["course"]["join_code"] not in added.text
        ok(client.post(f"{API}/courses/{course}/members", headers=headers(world, "course_instructor"),
                       json={"name": newcomer.name, "role": "instructor"}), 202)
    assert accept_invitation(client, newcomer.token, course)["role"] == "instructor"
    removed = client.delete(f"{API}/courses/{course}/members/{newcomer.id}", headers=headers(world, role))
    assert removed.status_code == REMOVE[role], removed.text
    names = {m["user"] for m in ok(client.get(f"{API}/courses/{course}",
                                              headers=headers(world, "course_instructor")))["members"]}
    assert (newcomer.name in names) is (removed.status_code != 204)


def test_the_last_instructor_stays(client: TestClient, world: dict[str, Any]) -> None:
    teacher: Account = world["people"]["course_instructor"]
    course = new_course(client, teacher.token, "One teacher")
    path = f"{API}/courses/{course['id']}/members"
    last = client.delete(f"{path}/{teacher.id}", headers=bearer(teacher.token))
    assert last.status_code == 409 and last.json()["error"]["code"] == "last_instructor", last.text
    demoted = client.post(path, headers=bearer(teacher.token), json={"name": teacher.name, "role": "learner"})
    assert demoted.status_code == 409 and demoted.json()["error"]["code"] == "last_instructor", demoted.text
    learner = world["people"]["course_learner"]
    refused = client.post(path, headers=bearer(teacher.token), json={"name": learner.name, "role": "instructor"})
    assert refused.status_code == 422 and refused.json()["error"]["message"].startswith("name: "), refused.text
    second = make_account(Role.INSTRUCTOR, prefix="members-second")
    add_member(client, teacher.token, course["id"], second.name, second.token)
    assert client.delete(f"{path}/{teacher.id}", headers=bearer(teacher.token)).status_code == 204
    assert client.get(f"{API}/courses/{course['id']}", headers=bearer(teacher.token)).status_code == 404
    still = client.delete(f"{path}/{second.id}", headers=bearer(second.token))
    assert still.status_code == 409, still.text


def test_a_course_instructor_opens_their_learners_submissions(client: TestClient, tokens: Tokens,
                                                              world: dict[str, Any]) -> None:
    teacher, learner = world["people"]["course_instructor"], world["people"]["course_learner"]
    week = new_assignment(client, teacher.token, world["course"]["id"], ["secret_lookup"])
    sent = [ok(send(client, learner.token, code, week["id"]), 202)["id"] for code in (WRONG, REFERENCE)]
    outside = ok(send(client, learner.token, REFERENCE, None, mode="run"), 202)["id"]  # never for an assignment
    for submission in (*sent, outside):
        wait_done(client, learner.token, submission)

    book = ok(client.get(f"{API}/assignments/{week['id']}/gradebook", headers=bearer(teacher.token)))
    cell = next(r for r in book["rows"] if r["user"] == learner.name)["cells"][0]
    assert cell["submission"] == sent[1] and cell["accepted"] is True
    for submission in sent:
        seen = ok(client.get(f"{API}/submissions/{submission}", headers=bearer(teacher.token)))
        assert seen == ok(client.get(f"{API}/submissions/{submission}", headers=bearer(learner.token)))
        assert HIDDEN_MARK not in str(seen["tests"]) + str(seen["hidden"])
        assert all(t["visibility"] != "hidden" for t in seen["tests"])
    assert client.get(f"{API}/submissions/{outside}", headers=bearer(teacher.token)).status_code == 404
    listed = {s["id"] for s in ok(client.get(f"{API}/submissions", headers=bearer(teacher.token),
                                             params={"problem": "secret_lookup"}))["items"]}
    assert set(sent) <= listed and outside not in listed
    for role in ("other_instructor", "other_learner"):
        assert client.get(f"{API}/submissions/{sent[1]}", headers=headers(world, role)).status_code == 404
    # The problem's owner (an admin here) still sees every hidden test.
    assert HIDDEN_MARK in str(ok(client.get(f"{API}/submissions/{sent[1]}", headers=bearer(tokens.admin)))["tests"])


def test_concurrent_invitations_keep_to_the_cap(client: TestClient, world: dict[str, Any]) -> None:
    """Invitations sent at once from many connections (PostgreSQL locks the course while it
    counts): the course never holds more than MAX_PENDING, and the one past it hears 409."""
    teacher = world["people"]["course_instructor"]
    course = new_course(client, teacher.token, "Crowded")
    # No passwords: an invitee is named, never signed in, and 105 argon2 hashes took a minute.
    invitees = [make_account(Role.LEARNER, password=None, prefix="members-crowd")
                for _ in range(MAX_PENDING + 5)]
    for invitee in invitees[:MAX_PENDING - 3]:
        ok(invite(client, teacher.token, course["id"], invitee.name), 202)

    def one(invitee: Account) -> int:
        return int(invite(client, teacher.token, course["id"], invitee.name).status_code)

    with ThreadPoolExecutor(max_workers=8) as pool:
        statuses = sorted(pool.map(one, invitees[MAX_PENDING - 3:]))
    assert statuses == [202] * 3 + [409] * 5, statuses
    pending = ok(client.get(f"{API}/courses/{course['id']}", headers=bearer(teacher.token)))["invitations"]
    assert len(pending) == MAX_PENDING
