"""The caller: who the token belongs to (a page checks a token with it before keeping it)."""

from __future__ import annotations

from fastapi import APIRouter

from api.deps import CurrentUser
from api.schemas import Me

router = APIRouter(prefix="/me", tags=["users"])


@router.get("", response_model=Me)
def me(user: CurrentUser) -> Me:
    """Your id, name and role."""
    return Me(id=user.id, name=user.name, role=user.role)
