"""Issue 11's instructor and admin pages, opened by a signed-in learner in a real browser: each
says plainly that it is not for them, and neither the page nor any answer the API gave it holds
the data the page guards (a hidden test's input, another learner's name, a join code, a course
the learner is not in). The learner is signed in each way the pages know: the session cookie of
a password sign-in, and an API token kept in the browser. The problem's owner, opening the same
pages, does see that data: the checks for its absence can fail.
"""

from __future__ import annotations

import json
import re
import subprocess
import uuid
from dataclasses import dataclass

import httpx
import pytest

from tests.browser.support import require_playwright, settle

require_playwright()

from playwright.sync_api import Page, Response, expect  # noqa: E402

from service.db.models import Role  # noqa: E402
from tests.browser.conftest import (  # noqa: E402
    STORY_PROBLEM,
    Account,
    PageFactory,
    make_account,
    make_password_account,
    problem_files,
    publish_problem,
)
from tests.utils.courses import assignment_body  # noqa: E402

pytestmark = [pytest.mark.browser, pytest.mark.docker]


@dataclass(frozen=True)
class Classroom:
    owner: Account
    learner: Account  # the visitor: a learner of course A, not of course B
    peer: Account  # another learner of both courses, with a submission
    slug: str
    hidden_input: str  # in a hidden test only
    hidden_name: str
    course_a: int
    course_b: int
    course_b_title: str
    assignment: int  # in course A
    secrets: tuple[str, ...]  # none of these may reach the learner's page


@pytest.fixture(scope="module")
def classroom(worker: subprocess.Popen[bytes], live_server: str) -> Classroom:
    tag = uuid.uuid4().hex[:8]
    owner = make_account(Role.INSTRUCTOR, "access-owner")
    learner = make_password_account(Role.LEARNER, "access-learner")
    peer = make_account(Role.LEARNER, "access-peer")
    slug, hidden_input, hidden_name = f"access_{tag}", f"zqhidden{tag} alpha beta", f"secret_case_{tag}"
    files = problem_files(STORY_PROBLEM, slug, f"Access check {tag}")
    hidden = json.loads(files["tests/hidden.json"])
    # The reference's value on it: one token of three is in the reference.
    hidden.append({"name": hidden_name, "args": [hidden_input, f"zqhidden{tag}"], "expected": 1 / 3})
    files["tests/hidden.json"] = json.dumps(hidden)
    publish_problem(live_server, owner, slug, files)

    def as_(account: Account) -> httpx.Client:
        return httpx.Client(base_url=f"{live_server}/api/v1", timeout=60,
                            headers={"Authorization": f"Bearer {account.token}"})

    course_b_title = f"Private course {tag}"
    with as_(owner) as http:
        course_a = http.post("/courses", json={"title": f"Course A {tag}"}).json()
        course_b = http.post("/courses", json={"title": course_b_title}).json()
        made = http.post(f"/courses/{course_a['id']}/assignments", json=assignment_body([slug]))
        assert made.status_code == 201, made.text
        assignment = made.json()["id"]
    with as_(peer) as http:
        for course in (course_a, course_b):
            assert http.post("/courses/join", json={"code": course["join_code"]}).status_code == 200
        sent = http.post("/submissions", json={"problem": slug, "code": "def unigram_precision(c, r):\n    return 0.0\n",
                                               "mode": "submit", "assignment": assignment})
        assert sent.status_code == 202, sent.text
    with as_(learner) as http:
        assert http.post("/courses/join", json={"code": course_a["join_code"]}).status_code == 200
    secrets = (hidden_input.split()[0], hidden_name, peer.name, course_a["join_code"], course_b["join_code"],
               course_b_title, "Counter(tokens)")  # the last: the reference solution's code
    return Classroom(owner, learner, peer, slug, hidden_input, hidden_name, course_a["id"], course_b["id"],
                     course_b_title, assignment, secrets)


# Each page, and what it says to a learner: plainly that it is not theirs.
PAGES = {
    "author": ("/author", r"Authoring is for instructors and administrators"),
    "author-problem": ("/author/{slug}", r"Only the problem's owner or an administrator can author it"),
    "insight": ("/author/{slug}/insight", r"Insight is for instructors and administrators"),
    # Someone else's course does not exist for a learner (the API answers 404, as for a missing id).
    "other-course": ("/courses/{course_b}", r"no course \d+|not (allowed|a member)"),
    "gradebook": ("/assignments/{assignment}/gradebook", r"only instructors and admins may do this"),
    "admin-users": ("/admin/users", r"Only administrators may see this page"),
}


