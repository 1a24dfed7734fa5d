"""An independent LTI 1.3 Advantage platform (a tiny LMS) that the judge's LTI tests run against.

The judge is the LTI *tool*; this is the *platform*. It is written apart from the tool and on
other libraries (lti1p3platform, which signs and verifies with PyJWT and jwcrypto), so that a
misreading of the 1EdTech specs on one side shows up as a refusal on the other. It checks what
the tool sends as strictly as a real LMS would, and answers bad input with a 4xx and a reason,
which it also keeps in ``Platform.refusals`` for a failing test to show.

Specs: LTI 1.3 Core, 1EdTech Security Framework 1.0, LTI Dynamic Registration 1.0, Deep Linking
2.0, Assignment and Grade Services 2.0, Names and Role Provisioning Services 2.0.

    with Platform() as lms:                 # uvicorn in a thread, on a free port of 127.0.0.1
        url = lms.registration_start_url(f"{tool}/lti/register")
        ...

The URLs it serves (``lms.url`` is also its issuer):

    GET  /.well-known/openid-configuration   GET /jwks            POST /register
    GET  /admin/register?tool=                (a page with the tool's registration in an iframe)
    GET  /start/{link_id}?user=&target=      GET /start-deep-link?user=&target=
    GET  /course/{link_id}?user=             GET /course/deep-link?user=     (pages with the tool in an iframe)
    GET|POST /authorize                      POST /deep-link-return          GET /return
    POST /token
    GET|POST /ags/{context}/lineitems        GET|PUT|DELETE /ags/{context}/lineitems/{id}
    POST /ags/{context}/lineitems/{id}/scores   GET /ags/{context}/lineitems/{id}/results
    GET  /nrps/{context}/memberships

lti1p3platform builds and signs the id_token (its Registration, LTIAdvantageMessageLaunchAbstract
claim setters, platform_encode_and_sign), verifies the tool's JWTs by kid against the tool's JWKS
(tool_validate_and_decode, validate_deeplinking_resp), mints access tokens (get_access_token) and
checks them (validate_token). What it leaves out, this module adds: the claim checks of the
client assertion (iss, sub, aud, exp, iat, jti), the deep linking response's aud, deployment and
data, key rotation, and the AGS and NRPS endpoints themselves, whose library versions neither
validate scores nor tell the scopes of one endpoint from another's.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import html
import itertools
import json
import math
import secrets
import socket
import threading
import time
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from html.parser import HTMLParser
from typing import Any
from urllib.parse import parse_qsl, quote, urlencode, urljoin, urlsplit, urlunsplit

import httpx
import jwt
import uvicorn
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import padding, rsa
from lti1p3platform.exceptions import LtiDeepLinkingResponseException, LtiException
from lti1p3platform.ltiplatform import LTI1P3PlatformConfAbstract
from lti1p3platform.message_launch import LTIAdvantageMessageLaunchAbstract
from lti1p3platform.registration import Registration
from lti1p3platform.request import Request as LtiRequest
from lti1p3platform.request import TRequest
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from starlette.routing import Route

# --- Names from the specs ---------------------------------------------------------------------

CLAIM = "https://purl.imsglobal.org/spec/lti/claim/"
MESSAGE_TYPE = CLAIM + "message_type"
VERSION = CLAIM + "version"
DEPLOYMENT_ID = CLAIM + "deployment_id"
TARGET_LINK_URI = CLAIM + "target_link_uri"
ROLES = CLAIM + "roles"
CONTEXT = CLAIM + "context"
RESOURCE_LINK = CLAIM + "resource_link"
LAUNCH_PRESENTATION = CLAIM + "launch_presentation"
CUSTOM = CLAIM + "custom"
TOOL_PLATFORM = CLAIM + "tool_platform"
AGS_ENDPOINT = "https://purl.imsglobal.org/spec/lti-ags/claim/endpoint"
NRPS_SERVICE = "https://purl.imsglobal.org/spec/lti-nrps/claim/namesroleservice"
DL_SETTINGS = "https://purl.imsglobal.org/spec/lti-dl/claim/deep_linking_settings"
DL_CONTENT_ITEMS = "https://purl.imsglobal.org/spec/lti-dl/claim/content_items"
DL_DATA = "https://purl.imsglobal.org/spec/lti-dl/claim/data"
DL_MESSAGES = {name: f"https://purl.imsglobal.org/spec/lti-dl/claim/{name}"
               for name in ("msg", "log", "errormsg", "errorlog")}
TOOL_CONFIGURATION = "https://purl.imsglobal.org/spec/lti-tool-configuration"
PLATFORM_CONFIGURATION = "https://purl.imsglobal.org/spec/lti-platform-configuration"

RESOURCE_LINK_REQUEST = "LtiResourceLinkRequest"
DEEP_LINKING_REQUEST = "LtiDeepLinkingRequest"
DEEP_LINKING_RESPONSE = "LtiDeepLinkingResponse"
MESSAGES_SUPPORTED = (RESOURCE_LINK_REQUEST, DEEP_LINKING_REQUEST)

SCOPE_LINEITEM = "https://purl.imsglobal.org/spec/lti-ags/scope/lineitem"
SCOPE_LINEITEM_READONLY = "https://purl.imsglobal.org/spec/lti-ags/scope/lineitem.readonly"
SCOPE_RESULT_READONLY = "https://purl.imsglobal.org/spec/lti-ags/scope/result.readonly"
SCOPE_SCORE = "https://purl.imsglobal.org/spec/lti-ags/scope/score"
SCOPE_NRPS = "https://purl.imsglobal.org/spec/lti-nrps/scope/contextmembership.readonly"
AGS_SCOPES = (SCOPE_LINEITEM, SCOPE_LINEITEM_READONLY, SCOPE_RESULT_READONLY, SCOPE_SCORE)
SERVICE_SCOPES = (*AGS_SCOPES, SCOPE_NRPS)

LINEITEM_MEDIA = "application/vnd.ims.lis.v2.lineitem+json"
LINEITEMS_MEDIA = "application/vnd.ims.lis.v2.lineitemcontainer+json"
SCORE_MEDIA = "application/vnd.ims.lis.v1.score+json"
RESULTS_MEDIA = "application/vnd.ims.lis.v2.resultcontainer+json"
MEMBERSHIPS_MEDIA = "application/vnd.ims.lti-nrps.v2.membershipcontainer+json"
FORM_MEDIA = "application/x-www-form-urlencoded"
JWT_BEARER = "urn:ietf:params:oauth:client-assertion-type:jwt-bearer"

ROLE_LEARNER = "http://purl.imsglobal.org/vocab/lis/v2/membership#Learner"
ROLE_INSTRUCTOR = "http://purl.imsglobal.org/vocab/lis/v2/membership#Instructor"
ROLE_CONTENT_DEVELOPER = "http://purl.imsglobal.org/vocab/lis/v2/membership#ContentDeveloper"
COURSE_OFFERING = "http://purl.imsglobal.org/vocab/lis/v2/course#CourseOffering"

ACTIVITY_PROGRESS = ("Initialized", "Started", "InProgress", "Submitted", "Completed")
GRADING_PROGRESS = ("FullyGraded", "Pending", "PendingManual", "Failed", "NotReady")
DOCUMENT_TARGETS = ("iframe", "window")

ID_TOKEN_LIFETIME = 300  # seconds: a launch is posted at once, so a few minutes are plenty
ACCESS_TOKEN_LIFETIME = 3600  # the Security Framework's recommended hour
PENDING_LIFETIME = 600  # a started launch or deep linking request must come back within this
CLOCK_SKEW = 60  # an iat this far ahead of our clock is still accepted
# Identity claims sent only when a dynamically registered tool asks for them in its `claims`.
IDENTITY_CLAIMS = ("name", "given_name", "family_name", "email")
LOOPBACK_HOSTS = ("127.0.0.1", "localhost", "::1")
# Substitution variables (LTI core, appendix) the platform resolves in custom parameters.
VARIABLES = ("User.id", "Person.name.full", "Person.email.primary", "Context.id", "Context.title",
             "Context.label", "ResourceLink.id", "ResourceLink.title")


# --- Keys and compact JWS ---------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class SigningKey:
    """An RSA 2048 key pair; ``kid`` is the RFC 7638 thumbprint, as jwcrypto computes it."""

    private: rsa.RSAPrivateKey
    private_pem: str
    public_pem: str
    kid: str
    jwk: dict[str, Any]  # the public JWK as published: kty, n, e, kid, alg RS256, use sig

    @classmethod
    def generate(cls) -> SigningKey:
        private = rsa.generate_private_key(public_exponent=65537, key_size=2048)
        private_pem = private.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                            serialization.NoEncryption()).decode("ascii")
        public_pem = private.public_key().public_bytes(
            serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo).decode("ascii")
        jwk: dict[str, Any] = Registration.get_jwk(public_pem)
        return cls(private, private_pem, public_pem, str(jwk["kid"]), jwk)


def _b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def compact_jws(claims: Mapping[str, Any], header: Mapping[str, Any], key: SigningKey,
                secret: bytes | None = None) -> str:
    """``claims`` signed as ``header["alg"]`` says, by hand, so that the forms no JWT library
    will produce (alg none, HS256 keyed with an RSA public key) can be made for negative tests."""
    alg = header.get("alg")
    signing_input = ".".join(_b64url(json.dumps(part, separators=(",", ":")).encode("utf-8"))
                             for part in (header, claims)).encode("ascii")
    if alg == "none":
        signature = b""
    elif alg == "HS256":
        # The key-confusion attack: a verifier that takes the algorithm from the token HMACs with
        # the bytes of the RSA public key it would have used for RS256, i.e. its PEM.
        signature = hmac.new(secret if secret is not None else key.public_pem.encode("ascii"), signing_input,
                             hashlib.sha256).digest()
    elif alg == "RS256":
        signature = key.private.sign(signing_input, padding.PKCS1v15(), hashes.SHA256())
    else:
        raise ValueError(f"cannot sign with alg {alg!r} (RS256, HS256 or none)")
    return signing_input.decode("ascii") + "." + _b64url(signature)


# --- What the platform knows --------------------------------------------------------------------


@dataclass
class Tool:
    """A registered tool: by LTI Dynamic Registration (``registration`` is then the body it
    posted) or by hand (``Platform.register_tool``)."""

    client_id: str
    deployment_id: str
    name: str
    login_url: str  # initiate_login_uri
    redirect_uris: list[str]
    target_link_uri: str
    deep_link_url: str  # target_link_uri of deep linking requests
    jwks_url: str
    scopes: list[str]  # the service scopes granted
    claims: list[str] | None = None  # identity claims it asked for; None: send them all
    domain: str | None = None
    custom: dict[str, str] = field(default_factory=dict)  # the tool configuration's custom_parameters
    registration: dict[str, Any] | None = None
    jwks: dict[str, Any] | None = None  # the tool's JWKS as last fetched


@dataclass
class User:
    sub: str
    name: str | None = None
    email: str | None = None
    given_name: str | None = None
    family_name: str | None = None
    roles: list[str] = field(default_factory=lambda: [ROLE_LEARNER])
    status: str = "Active"


@dataclass
class Link:
    """A resource link placed in the course: by hand (``add_link``) or by deep linking."""

    id: str
    url: str
    title: str
    client_id: str | None = None  # None: whichever tool was registered last
    custom: dict[str, str] = field(default_factory=dict)
    text: str | None = None
    line_item_id: str | None = None


@dataclass
class LineItem:
    id: str
    client_id: str | None  # the tool that owns it; None: any tool
    fields: dict[str, Any]  # label, scoreMaximum, resourceId, tag, resourceLinkId, ... as in the JSON


@dataclass
class PendingLaunch:
    """A launch started at /start (the tool's login was redirected to), until /authorize."""

    hint: str  # the lti_message_hint
    user: str
    client_id: str
    message_type: str
    link_id: str | None
    target: str
    target_link_uri: str
    expires: float


@dataclass
class PendingDeepLink:
    """A deep linking request signed at /authorize, until its response comes back."""

    data: str
    client_id: str
    user: str
    expires: float


@dataclass
class Launch:
    """An id_token /authorize signed and posted to the tool."""

    claims: dict[str, Any]
    id_token: str
    state: str
    redirect_uri: str

    @property
    def nonce(self) -> str:
        return str(self.claims["nonce"])


@dataclass
class IssuedToken:
    client_id: str
    scopes: list[str]
    expires: float
    key: SigningKey  # the key that signed it, so a rotation does not void it


@dataclass
class Refusal:
    method: str
    path: str
    status: int
    error: str
    reason: str


class Refused(Exception):
    """A request the platform turns down: an HTTP status, an error code (OAuth 2's where one
    fits) and the reason in words."""

    def __init__(self, status: int, error: str, reason: str, headers: Mapping[str, str] | None = None) -> None:
        super().__init__(f"{status} {error}: {reason}")
        self.status = status
        self.error = error
        self.reason = reason
        self.headers = dict(headers or {})

    def json(self) -> JSONResponse:
        return JSONResponse({"error": self.error, "error_description": self.reason}, self.status, self.headers)

    def page(self) -> HTMLResponse:
        body = f'<p class="error" id="error">{_e(self.error)}: {_e(self.reason)}</p>'
        return _page("Refused by the platform", body, self.status)


# --- lti1p3platform, bound to one tool ------------------------------------------------------


class _PlatformConf(LTI1P3PlatformConfAbstract):  # type: ignore[misc]  # the library has no type hints
    """The library's platform configuration for one request: one tool's registration."""

    def init_platform_config(self, **kwargs: Any) -> None:
        self._registration = kwargs["registration"]
        self.set_accepted_deeplinking_types(["ltiResourceLink"])

    def get_registration_by_params(self, **kwargs: Any) -> Registration:
        return self._registration


class _Preflight(LtiRequest):  # type: ignore[misc]
    """The tool's authentication request, as the library's launch reads it."""

    def build_metadata(self, request: Any) -> TRequest:
        return {"method": "POST", "form_data": dict(request), "get_data": {}, "headers": {},
                "content_type": FORM_MEDIA, "path": "/authorize", "json": None}


class _Launch(LTIAdvantageMessageLaunchAbstract):  # type: ignore[misc]
    def bind(self, registration: Registration) -> None:
        self._registration = registration

    def deep_linking_claim(self) -> dict[str, Any]:
        return dict(self._deep_linking_launch_data or {})

    def render_launch_form(self, launch_data: dict[str, Any], **kwargs: Any) -> HTMLResponse:
        # The form the browser posts to the tool's redirect_uri at once (LTI core 5.1.1.2).
        body = (f'<form id="lti-launch" method="post" action="{_e(launch_data["launch_url"])}">'
                f'<input type="hidden" name="id_token" value="{_e(launch_data["id_token"])}">'
                f'<input type="hidden" name="state" value="{_e(launch_data["state"])}">'
                '<noscript><button type="submit">Continue</button></noscript></form>'
                '<script>document.getElementById("lti-launch").submit();</script>')
        return _page("Launching…", body)


# --- Small helpers ----------------------------------------------------------------------------


def _e(value: object) -> str:
    return html.escape(str(value), quote=True)


def _page(title: str, body: str, status: int = 200) -> HTMLResponse:
    return HTMLResponse(f'<!doctype html><html lang="en"><head><meta charset="utf-8"><title>{_e(title)}</title>'
                        f"</head><body>{body}</body></html>", status)


def _media_type(value: str) -> str:
    return value.split(";", 1)[0].strip().lower()


def _with_query(url: str, params: Mapping[str, str]) -> str:
    """``url`` with ``params`` added to whatever query it already has."""
    parts = urlsplit(url)
    query = [*parse_qsl(parts.query, keep_blank_values=True), *params.items()]
    return urlunsplit(parts._replace(query=urlencode(query)))


def _is_number(value: object) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)


