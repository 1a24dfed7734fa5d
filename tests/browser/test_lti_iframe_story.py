"""LTI 1.3 in a real browser, the judge inside the LMS's iframe: an admin registers the judge with
the test LMS (tests/lti/platform.py) by LTI Dynamic Registration; an instructor launches a deep
linking request in the course page's frame and places two problems; a learner launches one in
the frame, writes a solution in the editor and submits it, and the score reaches the LMS's line
item, sent by a webhook worker; and a learner whose browser keeps no cookie in the frame is
offered a new window, where the login starts again and they land signed in.

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
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from tests.browser.support import require_playwright

require_playwright()

from playwright.sync_api import FrameLocator, Page, Request, Route, expect  # noqa: E402

from service.cli import webhook_worker_command  # noqa: E402
from service.db.models import Role  # noqa: E402
from service.settings import get_settings  # noqa: E402
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
from tests.lti.conftest import INSTRUCTOR, LEARNER, SENDER_SETTINGS  # noqa: E402
from tests.lti.platform import Platform  # noqa: E402
from tests.utils.service_fixtures import _started, _stopped  # noqa: E402

pytestmark = [pytest.mark.browser, pytest.mark.docker]

SOLUTION = (STORY_PROBLEM / "reference.py").read_text(encoding="utf-8")
JUDGED = 60_000  # ms: a submission judged in the sandbox by the session worker
ACCEPTED = re.compile(r"accepted", re.IGNORECASE)
NEW_WINDOW = "Open the judge in a new window"


@dataclass
class Steps:
    """The story's steps, named, so that a failure says how far it got."""

    passed: list[str] = field(default_factory=list)

    @contextmanager
    def step(self, name: str) -> Iterator[None]:
        try:
            yield
        except BaseException as failure:
            failure.add_note(f"LTI iframe story: failed at {name!r}; passed before it: {self.passed or 'none'}")
            raise
        self.passed.append(name)
        print(f"story step passed: {name}")


@pytest.fixture(scope="module")
def grade_sender(live_server: str) -> Iterator[subprocess.Popen[bytes]]:
    """A webhook worker (the one that sends LTI grades), sweeping often and retrying soon, as
    tests/lti/conftest.py's grade_sender (whose fixtures tests/browser does not see)."""
    with pytest.MonkeyPatch.context() as patch:
        for name, value in SENDER_SETTINGS.items():
            patch.setenv(name, value)
        get_settings.cache_clear()
        log = Path(get_settings().data_dir) / f"lti-browser-sender-{uuid.uuid4().hex[:6]}.log"
        process = _started(webhook_worker_command(4), log)
        try:
            yield process
        finally:
            _stopped(process)
    get_settings.cache_clear()


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


def without_cookies(route: Route, request: Request) -> None:
    """The request on its way without its Cookie header, as from a browser that blocks cookies in
    third-party frames."""
    headers = {name: value for name, value in request.headers.items() if name.lower() != "cookie"}
    route.continue_(headers=headers)


