"""Issue 11's instructor and admin routes, each role against each route, over HTTP on the real
stack (PostgreSQL, the session worker): authoring (copy, sharing, a version's files and report,
rejudge progress, preview), insight (statistics, charts, similarity), courses (detail, join code,
assignments, gradebooks) and the admin's user routes. Without credentials every route answers
401; a learner never gets past 403/404 and never reads what the route guards. Then CSRF: with a
session cookie, every state-changing route refuses a request without the session's token.

The cast: ``owner`` authors the problem and teaches course A (``learner`` is its learner);
``teacher`` teaches course B, which assigns the same problem (``learner`` and ``outsider`` take
it); ``outsider`` is in no course of the owner's; ``other_instructor`` has nothing to do with
any of it; ``admin`` may do everything.
"""

from __future__ import annotations

import re
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from fastapi.testclient import TestClient

from service.db.models import Role
from tests.utils.accounts import Account, forget_failures, make_account, signed_in
from tests.utils.courses import assignment_body
from tests.utils.service import REFERENCE, bearer, wait_done, wait_version
from tests.utils.service_fixtures import problem_files

API = "/api/v1"
HIDDEN_MARK = "zq-secret-2"  # every hidden expected value of the secret_lookup fixture starts with this
ROLES = [None, "learner", "outsider", "other_instructor", "teacher", "owner", "admin"]
CHANGES = {"POST", "PUT", "PATCH", "DELETE"}


@dataclass(frozen=True)
class World:
    people: dict[str, Account]
    slug: str
    version: str
    course_a: int
    course_b: int
    assignment: int  # in course A
    submissions: tuple[int, int]  # the learner's and the outsider's, of the problem


def unique(prefix: str) -> str:
    return f"{prefix}_{uuid.uuid4().hex[:8]}"


def ok(response: Any, status: int) -> dict[str, Any]:
    assert response.status_code == status, response.text
    body: dict[str, Any] = response.json() if response.content else {}
    return body


@pytest.fixture(scope="module")
def world(client: TestClient) -> World:
    people = {
        "learner": make_account(Role.LEARNER, prefix="i11-learner"),
        "outsider": make_account(Role.LEARNER, prefix="i11-outsider"),
        "other_instructor": make_account(Role.INSTRUCTOR, prefix="i11-stranger"),
        "teacher": make_account(Role.INSTRUCTOR, prefix="i11-teacher"),
        "owner": make_account(Role.INSTRUCTOR, prefix="i11-owner"),
        "admin": make_account(Role.ADMIN, prefix="i11-admin"),
    }
    owner, teacher = bearer(people["owner"].token), bearer(people["teacher"].token)
    slug = unique("authz")
    ok(client.post(f"{API}/problems", headers=owner, json={"slug": slug, "files": problem_files(slug)}), 201)
    version = wait_version(client, people["owner"].token, slug)
    assert version["status"] == "valid", version
    ok(client.post(f"{API}/problems/{slug}/publish", headers=owner, json={}), 200)
    # Before any submission, so that nothing is judged twice: the progress route has a rejudge to show.
    ok(client.post(f"{API}/problems/{slug}/rejudge", headers=owner), 200)

    course_a = ok(client.post(f"{API}/courses", headers=owner, json={"title": "Owner's course"}), 201)
    assignment = ok(client.post(f"{API}/courses/{course_a['id']}/assignments", headers=owner,
                                json=assignment_body([slug])), 201)
    course_b = ok(client.post(f"{API}/courses", headers=teacher, json={"title": "Teacher's course"}), 201)
    week_b = ok(client.post(f"{API}/courses/{course_b['id']}/assignments", headers=teacher,
                            json=assignment_body([slug])), 201)
    for who, code in [("learner", course_a["join_code"]), ("learner", course_b["join_code"]),
                      ("outsider", course_b["join_code"])]:
        ok(client.post(f"{API}/courses/join", headers=bearer(people[who].token), json={"code": code}), 200)

    made = []
    for who in ("learner", "outsider"):  # handed in for course B's assignment: its teacher may compare them
        sent = ok(client.post(f"{API}/submissions", headers=bearer(people[who].token),
                              json={"problem": slug, "code": REFERENCE, "mode": "submit",
                                    "assignment": week_b["id"]}), 202)
        made.append(sent["id"])
    for who, submission in zip(("learner", "outsider"), made, strict=True):
        assert wait_done(client, people[who].token, submission)["verdict"] == "accepted"
    return World(people, slug, version["version"], course_a["id"], course_b["id"], assignment["id"],
                 (made[0], made[1]))


