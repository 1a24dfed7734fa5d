"""The course page's members (invited by user name, as learner or instructor, joining only once
they accept on their Courses page, or decline; an invitation withdrawn; Remove after a confirm,
never the only instructor), the gradebook's link to a learner's submission, and the authoring
page showing a rejudge started elsewhere as soon as it loads (and "Never rejudged." without a
failed load)."""

from __future__ import annotations

import re
import uuid
from typing import Any

import httpx
import pytest
from playwright.sync_api import Page, expect

from service.db.models import Role
from tests.browser.conftest import Account, PageFactory, StoryProblem, make_account
from tests.browser.support import assert_accessible, settle
from tests.utils.courses import assignment_body

pytestmark = pytest.mark.browser

WRONG = "def lookup(key):\n    return 'no'\n"


def api(live_server: str, account: Account, method: str, path: str, status: int, **kwargs: Any) -> Any:
    with httpx.Client(base_url=live_server, timeout=30,
                      headers={"Authorization": f"Bearer {account.token}"}) as http:
        response = http.request(method, f"/api/v1{path}", **kwargs)
    assert response.status_code == status, response.text
    return response.json() if response.content else None


def member_row(page: Page, name: str) -> Any:
    return page.get_by_role("row").filter(has=page.get_by_role("cell", name=name, exact=True))


def test_an_invited_colleague_joins_by_accepting_and_the_instructor_opens_a_submission(
        open_page: PageFactory, live_server: str) -> None:
    teacher, colleague = (make_account(Role.INSTRUCTOR, prefix) for prefix in ("members-teacher", "members-colleague"))
    learner = make_account(Role.LEARNER, "members-learner")
    title = f"Members {uuid.uuid4().hex[:4]}"
    course = api(live_server, teacher, "POST", "/courses", 201, json={"title": title})
    api(live_server, learner, "POST", "/courses/join", 200, json={"code": course["join_code"]})
    week = api(live_server, teacher, "POST", f"/courses/{course['id']}/assignments", 201,
               json=assignment_body(["secret_lookup"]))
    sent = api(live_server, learner, "POST", "/submissions", 202,
               json={"problem": "secret_lookup", "code": WRONG, "mode": "submit", "assignment": week["id"]})

    page = open_page(token=teacher.token)
    page.goto(f"/courses/{course['id']}")
    expect(member_row(page, teacher.name)).to_contain_text("only instructor")
    expect(page.get_by_role("button", name=f"Remove {teacher.name}")).to_have_count(0)
    expect(page.get_by_text("No invitation is waiting for an answer.")).to_be_visible()
    # A name that is no instructor is refused with the API's words, next to the field.
    page.get_by_label("User name", exact=True).fill(learner.name)
    page.get_by_label("Invite as").select_option("instructor")
    page.get_by_role("button", name="Invite", exact=True).click()
    expect(page.get_by_role("alert")).to_contain_text(f"{learner.name!r} is a learner")
    page.get_by_label("User name", exact=True).fill(colleague.name)
    page.get_by_label("Invite as").select_option("instructor")
    page.get_by_role("button", name="Invite", exact=True).click()
    expect(page.get_by_text(f"Invited {colleague.name} as an instructor: they join once they accept.")).to_be_visible()
    # Invited is not a member: a row among the invitations, with Withdraw, none among the members.
    expect(page.get_by_role("button", name=f"Withdraw the invitation of {colleague.name}")).to_have_count(1)
    expect(page.get_by_role("button", name=f"Remove {colleague.name}")).to_have_count(0)
    assert_accessible(page)
    api(live_server, colleague, "GET", f"/courses/{course['id']}", 404)

    # The colleague finds the invitation on their Courses page and accepts it: the course opens.
    other = open_page(token=colleague.token)
    other.goto("/courses")
    expect(other.get_by_role("heading", name="Invitations")).to_be_visible()
    expect(other.get_by_role("row").filter(has_text=title)).to_contain_text(teacher.name)
    assert_accessible(other)
    other.get_by_role("button", name=f"Accept the invitation to “{title}”").click()
    expect(other).to_have_url(re.compile(rf"/courses/{course['id']}$"))
    expect(other.get_by_text("You are instructor here.")).to_be_visible()
    members = api(live_server, colleague, "GET", f"/courses/{course['id']}", 200)["members"]
    assert {(m["user"], m["role"]) for m in members} >= {(colleague.name, "instructor")}
    page.reload()
    expect(page.get_by_role("button", name=f"Remove {teacher.name}")).to_have_count(1)  # no longer the only one
    expect(page.get_by_text("No invitation is waiting for an answer.")).to_be_visible()

    # The gradebook links to the learner's submission, which the course instructor may open.
    page.goto(f"/assignments/{week['id']}/gradebook")
    page.get_by_role("link", name=f"Latest submission of {learner.name} for secret_lookup").click()
    expect(page).to_have_url(re.compile(rf"/submissions/{sent['id']}$"))
    expect(page.get_by_role("heading", level=1)).to_have_text(f"Submission #{sent['id']}")
    expect(page.get_by_role("main")).to_contain_text(learner.name)

    page.goto(f"/courses/{course['id']}")
    page.once("dialog", lambda dialog: dialog.accept())
    page.get_by_role("button", name=f"Remove {learner.name}").click()
    expect(page.get_by_text(f"Removed {learner.name}.")).to_be_visible()
    expect(member_row(page, learner.name)).to_have_count(0)
    assert learner.name not in {m["user"] for m in api(live_server, teacher, "GET", f"/courses/{course['id']}", 200)["members"]}