def test_register_deep_link_launch_submit_in_the_lms_frame_and_the_score_arrives(
        open_page: PageFactory, live_server: str, story_problem: StoryProblem,
        grade_sender: subprocess.Popen[bytes], lms: Platform) -> None:
    steps = Steps()
    lms.add_user("tess", "Tess Teacher", "tess@example.org", roles=[INSTRUCTOR])
    lms.add_user("ann", "Ann Lee", "ann@example.org", roles=[LEARNER])
    lms.add_user("bob", "Bob Ray", "bob@example.org", roles=[LEARNER])
    register_url = f"{live_server}/lti/register"

    admin = make_password_account(Role.ADMIN, "lti-admin")
    admin_page = open_page()
    with steps.step("the admin signs in to the judge and opens the LMS's registration page"):
        sign_in(admin_page, admin)
        admin_page.goto(lms.registration_page_url(register_url))
        expect(admin_page.locator("#status")).to_have_text("Registering")
        frame = admin_page.frame_locator("#registration-frame")
        # The judge's page shows in the frame (not refused by its frame-ancestors).
        expect(frame.locator("main#app")).to_be_attached()

    with steps.step("the admin confirms the platform and the LMS hears the close"):
        registration = frame
        confirm = frame.get_by_role("button", name="Register the judge with this platform")
        if not confirm.is_visible():
            # The frame sends no session of the admin's (SameSite=Strict): the registration in a
            # window of its own, opened by the LMS's page (DR 1.0 allows either), to which the
            # judge's page posts its close.
            print("story note: the frame cannot sign the admin in; the registration opens in a window")
            with admin_page.expect_popup() as opened:
                admin_page.evaluate("() => window.open(document.getElementById('registration-frame').src, "
                                    "'registration')")
            window = opened.value
            window.wait_for_load_state()
            registration = window  # type: ignore[assignment]
            confirm = window.get_by_role("button", name="Register the judge with this platform")
        expect(registration.get_by_role("heading", level=1, name="Register with an LMS")).to_be_visible()
        expect(registration.get_by_role("row", name=re.compile("Issuer"))).to_contain_text(lms.issuer)
        confirm.click()
        expect(registration.get_by_text(re.compile(r"^Registered: "))).to_be_visible()
        tool = lms.tool
        assert tool is not None and tool.registration is not None, lms.refusals
        expect(admin_page.locator("#status")).to_have_text("Registration closed")
        assert [close["data"] for close in lms.registration_closes] == [{"subject": "org.imsglobal.lti.close"}]
        assert lms.registration_closes[0]["origin"] == live_server

    second_slug = f"lti_frame_{uuid.uuid4().hex[:6]}"
    second_title = publish_problem(live_server, story_problem.owner, second_slug,
                                   problem_files(STORY_PROBLEM, second_slug, f"Framed copy {second_slug}"))

    teacher = open_page()
    with steps.step("the instructor's deep linking launch shows the judge's picker in the frame"):
        teacher.goto(lms.deep_link_course_url("tess"))
        picker = lms_frame(teacher)
        expect(picker.get_by_role("heading", level=1, name="Add to the LMS course")).to_be_visible(timeout=30_000)
        expect(picker.get_by_text("Signed in as Tess Teacher (instructor)")).to_be_visible()

    before = set(lms.links)
    with steps.step("the instructor ticks two problems and adds them; the answer goes back to the LMS"):
        for slug in (story_problem.slug, second_slug):
            box = picker.get_by_role("checkbox", name=re.compile(rf"\s{re.escape(slug)}$"))
            box.check()
        picker.get_by_role("button", name="Add to the LMS course").click()
        expect(picker.get_by_role("heading", name="2 items added")).to_be_visible(timeout=30_000)
        placed = [link for link in lms.links if link not in before]
        assert len(placed) == 2, (lms.links, lms.refusals)
        by_slug = {lms.links[link].custom.get("problem"): lms.links[link] for link in placed}
        assert set(by_slug) == {story_problem.slug, second_slug}, by_slug
        titles = {link.title for link in by_slug.values()}
        assert titles == {story_problem.title, second_title}, titles
        items = lms.line_items
        for link in by_slug.values():
            assert link.line_item_id is not None, link
            assert items[link.line_item_id]["scoreMaximum"] == 1, items

    link = by_slug[story_problem.slug]
    learner = open_page()
    with steps.step("the learner's launch opens the problem in the frame, signed in as Ann Lee"):
        learner.goto(lms.course_url("ann", link.id))
        problem = lms_frame(learner)
        expect(problem.get_by_role("heading", level=1, name=story_problem.title)).to_be_visible(timeout=30_000)
        expect(problem.get_by_text("Signed in as Ann Lee (learner)")).to_be_visible()
        assert judge_frame_url(learner, live_server) == f"{live_server}/problems/{story_problem.slug}"

    with steps.step("the learner types a solution, submits, and reads 'accepted' in the frame"):
        editor = problem.get_by_role("textbox", name="your solution")
        type_code(learner, editor, SOLUTION)
        with learner.expect_response(lambda r: r.url.endswith("/api/v1/submissions")
                                     and r.request.method == "POST") as posted:
            problem.get_by_role("button", name="Submit", exact=True).click()
        assert posted.value.status == 202, posted.value.text()
        assert posted.value.request.post_data_json["mode"] == "submit"
        verdict = problem.get_by_role("status").filter(has_text=ACCEPTED).first
        expect(verdict).to_be_visible(timeout=JUDGED)

    with steps.step("the score arrives at the LMS's line item"):
        assert link.line_item_id is not None
        [score] = lms.wait_for_scores(link.line_item_id, 1, timeout=60)
        assert (score["userId"], score["scoreGiven"], score["scoreMaximum"]) == ("ann", 1.0, 1), score
        assert (score["activityProgress"], score["gradingProgress"]) == ("Completed", "FullyGraded"), score

    blocked = open_page()
    with steps.step("with no cookie in the frame, the frame offers a new window"):
        blocked.route(f"{live_server}/lti/launch", without_cookies)
        blocked.goto(lms.course_url("bob", link.id))
        offer = lms_frame(blocked)
        expect(offer.get_by_role("heading", level=1, name=NEW_WINDOW)).to_be_visible(timeout=30_000)

    with steps.step("the new window starts the login again and the learner lands signed in"):
        with blocked.expect_popup() as opened:
            offer.get_by_role("link", name=NEW_WINDOW).click()
        window = opened.value
        expect(window).to_have_url(f"{live_server}/problems/{story_problem.slug}", timeout=30_000)
        expect(window.get_by_role("heading", level=1, name=story_problem.title)).to_be_visible()
        expect(window.get_by_text("Signed in as Bob Ray (learner)")).to_be_visible()
        assert any(refusal for refusal in lms.refusals) is False, lms.refusals