def headers(world: World, role: str | None) -> dict[str, str]:
    return bearer(world.people[role].token) if role else {}


def expect(role: str | None, allowed: dict[str, int], denied: dict[str, int]) -> int:
    """The status ``role`` should get: 401 without credentials, else from the two tables."""
    if role is None:
        return 401
    return allowed.get(role) or denied[role]


LEARNERS_403 = {"learner": 403, "outsider": 403}
# Routes behind the instructor gate whose target is the owner's problem.
OWNER_ONLY = {**LEARNERS_403, "other_instructor": 403, "teacher": 403}
# Reading insight: the problem's owner, admins, and instructors of a course that assigns it.
INSIGHT = {"owner": 200, "admin": 200, "teacher": 200}
# Managing course A: its instructor and admins; other instructors do not see it, learners are
# stopped by their role before the course is looked at.
COURSE_A_MANAGERS_DENIED = {**LEARNERS_403, "other_instructor": 404, "teacher": 404}


# ---------------------------------------------------------------------------------------------
# Authoring


@pytest.mark.parametrize("role", ROLES)
def test_copying_a_problem(client: TestClient, world: World, role: str | None) -> None:
    new_slug = unique(f"copy_{role or 'anonymous'}")
    response = client.post(f"{API}/problems/{world.slug}/copy", headers=headers(world, role),
                           json={"new_slug": new_slug})
    assert response.status_code == expect(role, {"owner": 201, "admin": 201}, OWNER_ONLY), response.text
    made = client.get(f"{API}/problems/{new_slug}", headers=headers(world, "admin"))
    assert made.status_code == (200 if response.status_code == 201 else 404), made.text


@pytest.mark.parametrize("role", ROLES)
def test_sharing_a_problem(client: TestClient, world: World, role: str | None) -> None:
    # false, the default: the problem stays unshared for the copy test's other instructor.
    response = client.patch(f"{API}/problems/{world.slug}", headers=headers(world, role), json={"shareable": False})
    assert response.status_code == expect(role, {"owner": 200, "admin": 200}, OWNER_ONLY), response.text
    if response.status_code == 200:
        assert response.json()["shareable"] is False and HIDDEN_MARK in str(response.json()["hidden_tests"])
    else:
        assert HIDDEN_MARK not in response.text


@pytest.mark.parametrize("role", ROLES)
def test_running_code_in_the_preview(client: TestClient, world: World, role: str | None) -> None:
    response = client.post(f"{API}/problems/{world.slug}/versions/{world.version}/runs",
                           headers=headers(world, role), json={"code": REFERENCE})
    # As for the preview itself: to anyone but the owner (and admins) the versions do not exist.
    denied = {"learner": 404, "outsider": 404, "other_instructor": 404, "teacher": 404}
    assert response.status_code == expect(role, {"owner": 202, "admin": 202}, denied), response.text
    if response.status_code == 202:
        assert response.json()["mode"] == "run"


@pytest.mark.parametrize("role", ROLES)
def test_asking_what_a_rejudge_would_do(client: TestClient, world: World, role: str | None) -> None:
    response = client.get(f"{API}/problems/{world.slug}/rejudge", headers=headers(world, role))
    assert response.status_code == expect(role, {"owner": 200, "admin": 200}, OWNER_ONLY), response.text


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("what", ["files", "detail"])
def test_reading_a_version(client: TestClient, world: World, role: str | None, what: str) -> None:
    path = f"{API}/problems/{world.slug}/versions/{world.version}" + ("/files" if what == "files" else "")
    response = client.get(path, headers=headers(world, role))
    assert response.status_code == expect(role, {"owner": 200, "admin": 200}, OWNER_ONLY), response.text
    if response.status_code == 200 and what == "files":
        assert HIDDEN_MARK in response.json()["files"]["tests/hidden.json"]
    if response.status_code == 200 and what == "detail":
        assert response.json()["validation"]["hidden_tests"] == 3
    if response.status_code != 200:
        assert HIDDEN_MARK not in response.text


