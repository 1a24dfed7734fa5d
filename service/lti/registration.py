"""LTI Dynamic Registration 1.0: the platform opens /lti/register with the address of its
OpenID configuration and a registration token; an admin of the judge sees what the platform is
(``preview``) and confirms; the judge then posts its own registration to the platform
(``register``) and keeps the platform with the client id (and deployment id) it is given.

The configuration must come from the platform's own issuer: its address starts with the issuer
it names, as the specification asks, so a link cannot register one platform under another's
name.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from sqlalchemy.orm import Session

from judge.errors import InvalidInput
from service.db.models import LtiPlatform, User
from service.errors import PlatformError
from service.lti import claims as c
from service.lti import platforms, remote

TOOL_NAME = "Metrics judge"


@dataclass(frozen=True)
class PlatformConfiguration:
    issuer: str
    name: str
    authorization_endpoint: str
    token_endpoint: str
    jwks_uri: str
    registration_endpoint: str
    token_audience: str | None
    messages: list[str]


def _field(document: dict[str, Any], name: str) -> str:
    value = document.get(name)
    try:
        return remote.checked_url(value, name)
    except ValueError as exc:
        raise PlatformError(f"the platform's configuration: {exc}") from exc


def preview(configuration_url: str) -> PlatformConfiguration:
    """The platform's OpenID configuration, checked."""
    try:
        remote.checked_url(configuration_url, "openid_configuration")
    except ValueError as exc:
        raise InvalidInput(str(exc), param="openid_configuration") from exc
    document = remote.get_json(configuration_url, "the platform's OpenID configuration")
    if not isinstance(document, dict):
        raise PlatformError("the platform's OpenID configuration is not a JSON object")
    issuer = _field(document, "issuer")
    if not configuration_url.startswith(issuer.rstrip("/")):
        raise PlatformError(f"the configuration at {configuration_url} names issuer {issuer}, whose address "
                            "it does not start with: refused, as the specification asks")
    lti = document.get(c.PLATFORM_CONFIGURATION)
    lti = lti if isinstance(lti, dict) else {}
    family = lti.get("product_family_code")
    name = family if isinstance(family, str) and family.strip() else urlsplit(issuer).hostname or issuer
    supported = [m.get("type") for m in lti.get("messages_supported", []) if isinstance(m, dict)]
    audience = document.get("authorization_server")
    return PlatformConfiguration(
        issuer=issuer, name=str(name)[:200],
        authorization_endpoint=_field(document, "authorization_endpoint"),
        token_endpoint=_field(document, "token_endpoint"), jwks_uri=_field(document, "jwks_uri"),
        registration_endpoint=_field(document, "registration_endpoint"),
        token_audience=audience if isinstance(audience, str) and audience else None,
        messages=[m for m in supported if isinstance(m, str)])


def tool_registration(base: str) -> dict[str, Any]:
    """What the judge asks the platform to register: OpenID Connect client metadata and LTI's."""
    launch = f"{base}/lti/launch"
    return {
        "application_type": "web", "response_types": ["id_token"],
        "grant_types": ["implicit", "client_credentials"],
        "initiate_login_uri": f"{base}/lti/login", "redirect_uris": [launch],
        "client_name": TOOL_NAME, "jwks_uri": f"{base}/lti/jwks", "logo_uri": f"{base}/static/favicon.svg",
        "token_endpoint_auth_method": "private_key_jwt", "scope": " ".join(c.TOOL_SCOPES),
        c.TOOL_CONFIGURATION: {
            "domain": urlsplit(base).netloc, "target_link_uri": launch,
            "description": "Exercises that implement text-evaluation metrics, judged in a sandbox",
            "claims": ["iss", "sub", "name", "given_name", "family_name", "email"],
            "messages": [{"type": c.DEEP_LINKING_REQUEST, "target_link_uri": launch,
                          "label": "Add problems from the judge"}],
        },
    }


def register(session: Session, admin: User, configuration_url: str, registration_token: str,
             base: str) -> LtiPlatform:
    """Register the judge with the platform, and the platform with the judge; committed."""
    if not 1 <= len(registration_token) <= 4000:
        raise InvalidInput("registration_token: 1 to 4000 characters", param="registration_token")
    config = preview(configuration_url)
    what = "the registration at the platform"
    answer = remote.json_of(remote.call(
        "POST", config.registration_endpoint, what, body=tool_registration(base),
        headers={"Authorization": f"Bearer {registration_token}", "Accept": "application/json"},
        ok=(200, 201)), what)
    client_id = answer.get("client_id") if isinstance(answer, dict) else None
    if not isinstance(client_id, str) or not client_id:
        raise PlatformError(f"{what}: the answer holds no client_id")
    tool = answer.get(c.TOOL_CONFIGURATION)
    deployment = tool.get("deployment_id") if isinstance(tool, dict) else None
    fields = platforms.PlatformFields(
        name=config.name, issuer=config.issuer, client_id=client_id,
        deployment_ids=[deployment] if isinstance(deployment, str) and deployment else [],
        auth_login_url=config.authorization_endpoint, token_url=config.token_endpoint,
        jwks_url=config.jwks_uri, token_audience=config.token_audience)
    return platforms.register(session, admin, fields)
