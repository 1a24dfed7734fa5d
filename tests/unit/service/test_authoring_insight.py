"""Authoring and insight routes in the unit layer: copy, version reports and files, roll back,
rejudge progress, preview; acceptance, charts, failing tests, similarity; and who may call each."""

from __future__ import annotations

import json
import uuid
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select

from service.db.models import (
    Assignment,
    AssignmentProblem,
    Course,
    CourseMember,
    CourseRole,
    ProblemRow,
    Role,
    User,
    utcnow,
)
from service.db.session import session_scope
from service.users import create_user
from tests.unit.service.conftest import EagerQueue
from tests.unit.service.helpers import error, ratio_files
from tests.utils.service import bearer, submit
from tests.utils.service_fixtures import Tokens

SLUG = "fast_insight"
PUBLIC_NAME = 'half <&> "quoted"'  # markup in a test name: the charts must escape it
TESTS = {
    "tests/public.json": json.dumps([{"name": PUBLIC_NAME, "args": [1, 2], "expected": 0.5}]),
    "tests/hidden.json": json.dumps([{"name": "third", "args": [1, 3], "expected": 1 / 3},
                                     {"name": "quarter", "args": [1, 4], "expected": 0.25}]),
}
LONG = """def ratio(hits, total):
    if total <= 0:
        raise ValueError("total must be positive")
    fraction = hits / total
    if fraction < 0:
        fraction = 0.0 + fraction
    checked = [fraction for _ in range(1)]
    return float(checked[0])
"""
RENAMED = """def ratio(hits, total):
    # my own
    if total <= 0:
        raise ValueError("no")
    share = hits / total
    if share < 0:
        share = 1.0 * share

    values = [share for i in range(3)]
    return float(values[0])
"""
DIFFERENT = "def ratio(hits, total):\n    return sum(1.0 for _ in range(hits)) / total\n"
ZERO = "def ratio(hits, total):\n    return 0.0\n"  # fails all three tests
ROUNDED = "def ratio(hits, total):\n    return round(hits / total, 2)\n"  # fails "third" only


@dataclass(frozen=True)
class Person:
    id: int
    name: str
    token: str


def person(role: Role) -> Person:
    name = f"ins-{role}-{uuid.uuid4().hex[:8]}"
    with session_scope() as session:
        user, token = create_user(session, name, role)
        return Person(user.id, name, token)


def user_id(name: str) -> int:
    with session_scope() as session:
        found = session.scalar(select(User.id).where(User.name == name))
        assert found is not None
        return found


@dataclass
class World:
    submissions: dict[str, int]  # learner's label -> submission id
    learners: dict[str, Person]
    course: int


def sent(client: TestClient, token: str, code: str, assignment: int | None, mode: str = "submit",
         arguments: list[Any] | None = None) -> int:
    body: dict[str, Any] = {"problem": SLUG, "code": code, "mode": mode, "assignment": assignment}
    if arguments is not None:
        body["arguments"] = arguments
    response = client.post("/api/v1/submissions", headers=bearer(token), json=body)
    assert response.status_code == 202, response.text
    return int(response.json()["id"])


