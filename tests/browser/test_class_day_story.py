"""One class's day, start to end, across the pages and the command line, judged for real by the
session worker: an instructor makes an assignment that holds its grades; a learner solves one
problem from the problem list (no assignment in the address) and another with `judge-client`,
and sees both judged and held everywhere; the instructor sets one score by hand, grants a
classmate an extension and releases the grades; the learner is notified, reads the scores as
they count (the hand-set one named as such) and the instructor exports the CSV an LMS imports.
axe checks the pages the new parts drew."""

from __future__ import annotations

import csv
import io
import os
import re
import subprocess
import sys
import uuid
from pathlib import Path

import pytest

from tests.browser.support import api_call, assert_accessible, require_playwright

require_playwright()

from playwright.sync_api import Page, expect  # noqa: E402

from service.db.models import Role  # noqa: E402
from tests.browser.conftest import STORY_PROBLEM, PageFactory, StoryProblem, make_account  # noqa: E402
from tests.browser.test_instructor_story import Steps, drawn, submit_in_page  # noqa: E402
from tests.browser.test_learner_story import judged, type_code  # noqa: E402
from tests.browser.test_pages import FIXTURE  # noqa: E402
from tests.utils.service import REFERENCE  # noqa: E402

pytestmark = [pytest.mark.browser, pytest.mark.docker]

ROOT = Path(__file__).resolve().parents[2]
SOLUTION = (STORY_PROBLEM / "reference.py").read_text(encoding="utf-8")
HELD = "judged; the result is held until your instructors release the grades"


def judge_client(live_server: str, token: str, home: Path, *args: str) -> subprocess.CompletedProcess[str]:
    environment = {key: value for key, value in os.environ.items() if not key.startswith("JUDGE_CLIENT_")}
    environment.update(XDG_CONFIG_HOME=str(home), PYTHONPATH=str(ROOT), COLUMNS="200",
                       JUDGE_CLIENT_URL=live_server, JUDGE_CLIENT_TOKEN=token)
    return subprocess.run([sys.executable, "-m", "judge_client", *args], capture_output=True, text=True,
                          cwd=home, env=environment, timeout=300)


def gradebook_row(page: Page, name: str) -> object:
    return page.get_by_role("row").filter(has_text=name)