@pytest.mark.parametrize("role", ROLES)
def test_rejudge_progress(client: TestClient, world: World, role: str | None) -> None:
    response = client.get(f"{API}/problems/{world.slug}/rejudges/latest", headers=headers(world, role))
    assert response.status_code == expect(role, {"owner": 200, "admin": 200}, OWNER_ONLY), response.text
    if response.status_code == 200:
        assert response.json()["total"] == 0


@pytest.mark.parametrize("role", ROLES)
def test_previewing_a_version(client: TestClient, world: World, role: str | None) -> None:
    response = client.get(f"{API}/problems/{world.slug}/preview?version={world.version}",
                          headers=headers(world, role))
    # A preview is the owner's alone: anyone else hears that there is nothing to preview.
    denied = {"learner": 404, "outsider": 404, "other_instructor": 404, "teacher": 404}
    assert response.status_code == expect(role, {"owner": 200, "admin": 200}, denied), response.text
    assert (HIDDEN_MARK in response.text) is (response.status_code == 200)


# ---------------------------------------------------------------------------------------------
# Insight


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("what", ["insight", "insight/scores.svg", "insight/failing.svg", "similarity"])
def test_insight(client: TestClient, world: World, role: str | None, what: str) -> None:
    response = client.get(f"{API}/problems/{world.slug}/{what}", headers=headers(world, role))
    assert response.status_code == expect(role, INSIGHT, {**OWNER_ONLY, "teacher": 200}), response.text
    if response.status_code != 200:
        assert world.people["learner"].name not in response.text
        return
    if what.endswith(".svg"):
        assert response.headers["content-type"].startswith("image/svg+xml")
    elif what == "insight":
        assert response.json()["acceptance"]["accepted"] == 2  # both learners, in the owner's view and B's
    else:
        pairs = response.json()["pairs"]
        names = {side["user"] for pair in pairs for side in (pair["a"], pair["b"])}
        assert names == {world.people["learner"].name, world.people["outsider"].name}, pairs


@pytest.mark.parametrize("role", ROLES)
def test_side_by_side(client: TestClient, world: World, role: str | None) -> None:
    a, b = world.submissions
    response = client.get(f"{API}/similarity/{a}/{b}", headers=headers(world, role))
    # Learners are stopped by their role; to another instructor the submissions do not exist.
    denied = {**LEARNERS_403, "other_instructor": 404}
    assert response.status_code == expect(role, INSIGHT, denied), response.text
    # The two learners' code is shown to those who may compare it, and to no one else.
    if response.status_code == 200:
        assert response.json()["a"]["code"] == response.json()["b"]["code"] == REFERENCE
    else:
        assert "def lookup" not in response.text


# ---------------------------------------------------------------------------------------------
# Courses and assignments


@pytest.mark.parametrize("role", ROLES)
def test_reading_a_course(client: TestClient, world: World, role: str | None) -> None:
    response = client.get(f"{API}/courses/{world.course_a}", headers=headers(world, role))
    denied = {"outsider": 404, "other_instructor": 404, "teacher": 404}
    assert response.status_code == expect(role, {"owner": 200, "admin": 200, "learner": 200}, denied), response.text
    if response.status_code == 200:
        body = response.json()
        staff = role in ("owner", "admin")
        # Its learners see the course and its assignments, never its members or join code.
        assert bool(body.get("members")) is staff and bool(body.get("join_code")) is staff, body
    else:
        assert "Owner's course" not in response.text


