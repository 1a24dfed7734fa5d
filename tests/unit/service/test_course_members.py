"""A course's members: its instructors invite an instructor (or a learner) by name, who joins
only by accepting (a course holds a bounded number of pending invitations), and remove a member,
never the last instructor; and they open the submissions their learners sent for the
course's assignments from the gradebook, seeing hidden tests only as learners do unless they own
the problem. The unit layer; tests/stack/test_course_membership.py runs the same on PostgreSQL."""

from __future__ import annotations

import uuid
from typing import Any

from fastapi.testclient import TestClient
from sqlalchemy import select

from service.course_invitations import MAX_PENDING
from service.db.models import Role, User
from service.db.session import session_scope
from service.users import create_user
from tests.unit.service.helpers import WRONG, error
from tests.utils.courses import (
    API,
    accept_invitation,
    add_member,
    join,
    my_invitations,
    new_assignment,
    new_course,
    new_user,
    send,
)
from tests.utils.service import REFERENCE, bearer
from tests.utils.service_fixtures import Tokens

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


def members_view(client: TestClient, token: str, course_id: int) -> dict[str, Any]:
    course = client.get(f"{API}/courses/{course_id}", headers=bearer(token))
    assert course.status_code == 200, course.text
    body: dict[str, Any] = course.json()
    return body


def add(client: TestClient, token: str, course_id: int, name: str, role: str = "instructor") -> Any:
    return client.post(f"{API}/courses/{course_id}/members", headers=bearer(token),
                       json={"name": name, "role": role})


def test_a_named_instructor_becomes_a_member_only_by_accepting(client: TestClient) -> None:
    (first_name, first), (second_name, second) = person(Role.INSTRUCTOR), person(Role.INSTRUCTOR)
    learner_name, learner = person()
    course = new_course(client, first, "Two teachers")
    assert join(client, learner, course["join_code"]).status_code == 200

    # Named: an invitation, not a place. The course is still not theirs to see.
    invited = add(client, first, course["id"], f"  {second_name} ")
    assert invited.status_code == 202, invited.text
    assert [(m["user"], m["role"]) for m in invited.json()["course"]["members"]] == [
        (first_name, "instructor"), (learner_name, "learner")]
    assert [(i["user"], i["role"], i["invited_by"]) for i in invited.json()["course"]["invitations"]] == [
        (second_name, "instructor", first_name)]
    error(client.get(f"{API}/courses/{course['id']}", headers=bearer(second)), 404, "not_found")
    assert course["id"] not in {c["id"] for c in client.get(f"{API}/courses", headers=bearer(second)).json()}
    [offer] = my_invitations(client, second)
    assert offer["course"] == {"id": course["id"], "title": "Two teachers"} and offer["role"] == "instructor"
    assert offer["invited_by"] == first_name
    # Nobody else may answer it, and to them it does not exist.
    for token in (first, learner):
        error(client.post(f"{API}/me/invitations/{offer['id']}/accept", headers=bearer(token)), 404, "not_found")
        error(client.post(f"{API}/me/invitations/{offer['id']}/decline", headers=bearer(token)), 404, "not_found")

    # Accepted: they teach it (a gradebook, an assignment of their own), and the offer is gone.
    accepted = client.post(f"{API}/me/invitations/{offer['id']}/accept", headers=bearer(second))
    assert accepted.status_code == 200, accepted.text
    assert accepted.json()["role"] == "instructor" and accepted.json()["invitations"] == []
    assert [(m["user"], m["role"]) for m in accepted.json()["members"]] == [
        *sorted([(first_name, "instructor"), (second_name, "instructor")]), (learner_name, "learner")]
    assert my_invitations(client, second) == []
    error(client.post(f"{API}/me/invitations/{offer['id']}/accept", headers=bearer(second)), 404, "not_found")
    week = new_assignment(client, second, course["id"], ["secret_lookup"])
    assert client.get(f"{API}/assignments/{week['id']}/gradebook", headers=bearer(second)).status_code == 200
    # Naming a member again changes nothing; nobody is invited twice.
    again = add(client, second, course["id"], second_name)
    assert again.status_code == 200 and again.json()["outcome"] == "member", again.text
    assert again.json()["course"]["members"] == accepted.json()["members"]
    assert again.json()["course"]["invitations"] == []

    # Only the course's instructors invite; the names must be of instructors, and of someone.
    error(add(client, learner, course["id"], learner_name), 403, "forbidden")
    stranger_name, stranger = person(Role.INSTRUCTOR)
    error(add(client, stranger, course["id"], stranger_name), 404, "not_found")
    assert error(add(client, first, course["id"], learner_name), 422, "invalid_input").startswith(
        f"name: {learner_name!r} is a learner")
    assert error(add(client, first, course["id"], "nobody-at-all"), 422, "invalid_input") == (
        "name: there is no user named 'nobody-at-all'")
    error(add(client, first, course["id"], learner_name, "teacher"), 422, "invalid_input")
    error(add(client, first, course["id"], ""), 422, "invalid_input")