def test_a_class_day_from_held_work_to_released_grades_and_the_lms_csv(
        open_page: PageFactory, live_server: str, story_problem: StoryProblem, worker: object,
        tmp_path: Path) -> None:
    steps = Steps()
    tag = uuid.uuid4().hex[:6]
    teacher = make_account(Role.INSTRUCTOR, "day-teacher")
    ann, bob = make_account(Role.LEARNER, "day-ann"), make_account(Role.LEARNER, "day-bob")
    course = api_call(live_server, teacher, "POST", "/courses", title=f"Day {tag}")
    for learner in (ann, bob):
        api_call(live_server, learner, "POST", "/courses/join", code=course["join_code"])
    week_title = f"Week {tag}"
    problems = [story_problem.slug, FIXTURE.slug]

    staff = open_page(token=teacher.token)
    with steps.step("the instructor makes an assignment that holds its grades"):
        drawn(staff, f"/courses/{course['id']}", f"Day {tag}")
        form = staff.locator("form.assignment-form").last
        form.get_by_label("Assignment title").fill(week_title)
        for slug in problems:
            form.get_by_role("checkbox", name=re.compile(re.escape(slug))).check()
        form.get_by_label("Hold scores and feedback until I release them").check()
        form.get_by_role("button", name="Create assignment").click()
        expect(staff.get_by_role("link", name=week_title, exact=True)).to_be_visible()
        [week] = [a for a in api_call(live_server, teacher, "GET", f"/courses/{course['id']}")["assignments"]
                  if a["title"] == week_title]
        assert week["grades_held"] is True and week["problems"] == problems

    learner = open_page(token=ann.token)
    with steps.step("ann solves one problem from the problem list: judged, and held"):
        drawn(learner, "/", "Problems")
        learner.get_by_role("link", name=story_problem.title).click()
        expect(learner.locator(".counts-for")).to_contain_text(f"Submit counts for {week_title}")
        type_code(learner, learner.get_by_role("textbox", name="your solution"), SOLUTION)
        posted = submit_in_page(learner)
        assert posted["created"]["assignment"] == week["id"]
        expect(learner.locator(".verdict-status")).to_contain_text(HELD, timeout=60_000)
        done = judged(live_server, ann.token, posted["created"]["id"])
        assert (done["status"], done["held"], done["verdict"], done["score"]) == ("done", True, None, None)
        assert_accessible(learner)

    with steps.step("ann solves the other problem with judge-client: held there too (exit 3)"):
        solution = tmp_path / "lookup.py"
        solution.write_text(REFERENCE, encoding="utf-8")
        run = judge_client(live_server, ann.token, tmp_path, "submit", str(solution), "--problem", FIXTURE.slug)
        assert run.returncode == 3, run.stdout + run.stderr
        assert f"counts for assignment {week['id']}" in run.stdout and "held until your instructors" in run.stdout
        listed = judge_client(live_server, ann.token, tmp_path, "list")
        assert listed.returncode == 0 and "held" in listed.stdout and "accepted" not in listed.stdout

    with steps.step("ann's assignment page says the grades are held"):
        drawn(learner, f"/assignments/{week['id']}", week_title)
        expect(learner.locator(".held-note")).to_contain_text("hold this assignment's grades")
        expect(learner.get_by_role("table")).to_contain_text("held")
        expect(learner.get_by_text("Solved 0 of 2")).to_be_visible()
        assert_accessible(learner)

    with steps.step("the instructor sets one score by hand and grants bob an extension"):
        drawn(staff, f"/assignments/{week['id']}/gradebook", f"Gradebook: {week_title}")
        row = staff.get_by_role("row").filter(has_text=ann.name)
        expect(row).to_contain_text("2.00 / 2.00")
        row.get_by_role("link", name=f"Accepted submission of {ann.name} for {story_problem.slug}").click()
        feedback = staff.get_by_role("region", name="Feedback")
        feedback.get_by_label("Score (0 to 1)").fill("0.9")
        feedback.get_by_label("Reason").fill("right, but the docstring is missing")
        feedback.get_by_role("button", name="Set this score").click()
        expect(feedback).to_contain_text("Score set by hand: 0.90")
        drawn(staff, f"/assignments/{week['id']}", week_title)
        extensions = staff.get_by_role("region", name="Extensions")
        extensions.get_by_label("Learner").select_option(label=bob.name)
        extensions.get_by_label("Reason").fill("away at a conference")
        extensions.get_by_role("button", name="Grant the extension").click()
        expect(extensions.get_by_role("status")).to_contain_text(f"{bob.name} is now due")
        # Still held: ann has been told nothing, and sees nothing of it.
        assert api_call(live_server, ann, "GET", "/me")["unread_notifications"] == 0
        assert api_call(live_server, ann, "GET", f"/submissions/{posted['created']['id']}")["score_override"] is None

    with steps.step("the instructor releases the grades from the gradebook"):
        drawn(staff, f"/assignments/{week['id']}/gradebook", f"Gradebook: {week_title}")
        expect(gradebook_row(staff, ann.name)).to_contain_text("0.90 set by hand")
        expect(gradebook_row(staff, bob.name)).to_contain_text("extension: due")
        assert_accessible(staff)
        staff.get_by_role("button", name="Release grades").click()
        expect(staff.get_by_role("status").filter(has_text="Released")).to_be_visible()

    with steps.step("ann is notified and reads her scores as they count"):
        drawn(learner, "/", "Problems")
        bell = learner.get_by_role("link", name="Notifications 1 unread")
        expect(bell).to_be_visible()
        bell.click()
        expect(learner.get_by_role("heading", level=1, name="Notifications")).to_be_visible()
        assert_accessible(learner)
        learner.get_by_role("link", name=f"Grades released: {week_title}").click()
        expect(learner).to_have_url(re.compile(rf"/assignments/{week['id']}$"))
        expect(learner.get_by_role("heading", level=1, name=week_title)).to_be_visible()
        expect(learner.get_by_text("Solved 2 of 2")).to_be_visible()
        table = learner.get_by_role("table")
        expect(table).to_contain_text("0.90 set by hand")
        expect(table).to_contain_text("right, but the docstring is missing")
        expect(learner.get_by_role("link", name="Notifications", exact=True)).to_be_visible()  # none unread
        assert_accessible(learner)

    with steps.step("the instructor exports the CSV an LMS imports"):
        drawn(staff, f"/assignments/{week['id']}/gradebook", f"Gradebook: {week_title}")
        with staff.expect_download() as download:
            staff.get_by_role("link", name="CSV for an LMS").click()
        text = Path(download.value.path()).read_text(encoding="utf-8")
        rows = list(csv.reader(io.StringIO(text, newline="")))
        assert rows[0] == ["learner", *problems, "total"]
        assert sorted(rows[1:]) == sorted([[ann.name, "0.9", "1.0", "1.9"], [bob.name, "", "", "0.0"]])
