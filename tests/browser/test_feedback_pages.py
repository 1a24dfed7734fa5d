"""Feedback in the browser: an instructor comments on a line and on the whole of a learner's
submission and sets its score by hand with a reason; the gradebook counts that score and tags it;
the learner sees the comments marked new on their list until they open the submission, reads
them rendered (Markdown, raw HTML as text) with the score's trail, on a 375 px phone; another
learner of the course reads none of it. Judged for real by the session worker; axe clean."""

from __future__ import annotations

import re
import subprocess
import uuid

import pytest

from tests.browser.support import (
    api_call,
    api_request,
    assert_accessible,
    horizontal_overflow,
    hours_from_now,
    require_playwright,
)

require_playwright()

from playwright.sync_api import expect  # noqa: E402

from service.db.models import Role  # noqa: E402
from tests.browser.conftest import PageFactory, make_account  # noqa: E402
from tests.browser.test_pages import FIXTURE, drawn  # noqa: E402

pytestmark = pytest.mark.browser

WRONG = 'def lookup(key):\n    if key == "a":\n        return "zq-secret-101"\n    return "zq-secret-" + key\n'


def test_an_instructor_gives_feedback_and_the_learner_reads_it(open_page: PageFactory, live_server: str,
                                                                worker: subprocess.Popen[bytes]) -> None:
    teacher = make_account(Role.INSTRUCTOR, "feedback-teacher")
    ann, bob = make_account(Role.LEARNER, "feedback-ann"), make_account(Role.LEARNER, "feedback-bob")
    course = api_call(live_server, teacher, "POST", "/courses", title=f"Feedback {uuid.uuid4().hex[:4]}")
    for learner in (ann, bob):
        api_call(live_server, learner, "POST", "/courses/join", code=course["join_code"])
    week = api_call(live_server, teacher, "POST", f"/courses/{course['id']}/assignments", title="Week 4",
                    opens_at=hours_from_now(-1), due_at=hours_from_now(48), late_policy="accept",
                    problems=[FIXTURE.slug])
    sent = api_call(live_server, ann, "POST", "/submissions", problem=FIXTURE.slug, code=WRONG, assignment=week["id"])
    done = api_call(live_server, ann, "GET", f"/submissions/{sent['id']}?wait=30")
    assert done["status"] == "done" and done["verdict"] != "accepted", done

    page = open_page(token=teacher.token)
    drawn(page, f"/assignments/{week['id']}/gradebook")
    page.get_by_role("row").filter(has_text=ann.name).get_by_role("link", name="Latest submission of").click()
    feedback = page.get_by_role("region", name="Feedback")
    expect(feedback).to_contain_text("No feedback yet.")
    # A line's "+" puts that line in the form.
    page.get_by_role("button", name="Comment on line 4").click()
    expect(feedback.get_by_label("On line (optional)")).to_have_value("4")
    feedback.get_by_label("Comment").fill("Look the key up: `SECRETS[key]`, not `+ key`.")
    feedback.get_by_role("button", name="Add the comment").click()
    expect(feedback.get_by_role("status")).to_contain_text("Comment added on line 4.")
    code = page.get_by_role("list", name="Code, by line")
    expect(code.locator("li").nth(3)).to_contain_text("Look the key up: SECRETS[key], not + key.")
    feedback.get_by_label("Comment").fill("**Nearly there.** <b>not bold</b>")
    feedback.get_by_role("button", name="Add the comment").click()
    expect(feedback.locator(".whole-comments strong")).to_have_text("Nearly there.")
    expect(feedback.locator(".whole-comments")).to_contain_text("not read yet")
    expect(feedback.locator(".whole-comments")).to_contain_text("<b>not bold</b>")

    feedback.get_by_label("Score (0 to 1)").fill("0.75")
    feedback.get_by_role("button", name="Set this score").click()
    expect(feedback.get_by_role("alert")).to_contain_text("Say why")
    feedback.get_by_label("Reason").fill("the idea is right; one slip")
    feedback.get_by_role("button", name="Set this score").click()
    expect(feedback).to_contain_text("Score set by hand: 0.75")
    expect(feedback.get_by_role("table", name="Every change of the score by hand")).to_contain_text(
        "the idea is right; one slip")
    assert_accessible(page)

    drawn(page, f"/assignments/{week['id']}/gradebook")
    ann_row = page.get_by_role("row").filter(has_text=ann.name)
    expect(ann_row).to_contain_text("0.75")
    expect(ann_row.locator(".by-hand-note")).to_have_text(f"0.75 set by hand by {teacher.name}: the idea is right; one slip")
    expect(ann_row).not_to_contain_text("for lateness")

    phone = open_page(token=ann.token, width=375, height=740)
    drawn(phone, f"/assignments/{week['id']}")  # the learner's own progress says it too
    expect(phone.locator(".by-hand-note")).to_have_text(f"0.75 set by hand by {teacher.name}: the idea is right; one slip")
    drawn(phone, "/submissions")
    expect(phone.get_by_role("row").filter(has_text=f"#{sent['id']}")).to_contain_text("2 new comments")
    phone.get_by_role("link", name=f"#{sent['id']}").click()
    mine = phone.get_by_role("region", name="Feedback")
    expect(mine).to_contain_text("Score set by hand: 0.75")
    # The verdict line is drawn once (the status region beside it is for screen readers).
    expect(phone.get_by_text(re.compile(r"^score \d\.\d\d")).locator("visible=true")).to_have_count(1)
    expect(mine).to_contain_text("the idea is right; one slip")
    expect(phone.get_by_role("list", name="Code, by line")).to_contain_text("Look the key up")
    expect(mine.get_by_role("button", name="Add the comment")).to_have_count(0)
    expect(mine).not_to_contain_text("null")  # no missing part written as text
    expect(phone.get_by_role("button", name="Comment on line 1")).to_have_count(0)
    assert horizontal_overflow(phone) is None
    assert_accessible(phone)
    drawn(phone, "/submissions")
    expect(phone.get_by_role("row").filter(has_text=f"#{sent['id']}")).not_to_contain_text("new comment")

    # bob, a learner of the same course, gets ann's submission as missing: nothing of it shows.
    other = open_page(token=bob.token)
    other.goto(f"/submissions/{sent['id']}")
    expect(other.get_by_role("alert")).to_contain_text(f"no submission {sent['id']}")
    expect(other.get_by_text("Look the key up")).to_have_count(0)
    assert api_request(live_server, bob, "GET", f"/submissions/{sent['id']}/comments").status_code == 404


