"""Today's pages in a real browser: they load, link, render, pass axe-core's WCAG 2.1 A/AA
rules, fit a 375 px phone without scrolling sideways, and log no error and no CSP refusal."""

from __future__ import annotations

import re
import time
from datetime import UTC, datetime

import pytest

from tests.browser.support import assert_accessible, horizontal_overflow, require_playwright, settle

require_playwright()

from playwright.sync_api import Page, expect  # noqa: E402

from judge.problems import load_problem  # noqa: E402
from tests.browser.conftest import CONSOLE, Account, PageFactory  # noqa: E402
from tests.utils.service import store_submission  # noqa: E402
from tests.utils.service_env import FIXTURE_PROBLEMS  # noqa: E402

pytestmark = pytest.mark.browser

FIXTURE = load_problem(FIXTURE_PROBLEMS / "secret_lookup")
PAGES = {"problem-list": "/", "problem": f"/problems/{FIXTURE.slug}", "submissions": "/submissions"}


def drawn(page: Page, path: str) -> Page:
    """Open path and wait until the script has drawn it: a level-1 heading in the main region,
    no "Loading…" left, and the page's later fetches (statistics, progress) landed."""
    page.goto(path)
    expect(page.get_by_role("main").get_by_role("heading", level=1)).to_be_visible()
    expect(page.get_by_text("Loading…")).to_have_count(0)
    settle(page)
    return page


def a_judged_submission(learner: Account) -> None:
    """One finished submission of the learner's, written to the database, so the submissions
    page shows its table (a fresh learner would see a notice instead)."""
    store_submission(user=learner.name, status="done", verdict="wrong_answer", score=0.5,
                     started_at=datetime.now(UTC), finished_at=datetime.now(UTC))


def test_the_problem_list_links_to_a_problem(page: Page) -> None:
    drawn(page, "/")
    # Other tests upload copies of this fixture under their own slugs, with the same title; the
    # track table above the list links it too (as the next to try).
    page.locator("table.problems").get_by_role("link", name=FIXTURE.title, exact=True).and_(
        page.locator(f'[href="/problems/{FIXTURE.slug}"]')).click()
    expect(page).to_have_url(re.compile(rf"/problems/{FIXTURE.slug}$"))
    expect(page.get_by_role("heading", level=1, name=FIXTURE.title)).to_be_visible()


def test_the_problem_page_renders_the_statement(page: Page) -> None:
    drawn(page, f"/problems/{FIXTURE.slug}")
    first_sentence = FIXTURE.statement.split(".")[0]
    expect(page.get_by_text(first_sentence)).to_be_visible()
    expect(page.get_by_role("textbox", name="your solution")).to_be_visible()


@pytest.mark.parametrize("path", PAGES.values(), ids=PAGES.keys())
def test_pages_have_no_accessibility_violations(page: Page, learner: Account, path: str) -> None:
    a_judged_submission(learner)
    assert_accessible(drawn(page, path))


@pytest.mark.parametrize("path", PAGES.values(), ids=PAGES.keys())
def test_a_375px_phone_never_scrolls_sideways(open_page: PageFactory, learner: Account, path: str) -> None:
    a_judged_submission(learner)
    page = drawn(open_page(token=learner.token, width=375, height=740), path)
    assert horizontal_overflow(page) is None


def test_the_console_guard_sees_a_refused_script_and_an_uncaught_error(page: Page,
                                                                         request: pytest.FixtureRequest) -> None:
    # The guard that fails every other test must itself see faults: the CSP refuses an inline
    # script the page did not ship, and an exception nobody catches reaches the console.
    drawn(page, "/")
    page.evaluate("""() => {
      const script = document.createElement("script");
      script.textContent = "window.inlineRan = true";
      document.body.append(script);
      setTimeout(() => { throw new Error("deliberately uncaught"); });
    }""")
    console = request.node.stash[CONSOLE]
    deadline = time.monotonic() + 5
    while len(console.problems) < 2 and time.monotonic() < deadline:
        page.wait_for_timeout(50)
    seen = "\n".join(console.problems)
    assert "Content Security Policy" in seen and "deliberately uncaught" in seen, seen
    assert page.evaluate("() => window.inlineRan") is None
    console.problems.clear()  # seen and expected: this test passes


def test_the_audit_names_each_violation(page: Page) -> None:
    # The audit that guards every page must itself fail, and say where: an image without a
    # text alternative and a button without a name, added to a page that passes.
    drawn(page, "/")
    page.evaluate("""() => {
      const image = document.createElement("img");
      image.src = "/static/favicon.svg";
      const button = document.createElement("button");
      button.id = "nameless";
      document.querySelector("main").append(image, button);
    }""")
    with pytest.raises(pytest.fail.Exception) as failed:
        assert_accessible(page)
    report = str(failed.value)
    assert "image-alt (critical)" in report and "button-name (critical)" in report, report
    assert "#nameless" in report, report
