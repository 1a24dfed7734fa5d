"""Tracks: the shipped problems in ordered courses of study, with the caller's progress."""

from __future__ import annotations

from pydantic import BaseModel, Field

from api.schemas.common import Difficulty
from service.progress import Status as Progress


class TrackProblemOut(BaseModel):
    slug: str
    title: str
    difficulty: Difficulty
    requires: list[str] = Field(description="problems to solve first (they come earlier in the order)")
    progress: Progress | None = Field(description="solved, attempted, or null before any submission")


class TrackOut(BaseModel):
    slug: str
    title: str
    summary: str
    problems: list[TrackProblemOut] = Field(description="the track's published problems, in order")
    solved: int = Field(description="how many of them you have solved")
    total: int
    next: str | None = Field(description=(
        "the problem to try next: the first unsolved one whose requirements you have all solved "
        "(else the first unsolved one); null when the whole track is solved"))


class TrackPlaceOut(BaseModel):
    """Where a problem stands in its track (among the track's published problems)."""

    slug: str = Field(description="the track's slug")
    title: str
    position: int = Field(description="1-based")
    total: int
    previous: str | None = Field(description="the problem before this one, null for the first")
    next: str | None = Field(description="the problem after this one, null for the last")