@pytest.mark.parametrize("role", ROLES)
def test_rotating_the_join_code(client: TestClient, world: World, role: str | None) -> None:
    before = client.get(f"{API}/courses/{world.course_a}", headers=headers(world, "owner")).json()["join_code"]
    response = client.post(f"{API}/courses/{world.course_a}/join-code", headers=headers(world, role))
    assert response.status_code == expect(role, {"owner": 200, "admin": 200}, COURSE_A_MANAGERS_DENIED), response.text
    after = client.get(f"{API}/courses/{world.course_a}", headers=headers(world, "owner")).json()["join_code"]
    assert (after != before) is (response.status_code == 200)
    if response.status_code != 200:
        assert before not in response.text


@pytest.mark.parametrize("role", ROLES)
def test_creating_an_assignment(client: TestClient, world: World, role: str | None) -> None:
    title = unique("made by")
    response = client.post(f"{API}/courses/{world.course_a}/assignments", headers=headers(world, role),
                           json=assignment_body([world.slug], title=title))
    assert response.status_code == expect(role, {"owner": 201, "admin": 201}, COURSE_A_MANAGERS_DENIED), response.text
    listed = client.get(f"{API}/courses/{world.course_a}", headers=headers(world, "owner")).json()["assignments"]
    assert any(a["title"] == title for a in listed) is (response.status_code == 201)


@pytest.mark.parametrize("role", ROLES)
def test_reading_an_assignment(client: TestClient, world: World, role: str | None) -> None:
    response = client.get(f"{API}/assignments/{world.assignment}", headers=headers(world, role))
    denied = {"outsider": 404, "other_instructor": 404, "teacher": 404}
    assert response.status_code == expect(role, {"owner": 200, "admin": 200, "learner": 200}, denied), response.text


@pytest.mark.parametrize("role", ROLES)
def test_updating_an_assignment(client: TestClient, world: World, role: str | None) -> None:
    title = unique("renamed by")
    response = client.put(f"{API}/assignments/{world.assignment}", headers=headers(world, role),
                          json=assignment_body([world.slug], title=title))
    assert response.status_code == expect(role, {"owner": 200, "admin": 200}, COURSE_A_MANAGERS_DENIED), response.text
    now = client.get(f"{API}/assignments/{world.assignment}", headers=headers(world, "owner")).json()["title"]
    assert (now == title) is (response.status_code == 200)


@pytest.mark.parametrize("role", ROLES)
def test_deleting_an_assignment(client: TestClient, world: World, role: str | None) -> None:
    doomed = ok(client.post(f"{API}/courses/{world.course_a}/assignments", headers=headers(world, "owner"),
                            json=assignment_body([world.slug], title="doomed")), 201)["id"]
    response = client.delete(f"{API}/assignments/{doomed}", headers=headers(world, role))
    assert response.status_code == expect(role, {"owner": 204, "admin": 204}, COURSE_A_MANAGERS_DENIED), response.text
    still = client.get(f"{API}/assignments/{doomed}", headers=headers(world, "owner")).status_code
    assert still == (404 if response.status_code == 204 else 200)


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("form", ["gradebook", "gradebook.csv"])
def test_reading_the_gradebook(client: TestClient, world: World, role: str | None, form: str) -> None:
    response = client.get(f"{API}/assignments/{world.assignment}/{form}", headers=headers(world, role))
    assert response.status_code == expect(role, {"owner": 200, "admin": 200}, COURSE_A_MANAGERS_DENIED), response.text
    # The learner's own name is in every gradebook of course A; an error never names them.
    assert (world.people["learner"].name in response.text) is (response.status_code == 200)


