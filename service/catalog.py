"""Problems in the database: versions stored as folders of text files, synced from problems/,
authored through the API (JSON or an archive), and turned back into ``Problem`` objects."""

from __future__ import annotations

import difflib
import tempfile
from pathlib import Path
from typing import Any

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from judge.errors import InvalidInput, ProblemError
from judge.problem_paths import MAX_FILES, MAX_TOTAL_BYTES, FolderTree, shown
from judge.problems import SLUG, Problem, discover, load_problem
from service.db.models import ProblemRow, ProblemVersion, VersionStatus
from service.errors import Conflict, NotFound


def folder_files(folder: Path) -> dict[str, str]:
    """Every text file of a problem folder, keyed by its relative POSIX path."""
    files = {}
    for path in sorted(folder.rglob("*")):
        rel = path.relative_to(folder)
        if path.is_file() and "__pycache__" not in rel.parts and path.suffix != ".pyc":
            files[rel.as_posix()] = path.read_text(encoding="utf-8")
    return files


def _checked_paths(files: dict[str, str]) -> dict[str, str]:
    """{normalised path: text}, every name and text checked before anything is written."""
    if len(files) > MAX_FILES:
        raise ProblemError(f"a problem may hold at most {MAX_FILES} files; this one has {len(files)}")
    tree = FolderTree("file")
    checked, total = {}, 0
    for name, text in files.items():
        path = tree.add_file(name)
        if not isinstance(text, str):
            raise ProblemError(f"file {shown(name)}: must be text")
        try:
            total += len(text.encode("utf-8"))
        except UnicodeEncodeError as exc:
            raise ProblemError(f"file {shown(name)}: not valid text (a lone surrogate at index "
                               f"{exc.start})") from None
        checked[path] = text
    if total > MAX_TOTAL_BYTES:
        raise ProblemError(f"the files add up to {total} bytes; at most {MAX_TOTAL_BYTES // 2**20} MiB")
    return checked


def problem_from_files(files: dict[str, str], slug: str) -> Problem:
    """Validate a folder given as files by loading it exactly as problems/ folders are loaded."""
    if not SLUG.fullmatch(slug):  # fullmatch: "$" alone would let a trailing newline through
        raise ProblemError(f"slug {shown(slug)} must match {SLUG.pattern}")
    checked = _checked_paths(files)
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / slug
        for path, text in checked.items():
            target = folder / path
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(text, encoding="utf-8")
        try:
            return load_problem(folder)
        except ProblemError as exc:
            # Name files as the author knows them (slug/problem.toml), not by the scratch folder.
            raise ProblemError(str(exc).replace(f"{tmp}/", "")) from exc


_LOADED: dict[tuple[int, str], Problem] = {}


def no_such_problem(session: Session, slug: str, what: str = "problem") -> NotFound:
    """The refusal of a slug that names no problem, with the published one it most likely meant
    (a hyphen typed for an underscore, a letter off): published slugs only, so a suggestion never
    names someone's draft."""
    message = f"no {what} {shown(slug)}"
    if len(slug) <= 64:  # a slug is at most 64 characters: anything longer is no typo of one
        published = list(session.scalars(
            select(ProblemRow.slug).where(ProblemRow.published_version_id.is_not(None))))
        guess = slug.strip().lower().replace("-", "_").replace(" ", "_")
        close = [guess] if guess in published else difflib.get_close_matches(guess, published, 1, 0.8)
        if close and close[0] != slug:
            message += f"; did you mean {close[0]!r}?"
    return NotFound(message)


def cached_version(version_id: int, version: str) -> Problem | None:
    """The Problem of the stored version with this id and content hash, when this process has
    loaded it already; its row need not be read."""
    return _LOADED.get((version_id, version))


def load_version(version: ProblemVersion) -> Problem:
    """The Problem of a stored version (cached: a stored version never changes). The key holds
    the content hash with the id: tests make databases afresh, whose ids start again."""
    key = (version.id, version.version)
    if key not in _LOADED:
        if len(_LOADED) >= 64:
            _LOADED.clear()
        _LOADED[key] = problem_from_files(version.files, version.problem.slug)
    return _LOADED[key]


def add_version(session: Session, row: ProblemRow, files: dict[str, str],
                status: VersionStatus = VersionStatus.DRAFT,
                validation: dict[str, Any] | None = None,
                max_wrong: int | None = None) -> tuple[ProblemVersion, bool]:
    """Store files as a version of row (after loading them); (version, created). More than
    ``max_wrong`` wrong solutions is a ProblemError: validation runs each one in the sandbox."""
    problem = problem_from_files(files, row.slug)
    if max_wrong is not None and len(problem.wrong) > max_wrong:
        raise ProblemError(f"wrong/: {len(problem.wrong)} wrong solutions; an upload may have at "
                           f"most {max_wrong} (each is run in the sandbox when the version is "
                           "validated)")
    existing = session.scalar(select(ProblemVersion).where(
        ProblemVersion.problem_id == row.id, ProblemVersion.version == problem.version))
    if existing is not None:
        return existing, False
    version = ProblemVersion(problem_id=row.id, version=problem.version, files=files,
                             status=status.value, validation=validation)
    session.add(version)
    session.flush()
    return version, True


def sync_folders(session: Session, root: Path) -> list[str]:
    """Load problems/ into the database; a changed folder becomes a new published version.

    Shipped problems are proven by `judge problems validate` in CI, so they publish directly.
    Returns one line per problem that was added or updated, or skipped as invalid.
    """
    changes = []
    for folder in discover(root):
        try:
            files = folder_files(folder)
            problem_from_files(files, folder.name)
        except (ProblemError, UnicodeDecodeError) as exc:
            changes.append(f"skipped {folder.name}: {exc}")
            continue
        row = session.scalar(select(ProblemRow).where(ProblemRow.slug == folder.name))
        if row is None:
            row = ProblemRow(slug=folder.name)
            session.add(row)
            session.flush()
        version, created = add_version(session, row, files, VersionStatus.VALID,
                                       {"source": "problems folder", "failures": []})
        if row.published_version_id != version.id:
            row.published_version_id = version.id
            changes.append(f"{'added' if created else 'republished'} {row.slug} {version.version}")
    return changes


def shipped_slugs(root: Path) -> set[str]:
    """Every folder name under problems/: reserved even before (or if never) it is synced, so an
    instructor cannot take a slug that a later start-up would fill with the shipped problem."""
    try:
        return {path.name for path in root.iterdir() if path.is_dir()}
    except OSError:  # no problems folder: nothing ships
        return set()


def claim_slug(session: Session, slug: str, owner_id: int, shipped_root: Path) -> ProblemRow:
    """A new problem row for slug owned by owner_id (flushed), unless the slug is taken or shipped."""
    if not SLUG.fullmatch(slug):
        raise InvalidInput(f"slug: {shown(slug)} must match {SLUG.pattern}")
    existing = session.scalar(select(ProblemRow).where(ProblemRow.slug == slug))
    if slug in shipped_slugs(shipped_root) or (existing is not None and existing.owner_id is None):
        raise Conflict(f"problem {slug!r} ships with the judge (problems/{slug}) and cannot be "
                       "uploaded; choose another slug")
    taken = Conflict(f"problem {slug!r} already exists; PUT /api/v1/problems/{slug} adds a version")
    if existing is not None:
        raise taken
    row = ProblemRow(slug=slug, owner_id=owner_id)
    session.add(row)
    try:
        session.flush()
    except IntegrityError:
        # Another upload claimed the slug between the look-up and this insert.
        session.rollback()
        raise taken from None
    return row
