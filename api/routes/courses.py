"""Routes for issue 11 (courses); filled in by its work."""

from __future__ import annotations

from fastapi import APIRouter

router = APIRouter(tags=["courses"])