def path_of(template: str, room: Classroom) -> str:
    return template.format(slug=room.slug, course_b=room.course_b, assignment=room.assignment)


def signed_in_page(open_page: PageFactory, live_server: str, account: Account, how: str) -> Page:
    """A page of a new context signed in as account: a password sign-in (the session cookie) or
    the account's API token kept in localStorage, as /sign-in's token box keeps it."""
    if how == "token":
        return open_page(token=account.token)
    page = open_page()
    signed = page.context.request.post(f"{live_server}/api/v1/auth/sign-in",
                                       data={"name": account.name, "password": account.password})
    assert signed.ok, signed.text()
    return page


def visit(page: Page, path: str) -> list[Response]:
    """Open path and wait until its script is done; the API's answers it received."""
    answers: list[Response] = []
    page.on("response", lambda r: answers.append(r) if "/api/v1/" in r.url else None)
    page.goto(path)
    expect(page.get_by_text("Loading…")).to_have_count(0)
    settle(page)
    return answers


def leaked(page: Page, answers: list[Response], secrets: tuple[str, ...]) -> list[str]:
    """Where each secret shows: the page's text, its markup (hidden parts and attributes too), or
    the body of an API answer the page got."""
    places = {"text": page.locator("body").inner_text(), "markup": page.content()}
    for answer in answers:
        try:
            places[f"answer {answer.request.method} {answer.url}"] = answer.text()
        except Exception:  # a body no longer kept (a redirect) holds nothing to check
            continue
    return [f"{secret!r} in {where}" for secret in secrets for where, text in places.items() if secret in text]


@pytest.mark.parametrize("how", ["password", "token"])
@pytest.mark.parametrize("page_name", PAGES)
def test_a_learner_is_told_an_instructor_page_is_not_for_them(
        open_page: PageFactory, live_server: str, classroom: Classroom, page_name: str, how: str) -> None:
    template, said = PAGES[page_name]
    page = signed_in_page(open_page, live_server, classroom.learner, how)
    answers = visit(page, path_of(template, classroom))
    expect(page.get_by_text(f"Signed in as {classroom.learner.name} (learner)")).to_be_visible()
    alert = page.get_by_role("main").get_by_role("alert")
    expect(alert).to_have_count(1)
    expect(alert).to_have_text(re.compile(said, re.IGNORECASE))
    assert not leaked(page, answers, classroom.secrets), leaked(page, answers, classroom.secrets)
    # Nothing a learner may not have was asked for and given: every instructor route refused.
    given = [f"{a.request.method} {a.url}" for a in answers if a.ok and re.search(
        r"/(versions|preview|insight|similarity|gradebook|users|join-code)\b", a.url)]
    assert not given, given


def test_a_learner_of_the_course_sees_it_without_its_members(
        open_page: PageFactory, live_server: str, classroom: Classroom) -> None:
    """Course A is the learner's own: its page shows its assignments, not who else takes it nor
    the join link (the learner view, not a refusal)."""
    page = signed_in_page(open_page, live_server, classroom.learner, "password")
    answers = visit(page, f"/courses/{classroom.course_a}")
    expect(page.get_by_role("main").get_by_role("heading", level=1)).to_have_text(re.compile(r"^Course A "))
    expect(page.get_by_role("main").get_by_role("alert")).to_have_count(0)
    expect(page.get_by_role("button", name="Create assignment")).to_have_count(0)
    assert not leaked(page, answers, classroom.secrets), leaked(page, answers, classroom.secrets)


@pytest.mark.parametrize("page_name", ["author-problem", "gradebook"])
def test_the_owner_sees_what_the_learner_may_not(open_page: PageFactory, classroom: Classroom, page_name: str) -> None:
    """The control: the same checks find the data on the owner's pages."""
    page = open_page(token=classroom.owner.token)
    answers = visit(page, path_of(PAGES[page_name][0], classroom))
    expect(page.get_by_role("main").get_by_role("alert")).to_have_count(0)
    if page_name == "author-problem":  # the hidden tests of the newest version, drawn once it is read
        expect(page.get_by_role("main")).to_contain_text(classroom.hidden_name)
    else:
        expect(page.get_by_role("rowheader", name=classroom.peer.name, exact=True)).to_be_visible()
    assert leaked(page, answers, classroom.secrets)
