"""The authoring rough edges in the browser: a changed .zip uploaded as a new version from the
author page (refusals said in the page's words, a formula that does not render making it
invalid), Publish showing in the header at once, the preview with its tolerance, hints, editorial
and a Run of the draft's public tests (at 375 px), and a rejudge that asks first and lists the
verdicts it changed. Validated and judged for real by the session worker; axe clean."""

from __future__ import annotations

import io
import json
import re
import time
import uuid
import zipfile
from typing import Any

import pytest

from tests.browser.support import api_call, assert_accessible, horizontal_overflow, require_playwright

require_playwright()

from playwright.sync_api import Page, expect  # noqa: E402

from service.db.models import Role  # noqa: E402
from tests.browser.conftest import Account, PageFactory, make_account  # noqa: E402
from tests.browser.test_learner_story import type_code  # noqa: E402
from tests.browser.test_pages import drawn  # noqa: E402
from tests.unit.service.helpers import RATIO, ratio_files  # noqa: E402

pytestmark = [pytest.mark.browser, pytest.mark.docker]

VALIDATED = 150_000  # ms: a version validated in the sandbox (the reference twice, a wrong solution)
# ms: a submission judged in the sandbox by the session worker. Only a bound on the wait, not a
# speed: beside the suite's other parallel workers, a draft's run took over a minute once.
JUDGED = 180_000
HALF = "def ratio(hits, total):\n    return 0.5\n"  # right on the public test only
BAD_HINT = "## Start\n\nDivide $h$ by $t$.\n\n## Next\n\nThen $\\frac{h}$ it is.\n"


def zipped(files: dict[str, str]) -> dict[str, Any]:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as packed:
        for path, text in files.items():
            packed.writestr(path, text)
    return {"name": "changed.zip", "mimeType": "application/zip", "buffer": out.getvalue()}


def validated(base: str, account: Account, slug: str, version: str) -> dict[str, Any]:
    deadline = time.monotonic() + VALIDATED / 1000
    while True:
        found: dict[str, Any] = api_call(base, account, "GET", f"/problems/{slug}/versions/{version}")
        if found["status"] != "draft":
            return found
        assert time.monotonic() < deadline, f"version {version} of {slug} was not validated"
        time.sleep(1)


def judged(base: str, account: Account, submission_id: int) -> dict[str, Any]:
    deadline = time.monotonic() + JUDGED / 1000
    while True:
        found: dict[str, Any] = api_call(base, account, "GET", f"/submissions/{submission_id}?wait=10")
        if found["status"] == "done":
            return found
        assert time.monotonic() < deadline, f"submission {submission_id} was not judged"


def new_problem(base: str, teacher: Account, prefix: str, files: dict[str, str] | None = None,
                publish: bool = False) -> tuple[str, str]:
    """A problem of teacher's, validated (and published when asked); (slug, version)."""
    slug = f"{prefix}_{uuid.uuid4().hex[:8]}"
    created = api_call(base, teacher, "POST", "/problems", slug=slug, files=files or ratio_files(slug))
    assert validated(base, teacher, slug, created["version"])["status"] == "valid"
    if publish:
        api_call(base, teacher, "POST", f"/problems/{slug}/publish", version=created["version"])
    return slug, created["version"]


def upload(page: Page, file: dict[str, Any]) -> None:
    box = page.get_by_role("region", name="Upload a new version")
    box.get_by_label("Changed problem folder (.zip)").set_input_files(files=file)  # type: ignore[arg-type]
    box.get_by_role("button", name="Upload a new version (.zip)").click()