def _timestamp(value: object, what: str) -> datetime:
    """An ISO 8601 date-time with its UTC offset (naive times are ambiguous between systems)."""
    if not isinstance(value, str):
        raise Refused(400, "invalid_request", f"{what} must be an ISO 8601 string")
    try:
        moment = datetime.fromisoformat(value)
    except ValueError as exc:
        raise Refused(400, "invalid_request", f"{what} {value!r} is not ISO 8601") from exc
    if moment.tzinfo is None:
        raise Refused(400, "invalid_request", f"{what} {value!r} has no time zone offset")
    return moment


def _web_url(value: object, what: str, error: str = "invalid_request") -> str:
    """An absolute https URL; http only on this machine, where the tests run."""
    if not isinstance(value, str) or not value:
        raise Refused(400, error, f"{what} is missing or not a string")
    parts = urlsplit(value)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise Refused(400, error, f"{what} {value!r} is not an absolute http(s) URL")
    if parts.scheme == "http" and parts.hostname not in LOOPBACK_HOSTS:
        raise Refused(400, error, f"{what} {value!r} must use https")
    if parts.fragment:
        raise Refused(400, error, f"{what} {value!r} must not have a fragment")
    return value


def _strings(value: object, what: str, error: str = "invalid_request") -> list[str]:
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        raise Refused(400, error, f"{what} must be an array of strings")
    return list(value)


def _custom(value: object, what: str) -> dict[str, str]:
    """Custom parameters: a JSON object of strings (LTI core 5.4.6)."""
    if value is None:
        return {}
    if not isinstance(value, dict) or not all(isinstance(k, str) and isinstance(v, str) for k, v in value.items()):
        raise Refused(400, "invalid_request", f"{what} must be an object whose values are strings")
    return dict(value)


def _optional_string(body: Mapping[str, Any], name: str, what: str) -> str | None:
    value = body.get(name)
    if value is not None and not isinstance(value, str):
        raise Refused(400, "invalid_request", f"{what}.{name} must be a string")
    return value


def _unverified(token: str) -> dict[str, Any]:
    """A JWT's claims before its signature is checked, to find whose key should check it."""
    try:
        claims = jwt.decode(token, options={"verify_signature": False})
    except jwt.InvalidTokenError as exc:
        raise Refused(400, "invalid_request", f"not a JWT: {exc}") from exc
    return dict(claims)


def _audience_has(claims: Mapping[str, Any], audience: str) -> bool:
    aud = claims.get("aud")
    return aud == audience or (isinstance(aud, list) and audience in aud)


@dataclass
class Incoming:
    """What a handler reads of a request, read once on the event loop so that the handler can
    run in a worker thread (it may fetch the tool's JWKS, which must not block the loop)."""

    method: str
    path: str
    path_params: dict[str, str]
    query: dict[str, str]
    form: dict[str, str]
    headers: Mapping[str, str]
    body: bytes
    content_type: str

    @classmethod
    async def read(cls, request: Request) -> Incoming:
        body = await request.body()
        content_type = _media_type(request.headers.get("content-type", ""))
        form: dict[str, str] = {}
        if content_type in (FORM_MEDIA, "multipart/form-data"):
            parsed = await request.form()
            form = {key: value for key, value in parsed.items() if isinstance(value, str)}
        return cls(request.method, request.url.path, {k: str(v) for k, v in request.path_params.items()},
                   dict(request.query_params), form, request.headers, body, content_type)

    def json_object(self, error: str = "invalid_request") -> dict[str, Any]:
        try:
            value = json.loads(self.body)
        except ValueError as exc:
            raise Refused(400, error, f"the body is not JSON: {exc}") from exc
        if not isinstance(value, dict):
            raise Refused(400, error, "the body is not a JSON object")
        return value

    def require_content_type(self, media: str) -> None:
        if self.content_type != media:
            raise Refused(415, "unsupported_media_type",
                          f"Content-Type must be {media}, not {self.content_type or 'absent'}")

    def require_accept(self, media: str, *, wildcards: bool) -> None:
        """The Accept header must name ``media`` (or, with ``wildcards``, a type that covers it)."""
        accept = self.headers.get("accept", "")
        named = {_media_type(part) for part in accept.split(",") if part.strip()}
        if media in named or (wildcards and (not named or named & {"*/*", "application/*"})):
            return
        raise Refused(406, "not_acceptable", f"Accept must name {media} (got {accept or 'none'})")


