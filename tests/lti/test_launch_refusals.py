"""LTI 1.3 launches the judge must refuse, each driven over real HTTP against the test LMS
(tests/lti/platform.py): the login is started at the judge (through the platform's start URL, or
by hand), its state and nonce are read from the judge's redirect to the platform's authorization
endpoint and its ``lti_state`` cookie from the answer, and an ``id_token`` with one thing wrong is
signed with the platform's ``sign`` and posted to /lti/launch.

What it proves: every such launch is answered 401 ``launch_refused`` with a message naming the
failed check (an HTML page of it for a browser), and signs nobody in: no ``judge_session`` cookie
and no user made. The refusals: a wrong audience, an expired token, a replayed launch (the state
is single-use) and a replayed nonce, a state that is not this browser's, an unknown deployment (in
the token or at the login), a forged signature or a tampered payload, an unknown key (refused
after one fetch of the platform's key set, while a key the platform rotated in is taken thanks to
that fetch), ``alg: none`` and HS256 keyed with the platform's public key, a login from an
unregistered issuer, an anonymous launch, and a role the judge has no place for. A launch that
brings no state cookie is not refused: it is offered a new window whose link restarts the login.
"""

from __future__ import annotations

import base64
import html
import json
import re
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import timedelta
from typing import Any
from urllib.parse import parse_qs, urlencode, urlsplit

import httpx
import pytest
from sqlalchemy import select

from service.db.models import LtiPlatform, LtiUser, User, utcnow
from service.db.session import session_scope
from service.lti.launch import STATE_COOKIE
from service.lti.platforms import REFETCH_AFTER
from service.web_sessions import COOKIE as SESSION_COOKIE
from tests.lti.conftest import LEARNER, login_next, new_admin, register_by_hand
from tests.lti.platform import DEPLOYMENT_ID, Platform, auto_post_form

MENTOR = "http://purl.imsglobal.org/vocab/lis/v2/membership#Mentor"
JSON = {"Accept": "application/json"}


# --- The registered pair and its people -------------------------------------------------------


@dataclass(frozen=True)
class Course:
    """The judge and a platform registered with each other by hand, with one resource link."""

    judge: str
    lms: Platform
    platform_id: int
    client_id: str
    deployment_id: str
    link_id: str

    @property
    def issuer(self) -> str:
        return self.lms.issuer

    def member(self, roles: list[str] | None = None) -> str:
        """A new member of the LMS course (a learner unless ``roles`` say otherwise): their sub,
        which is also their name, so that the judge's user can be looked for by either."""
        sub = f"refused-{uuid.uuid4().hex[:10]}"
        self.lms.add_user(sub, sub, f"{sub}@example.org", roles=roles or [LEARNER])
        return sub

    def claims(self, sub: str, nonce: str) -> dict[str, Any]:
        """The claims the platform would sign for ``sub``'s launch of the link."""
        return self.lms.id_token_claims(sub, self.link_id, nonce)


@pytest.fixture
def course(judge: str, lms: Platform) -> Course:
    registered = register_by_hand(judge, lms, new_admin())
    link_id = f"link-{uuid.uuid4().hex[:8]}"
    lms.add_link(link_id, f"{judge}/lti/launch", "Refusals")
    return Course(judge, lms, int(registered["id"]), str(registered["client_id"]),
                  str(registered["deployment_ids"][0]), link_id)


@pytest.fixture
def http() -> Iterator[httpx.Client]:
    """A client that follows no redirect and keeps no cookie: the tests carry each by hand."""
    with httpx.Client(timeout=60, follow_redirects=False) as client:
        yield client


# --- The shared steps -------------------------------------------------------------------------


@dataclass(frozen=True)
class Login:
    """A login the judge started: its redirect to the platform and the cookie it set."""

    authorize_url: str  # the platform's authorization endpoint, with the judge's request
    state: str
    nonce: str
    cookie: str  # the lti_state cookie's value


