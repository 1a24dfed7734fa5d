"""The LTI test platform (tests/lti/platform.py) on its own, without the judge: what it publishes,
what it signs, and that it refuses what a real LMS would refuse. A second platform stands in for
the tool's keys: its /jwks is the tool's jwks_uri, and its ``sign`` signs as the tool.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
import time
from collections.abc import Iterator
from typing import Any
from urllib.parse import parse_qsl, urlsplit

import httpx
import jwt
import pytest

from tests.lti.platform import (
    DEEP_LINKING_REQUEST,
    DL_CONTENT_ITEMS,
    DL_DATA,
    DL_SETTINGS,
    JWT_BEARER,
    MEMBERSHIPS_MEDIA,
    SCOPE_NRPS,
    SCOPE_SCORE,
    SCORE_MEDIA,
    TOOL_CONFIGURATION,
    Platform,
    auto_post_form,
)

pytestmark = pytest.mark.unit

TOOL = "http://127.0.0.1:9"  # a tool nobody serves: these tests make its requests themselves
CLIENT_ID = "tool-1"
AGS_CLAIM = "https://purl.imsglobal.org/spec/lti-ags/claim/endpoint"


@pytest.fixture
def lms() -> Iterator[Platform]:
    with Platform() as platform:
        yield platform


@pytest.fixture(scope="module")
def tool_keys() -> Iterator[Platform]:
    with Platform() as keys:
        yield keys


@pytest.fixture
def course(lms: Platform, tool_keys: Platform) -> Platform:
    """The platform with the tool registered by hand, two users and a graded link."""
    lms.register_tool(CLIENT_ID, "deployment-1", f"{TOOL}/lti/login", f"{TOOL}/lti/launch", tool_keys.jwks_url)
    lms.add_user("ann", "Ann Lee", "ann@example.org")
    lms.add_user("bob", "Bob Ray", "bob@example.org")
    lms.add_link("bleu", f"{TOOL}/lti/launch", "BLEU", custom={"problem": "bleu"}, line_item={"scoreMaximum": 10})
    return lms


def authorize(lms: Platform, start_url: str, **overrides: str) -> httpx.Response:
    """What the tool does between the platform's two steps: read the login initiation and ask
    /authorize with the parameters LTI core 5.1.1.2 lists (``overrides`` changed)."""
    started = httpx.get(start_url)
    assert started.status_code == 302, started.text
    login = dict(parse_qsl(urlsplit(started.headers["location"]).query))
    params = {"scope": "openid", "response_type": "id_token", "response_mode": "form_post", "prompt": "none",
              "client_id": login["client_id"], "redirect_uri": f"{TOOL}/lti/launch",
              "login_hint": login["login_hint"], "lti_message_hint": login["lti_message_hint"],
              "state": "state-1", "nonce": secrets.token_hex(8), **overrides}
    return httpx.post(lms.authorize_url, data=params)


def verified(lms: Platform, id_token: str) -> dict[str, Any]:
    key = jwt.PyJWKClient(lms.jwks_url).get_signing_key_from_jwt(id_token)
    return dict(jwt.decode(id_token, key.key, algorithms=["RS256"], audience=CLIENT_ID, issuer=lms.url))


def assertion_claims(lms: Platform, **changes: Any) -> dict[str, Any]:
    now = int(time.time())
    return {"iss": CLIENT_ID, "sub": CLIENT_ID, "aud": lms.token_url, "iat": now, "exp": now + 300,
            "jti": secrets.token_hex(8), **changes}


def ask_token(lms: Platform, client_assertion: str, scope: str = SCOPE_SCORE) -> httpx.Response:
    return httpx.post(lms.token_url, data={"grant_type": "client_credentials", "client_assertion_type": JWT_BEARER,
                                           "client_assertion": client_assertion, "scope": scope})


def access_token(lms: Platform, tool_keys: Platform, scope: str) -> str:
    answer = ask_token(lms, tool_keys.sign(assertion_claims(lms)), scope)
    assert answer.status_code == 200, answer.text
    return str(answer.json()["access_token"])


def test_the_openid_configuration_describes_the_platform(lms: Platform) -> None:
    config = httpx.get(lms.openid_configuration_url).json()
    assert config["issuer"] == lms.url
    assert config["jwks_uri"] == lms.jwks_url and config["token_endpoint"] == lms.token_url
    assert config["token_endpoint_auth_methods_supported"] == ["private_key_jwt"]
    assert config["id_token_signing_alg_values_supported"] == ["RS256"]
    assert {"openid", SCOPE_SCORE, SCOPE_NRPS} <= set(config["scopes_supported"])
    lti = config["https://purl.imsglobal.org/spec/lti-platform-configuration"]
    assert [message["type"] for message in lti["messages_supported"]] == ["LtiResourceLinkRequest",
                                                                          "LtiDeepLinkingRequest"]


def test_a_launch_is_signed_by_a_published_key_that_rotation_keeps(course: Platform) -> None:
    assert [key["kid"] for key in httpx.get(course.jwks_url).json()["keys"]] == [course.current_key.kid]
    page = authorize(course, course.launch_start_url("ann", "bleu"))
    action, fields = auto_post_form(page.text)
    assert action == f"{TOOL}/lti/launch" and fields["state"] == "state-1"
    claims = verified(course, fields["id_token"])
    assert claims["sub"] == "ann" and claims["nonce"] == course.nonces[-1]
    assert claims["https://purl.imsglobal.org/spec/lti/claim/custom"] == {"problem": "bleu"}
    assert claims[AGS_CLAIM]["lineitem"] == course.line_item_url(course.links["bleu"].line_item_id or "")

    old = course.current_key.kid
    course.rotate_keys()
    assert {key["kid"] for key in httpx.get(course.jwks_url).json()["keys"]} == {old, course.current_key.kid}
    rotated = auto_post_form(authorize(course, course.launch_start_url("bob", "bleu")).text)[1]["id_token"]
    assert jwt.get_unverified_header(rotated)["kid"] == course.current_key.kid != old
    assert verified(course, rotated)["sub"] == "bob"


@pytest.mark.parametrize(("change", "reason"), [
    ({"prompt": "login"}, "prompt must be none"),
    ({"response_mode": "query"}, "response_mode must be form_post"),
    ({"redirect_uri": "http://127.0.0.1:9/elsewhere"}, "redirect_uri"),
    ({"client_id": "someone-else"}, "is not registered"),
    ({"login_hint": "bob"}, "login_hint is not the user"),
    ({"nonce": ""}, "nonce is missing"),
])
def test_authorize_refuses_a_faulty_authentication_request(course: Platform, change: dict[str, str],
                                                           reason: str) -> None:
    answer = authorize(course, course.launch_start_url("ann", "bleu"), **change)
    assert answer.status_code == 400 and reason in answer.text
    assert course.launches == [] and reason in course.refusals[-1].reason


def test_a_message_hint_serves_one_launch(course: Platform) -> None:
    started = httpx.get(course.launch_start_url("ann", "bleu"))
    hint = dict(parse_qsl(urlsplit(started.headers["location"]).query))["lti_message_hint"]
    params = {"scope": "openid", "response_type": "id_token", "response_mode": "form_post", "prompt": "none",
              "client_id": CLIENT_ID, "redirect_uri": f"{TOOL}/lti/launch", "login_hint": "ann",
              "lti_message_hint": hint, "state": "s", "nonce": "n"}
    assert httpx.post(course.authorize_url, data=params).status_code == 200
    assert "unknown, used or expired" in httpx.post(course.authorize_url, data=params).text


def test_the_token_endpoint_issues_tokens_for_the_tools_own_assertions(course: Platform, tool_keys: Platform) -> None:
    answer = ask_token(course, tool_keys.sign(assertion_claims(course)), f"{SCOPE_SCORE} {SCOPE_NRPS} openid")
    assert answer.status_code == 200, answer.text
    assert answer.json()["token_type"] == "Bearer" and answer.json()["expires_in"] == 3600
    assert answer.json()["scope"] == f"{SCOPE_SCORE} {SCOPE_NRPS}"
    assert course.tokens_issued == 1


@pytest.mark.parametrize(("signing", "reason"), [
    ({"key": "rogue"}, "not signed by the tool"),
    ({"alg": "none"}, "not signed by the tool"),
    ({"alg": "HS256"}, "not signed by the tool"),
    ({"claims": {"aud": "http://127.0.0.1:9/token"}}, "aud must be the token endpoint"),
    ({"claims": {"sub": "someone"}}, "sub must be the client_id"),
    ({"claims": {"exp": 1}}, "does not verify"),
    ({"claims": {"jti": None}}, "no jti"),
])
def test_the_token_endpoint_refuses_assertions_a_real_lms_would(course: Platform, tool_keys: Platform,
                                                                signing: dict[str, Any], reason: str) -> None:
    claims = {key: value for key, value in assertion_claims(course, **signing.pop("claims", {})).items()
              if value is not None}
    answer = ask_token(course, tool_keys.sign(claims, **signing))
    assert answer.status_code == 401 and answer.json()["error"] == "invalid_client"
    assert reason in answer.json()["error_description"]
    assert course.tokens_issued == 0


def test_the_token_endpoint_refuses_a_replayed_assertion(course: Platform, tool_keys: Platform) -> None:
    signed = tool_keys.sign(assertion_claims(course))
    assert ask_token(course, signed).status_code == 200
    assert "jti was used already" in ask_token(course, signed).json()["error_description"]


def test_nrps_pages_the_members_by_link_headers(course: Platform, tool_keys: Platform) -> None:
    for name in ("cat", "dan", "eve"):
        course.add_user(name, name.title())
    token = access_token(course, tool_keys, SCOPE_NRPS)
    headers = {"Authorization": f"Bearer {token}", "Accept": MEMBERSHIPS_MEDIA}
    url: str | None = course.memberships_url
    pages: list[list[str]] = []
    while url:
        answer = httpx.get(url, headers=headers)
        assert answer.status_code == 200 and answer.headers["content-type"] == MEMBERSHIPS_MEDIA
        pages.append([member["user_id"] for member in answer.json()["members"]])
        url = answer.links.get("next", {}).get("url")
    assert pages == [["ann", "bob"], ["cat", "dan"], ["eve"]]
    assert httpx.get(course.memberships_url, headers={**headers, "Accept": "application/json"}).status_code == 406
    score_only = access_token(course, tool_keys, SCOPE_SCORE)
    refused = httpx.get(course.memberships_url, headers={**headers, "Authorization": f"Bearer {score_only}"})
    assert refused.status_code == 403
    assert httpx.get(course.memberships_url, headers={"Accept": MEMBERSHIPS_MEDIA}).status_code == 401


def test_scores_are_checked_kept_in_order_and_refused_when_older(course: Platform, tool_keys: Platform) -> None:
    item = course.line_item_url(course.links["bleu"].line_item_id or "")
    headers = {"Authorization": f"Bearer {access_token(course, tool_keys, SCOPE_SCORE)}",
               "Content-Type": SCORE_MEDIA}

    def post(**changes: Any) -> httpx.Response:
        score = {"userId": "ann", "scoreGiven": 7, "scoreMaximum": 10, "activityProgress": "Completed",
                 "gradingProgress": "FullyGraded", "timestamp": "2030-01-01T10:00:00.000+00:00", **changes}
        return httpx.post(f"{item}/scores", json=score, headers=headers)

    assert post(scoreGiven=5, timestamp="2030-01-01T09:00:00.000Z").status_code == 200
    assert post().status_code == 200
    assert post(scoreGiven=9, timestamp="2030-01-01T08:00:00+00:00").status_code == 409
    assert "gradingProgress" in post(gradingProgress="Done", timestamp="2030-01-02T00:00:00Z").text
    assert "time zone" in post(timestamp="2030-01-02T00:00:00").text
    assert "not a member" in post(userId="zed", timestamp="2030-01-02T00:00:00Z").text
    wrong_type = httpx.post(f"{item}/scores", json={}, headers={**headers, "Content-Type": "application/json"})
    assert wrong_type.status_code == 415
    course.fail_next_scores(1)
    assert post(timestamp="2030-01-03T00:00:00Z").status_code == 503
    assert post(timestamp="2030-01-03T00:00:00Z").status_code == 200
    assert [score["scoreGiven"] for score in course.scores(item)] == [5, 7, 7]


def test_a_deep_linking_response_places_graded_links(course: Platform, tool_keys: Platform) -> None:
    fields = auto_post_form(authorize(course, course.deep_link_start_url("ann")).text)[1]
    request = verified(course, fields["id_token"])
    assert request["https://purl.imsglobal.org/spec/lti/claim/message_type"] == DEEP_LINKING_REQUEST
    settings = request[DL_SETTINGS]
    assert settings["accept_types"] == ["ltiResourceLink"] and settings["deep_link_return_url"].endswith("/deep-link-return")
    now = int(time.time())
    response = {"iss": CLIENT_ID, "aud": course.url, "iat": now, "exp": now + 300, "nonce": secrets.token_hex(8),
                "https://purl.imsglobal.org/spec/lti/claim/message_type": "LtiDeepLinkingResponse",
                "https://purl.imsglobal.org/spec/lti/claim/version": "1.3.0",
                "https://purl.imsglobal.org/spec/lti/claim/deployment_id": "deployment-1",
                DL_DATA: settings["data"],
                DL_CONTENT_ITEMS: [{"type": "ltiResourceLink", "url": f"{TOOL}/lti/launch", "title": "ROUGE",
                                    "custom": {"problem": "rouge"},
                                    "lineItem": {"scoreMaximum": 100, "label": "ROUGE", "tag": "metrics"}}]}
    answer = httpx.post(settings["deep_link_return_url"], data={"JWT": tool_keys.sign(response)})
    assert answer.status_code == 200 and "1 items added" in answer.text
    (link,) = [link for link in course.links.values() if link.title == "ROUGE"]
    assert link.custom == {"problem": "rouge"}
    assert course.line_items[link.line_item_id or ""]["resourceLinkId"] == link.id
    replay = httpx.post(settings["deep_link_return_url"],
                        data={"JWT": tool_keys.sign({**response, "nonce": "another"})})
    assert replay.status_code == 400 and "data claim" in replay.text
    launched = auto_post_form(authorize(course, course.launch_start_url("bob", link.id)).text)[1]
    assert verified(course, launched["id_token"])[AGS_CLAIM]["lineitem"] == course.line_item_url(link.line_item_id or "")


def registration_body() -> dict[str, Any]:
    return {
        "application_type": "web", "response_types": ["id_token"], "grant_types": ["implicit", "client_credentials"],
        "initiate_login_uri": f"{TOOL}/lti/login", "redirect_uris": [f"{TOOL}/lti/launch"], "client_name": "Judge",
        "jwks_uri": f"{TOOL}/lti/jwks", "token_endpoint_auth_method": "private_key_jwt",
        "scope": f"{SCOPE_SCORE} {SCOPE_NRPS} https://example.org/unknown-scope",
        TOOL_CONFIGURATION: {"domain": "127.0.0.1", "target_link_uri": f"{TOOL}/lti/launch",
                             "claims": ["iss", "sub", "name"],
                             "messages": [{"type": "LtiDeepLinkingRequest", "target_link_uri": f"{TOOL}/lti/launch"}]},
    }


def test_dynamic_registration_stores_the_tool_once_per_token(lms: Platform) -> None:
    start = lms.registration_start_url(f"{TOOL}/lti/register")
    query = dict(parse_qsl(urlsplit(start).query))
    assert query["openid_configuration"] == lms.openid_configuration_url
    bearer = {"Authorization": f"Bearer {query['registration_token']}"}
    answer = httpx.post(lms.registration_url, json=registration_body(), headers=bearer)
    assert answer.status_code == 200, answer.text
    assert lms.tool is not None and answer.json()["client_id"] == lms.tool.client_id
    assert answer.json()[TOOL_CONFIGURATION]["deployment_id"] == lms.tool.deployment_id
    assert lms.tool.scopes == [SCOPE_SCORE, SCOPE_NRPS]  # what it asked for that the platform has
    assert httpx.post(lms.registration_url, json=registration_body(), headers=bearer).status_code == 401
    assert httpx.post(lms.registration_url, json=registration_body()).status_code == 401
    page = httpx.get(lms.registration_page_url(f"{TOOL}/lti/register"))
    assert page.status_code == 200 and "registration_token=" in page.text and "org.imsglobal.lti.close" in page.text


@pytest.mark.parametrize(("change", "reason"), [
    ({"grant_types": ["implicit"]}, "client_credentials"),
    ({"token_endpoint_auth_method": "client_secret_basic"}, "private_key_jwt"),
    ({"jwks_uri": None}, "jwks_uri"),
    ({"initiate_login_uri": "http://tool.example.org/login"}, "https"),
    ({TOOL_CONFIGURATION: {"domain": "127.0.0.1", "target_link_uri": f"{TOOL}/lti/launch", "messages": []}},
     "claims"),
])
def test_dynamic_registration_refuses_an_incomplete_registration(lms: Platform, change: dict[str, Any],
                                                                 reason: str) -> None:
    token = dict(parse_qsl(urlsplit(lms.registration_start_url(f"{TOOL}/r")).query))["registration_token"]
    body = {key: value for key, value in {**registration_body(), **change}.items() if value is not None}
    answer = httpx.post(lms.registration_url, json=body, headers={"Authorization": f"Bearer {token}"})
    assert answer.status_code == 400 and reason in answer.json()["error_description"]
    assert lms.tool is None


def test_sign_makes_the_forged_tokens_negative_tests_need(lms: Platform) -> None:
    claims = {"iss": lms.url, "sub": "ann"}
    unsigned = lms.sign(claims, alg="none")
    assert unsigned.endswith(".") and jwt.get_unverified_header(unsigned)["alg"] == "none"
    confused = lms.sign(claims, alg="HS256")
    signing_input, _, signature = confused.rpartition(".")
    expected = hmac.new(lms.current_key.public_pem.encode(), signing_input.encode(), hashlib.sha256).digest()
    assert base64.urlsafe_b64decode(signature + "=" * (-len(signature) % 4)) == expected
    rogue = lms.sign(claims, key="rogue")
    assert jwt.get_unverified_header(rogue)["kid"] == lms.rogue_key.kid
    assert lms.rogue_key.kid not in {key["kid"] for key in lms.jwks()["keys"]}
    assert "kid" not in jwt.get_unverified_header(lms.sign(claims, headers={"kid": None}))


def test_the_platform_starts_and_stops_quickly_and_repeatedly() -> None:
    platform = Platform()
    began = time.monotonic()
    for _ in range(3):
        platform.start()
        assert httpx.get(platform.jwks_url).status_code == 200
        url = platform.url
        platform.stop()
    assert platform.url == url  # a restart keeps the port, so the issuer stays
    assert time.monotonic() - began < 5
    with Platform(host="localhost") as other:
        assert other.url.startswith("http://localhost:") and httpx.get(other.jwks_url).status_code == 200
