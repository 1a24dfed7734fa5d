"""Start-up work shared by the API, the worker and the CLI."""

from __future__ import annotations

from sqlalchemy import select

from judge.engine_settings import engine_settings
from service.catalog import sync_folders
from service.db.migrate import upgrade
from service.db.models import Role, User
from service.db.session import session_scope
from service.users import create_user


def prepare_database() -> list[str]:
    """Migrate to the newest schema and load problems/ (new versions when content changed)."""
    upgrade()
    with session_scope() as session:
        return sync_folders(session, engine_settings().problems_dir)


def first_admin_token() -> str | None:
    """Create an admin on first start and return its token; None when one already exists."""
    with session_scope() as session:
        if session.scalar(select(User).where(User.role == Role.ADMIN)) is not None:
            return None
        _, token = create_user(session, "admin", Role.ADMIN)
        return token