def set_cookies(response: httpx.Response) -> dict[str, str]:
    """The cookies a response sets, by name (httpx keeps no Secure cookie over http://)."""
    cookies = {}
    for header in response.headers.get_list("set-cookie"):
        name, _, rest = header.partition("=")
        cookies[name.strip()] = rest.split(";", 1)[0]
    return cookies


def judge_login(http: httpx.Client, course: Course, url: str) -> Login:
    """GET the judge's login URL: where its page sends the browser on (the platform's
    authorization endpoint) and the state cookie, read as the browser would get them (not
    followed)."""
    answer = http.get(url)
    location = login_next(answer)
    assert location.startswith(f"{course.lms.authorize_url}?"), location
    request = {name: values[0] for name, values in parse_qs(urlsplit(location).query).items()}
    assert request["client_id"] == course.client_id
    assert request["redirect_uri"] == f"{course.judge}/lti/launch"
    cookie = set_cookies(answer).get(STATE_COOKIE)
    assert cookie, answer.headers.get_list("set-cookie")
    return Login(location, request["state"], request["nonce"], cookie)


def login(http: httpx.Client, course: Course, sub: str) -> Login:
    """A launch of the link by ``sub`` started at the platform, stopped before the platform
    answers the judge's authentication request (so no id_token of the platform's exists)."""
    started = http.get(course.lms.launch_start_url(sub, course.link_id))
    assert started.status_code == 302, (started.status_code, started.text)
    assert started.headers["location"].startswith(f"{course.judge}/lti/login?")
    return judge_login(http, course, started.headers["location"])


def login_url(course: Course, sub: str, **fields: str) -> str:
    """The judge's login URL as a platform would send a browser to it, ``fields`` changed."""
    params = {"iss": course.lms.issuer, "login_hint": sub, "target_link_uri": f"{course.judge}/lti/launch",
              "lti_message_hint": f"hint-{uuid.uuid4().hex[:8]}", "client_id": course.client_id,
              "lti_deployment_id": course.deployment_id, **fields}
    return f"{course.judge}/lti/login?{urlencode(params)}"


def authorized(http: httpx.Client, course: Course, started: Login) -> str:
    """The platform's own answer to the judge's authentication request: its signed id_token."""
    page = http.get(started.authorize_url)
    assert page.status_code == 200, (page.status_code, page.text[:500], course.lms.refusals)
    action, fields = auto_post_form(page.text)
    assert action == f"{course.judge}/lti/launch" and fields["state"] == started.state
    return fields["id_token"]


def post_launch(http: httpx.Client, course: Course, id_token: str, state: str, cookie: str | None,
                accept: str = "application/json") -> httpx.Response:
    """The launch as the platform's auto-posted form sends it, with the browser's state cookie."""
    headers = {"Accept": accept}
    if cookie is not None:
        headers["Cookie"] = f"{STATE_COOKIE}={cookie}"
    return http.post(f"{course.judge}/lti/launch", data={"id_token": id_token, "state": state}, headers=headers)


def signs_nobody_in(response: httpx.Response) -> None:
    assert not set_cookies(response).get(SESSION_COOKIE), response.headers.get_list("set-cookie")


def assert_refused(response: httpx.Response, *named: str) -> str:
    """A 401 launch_refused whose message holds each of ``named``, with no session; the message."""
    assert response.status_code == 401, (response.status_code, response.text[:1000])
    assert response.headers["content-type"].startswith("application/json"), response.headers
    error = response.json()["error"]
    assert error["code"] == "launch_refused", error
    for fragment in named:
        assert fragment in error["message"], (fragment, error["message"])
    signs_nobody_in(response)
    return str(error["message"])


def assert_nobody(course: Course, sub: str) -> None:
    """The judge holds no user for the platform's ``sub`` (nor one by that name)."""
    with session_scope() as session:
        linked = session.scalar(select(LtiUser).where(LtiUser.issuer == course.issuer,
                                                      LtiUser.sub == sub))
        named = session.scalar(select(User).where(User.name.like(f"{sub}%")))
    assert linked is None and named is None, (sub, linked, named)


