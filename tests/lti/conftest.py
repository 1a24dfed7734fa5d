"""Fixtures of the LTI tests: the judge over real HTTP (uvicorn on the session's database and
broker, judged by the session worker), a webhook worker that sends grades, an LTI platform
(tests/lti/platform.py) on 127.0.0.1, and ``LmsBrowser``, which walks a launch as a browser does.

httpx keeps no Secure cookie for an http:// address, while the judge's LTI cookies are Secure
(SameSite=None demands it; Chromium takes them from 127.0.0.1): ``LmsBrowser`` carries them
itself, as a browser on a trustworthy origin would.
"""

from __future__ import annotations

import contextlib
import html
import json
import re
import subprocess
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest

from service.cli import webhook_worker_command
from service.db.models import Role
from service.db.session import session_scope
from service.settings import get_settings
from service.users import create_user
from tests.lti.platform import Platform, auto_post_form
from tests.utils.api_server import api_server
from tests.utils.service_fixtures import _started, _stopped

API = "/api/v1"
INSTRUCTOR = "http://purl.imsglobal.org/vocab/lis/v2/membership#Instructor"
LEARNER = "http://purl.imsglobal.org/vocab/lis/v2/membership#Learner"
SENDER_SETTINGS = {"JUDGE_WEBHOOK_SWEEP_SECONDS": "0.2", "JUDGE_LTI_SCORE_BACKOFF_SECONDS": json.dumps([0.5, 0.5])}


@pytest.fixture(scope="package")  # one server for the package's modules (per xdist worker)
def judge(worker: subprocess.Popen[bytes]) -> Iterator[str]:
    """The judge's base URL: the app over real HTTP (platforms fetch its keys), with the
    session worker judging what it queues."""
    log = Path(get_settings().data_dir) / f"lti-api-{uuid.uuid4().hex[:8]}.log"
    with api_server(log) as base:
        yield base


@contextlib.contextmanager
def grade_sending() -> Iterator[subprocess.Popen[bytes]]:
    """A webhook worker (the one that sends LTI grades), sweeping often and retrying soon."""
    with pytest.MonkeyPatch.context() as patch:
        for name, value in SENDER_SETTINGS.items():
            patch.setenv(name, value)
        get_settings.cache_clear()
        process = _started(webhook_worker_command(4), Path(get_settings().data_dir) / f"lti-sender-{uuid.uuid4().hex[:6]}.log")
        try:
            yield process
        finally:
            _stopped(process)
    get_settings.cache_clear()


@pytest.fixture(scope="package")
def grade_sender(judge: str) -> Iterator[subprocess.Popen[bytes]]:
    with grade_sending() as process:
        yield process


@pytest.fixture
def lms() -> Iterator[Platform]:
    with Platform() as platform:
        yield platform


def new_admin() -> str:
    with session_scope() as session:
        return create_user(session, f"lti-admin-{uuid.uuid4().hex[:8]}", Role.ADMIN)[1]


def register_by_hand(judge: str, lms: Platform, admin: str, client_id: str | None = None) -> dict[str, Any]:
    """The platform registered with the judge, and the judge with the platform, by hand."""
    client_id = client_id or f"judge-{uuid.uuid4().hex[:8]}"
    deployment = f"deployment-{uuid.uuid4().hex[:6]}"
    lms.register_tool(client_id, deployment, f"{judge}/lti/login", f"{judge}/lti/launch", f"{judge}/lti/jwks")
    made = httpx.post(f"{judge}{API}/lti/platforms", headers={"Authorization": f"Bearer {admin}"}, json={
        "name": "Test LMS", "issuer": lms.issuer, "client_id": client_id, "deployment_ids": [deployment],
        "auth_login_url": lms.authorize_url, "token_url": lms.token_url, "jwks_url": lms.jwks_url})
    assert made.status_code == 201, made.text
    body: dict[str, Any] = made.json()
    return body


NEXT = re.compile(r'data-next="([^"]*)"')


def login_next(response: httpx.Response) -> str:
    """Where the judge's login page sends a browser that keeps its cookies: the platform's
    authorization endpoint, with the judge's authentication request."""
    assert response.status_code == 200, (response.status_code, response.text[:500])
    found = NEXT.search(response.text)
    assert found, response.text[:500]
    return html.unescape(found.group(1))


@dataclass
class LmsBrowser:
    """One person's browser: the platform's pages and the judge's, with the judge's cookies."""

    judge: str
    http: httpx.Client = field(default_factory=lambda: httpx.Client(timeout=60))
    cookies: dict[str, str] = field(default_factory=dict)

    def _keep(self, response: httpx.Response) -> None:
        if str(response.url).startswith(self.judge):
            for header in response.headers.get_list("set-cookie"):
                name, _, rest = header.partition("=")
                value = rest.split(";", 1)[0]
                if "max-age=0" in header.lower() or not value or value == '""':
                    self.cookies.pop(name, None)
                else:
                    self.cookies[name] = value

    def request(self, method: str, url: str, **kwargs: Any) -> httpx.Response:
        headers = dict(kwargs.pop("headers", {}) or {})
        if url.startswith(self.judge) and self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        response = self.http.request(method, url, headers=headers, **kwargs)
        self._keep(response)
        return response

    def launch(self, start_url: str) -> httpx.Response:
        """Follow a launch from the platform's start URL: the login, the authorization, the
        auto-posted form; the judge's answer to the launch (a 303 to its page, or a refusal)."""
        response = self.request("GET", start_url)
        while True:
            if response.status_code in (302, 303, 307):
                target = str(httpx.URL(str(response.url)).join(response.headers["location"]))
            elif str(response.url).startswith(f"{self.judge}/lti/login"):
                target = login_next(response)  # what the page's script does, the cookies kept
            else:
                break
            response = self.request("GET", target)
        assert response.status_code == 200, (response.status_code, response.text[:500])
        action, fields = auto_post_form(response.text)
        return self.request("POST", action, data=fields)

    def api(self, method: str, path: str, **kwargs: Any) -> httpx.Response:
        """A call to the judge's API with the session cookie (and its CSRF token for a change)."""
        headers = dict(kwargs.pop("headers", {}) or {})
        if method != "GET":
            session = self.request("GET", f"{self.judge}{API}/auth/session")
            assert session.status_code == 200, session.text
            headers["X-CSRF-Token"] = session.json()["csrf_token"]
        return self.request(method, f"{self.judge}{API}{path}", headers=headers, **kwargs)
