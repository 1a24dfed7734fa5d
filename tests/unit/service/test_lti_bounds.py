"""LTI in one process, no platform reached: what an anonymous sender can spend at /lti/login, the
judge's key set and its rotation, who may register a platform, the deep-linking answer's CSRF
check, and who may frame the pages."""

from __future__ import annotations

import uuid
from datetime import timedelta
from urllib.parse import parse_qs, urlsplit

import httpx
import pytest
from fastapi.testclient import TestClient
from joserfc import jwt
from joserfc.jwk import KeySet
from sqlalchemy.orm import Session

from service import web_sessions
from service.courses_join import new_join_code
from service.db.models import Course, LtiContext, LtiLaunchState, LtiPlatform, Role, User, utcnow
from service.db.session import session_scope
from service.lti import deep_linking, framing, keys, launch
from tests.utils.service import bearer
from tests.utils.service_fixtures import Tokens

ISSUER = "https://lms.example.org"
BROWSER = {"Accept": "text/html"}


@pytest.fixture
def platform() -> LtiPlatform:
    with session_scope() as session:
        row = LtiPlatform(name="LMS", issuer=f"{ISSUER}/{uuid.uuid4().hex[:6]}", client_id="judge",
                          deployment_ids=["d1"], auth_login_url="https://lms.example.org/auth",
                          token_url="https://lms.example.org/token", jwks_url="https://lms.example.org/jwks")
        session.add(row)
        session.flush()
        session.expunge(row)
    framing.forget()
    return row


def login(client: TestClient, platform: LtiPlatform, **changed: str) -> httpx.Response:
    params = {"iss": platform.issuer, "login_hint": "u1", "target_link_uri": "https://judge/lti/launch",
              "lti_message_hint": "h", "client_id": "judge", **changed}
    return client.get("/lti/login", params=params, headers=BROWSER)


def test_logins_in_progress_are_bounded_and_expired_ones_go(
        client: TestClient, platform: LtiPlatform, monkeypatch: pytest.MonkeyPatch) -> None:
    with session_scope() as session:
        session.query(LtiLaunchState).delete()
        live = session.query(LtiLaunchState).count()
    monkeypatch.setattr(launch, "MAX_LIVE_LOGINS", live + 3)
    answers = [login(client, platform) for _ in range(4)]
    assert [a.status_code for a in answers] == [200, 200, 200, 429]
    assert "too many LTI logins are in progress" in answers[-1].text
    # Expired logins are deleted by the next one, which then has room.
    with session_scope() as session:
        session.query(LtiLaunchState).update({"expires_at": utcnow() - timedelta(seconds=1)})
    assert login(client, platform).status_code == 200
    with session_scope() as session:
        assert session.query(LtiLaunchState).count() == 1


def test_a_login_is_refused_in_words_for_an_unknown_issuer_or_deployment(
        client: TestClient, platform: LtiPlatform) -> None:
    stranger = client.get("/lti/login", params={"iss": "https://other.example", "login_hint": "u",
                                                "target_link_uri": "x"}, headers={"Accept": "application/json"})
    assert stranger.status_code == 401 and "no platform is registered with issuer" in stranger.text
    wrong = login(client, platform, lti_deployment_id="d9")
    assert wrong.status_code == 401 and "deployment &#x27;d9&#x27; is not registered" in wrong.text
    missing = client.get("/lti/login", params={"iss": platform.issuer}, headers={"Accept": "application/json"})
    assert missing.status_code == 401 and "the platform sent no login_hint" in missing.text


def test_the_login_page_carries_the_request_and_the_cookies(client: TestClient, platform: LtiPlatform) -> None:
    answer = login(client, platform)
    cookies = answer.headers.get_list("set-cookie")
    assert any(c.startswith("lti_state=") and "HttpOnly" in c and "SameSite=None" in c and "Partitioned" in c
               for c in cookies), cookies
    assert any(c.startswith("lti_cookies=1") and "HttpOnly" not in c for c in cookies), cookies
    text = answer.text
    start = text.index('data-next="') + len('data-next="')
    next_url = text[start:text.index('"', start)].replace("&amp;", "&")
    request = {k: v[0] for k, v in parse_qs(urlsplit(next_url).query).items()}
    assert next_url.startswith("https://lms.example.org/auth?")
    assert request["response_mode"] == "form_post" and request["prompt"] == "none"
    assert request["login_hint"] == "u1" and request["lti_message_hint"] == "h"
    assert len(request["state"]) >= 40 and len(request["nonce"]) >= 40


