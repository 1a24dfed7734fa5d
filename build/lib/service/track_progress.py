"""Tracks as a learner sees them: the shipped tracks (``judge.tracks``) with the caller's progress
on each published problem, the next one to try, and a problem's place in its track.

A track shows only its published problems: one that is not (yet) in the database, or not
published, is left out of the counts and of previous/next, so a half-synced catalog never points
a learner at a page that refuses them.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from sqlalchemy import select
from sqlalchemy.orm import Session

from judge.engine_settings import engine_settings
from judge.tracks import Track, load_tracks, next_problem, track_of
from service.catalog import load_version
from service.db.models import ProblemRow, User
from service.errors import NotFound
from service.progress import NONE, Progress, Status, progress_by_problem

_CACHE: dict[Path, tuple[int, list[Track]]] = {}


def shipped_tracks() -> list[Track]:
    """The tracks of the configured problems folder, read again only when tracks.toml changes."""
    root = engine_settings().problems_dir
    path = root / "tracks.toml"
    stamp = path.stat().st_mtime_ns if path.is_file() else -1
    cached = _CACHE.get(root)
    if cached is None or cached[0] != stamp:
        _CACHE[root] = cached = (stamp, load_tracks(root))
    return cached[1]


@dataclass(frozen=True)
class TrackProblem:
    slug: str
    title: str
    difficulty: str
    requires: tuple[str, ...]
    progress: Progress


@dataclass(frozen=True)
class TrackView:
    track: Track
    problems: list[TrackProblem]
    solved: int
    next: str | None


@dataclass(frozen=True)
class TrackPlace:
    track: Track
    position: int  # 1-based, among the track's published problems
    total: int
    previous: str | None
    next: str | None


def _published(session: Session, slugs: set[str]) -> dict[str, ProblemRow]:
    rows = session.scalars(select(ProblemRow).where(ProblemRow.slug.in_(slugs),
                                                    ProblemRow.published_version_id.is_not(None)))
    return {row.slug: row for row in rows}


def _view(track: Track, rows: dict[str, ProblemRow], progress: dict[int, Progress],
          solved: set[str]) -> TrackView:
    problems = []
    for slug in track.problems:
        row = rows.get(slug)
        if row is None:
            continue
        problem = load_version(row.published_version)  # type: ignore[arg-type]  # published: set
        problems.append(TrackProblem(slug, problem.title, problem.difficulty,
                                     track.requires.get(slug, ()), progress.get(row.id, NONE)))
    return TrackView(track, problems, sum(p.progress.status is Status.SOLVED for p in problems),
                     next_problem(track, solved, set(rows)))


def _track(slug: str) -> Track:
    track = next((t for t in shipped_tracks() if t.slug == slug), None)
    if track is None:
        known = ", ".join(t.slug for t in shipped_tracks()) or "none"
        raise NotFound(f"no track {slug!r}; the tracks are: {known}")
    return track


def track_views(session: Session, user: User, only: str | None = None) -> list[TrackView]:
    """Every track (or the one named ``only``; NotFound if there is none) with ``user``'s progress."""
    tracks = shipped_tracks() if only is None else [_track(only)]
    # A requirement may be in another track: its progress is read too.
    wanted = {p for t in tracks for p in (*t.problems, *(r for rs in t.requires.values() for r in rs))}
    rows = _published(session, wanted)
    progress = progress_by_problem(session, user, [row.id for row in rows.values()])
    solved = {slug for slug, row in rows.items() if progress[row.id].status is Status.SOLVED}
    return [_view(track, rows, progress, solved) for track in tracks]


def track_problems(slug: str, session: Session) -> list[str]:
    """The published problems of track ``slug``, in order (for building an assignment)."""
    track = _track(slug)
    rows = _published(session, set(track.problems))
    return [p for p in track.problems if p in rows]


def track_place(session: Session, slug: str) -> TrackPlace | None:
    """Where problem ``slug`` stands in its track, among the track's published problems."""
    track = track_of(shipped_tracks(), slug)
    if track is None:
        return None
    rows = _published(session, set(track.problems))
    shown = [p for p in track.problems if p in rows]
    if slug not in shown:
        return None
    at = shown.index(slug)
    return TrackPlace(track, at + 1, len(shown), shown[at - 1] if at else None,
                      shown[at + 1] if at + 1 < len(shown) else None)
