"""The submission page shows a large returned value as the judge stored it: its text cut to the
stated size, with the note that says so (judge/stored_values.py)."""

from __future__ import annotations

import subprocess

import httpx
import pytest

from tests.browser.support import require_playwright

require_playwright()

from playwright.sync_api import expect  # noqa: E402

from tests.browser.conftest import Account, PageFactory  # noqa: E402
from tests.browser.test_learner_story import judged  # noqa: E402

pytestmark = [pytest.mark.browser, pytest.mark.docker]


def test_a_large_returned_value_is_shown_cut_with_its_note(
        worker: subprocess.Popen[bytes], open_page: PageFactory, learner: Account, live_server: str) -> None:
    code = "def lookup(key):\n    return 'x' * 600_000\n"
    with httpx.Client(base_url=live_server, headers={"Authorization": f"Bearer {learner.token}"},
                      timeout=40) as http:
        created = http.post("/api/v1/submissions", json={"problem": "secret_lookup", "code": code,
                                                         "mode": "run"})
        assert created.status_code == 202, created.text
    done = judged(live_server, learner.token, created.json()["id"])
    assert done["verdict"] == "wrong_answer"
    page = open_page(token=learner.token)
    page.goto(f"/submissions/{created.json()['id']}")
    note = page.get_by_text("value of 600,002 characters, first 2,000 shown").first
    expect(note).to_be_visible(timeout=20_000)
    shown = page.locator(".test-detail dd pre").filter(has_text="xxxx").first
    assert len(shown.inner_text()) == 2_000