def test_naming_a_user_answers_what_it_did(client: TestClient) -> None:
    """An old client read 200 as "added"; naming makes an invitation, so it is 202 with the
    invitation, and 200 only for someone already in the course, who takes the role at once."""
    teacher_name, teacher = person(Role.INSTRUCTOR)
    (colleague_name, colleague), (learner_name, learner) = person(Role.INSTRUCTOR), person()
    course = new_course(client, teacher, "What naming does")
    invited = add(client, teacher, course["id"], colleague_name)
    assert invited.status_code == 202, invited.text
    body = invited.json()
    [offer] = my_invitations(client, colleague)
    assert (body["outcome"], body["member"]) == ("invited", None)
    assert {k: body["invitation"][k] for k in ("id", "user", "role", "invited_by")} == {
        "id": offer["id"], "user": colleague_name, "role": "instructor", "invited_by": teacher_name}
    assert colleague_name not in {m["user"] for m in body["course"]["members"]}
    # Named again before answering: the same invitation, with the role named now.
    again = add(client, teacher, course["id"], colleague_name, "learner")
    assert again.status_code == 202 and again.json()["invitation"]["id"] == offer["id"], again.text
    assert again.json()["invitation"]["role"] == "learner"
    # Someone in the course already: the role named is theirs at once, and no invitation.
    assert join(client, learner, course["join_code"]).status_code == 200
    already = add(client, teacher, course["id"], learner_name, "learner")
    assert already.status_code == 200, already.text
    assert (already.json()["outcome"], already.json()["invitation"]) == ("member", None)
    assert {k: already.json()["member"][k] for k in ("user", "role")} == {"user": learner_name, "role": "learner"}
    assert my_invitations(client, learner) == []


def test_a_learner_named_by_an_instructor_chooses(client: TestClient) -> None:
    """Invited as a learner: declined, they stay out; the instructor may withdraw an offer; joined
    by the link, the offer is answered; accepted, they are a learner of the course."""
    teacher_name, teacher = person(Role.INSTRUCTOR)
    (one_name, one), (two_name, two), (three_name, three) = person(), person(), person()
    course = new_course(client, teacher, "Consent")
    for name in (one_name, two_name, three_name):
        assert add(client, teacher, course["id"], name, "learner").status_code == 202
    pending = {i["user"]: i for i in members_view(client, teacher, course["id"])["invitations"]}
    assert set(pending) == {one_name, two_name, three_name}

    # Declined: gone from both sides, and the course stays closed to them.
    [offer] = my_invitations(client, one)
    decline = client.post(f"{API}/me/invitations/{offer['id']}/decline", headers=bearer(one))
    assert decline.status_code == 204, decline.text
    assert my_invitations(client, one) == []
    error(client.get(f"{API}/courses/{course['id']}", headers=bearer(one)), 404, "not_found")
    # Withdrawn by the instructor: gone from the invitee's list; a learner cannot withdraw.
    path = f"{API}/courses/{course['id']}/invitations/{pending[two_name]['id']}"
    error(client.delete(path, headers=bearer(two)), 403, "forbidden")
    assert client.delete(path, headers=bearer(teacher)).status_code == 204
    assert my_invitations(client, two) == []
    error(client.delete(path, headers=bearer(teacher)), 404, "not_found")
    # Joined by the link meanwhile: a learner, and the offer is answered.
    assert join(client, three, course["join_code"]).status_code == 200
    assert my_invitations(client, three) == []
    view = members_view(client, teacher, course["id"])
    assert view["invitations"] == [] and {m["user"] for m in view["members"]} == {teacher_name, three_name}
    # Invited again after declining: accepted this time, a learner of the course.
    assert add(client, teacher, course["id"], one_name, "learner").status_code == 202
    joined = accept_invitation(client, one, course["id"])
    assert joined["role"] == "learner" and joined["members"] is None  # a learner sees no members


