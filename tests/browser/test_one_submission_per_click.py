"""Run, Submit and Try each hold one submission: eight fast clicks on a button make one
submission, sent with an Idempotency-Key; the button stays disabled and busy until the verdict is
in, or until the API refuses the submission (a 429 over the queue quota), and then comes back."""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager

import httpx
import pytest
from sqlalchemy import delete, update

from service.db.models import Submission, SubmissionStatus, utcnow
from service.db.session import session_scope
from tests.browser.conftest import STORY_PROBLEM, Account, PageFactory, StoryProblem
from tests.browser.support import require_playwright
from tests.utils.service import store_submission

require_playwright()

from playwright.sync_api import Locator, Page, Request, Response, expect  # noqa: E402

pytestmark = [pytest.mark.browser, pytest.mark.docker]

JUDGED = 60_000  # ms: judged in the sandbox by the session worker
CLICKS = 8
# The reference, one second slower to load: long enough that all eight clicks land while it is
# judged, whatever this machine's load.
SLOW_SOLUTION = (STORY_PROBLEM / "reference.py").read_text(encoding="utf-8") + "\nimport time\n\ntime.sleep(1.0)\n"


def _posts(page: Page) -> list[Request]:
    """Every POST /api/v1/submissions the page sends, from now on."""
    sent: list[Request] = []
    page.on("request", lambda r: sent.append(r) if r.method == "POST" and r.url.endswith("/api/v1/submissions")
            else None)
    return sent


def _click_fast(page: Page, button: Locator) -> None:
    """Eight real mouse clicks on the button's centre, 40 ms apart (a person's fast clicking)."""
    button.scroll_into_view_if_needed()
    # Where it stays: a panel just opened (Try) may still move it on a loaded machine, and a
    # click at where it was lands beside it.
    box, before = button.bounding_box(), None
    for _ in range(50):
        if box is not None and box == before:
            break
        page.wait_for_timeout(50)
        before, box = box, button.bounding_box()
    assert box is not None
    for _ in range(CLICKS):
        page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        page.wait_for_timeout(40)


def _submissions(live_server: str, learner: Account, slug: str) -> list[dict[str, object]]:
    with httpx.Client(base_url=live_server, headers={"Authorization": f"Bearer {learner.token}"}, timeout=30) as http:
        listed = http.get("/api/v1/submissions", params={"problem": slug, "limit": 100})
        assert listed.status_code == 200, listed.text
        return list(listed.json()["items"])


def _latest_answer(response: Response) -> bool:
    return "/api/v1/submissions?" in response.url and "limit=1" in response.url


def _problem_page(open_page: PageFactory, learner: Account, story_problem: StoryProblem) -> Page:
    page = open_page(token=learner.token)
    # The page asks for the learner's latest submission as it opens (to show it again): wait for
    # that answer, so that rows a test writes afterwards are not taken for it. The first load's
    # answer too: on a loaded machine it came after the reload began and was taken for the
    # second's, and the second then found the queued rows a test wrote and held the button.
    with page.expect_response(_latest_answer):
        page.goto(f"/problems/{story_problem.slug}")
    page.evaluate("([key, code]) => localStorage.setItem(key, code)",
                  [f"judge.draft.{story_problem.slug}", SLOW_SOLUTION])
    with page.expect_response(_latest_answer):
        page.reload()
    expect(page.get_by_role("button", name="Submit", exact=True)).to_be_enabled()
    return page


def _held(button: Locator) -> None:
    expect(button).to_be_disabled()
    expect(button).to_have_attribute("aria-busy", "true")
    expect(button).to_have_class(re.compile(r"\bbusy\b"))


def _back(button: Locator) -> None:
    expect(button).to_be_enabled(timeout=JUDGED)
    expect(button).not_to_have_attribute("aria-busy", "true")


@pytest.mark.parametrize("mode", ["run", "submit", "try"])
def test_eight_fast_clicks_make_one_submission_held_until_its_verdict(
        open_page: PageFactory, learner: Account, story_problem: StoryProblem, live_server: str, mode: str) -> None:
    page = _problem_page(open_page, learner, story_problem)
    if mode == "try":
        page.get_by_role("button", name="Try your own arguments").click()
        button = page.get_by_role("button", name="Try", exact=True)
    else:
        button = page.get_by_role("button", name=mode.capitalize(), exact=True)
    posts = _posts(page)

    _click_fast(page, button)
    _held(button)
    _back(button)

    # The button came back only once the verdict was in: the one submission is done by now.
    made = _submissions(live_server, learner, story_problem.slug)
    assert [(s["mode"], s["status"]) for s in made] == [(mode, "done")], made
    assert len(posts) == 1, [p.post_data for p in posts]
    first_key = posts[0].headers.get("idempotency-key")
    assert first_key, posts[0].headers

    # The next click is a new submission, with a key of its own.
    button.click()
    _held(button)
    _back(button)
    assert len(_submissions(live_server, learner, story_problem.slug)) == 2
    assert len(posts) == 2 and posts[1].headers.get("idempotency-key") not in (None, first_key)


