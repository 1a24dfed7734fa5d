"""The learner's web pages: static shells whose script loads every datum from the JSON API.

The shells carry no data and need no session: the script sends the token the learner pasted
(kept in localStorage) as a Bearer token, exactly as any other API client does. So a page URL
reveals nothing without a token, and the API's access rules are the only ones there are.
"""

from __future__ import annotations

from pathlib import Path

from fastapi import APIRouter, Request, Response
from fastapi.responses import HTMLResponse
from fastapi.staticfiles import StaticFiles

router = APIRouter(tags=["web"], include_in_schema=False)

WEB = Path(__file__).resolve().parent.parent / "web"
SHELL = (WEB / "shell.html").read_text(encoding="utf-8")
assets = StaticFiles(directory=WEB / "static")

# Scripts and styles from this origin only, never inline: injected markup cannot run or restyle.
CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; "
    "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)
PAGE_HEADERS = {
    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-cache",
}


def _shell() -> HTMLResponse:
    return HTMLResponse(SHELL, headers=PAGE_HEADERS)


@router.get("/")
def problem_list() -> HTMLResponse:
    """The problem list."""
    return _shell()


@router.get("/problems/{slug}")
def problem_page(slug: str) -> HTMLResponse:
    """A problem: statement, public tests, editor, Run and Submit (an unknown slug: the API says so)."""
    return _shell()


@router.get("/problems/{slug}/history")
def problem_history(slug: str) -> HTMLResponse:
    """The learner's submissions of one problem, and a line diff between any two of them."""
    return _shell()


@router.get("/submissions")
def submission_list() -> HTMLResponse:
    """The learner's own submissions."""
    return _shell()


@router.get("/submissions/{submission_id}")
def submission_page(submission_id: int) -> HTMLResponse:
    """One submission's verdict and per-test results."""
    return _shell()


@router.api_route("/static/{path:path}", methods=["GET", "HEAD"])
async def static(path: str, request: Request) -> Response:
    """The pages' script, style sheet and icon (StaticFiles keeps paths inside the folder)."""
    response = await assets.get_response(path, request.scope)
    response.headers["X-Content-Type-Options"] = "nosniff"
    response.headers.setdefault("Cache-Control", "no-cache")
    return response