# --- The platform -----------------------------------------------------------------------------


class Platform:
    """A tiny LMS with one course, its users and resource links, served over HTTP by uvicorn in a
    background thread. State is kept in memory and readable from the test; every refusal is in
    ``refusals``. Fixed after construction: the host; settable at any time: ``context_id``,
    ``context_title``, ``context_label``, ``nrps_page_size``."""

    def __init__(self, host: str = "127.0.0.1", *, nrps_page_size: int = 2, name: str = "Judge Test LMS") -> None:
        self.host = host
        self.name = name
        self.nrps_page_size = nrps_page_size
        self.context_id = "course-1"
        self.context_title = "Evaluation Metrics 101"
        self.context_label = "METRICS101"
        self.guid = secrets.token_hex(8)
        self.keys: list[SigningKey] = [SigningKey.generate()]
        self._rogue: SigningKey | None = None
        self._lock = threading.RLock()
        self._ids = itertools.count(1)
        self.tools: dict[str, Tool] = {}
        self.users: dict[str, User] = {}
        self.links: dict[str, Link] = {}
        self._line_items: dict[str, LineItem] = {}
        self._scores: dict[str, list[dict[str, Any]]] = {}
        self._latest_score: dict[tuple[str, str], tuple[datetime, dict[str, Any]]] = {}
        self._registration_tokens: set[str] = set()
        self._pending_launches: dict[str, PendingLaunch] = {}
        self._pending_deep_links: dict[str, PendingDeepLink] = {}
        self._seen_jtis: dict[tuple[str, str], float] = {}
        self._seen_deep_link_nonces: set[str] = set()
        self._tokens: dict[str, IssuedToken] = {}
        self._score_failures: list[int] = []
        self.tokens_issued = 0
        self.launches: list[Launch] = []
        self.deep_link_responses: list[dict[str, Any]] = []  # the verified claims of each
        self.returns: list[dict[str, str]] = []  # the query of each visit to the launch's return_url
        # Each org.imsglobal.lti.close message the registration page got from the tool's frame.
        self.registration_closes: list[dict[str, Any]] = []
        self.refusals: list[Refusal] = []
        self.requests: list[tuple[str, str, int]] = []  # (method, path, status) of each request served
        self._port: int | None = None
        self._server: uvicorn.Server | None = None
        self._thread: threading.Thread | None = None
        self._app = self._build_app()

    # --- Running ------------------------------------------------------------------------------

    def start(self) -> Platform:
        """Serve on a free port (the same one again when restarted, so the issuer stays)."""
        if self._thread is not None:
            raise RuntimeError("the platform is already running")
        bind_host = "127.0.0.1" if self.host == "localhost" else self.host
        sock = socket.socket(socket.AF_INET6 if ":" in bind_host else socket.AF_INET, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind((bind_host, self._port or 0))
        except OSError:
            sock.close()
            raise
        self._port = sock.getsockname()[1]
        # log_config=None: the server must not reconfigure the test process's logging.
        config = uvicorn.Config(self._app, log_config=None, log_level="warning", access_log=False, lifespan="off",
                                loop="asyncio", timeout_graceful_shutdown=1)
        server = uvicorn.Server(config)
        thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, name=f"lti-platform-{self._port}",
                                  daemon=True)
        thread.start()
        deadline = time.monotonic() + 10
        while not server.started:
            if not thread.is_alive() or time.monotonic() > deadline:
                server.should_exit = True
                sock.close()
                raise RuntimeError("the LTI test platform did not start")
            time.sleep(0.002)
        self._server, self._thread = server, thread
        return self

    def stop(self) -> None:
        server, thread = self._server, self._thread
        if server is None or thread is None:
            return
        server.should_exit = True
        thread.join(timeout=10)
        self._server = self._thread = None

    def __enter__(self) -> Platform:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # --- URLs ---------------------------------------------------------------------------------

    @property
    def url(self) -> str:
        """The base URL, which is also the issuer (iss)."""
        if self._port is None:
            raise RuntimeError("the platform has no URL until it is started")
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"http://{host}:{self._port}"

    @property
    def issuer(self) -> str:
        return self.url

    @property
    def openid_configuration_url(self) -> str:
        return f"{self.url}/.well-known/openid-configuration"

    @property
    def jwks_url(self) -> str:
        return f"{self.url}/jwks"

    @property
    def authorize_url(self) -> str:
        return f"{self.url}/authorize"

    @property
    def token_url(self) -> str:
        return f"{self.url}/token"

    @property
    def registration_url(self) -> str:
        return f"{self.url}/register"

    @property
    def deep_link_return_url(self) -> str:
        return f"{self.url}/deep-link-return"

    @property
    def lineitems_url(self) -> str:
        return f"{self.url}/ags/{quote(self.context_id, safe='')}/lineitems"

    @property
    def memberships_url(self) -> str:
        return f"{self.url}/nrps/{quote(self.context_id, safe='')}/memberships"

    def line_item_url(self, line_item_id: str) -> str:
        return f"{self.lineitems_url}/{quote(line_item_id, safe='')}"

    def launch_start_url(self, user: str, link_id: str, target: str = "iframe") -> str:
        return f"{self.url}/start/{quote(link_id, safe='')}?{urlencode({'user': user, 'target': target})}"

    def deep_link_start_url(self, user: str, target: str = "iframe") -> str:
        return f"{self.url}/start-deep-link?{urlencode({'user': user, 'target': target})}"

    def course_url(self, user: str, link_id: str) -> str:
        """A course page showing the link's launch in an iframe."""
        return f"{self.url}/course/{quote(link_id, safe='')}?{urlencode({'user': user})}"

    def deep_link_course_url(self, user: str) -> str:
        return f"{self.url}/course/deep-link?{urlencode({'user': user})}"

    # --- Keys ---------------------------------------------------------------------------------

    @property
    def current_key(self) -> SigningKey:
        return self.keys[-1]

    @property
    def rogue_key(self) -> SigningKey:
        """A key whose kid is not in the JWKS (made on first use: key generation takes time)."""
        if self._rogue is None:
            self._rogue = SigningKey.generate()
        return self._rogue

    def rotate_keys(self) -> SigningKey:
        """A new key: published beside the old ones, and signing from now on."""
        key = SigningKey.generate()
        with self._lock:
            self.keys.append(key)
        return key

    def jwks(self) -> dict[str, Any]:
        return {"keys": [dict(key.jwk) for key in self.keys]}

    def sign(self, claims: Mapping[str, Any], *, key: str = "current", alg: str = "RS256", kid: str | None = None,
             headers: Mapping[str, Any] | None = None, secret: bytes | None = None) -> str:
        """A compact JWS of ``claims``. ``key``: "current", "previous" (the one before the last
        rotation) or "rogue" (not published). The header is typ JWT, ``alg`` (RS256, HS256 or
        none) and the key's kid unless ``kid`` says otherwise; ``headers`` are merged last (a
        None value removes that header). HS256 is keyed with ``secret``, by default the key's
        public PEM (the key-confusion attack)."""
        signer = self._named_key(key)
        header: dict[str, Any] = {"typ": "JWT", "alg": alg, "kid": kid if kid is not None else signer.kid}
        header.update(headers or {})
        header = {name: value for name, value in header.items() if value is not None}
        return compact_jws(dict(claims), header, signer, secret)

    def _named_key(self, name: str) -> SigningKey:
        if name == "current":
            return self.current_key
        if name == "previous":
            if len(self.keys) < 2:
                raise ValueError("no previous key: rotate_keys() first")
            return self.keys[-2]
        if name == "rogue":
            return self.rogue_key
        raise ValueError(f"unknown key {name!r}: current, previous or rogue")

    # --- Tools --------------------------------------------------------------------------------

    @property
    def tool(self) -> Tool | None:
        """The tool registered last."""
        with self._lock:
            return next(reversed(self.tools.values()), None)

    def registration_start_url(self, tool_register_url: str) -> str:
        """Where an administrator's browser is sent to register the tool (LTI DR 3.3): the tool's
        registration URL with openid_configuration and a fresh single-use registration_token."""
        token = secrets.token_urlsafe(24)
        with self._lock:
            self._registration_tokens.add(token)
        return _with_query(tool_register_url, {"openid_configuration": self.openid_configuration_url,
                                               "registration_token": token})

    def registration_page_url(self, tool_register_url: str) -> str:
        """An administrator's page that opens the tool's registration in an iframe (with a fresh
        token) and notes the tool's closing postMessage in ``registration_closes``."""
        return f"{self.url}/admin/register?{urlencode({'tool': tool_register_url})}"

    def register_tool(self, client_id: str, deployment_id: str, login_url: str, launch_url: str, jwks_url: str, *,
                      deep_link_url: str | None = None, redirect_uris: list[str] | None = None,
                      scopes: list[str] | None = None, name: str = "Judge") -> Tool:
        """Register a tool by hand (what an administrator would type in): every service scope
        unless ``scopes`` says otherwise, and every identity claim."""
        tool = Tool(client_id=client_id, deployment_id=deployment_id, name=name, login_url=login_url,
                    redirect_uris=list(redirect_uris or [launch_url]), target_link_uri=launch_url,
                    deep_link_url=deep_link_url or launch_url, jwks_url=jwks_url,
                    scopes=list(SERVICE_SCOPES if scopes is None else scopes))
        with self._lock:
            self.tools[client_id] = tool
        return tool

    # --- Course -------------------------------------------------------------------------------

    def add_user(self, sub: str, name: str | None = None, email: str | None = None, roles: list[str] | None = None,
                 *, given_name: str | None = None, family_name: str | None = None, status: str = "Active") -> User:
        """A member of the course (roles are full LIS role URIs; a Learner by default)."""
        if status not in ("Active", "Inactive", "Deleted"):
            raise ValueError(f"status {status!r}: Active, Inactive or Deleted")
        user = User(sub, name, email, given_name, family_name, list(roles or [ROLE_LEARNER]), status)
        with self._lock:
            self.users[sub] = user
        return user

    def add_link(self, link_id: str, url: str, title: str, custom: Mapping[str, str] | None = None,
                 line_item: Mapping[str, Any] | None = None, *, client_id: str | None = None) -> Link:
        """A resource link placed by hand. ``line_item`` ({scoreMaximum, label, resourceId, tag})
        makes it a graded link: the line item's URL is in its launches' AGS claim."""
        with self._lock:
            if link_id in self.links:
                raise ValueError(f"a link {link_id!r} exists already")
            link = Link(link_id, url, title, client_id, _custom(dict(custom or {}), "custom"))
            fields = _deep_link_line_item(dict(line_item), title) if line_item is not None else None
            self.links[link_id] = link
            if fields is not None:
                link.line_item_id = self._new_line_item(client_id, {**fields, "resourceLinkId": link_id}).id
        return link

    @property
    def line_items(self) -> dict[str, dict[str, Any]]:
        """Each line item's JSON, by id."""
        with self._lock:
            return {item.id: self._line_item_json(item) for item in self._line_items.values()}

    def add_line_item(self, label: str, score_maximum: float, *, resource_id: str | None = None,
                      tag: str | None = None, resource_link_id: str | None = None,
                      client_id: str | None = None) -> dict[str, Any]:
        fields: dict[str, Any] = {"label": label, "scoreMaximum": score_maximum}
        for name, value in (("resourceId", resource_id), ("tag", tag), ("resourceLinkId", resource_link_id)):
            if value is not None:
                fields[name] = value
        with self._lock:
            item = self._new_line_item(client_id, fields)
            if resource_link_id in self.links and self.links[resource_link_id].line_item_id is None:
                self.links[resource_link_id].line_item_id = item.id
            return self._line_item_json(item)

    def scores(self, line_item: str, user: str | None = None) -> list[dict[str, Any]]:
        """The scores posted to a line item (its id or URL), in the order they came, as posted."""
        item_id = line_item.rstrip("/").rsplit("/", 1)[-1] if "/" in line_item else line_item
        with self._lock:
            posted = list(self._scores.get(item_id, []))
        return [score for score in posted if user is None or score.get("userId") == user]

    def wait_for_scores(self, line_item: str, count: int, timeout: float = 60.0,
                        user: str | None = None) -> list[dict[str, Any]]:
        """The line item's scores once there are ``count`` of them (the tool may post later).
        The default wait is past the tool's own 30 s: a grade's first message that no worker
        took is sent again by the tool's sweep then (service.lti.grades.LOST_AFTER)."""
        deadline = time.monotonic() + timeout
        while len(found := self.scores(line_item, user)) < count:
            if time.monotonic() > deadline:
                raise AssertionError(f"{len(found)} of {count} scores came in {timeout} s: {found}; "
                                     f"refusals: {self.refusals}; last requests: {self.requests[-20:]}")
            time.sleep(0.05)
        return found

    def fail_next_scores(self, n: int, status: int = 503) -> None:
        """The next ``n`` score posts fail with ``status`` (after the token is checked; nothing kept)."""
        with self._lock:
            self._score_failures.extend([status] * n)

    def expire_tokens(self) -> None:
        """Every access token issued so far expires now (a tool should get a new one on 401)."""
        with self._lock:
            for issued in self._tokens.values():
                issued.expires = 0

    @property
    def nonces(self) -> list[str]:
        """The nonces of the id_tokens /authorize signed, in order."""
        return [launch.nonce for launch in self.launches]

    # --- Claims -------------------------------------------------------------------------------

    def id_token_claims(self, user: str, link_id: str | None, nonce: str,
                        message_type: str = RESOURCE_LINK_REQUEST, *, target: str = "iframe") -> dict[str, Any]:
        """The claims /authorize would sign for this launch (iat and exp from now), for tests that
        sign variations of them with ``sign``. A deep linking request's data is registered, so
        a response to it is accepted."""
        with self._lock:
            pending = self._new_pending(user, link_id, target, message_type)
            return self._message_claims(pending, nonce)

    def _registration(self, tool: Tool, key: SigningKey | None = None) -> Registration:
        """The library's view of the platform-tool pair, signing with ``key`` (the current one)."""
        key = key or self.current_key
        registration = (Registration().set_iss(self.url).set_client_id(tool.client_id)
                        .set_deployment_id(tool.deployment_id).set_oidc_login_url(tool.login_url)
                        .set_launch_url(tool.target_link_uri).set_deeplink_launch_url(tool.deep_link_url)
                        .set_tool_key_set_url(tool.jwks_url).set_platform_private_key(key.private_pem)
                        .set_platform_public_key(key.public_pem))
        if tool.jwks is not None:
            registration.set_tool_key_set(tool.jwks)
        return registration

    def _message_claims(self, pending: PendingLaunch, nonce: str) -> dict[str, Any]:
        tool = self.tools[pending.client_id]
        user = self.users[pending.user]
        registration = self._registration(tool)
        launch = _Launch(_Preflight({"nonce": nonce}), _PlatformConf(registration=registration))
        launch.bind(registration)
        launch.set_launch_url(pending.target_link_uri)
        launch.set_user_data(user.sub, list(user.roles), user.name, user.email)
        launch.set_launch_context_claim(self.context_id, [COURSE_OFFERING], self.context_title, self.context_label)
        launch.set_launch_presentation_claim(pending.target, self._return_url(pending))
        link = self.links.get(pending.link_id or "")
        line_item_url = None
        if pending.message_type == RESOURCE_LINK_REQUEST:
            assert link is not None
            launch.set_resource_link_claim(link.id, description=link.text, title=link.title)
            custom = self._substituted({**tool.custom, **link.custom}, user, link)
            if custom:
                launch.set_custom_parameters_claim(custom)
            if link.line_item_id in self._line_items:
                line_item_url = self.line_item_url(link.line_item_id or "")
        else:
            launch.set_dl(self.deep_link_return_url, title=f"Add to {self.context_title}",
                          accept_types={"ltiResourceLink"})
        ags_scopes = [scope for scope in tool.scopes if scope in AGS_SCOPES]
        if ags_scopes:
            launch.set_ags(self.lineitems_url, line_item_url, allow_creating_lineitems=SCOPE_LINEITEM in ags_scopes)
        if SCOPE_NRPS in tool.scopes:
            launch.set_nrps(self.memberships_url)

        claims: dict[str, Any] = launch.get_launch_message()
        now = int(time.time())
        claims.update({"sub": user.sub, "nonce": nonce, "iat": now, "exp": now + ID_TOKEN_LIFETIME,
                       MESSAGE_TYPE: pending.message_type,
                       TOOL_PLATFORM: {"guid": self.guid, "name": self.name, "product_family_code": "judge-test-lms",
                                       "version": "1.0"}})
        if user.given_name:
            claims["given_name"] = user.given_name
        if user.family_name:
            claims["family_name"] = user.family_name
        if AGS_ENDPOINT in claims:
            # The library offers lineitem, result and score; the claim lists what the tool was granted.
            claims[AGS_ENDPOINT]["scope"] = [scope for scope in claims[AGS_ENDPOINT]["scope"] if scope in ags_scopes]
        if pending.message_type == DEEP_LINKING_REQUEST:
            claims.update(launch.deep_linking_claim())
            claims[DL_SETTINGS].update(self._deep_linking_settings(tool, user))
        if tool.claims is not None:  # a dynamically registered tool gets the identity claims it asked for
            for name in IDENTITY_CLAIMS:
                if name not in tool.claims:
                    claims.pop(name, None)
        return claims

    def _deep_linking_settings(self, tool: Tool, user: User) -> dict[str, Any]:
        data = secrets.token_urlsafe(18)
        self._pending_deep_links[data] = PendingDeepLink(data, tool.client_id, user.sub,
                                                          time.time() + PENDING_LIFETIME)
        # The library's claim has a dict for data and an "embed" target; DL 2.0 wants an opaque
        # string echoed back, and the platform shows links in an iframe or a new window only.
        return {"data": data, "accept_presentation_document_targets": list(DOCUMENT_TARGETS),
                "accept_lineitem": True, "accept_multiple": True, "auto_create": True,
                "text": "Choose the problems to add to the course"}

    def _substituted(self, custom: dict[str, str], user: User, link: Link) -> dict[str, str]:
        values = {"User.id": user.sub, "Person.name.full": user.name, "Person.email.primary": user.email,
                  "Context.id": self.context_id, "Context.title": self.context_title,
                  "Context.label": self.context_label, "ResourceLink.id": link.id, "ResourceLink.title": link.title}
        # An unknown variable, or one without a value, goes to the tool as written (LTI core 5.4.6.1).
        return {key: (values.get(value[1:]) or value) if value.startswith("$") else value
                for key, value in custom.items()}

    def _return_url(self, pending: PendingLaunch) -> str:
        where = {"link_id": pending.link_id} if pending.link_id else {"deep_link": "1"}
        return f"{self.url}/return?{urlencode({**where, 'user': pending.user})}"

    # --- The app ------------------------------------------------------------------------------

    def _build_app(self) -> Starlette:
        def json_route(path: str, handler: Callable[[Incoming], Response], *methods: str) -> Route:
            return Route(path, self._endpoint(handler, page=False), methods=list(methods))

        def page_route(path: str, handler: Callable[[Incoming], Response], *methods: str) -> Route:
            return Route(path, self._endpoint(handler, page=True), methods=list(methods))

        return Starlette(routes=[
            json_route("/.well-known/openid-configuration", self._openid_configuration, "GET"),
            json_route("/jwks", lambda req: JSONResponse(self.jwks()), "GET"),
            json_route("/register", self._register, "POST"),
            page_route("/admin/register", self._registration_page, "GET"),
            json_route("/admin/register/closed", self._registration_closed, "POST"),
            page_route("/start-deep-link", self._start_deep_link, "GET"),
            page_route("/start/{link_id}", self._start_launch, "GET"),
            page_route("/course/deep-link", self._deep_link_course_page, "GET"),
            page_route("/course/{link_id}", self._course_page, "GET"),
            page_route("/authorize", self._authorize, "GET", "POST"),
            page_route("/deep-link-return", self._deep_link_return, "POST"),
            page_route("/return", self._return_page, "GET"),
            json_route("/token", self._token, "POST"),
            json_route("/ags/{context}/lineitems", self._lineitems, "GET", "POST"),
            json_route("/ags/{context}/lineitems/{item}", self._lineitem, "GET", "PUT", "DELETE"),
            json_route("/ags/{context}/lineitems/{item}/scores", self._post_score, "POST"),
            json_route("/ags/{context}/lineitems/{item}/results", self._results, "GET"),
            json_route("/nrps/{context}/memberships", self._memberships, "GET"),
        ])

    def _endpoint(self, handler: Callable[[Incoming], Response], *, page: bool
                  ) -> Callable[[Request], Awaitable[Response]]:
        async def endpoint(request: Request) -> Response:
            incoming = await Incoming.read(request)
            try:
                response = await run_in_threadpool(handler, incoming)
            except Exception as exc:  # a fault of the platform itself is shown like a refusal
                refused = exc if isinstance(exc, Refused) else Refused(500, "server_error", repr(exc))
                self.refusals.append(Refusal(incoming.method, incoming.path, refused.status, refused.error,
                                             refused.reason))
                response = refused.page() if page else refused.json()
            self.requests.append((incoming.method, incoming.path, response.status_code))
            return response

        return endpoint

    # --- Dynamic registration (LTI DR 1.0) ---------------------------------------------------

    def _openid_configuration(self, req: Incoming) -> Response:
        return JSONResponse({
            "issuer": self.url,
            "authorization_endpoint": self.authorize_url,
            "token_endpoint": self.token_url,
            "jwks_uri": self.jwks_url,
            "registration_endpoint": self.registration_url,
            "token_endpoint_auth_methods_supported": ["private_key_jwt"],
            "token_endpoint_auth_signing_alg_values_supported": ["RS256"],
            "id_token_signing_alg_values_supported": ["RS256"],
            "scopes_supported": ["openid", *SERVICE_SCOPES],
            "response_types_supported": ["id_token"],
            "subject_types_supported": ["public", "pairwise"],
            "claims_supported": ["iss", "aud", "sub", "iat", "exp", "nonce", *IDENTITY_CLAIMS],
            PLATFORM_CONFIGURATION: {
                "product_family_code": "judge-test-lms",
                "version": "1.0",
                "messages_supported": [{"type": RESOURCE_LINK_REQUEST}, {"type": DEEP_LINKING_REQUEST}],
                "variables": list(VARIABLES),
            },
        })

    def _register(self, req: Incoming) -> Response:
        token = self._bearer(req)
        with self._lock:
            known = token in self._registration_tokens
        if not known:
            raise Refused(401, "invalid_token", "the registration token is unknown or was used already",
                          {"WWW-Authenticate": 'Bearer error="invalid_token"'})
        req.require_content_type("application/json")
        body = req.json_object("invalid_client_metadata")
        tool, granted = self._tool_from_registration(body)
        with self._lock:
            if token not in self._registration_tokens:  # a concurrent registration took it
                raise Refused(401, "invalid_token", "the registration token was used already")
            self._registration_tokens.discard(token)
            self.tools[tool.client_id] = tool
        answer = {**body, "client_id": tool.client_id, "scope": " ".join(granted),
                  TOOL_CONFIGURATION: {**body[TOOL_CONFIGURATION], "deployment_id": tool.deployment_id}}
        return JSONResponse(answer)

    def _registration_page(self, req: Incoming) -> Response:
        tool_url = _web_url(req.query.get("tool"), "tool")
        start = self.registration_start_url(tool_url)
        # LTI DR 3.6: the tool ends its registration by posting {subject: "org.imsglobal.lti.close"}
        # to the platform's window (its parent here); the page tells the platform it came.
        script = ("window.addEventListener('message', function (event) {"
                  " if (!event.data || event.data.subject !== 'org.imsglobal.lti.close') { return; }"
                  " document.getElementById('status').textContent = 'Registration closed';"
                  " fetch('/admin/register/closed', {method: 'POST', headers: {'Content-Type': 'application/json'},"
                  " body: JSON.stringify({origin: event.origin, data: event.data})}); });")
        body = ('<h1>Register a tool</h1><p id="status">Registering</p>'
                f'<iframe id="registration-frame" name="registration-frame" title="Tool registration" '
                f'src="{_e(start)}" width="100%" height="600"></iframe><script>{script}</script>')
        return _page("Register a tool", body)

    def _registration_closed(self, req: Incoming) -> Response:
        self.registration_closes.append(req.json_object())
        return JSONResponse({"ok": True})

    def _tool_from_registration(self, body: dict[str, Any]) -> tuple[Tool, list[str]]:
        """The tool an OpenID Connect client registration with the LTI tool configuration (LTI DR
        3.5) describes, and the scopes granted; 400 invalid_client_metadata on the first fault."""

        def fault(reason: str) -> Refused:
            return Refused(400, "invalid_client_metadata", reason)

        def strings(name: str) -> list[str]:
            return _strings(body.get(name), name, "invalid_client_metadata")

        if body.get("application_type") != "web":
            raise fault('application_type must be "web"')
        if strings("response_types") != ["id_token"]:
            raise fault('response_types must be ["id_token"]')
        if missing := {"implicit", "client_credentials"} - set(strings("grant_types")):
            raise fault(f"grant_types lacks {sorted(missing)}")
        login_url = _web_url(body.get("initiate_login_uri"), "initiate_login_uri", "invalid_client_metadata")
        redirect_uris = [_web_url(uri, "redirect_uris[]", "invalid_redirect_uri") for uri in strings("redirect_uris")]
        if not redirect_uris:
            raise Refused(400, "invalid_redirect_uri", "redirect_uris is empty")
        name = body.get("client_name")
        if not isinstance(name, str) or not name.strip():
            raise fault("client_name is missing")
        jwks_url = _web_url(body.get("jwks_uri"), "jwks_uri", "invalid_client_metadata")
        if body.get("token_endpoint_auth_method") != "private_key_jwt":
            raise fault('token_endpoint_auth_method must be "private_key_jwt"')
        scope = body.get("scope")
        if not isinstance(scope, str):
            raise fault("scope is missing (a space separated string; it may be empty)")
        # A platform grants what it supports of what is asked (OIDC DCR: it may change the metadata).
        granted = [item for item in scope.split() if item in SERVICE_SCOPES]
        config = body.get(TOOL_CONFIGURATION)
        if not isinstance(config, dict):
            raise fault(f"{TOOL_CONFIGURATION} is missing")
        domain = config.get("domain")
        if not isinstance(domain, str) or not domain or "/" in domain:
            raise fault("the tool configuration's domain must be a host name (with its port if any)")
        target_link_uri = _web_url(config.get("target_link_uri"), "target_link_uri", "invalid_client_metadata")
        claims = _strings(config.get("claims"), "the tool configuration's claims", "invalid_client_metadata")
        messages = config.get("messages")
        if not isinstance(messages, list) or not all(isinstance(message, dict) for message in messages):
            raise fault("the tool configuration's messages must be an array of objects")
        deep_link_url = target_link_uri
        for message in messages:
            kind = message.get("type")
            if kind not in MESSAGES_SUPPORTED:
                raise fault(f"message type {kind!r} is not one the platform supports {list(MESSAGES_SUPPORTED)}")
            if "target_link_uri" in message:
                url = _web_url(message["target_link_uri"], f"{kind}'s target_link_uri", "invalid_client_metadata")
                deep_link_url = url if kind == DEEP_LINKING_REQUEST else deep_link_url
            try:
                _custom(message.get("custom_parameters"), f"{kind}'s custom_parameters")
            except Refused as refused:
                raise fault(refused.reason) from refused
        try:
            custom = _custom(config.get("custom_parameters"), "custom_parameters")
        except Refused as refused:
            raise fault(refused.reason) from refused
        secondary = config.get("secondary_domains", [])
        domains = [domain, *_strings(secondary, "secondary_domains", "invalid_client_metadata")]
        for what, url in [("initiate_login_uri", login_url), ("target_link_uri", target_link_uri),
                          ("deep linking target_link_uri", deep_link_url),
                          *(("redirect_uri", uri) for uri in redirect_uris)]:
            if not _in_domains(url, domains):
                raise fault(f"{what} {url} is outside the tool's domain {domains}")
        with self._lock:
            number = next(self._ids)
        tool = Tool(client_id=f"judge-{number}-{secrets.token_hex(4)}", deployment_id=f"deployment-{number}",
                    name=name, login_url=login_url, redirect_uris=redirect_uris, target_link_uri=target_link_uri,
                    deep_link_url=deep_link_url, jwks_url=jwks_url, scopes=granted, claims=claims, domain=domain,
                    custom=custom, registration=body)
        return tool, granted

    # --- Starting launches ---------------------------------------------------------------------

    def _new_pending(self, user: str | None, link_id: str | None, target: str, message_type: str) -> PendingLaunch:
        if not user or user not in self.users:
            raise Refused(400, "invalid_request", f"user {user!r} is not a member of the course")
        if target not in DOCUMENT_TARGETS:
            raise Refused(400, "invalid_request", f"target must be one of {list(DOCUMENT_TARGETS)}")
        if message_type == RESOURCE_LINK_REQUEST:
            link = self.links.get(link_id or "")
            if link is None:
                raise Refused(404, "not_found", f"no resource link {link_id!r}")
            tool = self.tools.get(link.client_id) if link.client_id else self.tool
            target_link_uri = link.url
        elif message_type == DEEP_LINKING_REQUEST:
            tool, link_id = self.tool, None
            target_link_uri = tool.deep_link_url if tool else ""
        else:
            raise ValueError(f"message type {message_type!r}")
        if tool is None:
            raise Refused(400, "invalid_request", "no tool is registered for this link")
        return PendingLaunch(secrets.token_urlsafe(24), user, tool.client_id, message_type, link_id, target,
                             target_link_uri, time.time() + PENDING_LIFETIME)

    def _login_redirect(self, req: Incoming, link_id: str | None, message_type: str) -> Response:
        """Third-party initiated login (LTI core 5.1.1.1): to the tool's initiate_login_uri."""
        with self._lock:
            pending = self._new_pending(req.query.get("user"), link_id, req.query.get("target", "iframe"),
                                        message_type)
            self._pending_launches[pending.hint] = pending
            tool = self.tools[pending.client_id]
        return RedirectResponse(_with_query(tool.login_url, {
            "iss": self.url, "login_hint": pending.user, "target_link_uri": pending.target_link_uri,
            "lti_message_hint": pending.hint, "client_id": tool.client_id, "lti_deployment_id": tool.deployment_id,
        }), 302)

    def _start_launch(self, req: Incoming) -> Response:
        return self._login_redirect(req, req.path_params["link_id"], RESOURCE_LINK_REQUEST)

    def _start_deep_link(self, req: Incoming) -> Response:
        return self._login_redirect(req, None, DEEP_LINKING_REQUEST)

    def _course_frame(self, user: str | None, heading: str, start_url: str) -> Response:
        if not user or user not in self.users:
            raise Refused(400, "invalid_request", f"user {user!r} is not a member of the course")
        who = self.users[user].name or user
        body = (f"<header><h1>{_e(self.context_title)}</h1><p>Signed in as {_e(who)}</p></header>"
                f"<main><h2>{_e(heading)}</h2>"
                f'<iframe id="lti-frame" name="lti-frame" title="{_e(heading)}" src="{_e(start_url)}" '
                'width="100%" height="720" allow="clipboard-write; fullscreen" '
                'style="border: 1px solid #ccc"></iframe></main>')
        return _page(f"{heading} - {self.context_title}", body)

    def _course_page(self, req: Incoming) -> Response:
        link = self.links.get(req.path_params["link_id"])
        if link is None:
            raise Refused(404, "not_found", f"no resource link {req.path_params['link_id']!r}")
        user = req.query.get("user", "")
        return self._course_frame(user, link.title, self.launch_start_url(user, link.id, "iframe"))

    def _deep_link_course_page(self, req: Incoming) -> Response:
        user = req.query.get("user", "")
        return self._course_frame(user, "Add content", self.deep_link_start_url(user, "iframe"))

    def _return_page(self, req: Incoming) -> Response:
        self.returns.append(dict(req.query))
        shown = "".join(f"<p class=\"{_e(name)}\">{_e(req.query[name])}</p>"
                        for name in ("lti_msg", "lti_errormsg") if name in req.query)
        return _page("Back in the course", f"<h1>Back in {_e(self.context_title)}</h1>{shown}")

    # --- The authentication response (LTI core 5.1.1.3, Security Framework 5.1.1) --------------

    def _authorize(self, req: Incoming) -> Response:
        params = {**req.query, **req.form}

        def need(name: str) -> str:
            value = params.get(name, "")
            if not value:
                raise Refused(400, "invalid_request", f"{name} is missing")
            return value

        if "openid" not in need("scope").split():
            raise Refused(400, "invalid_scope", "scope must be openid")
        for name, wanted in (("response_type", "id_token"), ("response_mode", "form_post"), ("prompt", "none")):
            if need(name) != wanted:
                raise Refused(400, "invalid_request", f"{name} must be {wanted}, not {params[name]!r}")
        client_id = need("client_id")
        tool = self.tools.get(client_id)
        if tool is None:
            raise Refused(400, "unauthorized_client", f"client_id {client_id!r} is not registered")
        redirect_uri = need("redirect_uri")
        if redirect_uri not in tool.redirect_uris:
            raise Refused(400, "invalid_request",
                          f"redirect_uri {redirect_uri!r} is not one of the tool's {tool.redirect_uris}")
        login_hint, hint, nonce, state = need("login_hint"), need("lti_message_hint"), need("nonce"), need("state")
        with self._lock:
            pending = self._pending_launches.get(hint)
            if pending is None or pending.expires < time.time():
                raise Refused(400, "invalid_request", "lti_message_hint is unknown, used or expired")
            if pending.client_id != client_id:
                raise Refused(400, "invalid_request", "client_id is not the one the launch was started for")
            if login_hint != pending.user:
                raise Refused(400, "login_required", "login_hint is not the user who started the launch")
            del self._pending_launches[hint]
            claims = self._message_claims(pending, nonce)
            registration = self._registration(tool)
        launch = _Launch(_Preflight({"nonce": nonce, "state": state, "redirect_uri": redirect_uri,
                                     "client_id": client_id}), _PlatformConf(registration=registration))
        id_token = str(registration.platform_encode_and_sign(claims))
        self.launches.append(Launch(claims, id_token, state, redirect_uri))
        response: HTMLResponse = launch.render_launch_form({"launch_url": redirect_uri, "id_token": id_token,
                                                            "state": state})
        return response

    # --- Verifying what the tool signs --------------------------------------------------------

    def _fetch_tool_jwks(self, tool: Tool, status: int, error: str) -> None:
        try:
            answer = httpx.get(tool.jwks_url, timeout=5, trust_env=False)
            answer.raise_for_status()
            jwks = answer.json()
        except (httpx.HTTPError, ValueError) as exc:
            raise Refused(status, error, f"could not fetch the tool's JWKS at {tool.jwks_url}: {exc}") from exc
        if not isinstance(jwks, dict) or not isinstance(jwks.get("keys"), list):
            raise Refused(status, error, f"the tool's JWKS at {tool.jwks_url} has no keys array")
        tool.jwks = jwks

    def _verify_tool_jwt(self, tool: Tool, token: str, status: int, error: str) -> dict[str, Any]:
        """The claims of ``token`` once its RS256 signature checks out against the tool's key named
        by its kid. The JWKS is fetched when first needed, and again when the kid is not in it
        (the tool may have rotated its keys), but at most once per token."""
        fetched = tool.jwks is None
        if fetched:
            self._fetch_tool_jwks(tool, status, error)
        while True:
            conf = _PlatformConf(registration=self._registration(tool))
            try:
                claims: dict[str, Any] = conf.tool_validate_and_decode(token)
            except LtiException as exc:
                if str(exc) == "Unable to find public key" and not fetched:
                    self._fetch_tool_jwks(tool, status, error)
                    fetched = True
                    continue
                raise Refused(status, error, f"the JWT is not signed by the tool (RS256 with a kid of its JWKS): "
                                             f"{exc}") from exc
            except jwt.InvalidTokenError as exc:
                raise Refused(status, error, f"the JWT does not verify: {exc}") from exc
            return claims

    def _tool_named_by(self, client_id: object, status: int, error: str) -> Tool:
        tool = self.tools.get(client_id) if isinstance(client_id, str) else None
        if tool is None:
            raise Refused(status, error, f"{client_id!r} is not a registered client_id")
        return tool

    @staticmethod
    def _check_times(claims: Mapping[str, Any], status: int, error: str) -> None:
        now = time.time()
        if not _is_number(claims.get("exp")) or claims["exp"] <= now:
            raise Refused(status, error, "exp is missing or past")
        if not _is_number(claims.get("iat")) or claims["iat"] > now + CLOCK_SKEW:
            raise Refused(status, error, "iat is missing or in the future")

    # --- Deep linking response (DL 2.0 4.2) ---------------------------------------------------

    def _deep_link_return(self, req: Incoming) -> Response:
        token = req.form.get("JWT")
        if not token:
            raise Refused(400, "invalid_request", "the form has no JWT field")
        tool = self._tool_named_by(_unverified(token).get("iss"), 400, "invalid_request")
        claims = self._verify_tool_jwt(tool, token, 401, "invalid_client")
        self._check_times(claims, 401, "invalid_client")
        if not _audience_has(claims, self.url):
            raise Refused(400, "invalid_request", f"aud must be the platform's issuer {self.url}")
        if claims.get(MESSAGE_TYPE) != DEEP_LINKING_RESPONSE:
            raise Refused(400, "invalid_request", f"message_type must be {DEEP_LINKING_RESPONSE}")
        if claims.get(VERSION) != "1.3.0":
            raise Refused(400, "invalid_request", "version must be 1.3.0")
        if claims.get(DEPLOYMENT_ID) != tool.deployment_id:
            raise Refused(400, "invalid_request", f"deployment_id must be {tool.deployment_id!r}")
        nonce = claims.get("nonce")
        if not isinstance(nonce, str) or not nonce:
            raise Refused(400, "invalid_request", "nonce is missing")
        items = claims.get(DL_CONTENT_ITEMS, [])
        if not isinstance(items, list) or not all(isinstance(item, dict) and isinstance(item.get("type"), str)
                                                  for item in items):
            raise Refused(400, "invalid_request", "content_items must be an array of objects with a type")
        try:  # the library checks the message type and that every item's type was among accept_types
            _PlatformConf(registration=self._registration(tool)).validate_deeplinking_resp({"JWT": token})
        except LtiDeepLinkingResponseException as exc:
            raise Refused(400, "invalid_request", f"{exc} (accept_types is [ltiResourceLink])") from exc
        placed = [self._content_item(tool, item, index) for index, item in enumerate(items)]
        with self._lock:
            data = claims.get(DL_DATA)
            pending = self._pending_deep_links.get(data) if isinstance(data, str) else None
            if pending is None or pending.client_id != tool.client_id or pending.expires < time.time():
                raise Refused(400, "invalid_request", "the data claim does not echo a pending deep linking "
                                                      "request of this tool (unknown, used or expired)")
            if nonce in self._seen_deep_link_nonces:
                raise Refused(400, "invalid_request", "this response's nonce was used already")
            del self._pending_deep_links[pending.data]
            self._seen_deep_link_nonces.add(nonce)
            links = [self._place(tool, link, line_item) for link, line_item in placed]
            self.deep_link_responses.append(claims)
        listed = "".join(f'<li><a target="_top" href="{_e(self.course_url(pending.user, link.id))}">'
                         f"{_e(link.title)}</a></li>" for link in links)
        notes = "".join(f'<p class="{name}">{_e(claims[uri])}</p>' for name, uri in DL_MESSAGES.items()
                        if isinstance(claims.get(uri), str))
        return _page("Content added", f'<h1 id="added">{len(links)} items added</h1><ul>{listed}</ul>{notes}')

    def _content_item(self, tool: Tool, item: dict[str, Any], index: int) -> tuple[Link, dict[str, Any] | None]:
        """The link (not yet placed) and line item fields an ltiResourceLink item describes."""
        what = f"content_items[{index}]"
        url = item.get("url", tool.target_link_uri)  # DL 2.0: absent, the tool's launch URL
        _web_url(url, f"{what}.url")
        if not _in_domains(url, [tool.domain] if tool.domain else []):
            raise Refused(400, "invalid_request", f"{what}.url {url} is outside the tool's domain {tool.domain}")
        title = _optional_string(item, "title", what) or "Untitled"
        text = _optional_string(item, "text", what)
        custom = _custom(item.get("custom"), f"{what}.custom")
        line_item = item.get("lineItem")
        fields = None
        if line_item is not None:
            if not isinstance(line_item, dict):
                raise Refused(400, "invalid_request", f"{what}.lineItem must be an object")
            fields = _deep_link_line_item(line_item, title, f"{what}.lineItem")
        return Link("", url, title, tool.client_id, custom, text), fields

    def _place(self, tool: Tool, link: Link, line_item: dict[str, Any] | None) -> Link:
        link.id = f"link-{next(self._ids)}"
        self.links[link.id] = link
        if line_item is not None:
            link.line_item_id = self._new_line_item(tool.client_id, {**line_item, "resourceLinkId": link.id}).id
        return link

    # --- Token endpoint (Security Framework 4.1, RFC 7523) -----------------------------------

    def _token(self, req: Incoming) -> Response:
        if req.content_type != FORM_MEDIA:
            raise Refused(400, "invalid_request", f"the token request must be {FORM_MEDIA}")
        form = req.form
        if not form.get("grant_type"):
            raise Refused(400, "invalid_request", "grant_type is missing")
        if form["grant_type"] != "client_credentials":
            raise Refused(400, "unsupported_grant_type", "grant_type must be client_credentials")
        if form.get("client_assertion_type") != JWT_BEARER:
            raise Refused(400, "invalid_request", f"client_assertion_type must be {JWT_BEARER}")
        assertion = form.get("client_assertion")
        if not assertion:
            raise Refused(400, "invalid_request", "client_assertion is missing")
        if not form.get("scope"):
            raise Refused(400, "invalid_scope", "scope is missing")
        tool = self._tool_named_by(_unverified(assertion).get("iss"), 401, "invalid_client")
        if form.get("client_id", tool.client_id) != tool.client_id:
            raise Refused(401, "invalid_client", "client_id differs from the assertion's iss")
        claims = self._verify_tool_jwt(tool, assertion, 401, "invalid_client")
        if claims.get("sub") != tool.client_id:
            raise Refused(401, "invalid_client", "the assertion's sub must be the client_id, as its iss")
        if not _audience_has(claims, self.token_url):
            raise Refused(401, "invalid_client", f"the assertion's aud must be the token endpoint {self.token_url}")
        self._check_times(claims, 401, "invalid_client")
        jti = claims.get("jti")
        if not isinstance(jti, str) or not jti:
            raise Refused(401, "invalid_client", "the assertion has no jti")
        granted = [scope for scope in form["scope"].split() if scope in tool.scopes]
        if not granted:
            raise Refused(400, "invalid_scope", f"none of the scopes asked for is granted to the tool: {tool.scopes}")
        with self._lock:
            now = time.time()
            self._seen_jtis = {seen: exp for seen, exp in self._seen_jtis.items() if exp > now}
            if (tool.client_id, jti) in self._seen_jtis:
                raise Refused(401, "invalid_client", "the assertion's jti was used already (a replay)")
            self._seen_jtis[(tool.client_id, jti)] = float(claims["exp"])
            key = self.current_key
            issued = _PlatformConf(registration=self._registration(tool, key)).get_access_token(
                {**form, "scope": " ".join(granted)})
            self._tokens[issued["access_token"]] = IssuedToken(tool.client_id, granted,
                                                               now + ACCESS_TOKEN_LIFETIME, key)
            self.tokens_issued += 1
        # RFC 6749 5.1: the token type as registered ("Bearer"), and never cached.
        return JSONResponse({"access_token": issued["access_token"], "token_type": "Bearer",
                             "expires_in": ACCESS_TOKEN_LIFETIME, "scope": " ".join(granted)},
                            headers={"Cache-Control": "no-store", "Pragma": "no-cache"})

    @staticmethod
    def _bearer(req: Incoming) -> str:
        scheme, _, value = req.headers.get("authorization", "").partition(" ")
        if scheme.lower() != "bearer" or not value.strip():
            raise Refused(401, "invalid_request", "the request has no Authorization: Bearer header",
                          {"WWW-Authenticate": "Bearer"})
        return value.strip()

    def _authorized(self, req: Incoming, *any_of: str) -> IssuedToken:
        """The access token the request carries, if it is live and has one of ``any_of``."""
        token = self._bearer(req)
        challenge = {"WWW-Authenticate": 'Bearer error="invalid_token"'}
        with self._lock:
            issued = self._tokens.get(token)
            tool = self.tools.get(issued.client_id) if issued else None
        if issued is None or tool is None:
            raise Refused(401, "invalid_token", "the access token is unknown", challenge)
        if issued.expires <= time.time():
            raise Refused(401, "invalid_token", "the access token has expired", challenge)
        try:
            allowed = _PlatformConf(registration=self._registration(tool, issued.key)).validate_token(
                token, list(any_of))
        except (LtiException, jwt.InvalidTokenError) as exc:
            raise Refused(401, "invalid_token", f"the access token does not verify: {exc}", challenge) from exc
        if not allowed:
            raise Refused(403, "insufficient_scope", f"the access token lacks the scope {' or '.join(any_of)}",
                          {"WWW-Authenticate": f'Bearer error="insufficient_scope", scope="{" ".join(any_of)}"'})
        return issued

    # --- Assignment and Grade Services 2.0 ----------------------------------------------------

    def _check_context(self, req: Incoming) -> None:
        if req.path_params["context"] != self.context_id:
            raise Refused(404, "not_found", f"no context {req.path_params['context']!r}")

    def _own_line_item(self, req: Incoming, issued: IssuedToken) -> LineItem:
        self._check_context(req)
        item = self._line_items.get(req.path_params["item"])
        if item is None or item.client_id not in (None, issued.client_id):
            raise Refused(404, "not_found", f"no line item {req.path_params['item']!r}")
        return item

    def _line_item_json(self, item: LineItem) -> dict[str, Any]:
        return {"id": self.line_item_url(item.id), **item.fields}

    def _new_line_item(self, client_id: str | None, fields: dict[str, Any]) -> LineItem:
        item = LineItem(str(next(self._ids)), client_id, fields)
        self._line_items[item.id] = item
        return item

    def _checked_line_item(self, body: dict[str, Any], client_id: str) -> dict[str, Any]:
        """A line item's fields from a tool (AGS 2.0 3.2): label and a positive scoreMaximum, and a
        resourceLinkId, if any, naming a link of this tool."""
        label = body.get("label")
        if not isinstance(label, str) or not label.strip():
            raise Refused(400, "invalid_request", "label is missing")
        if not _is_number(body.get("scoreMaximum")) or body["scoreMaximum"] <= 0:
            raise Refused(400, "invalid_request", "scoreMaximum must be a number above 0")
        for name in ("resourceId", "tag", "resourceLinkId"):
            _optional_string(body, name, "the line item")
        for name in ("startDateTime", "endDateTime"):
            if body.get(name) is not None:
                _timestamp(body[name], name)
        if "gradesReleased" in body and not isinstance(body["gradesReleased"], bool):
            raise Refused(400, "invalid_request", "gradesReleased must be a boolean")
        link_id = body.get("resourceLinkId")
        if link_id is not None:
            link = self.links.get(link_id)
            if link is None or link.client_id not in (None, client_id):
                raise Refused(400, "invalid_request", f"resourceLinkId {link_id!r} is not a link of this tool")
        return {name: value for name, value in body.items() if name != "id" and value is not None}

    def _lineitems(self, req: Incoming) -> Response:
        if req.method == "POST":
            issued = self._authorized(req, SCOPE_LINEITEM)
            self._check_context(req)
            req.require_content_type(LINEITEM_MEDIA)
            body = req.json_object()
            with self._lock:
                item = self._new_line_item(issued.client_id, self._checked_line_item(body, issued.client_id))
                answer = self._line_item_json(item)
            return JSONResponse(answer, 201, media_type=LINEITEM_MEDIA)
        issued = self._authorized(req, SCOPE_LINEITEM, SCOPE_LINEITEM_READONLY)
        self._check_context(req)
        req.require_accept(LINEITEMS_MEDIA, wildcards=True)
        filters = {"resource_link_id": "resourceLinkId", "resource_id": "resourceId", "tag": "tag"}
        with self._lock:
            found = [self._line_item_json(item) for item in self._line_items.values()
                     if item.client_id in (None, issued.client_id)
                     and all(item.fields.get(field_name) == req.query[param]
                             for param, field_name in filters.items() if param in req.query)]
        page, next_url = self._paged(req, found, None)
        return self._container(page, next_url, LINEITEMS_MEDIA)

    def _lineitem(self, req: Incoming) -> Response:
        if req.method == "GET":
            issued = self._authorized(req, SCOPE_LINEITEM, SCOPE_LINEITEM_READONLY)
            req.require_accept(LINEITEM_MEDIA, wildcards=True)
            with self._lock:
                answer = self._line_item_json(self._own_line_item(req, issued))
            return JSONResponse(answer, media_type=LINEITEM_MEDIA)
        issued = self._authorized(req, SCOPE_LINEITEM)
        with self._lock:
            item = self._own_line_item(req, issued)
            if req.method == "DELETE":
                del self._line_items[item.id]
                for link in self.links.values():
                    if link.line_item_id == item.id:
                        link.line_item_id = None
                return Response(status_code=204)
            req.require_content_type(LINEITEM_MEDIA)
            body = req.json_object()
            if body.get("id") not in (None, self.line_item_url(item.id)):
                raise Refused(400, "invalid_request", "id differs from the line item's URL")
            fields = self._checked_line_item(body, issued.client_id)
            if fields.get("resourceLinkId") != item.fields.get("resourceLinkId"):
                raise Refused(400, "invalid_request", "resourceLinkId cannot be changed")
            item.fields = fields
            return JSONResponse(self._line_item_json(item), media_type=LINEITEM_MEDIA)

    def _post_score(self, req: Incoming) -> Response:
        issued = self._authorized(req, SCOPE_SCORE)
        with self._lock:
            item = self._own_line_item(req, issued)
            if self._score_failures:
                status = self._score_failures.pop(0)
                return JSONResponse({"error": "injected_failure", "error_description": f"failing with {status}"},
                                    status)
        req.require_content_type(SCORE_MEDIA)
        score, moment = self._checked_score(req.json_object())
        user = score["userId"]
        with self._lock:
            if user not in self.users:
                raise Refused(400, "invalid_request", f"userId {user!r} is not a member of the context")
            latest = self._latest_score.get((item.id, user))
            if latest is not None and moment < latest[0]:
                raise Refused(409, "conflict", "the timestamp is older than the last score stored for this user")
            if latest is not None and moment == latest[0] and score != latest[1]:
                raise Refused(409, "conflict", "another score for this user has this timestamp (AGS: the tool "
                                               "must not send two with the same one)")
            if latest is None or moment > latest[0]:  # an identical resend is taken once
                self._scores.setdefault(item.id, []).append(score)
                self._latest_score[(item.id, user)] = (moment, score)
        return JSONResponse({"resultUrl": f"{self.line_item_url(item.id)}/results?{urlencode({'user_id': user})}"})

    @staticmethod
    def _checked_score(body: dict[str, Any]) -> tuple[dict[str, Any], datetime]:
        """A score as AGS 2.0 3.4 defines it, and its timestamp."""
        user = body.get("userId")
        if not isinstance(user, str) or not user:
            raise Refused(400, "invalid_request", "userId is missing (the user's sub, a string)")
        given, maximum = body.get("scoreGiven"), body.get("scoreMaximum")
        if given is not None and (not _is_number(given) or given < 0):
            raise Refused(400, "invalid_request", "scoreGiven must be a number of at least 0")
        if given is not None and maximum is None:
            raise Refused(400, "invalid_request", "scoreMaximum must come with scoreGiven")
        if maximum is not None and (not _is_number(maximum) or maximum <= 0):
            raise Refused(400, "invalid_request", "scoreMaximum must be a number above 0")
        if body.get("activityProgress") not in ACTIVITY_PROGRESS:
            raise Refused(400, "invalid_request", f"activityProgress must be one of {list(ACTIVITY_PROGRESS)}")
        if body.get("gradingProgress") not in GRADING_PROGRESS:
            raise Refused(400, "invalid_request", f"gradingProgress must be one of {list(GRADING_PROGRESS)}")
        moment = _timestamp(body.get("timestamp"), "timestamp")
        _optional_string(body, "comment", "the score")
        if "submission" in body and not isinstance(body["submission"], dict):
            raise Refused(400, "invalid_request", "submission must be an object")
        return body, moment

    def _results(self, req: Incoming) -> Response:
        issued = self._authorized(req, SCOPE_RESULT_READONLY)
        req.require_accept(RESULTS_MEDIA, wildcards=True)
        with self._lock:
            item = self._own_line_item(req, issued)
            url = self.line_item_url(item.id)
            maximum = item.fields["scoreMaximum"]
            results = []
            for (item_id, user), (_, score) in self._latest_score.items():
                if item_id != item.id or req.query.get("user_id", user) != user:
                    continue
                result: dict[str, Any] = {"id": f"{url}/results/{quote(user, safe='')}", "scoreOf": url,
                                          "userId": user, "resultMaximum": maximum}
                if score.get("scoreGiven") is not None:  # scaled to the line item's maximum
                    result["resultScore"] = score["scoreGiven"] * maximum / score["scoreMaximum"]
                if score.get("comment") is not None:
                    result["comment"] = score["comment"]
                results.append(result)
        page, next_url = self._paged(req, results, None)
        return self._container(page, next_url, RESULTS_MEDIA)

    # --- Names and Role Provisioning Services 2.0 ---------------------------------------------

    def _memberships(self, req: Incoming) -> Response:
        self._authorized(req, SCOPE_NRPS)
        self._check_context(req)
        req.require_accept(MEMBERSHIPS_MEDIA, wildcards=False)
        role = req.query.get("role")
        with self._lock:
            if "rlid" in req.query and req.query["rlid"] not in self.links:
                raise Refused(403, "forbidden", f"rlid {req.query['rlid']!r} is not a link of this context")
            members = [self._member(user) for user in self.users.values()
                       if role is None or any(r == role or r.endswith(f"#{role}") for r in user.roles)]
        page, next_url = self._paged(req, members, self.nrps_page_size)
        query = f"?{urlencode(req.query)}" if req.query else ""
        container = {"id": f"{self.url}{req.path}{query}",
                     "context": {"id": self.context_id, "label": self.context_label, "title": self.context_title},
                     "members": page}
        headers = {"Link": f'<{next_url}>; rel="next"'} if next_url else {}
        return JSONResponse(container, headers=headers, media_type=MEMBERSHIPS_MEDIA)

    @staticmethod
    def _member(user: User) -> dict[str, Any]:
        member: dict[str, Any] = {"status": user.status, "user_id": user.sub, "roles": list(user.roles)}
        for name in ("name", "given_name", "family_name", "email"):
            if getattr(user, name):
                member[name] = getattr(user, name)
        return member

    # --- Paging -------------------------------------------------------------------------------

    def _paged(self, req: Incoming, items: list[dict[str, Any]], default_limit: int | None
               ) -> tuple[list[dict[str, Any]], str | None]:
        """One page of ``items`` (``limit`` and ``page`` from the query) and the next page's URL."""

        def positive(name: str) -> int | None:
            value = req.query.get(name)
            if value is None:
                return None
            if not value.isdigit() or int(value) < 1:
                raise Refused(400, "invalid_request", f"{name} must be a positive integer")
            return int(value)

        limit = positive("limit") or default_limit
        page = positive("page") or 1
        if limit is None:
            return items, None
        start = (page - 1) * limit
        if start + limit >= len(items):
            return items[start:], None
        next_query = urlencode({**req.query, "limit": str(limit), "page": str(page + 1)})
        return items[start:start + limit], f"{self.url}{req.path}?{next_query}"

    @staticmethod
    def _container(items: list[dict[str, Any]], next_url: str | None, media: str) -> Response:
        headers = {"Link": f'<{next_url}>; rel="next"'} if next_url else {}
        return JSONResponse(items, headers=headers, media_type=media)


