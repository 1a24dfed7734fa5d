"""A display formula wider than a phone's column scrolls sideways, and then the keyboard reaches
it (a tab stop whose arrows scroll it); where it fits, it is no tab stop at all."""

from __future__ import annotations

import subprocess

import pytest

from tests.browser.support import assert_accessible, require_playwright

require_playwright()

from playwright.sync_api import expect  # noqa: E402

from service.db.models import Role  # noqa: E402
from tests.browser.conftest import STORY_PROBLEM, PageFactory, make_account, problem_files, publish_problem  # noqa: E402
from tests.browser.test_pages import drawn  # noqa: E402

pytestmark = [pytest.mark.browser, pytest.mark.docker]

WIDE = ("$$\\mathrm{precision} = \\frac{c_1 + c_2 + c_3 + c_4 + c_5 + c_6 + c_7 + c_8 + c_9}"
        "{n_1 + n_2 + n_3 + n_4 + n_5 + n_6 + n_7 + n_8 + n_9}$$")


@pytest.fixture(scope="module")
def wide_formula_problem(live_server: str, worker: subprocess.Popen[bytes]) -> str:
    author = make_account(Role.INSTRUCTOR, "formula-author")
    slug = "browser_wide_formula"
    files = problem_files(STORY_PROBLEM, slug, "A wide formula")
    files["statement.md"] = f"The score, in full:\n\n{WIDE}\n\n" + files["statement.md"]
    publish_problem(live_server, author, slug, files)
    return slug


def test_a_wide_formula_is_a_tab_stop_on_a_phone_only(open_page: PageFactory, wide_formula_problem: str) -> None:
    learner = make_account(Role.LEARNER, "formula-reader")
    phone = drawn(open_page(token=learner.token, width=360, height=740), f"/problems/{wide_formula_problem}")
    wide = phone.locator('.statement math[display="block"]').first
    expect(wide).to_have_attribute("tabindex", "0")
    wide.focus()
    phone.keyboard.press("ArrowRight")
    phone.keyboard.press("ArrowRight")
    # A key's scroll may be smooth: it ends a few frames later (a loaded machine, seen in CI).
    phone.wait_for_function("(node) => node.scrollLeft > 0", arg=wide.element_handle(), timeout=5000)
    assert_accessible(phone)

    desk = drawn(open_page(token=learner.token), f"/problems/{wide_formula_problem}")
    formulas = desk.locator('.statement math[display="block"]')
    expect(formulas.first).to_be_visible()
    for index in range(formulas.count()):
        expect(formulas.nth(index)).not_to_have_attribute("tabindex", "0")
