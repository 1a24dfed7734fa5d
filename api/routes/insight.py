"""Routes for issue 11 (insight); filled in by its work."""

from __future__ import annotations

from fastapi import APIRouter

router = APIRouter(tags=["insight"])
