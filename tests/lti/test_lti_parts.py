"""The LTI parts that need no judge running: roles, the checks of a platform's registration,
and the bounds on what a platform may answer."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from judge.errors import InvalidInput
from service.errors import LaunchRefused, PlatformError
from service.lti import claims, framing, grades, id_tokens, registration, remote
from service.lti.platforms import PlatformFields
from service.settings import get_settings
from tests.lti.platform import Platform

pytestmark = pytest.mark.unit

MEMBERSHIP = "http://purl.imsglobal.org/vocab/lis/v2/membership#"


@pytest.fixture
def settings(monkeypatch: pytest.MonkeyPatch) -> Iterator[pytest.MonkeyPatch]:
    """Settings a test changes with ``setenv``, read afresh."""
    get_settings.cache_clear()
    yield monkeypatch
    monkeypatch.undo()
    get_settings.cache_clear()


@pytest.mark.parametrize(("roles", "teaches"), [
    ([MEMBERSHIP + "Learner"], False),
    (["Learner"], False),
    ([MEMBERSHIP + "Instructor"], True),
    (["http://purl.imsglobal.org/vocab/lis/v2/membership/Instructor#TeachingAssistant"], True),
    ([MEMBERSHIP + "Learner", MEMBERSHIP + "Instructor"], True),
    ([MEMBERSHIP + "Mentor"], None),
    # An institution's or the whole system's Administrator is no role in the course.
    (["http://purl.imsglobal.org/vocab/lis/v2/institution/person#Administrator"], None),
    (["http://purl.imsglobal.org/vocab/lis/v2/system/person#Administrator"], None),
    ("Instructor", None), ([], None), ([7], None),
])
def test_the_platforms_roles_give_a_place_in_the_course_only(roles: object, teaches: bool | None) -> None:
    assert claims.teaches(roles) is teaches


def fields(**changed: object) -> PlatformFields:
    given: dict[str, object] = {
        "name": "Moodle", "issuer": "https://moodle.example.org", "client_id": "abc",
        "deployment_ids": ["1"], "auth_login_url": "https://moodle.example.org/mod/lti/auth.php",
        "token_url": "https://moodle.example.org/mod/lti/token.php",
        "jwks_url": "https://moodle.example.org/mod/lti/certs.php"}
    given.update(changed)
    return PlatformFields(**given)  # type: ignore[arg-type]


def test_a_registration_is_checked_field_by_field(settings: pytest.MonkeyPatch) -> None:
    settings.setenv("JUDGE_LTI_ALLOW_HTTP", "false")
    assert fields(name="  Moodle  ").checked().name == "Moodle"
    with pytest.raises(InvalidInput, match="token_url: 'http://moodle.example.org/t' is not an absolute https URL"):
        fields(token_url="http://moodle.example.org/t").checked()
    with pytest.raises(InvalidInput, match="jwks_url"):
        fields(jwks_url="file:///etc/passwd").checked()
    with pytest.raises(InvalidInput, match="name: printable characters only"):
        fields(name="Moodle\u202e").checked()
    with pytest.raises(InvalidInput, match="deployment_ids: at most 50 deployment ids, each once"):
        fields(deployment_ids=["1", "1"]).checked()
    with pytest.raises(InvalidInput, match="client_id: 1 to 255"):
        fields(client_id=" ").checked()
    settings.setenv("JUDGE_LTI_ALLOW_HTTP", "true")
    get_settings.cache_clear()
    assert fields(token_url="http://127.0.0.1:9/t").checked().token_url == "http://127.0.0.1:9/t"


def test_a_platforms_answer_is_bounded_and_its_configuration_must_be_its_own(settings: pytest.MonkeyPatch) -> None:
    with Platform() as lms:
        assert registration.preview(lms.openid_configuration_url).issuer == lms.issuer
        # The same document under another address than its issuer's: refused.
        elsewhere = lms.openid_configuration_url.replace("127.0.0.1", "localhost")
        with pytest.raises(PlatformError, match="does not start with"):
            registration.preview(elsewhere)
        settings.setenv("JUDGE_LTI_MAX_RESPONSE_BYTES", "1024")
        get_settings.cache_clear()
        with pytest.raises(PlatformError, match="larger than 1024 bytes"):
            remote.get_json(lms.openid_configuration_url, "the configuration")
    with pytest.raises(PlatformError, match="could not be reached"):
        remote.get_json("http://127.0.0.1:9/nothing", "a closed port")


def test_a_platform_on_a_private_address_is_refused_unless_allowed(settings: pytest.MonkeyPatch) -> None:
    settings.setenv("JUDGE_LTI_ALLOW_PRIVATE", "false")
    with Platform() as lms:
        with pytest.raises(PlatformError, match=r"is not at a public address \(loopback\); JUDGE_LTI_ALLOW_PRIVATE"):
            remote.get_json(lms.jwks_url, "the key set")
        with pytest.raises(PlatformError, match="private"):
            remote.get_json("http://10.1.2.3/jwks", "the key set")
        settings.setenv("JUDGE_LTI_ALLOW_PRIVATE", "true")
        get_settings.cache_clear()
        assert remote.get_json(lms.jwks_url, "the key set")["keys"]


def test_a_malformed_id_token_is_refused_before_any_key_is_looked_at() -> None:
    for token, why in [("a.b", "three parts"), ("!!!.b.c", "base64url"), ("W10.b.c", "JSON object"),
                       ("x" * 100_001, "at most 100000")]:
        with pytest.raises(LaunchRefused, match=why):
            id_tokens._header(token)


def test_scores_go_to_the_line_items_scores_endpoint() -> None:
    assert grades.scores_url("https://lms.example/li/7") == "https://lms.example/li/7/scores"
    assert grades.scores_url("https://lms.example/li/7/?type=x") == "https://lms.example/li/7/scores?type=x"


def test_only_plain_origins_may_frame_the_pages() -> None:
    assert framing.origin("https://lms.example.org/path?x=1") == "https://lms.example.org"
    assert framing.origin("https://lms.example.org;script-src") is None
    assert framing.origin("javascript:alert(1)") is None
