"""A course's members: its instructors add an instructor (or a learner) by name and remove a
member, never the last instructor; and they open the submissions their learners sent for the
course's assignments from the gradebook, seeing hidden tests only as learners do unless they own
the problem. The fast layer; tests/api/test_course_members.py runs the same on PostgreSQL."""

from __future__ import annotations

import uuid
from typing import Any

import pytest
from fastapi.testclient import TestClient

from judge.service.db.models import Role
from tests.fast.helpers import WRONG, error
from tests.utils.courses import API, join, new_assignment, new_course, new_user, send
from tests.utils.service import REFERENCE, bearer
from tests.utils.service_fixtures import Tokens

pytestmark = pytest.mark.fast

HIDDEN_MARK = "zq-secret-2"  # every hidden expected value of secret_lookup starts with this


def unique(prefix: str) -> str:
    return f"{prefix}-{uuid.uuid4().hex[:6]}"


def person(role: Role = Role.LEARNER) -> tuple[str, str]:
    """A new user's name and token."""
    name = unique(f"fast-{role}")
    return name, new_user(name, role)


def members(client: TestClient, token: str, course_id: int) -> dict[str, dict[str, Any]]:
    course = client.get(f"{API}/courses/{course_id}", headers=bearer(token))
    assert course.status_code == 200, course.text
    return {m["user"]: m for m in course.json()["members"]}


def add(client: TestClient, token: str, course_id: int, name: str, role: str = "instructor") -> Any:
    return client.post(f"{API}/courses/{course_id}/members", headers=bearer(token),
                       json={"name": name, "role": role})


def test_an_instructor_adds_a_second_instructor_by_name(client: TestClient) -> None:
    (first_name, first), (second_name, second) = person(Role.INSTRUCTOR), person(Role.INSTRUCTOR)
    learner_name, learner = person()
    course = new_course(client, first, "Two teachers")
    assert join(client, learner, course["join_code"]).status_code == 200

    # Before: the second instructor does not see the course at all.
    error(client.get(f"{API}/courses/{course['id']}", headers=bearer(second)), 404, "not_found")
    added = add(client, first, course["id"], f"  {second_name} ")
    assert added.status_code == 200, added.text
    assert [(m["user"], m["role"]) for m in added.json()["members"]] == [
        *sorted([(first_name, "instructor"), (second_name, "instructor")]), (learner_name, "learner")]
    # After: they teach it (a gradebook, an assignment of their own) and adding again changes nothing.
    week = new_assignment(client, second, course["id"], ["secret_lookup"])
    assert client.get(f"{API}/assignments/{week['id']}/gradebook", headers=bearer(second)).status_code == 200
    assert add(client, second, course["id"], second_name).json()["members"] == added.json()["members"]
    assert {c["id"] for c in client.get(f"{API}/courses", headers=bearer(second)).json()} >= {course["id"]}

    # Only the course's instructors add; the names must be of instructors, and of someone.
    error(add(client, learner, course["id"], learner_name), 403, "forbidden")
    stranger_name, stranger = person(Role.INSTRUCTOR)
    error(add(client, stranger, course["id"], stranger_name), 404, "not_found")
    assert error(add(client, first, course["id"], learner_name), 422, "invalid_input").startswith(
        f"name: {learner_name!r} is a learner")
    assert error(add(client, first, course["id"], "nobody-at-all"), 422, "invalid_input") == (
        "name: there is no user named 'nobody-at-all'")
    error(add(client, first, course["id"], learner_name, "teacher"), 422, "invalid_input")
    error(add(client, first, course["id"], ""), 422, "invalid_input")
    # A learner may be added by name as a learner too.
    other_name, _ = person()
    assert add(client, first, course["id"], other_name, "learner").json()["members"][-1]["user"] in (
        other_name, learner_name)
    assert members(client, first, course["id"])[other_name]["role"] == "learner"