@pytest.fixture(scope="module")
def world(client: TestClient, tokens: Tokens) -> World:
    """SLUG, owned by `instructor` and published; five learners submitted; `other_instructor`
    teaches a course (learners a, b, d, who submitted for it) with an assignment holding SLUG."""
    created = client.post("/api/v1/problems", headers=bearer(tokens.instructor),
                          json={"slug": SLUG, "files": ratio_files(SLUG, **TESTS)})
    assert created.status_code == 201, created.text
    published = client.post(f"/api/v1/problems/{SLUG}/publish", headers=bearer(tokens.instructor), json={})
    assert published.status_code == 200, published.text
    learners = {label: person(Role.LEARNER) for label in "abcde"}
    codes = {"a": LONG, "b": RENAMED, "c": DIFFERENT, "d": ZERO, "e": ROUNDED}
    with session_scope() as session:
        problem = session.scalar(select(ProblemRow).where(ProblemRow.slug == SLUG))
        assert problem is not None
        course = Course(title="Metrics 101", join_code=uuid.uuid4().hex,
                        created_by=user_id("test-other_instructor"))
        session.add(course)
        session.flush()
        session.add(CourseMember(course_id=course.id, user_id=user_id("test-other_instructor"),
                                 role=CourseRole.INSTRUCTOR))
        for label in "abd":
            session.add(CourseMember(course_id=course.id, user_id=learners[label].id, role=CourseRole.LEARNER))
        assignment = Assignment(course_id=course.id, title="Week 1", opens_at=utcnow() - timedelta(days=1),
                                due_at=utcnow() + timedelta(days=7))
        session.add(assignment)
        session.flush()
        session.add(AssignmentProblem(assignment_id=assignment.id, problem_id=problem.id, position=1))
        course_id, assignment_id = course.id, assignment.id
    # The course's learners hand their work in for its assignment; c and e take no course.
    submissions = {label: sent(client, learners[label].token, code, assignment_id if label in "abd" else None)
                   for label, code in codes.items()}
    # A try for the assignment is the learner's own: compared by no one but the problem's owner.
    submissions["a_try"] = sent(client, learners["a"].token, LONG, assignment_id, mode="try", arguments=[1, 2])
    # Neither a run nor an instructor's own accepted submission counts anywhere.
    submit(client, learners["d"].token, LONG, problem=SLUG, mode="run")
    submit(client, tokens.instructor, LONG, problem=SLUG)
    return World(submissions, learners, course_id)


def get(client: TestClient, token: str, path: str, **params: Any) -> Any:
    response = client.get(f"/api/v1{path}", headers=bearer(token), params=params)
    assert response.status_code == 200, response.text
    return response.json()


# ---------------------------------------------------------------------------------------------
# Insight


def test_the_owner_sees_every_learner_and_hidden_tests_by_name(client: TestClient, tokens: Tokens,
                                                               world: World) -> None:
    body = get(client, tokens.instructor, f"/problems/{SLUG}/insight")
    assert body["problem"] == SLUG and body["course"] is None and body["hidden_tests_by_name"] is True
    acceptance = body["acceptance"]
    assert (acceptance["submissions"], acceptance["accepted"]) == (5, 3)  # the instructor's own is no learner's
    assert acceptance["rate"] == pytest.approx(0.6)
    low, high = acceptance["wilson_95"]
    assert 0.2 < low < 0.6 < high < 0.95
    assert body["scores"]["bins"][0] == [0.0, 0.1] and body["scores"]["bins"][-1] == [0.9, 1.0]
    assert body["scores"]["counts"] == [1, 0, 0, 0, 0, 0, 1, 0, 0, 3]  # 0, 2/3 and three 1s
    assert body["failing_tests"] == [
        {"name": "third", "visibility": "hidden", "failures": 2},
        {"name": PUBLIC_NAME, "visibility": "public", "failures": 1},
        {"name": "quarter", "visibility": "hidden", "failures": 1},
    ]
    assert body["verdicts"] == [{"verdict": "accepted", "count": 3}, {"verdict": "wrong_answer", "count": 2}]
    assert body["categories"] == [{"category": "the returned value is not the expected one", "count": 4}]
    assert get(client, tokens.admin, f"/problems/{SLUG}/insight") == body


