"""Issue 11's story, start to end, in a real browser against the real judge: an instructor signs
in with a password, uploads a problem folder archive, sees its validation pass in the report,
publishes it, makes a course and an assignment and copies the join link; a learner opens the
link signed out, registers, joins, solves the problem (typed with the keyboard, as issue 10's
story does) and is accepted; the due time passes and the learner submits again, marked late; the
instructor reads the gradebook with its late flag, sorts it, downloads the CSV and the test
checks every row. axe-core checks each page the instructor, the admin and the visitor see.

Written against the accessible names issue 11's plan gives the pages. A second learner, made
through the API, joins too and submits a wrong solution after the due time: the gradebook marks
a cell late only when its credit came late (the first learner's came on time), so that learner
is where the late flag shows, and two rows make sorting observable.
"""

from __future__ import annotations

import csv
import io
import re
import tarfile
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

import httpx
import pytest

from tests.browser.support import assert_accessible, require_playwright, settle

require_playwright()

from playwright.sync_api import BrowserContext, FilePayload, Page, expect  # noqa: E402

from service.db.models import Role  # noqa: E402
from tests.browser.conftest import (  # noqa: E402
    PASSWORD,
    STORY_PROBLEM,
    PageFactory,
    make_account,
    make_password_account,
    problem_files,
    sign_in,
)
from tests.browser.test_learner_story import editor_text, significant_lines, type_code  # noqa: E402
from tests.utils.courses import at  # noqa: E402

pytestmark = [pytest.mark.browser, pytest.mark.docker]

SOLUTION = (STORY_PROBLEM / "reference.py").read_text(encoding="utf-8")
WRONG = (STORY_PROBLEM / "wrong" / "membership.py").read_text(encoding="utf-8")
JUDGED = 60_000  # ms: a submission judged in the sandbox by the session worker
VALIDATED = 150_000  # ms: a new version validated in the sandbox (reference, determinism, wrong solutions)
ACCEPTED = re.compile(r"accepted", re.IGNORECASE)
CSV_HEADER = ["learner", "problem", "best_score", "accepted", "attempts", "first_accepted_at", "late", "due_at",
              "score_before_penalty", "penalty", "score_set_by_hand", "score_set_by", "score_reason"]


@dataclass
class Steps:
    """The story's steps, named and timed, so a failure says how far it got."""

    passed: list[tuple[str, float]] = field(default_factory=list)

    @contextmanager
    def step(self, name: str) -> Iterator[None]:
        started = time.monotonic()
        try:
            yield
        except BaseException as failure:
            failure.add_note(f"story: failed at {name!r} after {time.monotonic() - started:.1f} s; "
                             f"passed before it: {[n for n, _ in self.passed] or 'none'}")
            raise
        self.passed.append((name, time.monotonic() - started))
        print(f"story step passed ({self.passed[-1][1]:5.1f} s): {name}")


def archive_of(files: dict[str, str]) -> bytes:
    """The problem folder as a .tar.gz, its files at the top, as an author would pack it."""
    out = io.BytesIO()
    with tarfile.open(fileobj=out, mode="w:gz") as tar:
        for name, text in sorted(files.items()):
            data = text.encode("utf-8")
            member = tarfile.TarInfo(name)
            member.size, member.mode, member.mtime = len(data), 0o644, int(time.time())
            tar.addfile(member, io.BytesIO(data))
    return out.getvalue()


def drawn(page: Page, path: str, heading: str | re.Pattern[str]) -> Page:
    """Open path and wait until its script drew the level-1 heading and its fetches landed."""
    page.goto(path)
    expect(page.get_by_role("main").get_by_role("heading", level=1, name=heading)).to_be_visible()
    expect(page.get_by_text("Loading…")).to_have_count(0)
    settle(page)
    return page


def local_input(page: Page, minutes_from_now: float) -> str:
    """A datetime-local value (the browser's own zone) minutes from now, to the minute."""
    return str(page.evaluate("""(minutes) => {
      const d = new Date(Date.now() + minutes * 60000);
      const p = (n) => String(n).padStart(2, "0");
      return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}T${p(d.getHours())}:${p(d.getMinutes())}`;
    }""", minutes_from_now))


def judged_in(context: BrowserContext, submission_id: int) -> dict[str, Any]:
    """The submission once done, read with the context's session cookie (a GET needs no token)."""
    deadline = time.monotonic() + JUDGED / 1000
    while True:
        response = context.request.get(f"/api/v1/submissions/{submission_id}?wait=10", timeout=30_000)
        assert response.ok, response.text()
        body: dict[str, Any] = response.json()
        if body["status"] == "done":
            return body
        assert time.monotonic() < deadline, f"submission {submission_id} was not judged: {body}"