@contextmanager
def _queue_full(learner: Account, slug: str) -> Iterator[None]:
    """The learner's queue quota (5) filled with submissions no worker is sent: the next is a 429."""
    ids = [store_submission(user=learner.name, problem=slug, mode="submit") for _ in range(5)]
    try:
        yield
    finally:
        with session_scope() as session:
            session.execute(delete(Submission).where(Submission.id.in_(ids)))


def test_a_refused_submission_gives_the_button_back_at_once(
        open_page: PageFactory, learner: Account, story_problem: StoryProblem, live_server: str) -> None:
    page = _problem_page(open_page, learner, story_problem)
    submit = page.get_by_role("button", name="Submit", exact=True)
    posts = _posts(page)
    with _queue_full(learner, story_problem.slug):
        with page.expect_response(lambda r: r.url.endswith("/api/v1/submissions") and r.status == 429):
            submit.click()
        _back(submit)
        expect(page.get_by_text(re.compile("the limit is 5"))).to_be_visible()
        assert len(posts) == 1
    # The quota has room again: the same button sends, and is held until the verdict.
    _click_fast(page, submit)
    _held(submit)
    _back(submit)
    assert len(posts) == 2
    made = [s for s in _submissions(live_server, learner, story_problem.slug) if s["status"] == "done"]
    assert len(made) == 1, made


def test_a_refusal_stays_on_screen_when_an_earlier_submission_finishes(
        open_page: PageFactory, learner: Account, story_problem: StoryProblem) -> None:
    """A Run still followed from before (sent from another tab) finishes after a 429: the
    refusal stays in the panel instead of being replaced by that Run's verdict."""
    earlier = store_submission(user=learner.name, problem=story_problem.slug, mode="run")
    page = open_page(token=learner.token)
    page.goto(f"/problems/{story_problem.slug}")
    expect(page.locator(".result-panel").get_by_text("queued")).to_be_visible()
    fill = [store_submission(user=learner.name, problem=story_problem.slug, mode="submit") for _ in range(4)]
    try:
        submit = page.get_by_role("button", name="Submit", exact=True)
        with page.expect_response(lambda r: r.url.endswith("/api/v1/submissions") and r.status == 429):
            submit.click()
        refusal = page.get_by_text(re.compile("the limit is 5"))
        expect(refusal).to_be_visible()
        with session_scope() as session:  # the earlier Run's verdict, as a worker would write it
            session.execute(update(Submission).where(Submission.id == earlier).values(
                status=SubmissionStatus.DONE, verdict="internal_error", message="finished by the test",
                finished_at=utcnow()))
        page.wait_for_timeout(3000)  # longer than a poll: the Run's verdict has been read
        expect(refusal).to_be_visible()
    finally:
        with session_scope() as session:
            session.execute(delete(Submission).where(Submission.id.in_([earlier, *fill])))


def test_after_a_reload_a_pending_submission_holds_its_button_until_its_verdict(
        open_page: PageFactory, learner: Account, story_problem: StoryProblem) -> None:
    """A submission still queued when the page opens (sent from another tab, or before a reload)."""
    pending = store_submission(user=learner.name, problem=story_problem.slug, mode="submit")
    try:
        page = open_page(token=learner.token)
        page.goto(f"/problems/{story_problem.slug}")
        submit = page.get_by_role("button", name="Submit", exact=True)
        _held(submit)
        expect(page.get_by_role("button", name="Run", exact=True)).to_be_enabled()
        with session_scope() as session:  # the verdict, as a worker would write it
            session.execute(update(Submission).where(Submission.id == pending).values(
                status=SubmissionStatus.DONE, verdict="internal_error", message="finished by the test",
                finished_at=utcnow()))
        _back(submit)
    finally:
        with session_scope() as session:
            session.execute(delete(Submission).where(Submission.id == pending))


def test_the_keyboard_goes_on_from_the_result_and_skips_to_the_editor(
        open_page: PageFactory, learner: Account, story_problem: StoryProblem) -> None:
    """Submit pressed from the keyboard: its button is held (disabled), and the focus moves to the
    result instead of dropping to the page's body; the verdict is announced in the status region.
    The skip link takes the keyboard straight into the editor."""
    page = _problem_page(open_page, learner, story_problem)
    submit = page.get_by_role("button", name="Submit", exact=True)
    submit.focus()
    page.keyboard.press("Enter")
    _held(submit)
    result = page.locator(".result-panel")
    expect(result).to_be_focused()
    assert page.evaluate("() => document.activeElement !== document.body")
    expect(page.locator(".verdict-status")).to_contain_text(re.compile("accepted", re.IGNORECASE), timeout=JUDGED)
    _back(submit)

    skip = page.get_by_role("link", name="Skip to the code editor")
    skip.focus()
    expect(skip).to_be_visible()  # drawn while it has the focus
    page.keyboard.press("Enter")
    expect(page.get_by_role("textbox", name="your solution")).to_be_focused()