def assert_signed_in(response: httpx.Response, course: Course, sub: str) -> None:
    assert response.status_code == 303, (response.status_code, response.text[:1000])
    assert set_cookies(response).get(SESSION_COOKIE)
    with session_scope() as session:
        assert session.scalar(select(LtiUser).where(LtiUser.issuer == course.issuer,
                                                    LtiUser.sub == sub)) is not None


def refuse(http: httpx.Client, course: Course, change: dict[str, Any], *named: str) -> None:
    """A login, then an id_token signed by the platform's current key with ``change`` made to the
    claims (a None value removes the claim): refused naming ``named``, nobody signed in."""
    sub = course.member()
    started = login(http, course, sub)
    claims = course.claims(sub, started.nonce)
    claims.update(change)
    claims = {name: value for name, value in claims.items() if value is not None}
    assert_refused(post_launch(http, course, course.lms.sign(claims), started.state, started.cookie), *named)
    assert_nobody(course, sub)


def jwks_fetches(lms: Platform) -> int:
    """How many times the platform's key set has been fetched."""
    return sum(1 for method, path, _ in lms.requests if (method, path) == ("GET", "/jwks"))


def keys_fetched_long_ago(course: Course) -> None:
    """The judge's cache of the platform's keys is as old as its refetch limit: as if that time
    had passed since the last fetch (instead of waiting for it)."""
    with session_scope() as session:
        platform = session.get(LtiPlatform, course.platform_id)
        assert platform is not None and platform.jwks_fetched_at is not None
        platform.jwks_fetched_at = utcnow() - REFETCH_AFTER - timedelta(seconds=1)


def b64url_json(part: dict[str, Any]) -> str:
    return base64.urlsafe_b64encode(json.dumps(part).encode()).rstrip(b"=").decode()


def b64url_decode(part: str) -> dict[str, Any]:
    decoded: dict[str, Any] = json.loads(base64.urlsafe_b64decode(part + "=" * (-len(part) % 4)))
    return decoded


# --- The claims ---------------------------------------------------------------------------------


@pytest.mark.parametrize("audience", ["another-tool", ["another-tool", "a-third-tool"]],
                         ids=["another-client", "a-list-without-this-client"])
def test_a_token_for_another_audience_is_refused(http: httpx.Client, course: Course, audience: object) -> None:
    refuse(http, course, {"aud": audience}, "audience (aud)", course.client_id)


def test_a_refusal_shown_to_a_browser_is_a_page_naming_the_check(http: httpx.Client, course: Course) -> None:
    sub = course.member()
    started = login(http, course, sub)
    claims = {**course.claims(sub, started.nonce), "aud": "another-tool"}
    page = post_launch(http, course, course.lms.sign(claims), started.state, started.cookie,
                       accept="text/html,application/xhtml+xml")
    assert page.status_code == 401
    assert page.headers["content-type"].startswith("text/html")
    assert "the audience (aud) is not this tool" in html.unescape(page.text)
    signs_nobody_in(page)
    assert_nobody(course, sub)


def test_an_expired_token_is_refused(http: httpx.Client, course: Course) -> None:
    now = int(time.time())
    # Ten minutes past its expiry: well beyond the 60 s the judge allows for clocks that differ.
    refuse(http, course, {"iat": now - 900, "exp": now - 600}, "id_token: expired")


def test_an_unknown_deployment_in_the_token_is_refused(http: httpx.Client, course: Course) -> None:
    refuse(http, course, {DEPLOYMENT_ID: "deployment-nobody-registered"},
           "deployment 'deployment-nobody-registered' is not registered")


def test_an_anonymous_launch_is_refused(http: httpx.Client, course: Course) -> None:
    refuse(http, course, {"sub": None}, "no user (sub)", "anonymous")


def test_a_role_neither_learner_nor_instructor_is_refused(http: httpx.Client, course: Course) -> None:
    # The platform's own launch, with nothing wrong but the role.
    sub = course.member(roles=[MENTOR])
    started = login(http, course, sub)
    answer = post_launch(http, course, authorized(http, course, started), started.state, started.cookie)
    assert_refused(answer, "role", "neither an instructor's nor a learner's")
    assert_nobody(course, sub)