def test_a_course_instructor_sees_their_learners_and_hidden_tests_as_a_count(
        client: TestClient, tokens: Tokens, world: World) -> None:
    body = get(client, tokens.other_instructor, f"/problems/{SLUG}/insight")
    assert body["hidden_tests_by_name"] is False
    assert (body["acceptance"]["submissions"], body["acceptance"]["accepted"]) == (3, 2)
    assert body["failing_tests"] == [
        {"name": None, "visibility": "hidden", "failures": 2},  # d failed third and quarter
        {"name": PUBLIC_NAME, "visibility": "public", "failures": 1},
    ]
    assert get(client, tokens.other_instructor, f"/problems/{SLUG}/insight", course=world.course) == {
        **body, "course": world.course}
    chart = client.get(f"/api/v1/problems/{SLUG}/insight/failing.svg", headers=bearer(tokens.other_instructor))
    assert chart.status_code == 200 and "third" not in chart.text and "quarter" not in chart.text
    assert "hidden tests (together)" in chart.text
    # The owner may restrict to the course as well.
    owner = get(client, tokens.instructor, f"/problems/{SLUG}/insight", course=world.course)
    assert owner["acceptance"]["submissions"] == 3 and owner["hidden_tests_by_name"] is True
    error(client.get(f"/api/v1/problems/{SLUG}/insight", headers=bearer(tokens.instructor),
                     params={"course": 999999}), 404, "not_found")


def parse_svg(text: str) -> ET.Element:
    root = ET.fromstring(text)  # well-formed XML, whatever the labels held
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    assert root.get("role") == "img" and root.get("aria-label")
    assert root.find("{http://www.w3.org/2000/svg}title") is not None
    return root


def test_charts_are_svg_with_escaped_text_and_accessible_names(client: TestClient, tokens: Tokens,
                                                               world: World) -> None:
    failing = client.get(f"/api/v1/problems/{SLUG}/insight/failing.svg", headers=bearer(tokens.instructor))
    assert failing.status_code == 200
    assert failing.headers["content-type"].startswith("image/svg+xml")
    assert failing.headers["content-security-policy"] == "default-src 'none'"
    assert "<&>" not in failing.text and "half &lt;&amp;&gt; &quot;quoted&quot;" in failing.text
    root = parse_svg(failing.text)
    label = root.get("aria-label") or ""
    assert "third (hidden): 2 failures" in label and f"{PUBLIC_NAME}: 1 failures" in label
    scores = client.get(f"/api/v1/problems/{SLUG}/insight/scores.svg", headers=bearer(tokens.instructor))
    label = parse_svg(scores.text).get("aria-label") or ""
    assert "0% to 10%: 1 submissions" in label and "90% to 100%: 3 submissions" in label


# ---------------------------------------------------------------------------------------------
# Similarity


def test_similar_accepted_solutions_are_paired(client: TestClient, tokens: Tokens, world: World) -> None:
    body = get(client, tokens.instructor, f"/problems/{SLUG}/similarity")
    assert (body["compared"], body["total"], body["message"]) == (3, 3, None)  # a, b, c: accepted learners
    assert len(body["pairs"]) == 1, body["pairs"]
    pair = body["pairs"][0]
    sides = {pair["a"]["user"], pair["b"]["user"]}
    assert sides == {world.learners["a"].name, world.learners["b"].name}
    assert pair["similarity"] >= 0.6 and pair["matches"]
    everything = get(client, tokens.instructor, f"/problems/{SLUG}/similarity", threshold=0.0)
    assert len(everything["pairs"]) >= 1 and everything["threshold"] == 0.0
    error(client.get(f"/api/v1/problems/{SLUG}/similarity", headers=bearer(tokens.instructor),
                     params={"threshold": 1.5}), 422, "invalid_input")
    a, b = pair["a"]["submission"], pair["b"]["submission"]
    side = get(client, tokens.instructor, f"/similarity/{a}/{b}")
    assert side["a"]["code"] in (LONG, RENAMED) and side["b"]["code"] in (LONG, RENAMED)
    assert side["similarity"] == pair["similarity"] and side["matches"] == pair["matches"]


