"""Fixtures for the real-browser tests: the app served over real HTTP by uvicorn (a process of
its own, on this session's database and broker, judged by the session worker), Debian's
Chromium driven by Playwright, and pages signed in as a fresh learner.

Each test gets a new browser context (its own storage, so its own token and drafts) and a new
learner (so its own progress). Every page records its console: an uncaught error, a refused
script or style (CSP) or a failed load fails the test that opened it.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import time
import uuid
from collections.abc import Callable, Generator, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import httpx
import pytest

from service.db.models import Role
from service.db.session import session_scope
from service.settings import get_settings
from service.users import create_user
from tests.browser.support import CHROMIUM, unavailable
from tests.utils.api_server import serving, uvicorn

if TYPE_CHECKING:
    from playwright.sync_api import Browser, BrowserContext, ConsoleMessage, Page

# Never fetch a browser build: the tests run the system's Chromium.
os.environ.setdefault("PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD", "1")

CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--no-first-run", "--disable-sync"]
TOKEN_KEY = "judge.token"  # api/web/static/js/core/api.js keeps the token under this key
STORY_PROBLEM = Path(__file__).parent / "problem"
DESKTOP = {"width": 1366, "height": 768}


@pytest.fixture(scope="package")
def browser() -> Iterator[Browser]:
    """Headless Chromium for the whole directory (package scope: closed once the browser
    tests are done, before the rest of the suite runs)."""
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        unavailable("the playwright package is not installed (scripts/setup installs the dev dependencies)")
    if not os.access(CHROMIUM, os.X_OK):
        unavailable(f"no Chromium at {CHROMIUM} (Debian: apt-get install chromium-headless-shell; "
                    "or set JUDGE_TEST_CHROMIUM)")
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS, headless=True)
        yield launched
        launched.close()


@pytest.fixture(scope="package")
def live_server() -> Iterator[str]:
    """The real app over real HTTP: uvicorn in a process of its own with this session's
    settings (tests/utils/service_env.py chose the database, broker and data folder), so
    submissions go to the same queues the session worker consumes. Its base URL."""
    log = Path(get_settings().data_dir) / f"browser-api-{uuid.uuid4().hex[:8]}.log"
    with serving(uvicorn, log, os.environ) as base:
        yield base


@dataclass(frozen=True)
class Account:
    name: str
    role: str
    token: str
    password: str = ""  # empty: the account signs in with its token only


PASSWORD = "browser story: a password of 37 chars"


def make_account(role: Role, prefix: str, password: str | None = None) -> Account:
    """A user written straight to the database (ask for live_server first: it migrates it), with
    a password to sign in with on /sign-in when one is given."""
    name = f"{prefix}-{uuid.uuid4().hex[:8]}"
    with session_scope() as session:
        token = create_user(session, name, role, password)[1]
    return Account(name, role.value, token, password or "")


def make_password_account(role: Role, prefix: str) -> Account:
    return make_account(role, prefix, PASSWORD)


def sign_in(page: Page, account: Account) -> None:
    """Sign in on /sign-in with the account's name and password, as a person does (the session
    cookie, no token kept), and wait until the header names the account."""
    assert account.password, f"{account.name} has no password"
    page.goto("/sign-in")
    page.get_by_label("User name").fill(account.name)
    page.get_by_label("Password", exact=True).fill(account.password)
    page.get_by_role("button", name="Sign in", exact=True).click()
    page.get_by_text(f"Signed in as {account.name} ({account.role})").wait_for()


@pytest.fixture
def learner(live_server: str) -> Account:
    """A learner of this test alone: no submissions, no hints seen, nothing solved."""
    return make_account(Role.LEARNER, "browser-learner")


# --- pages and their console -------------------------------------------------------------------

_FAILED_LOAD = re.compile(r"Failed to load resource: the server responded with a status of (\d{3})")


@dataclass
class Console:
    """What the pages of one test reported that is a fault of the page."""

    problems: list[str] = field(default_factory=list)

    def message(self, message: ConsoleMessage) -> None:
        text = message.text
        where = message.location.get("url", "") if message.location else ""
        if message.type != "error" and "Content Security Policy" not in text:
            return
        failed = _FAILED_LOAD.search(text)
        # An API refusal the page asked for and shows (401 for a bad token, 403 before the
        # editorial may be read, 409 when no hint is left) is the browser's note, not a fault.
        if failed and "/api/v1/" in where and 400 <= int(failed.group(1)) < 500:
            return
        self.problems.append(f"console {message.type}: {text} ({where})")

    def page_error(self, error: Exception) -> None:
        self.problems.append(f"uncaught error: {error}")


CONSOLE = pytest.StashKey[Console]()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item: pytest.Item) -> Generator[None, Any, Any]:
    """Fail the test itself (not its teardown) when one of its pages logged a fault."""
    try:
        result = yield
    except BaseException as failure:
        console = item.stash.get(CONSOLE, None)
        if console and console.problems:  # often the cause of the failure: show it beside
            failure.add_note("the page reported errors:\n" + "\n".join(console.problems))
        raise
    console = item.stash.get(CONSOLE, None)
    if console and console.problems:
        raise AssertionError("the page reported errors:\n" + "\n".join(console.problems))
    return result


PageFactory = Callable[..., "Page"]


@pytest.fixture
def open_page(browser: Browser, live_server: str, request: pytest.FixtureRequest) -> Iterator[PageFactory]:
    """open_page(token=None, width=1366, height=768): a page in a new browser context on the
    live server, signed in with token when given (kept in localStorage, as the token box does)."""
    console = request.node.stash.setdefault(CONSOLE, Console())
    contexts: list[BrowserContext] = []

    def make(token: str | None = None, width: int = DESKTOP["width"], height: int = DESKTOP["height"]) -> Page:
        context = browser.new_context(base_url=live_server, viewport={"width": width, "height": height},
                                      reduced_motion="reduce", locale="en-US")
        context.set_default_timeout(15_000)
        contexts.append(context)
        if token:
            # Before any of the page's scripts, on every document of this origin.
            context.add_init_script(
                f"try {{ if (location.origin === {json.dumps(live_server)}) "
                f"localStorage.setItem({json.dumps(TOKEN_KEY)}, {json.dumps(token)}); }} catch (e) {{}}")
        page = context.new_page()
        page.on("console", console.message)
        page.on("pageerror", console.page_error)
        return page

    yield make
    for context in contexts:
        context.close()


@pytest.fixture
def page(open_page: PageFactory, learner: Account) -> Page:
    """A 1366x768 page signed in as this test's learner."""
    return open_page(token=learner.token)