def submit_in_page(page: Page) -> dict[str, Any]:
    """Press Submit; the POST's body and answer (the created submission)."""
    with page.expect_response(lambda r: r.url.endswith("/api/v1/submissions") and r.request.method == "POST") as posted:
        page.get_by_role("button", name="Submit", exact=True).click()
    assert posted.value.status == 202, posted.value.text()
    sent = posted.value.request.post_data_json
    created: dict[str, Any] = posted.value.json()
    return {"sent": sent, "created": created}


def csv_time(api_time: str) -> str:
    """The CSV's form of a time (naive UTC, ISO 8601, then Z) from the API's form of it."""
    moment = datetime.fromisoformat(api_time)
    if moment.tzinfo is not None:
        moment = moment.astimezone(UTC).replace(tzinfo=None)
    return moment.isoformat() + "Z"


def row_names(page: Page) -> list[str]:
    return [name.strip() for name in page.locator("table.gradebook tbody th[scope=row]").all_inner_texts()]


def test_an_instructor_runs_an_assignment_from_upload_to_the_gradebook_csv(
        open_page: PageFactory, live_server: str, worker: Any) -> None:
    steps = Steps()
    tag = uuid.uuid4().hex[:8]
    slug, title = f"story_{tag}", f"Instructor story {tag}: clipped unigram precision"
    course_title, assignment_title = f"Metrics {tag}", f"Week {tag}"
    instructor = make_password_account(Role.INSTRUCTOR, "story-instructor")
    staff = {"Authorization": f"Bearer {instructor.token}"}
    teacher = open_page()

    with steps.step("the sign-in page passes axe; the instructor signs in with name and password"):
        drawn(teacher, "/sign-in", "Sign in")
        assert_accessible(teacher)
        sign_in(teacher, instructor)
        expect(teacher).to_have_url(re.compile(r"/$"))

    with steps.step("upload the problem folder archive at /author"):
        drawn(teacher, "/author", "My problems")
        assert_accessible(teacher)
        upload: FilePayload = {"name": f"{slug}.tar.gz", "mimeType": "application/gzip",
                               "buffer": archive_of(problem_files(STORY_PROBLEM, slug, title))}
        teacher.get_by_label("Problem folder archive (.zip or .tar.gz)").set_input_files(files=upload)
        teacher.get_by_label("Slug (optional)").fill(slug)
        teacher.get_by_role("button", name="Upload a problem").click()
        expect(teacher).to_have_url(re.compile(rf"/author/{slug}$"))
        expect(teacher.get_by_role("heading", level=1)).to_contain_text(title)

    with steps.step("validation passes, as the version's report says"):
        report = teacher.get_by_role("region", name=re.compile(r"^Validation report of version"))
        expect(report).to_contain_text("No failures: the version passed validation.", timeout=VALIDATED)
        expect(report).not_to_contain_text("null")  # no missing part written as text
        facts = report.locator("dl.report-facts")
        expect(facts).to_contain_text(re.compile(r"Status\s*valid"))
        expect(facts).to_contain_text(re.compile(r"Reference solution\s*accepted score 1\.00"))
        expect(facts).to_contain_text(re.compile(r"Deterministic\s*yes"))
        expect(facts).to_contain_text(re.compile(r"Hidden tests\s*3"))
        wrong = report.get_by_role("table").filter(has_text="membership.py")
        expect(wrong).to_contain_text("✓ ok")
        settle(teacher)
        assert_accessible(teacher)

    with steps.step("publish the version"):
        teacher.get_by_role("button", name=re.compile(r"^Publish version ")).click()
        expect(teacher.get_by_role("status").filter(has_text="is published")).to_be_visible()
        shown = httpx.get(f"{live_server}/api/v1/problems/{slug}", headers=staff, timeout=30).json()
        assert shown["published"], shown

    with steps.step("create a course"):
        drawn(teacher, "/courses", "Courses")
        assert_accessible(teacher)
        teacher.get_by_label("Course title").fill(course_title)
        teacher.get_by_role("button", name="Create course").click()
        expect(teacher).to_have_url(re.compile(r"/courses/\d+$"))
        expect(teacher.get_by_role("heading", level=1, name=course_title)).to_be_visible()
        course_id = int(teacher.url.rsplit("/", 1)[1])

    with steps.step("create an assignment due in 30 minutes, late work accepted, with the problem"):
        teacher.get_by_label("Assignment title").fill(assignment_title)
        teacher.get_by_label("Due at").fill(local_input(teacher, 30))
        teacher.get_by_label("Accept and mark late").check()
        teacher.get_by_role("checkbox", name=re.compile(re.escape(slug))).check()
        teacher.get_by_role("button", name="Create assignment", exact=True).click()
        expect(teacher.get_by_text(f"Created “{assignment_title}”.")).to_be_visible()
        link = teacher.get_by_role("link", name=assignment_title, exact=True)
        assignment_id = int((link.get_attribute("href") or "").rsplit("/", 1)[1])

    with steps.step("copy the join link"):
        teacher.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=live_server)
        address = teacher.get_by_label("Join link address").input_value()
        expect(teacher.get_by_role("link", name="Join link", exact=True)).to_have_attribute(
            "href", re.compile(r"^/join/[^/]+$"))
        teacher.get_by_role("button", name="Copy", exact=True).click()
        expect(teacher.get_by_text("Copied the join link.")).to_be_visible()
        copied = str(teacher.evaluate("() => navigator.clipboard.readText()"))
        assert copied == address and re.fullmatch(rf"{re.escape(live_server)}/join/[^/]+", copied), (copied, address)
        settle(teacher)
        assert_accessible(teacher)

    learner_name = f"story-learner-{tag}"
    student = open_page()
    with steps.step("a visitor opens the join link (axe), registers with a password and joins"):
        student.goto(copied)
        # The link names its course before anyone signs in.
        expect(student.get_by_role("heading", level=1, name=f"Join {course_title}")).to_be_visible()
        settle(student)
        assert_accessible(student)
        student.get_by_label("User name").fill(learner_name)
        student.get_by_label("Password", exact=True).fill(PASSWORD)
        student.get_by_label("Confirm password").fill(PASSWORD)
        student.get_by_role("button", name="Create account and join course").click()
        expect(student.get_by_role("status").filter(has_text="You are a learner of")).to_contain_text(course_title)
        expect(student.get_by_text(f"Signed in as {learner_name} (learner)")).to_be_visible()

    with steps.step("the learner opens the course, the assignment and its problem"):
        student.get_by_role("link", name="Open the course").click()
        expect(student).to_have_url(re.compile(rf"/courses/{course_id}$"))
        student.get_by_role("link", name=assignment_title, exact=True).click()
        expect(student).to_have_url(re.compile(rf"/assignments/{assignment_id}$"))
        student.get_by_role("link", name=title, exact=True).click()
        expect(student).to_have_url(re.compile(rf"/problems/{slug}\?assignment={assignment_id}$"))
        expect(student.get_by_text("For assignment")).to_contain_text(assignment_title)

    editor = student.get_by_role("textbox", name="your solution")
    with steps.step("type the solution with the keyboard, submit: accepted, on time"):
        type_code(student, editor, SOLUTION)
        assert significant_lines(editor_text(editor)) == significant_lines(SOLUTION), editor_text(editor)
        first = submit_in_page(student)
        assert first["sent"]["assignment"] == assignment_id and first["sent"]["mode"] == "submit", first
        assert first["created"]["late"] is False and first["created"]["assignment"] == assignment_id, first
        on_time = judged_in(student.context, first["created"]["id"])
        assert on_time["verdict"] == "accepted", on_time
        expect(student.get_by_role("status").filter(has_text=ACCEPTED).first).to_be_visible(timeout=JUDGED)

    with steps.step("the due time passes: the instructor sets it just past through the API"):
        # Due when the on-time submission was made: it stays on time (lateness follows the rules).
        moved = httpx.put(f"{live_server}/api/v1/assignments/{assignment_id}", headers=staff, timeout=30, json={
            "title": assignment_title, "opens_at": at(-1), "due_at": first["created"]["created_at"],
            "late_policy": "accept", "problems": [slug]})
        assert moved.status_code == 200 and moved.json()["state"] == "due", moved.text

    other = make_account(Role.LEARNER, "quiet-learner")
    with steps.step("a second learner (through the API) joins and submits a wrong solution, late"):
        code = address.rsplit("/", 1)[1]
        with httpx.Client(base_url=live_server, headers={"Authorization": f"Bearer {other.token}"}, timeout=40) as http:
            assert http.post("/api/v1/courses/join", json={"code": code}).status_code == 200
            sent = http.post("/api/v1/submissions", json={"problem": slug, "code": WRONG, "mode": "submit",
                                                           "assignment": assignment_id})
            assert sent.status_code == 202 and sent.json()["late"] is True, sent.text
            deadline = time.monotonic() + JUDGED / 1000
            while (wrong_done := http.get(f"/api/v1/submissions/{sent.json()['id']}?wait=10").json())["status"] != "done":
                assert time.monotonic() < deadline, wrong_done
        assert wrong_done["verdict"] == "wrong_answer" and 0 < wrong_done["score"] < 1, wrong_done

    with steps.step("the learner submits once more: accepted, marked late"):
        student.reload()
        expect(student.get_by_text("Submitting now is late.")).to_be_visible()
        if significant_lines(editor_text(editor)) != significant_lines(SOLUTION):
            type_code(student, editor, SOLUTION)  # the draft was not kept over the reload
        again = submit_in_page(student)
        assert again["created"]["late"] is True and again["created"]["assignment"] == assignment_id, again
        late = judged_in(student.context, again["created"]["id"])
        assert late["verdict"] == "accepted" and late["late"] is True, late

    with steps.step("the gradebook shows the late flag (axe)"):
        drawn(teacher, f"/assignments/{assignment_id}/gradebook", f"Gradebook: {assignment_title}")
        rows = teacher.locator("table.gradebook tbody tr")
        expect(rows).to_have_count(2)
        mine = rows.filter(has=teacher.get_by_role("rowheader", name=learner_name, exact=True))
        theirs = rows.filter(has=teacher.get_by_role("rowheader", name=other.name, exact=True))
        expect(mine).to_contain_text("accepted")
        expect(mine).to_contain_text("2 attempts")
        expect(mine.locator(".late")).to_have_count(0)  # the credit came on time
        expect(theirs).to_contain_text("not accepted")
        expect(theirs.locator(".late")).to_have_text("late")
        assert_accessible(teacher)

    with steps.step("sort by the Total column"):
        assert row_names(teacher) == sorted([learner_name, other.name]), row_names(teacher)  # by name at first
        teacher.get_by_role("button", name=re.compile(r"^Total")).click()
        total = teacher.get_by_role("columnheader", name=re.compile(r"^Total"))
        expect(total).to_have_attribute("aria-sort", "descending")
        assert row_names(teacher) == [learner_name, other.name], row_names(teacher)  # 1.00 before the wrong one
        teacher.get_by_role("button", name=re.compile(r"^Total")).click()
        expect(total).to_have_attribute("aria-sort", "ascending")
        assert row_names(teacher) == [other.name, learner_name], row_names(teacher)

    with steps.step("download the CSV and check its rows"):
        with teacher.expect_download() as download:
            teacher.get_by_role("link", name="Download CSV").click()
        assert re.fullmatch(rf"gradebook-{assignment_id}(-[A-Za-z0-9-]+)?\.csv", download.value.suggested_filename), \
            download.value.suggested_filename
        text = download.value.path().read_bytes().decode("utf-8")  # as sent: CRLF kept
        rows_found = list(csv.reader(io.StringIO(text, newline="")))
        due, wrong_score = csv_time(first["created"]["created_at"]), repr(float(wrong_done["score"]))
        expected = {  # due when the first accepted submission was made; no penalty was set
            learner_name: [learner_name, slug, "1.0", "true", "2", due, "false", due, "1.0", "0.0", "false", "", ""],
            other.name: [other.name, slug, wrong_score, "false", "1", "", "true", due, wrong_score, "0.0", "false",
                         "", ""],
        }
        assert rows_found == [CSV_HEADER, *(expected[name] for name in sorted(expected))], text
        assert text.endswith("\r\n") and text.count("\r\n") == 3, repr(text)

    with steps.step("the account page passes axe"):
        drawn(teacher, "/account", re.compile(r"account", re.IGNORECASE))
        assert_accessible(teacher)

    admin = make_password_account(Role.ADMIN, "story-admin")
    with steps.step("an admin signs in; /admin/users passes axe"):
        desk = open_page()
        sign_in(desk, admin)
        drawn(desk, "/admin/users", re.compile(r"users", re.IGNORECASE))
        # Paged by 50: in a full run this session's other tests have made more users than that.
        expect(desk.get_by_role("combobox", name=re.compile(r"^Role of ")).first).to_be_visible()
        assert_accessible(desk)

    print("story timings: " + ", ".join(f"{name}: {seconds:.1f} s" for name, seconds in steps.passed))
