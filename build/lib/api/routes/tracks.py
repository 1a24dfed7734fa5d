"""Tracks: the shipped problems grouped into ordered courses of study, each with your progress
and the problem to try next (``service.track_progress``)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Path

from api.deps import CurrentUser, SessionDep
from api.schemas.common import Difficulty
from api.schemas.tracks import TrackOut, TrackProblemOut
from service import track_progress
from service.track_progress import TrackView

TrackSlug = Annotated[str, Path(max_length=64, description="the track's slug")]

router = APIRouter(prefix="/tracks", tags=["problems"])


def track_out(view: TrackView) -> TrackOut:
    return TrackOut(
        slug=view.track.slug, title=view.track.title, summary=view.track.summary,
        problems=[TrackProblemOut(slug=p.slug, title=p.title, difficulty=Difficulty(p.difficulty),
                                  requires=list(p.requires), progress=p.progress.status)
                  for p in view.problems],
        solved=view.solved, total=len(view.problems), next=view.next)


@router.get("", response_model=list[TrackOut])
def list_tracks(session: SessionDep, user: CurrentUser) -> list[TrackOut]:
    """Every track in order, with your progress on each of its problems and what to try next."""
    return [track_out(view) for view in track_progress.track_views(session, user)]


@router.get("/{track}", response_model=TrackOut)
def read_track(track: TrackSlug, session: SessionDep, user: CurrentUser) -> TrackOut:
    """One track, with your progress on each of its problems and what to try next."""
    return track_out(track_progress.track_views(session, user, only=track)[0])
