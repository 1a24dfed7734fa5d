"""The web pages (learners', instructors', admins'): one static shell whose scripts load every
datum from the JSON API.

The shell carries no data and the page routes check no credentials: the scripts call the API
with the session cookie that signing in at /sign-in sets (echoing the session's CSRF token on
every change), or with an API token kept in localStorage, sent as a Bearer token exactly as any
other client sends it. So a page URL reveals nothing by itself, and the API's access rules are
the only ones there are.
"""

from __future__ import annotations

from pathlib import Path

from fastapi import APIRouter, Request, Response
from fastapi.responses import HTMLResponse
from fastapi.staticfiles import StaticFiles

from service.lti import framing

router = APIRouter(tags=["web"], include_in_schema=False)

WEB = Path(__file__).resolve().parent.parent / "web"
SHELL = (WEB / "shell.html").read_text(encoding="utf-8")
assets = StaticFiles(directory=WEB / "static")

# Scripts and styles from this origin only, never inline: injected markup cannot run or restyle.
# img-src blob: is for the insight page's charts: an <img> request carries no Bearer token, so the
# page fetches each SVG with the token and shows it from an object URL (an image runs no script).
# frame-ancestors: only the registered LTI platforms may frame the pages (service.lti.framing).
CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' blob:; connect-src 'self'; "
    "object-src 'none'; base-uri 'none'; form-action {form_action}; frame-ancestors {ancestors}"
)
PAGE_HEADERS = {
    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-cache",
}


def page_headers(ancestors: str | None = None, form_action: str = "'self'") -> dict[str, str]:
    """The headers of every page, with who may frame it now (or ``ancestors``) and where its
    forms may post (the judge itself, but for the deep-linking answer's page)."""
    policy = CONTENT_SECURITY_POLICY.format(ancestors=ancestors or framing.frame_ancestors(),
                                            form_action=form_action)
    return {**PAGE_HEADERS, "Content-Security-Policy": policy}


# Dynamic registration is opened by an LMS not registered yet, often in a frame: any site may
# frame that page, which then does nothing but offer a window of its own (js/lti/register.js),
# so a frame never holds its Register button for a click to be stolen.
FRAMED_BY_ANYONE = {"/lti/register"}


def _shell(path: str) -> HTMLResponse:
    return HTMLResponse(SHELL, headers=page_headers("*" if path in FRAMED_BY_ANYONE else None))


# Every page path and what it shows; each serves the same shell (the script draws the page).
# Path parameters are checked here only for shape: the API decides what exists and who may see it.
PAGES: dict[str, str] = {
    "/": "the problem list",
    "/problems/{slug}": "a problem: statement, public tests, editor, Run, Submit, Try, hints",
    "/problems/{slug}/history": "the learner's submissions of one problem, with a line diff between two",
    "/submissions": "the learner's own submissions",
    "/submissions/{submission_id:int}": "one submission's verdict and per-test results",
    "/sign-in": "sign in with a user name and password, or keep an API token in this browser",
    "/join/{code}": "a course's join link: join it, or make a learner account and join",
    "/account": "who I am, a new password, e-mail for notifications, my API tokens (made, shown once, "
                "revoked)",
    "/notifications": "what I was told: feedback, regrade answers, released grades; marked read",
    "/admin/users": "administrators: every user, role changes, a new user with a password",
    "/admin/lti": "administrators: LTI platforms (by hand or dynamically), what to paste into an LMS",
    "/lti/register": "LTI dynamic registration, opened by an LMS: an admin confirms the platform",
    "/lti/deep-link/{token}": "an instructor launched from an LMS picks problems, an assignment or a track",
    "/courses": "my courses (as instructor or learner), what is due; instructors: a new course",
    "/courses/{course_id:int}": "a course: assignments; instructors: join link, members (add, remove), forms",
    "/assignments/{assignment_id:int}": "an assignment's problems, due time and the learner's progress",
    "/assignments/{assignment_id:int}/gradebook": "learners x problems, sortable, links to submissions, CSV",
    "/assignments/{assignment_id:int}/similarity": "solutions alike over all the assignment's problems",
    "/author": "instructors: my problems (all, for an admin), uploading an archive, copying a problem",
    "/author/{slug}": "authoring: versions and validation reports, files, publish, roll back, rejudge",
    "/author/{slug}/preview": "a version of a problem (published or not) as its public page shows it",
    "/author/{slug}/insight": "acceptance, charts, verdicts, failing tests, solutions that look alike",
}


def _page_route(path: str, description: str) -> None:
    def page() -> HTMLResponse:
        return _shell(path)

    page.__doc__ = description
    router.add_api_route(path, page, methods=["GET"], response_class=HTMLResponse, name=f"page {path}")


for _path, _description in PAGES.items():
    _page_route(_path, _description)


@router.api_route("/static/{path:path}", methods=["GET", "HEAD"])
async def static(path: str, request: Request) -> Response:
    """The pages' script, style sheet and icon (StaticFiles keeps paths inside the folder)."""
    response = await assets.get_response(path, request.scope)
    response.headers["X-Content-Type-Options"] = "nosniff"
    response.headers.setdefault("Cache-Control", "no-cache")
    return response