def test_a_course_instructor_compares_their_course_only(client: TestClient, tokens: Tokens, world: World) -> None:
    body = get(client, tokens.other_instructor, f"/problems/{SLUG}/similarity", threshold=0.0)
    users = {p[side]["user"] for p in body["pairs"] for side in ("a", "b")}
    assert world.learners["c"].name not in users  # not in the course
    a, b, c = (world.submissions[label] for label in "abc")
    assert get(client, tokens.other_instructor, f"/similarity/{a}/{b}")["a"]["submission"] == a
    error(client.get(f"/api/v1/similarity/{a}/{c}", headers=bearer(tokens.other_instructor)), 404)
    # A try sent for the assignment is never compared: not by the course's instructor, who may
    # not read it, nor by the owner, who may.
    tried = world.submissions["a_try"]
    error(client.get(f"/api/v1/similarity/{a}/{tried}", headers=bearer(tokens.other_instructor)), 404)
    error(client.get(f"/api/v1/similarity/{a}/{tried}", headers=bearer(tokens.instructor)), 404)
    error(client.get(f"/api/v1/submissions/{tried}", headers=bearer(tokens.other_instructor)), 404)
    assert client.get(f"/api/v1/submissions/{tried}", headers=bearer(tokens.instructor)).status_code == 200
    error(client.get(f"/api/v1/similarity/{a}/999999", headers=bearer(tokens.instructor)), 404)


