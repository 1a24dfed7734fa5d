"""Bodies of /healthz and /readyz (``api.routes.health``)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field


class Live(BaseModel):
    status: Literal["ok"]


class DatabasePool(BaseModel):
    """The API's database connections, to tell an exhausted pool from a slow database."""

    status: str = Field(description="the pool's own summary, in words")
    size: int | None = None
    checked_out: int | None = None
    overflow: int | None = None


class Ready(BaseModel):
    status: Literal["ready", "not ready"]
    database_pool: DatabasePool
    problems: list[str] | None = Field(None, description="what is not reachable (not ready only)")
