"""A hint that names the public tests it is about is offered first when one of them fails: the
learner's Run fails "half_matched", and the problem page offers hint 2 (about that test) ahead
of hint 1. Judged for real by the session worker."""

from __future__ import annotations

import subprocess
import uuid
from pathlib import Path

import httpx
import pytest

from tests.browser.support import assert_accessible, require_playwright

require_playwright()

from playwright.sync_api import expect  # noqa: E402

from service.db.models import Role  # noqa: E402
from tests.browser.conftest import PageFactory, make_account, problem_files, publish_problem  # noqa: E402
from tests.browser.test_pages import drawn  # noqa: E402

pytestmark = pytest.mark.browser
WRONG = "def unigram_precision(candidate, reference):\n    return 1.0\n"  # fails half_matched only


def test_the_hint_about_a_failing_test_is_offered_first(open_page: PageFactory, live_server: str,
                                                        worker: subprocess.Popen[bytes]) -> None:
    author, learner = make_account(Role.INSTRUCTOR, "hint-author"), make_account(Role.LEARNER, "hint-learner")
    slug = f"hinted_{uuid.uuid4().hex[:8]}"
    # A title of its own: the learner story finds its problem in the list by title.
    files = problem_files(Path(__file__).parent / "problem", slug, title=f"Hinted precision {slug[-8:]}")
    files["hints.md"] = files["hints.md"].replace("## Clip with the intersection",
                                                  "## Clip with the intersection {tests: half_matched}")
    publish_problem(live_server, author, slug, files)
    with httpx.Client(base_url=live_server, headers={"Authorization": f"Bearer {learner.token}"}, timeout=60) as http:
        sent = http.post("/api/v1/submissions", json={"problem": slug, "code": WRONG, "mode": "run"}).json()
        done = http.get(f"/api/v1/submissions/{sent['id']}?wait=30").json()
        assert done["verdict"] == "wrong_answer", done
        assert http.get(f"/api/v1/problems/{slug}").json()["hint_tests"] == [[], ["half_matched"]]

    page = open_page(token=learner.token)
    drawn(page, f"/problems/{slug}")  # the latest result is shown again, and with it the offer
    hints = page.get_by_role("region", name="Hints")
    expect(hints).to_contain_text("Test “half_matched” failed, and hint 2 is about it.")
    hints.get_by_role("button", name="Show the hint about “half_matched”").click()
    expect(hints.get_by_role("heading", name="Hint 2")).to_be_visible()
    expect(hints).to_contain_text("keeps, for every token, the smaller of its two counts")
    expect(hints.get_by_role("heading", name="Hint 1")).to_have_count(0)
    expect(hints.get_by_role("button", name="Show the hint about “half_matched”")).to_have_count(0)
    assert_accessible(page)
    # The next in order is the one left.
    hints.get_by_role("button", name="Show a hint").click()
    expect(hints.get_by_role("heading", name="Hint 1")).to_be_visible()
    expect(hints).to_contain_text("All 2 hints shown.")