def test_a_course_holds_a_bounded_number_of_pending_invitations(client: TestClient) -> None:
    """An instructor cannot offer a place to every user of the judge from one course."""
    _, teacher = person(Role.INSTRUCTOR)
    course = new_course(client, teacher, "Spray")
    names = [unique("fast-spray") for _ in range(MAX_PENDING + 1)]
    with session_scope() as session:
        for name in names:
            create_user(session, name, Role.LEARNER)
    for name in names[:MAX_PENDING]:
        assert add(client, teacher, course["id"], name, "learner").status_code == 202
    refused = add(client, teacher, course["id"], names[-1], "learner")
    assert "pending invitations" in error(refused, 409, "too_many_invitations")
    assert len(members_view(client, teacher, course["id"])["invitations"]) == MAX_PENDING
    # Naming one already invited again still works (a new role), and a withdrawal makes room.
    assert add(client, teacher, course["id"], names[0], "learner").status_code == 202
    first = members_view(client, teacher, course["id"])["invitations"][0]
    assert client.delete(f"{API}/courses/{course['id']}/invitations/{first['id']}",
                         headers=bearer(teacher)).status_code == 204
    assert add(client, teacher, course["id"], names[-1], "learner").status_code == 202


def test_removing_members_keeps_an_instructor(client: TestClient) -> None:
    (first_name, first), (second_name, second) = person(Role.INSTRUCTOR), person(Role.INSTRUCTOR)
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
    error(remove(first, 2**31 - 1), 404, "not_found")  # no such member (2**62 is past the ids: a 422)

    # A learner removed: out of the members and the gradebook; their submission stays theirs.
    gradebook = f"{API}/assignments/{week['id']}/gradebook"
    assert [r["user"] for r in client.get(gradebook, headers=bearer(first)).json()["rows"]] == [learner_name]
    assert remove(first, people[learner_name]["user_id"]).status_code == 204
    assert learner_name not in members(client, first, course["id"])
    assert client.get(gradebook, headers=bearer(first)).json()["rows"] == []
    error(client.get(f"{API}/courses/{course['id']}", headers=bearer(learner)), 404, "not_found")
    assert client.get(f"{API}/submissions", headers=bearer(learner)).json()["total"] == 1

    # With a second instructor, the first may go (even themselves), and then cannot act.
    joined = add_member(client, first, course["id"], second_name, second)["members"]
    second_id = next(m["user_id"] for m in joined if m["user"] == second_name)
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
    outside = send(client, learner, REFERENCE, None, mode="run").json()["id"]  # a run: never for an assignment

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
    add_member(client, teacher, course["id"], demoted_name, demoted)
    assert client.get(f"{API}/submissions/{right}", headers=bearer(demoted)).status_code == 200
    changed = client.patch(f"{API}/users/{members(client, teacher, course['id'])[demoted_name]['user_id']}",
                           headers=bearer(tokens.admin), json={"role": "learner"})
    assert changed.status_code == 200, changed.text
    error(client.get(f"{API}/submissions/{right}", headers=bearer(demoted)), 404, "not_found")
    # The owner of a problem sees its hidden tests in full, as before.
    owned = client.get(f"{API}/submissions/{right}", headers=bearer(tokens.admin)).json()
    assert HIDDEN_MARK in str(owned["tests"])


def test_an_invitation_to_teach_needs_a_teacher_when_accepted(client: TestClient, tokens: Tokens) -> None:
    """Someone made a learner after being invited to teach cannot take the instructor's place."""
    _, teacher = person(Role.INSTRUCTOR)
    invited_name, invited = person(Role.INSTRUCTOR)
    course = new_course(client, teacher, "Demoted meanwhile")
    assert add(client, teacher, course["id"], invited_name).status_code == 202
    [offer] = my_invitations(client, invited)
    with session_scope() as session:
        user = session.scalar(select(User).where(User.name == invited_name))
        assert user is not None
        user.role = Role.LEARNER.value
    refused = client.post(f"{API}/me/invitations/{offer['id']}/accept", headers=bearer(invited))
    assert "only instructors and admins can teach" in error(refused, 422, "invalid_input")
    error(client.get(f"{API}/courses/{course['id']}", headers=bearer(invited)), 404, "not_found")
    assert client.post(f"{API}/me/invitations/{offer['id']}/decline", headers=bearer(invited)).status_code == 204


def test_naming_a_user_tells_outsiders_nothing_about_the_name(client: TestClient) -> None:
    """Only the course's instructors learn whether a name is someone (as adding by name always
    told them); to anyone else an existing and a missing name get the same answer."""
    _, teacher = person(Role.INSTRUCTOR)
    real_name, _ = person()
    course = new_course(client, teacher, "Names")
    _, stranger = person(Role.INSTRUCTOR)
    _, learner = person()
    for token, status in ((stranger, 404), (learner, 403), ("", 401)):
        headers = bearer(token) if token else {}
        answers = [client.post(f"{API}/courses/{course['id']}/members", headers=headers,
                               json={"name": name, "role": "learner"}) for name in (real_name, "nobody-here")]
        assert [a.status_code for a in answers] == [status, status]
        # The same answer but for the id of each request.
        assert answers[0].json()["error"] | {"request_id": ""} == answers[1].json()["error"] | {"request_id": ""}
    assert my_invitations(client, new_user(unique("fast-nobody"))) == []