@pytest.mark.parametrize("role", ROLES)
def test_extensions(client: TestClient, world: World, role: str | None) -> None:
    path = f"{API}/assignments/{world.assignment}/extensions"
    learner = world.people["learner"]
    granted = client.put(f"{path}/{learner.id}", headers=headers(world, role),
                         json={"due_at": "2030-01-01T00:00:00Z", "reason": f"granted by {role}"})
    assert granted.status_code == expect(role, {"owner": 200, "admin": 200}, COURSE_A_MANAGERS_DENIED), granted.text
    listing = client.get(path, headers=headers(world, role))
    assert listing.status_code == expect(role, {"owner": 200, "admin": 200}, COURSE_A_MANAGERS_DENIED), listing.text
    reasons = [e["reason"] for e in client.get(path, headers=headers(world, "owner")).json()]
    assert (f"granted by {role}" in reasons) is (granted.status_code == 200)
    # The learner sees their own extension on the assignment, nobody else's list.
    mine = client.get(f"{API}/assignments/{world.assignment}", headers=headers(world, "learner")).json()
    assert (mine["extension"] is not None) is bool(reasons)
    revoked = client.delete(f"{path}/{learner.id}", headers=headers(world, role))
    expected = {"owner": 204, "admin": 204} if granted.status_code == 200 else {}
    denied = {**COURSE_A_MANAGERS_DENIED, "owner": 404, "admin": 404}  # nothing to revoke when not granted
    assert revoked.status_code == expect(role, expected, denied), revoked.text


@pytest.mark.parametrize("role", ROLES)
def test_excusing_late_work(client: TestClient, world: World, role: str | None) -> None:
    submission = world.submissions[0]  # the learner's, for course B's assignment
    response = client.put(f"{API}/submissions/{submission}/excuse", headers=headers(world, role),
                          json={"excused": True})
    # Course B's teacher and admins; the learner reads it and the owner (its problem's) too, but
    # neither may excuse it; to anyone else it does not exist.
    denied = {"learner": 403, "owner": 403, "outsider": 404, "other_instructor": 404}
    assert response.status_code == expect(role, {"teacher": 200, "admin": 200}, denied), response.text
    if response.status_code == 200:
        assert client.put(f"{API}/submissions/{submission}/excuse", headers=headers(world, role),
                          json={"excused": False}).json()["excused"] is False


# Feedback on the learner's submission for course B: its teacher and admins write it; the
# learner (its sender) and the owner (its problem's) read it but may not write; to anyone else it
# does not exist.
FEEDBACK_DENIED = {"learner": 403, "owner": 403, "outsider": 404, "other_instructor": 404}
FEEDBACK_READERS = {"learner": 200, "owner": 200, "teacher": 200, "admin": 200}


@pytest.mark.parametrize("role", ROLES)
def test_comments(client: TestClient, world: World, role: str | None) -> None:
    path = f"{API}/submissions/{world.submissions[0]}/comments"
    made = client.post(path, headers=headers(world, role), json={"body": f"note from {role}", "line": 1})
    assert made.status_code == expect(role, {"teacher": 201, "admin": 201}, FEEDBACK_DENIED), made.text
    listing = client.get(path, headers=headers(world, role))
    assert listing.status_code == expect(role, FEEDBACK_READERS, {"outsider": 404, "other_instructor": 404})
    # The outsider, a learner of the same course, never reads the learner's comments.
    assert f"note from {role}" not in client.get(path, headers=headers(world, "outsider")).text
    read = client.post(f"{path}/read", headers=headers(world, role))
    assert read.status_code == expect(role, {"learner": 204}, {**FEEDBACK_DENIED, "teacher": 403, "admin": 403})
    if made.status_code == 201:
        comment = made.json()["id"]
        for who in ("learner", "owner", "outsider", "other_instructor"):
            refused = client.delete(f"{path}/{comment}", headers=headers(world, who))
            assert refused.status_code == FEEDBACK_DENIED[who], refused.text
        assert client.delete(f"{path}/{comment}", headers=headers(world, role)).status_code == 204


