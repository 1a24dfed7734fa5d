"""Tracks: the shipped problems grouped into ordered courses of study (``problems/tracks.toml``).

A track is an ordered list of problem slugs; a problem may require others, each of which must come
before it (earlier in its track, or in an earlier track), so the requirements can never form a
cycle and the file's order is always a path a learner can follow. Every shipped problem belongs to
exactly one track (``covering`` checks it against the folders); problems authored through the API
belong to none.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from judge.errors import ProblemError
from judge.problems import SLUG

TRACKS_FILE = "tracks.toml"
TRACK_SLUG = re.compile(r"[a-z][a-z0-9-]{0,63}")
_TRACK_KEYS = {"slug", "title", "summary", "problems", "requires"}


@dataclass(frozen=True)
class Track:
    slug: str
    title: str
    summary: str
    problems: tuple[str, ...]
    requires: dict[str, tuple[str, ...]]

    def neighbours(self, slug: str) -> tuple[str | None, str | None]:
        """The problems before and after ``slug`` in this track (None at either end)."""
        at = self.problems.index(slug)
        return (self.problems[at - 1] if at else None,
                self.problems[at + 1] if at + 1 < len(self.problems) else None)


def next_problem(track: Track, solved: set[str], available: set[str]) -> str | None:
    """What to try next: the first unsolved problem whose requirements are all solved, else the
    first unsolved one at all; only among ``available`` (published, readable) problems."""
    open_ = [p for p in track.problems if p in available and p not in solved]
    ready = [p for p in open_ if set(track.requires.get(p, ())) <= solved]
    choices = ready or open_
    return choices[0] if choices else None


def _text(where: str, table: dict[str, Any], key: str) -> str:
    value = table.get(key)
    if not isinstance(value, str) or not value.strip():
        raise ProblemError(f"{where}: '{key}' must be a non-empty string")
    return value.strip()


def _slugs(where: str, value: Any) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(s, str) for s in value):
        raise ProblemError(f"{where} must be a list of problem slugs (strings)")
    for slug in value:
        if not SLUG.fullmatch(slug):
            raise ProblemError(f"{where}: {slug!r} is not a problem slug ({SLUG.pattern})")
    if len(set(value)) != len(value):
        duplicate = next(s for s in value if value.count(s) > 1)
        raise ProblemError(f"{where}: {duplicate!r} is listed twice")
    return tuple(value)


def parse_tracks(text: str, name: str = TRACKS_FILE) -> list[Track]:
    """The tracks a tracks.toml text defines, or a ProblemError naming the file, track and key."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ProblemError(f"{name}: not valid TOML: {exc}") from None
    extra = set(data) - {"tracks"}
    if extra:
        raise ProblemError(f"{name}: unknown key(s) {', '.join(sorted(extra))}; only [[tracks]] tables")
    entries = data.get("tracks")
    if not isinstance(entries, list) or not entries:
        raise ProblemError(f"{name}: define at least one [[tracks]] table")
    tracks: list[Track] = []
    seen: dict[str, str] = {}  # problem slug -> the track that lists it, in file order
    for number, entry in enumerate(entries, start=1):
        where = f"{name}: track {number}"
        slug = entry.get("slug")
        if not isinstance(slug, str) or not TRACK_SLUG.fullmatch(slug):
            raise ProblemError(f"{where}: 'slug' must match {TRACK_SLUG.pattern}")
        where = f"{name}: track {slug!r}"
        unknown = set(entry) - _TRACK_KEYS
        if unknown:
            raise ProblemError(f"{where}: unknown key(s) {', '.join(sorted(unknown))}; "
                               f"known: {', '.join(sorted(_TRACK_KEYS))}")
        if any(t.slug == slug for t in tracks):
            raise ProblemError(f"{where}: a track of this slug is defined twice")
        problems = _slugs(f"{where}: 'problems'", entry.get("problems"))
        if not problems:
            raise ProblemError(f"{where}: 'problems' is empty")
        for problem in problems:
            if problem in seen:
                raise ProblemError(f"{where}: {problem!r} is already in track {seen[problem]!r}; "
                                   "a problem belongs to one track")
        requires_table = entry.get("requires", {})
        if not isinstance(requires_table, dict):
            raise ProblemError(f"{where}: 'requires' must be a table of slug = [slugs]")
        requires: dict[str, tuple[str, ...]] = {}
        for problem, needed in requires_table.items():
            at = f"{where}: requires.{problem}"
            if problem not in problems:
                raise ProblemError(f"{at}: {problem!r} is not one of this track's problems")
            earlier = set(seen) | set(problems[:problems.index(problem)])
            for need in _slugs(at, needed):
                if need not in earlier:
                    raise ProblemError(f"{at}: {need!r} must come before {problem!r} (earlier in "
                                       "this track or in an earlier one)")
            requires[problem] = tuple(needed)
        seen.update((p, slug) for p in problems)
        tracks.append(Track(slug, _text(where, entry, "title"), _text(where, entry, "summary"),
                            problems, requires))
    return tracks


def load_tracks(root: Path) -> list[Track]:
    """The tracks of a problems folder; none when it has no tracks.toml."""
    path = root / TRACKS_FILE
    if not path.is_file():
        return []
    return parse_tracks(path.read_text(encoding="utf-8"), f"{root.name}/{TRACKS_FILE}")


def covering(tracks: list[Track], slugs: set[str]) -> list[str]:
    """What is wrong between the tracks and the problem folders: a folder in no track, a track
    naming a problem that has no folder. Empty when each folder is in exactly one track."""
    listed = {p for t in tracks for p in t.problems}
    return ([f"problem {s!r} is in no track of {TRACKS_FILE}" for s in sorted(slugs - listed)]
            + [f"{TRACKS_FILE} names {s!r}, which has no problem folder" for s in sorted(listed - slugs)])


def track_of(tracks: list[Track], slug: str) -> Track | None:
    return next((t for t in tracks if slug in t.problems), None)