def test_a_changed_zip_becomes_a_version_and_publish_shows_in_the_header(
        open_page: PageFactory, live_server: str, worker: Any) -> None:
    teacher = make_account(Role.INSTRUCTOR, "edges-zip")
    slug, _ = new_problem(live_server, teacher, "edges_zip")
    page = open_page(token=teacher.token)
    drawn(page, f"/author/{slug}")
    header = page.locator("#author-state")
    expect(header).to_contain_text("not published")
    state = page.get_by_role("region", name="Upload a new version").get_by_role("status")

    # Refusals in the page's words: what was wrong and where, never the API's field paths.
    upload(page, {"name": "changed.zip", "mimeType": "application/zip", "buffer": b"not a zip at all"})
    expect(state).to_contain_text("Not uploaded. changed.zip is not a readable .zip archive")
    expect(state).to_contain_text("Make a .zip of the problem folder and choose it again.")
    broken = ratio_files(slug, **{"tests/public.json": '[\n  {"name": "half",\n  "args": [1, 2]\n'})
    upload(page, zipped(broken))
    expect(state).to_contain_text(re.compile(r"Not uploaded\. In tests/public\.json, line \d+ \(column \d+\): invalid JSON"))
    expect(state).not_to_contain_text("archive:")
    assert_accessible(page)

    # A hint whose formula does not render: the new version validates to invalid, and says where.
    upload(page, zipped(ratio_files(slug, **{"hints.md": BAD_HINT})))
    expect(state).to_contain_text("see its validation under Versions")
    versions = page.get_by_role("region", name="Versions")
    expect(versions.get_by_role("status")).to_contain_text("is invalid", timeout=VALIDATED)
    formulas = versions.get_by_role("table", name="Formulas learners would see as code")
    expect(formulas).to_contain_text("hints.md")
    expect(formulas).to_contain_text("hint 2, line 1 of the hint")
    expect(formulas).to_contain_text("$\\frac{h}$")

    # The fixed folder: valid; Publish shows in the header without a reload.
    upload(page, zipped(ratio_files(slug, **{"statement.md": "Return the share of hits: `hits / total`.\n"})))
    expect(versions.get_by_role("status")).to_contain_text("is valid: it can be published.", timeout=VALIDATED)
    newest = api_call(live_server, teacher, "GET", f"/problems/{slug}/versions")[-1]["version"]
    versions.get_by_role("button", name=f"Publish version {newest[:10]}", exact=True).click()
    expect(versions.get_by_role("status")).to_contain_text(f"Version {newest[:10]} is published.")
    expect(header).to_contain_text(f"published: version {newest[:10]}")
    expect(header.get_by_role("link", name="Public page")).to_be_visible()
    assert api_call(live_server, teacher, "GET", f"/problems/{slug}")["version"] == newest
    assert_accessible(page)


def test_the_preview_shows_tolerance_hints_editorial_and_runs_the_draft(
        open_page: PageFactory, live_server: str, worker: Any) -> None:
    teacher = make_account(Role.INSTRUCTOR, "edges-preview")
    slug = f"edges_preview_{uuid.uuid4().hex[:8]}"
    toml = ratio_files(slug)["problem.toml"].replace('name = "float"', 'name = "float"\nabs_tol = 0.001')
    created = api_call(live_server, teacher, "POST", "/problems", slug=slug,
                       files=ratio_files(slug, **{"problem.toml": toml}))  # a draft: never published
    page = open_page(token=teacher.token, width=375, height=800)
    drawn(page, f"/author/{slug}/preview?version={created['version']}")
    expect(page.get_by_text("Checker: float (tolerance: absolute 0.001)")).to_be_visible()
    page.get_by_text("Hint 2", exact=True).click()
    expect(page.get_by_text("Return a float.")).to_be_visible()
    page.get_by_text("Read the editorial (learners: once solved)").click()
    expect(page.locator(".preview-editorial math")).to_be_visible()

    editor = page.get_by_role("textbox", name="Code to run against the public tests (Python)")
    type_code(page, editor, RATIO)
    with page.expect_response(lambda r: r.url.endswith("/runs") and r.request.method == "POST") as posted:
        page.get_by_role("button", name="Run", exact=True).click()
    assert posted.value.status == 202, posted.value.text()
    ran = judged(live_server, teacher, posted.value.json()["id"])
    assert (ran["mode"], ran["problem_version"], ran["verdict"]) == ("run", created["version"], "accepted"), ran
    run_box = page.get_by_role("region", name="Try it: Run")
    expect(run_box.get_by_role("status")).to_contain_text(re.compile("accepted", re.I), timeout=JUDGED)
    expect(run_box.locator(".result")).to_contain_text("1 of 1 tests passed")
    assert horizontal_overflow(page) is None, horizontal_overflow(page)
    assert_accessible(page)