def _deep_link_line_item(body: dict[str, Any], title: str, what: str = "lineItem") -> dict[str, Any]:
    """A deep linking item's lineItem (DL 2.0 3.4.2): a positive scoreMaximum, the label
    defaulting to the item's title."""
    if not _is_number(body.get("scoreMaximum")) or body["scoreMaximum"] <= 0:
        raise Refused(400, "invalid_request", f"{what}.scoreMaximum must be a number above 0")
    fields: dict[str, Any] = {"label": _optional_string(body, "label", what) or title,
                              "scoreMaximum": body["scoreMaximum"]}
    for name in ("resourceId", "tag"):
        if (value := _optional_string(body, name, what)) is not None:
            fields[name] = value
    if "gradesReleased" in body:
        if not isinstance(body["gradesReleased"], bool):
            raise Refused(400, "invalid_request", f"{what}.gradesReleased must be a boolean")
        fields["gradesReleased"] = body["gradesReleased"]
    return fields


def _in_domains(url: str, domains: list[str]) -> bool:
    """Whether ``url`` is on one of the tool's domains: a domain with a port names that
    host and port, one without names the host on any port. No domains: anywhere."""
    if not domains:
        return True
    parts = urlsplit(url)
    return any(parts.netloc.lower() == domain.lower() if ":" in domain
               else (parts.hostname or "").lower() == domain.lower() for domain in domains)


# --- Driving the browser's part without a browser ---------------------------------------------


class _FormReader(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.action: str | None = None
        self.fields: dict[str, str] = {}
        self._in_form = False
        self._done = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = {name: value or "" for name, value in attrs}
        if tag == "form" and not self._done and self.action is None:
            self.action, self._in_form = found.get("action", ""), True
        elif tag == "input" and self._in_form and found.get("name"):
            self.fields[found["name"]] = found.get("value", "")

    def handle_endtag(self, tag: str) -> None:
        if tag == "form" and self._in_form:
            self._in_form, self._done = False, True


def auto_post_form(page: str) -> tuple[str, dict[str, str]]:
    """The action and fields of the first form of an auto-posting page (/authorize's, or the
    tool's deep linking response), as a browser would post them."""
    reader = _FormReader()
    reader.feed(page)
    if reader.action is None:
        raise ValueError(f"the page has no form: {page[:500]}")
    return reader.action, reader.fields


def submit_auto_form(client: httpx.Client, response: httpx.Response, **kwargs: Any) -> httpx.Response:
    """Post the form of ``response``'s page where it points, as its script would."""
    action, fields = auto_post_form(response.text)
    return client.post(urljoin(str(response.url), action), data=fields, **kwargs)