def test_two_keys_are_published_and_rotation_keeps_the_next_one(client: TestClient) -> None:
    first = client.get("/lti/jwks").json()["keys"]
    assert len(first) == 2 and {k["alg"] for k in first} == {"RS256"} and all("d" not in k for k in first)
    with session_scope() as session:
        signing, waiting = keys.rotate(session)
    second = client.get("/lti/jwks").json()["keys"]
    assert signing == first[1]["kid"]  # the key published ahead signs now
    assert [k["kid"] for k in second] == [signing, waiting] and waiting not in {k["kid"] for k in first}


def test_only_admins_register_platforms(client: TestClient, tokens: Tokens) -> None:
    body = {"name": "LMS", "issuer": "https://x.example", "client_id": "c", "deployment_ids": ["1"],
            "auth_login_url": "https://x.example/a", "token_url": "https://x.example/t", "jwks_url": "https://x.example/j"}
    for token in (tokens.learner, tokens.instructor):
        assert client.post("/api/v1/lti/platforms", json=body, headers=bearer(token)).status_code == 403
        assert client.post("/api/v1/lti/registrations", headers=bearer(token),
                           json={"openid_configuration": "https://x.example/.well-known/openid-configuration"}
                           ).status_code == 403
    made = client.post("/api/v1/lti/platforms", json=body, headers=bearer(tokens.admin))
    assert made.status_code == 201, made.text
    again = client.post("/api/v1/lti/platforms", json=body, headers=bearer(tokens.admin))
    assert again.status_code == 409 and "is registered already" in again.text
    assert client.delete(f"/api/v1/lti/platforms/{made.json()['id']}", headers=bearer(tokens.admin)).status_code == 204


def test_the_pages_may_be_framed_by_registered_platforms_only(client: TestClient, platform: LtiPlatform) -> None:
    policy = client.get("/", headers=BROWSER).headers["content-security-policy"]
    ancestors = policy.split("frame-ancestors ", 1)[1]
    assert ancestors.startswith("'self'") and "https://lms.example.org" in ancestors
    register = client.get("/lti/register", headers=BROWSER).headers["content-security-policy"]
    assert register.endswith("frame-ancestors *")


def test_a_deep_linking_answer_needs_the_sessions_csrf_token(client: TestClient, platform: LtiPlatform) -> None:
    with session_scope() as session:
        context = LtiContext(platform_id=platform.id, deployment_id="d1", context_id=uuid.uuid4().hex,
                             course_id=_a_course(session))
        session.add(context)
        session.flush()
        teacher = _an_instructor(session)
        token = deep_linking.start(session, teacher, context, {
            "https://purl.imsglobal.org/spec/lti-dl/claim/deep_linking_settings": {
                "deep_link_return_url": "https://lms.example.org/return", "accept_types": ["ltiResourceLink"],
                "data": "opaque"}})
        secret, row = web_sessions.start_session(session, teacher)
        csrf = row.csrf_token
    url, json_only = f"/lti/deep-link/{token}", {"Accept": "application/json"}
    picks = {"problem": "secret_lookup"}
    assert client.post(url, data={"csrf_token": csrf, **picks}, headers=json_only).status_code == 401
    cookie = {"Cookie": f"{web_sessions.COOKIE}={secret}", **json_only}
    forged = client.post(url, data={"csrf_token": "forged", **picks}, headers=cookie)
    assert forged.status_code == 403 and forged.json()["error"]["code"] == "csrf"
    answered = client.post(url, data={"csrf_token": csrf, **picks}, headers=cookie)
    assert answered.status_code == 200, answered.text
    assert 'action="https://lms.example.org/return"' in answered.text
    assert "form-action https://lms.example.org" in answered.headers["content-security-policy"]
    signed = answered.text.split('name="JWT" value="', 1)[1].split('"', 1)[0]
    key_set = KeySet.import_key_set(client.get("/lti/jwks").json())
    claims = jwt.decode(signed, key_set, algorithms=["RS256"]).claims
    assert (claims["iss"], claims["aud"]) == ("judge", platform.issuer)
    assert claims["https://purl.imsglobal.org/spec/lti-dl/claim/data"] == "opaque"
    [item] = claims["https://purl.imsglobal.org/spec/lti-dl/claim/content_items"]
    assert item["custom"] == {"problem": "secret_lookup"} and item["lineItem"]["scoreMaximum"] == 1
    # Answered once.
    assert client.post(url, data={"csrf_token": csrf, **picks}, headers=cookie).status_code == 404


def _a_course(session: Session) -> int:
    course = Course(title="LMS course", join_code=new_join_code())
    session.add(course)
    session.flush()
    return course.id


def _an_instructor(session: Session) -> User:
    user = User(name=f"dl-{uuid.uuid4().hex[:8]}", role=Role.INSTRUCTOR.value)
    session.add(user)
    session.flush()
    return user