# --- The state and the nonce --------------------------------------------------------------------


def test_a_replayed_launch_is_refused_for_its_state_is_used_once(http: httpx.Client, course: Course) -> None:
    sub = course.member()
    started = login(http, course, sub)
    id_token = authorized(http, course, started)
    first = post_launch(http, course, id_token, started.state, started.cookie)
    assert_signed_in(first, course, sub)
    # The same form posted again, even with the state cookie the login set.
    again = post_launch(http, course, id_token, started.state, started.cookie)
    assert_refused(again, "state is unknown, used already or expired")


def test_a_nonce_of_a_previous_login_is_refused(http: httpx.Client, course: Course) -> None:
    sub = course.member()
    first = login(http, course, sub)
    id_token = authorized(http, course, first)
    assert_signed_in(post_launch(http, course, id_token, first.state, first.cookie), course, sub)

    # A fresh login, and the platform's id_token of the first one posted with its state.
    second = login(http, course, sub)
    assert second.nonce != first.nonce
    replayed = post_launch(http, course, id_token, second.state, second.cookie)
    assert_refused(replayed, "nonce is not this login's")

    # A freshly signed id_token for someone else, carrying the first login's nonce.
    other = course.member()
    third = login(http, course, other)
    forged = course.lms.sign(course.claims(other, first.nonce))
    assert_refused(post_launch(http, course, forged, third.state, third.cookie), "nonce is not this login's")
    assert_nobody(course, other)


def test_a_state_that_is_not_this_browsers_is_refused(http: httpx.Client, course: Course) -> None:
    sub = course.member()
    mine = login(http, course, sub)
    theirs = login(http, course, sub)  # another login, as in another browser
    id_token = course.lms.sign(course.claims(sub, theirs.nonce))
    answer = post_launch(http, course, id_token, theirs.state, mine.cookie)
    assert_refused(answer, "state does not match the one this browser's login set")
    assert_nobody(course, sub)


def test_a_launch_without_the_state_cookie_is_offered_a_new_window(http: httpx.Client, course: Course) -> None:
    sub = course.member()
    started = login(http, course, sub)
    id_token = course.lms.sign(course.claims(sub, started.nonce))
    offer = post_launch(http, course, id_token, started.state, cookie=None, accept="text/html")
    assert offer.status_code == 200, (offer.status_code, offer.text[:1000])
    assert offer.headers["content-type"].startswith("text/html")
    assert "Open the judge in a new window" in offer.text
    signs_nobody_in(offer)
    assert_nobody(course, sub)

    links = re.findall(r'<a [^>]*href="([^"]+)"[^>]*target="_blank"', offer.text)
    assert len(links) == 1, offer.text
    again = html.unescape(links[0])
    assert again.startswith(f"{course.judge}/lti/login?"), again
    # The link starts the login again: a redirect to the platform's authorization endpoint...
    restarted = judge_login(http, course, again)
    assert restarted.state != started.state
    # ...which, in a window that keeps the cookie, ends in a launch that signs the user in.
    finished = post_launch(http, course, authorized(http, course, restarted), restarted.state, restarted.cookie)
    assert_signed_in(finished, course, sub)


# --- The login ----------------------------------------------------------------------------------


def test_a_login_with_an_unknown_deployment_is_refused(http: httpx.Client, course: Course) -> None:
    answer = http.get(login_url(course, course.member(), lti_deployment_id="deployment-nobody-registered"),
                      headers=JSON)
    assert_refused(answer, "login: deployment 'deployment-nobody-registered' is not registered")
    assert STATE_COOKIE not in set_cookies(answer)


def test_a_login_from_an_unregistered_issuer_is_refused(http: httpx.Client, course: Course) -> None:
    stranger = "https://lms.nowhere.example"
    answer = http.get(login_url(course, course.member(), iss=stranger), headers=JSON)
    assert_refused(answer, "login: no platform is registered with issuer", stranger)
    assert STATE_COOKIE not in set_cookies(answer)


# --- The signature ------------------------------------------------------------------------------


