"""LTI 1.3 in a real browser, the judge inside the LMS's iframe: an admin registers the judge with
the test LMS (tests/lti/platform.py) by LTI Dynamic Registration; an instructor launches a deep
linking request in the course page's frame and places two problems; a learner launches one in
the frame, writes a solution in the editor and submits it, and the score reaches the LMS's line
item, sent by a webhook worker; and a learner whose browser keeps no cookie in the frame is
offered a new window by the judge's login page (before the LMS spends its login hint), where
they land signed in.

The LMS is served as http://localhost:<port> and the judge as http://127.0.0.1:<port>: two sites,
so the frame is a third-party one (the judge's LTI cookies are SameSite=None; Secure;
Partitioned, which Chromium keeps on both loopback hosts), and the judge's pages must list the
LMS's origin in their CSP frame-ancestors (service/lti/framing.py) for the frame to show them.
The console check of tests/browser/conftest.py fails the test on any refused frame or script.
"""

from __future__ import annotations

import re
import subprocess
import uuid
from collections.abc import Iterator

import httpx
import pytest

from tests.browser.support import require_playwright

require_playwright()

from playwright.sync_api import FrameLocator, Page, Request, Route, expect  # noqa: E402

from service.db.models import Role  # noqa: E402
from tests.browser.conftest import (  # noqa: E402
    STORY_PROBLEM,
    PageFactory,
    StoryProblem,
    make_password_account,
    problem_files,
    publish_problem,
    sign_in,
)
from tests.browser.test_learner_story import type_code  # noqa: E402
from tests.lti.conftest import INSTRUCTOR, LEARNER, grade_sending  # noqa: E402
from tests.lti.platform import Platform  # noqa: E402

pytestmark = [pytest.mark.browser, pytest.mark.docker]

SOLUTION = (STORY_PROBLEM / "reference.py").read_text(encoding="utf-8")
JUDGED = 60_000  # ms: a submission judged in the sandbox by the session worker
ACCEPTED = re.compile(r"accepted", re.IGNORECASE)
NEW_WINDOW = "Open the judge in a new window"
CONFIRM = "Register the judge with this platform"


@pytest.fixture(scope="module")
def grade_sender(live_server: str) -> Iterator[subprocess.Popen[bytes]]:
    """tests/lti/conftest.py's grade sender, whose fixtures tests/browser does not see."""
    with grade_sending() as process:
        yield process


@pytest.fixture
def lms() -> Iterator[Platform]:
    """The test LMS on http://localhost:<port>, a site other than the judge's 127.0.0.1."""
    with Platform(host="localhost") as platform:
        yield platform


def lms_frame(page: Page) -> FrameLocator:
    """The LMS course page's frame, where the judge is launched."""
    return page.frame_locator("#lti-frame")


def judge_frame_url(page: Page, judge: str) -> str:
    """The address of the page the judge shows in a frame of ``page`` (its first such frame)."""
    for frame in page.frames:
        if frame.url.startswith(judge):
            return frame.url
    return ""


def no_cookies_in_frames(route: Route, request: Request) -> None:
    """The judge's login answered to a frame without its cookies, as a browser that blocks
    cookies in third-party frames keeps none of them; a window's login is left alone. (Fetched
    apart from the browser: Playwright's own fetch would store the cookies in the context.)"""
    if request.frame.parent_frame is None:
        route.continue_()
        return
    answer = httpx.get(request.url, timeout=30)
    headers = {k: v for k, v in answer.headers.items()
               if k.lower() not in ("set-cookie", "content-length", "content-encoding", "transfer-encoding")}
    route.fulfill(status=answer.status_code, headers=headers, body=answer.content)