@pytest.mark.parametrize("role", ROLES)
def test_setting_a_score_by_hand(client: TestClient, world: World, role: str | None) -> None:
    submission = world.submissions[0]
    response = client.put(f"{API}/submissions/{submission}/score", headers=headers(world, role),
                          json={"score": 0.25, "reason": f"set by {role}"})
    assert response.status_code == expect(role, {"teacher": 200, "admin": 200}, FEEDBACK_DENIED), response.text
    trail = client.get(f"{API}/submissions/{submission}/score-changes", headers=headers(world, role))
    assert trail.status_code == expect(role, FEEDBACK_READERS, {"outsider": 404, "other_instructor": 404})
    reasons = [c["reason"] for c in client.get(f"{API}/submissions/{submission}/score-changes",
                                               headers=headers(world, "teacher")).json()]
    assert (f"set by {role}" in reasons) is (response.status_code == 200)
    if response.status_code == 200:
        assert client.put(f"{API}/submissions/{submission}/score", headers=headers(world, role),
                          json={"score": None, "reason": "back"}).json()["score_override"] is None


# ---------------------------------------------------------------------------------------------
# The admin's user routes


@pytest.mark.parametrize("role", ROLES)
def test_user_administration(client: TestClient, world: World, role: str | None) -> None:
    staff_denied = {**LEARNERS_403, "other_instructor": 403, "teacher": 403, "owner": 403}
    listing = client.get(f"{API}/users?limit=500", headers=headers(world, role))
    assert listing.status_code == expect(role, {"admin": 200}, staff_denied), listing.text
    if listing.status_code == 200:
        assert listing.json()["total"] >= len(world.people)
    else:
        assert world.people["outsider"].name not in listing.text

    name = unique("i11-made")
    made = client.post(f"{API}/users", headers=headers(world, role),
                       json={"name": name, "role": "instructor", "password": "a long enough password"})
    assert made.status_code == expect(role, {"admin": 201}, staff_denied), made.text

    target = make_account(Role.LEARNER, prefix="i11-target")
    changed = client.patch(f"{API}/users/{target.id}", headers=headers(world, role), json={"role": "admin"})
    assert changed.status_code == expect(role, {"admin": 200}, staff_denied), changed.text


# ---------------------------------------------------------------------------------------------
# CSRF: a cookie session must echo its token on every change


# Asked before a session exists, so there is no token to echo.
NO_SESSION_YET = {f"{API}/auth/sign-in", f"{API}/auth/register"}
ISSUE_11_CHANGES = {  # the routes this file is about: they must be among those checked below
    ("POST", f"{API}/problems/{{slug}}/copy"), ("POST", f"{API}/courses"),
    ("POST", f"{API}/courses/{{course_id}}/join-code"), ("POST", f"{API}/courses/join"),
    ("POST", f"{API}/courses/{{course_id}}/assignments"), ("PUT", f"{API}/assignments/{{assignment_id}}"),
    ("DELETE", f"{API}/assignments/{{assignment_id}}"), ("POST", f"{API}/users"),
    ("PATCH", f"{API}/users/{{user_id}}"), ("PUT", f"{API}/me/password"), ("POST", f"{API}/me/tokens"),
    ("DELETE", f"{API}/me/tokens/{{token_id}}"), ("POST", f"{API}/auth/sign-out"),
    ("PUT", f"{API}/assignments/{{assignment_id}}/extensions/{{user_id}}"),
    ("DELETE", f"{API}/assignments/{{assignment_id}}/extensions/{{user_id}}"),
    ("PUT", f"{API}/submissions/{{submission_id}}/excuse"),
    ("POST", f"{API}/problems/{{slug}}/versions/{{version}}/runs"),
    ("POST", f"{API}/submissions/{{submission_id}}/comments"),
    ("DELETE", f"{API}/submissions/{{submission_id}}/comments/{{comment_id}}"),
    ("POST", f"{API}/submissions/{{submission_id}}/comments/read"),
    ("PUT", f"{API}/submissions/{{submission_id}}/score"),
}


def state_changing_routes() -> list[tuple[str, str]]:
    """Every POST, PUT, PATCH and DELETE of the API, as its OpenAPI document lists them."""
    from api.main import app

    paths: dict[str, dict[str, Any]] = app.openapi()["paths"]
    found = sorted((method.upper(), path) for path, operations in paths.items() for method in operations
                   if method.upper() in CHANGES and path.startswith(API) and path not in NO_SESSION_YET)
    assert set(found) >= ISSUE_11_CHANGES, ISSUE_11_CHANGES - set(found)
    return found