def test_a_forged_signature_under_the_current_kid_is_refused(http: httpx.Client, course: Course) -> None:
    sub = course.member()
    started = login(http, course, sub)
    kid = course.lms.current_key.kid
    forged = course.lms.sign(course.claims(sub, started.nonce), key="rogue", kid=kid)
    assert_refused(post_launch(http, course, forged, started.state, started.cookie),
                   "signature does not verify", kid)
    # The refusal used the login up: a rightly signed token cannot follow on the same state.
    honest = course.lms.sign(course.claims(sub, started.nonce))
    assert_refused(post_launch(http, course, honest, started.state, started.cookie),
                   "state is unknown, used already or expired")
    assert_nobody(course, sub)


def test_a_tampered_payload_is_refused(http: httpx.Client, course: Course) -> None:
    sub, intruder = course.member(), course.member()
    started = login(http, course, sub)
    header, payload, signature = course.lms.sign(course.claims(sub, started.nonce)).split(".")
    claims = b64url_decode(payload)
    claims.update(sub=intruder, name=intruder)
    tampered = ".".join((header, b64url_json(claims), signature))
    assert_refused(post_launch(http, course, tampered, started.state, started.cookie), "signature does not verify")
    assert_nobody(course, sub)
    assert_nobody(course, intruder)


def keys_held_since_long_ago(http: httpx.Client, course: Course) -> None:
    """A launch first, so the judge holds the platform's key set (fetched once), then that fetch
    moved back past the refetch limit."""
    sub = course.member()
    first = login(http, course, sub)
    assert_signed_in(post_launch(http, course, authorized(http, course, first), first.state, first.cookie),
                     course, sub)
    assert jwks_fetches(course.lms) == 1
    keys_fetched_long_ago(course)


def test_an_unknown_kid_is_refused_after_one_refetch_of_the_key_set(http: httpx.Client, course: Course) -> None:
    keys_held_since_long_ago(http, course)

    rogue = course.lms.rogue_key.kid
    assert rogue not in {key["kid"] for key in course.lms.jwks()["keys"]}
    for attempt in (1, 2):
        stranger = course.member()
        started = login(http, course, stranger)
        forged = course.lms.sign(course.claims(stranger, started.nonce), key="rogue")
        assert_refused(post_launch(http, course, forged, started.state, started.cookie),
                       f"key {rogue!r} is not in the platform's key set")
        assert_nobody(course, stranger)
        # Fetched again once for the unknown kid; not again at once, whatever the next token names.
        assert jwks_fetches(course.lms) == 2, (attempt, course.lms.requests)


def test_a_rotated_platform_key_is_taken_after_a_refetch(http: httpx.Client, course: Course) -> None:
    keys_held_since_long_ago(http, course)

    rotated = course.lms.rotate_keys()
    other = course.member()
    started = login(http, course, other)
    id_token = authorized(http, course, started)
    assert b64url_decode(id_token.split(".")[0])["kid"] == rotated.kid
    assert_signed_in(post_launch(http, course, id_token, started.state, started.cookie), course, other)
    assert jwks_fetches(course.lms) == 2


# --- The algorithm ------------------------------------------------------------------------------


def test_alg_none_is_refused(http: httpx.Client, course: Course) -> None:
    sub = course.member()
    started = login(http, course, sub)
    unsigned = course.lms.sign(course.claims(sub, started.nonce), alg="none")
    assert unsigned.endswith(".")
    assert_refused(post_launch(http, course, unsigned, started.state, started.cookie),
                   "algorithm 'none' is refused", "RS256")
    assert_nobody(course, sub)


def test_hs256_keyed_with_the_platforms_public_key_is_refused(http: httpx.Client, course: Course) -> None:
    sub = course.member()
    started = login(http, course, sub)
    # The key-confusion attack: an HMAC whose secret is the PEM of the key the judge verifies with.
    confused = course.lms.sign(course.claims(sub, started.nonce), alg="HS256")
    assert_refused(post_launch(http, course, confused, started.state, started.cookie),
                   "algorithm 'HS256' is refused", "RS256")
    assert_nobody(course, sub)