def test_register_deep_link_launch_submit_in_the_lms_frame_and_the_score_arrives(
        open_page: PageFactory, live_server: str, story_problem: StoryProblem,
        grade_sender: subprocess.Popen[bytes], lms: Platform) -> None:
    lms.add_user("tess", "Tess Teacher", "tess@example.org", roles=[INSTRUCTOR])
    lms.add_user("ann", "Ann Lee", "ann@example.org", roles=[LEARNER])
    lms.add_user("bob", "Bob Ray", "bob@example.org", roles=[LEARNER])

    # Dynamic registration, opened by the LMS in a frame: the frame only offers a window of the
    # judge's own, where the signed-in admin confirms; the close reaches the LMS through the frame.
    admin = make_password_account(Role.ADMIN, "lti-admin")
    admin_page = open_page()
    sign_in(admin_page, admin)
    admin_page.goto(lms.registration_page_url(f"{live_server}/lti/register"))
    frame = admin_page.frame_locator("#registration-frame")
    expect(frame.get_by_role("button", name=CONFIRM)).to_have_count(0)
    with admin_page.expect_popup() as opened:
        frame.get_by_role("button", name="Open the registration in a new window").click()
    registration = opened.value
    expect(registration.get_by_role("row", name=re.compile("^Issuer"))).to_contain_text(lms.issuer)
    registration.get_by_role("button", name=CONFIRM).click()
    expect(registration.get_by_text(re.compile(r"^Registered: "))).to_be_visible()
    expect(admin_page.locator("#status")).to_have_text("Registration closed")
    tool = lms.tool
    assert tool is not None and tool.registration is not None, lms.refusals
    assert [close["data"] for close in lms.registration_closes] == [{"subject": "org.imsglobal.lti.close"}]
    assert lms.registration_closes[0]["origin"] == live_server

    second_slug = f"lti_frame_{uuid.uuid4().hex[:6]}"
    second_title = publish_problem(live_server, story_problem.owner, second_slug,
                                   problem_files(STORY_PROBLEM, second_slug, f"Framed copy {second_slug}"))

    # The instructor's deep-linking launch: the judge's picker in the frame; two problems placed.
    teacher = open_page()
    teacher.goto(lms.deep_link_course_url("tess"))
    picker = lms_frame(teacher)
    expect(picker.get_by_role("heading", level=1, name="Add to the LMS course")).to_be_visible(timeout=30_000)
    expect(picker.get_by_text("Signed in as Tess Teacher (instructor)")).to_be_visible()
    before = set(lms.links)
    for slug in (story_problem.slug, second_slug):
        picker.get_by_role("checkbox", name=re.compile(rf"\s{re.escape(slug)}$")).check()
    picker.get_by_role("button", name="Add to the LMS course").click()
    expect(picker.get_by_role("heading", name="2 items added")).to_be_visible(timeout=30_000)
    placed = [link for link in lms.links if link not in before]
    by_slug = {lms.links[link].custom.get("problem"): lms.links[link] for link in placed}
    assert set(by_slug) == {story_problem.slug, second_slug}, (lms.links, lms.refusals)
    assert {link.title for link in by_slug.values()} == {story_problem.title, second_title}
    for placed_link in by_slug.values():
        assert placed_link.line_item_id is not None
        assert lms.line_items[placed_link.line_item_id]["scoreMaximum"] == 1

    # The learner's launch: the problem in the frame, signed in; a solution typed and submitted.
    link = by_slug[story_problem.slug]
    learner = open_page()
    learner.goto(lms.course_url("ann", link.id))
    problem = lms_frame(learner)
    expect(problem.get_by_role("heading", level=1, name=story_problem.title)).to_be_visible(timeout=30_000)
    expect(problem.get_by_text("Signed in as Ann Lee (learner)")).to_be_visible()
    assert judge_frame_url(learner, live_server) == f"{live_server}/problems/{story_problem.slug}"
    type_code(learner, problem.get_by_role("textbox", name="your solution"), SOLUTION)
    with learner.expect_response(lambda r: r.url.endswith("/api/v1/submissions")
                                 and r.request.method == "POST") as posted:
        problem.get_by_role("button", name="Submit", exact=True).click()
    assert posted.value.status == 202, posted.value.text()
    expect(problem.get_by_role("status").filter(has_text=ACCEPTED).first).to_be_visible(timeout=JUDGED)

    # The score reaches the LMS's line item.
    assert link.line_item_id is not None
    [score] = lms.wait_for_scores(link.line_item_id, 1, timeout=60)
    assert (score["userId"], score["scoreGiven"], score["scoreMaximum"]) == ("ann", 1.0, 1), score
    assert (score["activityProgress"], score["gradingProgress"]) == ("Completed", "FullyGraded"), score

    # A browser that keeps no cookie in the frame: the login's page offers a new window (before
    # the LMS spends its login hint), where the learner lands signed in.
    blocked = open_page()
    blocked.route(f"{live_server}/lti/login**", no_cookies_in_frames)
    # The LMS's start URL sends the frame on to the judge's login: taken here (Playwright does
    # not route a redirect's next request), and the judge's login framed by a page of the LMS.
    started = httpx.get(lms.launch_start_url("bob", link.id), timeout=30)
    assert started.status_code == 302, started.text
    blocked.goto(f"{lms.url}/return")  # any page of the LMS
    blocked.evaluate("""(src) => {
        const frame = document.createElement("iframe");
        frame.id = "lti-frame";
        frame.src = src;
        document.body.append(frame);
    }""", started.headers["location"])
    offer = lms_frame(blocked)
    with blocked.expect_popup() as opened:
        offer.get_by_role("link", name=NEW_WINDOW).click()
    window = opened.value
    expect(window).to_have_url(f"{live_server}/problems/{story_problem.slug}", timeout=30_000)
    expect(window.get_by_text("Signed in as Bob Ray (learner)")).to_be_visible()
    assert not lms.refusals, lms.refusals