def test_a_rejudge_asks_how_many_first_and_lists_the_verdicts_it_changed(
        open_page: PageFactory, live_server: str, worker: Any) -> None:
    teacher = make_account(Role.INSTRUCTOR, "edges-rejudge")
    slug, _ = new_problem(live_server, teacher, "edges_rejudge", publish=True)
    ann, bob = make_account(Role.LEARNER, "edges-ann"), make_account(Role.LEARNER, "edges-bob")
    right = api_call(live_server, ann, "POST", "/submissions", problem=slug, code=RATIO)
    lucky = api_call(live_server, bob, "POST", "/submissions", problem=slug, code=HALF)
    assert judged(live_server, ann, right["id"])["verdict"] == "accepted"
    assert judged(live_server, bob, lucky["id"])["verdict"] == "wrong_answer"  # the hidden third
    # A new version whose hidden test is 0.5 too: bob's code is now accepted.
    changed = api_call(live_server, teacher, "PUT", f"/problems/{slug}", files=ratio_files(slug, **{
            "tests/hidden.json": json.dumps([{"name": "twin", "args": [2, 4], "expected": 0.5}])}))
    assert validated(live_server, teacher, slug, changed["version"])["status"] == "valid"
    api_call(live_server, teacher, "POST", f"/problems/{slug}/publish", version=changed["version"])

    page = open_page(token=teacher.token)
    drawn(page, f"/author/{slug}")
    box = page.get_by_role("region", name="Rejudge")
    asked: list[str] = []
    page.once("dialog", lambda dialog: (asked.append(dialog.message), dialog.dismiss()))
    box.get_by_role("button", name="Rejudge", exact=True).click()
    expect(box.get_by_role("status")).to_have_text("Not rejudged: you cancelled.")
    assert asked and f"Rejudge 2 submissions of {slug} against the published version {changed['version'][:10]}" in asked[0]
    assert api_call(live_server, teacher, "GET", f"/problems/{slug}/rejudges/latest") is None  # nothing started

    page.once("dialog", lambda dialog: dialog.accept())
    box.get_by_role("button", name="Rejudge", exact=True).click()
    expect(box.get_by_role("status")).to_contain_text("Rejudge finished: 2 of 2 judged; 1 verdict changed",
                                                     timeout=2 * JUDGED)
    expect(box.get_by_role("status")).to_contain_text("accepted 1 → 2 · wrong answer 1 → 0")
    counts = box.get_by_role("table", name="Verdicts before → after the rejudge")
    expect(counts.get_by_role("row").filter(has_text="wrong answer")).to_contain_text("1")
    changes = box.get_by_role("table", name="1 submission changed verdict")
    row = changes.get_by_role("row").filter(has_text=bob.name)
    expect(row).to_contain_text("wrong answer")
    expect(row).to_contain_text("accepted")
    expect(row.get_by_role("link", name=f"submission {lucky['id']}")).to_have_attribute("href", f"/submissions/{lucky['id']}")
    expect(changes).not_to_contain_text(ann.name)
    assert_accessible(page)


def test_a_new_instructor_can_copy_a_shipped_problem_from_the_author_page(open_page: PageFactory,
                                                                          live_server: str) -> None:
    """An instructor with no problem of their own finds the shipped ones in "Copy a problem", as
    the README's first steps say."""
    newcomer = make_account(Role.INSTRUCTOR, "copy-newcomer")
    page = open_page(token=newcomer.token)
    drawn(page, "/author")
    source = page.get_by_label("Problem to copy")
    expect(source.locator("option", has_text="secret_lookup")).to_have_count(1)
    expect(page.get_by_text("There is nothing to copy yet")).to_have_count(0)
    slug = f"copied_{uuid.uuid4().hex[:6]}"
    source.select_option(value="secret_lookup")
    page.get_by_label("New slug").fill(slug)
    page.get_by_role("button", name="Copy a problem").click()
    expect(page).to_have_url(re.compile(rf"/author/{slug}$"))
    # Nothing published yet: the header's Preview names the version it opens, the newest.
    expect(page.get_by_role("link", name=re.compile(r"^Preview \(version \w+, newest, (draft|valid|invalid)\)$"))).to_be_visible()
    assert_accessible(page)

    # A hints.md the judge refuses is said as an upload's refusal is: red, naming file and line.
    page.get_by_label("New file path").fill("hints.md")
    page.get_by_role("button", name="Add file").click()
    page.get_by_role("textbox", name="hints.md").fill("Before any heading.\n## First\nLook it up.\n")
    page.get_by_role("button", name="Save draft").click()
    refused = page.locator(".author-files .form-state.refused")
    expect(refused).to_contain_text("Not saved. In hints.md, line 1: text before the first '## ' heading")
