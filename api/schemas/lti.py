"""Request and response bodies of LTI 1.3: platforms, dynamic registration, deep-linking
choices, grades sent to an LMS and its roster (``service.lti``)."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from api.schemas.common import UtcTime


class PlatformIn(BaseModel):
    model_config = ConfigDict(json_schema_extra={"examples": [{
        "name": "Moodle of the faculty", "issuer": "https://moodle.example.org", "client_id": "x9Qz0T",
        "deployment_ids": ["1"], "auth_login_url": "https://moodle.example.org/mod/lti/auth.php",
        "token_url": "https://moodle.example.org/mod/lti/token.php",
        "jwks_url": "https://moodle.example.org/mod/lti/certs.php"}]})

    name: str = Field(min_length=1, max_length=200, description="what the pages call it")
    issuer: str = Field(min_length=1, max_length=1000, description="the platform's issuer (iss)")
    client_id: str = Field(min_length=1, max_length=255, description="what the platform calls the judge")
    deployment_ids: list[str] = Field(max_length=50, description="its launches' deployment ids")
    auth_login_url: str = Field(min_length=1, max_length=1000, description="its OIDC authorization endpoint")
    token_url: str = Field(min_length=1, max_length=1000, description="its OAuth 2 token endpoint")
    jwks_url: str = Field(min_length=1, max_length=1000, description="its public key set (JWKS)")
    token_audience: str | None = Field(None, max_length=1000, description=(
        "the audience of token requests, where it is not the token URL"))


class PlatformOut(BaseModel):
    id: int
    name: str
    issuer: str
    client_id: str
    deployment_ids: list[str]
    auth_login_url: str
    token_url: str
    jwks_url: str
    token_audience: str | None
    keys_fetched_at: UtcTime | None = Field(description="when its key set was last fetched")
    created_at: UtcTime


class ToolOut(BaseModel):
    """What to paste into an LMS to register the judge by hand."""

    login_url: str = Field(description="OIDC login initiation URL")
    launch_url: str = Field(description="target link URI and redirect URI (launches and deep linking)")
    jwks_url: str = Field(description="the judge's public keys")
    registration_url: str = Field(description="the dynamic registration URL")
    domain: str
    signing_key: str = Field(description="the kid of the key that signs now")


class RegistrationIn(BaseModel):
    openid_configuration: str = Field(min_length=1, max_length=1000)
    registration_token: str | None = Field(None, max_length=4000, description=(
        "the platform's registration token; without it, only the preview"))


class RegistrationPreview(BaseModel):
    issuer: str
    name: str
    authorization_endpoint: str
    token_endpoint: str
    jwks_uri: str
    registration_endpoint: str
    messages: list[str]


class DeepLinkOption(BaseModel):
    key: str = Field(description="a problem's slug, an assignment's id or a track's slug")
    title: str


class DeepLinkOut(BaseModel):
    """A deep-linking request waiting for the instructor's choice, with what they may pick."""

    course_id: int
    course_title: str
    platform: str
    accept_multiple: bool
    problems: list[DeepLinkOption]
    assignments: list[DeepLinkOption]
    tracks: list[DeepLinkOption]


class GradeSyncOut(BaseModel):
    id: int
    user: str
    user_id: int
    link: str = Field(description="the LMS link's title")
    target: str = Field(description="problem:<slug> or assignment:<id>")
    state: str = Field(description="pending, sent, failed, held, idle (nothing judged yet) or no_item")
    score_given: float | None = Field(description="as last sent")
    score_maximum: float | None
    sent_at: UtcTime | None
    attempts: int
    error: str | None


class SendAgainIn(BaseModel):
    ids: list[int] | None = Field(None, max_length=5000, description=(
        "these rows; none: every row of the assignment that is not sent"))


class CourseLtiOut(BaseModel):
    linked: bool = Field(description="made by an LMS launch")
    platform: str | None = None
    roster_service: bool = Field(False, description="the LMS offered its roster (NRPS)")
    roster_pulled_at: UtcTime | None = None


class RosterOut(BaseModel):
    members: int = Field(description="active members read")
    added: int = Field(description="of them, new to the course")
    pages: int