# --- the problem of the learner's story -----------------------------------------------------------

@dataclass(frozen=True)
class StoryProblem:
    slug: str
    title: str
    owner: Account  # the instructor who uploaded it


def problem_files(folder: Path, slug: str, title: str | None = None) -> dict[str, str]:
    """A problem folder's files as an upload under slug (and title), problem.toml rewritten."""
    files = {p.relative_to(folder).as_posix(): p.read_text(encoding="utf-8")
             for p in folder.rglob("*") if p.is_file()}
    toml = re.sub(r'(?m)^slug = ".*"$', f'slug = "{slug}"', files["problem.toml"])
    if title is not None:
        toml = re.sub(r'(?m)^title = ".*"$', f"title = {json.dumps(title)}", toml)
    files["problem.toml"] = toml
    return files


def publish_problem(live_server: str, instructor: Account, slug: str, files: dict[str, str]) -> str:
    """Upload files as slug through the API, wait for the sandbox's validation, publish it; its title."""
    headers = {"Authorization": f"Bearer {instructor.token}"}
    with httpx.Client(base_url=live_server, headers=headers, timeout=60) as http:
        created = http.post("/api/v1/problems", json={"slug": slug, "files": files})
        assert created.status_code == 201, created.text
        deadline = time.monotonic() + 120
        while True:
            versions = http.get(f"/api/v1/problems/{slug}/versions")
            assert versions.status_code == 200, versions.text
            newest = versions.json()[-1]
            if newest["status"] != "draft":
                break
            assert time.monotonic() < deadline, f"validation of {slug} did not finish"
            time.sleep(0.5)
        assert newest["status"] == "valid", newest
        published = http.post(f"/api/v1/problems/{slug}/publish", json={})
        assert published.status_code == 200, published.text
        shown = http.get(f"/api/v1/problems/{slug}")
        assert shown.status_code == 200 and shown.json()["published"], shown.text
        return str(shown.json()["title"])


@pytest.fixture(scope="package")
def story_problem(worker: subprocess.Popen[bytes], live_server: str) -> StoryProblem:
    """tests/browser/problem (a formula in its statement, two hints, an editorial) uploaded by an
    instructor, validated in the sandbox by the session worker and published."""
    instructor = make_account(Role.INSTRUCTOR, "browser-instructor")
    slug = "browser_precision"
    files = {p.relative_to(STORY_PROBLEM).as_posix(): p.read_text(encoding="utf-8")
             for p in STORY_PROBLEM.rglob("*") if p.is_file()}
    return StoryProblem(slug, publish_problem(live_server, instructor, slug, files), instructor)
