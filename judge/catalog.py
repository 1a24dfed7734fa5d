"""Problems in the database: versions stored as folders of text files, synced from problems/,
authored through the API (JSON or an archive), and turned back into ``Problem`` objects."""

from __future__ import annotations

import io
import tarfile
import tempfile
import zipfile
from pathlib import Path, PurePosixPath
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from judge.db.models import ProblemRow, ProblemVersion, VersionStatus
from judge.problems import SLUG, Problem, ProblemError, discover, load_problem

MAX_FILES = 200
MAX_TOTAL_BYTES = 20 * 1024 * 1024


def folder_files(folder: Path) -> dict[str, str]:
    """Every text file of a problem folder, keyed by its relative POSIX path."""
    files = {}
    for path in sorted(folder.rglob("*")):
        rel = path.relative_to(folder)
        if path.is_file() and "__pycache__" not in rel.parts and path.suffix != ".pyc":
            files[rel.as_posix()] = path.read_text(encoding="utf-8")
    return files


def _safe_path(name: str) -> str:
    path = PurePosixPath(name)
    if path.is_absolute() or ".." in path.parts or not path.parts:
        raise ProblemError(f"archive entry {name!r} is not a relative path inside the problem")
    return path.as_posix()


def problem_from_files(files: dict[str, str], slug: str) -> Problem:
    """Validate a folder given as files by loading it exactly as problems/ folders are loaded."""
    if not SLUG.match(slug):
        raise ProblemError(f"slug {slug!r} must match {SLUG.pattern}")
    total = sum(len(text.encode()) for text in files.values())
    if len(files) > MAX_FILES or total > MAX_TOTAL_BYTES:
        raise ProblemError(f"a problem may hold at most {MAX_FILES} files and "
                           f"{MAX_TOTAL_BYTES // 2**20} MiB")
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / slug
        for name, text in files.items():
            if not isinstance(text, str):
                raise ProblemError(f"file {name!r} must be text")
            target = folder / _safe_path(name)
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(text, encoding="utf-8")
        try:
            return load_problem(folder)
        except ProblemError as exc:
            # Name files as the author knows them (slug/problem.toml), not by the scratch folder.
            raise ProblemError(str(exc).replace(f"{tmp}/", "")) from exc


_LOADED: dict[tuple[int, str], Problem] = {}


def load_version(version: ProblemVersion) -> Problem:
    """The Problem of a stored version (cached: a stored version never changes)."""
    key = (version.id, version.version)
    if key not in _LOADED:
        if len(_LOADED) >= 64:
            _LOADED.clear()
        _LOADED[key] = problem_from_files(version.files, version.problem.slug)
    return _LOADED[key]


def files_from_archive(data: bytes, filename: str = "") -> dict[str, str]:
    """Read a .zip or .tar(.gz) of a problem folder; a single top-level folder is stripped."""
    entries: dict[str, bytes] = {}
    total = 0
    if zipfile.is_zipfile(io.BytesIO(data)):
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            for info in archive.infolist():
                if info.is_dir():
                    continue
                total += info.file_size
                if total > MAX_TOTAL_BYTES or len(entries) >= MAX_FILES:
                    raise ProblemError("the archive is too large")
                entries[_safe_path(info.filename)] = archive.read(info)
    else:
        try:
            with tarfile.open(fileobj=io.BytesIO(data), mode="r:*") as archive:
                for member in archive.getmembers():
                    if member.isdir():
                        continue
                    if not member.isfile():
                        raise ProblemError(f"archive entry {member.name!r} is not a regular file")
                    total += member.size
                    if total > MAX_TOTAL_BYTES or len(entries) >= MAX_FILES:
                        raise ProblemError("the archive is too large")
                    extracted = archive.extractfile(member)
                    entries[_safe_path(member.name)] = extracted.read() if extracted else b""
        except tarfile.TarError as exc:
            raise ProblemError(f"{filename or 'the upload'} is neither a zip nor a tar archive") from exc
    entries = {k: v for k, v in entries.items() if "__pycache__" not in k and not k.endswith(".pyc")}
    tops = {name.split("/", 1)[0] for name in entries}
    if len(tops) == 1 and all("/" in name for name in entries):
        entries = {name.split("/", 1)[1]: v for name, v in entries.items()}
    files = {}
    for name, raw in entries.items():
        try:
            files[name] = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise ProblemError(f"{name}: not valid UTF-8 text") from exc
    return files


def add_version(session: Session, row: ProblemRow, files: dict[str, str],
                status: VersionStatus = VersionStatus.DRAFT,
                validation: dict[str, Any] | None = None) -> tuple[ProblemVersion, bool]:
    """Store files as a version of row (after loading them); (version, created)."""
    problem = problem_from_files(files, row.slug)
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