def test_a_learner_declines_an_invitation_and_an_instructor_withdraws_one(
        open_page: PageFactory, live_server: str) -> None:
    teacher = make_account(Role.INSTRUCTOR, "invite-teacher")
    declining, withdrawn = (make_account(Role.LEARNER, prefix) for prefix in ("invite-declines", "invite-withdrawn"))
    title = f"Invitations {uuid.uuid4().hex[:4]}"
    course = api(live_server, teacher, "POST", "/courses", 201, json={"title": title})
    page = open_page(token=teacher.token)
    page.goto(f"/courses/{course['id']}")
    for who in (declining, withdrawn):
        page.get_by_label("User name", exact=True).fill(who.name)
        page.get_by_role("button", name="Invite", exact=True).click()  # as a learner, the default
        expect(page.get_by_text(f"Invited {who.name} as a learner: they join once they accept.")).to_be_visible()
    expect(page.get_by_role("heading", name="Invitations waiting for an answer (2)")).to_be_visible()

    # Declined, after a confirm: gone, and the course stays closed to them.
    learner_page = open_page(token=declining.token)
    learner_page.goto("/courses")
    learner_page.once("dialog", lambda dialog: dialog.accept())
    learner_page.get_by_role("button", name=f"Decline the invitation to “{title}”").click()
    expect(learner_page.get_by_text(f"Declined the invitation to “{title}”.")).to_be_visible()
    expect(learner_page.get_by_role("heading", name="Invitations")).to_have_count(0)
    expect(learner_page.get_by_role("link", name=title)).to_have_count(0)
    api(live_server, declining, "GET", f"/courses/{course['id']}", 404)

    # Withdrawn by the instructor: the invitee no longer has anything to answer.
    page.reload()
    expect(page.get_by_role("heading", name="Invitations waiting for an answer (1)")).to_be_visible()
    page.get_by_role("button", name=f"Withdraw the invitation of {withdrawn.name}").click()
    expect(page.get_by_text(f"Withdrew the invitation of {withdrawn.name}.")).to_be_visible()
    expect(page.get_by_text("No invitation is waiting for an answer.")).to_be_visible()
    assert api(live_server, withdrawn, "GET", "/me/invitations", 200) == []
    withdrawn_page = open_page(token=withdrawn.token)
    withdrawn_page.goto("/courses")
    expect(withdrawn_page.get_by_text("You are in no course yet: open the join link your instructor gave you.")).to_be_visible()
    expect(withdrawn_page.get_by_role("heading", name="Invitations")).to_have_count(0)


def test_the_authoring_page_shows_a_rejudge_started_elsewhere(
        open_page: PageFactory, live_server: str, story_problem: StoryProblem) -> None:
    owner = story_problem.owner
    api(live_server, owner, "POST", f"/problems/{story_problem.slug}/rejudge", 200)
    page = open_page(token=owner.token)
    page.goto(f"/author/{story_problem.slug}")
    expect(page.locator("#rejudge-words")).to_contain_text(re.compile(r"\d+ of \d+ judged"))
    expect(page.locator("#rejudge-words")).to_contain_text(f"by {owner.name}")

    # A problem never rejudged says so, without a refused request in the console.
    copy = f"never_rejudged_{uuid.uuid4().hex[:6]}"
    api(live_server, owner, "POST", f"/problems/{story_problem.slug}/copy", 201, json={"new_slug": copy})
    page.goto(f"/author/{copy}")
    expect(page.locator("#rejudge-words")).to_have_text("Never rejudged.")
    settle(page)
    # /author lists both, from one request, with the newest version's status.
    with page.expect_response(lambda r: "/api/v1/problems?mine=true" in r.url) as listed:
        page.goto("/author")
    assert {story_problem.slug, copy} <= {p["slug"] for p in listed.value.json()}
    expect(page.get_by_role("rowheader").filter(has_text=copy)).to_have_count(1)