def test_the_cap_on_compared_submissions_is_said(client: TestClient, tokens: Tokens, world: World,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    from service import similarity_reports

    monkeypatch.setattr(similarity_reports, "MAX_SUBMISSIONS", 2)
    body = get(client, tokens.instructor, f"/problems/{SLUG}/similarity", threshold=0.0)
    assert body["compared"] == 2 and body["total"] == 3
    assert "only the 2 most recent were compared" in body["message"]


# ---------------------------------------------------------------------------------------------
# Authoring: copy, reports, files, roll back, preview, rejudge progress


def version_detail(client: TestClient, token: str, slug: str, version: str) -> dict[str, Any]:
    return get(client, token, f"/problems/{slug}/versions/{version}")  # type: ignore[no-any-return]


def test_copy_validate_report_publish_roll_back_and_preview(client: TestClient, tokens: Tokens,
                                                             world: World) -> None:
    copy = f"fast_copy_{uuid.uuid4().hex[:6]}"
    made = client.post(f"/api/v1/problems/{SLUG}/copy", headers=bearer(tokens.instructor),
                       json={"new_slug": copy})
    assert made.status_code == 201, made.text
    first = made.json()["version"]
    detail = version_detail(client, tokens.instructor, copy, first)
    assert detail["status"] == "valid" and detail["published"] is False
    assert detail["validation"]["reference"] == {"verdict": "accepted", "score": 1.0, "passed": 3, "total": 3}
    assert detail["validation"]["deterministic"] is True
    assert detail["validation"]["wrong"] == [
        {"file": "wrong/zero.py", "declared": "wrong_answer", "got": "wrong_answer", "ok": True,
         "could_get": [], "decided_by": {"test": 'half <&> "quoted"',
                                         "detail": "expected 0.5, got 0.0: off by 0.5 (allowed 0)"}}]
    assert (detail["validation"]["public_tests"], detail["validation"]["hidden_tests"]) == (1, 2)
    assert detail["validation"]["failures"] == [] and detail["validation"]["validated_at"]
    files = get(client, tokens.instructor, f"/problems/{copy}/versions/{first}/files")["files"]
    assert f'slug = "{copy}"' in files["problem.toml"] and f'"{SLUG}"' not in files["problem.toml"]
    assert files["tests/hidden.json"] == TESTS["tests/hidden.json"]
    # A second version from edited files; both valid, published in turn: the older is a roll back.
    files["statement.md"] = "Return the **share** of hits.\n"
    second = client.put(f"/api/v1/problems/{copy}", headers=bearer(tokens.instructor), json={"files": files})
    assert second.status_code == 200, second.text
    newer = second.json()["version"]
    assert client.post(f"/api/v1/problems/{copy}/publish", headers=bearer(tokens.instructor),
                       json={"version": newer}).json()["published"] is True
    assert "share" in get(client, tokens.learner, f"/problems/{copy}")["statement_markdown"]
    back = client.post(f"/api/v1/problems/{copy}/publish", headers=bearer(tokens.instructor),
                       json={"version": first})
    assert back.status_code == 200 and back.json()["version"] == first
    assert "share" not in get(client, tokens.learner, f"/problems/{copy}")["statement_markdown"]
    assert version_detail(client, tokens.instructor, copy, first)["published"] is True
    # The preview shows the unpublished newer version to its owner, and to nobody else.
    preview = get(client, tokens.instructor, f"/problems/{copy}/preview", version=newer)
    assert "share" in preview["statement_markdown"] and preview["hidden_test_count"] == 2
    assert "share" in get(client, tokens.instructor, f"/problems/{copy}/preview")["statement_markdown"]
    for token in (tokens.learner, tokens.other_instructor):
        error(client.get(f"/api/v1/problems/{copy}/preview", headers=bearer(token)), 404, "not_found")
    error(client.get(f"/api/v1/problems/{copy}/preview", headers=bearer(tokens.instructor),
                     params={"version": "0" * 16}), 404, "not_found")


def test_copy_refuses_bad_or_taken_slugs(client: TestClient, tokens: Tokens, world: World) -> None:
    url = f"/api/v1/problems/{SLUG}/copy"
    message = error(client.post(url, headers=bearer(tokens.instructor), json={"new_slug": "Bad-Slug"}),
                    422, "invalid_input")
    assert message.startswith("new_slug: 'Bad-Slug' must match")
    error(client.post(url, headers=bearer(tokens.instructor), json={"new_slug": 'x"\n[rules]'}), 422)
    error(client.post(url, headers=bearer(tokens.instructor), json={"new_slug": SLUG}), 409, "conflict")
    error(client.post(url, headers=bearer(tokens.instructor), json={"new_slug": "secret_lookup"}), 409, "conflict")
    error(client.post(url, headers=bearer(tokens.instructor), json={}), 422, "invalid_input")
    error(client.post(url, headers=bearer(tokens.instructor), json={"new_slug": "fast_x", "version": "nope"}),
          404, "not_found")


def test_any_instructor_copies_a_shipped_problem_to_adapt_it(client: TestClient, tokens: Tokens) -> None:
    """The shipped problems are a library: any instructor copies the published version into a
    draft of their own; someone else's problem stays theirs unless they share it (test_sharing.py),
    and a learner copies nothing."""
    shipped = get(client, tokens.other_instructor, "/problems/secret_lookup")
    assert shipped["shipped"] is True and shipped["owned"] is False
    copy = f"fast_adapted_{uuid.uuid4().hex[:6]}"
    made = client.post("/api/v1/problems/secret_lookup/copy", headers=bearer(tokens.other_instructor),
                       json={"new_slug": copy})
    assert made.status_code == 201, made.text
    mine = get(client, tokens.other_instructor, f"/problems/{copy}")
    assert (mine["owned"], mine["shipped"], mine["published"]) == (True, False, False)
    files = get(client, tokens.other_instructor, f"/problems/{copy}/versions/{made.json()['version']}/files")["files"]
    assert f'slug = "{copy}"' in files["problem.toml"]
    # Another instructor's problem (the copy) is not a library problem: a draft does not exist for
    # anyone else, and once published it is theirs all the same.
    again = {"new_slug": f"{copy}_again"}
    error(client.post(f"/api/v1/problems/{copy}/copy", headers=bearer(tokens.instructor), json=again), 404)
    assert client.post(f"/api/v1/problems/{copy}/publish", headers=bearer(tokens.other_instructor),
                       json={}).status_code == 200
    refused = client.post(f"/api/v1/problems/{copy}/copy", headers=bearer(tokens.instructor), json=again)
    assert f"problem {copy!r} is not shareable" in error(refused, 403, "forbidden")
    error(client.post("/api/v1/problems/secret_lookup/copy", headers=bearer(tokens.learner),
                      json={"new_slug": f"fast_learner_{uuid.uuid4().hex[:6]}"}), 403, "forbidden")
    version = client.post("/api/v1/problems/secret_lookup/copy", headers=bearer(tokens.other_instructor),
                          json={"new_slug": f"fast_old_{uuid.uuid4().hex[:6]}", "version": "0" * 16})
    assert "only the published version" in error(version, 403, "forbidden")


def test_an_invalid_version_reports_the_wrong_solution(client: TestClient, tokens: Tokens) -> None:
    slug = f"fast_invalid_{uuid.uuid4().hex[:6]}"
    files = ratio_files(slug, **{"wrong/zero.py": "# verdict: runtime_error\ndef ratio(h, t):\n    return 0.0\n"})
    made = client.post("/api/v1/problems", headers=bearer(tokens.instructor), json={"slug": slug, "files": files})
    detail = version_detail(client, tokens.instructor, slug, made.json()["version"])
    assert detail["status"] == "invalid"
    [wrong] = detail["validation"]["wrong"]
    assert {k: v for k, v in wrong.items() if k != "decided_by"} == {
        "file": "wrong/zero.py", "declared": "runtime_error", "got": "wrong_answer", "ok": False, "could_get": []}
    test, detail_text = wrong["decided_by"]["test"], wrong["decided_by"]["detail"]
    assert detail_text.startswith("expected ") and "got 0.0" in detail_text
    assert detail["validation"]["failures"] == [
        f"{slug}: wrong/zero.py got wrong_answer, declared runtime_error; test {test} decided it: {detail_text}"]
    error(client.get(f"/api/v1/problems/{slug}/versions/{'0' * 16}", headers=bearer(tokens.instructor)), 404)


def test_a_shipped_version_reports_its_test_counts(client: TestClient, tokens: Tokens) -> None:
    version = get(client, tokens.admin, "/problems/secret_lookup")["versions"][-1]["version"]
    detail = version_detail(client, tokens.admin, "secret_lookup", version)
    assert detail["validation"]["source"] == "problems folder"
    assert (detail["validation"]["public_tests"], detail["validation"]["hidden_tests"]) == (2, 3)


def test_rejudge_progress(client: TestClient, tokens: Tokens, world: World, eager_queue: EagerQueue) -> None:
    url = f"/api/v1/problems/{SLUG}/rejudges/latest"
    with eager_queue.hold():
        started = client.post(f"/api/v1/problems/{SLUG}/rejudge", headers=bearer(tokens.instructor))
        assert started.status_code == 200, started.text
        total = started.json()["requeued"]
        waiting = get(client, tokens.instructor, url.removeprefix("/api/v1"))
        assert (waiting["total"], waiting["queued"], waiting["running"], waiting["done"]) == (total, total, 0, 0)
        assert waiting["requested_by"] == "test-instructor" and waiting["requested_at"]
        assert total >= 7  # five learners' submissions, the run and the instructor's own
    eager_queue.release()
    finished = get(client, tokens.instructor, url.removeprefix("/api/v1"))
    assert (finished["done"], finished["queued"], finished["running"]) == (total, 0, 0)
    # A submission made after the rejudge is not part of it.
    submit(client, world.learners["a"].token, LONG, problem=SLUG)
    assert get(client, tokens.instructor, url.removeprefix("/api/v1"))["done"] == total
    # The insight is the same after judging again.
    assert get(client, tokens.instructor, f"/problems/{SLUG}/insight")["verdicts"][0]["count"] == 4


def test_rejudge_progress_before_any_rejudge_is_null(client: TestClient, tokens: Tokens) -> None:
    slug = f"fast_norejudge_{uuid.uuid4().hex[:6]}"
    client.post("/api/v1/problems", headers=bearer(tokens.instructor), json={"slug": slug, "files": ratio_files(slug)})
    never = client.get(f"/api/v1/problems/{slug}/rejudges/latest", headers=bearer(tokens.instructor))
    assert never.status_code == 200 and never.json() is None, never.text
    # Still the owner's alone, and a problem that does not exist is still 404.
    error(client.get(f"/api/v1/problems/{slug}/rejudges/latest", headers=bearer(tokens.other_instructor)),
          403, "forbidden")
    error(client.get("/api/v1/problems/no_such_problem/rejudges/latest", headers=bearer(tokens.instructor)),
          404, "not_found")


# ---------------------------------------------------------------------------------------------
# Who may call what


def routes(world: World, version: str) -> list[tuple[str, str, dict[str, Any] | None]]:
    a, b = world.submissions["a"], world.submissions["b"]
    return [
        ("POST", f"/problems/{SLUG}/copy", {"new_slug": f"fast_m_{uuid.uuid4().hex[:6]}"}),
        ("GET", f"/problems/{SLUG}/versions/{version}", None),
        ("GET", f"/problems/{SLUG}/versions/{version}/files", None),
        ("GET", f"/problems/{SLUG}/rejudges/latest", None),
        ("GET", f"/problems/{SLUG}/preview", None),
        ("GET", f"/problems/{SLUG}/insight", None),
        ("GET", f"/problems/{SLUG}/insight/scores.svg", None),
        ("GET", f"/problems/{SLUG}/insight/failing.svg", None),
        ("GET", f"/problems/{SLUG}/similarity", None),
        ("GET", f"/similarity/{a}/{b}", None),
    ]


@pytest.mark.parametrize("role", ["instructor", "admin", "other_instructor", "learner", "none"])
def test_authorization_matrix(client: TestClient, tokens: Tokens, world: World, role: str) -> None:
    client.post(f"/api/v1/problems/{SLUG}/rejudge", headers=bearer(tokens.instructor))
    version = get(client, tokens.instructor, f"/problems/{SLUG}")["versions"][-1]["version"]
    headers = bearer(getattr(tokens, role)) if role != "none" else {}
    for method, path, body in routes(world, version):
        response = client.request(method, f"/api/v1{path}", headers=headers, json=body)
        if role in ("instructor", "admin"):
            assert response.status_code in (200, 201), (path, response.text)
        elif role == "none":
            error(response, 401, "unauthorized")
        elif role == "learner":
            assert response.status_code in (403, 404), (path, response.status_code)
            assert "zq-" not in response.text and "third" not in response.text
        else:  # another instructor, who teaches SLUG in a course: insight of that course only
            teaches = path.startswith((f"/problems/{SLUG}/insight", f"/problems/{SLUG}/similarity", "/similarity/"))
            if teaches:
                assert response.status_code == 200, (path, response.text)
            else:
                assert response.status_code in (403, 404), (path, response.status_code)


def test_an_instructor_outside_the_course_sees_no_insight(client: TestClient, tokens: Tokens, world: World) -> None:
    stranger = person(Role.INSTRUCTOR)
    a, b = world.submissions["a"], world.submissions["b"]
    for path in (f"/problems/{SLUG}/insight", f"/problems/{SLUG}/insight/failing.svg",
                 f"/problems/{SLUG}/similarity"):
        error(client.get(f"/api/v1{path}", headers=bearer(stranger.token)), 403, "forbidden")
    # Submissions they may not read do not exist for them (not even which problem they are of).
    assert error(client.get(f"/api/v1/similarity/{a}/{b}", headers=bearer(stranger.token)),
                 404, "not_found") == f"no submission {a}"
    error(client.get(f"/api/v1/problems/{SLUG}/insight", headers=bearer(stranger.token),
                     params={"course": world.course}), 403, "forbidden")