def test_removing_members_keeps_an_instructor(client: TestClient) -> None:
    (first_name, first), (second_name, _) = person(Role.INSTRUCTOR), person(Role.INSTRUCTOR)
    learner_name, learner = person()
    course = new_course(client, first, "Removals")
    assert join(client, learner, course["join_code"]).status_code == 200
    week = new_assignment(client, first, course["id"], ["secret_lookup"])
    assert send(client, learner, WRONG, week["id"]).status_code == 202
    people = members(client, first, course["id"])

    def remove(token: str, user_id: int) -> Any:
        return client.delete(f"{API}/courses/{course['id']}/members/{user_id}", headers=bearer(token))

    # The last instructor stays, removed or demoted.
    last = remove(first, people[first_name]["user_id"])
    assert "last instructor" in error(last, 409, "last_instructor")
    error(add(client, first, course["id"], first_name, "learner"), 409, "last_instructor")
    error(remove(learner, people[first_name]["user_id"]), 403, "forbidden")
    error(remove(first, 2**62), 404, "not_found")

    # A learner removed: out of the members and the gradebook; their submission stays theirs.
    gradebook = f"{API}/assignments/{week['id']}/gradebook"
    assert [r["user"] for r in client.get(gradebook, headers=bearer(first)).json()["rows"]] == [learner_name]
    assert remove(first, people[learner_name]["user_id"]).status_code == 204
    assert learner_name not in members(client, first, course["id"])
    assert client.get(gradebook, headers=bearer(first)).json()["rows"] == []
    error(client.get(f"{API}/courses/{course['id']}", headers=bearer(learner)), 404, "not_found")
    assert client.get(f"{API}/submissions", headers=bearer(learner)).json()["total"] == 1

    # With a second instructor, the first may go (even themselves), and then cannot act.
    second_id = add(client, first, course["id"], second_name).json()["members"]
    second_id = next(m["user_id"] for m in second_id if m["user"] == second_name)
    assert remove(first, people[first_name]["user_id"]).status_code == 204
    error(client.get(f"{API}/courses/{course['id']}", headers=bearer(first)), 404, "not_found")
    error(remove(first, second_id), 404, "not_found")


def test_a_course_instructor_opens_their_learners_submissions(client: TestClient, tokens: Tokens) -> None:
    """The problem (secret_lookup) is not the course instructor's: its hidden tests stay hidden."""
    _, teacher = person(Role.INSTRUCTOR)
    learner_name, learner = person()
    course = new_course(client, teacher, "Reading submissions")
    assert join(client, learner, course["join_code"]).status_code == 200
    week = new_assignment(client, teacher, course["id"], ["secret_lookup"])
    wrong = send(client, learner, WRONG, week["id"]).json()["id"]
    right = send(client, learner, REFERENCE, week["id"]).json()["id"]
    again = send(client, learner, WRONG, week["id"]).json()["id"]
    outside = send(client, learner, REFERENCE, None).json()["id"]  # not for the assignment

    cell = client.get(f"{API}/assignments/{week['id']}/gradebook", headers=bearer(teacher)).json()["rows"][0]["cells"][0]
    assert cell["submission"] == right  # the first accepted one, not the latest
    for submission in (wrong, right, again):
        seen = client.get(f"{API}/submissions/{submission}", headers=bearer(teacher))
        assert seen.status_code == 200, seen.text
        # Exactly what the learner sees: hidden tests as an aggregate, no hidden value.
        assert seen.json() == client.get(f"{API}/submissions/{submission}", headers=bearer(learner)).json()
        shown = seen.json()
        assert HIDDEN_MARK not in str(shown["tests"]) + str(shown["hidden"]) and shown["user"] == learner_name
        assert all(t["visibility"] != "hidden" for t in shown["tests"]) and shown["hidden"]["total"] == 3
    error(client.get(f"{API}/submissions/{outside}", headers=bearer(teacher)), 404, "not_found")
    listed = {s["id"] for s in client.get(f"{API}/submissions", headers=bearer(teacher)).json()["items"]}
    assert {wrong, right, again} <= listed and outside not in listed

    # Nobody else gains anything: another instructor, another learner of the course.
    _, classmate = person()
    assert join(client, classmate, course["join_code"]).status_code == 200
    for token in (tokens.other_instructor, classmate):
        error(client.get(f"{API}/submissions/{right}", headers=bearer(token)), 404, "not_found")
    # A course instructor who is made a learner keeps no course power.
    demoted_name, demoted = person(Role.INSTRUCTOR)
    add(client, teacher, course["id"], demoted_name)
    assert client.get(f"{API}/submissions/{right}", headers=bearer(demoted)).status_code == 200
    changed = client.patch(f"{API}/users/{members(client, teacher, course['id'])[demoted_name]['user_id']}",
                           headers=bearer(tokens.admin), json={"role": "learner"})
    assert changed.status_code == 200, changed.text
    error(client.get(f"{API}/submissions/{right}", headers=bearer(demoted)), 404, "not_found")
    # The owner of a problem sees its hidden tests in full, as before.
    owned = client.get(f"{API}/submissions/{right}", headers=bearer(tokens.admin)).json()
    assert HIDDEN_MARK in str(owned["tests"])
