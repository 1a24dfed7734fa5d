"""Who may show the pages in a frame: the registered platforms (an LMS shows a launched tool in an
iframe) and the origins of JUDGE_LTI_FRAME_ANCESTORS; nobody else, so that no other site can
frame the judge to trick a click. Read from the database at most every REFRESH seconds per
process."""

from __future__ import annotations

import threading
import time
from urllib.parse import urlsplit

from sqlalchemy import select

from service.db.models import LtiPlatform
from service.db.session import new_session
from service.settings import get_settings

REFRESH = 30.0
UNSAFE = " ;,'\""  # what would end a CSP source, or start another
_lock = threading.Lock()
_kept: list[tuple[float, str]] = []


def origin(url: str) -> str | None:
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.netloc or any(ch in parts.netloc for ch in UNSAFE):
        return None
    return f"{parts.scheme}://{parts.netloc}"


def _read() -> str:
    origins: set[str] = set()
    try:
        with new_session() as session:
            for issuer, login in session.execute(select(LtiPlatform.issuer, LtiPlatform.auth_login_url)):
                origins.update(o for o in (origin(issuer), origin(login)) if o)
    except Exception:  # no database yet (the API starting): nobody frames the pages meanwhile
        origins = set()
    origins.update(o for o in (origin(u) for u in get_settings().lti_frame_ancestors.split()) if o)
    return " ".join(["'self'", *sorted(origins)]) if origins else "'none'"


def frame_ancestors() -> str:
    """The CSP frame-ancestors sources of the pages."""
    now = time.monotonic()
    with _lock:
        if _kept and _kept[0][0] > now:
            return _kept[0][1]
    value = _read()
    with _lock:
        _kept[:] = [(now + REFRESH, value)]
    return value


def forget() -> None:
    """A platform was added, changed or removed: read again at the next page."""
    with _lock:
        _kept.clear()
