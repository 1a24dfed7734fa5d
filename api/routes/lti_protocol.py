"""The LTI 1.3 protocol's endpoints, outside the JSON API: the login a platform starts
(/lti/login), the launch it posts (/lti/launch), the judge's keys (/lti/jwks), and the answer to a
deep-linking request (POST /lti/deep-link/{token}, from the judge's own picker page).

A launch signs its user in with a session cookie that is SameSite=None, Secure and Partitioned:
an LMS shows the judge in an iframe, where a SameSite=Strict cookie is never sent and an
unpartitioned one is blocked by browsers that block third-party cookies. The session's CSRF token
guards every change, as for any session (``api.deps``).
"""

from __future__ import annotations

import html
from typing import Annotated
from urllib.parse import urlencode

from fastapi import APIRouter, Form, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import HTMLResponse, JSONResponse, RedirectResponse, Response

from api.deps import SessionDep
from api.routes.lti import tool_base
from api.routes.web import page_headers
from service import web_sessions
from service.db.session import new_session
from service.errors import Unauthorized
from service.lti import deep_linking, grade_marks, keys, launch
from service.lti.framing import origin

router = APIRouter(prefix="/lti", tags=["lti"], include_in_schema=False)

STATE_PATH = "/lti"
COOKIE_CHECK = "lti_cookies"


def _cross_site_cookie(response: Response, name: str, value: str, max_age: int, path: str = "/",
                       script_reads: bool = False) -> None:
    # Written by hand: Starlette's set_cookie takes Partitioned only on Python 3.14. The values
    # are URL-safe tokens, which need no quoting.
    hidden = "" if script_reads else " HttpOnly;"
    response.headers.append("set-cookie", f"{name}={value}; Max-Age={max_age}; Path={path};{hidden} Secure; "
                                          "SameSite=None; Partitioned")


def _page(title: str, body: str, headers: dict[str, str] | None = None, status: int = 200) -> HTMLResponse:
    page = (f'<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" '
            f'content="width=device-width, initial-scale=1"><title>{html.escape(title)}</title>'
            f'<link rel="stylesheet" href="/static/app.css"></head><body><main id="app" class="lti-page">'
            f'<h1>{html.escape(title)}</h1>{body}</main></body></html>')
    return HTMLResponse(page, status_code=status, headers=headers or page_headers())


async def _fields(request: Request) -> dict[str, str]:
    given = {k: v for k, v in request.query_params.items()}
    if request.method == "POST":
        form = await request.form()
        given.update({k: v for k, v in form.items() if isinstance(v, str)})
    return given


@router.api_route("/login", methods=["GET", "POST"])
async def login(request: Request) -> Response:
    """Third-party-initiated login: a state and nonce kept for the launch, then on to the
    platform's authorization endpoint, once the page has seen that this browser keeps the
    judge's cookies here. Where it does not (a frame, in a browser that blocks cookies there),
    the page offers the same login in a new window instead: checked now, before the platform
    spends its login hint, since a platform may take a hint only once."""
    given = await _fields(request)
    base = tool_base(request)

    def begin() -> launch.LoginStart:
        with new_session() as session:
            return launch.begin(session, given, f"{base}/lti/launch")

    start = await run_in_threadpool(begin)
    again = html.escape(f"{base}/lti/login?{urlencode(launch.login_fields(given))}", quote=True)
    response = _page("Signing in from the LMS", (
        f'<div id="lti-login" data-next="{html.escape(start.redirect_url, quote=True)}">'
        '<p id="lti-login-wait">Signing you in…</p>'
        '<div id="lti-login-blocked" hidden><p>Your browser keeps no cookies for the judge inside the '
        "LMS's page, so the judge cannot sign you in here.</p>"
        f'<p><a class="button" href="{again}" target="_blank" rel="opener">Open the judge in a new window</a>'
        "</p></div></div>"
        '<script type="module" src="/static/js/lti/login.js"></script>'))
    _cross_site_cookie(response, launch.STATE_COOKIE, start.state, max_age=900, path=STATE_PATH)
    # Readable by the page's script (unlike the state's): its presence is the check.
    _cross_site_cookie(response, COOKIE_CHECK, "1", max_age=900, path=STATE_PATH, script_reads=True)
    return response


@router.post("/launch")
def launch_in(request: Request, session: SessionDep, id_token: Annotated[str, Form()] = "",
              state: Annotated[str, Form()] = "") -> Response:
    """The platform's launch: checked in full, then its user signed in and sent to its page."""
    outcome = launch.finish(session, id_token, state, request.cookies.get(launch.STATE_COOKIE),
                            f"{tool_base(request)}/lti/login")
    if isinstance(outcome, launch.NewWindow):
        link = html.escape(outcome.login_url, quote=True)
        return _page("Open the judge in a new window", (
            "<p>Your browser did not keep the judge's cookie inside the LMS's page (it blocks cookies in "
            "frames), so the judge cannot sign you in here.</p>"
            f'<p><a class="button" href="{link}" target="_blank" rel="opener">'
            "Open the judge in a new window</a></p>"))
    secret, _row = web_sessions.start_session(session, outcome.user)
    session.commit()
    grade_marks.enqueue(outcome.grade_rows)
    response = RedirectResponse(outcome.landing, status_code=303)
    _cross_site_cookie(response, web_sessions.COOKIE, secret, int(web_sessions.lifetime().total_seconds()))
    _cross_site_cookie(response, launch.STATE_COOKIE, "", 0, STATE_PATH)  # used: gone
    return response


@router.get("/jwks")
def jwks(session: SessionDep) -> JSONResponse:
    """The judge's public keys (the signing one and the next)."""
    return JSONResponse(keys.public_key_set(session), headers={"Cache-Control": "max-age=300"})


@router.post("/deep-link/{token}")
def deep_link_answer(token: str, request: Request, session: SessionDep,
                     csrf_token: Annotated[str, Form()] = "",
                     problem: Annotated[list[str] | None, Form()] = None,
                     assignment: Annotated[str, Form()] = "", track: Annotated[str, Form()] = "") -> Response:
    """The instructor's choice from the picker page: the signed answer, posted on to the LMS."""
    secret = request.cookies.get(web_sessions.COOKIE)
    row = web_sessions.find_session(session, secret) if secret else None
    if row is None:
        raise Unauthorized("your session has ended: open the link in the LMS again")
    web_sessions.require_csrf(row, csrf_token)
    chosen = int(assignment) if assignment.isdigit() and len(assignment) < 10 else None
    picks = deep_linking.Picks(problems=list(problem or [])[:100], assignment=chosen, track=track or None)
    return_url, signed = deep_linking.answer(session, row.user, token[:200], picks,
                                             f"{tool_base(request)}/lti/launch")
    headers = page_headers(form_action=origin(return_url) or "'none'")
    return _page("Back to the LMS", (
        f'<form id="lti-return" method="post" action="{html.escape(return_url, quote=True)}">'
        f'<input type="hidden" name="JWT" value="{html.escape(signed, quote=True)}">'
        "<p>Your choice is made. The LMS takes it from here.</p>"
        '<button type="submit">Return to the LMS</button></form>'
        '<script type="module" src="/static/js/lti/return.js"></script>'), headers)
