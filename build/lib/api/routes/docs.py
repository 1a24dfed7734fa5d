"""The API's documentation pages, served entirely by the service: Swagger UI at /docs and Redoc at
/redoc, both reading /openapi.json. FastAPI's own pages load their scripts from a CDN, which
fails offline and would let a third party run script on our origin, so they are turned off
(``docs_url=None, redoc_url=None``) and these static shells replace them.

The shells and their start-up scripts come from this origin; the two viewers set style
attributes and inject style elements at run time (React and styled-components), so these pages
alone allow inline styles. They show no learner content, only the schema this service generates.
"""

from __future__ import annotations

from pathlib import Path

from fastapi import APIRouter
from fastapi.responses import HTMLResponse

router = APIRouter(tags=["docs"], include_in_schema=False)

SHELLS = Path(__file__).resolve().parent.parent / "web" / "docs"
DOCS_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
    "font-src 'self' data:; connect-src 'self'; worker-src 'self' blob:; object-src 'none'; "
    "base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)
HEADERS = {"Content-Security-Policy": DOCS_POLICY, "X-Content-Type-Options": "nosniff",
           "Referrer-Policy": "no-referrer", "Cache-Control": "no-cache"}


def _page(name: str) -> HTMLResponse:
    return HTMLResponse((SHELLS / name).read_text(encoding="utf-8"), headers=HEADERS)


@router.get("/docs")
def swagger_ui() -> HTMLResponse:
    """Interactive API documentation (Swagger UI)."""
    return _page("swagger.html")


@router.get("/redoc")
def redoc() -> HTMLResponse:
    """Reference API documentation (Redoc)."""
    return _page("redoc.html")
