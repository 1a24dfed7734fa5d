"""After signing in, /sign-in goes on to its ?next= only when that is a page of this site, as
Chromium itself reads the address: every tricky shape of another site's address ends on this
origin, and nothing is ever requested from another host."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

import pytest

from service.db.models import Role
from tests.browser.conftest import Account, PageFactory, make_account, make_password_account
from tests.browser.support import require_playwright

require_playwright()

if TYPE_CHECKING:
    from playwright.sync_api import Page, Route

# ?next= exactly as a link would carry it (percent-escapes are decoded once by URLSearchParams).
ELSEWHERE = [
    "/.//evil.example/x", "/..//evil.example/x", "/a/..//evil.example", "/./..//evil.example",
    "//evil.example/x", "///evil.example", "%2F%2Fevil.example/x", "/%2F/evil.example",
    "%2F.%2F%2Fevil.example", "/%2E/%2Fevil.example", "/%2e%2e//evil.example", "/./%2F/evil.example",
    "/%5Cevil.example", "/%5C%5Cevil.example", "%5C%5Cevil.example", "/.%5C/evil.example",
    "\\\\evil.example", "/\\evil.example",
    "/%09/evil.example", "/%0A/evil.example", "/%0D%0A/evil.example", "%0A//evil.example",
    "/\t/evil.example", "%20//evil.example",
    "javascript:alert(document.domain)", "javascript%3Aalert(1)", "JaVaScRiPt:alert(1)",
    "http:evil.example", "http:/evil.example", "http://evil.example/x", "https:%2F%2Fevil.example",
    "//evil.example%2F@judge",
]
# Pages of this site, followed as asked.
HERE = {"/account": "/account", "/problems/x%3Fassignment%3D3%23code": "/problems/x?assignment=3#code",
        "/a/../courses": "/courses"}


def _foreign_requests(page: Page, origin: str) -> list[str]:
    """Every request the page makes to another origin is answered here and listed, so that a
    redirect to another site shows as a URL, not as a DNS failure."""
    seen: list[str] = []

    def other(route: Route) -> None:
        seen.append(route.request.url)
        route.fulfill(status=200, content_type="text/html", body="<p>another site</p>")

    def elsewhere(url: str) -> bool:
        return f"{urlsplit(url).scheme}://{urlsplit(url).netloc}" != origin

    page.context.route(elsewhere, other)
    return seen


def _ends_on(page: Page, live_server: str, next_value: str, sign_in: Callable[[Page], None]) -> str:
    """Open /sign-in?next=next_value, sign in, and return the path and query the page went on to."""
    foreign = _foreign_requests(page, live_server)
    page.goto(f"/sign-in?next={next_value}")
    sign_in(page)
    page.wait_for_url(lambda url: not url.startswith(f"{live_server}/sign-in"))
    page.wait_for_load_state()
    where = urlsplit(page.url)
    assert f"{where.scheme}://{where.netloc}" == live_server, (next_value, page.url, foreign)
    assert not foreign, (next_value, foreign)
    return where.path + (f"?{where.query}" if where.query else "") + (f"#{where.fragment}" if where.fragment else "")


def _with_token(account: Account) -> Callable[[Page], None]:
    def sign_in(page: Page) -> None:
        page.get_by_label("API token").fill(account.token)
        page.get_by_role("button", name="Use this token").click()
    return sign_in


def _with_password(account: Account) -> Callable[[Page], None]:
    def sign_in(page: Page) -> None:
        page.get_by_label("User name").fill(account.name)
        page.get_by_label("Password", exact=True).fill(account.password)
        page.get_by_role("button", name="Sign in", exact=True).click()
    return sign_in


@pytest.fixture(scope="module")
def reader(live_server: str) -> Account:
    return make_account(Role.LEARNER, "browser-next")


# One test per shape (not a loop in one test): parallel workers share the 32 sign-ins out.
@pytest.mark.parametrize("next_value", ELSEWHERE)
def test_no_shape_of_another_sites_address_leaves_this_origin(open_page: PageFactory, live_server: str,
                                                              reader: Account, next_value: str) -> None:
    # Refused as a whole (the problem list), not followed as some path of this site.
    assert _ends_on(open_page(), live_server, next_value, _with_token(reader)) == "/"


def test_a_page_of_this_site_is_followed(open_page: PageFactory, live_server: str, reader: Account) -> None:
    for next_value, expected in HERE.items():
        page = open_page()
        assert _ends_on(page, live_server, next_value, _with_token(reader)) == expected
        page.context.close()


@pytest.mark.parametrize("next_value", ["/.//evil.example/x", "/..//evil.example/x", "%2F%2Fevil.example/x"])
def test_signing_in_with_a_password_does_not_leave_this_origin(open_page: PageFactory, live_server: str,
                                                               next_value: str) -> None:
    account = make_password_account(Role.LEARNER, "browser-next-pw")
    assert _ends_on(open_page(), live_server, next_value, _with_password(account)) == "/"