def filled(path: str, world: World, assignment: int) -> str:
    """The path with real ids, so that a route which forgot the check would act on something."""
    return (path.replace("{slug}", world.slug).replace("{course_id}", str(world.course_a))
            .replace("{assignment_id}", str(assignment)).replace("{user_id}", str(world.people["outsider"].id))
            .replace("{submission_id}", str(world.submissions[0])).replace("{token_id}", "1")
            .replace("{invitation_id}", "1").replace("{comment_id}", "1").replace("{version}", world.version))


def nowhere(path: str) -> str:
    """The path with ids of nothing: with the right token it gets past the check to a 404 or a
    422, without changing anything."""
    return re.sub(r"\{slug\}", "no_such_problem", re.sub(r"\{[a-z_]+_id\}", "2147483000", path))


@dataclass
class CookieBrowser:
    """A client with a cookie jar of its own (the session's client keeps no cookie)."""

    http: TestClient

    def sign_in(self, account: Account) -> str:
        """Sign in with the password; the session's CSRF token."""
        return signed_in(self.http, account)[1]


@pytest.fixture
def cookie_browser(client: TestClient) -> Iterator[CookieBrowser]:
    forget_failures()
    fresh = TestClient(client.app)
    yield CookieBrowser(fresh)
    fresh.close()


@pytest.mark.parametrize(("method", "path"), state_changing_routes())
def test_a_cookie_session_needs_the_csrf_token(cookie_browser: CookieBrowser, client: TestClient, world: World,
                                               method: str, path: str) -> None:
    # An admin's session: past every role check, so only the missing token can stop the request.
    token = cookie_browser.sign_in(world.people["admin"])
    target = ok(client.post(f"{API}/courses/{world.course_a}/assignments", headers=headers(world, "owner"),
                            json=assignment_body([world.slug], title="csrf target")), 201)["id"]
    url = filled(path, world, target)
    for sent in ({}, {"X-CSRF-Token": "not-the-token"}, {"X-CSRF-Token": token[:-1]}):
        response = cookie_browser.http.request(method, url, headers=sent, json={})
        assert response.status_code == 403, f"{method} {url} with {sent}: {response.status_code} {response.text}"
        assert response.json()["error"]["code"] == "csrf", response.text
    # The same session with its token gets past the check (here to a 404 or a 422).
    passed = cookie_browser.http.request(method, nowhere(path), headers={"X-CSRF-Token": token}, json={})
    assert passed.status_code != 403 or passed.json()["error"]["code"] != "csrf", passed.text
    assert passed.status_code != 401, passed.text


def test_a_forged_request_changes_nothing(cookie_browser: CookieBrowser, client: TestClient, world: World) -> None:
    """A request from another site carries the cookie but cannot know the token: nothing changes."""
    cookie_browser.sign_in(world.people["owner"])
    http = cookie_browser.http
    before = client.get(f"{API}/courses/{world.course_a}", headers=headers(world, "owner")).json()
    forged = [
        http.post(f"{API}/courses/{world.course_a}/join-code"),
        http.put(f"{API}/assignments/{world.assignment}", json=assignment_body([world.slug], title="forged")),
        http.post(f"{API}/courses/{world.course_a}/assignments", json=assignment_body([world.slug], title="forged")),
        http.delete(f"{API}/assignments/{world.assignment}"),
        http.post(f"{API}/problems/{world.slug}/copy", json={"new_slug": unique("forged")}),
    ]
    assert [r.status_code for r in forged] == [403] * len(forged), [r.text for r in forged]
    after = client.get(f"{API}/courses/{world.course_a}", headers=headers(world, "owner")).json()
    assert after["join_code"] == before["join_code"]
    assert sorted(a["title"] for a in after["assignments"]) == sorted(a["title"] for a in before["assignments"])
    # The cookie alone still reads (a GET needs no token): the session itself was fine.
    assert http.get(f"{API}/courses/{world.course_a}").status_code == 200