def test_a_learner_asks_for_a_regrade_and_reads_the_answer(open_page: PageFactory, live_server: str,
                                                          worker: subprocess.Popen[bytes]) -> None:
    teacher = make_account(Role.INSTRUCTOR, "regrade-teacher")
    ann = make_account(Role.LEARNER, "regrade-ann")
    course = api_call(live_server, teacher, "POST", "/courses", title=f"Regrades {uuid.uuid4().hex[:4]}")
    api_call(live_server, ann, "POST", "/courses/join", code=course["join_code"])
    week = api_call(live_server, teacher, "POST", f"/courses/{course['id']}/assignments", title="Week 9",
                    opens_at=hours_from_now(-1), due_at=hours_from_now(48), late_policy="accept",
                    problems=[FIXTURE.slug])
    sent = api_call(live_server, ann, "POST", "/submissions", problem=FIXTURE.slug, code=WRONG, assignment=week["id"])
    assert api_call(live_server, ann, "GET", f"/submissions/{sent['id']}?wait=30")["status"] == "done"

    learner = open_page(token=ann.token, width=375, height=740)
    drawn(learner, f"/submissions/{sent['id']}")
    regrades = learner.get_by_role("region", name="Regrade requests")
    regrades.get_by_role("button", name="Ask for a regrade").click()
    expect(regrades.get_by_role("alert")).to_contain_text("Say why")
    regrades.get_by_label("Why should the score change?").fill("The hidden key test expects another format.")
    regrades.get_by_role("button", name="Ask for a regrade").click()
    expect(regrades.get_by_role("status")).to_have_text("Your regrade request is sent.")
    expect(regrades).to_contain_text("waiting for an answer")
    expect(regrades.get_by_role("button", name="Ask for a regrade")).to_have_count(0)  # one open at a time
    assert horizontal_overflow(learner) is None
    assert_accessible(learner)

    page = open_page(token=teacher.token)
    drawn(page, f"/assignments/{week['id']}/gradebook")
    expect(page.get_by_role("row").filter(has_text=ann.name)).to_contain_text("regrade asked")
    drawn(page, f"/submissions/{sent['id']}")
    answers = page.get_by_role("region", name="Regrade requests")
    answers.get_by_label("Answer").fill("You are right; full marks for the idea.")
    answers.get_by_label("New score (0 to 1, optional)").fill("0.9")
    answers.get_by_role("button", name="Answer").click()
    expect(answers.get_by_role("status")).to_have_text("Answered; the score is now 0.90.")
    expect(page.get_by_role("region", name="Feedback")).to_contain_text("Score set by hand: 0.90")
    assert_accessible(page)

    drawn(learner, f"/submissions/{sent['id']}")
    expect(learner.get_by_role("region", name="Regrade requests")).to_contain_text("You are right; full marks for the idea.")
    expect(learner.get_by_role("region", name="Regrade requests")).to_contain_text("answered: the score was changed")
